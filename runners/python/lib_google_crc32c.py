"""python/google-crc32c: Google's crc32c C extension (hardware CRC32 instruction path)."""

from __future__ import annotations

from importlib.metadata import version

import google_crc32c

from cbrunner.registry import Digest, Library


def _crc32c(params):
    return lambda msg: google_crc32c.value(msg).to_bytes(4, "big")


LIBRARY = Library(
    name="google-crc32c",
    version=version("google-crc32c"),
    backend={"name": "crc32c (google)", "version": version("google-crc32c")},
    table={
        "crc32c": Digest(lambda params: lambda msg: google_crc32c.value(msg).to_bytes(4, "big"))
    },
    code_path=f"implementation: {google_crc32c.implementation}",
)

"""python/zlib: zlib.crc32 and zlib.adler32 (the zlib library CPython links)."""

from __future__ import annotations

import zlib

from cbrunner.registry import Digest, Library


def _int32(fn) -> Digest:
    return Digest(lambda params: lambda msg: fn(msg).to_bytes(4, "big"))


LIBRARY = Library(
    name="zlib",
    version="stdlib",
    backend={"name": "zlib", "version": zlib.ZLIB_RUNTIME_VERSION},
    table={"crc32": _int32(zlib.crc32), "adler32": _int32(zlib.adler32)},
)

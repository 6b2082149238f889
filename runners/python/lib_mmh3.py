"""python/mmh3: the mmh3 package (Austin Appleby's MurmurHash3 C code as an extension)."""

from __future__ import annotations

from importlib.metadata import version

import mmh3

from cbrunner.registry import Digest, Library


def _x86_32(params):
    seed = int(params["seed"])
    return lambda msg: mmh3.mmh3_32_uintdigest(msg, seed).to_bytes(4, "big")


def _bytes(fn) -> Digest:
    # The 16 bytes the reference writes (each word little-endian), the catalog's encoding.
    def make(params):
        seed = int(params["seed"])
        return lambda msg: fn(msg, seed)

    return Digest(make)


LIBRARY = Library(
    name="mmh3",
    version=version("mmh3"),
    backend={"name": "MurmurHash3 (reference C, in the package)", "version": version("mmh3")},
    table={
        "murmur3-x86-32": Digest(_x86_32),
        "murmur3-x86-128": _bytes(mmh3.mmh3_x86_128_digest),
        "murmur3-x64-128": _bytes(mmh3.mmh3_x64_128_digest),
    },
    notes="mmh3_32_uintdigest and mmh3_*_128_digest (buffer-protocol functions of mmh3 5)",
)

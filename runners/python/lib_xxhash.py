"""python/xxhash: the xxhash package (bundles the xxHash C library)."""

from __future__ import annotations

import xxhash

from cbrunner.registry import Digest, Library


def _int(fn, width: int) -> Digest:
    def make(params):
        seed = int(params["seed"])
        return lambda msg: fn(msg, seed).to_bytes(width, "big")

    return Digest(make)


def _xxh3_128() -> Digest:
    def make(params):
        seed = int(params["seed"])
        return lambda msg: xxhash.xxh3_128_digest(msg, seed)  # canonical: big-endian

    return Digest(make)


LIBRARY = Library(
    name="xxhash",
    version=xxhash.VERSION,
    backend={"name": "xxhash", "version": xxhash.XXHASH_VERSION},
    table={
        "xxh32": _int(xxhash.xxh32_intdigest, 4),
        "xxh64": _int(xxhash.xxh64_intdigest, 8),
        "xxh3-64": _int(xxhash.xxh3_64_intdigest, 8),
        "xxh3-128": _xxh3_128(),
    },
)

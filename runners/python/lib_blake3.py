"""python/blake3: the official BLAKE3 Rust implementation's Python binding (SIMD, 1 thread)."""

from __future__ import annotations

from importlib.metadata import version

import blake3

from cbrunner.registry import Digest, Library

LIBRARY = Library(
    name="blake3",
    version=version("blake3"),
    backend={"name": "blake3 (rust)", "version": version("blake3")},
    table={"blake3": Digest(lambda params: lambda msg: blake3.blake3(msg).digest())},
    notes="single-threaded (max_threads=1, the default)",
)

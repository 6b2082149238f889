"""Generated messages: a seed and a length that every runner expands with one generator
(docs/protocol.md, "Generated messages"), so a message's size costs nothing to send.

The generator is xorshift64 (Marsaglia 2003, shifts 13, 7, 17) filling one 64 KiB block that
repeats to the length. It is not a cryptographic primitive: it only has to be the same bytes
in every runtime, cheap to expand and cheap to hash in pieces here.
"""

from __future__ import annotations

import functools
import hashlib
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

GENERATOR = "xorshift64"
BLOCK = 65536
SEED_MAX = (1 << 32) - 1
_MASK = (1 << 64) - 1
_MIX = 0x9E3779B97F4A7C15
HEX_LIMIT = 64 << 20  # larger messages are never sent as hex: a runtime must expand them

# catalog id -> hashlib name: the orchestrator's own reference over a generated message
_HASHLIB = {
    "md5": "md5",
    "sha1": "sha1",
    "sha224": "sha224",
    "sha256": "sha256",
    "sha384": "sha384",
    "sha512": "sha512",
    "sha3-224": "sha3_224",
    "sha3-256": "sha3_256",
    "sha3-384": "sha3_384",
    "sha3-512": "sha3_512",
    "blake2b-512": "blake2b",
    "blake2s-256": "blake2s",
}


@functools.lru_cache(maxsize=8)
def block(seed: int) -> bytes:
    """The 64 KiB block of ``seed``: 8192 xorshift64 words, each little-endian."""
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"generator seed {seed} is not in 0..{SEED_MAX}")
    x = seed ^ _MIX
    words = bytearray()
    for _ in range(BLOCK // 8):
        x ^= (x << 13) & _MASK
        x ^= x >> 7
        x ^= (x << 17) & _MASK
        words += x.to_bytes(8, "little")
    return bytes(words)


@dataclass(frozen=True)
class Generated:
    """A message of ``length`` bytes: the block of ``seed`` repeated, cut to the length."""

    seed: int
    length: int

    def wire(self) -> dict:
        return {"generator": GENERATOR, "seed": self.seed, "length": self.length}

    def chunks(self) -> Iterator[bytes]:
        b, left = block(self.seed), self.length
        while left > 0:
            yield b[: min(left, BLOCK)]
            left -= BLOCK

    def bytes(self) -> bytes:
        return b"".join(self.chunks())

    def hex(self) -> str:
        if self.length > HEX_LIMIT:
            raise ValueError(f"a {self.length}-byte message is too large to send as hex")
        return self.bytes().hex()


def wire_inputs(inputs: dict, can_generate: bool) -> dict:
    """Inputs as a runner takes them: generated messages as generator objects where the runner
    declares the generator, else as hex (up to HEX_LIMIT)."""
    out = {}
    for name, value in inputs.items():
        if isinstance(value, Generated):
            value = value.wire() if can_generate else value.hex()
        out[name] = value
    return out


def reference(prim_id: str, msg: Generated, params: dict) -> tuple[str, str] | None:
    """(output hex, what computed it) from Python's own library, streamed over the blocks
    without building the message; None where there is no reference for the primitive."""
    if prim_id == "crc32":
        crc = 0
        for chunk in msg.chunks():
            crc = zlib.crc32(chunk, crc)
        return crc.to_bytes(4, "big").hex(), "zlib.crc32"
    name = _HASHLIB.get(prim_id)
    if name is None or params.get("out_len") not in (None, hashlib.new(name).digest_size):
        return None
    h = hashlib.new(name)
    for chunk in msg.chunks():
        h.update(chunk)
    return h.hexdigest(), f"hashlib.{name}"

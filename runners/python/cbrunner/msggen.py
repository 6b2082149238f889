"""Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over one 64 KiB
block, repeated to the length. Not a cryptographic primitive: the same bytes in every runner."""

from __future__ import annotations

from cbrunner.limits import MAX_GENERATED

GENERATORS = ["xorshift64"]
_BLOCK = 65536
_MASK = (1 << 64) - 1


def _block(seed: int) -> bytes:
    x = seed ^ 0x9E3779B97F4A7C15
    out = bytearray()
    for _ in range(_BLOCK // 8):
        x ^= (x << 13) & _MASK
        x ^= x >> 7
        x ^= (x << 17) & _MASK
        out += x.to_bytes(8, "little")
    return bytes(out)


def expand(spec: dict) -> bytes:
    """The message a generator object describes; ValueError says what is wrong with it."""
    seed, length = spec.get("seed"), spec.get("length")
    if spec.get("generator") not in GENERATORS:
        raise ValueError(f"unknown generator {spec.get('generator')!r}; valid: xorshift64")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 32:
        raise ValueError("generator seed must be an integer in 0..4294967295")
    if not isinstance(length, int) or isinstance(length, bool) or length < 0:
        raise ValueError("generator length must be an integer >= 0")
    if length > MAX_GENERATED:
        raise MemoryError(f"a generated message is at most {MAX_GENERATED} bytes")
    block = _block(seed)
    try:
        return b"".join([block] * (length // _BLOCK) + [block[: length % _BLOCK]])
    except MemoryError:
        raise MemoryError(f"cannot hold a {length}-byte message") from None

"""What a verification found, and the contract checks every step shares: output lengths,
encoded password-hash costs, which implementations run the same code or backend."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..catalog.primitives import Primitive
from ..runtimes.protocol import Implementation


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str
    vectors: int = 0  # known answers that passed
    unverifiable: bool = False  # nothing to check it against: never timed, not a failure


class VerifyError(Exception):
    pass


class Unverifiable(VerifyError):
    """No published vector and no second implementation to agree with."""


def flip(hex_str: str, index: int) -> str:
    """Flip the lowest bit of byte ``index`` (negative: from the end)."""
    b = bytearray(bytes.fromhex(hex_str))
    b[index] ^= 1
    return b.hex()


def expected_len(prim: Primitive, op: str, inputs: dict, params: dict) -> int | None:
    """Output length in bytes the contract requires, where it is fixed."""
    if op in ("digest", "mac"):
        return int(params.get("out_len", prim.output_len or 0)) or None
    if op == "derive":
        return int(params["out_len"]) if "out_len" in params else None
    if op in ("agree", "decaps"):
        return prim.output_len
    if op == "encaps" and prim.ciphertext_len and prim.output_len:
        return prim.ciphertext_len + prim.output_len
    if op == "sign":
        return prim.signature_len
    msg_len = len(inputs.get("msg", "")) // 2
    if op in ("seal", "roundtrip") and prim.family == "aead":
        return msg_len + (prim.tag_len or 16)
    if op in ("encrypt", "roundtrip"):
        return msg_len
    if op == "open":
        return msg_len - (prim.tag_len or 16)
    return None


def check_encoded_cost(prim: Primitive, encoded: str, params: dict) -> None:
    """An encoded hash verifies with whatever cost it names: check it names the one asked for,
    so a runner cannot pass by hashing cheaper."""
    if prim.id.startswith("argon2"):
        found = re.search(r"\$m=(\d+),t=(\d+),p=(\d+)\$", encoded)
        want = (params.get("m"), params.get("t"), params.get("p"))
        if not found or tuple(int(x) for x in found.groups()) != want:
            raise VerifyError(f"encoded hash {encoded[:40]} does not carry m,t,p = {want}")
    elif prim.id == "bcrypt":
        found = re.match(r"\$2[aby]\$(\d\d)\$", encoded)
        if not found or int(found.group(1)) != params.get("cost"):
            raise VerifyError(
                f"encoded hash {encoded[:10]} does not carry cost {params.get('cost')}"
            )


def same_code(a: Implementation, b: Implementation) -> bool:
    """One library in two variants of a runtime (java/bc and java@25/bc) runs the same code."""
    return a.library == b.library and a.runtime_id.split("@")[0] == b.runtime_id.split("@")[0]


def same_backend(a: Implementation, b: Implementation) -> bool:
    """Two bindings of one backend (python/hashlib and node/crypto: both OpenSSL)."""
    name = (a.backend or {}).get("name")
    return bool(name) and name == (b.backend or {}).get("name")


def same_output(got: str, want: str | None, what: str) -> None:
    if want is not None and got != want.lower() and got != want:
        raise VerifyError(f"{what}: got {got[:80]}, expected {want[:80]}")


def freeze(d: dict) -> tuple:
    """A dict as a hashable key (values as text)."""
    return tuple(sorted((k, str(v)) for k, v in d.items()))

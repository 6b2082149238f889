"""Project Wycheproof's key-agreement and signature files (docs/catalog.md, "Project
Wycheproof"): how a test becomes `agree` or `verify` inputs, and what passes.

Key agreement: valid tests must give exactly the shared secret, invalid ones be refused,
acceptable ones (X25519's low-order and twist points, a compressed P-256 point) either.
Signatures: valid ones verify and are refused with one bit flipped; invalid ones are refused
(ML-DSA: the tests without a context string; the catalog's ML-DSA has the empty context).
"""

from __future__ import annotations

from .pubkey import flipped

KEX_TYPES = ("XdhComp", "EcdhEcpointTest")
SIG_TYPES = (
    "EddsaVerify",
    "EcdsaVerify",
    "EcdsaP1363Verify",
    "RsassaPssVerify",
    "RsassaPkcs1Verify",
    "MlDsaVerify",
)
TYPES = KEX_TYPES + SIG_TYPES
REFUSED = ("auth_failed", "invalid_params", "unsupported")
SIG_REFUSED = ("auth_failed", "invalid_params")  # a flipped bit: the library ran and said no


class Fail(Exception):
    pass


def _private(hex_str: str, curve: str) -> str:
    """P-256 private keys are big-endian integers, sometimes with a sign byte: 32 bytes."""
    if curve == "curve25519":
        return hex_str
    value = int(hex_str or "0", 16)
    return value.to_bytes(max(32, (value.bit_length() + 7) // 8), "big").hex()


def _public_key(group: dict) -> str | None:
    key = group.get("publicKey") or {}
    if group["type"] == "EddsaVerify":
        return key.get("pk")
    if group["type"] == "MlDsaVerify":
        return group.get("publicKey")  # FIPS 204 pk (some of a wrong length: invalid)
    if group["type"].startswith("Ecdsa"):
        return key.get("uncompressed")
    return group.get("publicKeyDer")  # RSA: the SubjectPublicKeyInfo


def _pss_params_match(group: dict) -> bool:
    """The catalog's PSS: SHA-256, MGF1-SHA-256, a 32-byte salt."""
    if group["type"] != "RsassaPssVerify":
        return True
    return (group.get("sha"), group.get("mgfSha"), group.get("sLen")) == ("SHA-256", "SHA-256", 32)


def parse(group: dict, test: dict) -> tuple[str, dict, str] | None:
    """(kind, inputs, expected output) of one test, or None when it is not ours to run."""
    if group["type"] in KEX_TYPES:
        inputs = {
            "private_key": _private(test["private"], group.get("curve", "")),
            "peer_public_key": test["public"],
        }
        return "kex", inputs, test["shared"]
    public = _public_key(group)
    if public is None or not _pss_params_match(group) or test.get("ctx"):
        return None  # ML-DSA with a context: the catalog's is pure ML-DSA, empty context
    return "sig", {"public_key": public, "msg": test["msg"], "signature": test["sig"]}, "ok"


def check(call, case) -> None:
    """Raise Fail unless the implementation's answers meet the test's result; ``call`` is
    the suite's (operation, inputs) → (output, error kind)."""
    if case.kind == "kex":
        out, kind = call("agree", case.inputs)
        if case.result == "valid" and (kind is not None or out != case.expected):
            raise Fail(f"agree gave {kind or out[:32]}, expected {case.expected[:32]}")
        if case.result == "invalid" and kind not in REFUSED:
            raise Fail(f"accepted an invalid peer key (agree gave {kind or out[:32]})")
        if case.result == "acceptable" and kind not in REFUSED and out != case.expected:
            raise Fail(f"agree gave {kind or out[:32]}: neither the secret nor a refusal")
        return
    out, kind = call("verify", case.inputs)
    if case.result == "invalid" and kind not in REFUSED:
        raise Fail(f"accepted an invalid signature (verify gave {kind or out})")
    if case.result == "valid":
        if kind is not None or out != "ok":
            raise Fail(f"verify of a valid signature gave {kind or out}")
        bad = dict(case.inputs, signature=flipped(case.inputs["signature"]))
        out, kind = call("verify", bad)
        if kind not in SIG_REFUSED:
            raise Fail(f"accepted the signature with a flipped bit (verify gave {kind or out})")

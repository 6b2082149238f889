"""Project Wycheproof's ML-DSA signing files (mldsa_*_sign_seed_test.json; docs/catalog.md,
"Project Wycheproof"): keygen from the 32-byte seed ξ must give the group's public key, and
signing with the test's rnd (32 zero bytes where it has none: the deterministic variant) must
give exactly its signature, which must verify. A test with a private key of the wrong length
must be refused. Tests that only give μ (flag ``Internal``) or a context string are not ours
to run: the catalog's ML-DSA signs messages with the empty context.
"""

from __future__ import annotations

TYPES = ("MlDsaSign",)
REFUSED = ("invalid_params", "unsupported", "bad_request")
ZERO_RND = "00" * 32
NO_RANDOMNESS = "unsupported: no signing with a given randomness"


class Fail(Exception):
    pass


def parse(group: dict, test: dict) -> tuple[str, dict, str] | None:
    """("mldsa-sign", inputs, expected signature), or None when it is not ours to run."""
    if "msg" not in test or test.get("ctx"):
        return None
    inputs = {
        "private_key": group["privateSeed"],
        "public_key": group["publicKey"],
        "msg": test["msg"],
        "randomness": test.get("rnd") or ZERO_RND,
    }
    return "mldsa-sign", inputs, test.get("sig", "")


def check(call, case) -> str | None:
    """None when the case passed, a reason when it is unsupported; raise Fail otherwise."""
    seed, public, msg = (case.inputs[k] for k in ("private_key", "public_key", "msg"))
    sign = {"private_key": seed, "msg": msg, "randomness": case.inputs["randomness"]}
    if case.result == "invalid":
        out, kind = call("sign", sign)
        if kind not in REFUSED:
            raise Fail(f"signed with a wrong-length private key (sign gave {kind or out[:32]})")
        return None
    out, kind = call("keygen", {"key_seed": seed})
    if kind is not None or out != public + seed:
        raise Fail(f"keygen from the seed gave {kind or out[:32]}, expected pk‖seed")
    out, kind = call("verify", {"public_key": public, "msg": msg, "signature": case.expected})
    if kind is not None or out != "ok":
        raise Fail(f"verify of the test's signature gave {kind or out}")
    out, kind = call("sign", sign)
    if kind == "unsupported":
        return NO_RANDOMNESS
    if kind is not None or out != case.expected:
        raise Fail(f"sign gave {kind or out[:32]}, expected {case.expected[:32]}")
    return None

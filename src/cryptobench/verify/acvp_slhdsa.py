"""NIST ACVP's SLH-DSA vectors (vectors/acvp/slh_dsa_fips205_subset.json; vectors/acvp/README.md),
run beside the Wycheproof suite. keyGen: keygen from the seed SK.seed‖SK.prf‖PK.seed must give
the test's public key (followed by that seed, the private key's form). sigGen (pure, empty
context): the test's signature must verify, and signing with its opt_rand
(``additionalRandomness``, or PK.seed for the deterministic variant) must give exactly it.
sigVer (pure, empty context): a valid signature must verify, an invalid one must be refused.
"""

from __future__ import annotations

import json
from pathlib import Path

FILE = "slh_dsa_fips205_subset.json"
PRIMITIVES = {
    "SLH-DSA-SHA2-128s": "slh-dsa-sha2-128s",
    "SLH-DSA-SHA2-128f": "slh-dsa-sha2-128f",
    "SLH-DSA-SHAKE-128f": "slh-dsa-shake-128f",
}
# the operation a case needs: an implementation that does not offer it is unsupported
OPERATION = {"slhdsa-keygen": "keygen", "slhdsa-sign": "sign", "slhdsa-verify": "verify"}
REFUSED = ("auth_failed", "invalid_params")
NO_SEED = "unsupported: no key generation from a seed"
NO_RANDOMNESS = "unsupported: no signing with a given randomness"


class Fail(Exception):
    pass


def parse(path: Path) -> list[tuple]:
    """(primitive, kind, where, inputs, expected, result) for every stored test."""
    doc = json.loads(path.read_text())
    out = []
    for t in doc["keyGen"]:
        seed = (t["skSeed"] + t["skPrf"] + t["pkSeed"]).lower()
        where = f"ACVP SLH-DSA keyGen #{t['tcId']}"
        row = (PRIMITIVES[t["parameterSet"]], "slhdsa-keygen", where, {"key_seed": seed})
        out.append((*row, t["pk"].lower() + seed, "valid"))
    for t in doc["sigGen"]:
        out.append(_sign(t))
    for t in doc["sigVer"]:
        inputs = {"public_key": t["pk"].lower(), "msg": t["message"].lower(),
                  "signature": t["signature"].lower()}  # fmt: skip
        result = "valid" if t["testPassed"] else "invalid"
        where = f"ACVP SLH-DSA sigVer #{t['tcId']}"
        out.append((PRIMITIVES[t["parameterSet"]], "slhdsa-verify", where, inputs, "ok", result))
    return out


def _sign(t: dict) -> tuple:
    """A sigGen test: ACVP's sk is SK.seed‖SK.prf‖PK.seed‖PK.root (4n bytes)."""
    sk = t["sk"].lower()
    n2 = len(sk) // 4  # n bytes in hex
    inputs = {
        "private_key": sk[: 3 * n2],
        "public_key": sk[2 * n2 :],
        "msg": t["message"].lower(),
        "randomness": (t.get("additionalRandomness") or sk[2 * n2 : 3 * n2]).lower(),
    }
    where = f"ACVP SLH-DSA sigGen #{t['tcId']}"
    kind = "slhdsa-sign"
    return (PRIMITIVES[t["parameterSet"]], kind, where, inputs, t["signature"].lower(), "valid")


def check(call, case) -> str | None:
    """None when the case passed, a reason when it is unsupported; raise Fail otherwise."""
    if case.kind == "slhdsa-keygen":
        out, kind = call("keygen", case.inputs)
        if kind == "unsupported":
            return NO_SEED
        if kind is not None or out != case.expected:
            raise Fail(f"keygen from the seed gave {kind or out[:32]}, expected pk‖seed")
        return None
    if case.kind == "slhdsa-verify":
        return _verify(call, case.inputs, case.result == "valid")
    public, msg, sig = case.inputs["public_key"], case.inputs["msg"], case.expected
    _verify(call, {"public_key": public, "msg": msg, "signature": sig}, True)
    sign = {k: case.inputs[k] for k in ("private_key", "msg", "randomness")}
    out, kind = call("sign", sign)
    if kind == "unsupported":
        return NO_RANDOMNESS
    if kind is not None or out != sig:
        raise Fail(f"sign gave {kind or out[:32]}, expected {sig[:32]}")
    return None


def _verify(call, inputs: dict, valid: bool) -> None:
    """A valid signature must verify, and be refused with its last bit flipped; an invalid one
    must be refused."""
    out, kind = call("verify", inputs)
    if not valid:
        if kind not in REFUSED:
            raise Fail(f"accepted an invalid signature (verify gave {kind or out})")
        return
    if kind is not None or out != "ok":
        raise Fail(f"verify of a valid signature gave {kind or out}")
    sig = inputs["signature"]
    flipped = sig[:-2] + f"{int(sig[-2:], 16) ^ 1:02x}"
    out, kind = call("verify", dict(inputs, signature=flipped))
    if kind not in REFUSED:
        raise Fail(f"accepted a signature with a flipped bit (verify gave {kind or out})")

"""Project Wycheproof's ML-KEM files (docs/catalog.md, "Project Wycheproof"): how a test
becomes `keygen`, `encaps` or `decaps` inputs, and what passes.

- ``MLKEMKeyGen`` (mlkem_*_keygen_seed_test.json): keygen from the 64-byte seed d‖z must give
  ek followed by the seed (the private key travels in seed form).
- ``MLKEMEncapsTest`` (mlkem_*_encaps_test.json): encaps of ek with the randomness m must give
  c‖K; an invalid ek (a coefficient not reduced mod q, a wrong length) must be refused — sent
  without randomness, so a library that cannot take m still has to refuse the key.
- ``MLKEMTest`` (mlkem_*_test.json): keygen from the seed gives ek, and decaps of c gives K —
  for a ciphertext that does not decrypt (random, bit-flipped) K is the implicit-rejection
  secret, never an error; a seed or ciphertext of the wrong length must be refused.
"""

from __future__ import annotations

TYPES = ("MLKEMKeyGen", "MLKEMEncapsTest", "MLKEMTest")
REFUSED = ("invalid_params", "unsupported", "bad_request")
NO_RANDOMNESS = "unsupported: no encapsulation with a given randomness"
# the operation a test checks (an implementation that does not offer it: unsupported)
OPERATION = {"kem-keygen": "keygen", "kem-encaps": "encaps", "kem-decaps": "decaps"}


class Fail(Exception):
    pass


def parse(group: dict, test: dict) -> tuple[str, dict, str] | None:
    """(kind, inputs, expected output) of one test: kind is the operation checked last."""
    kind = group["type"]
    if kind == "MLKEMKeyGen":
        return "kem-keygen", {"key_seed": test["seed"]}, test["ek"] + test["seed"]
    if kind == "MLKEMEncapsTest":
        inputs = {"public_key": test["ek"], "randomness": test["m"]}
        return "kem-encaps", inputs, test.get("c", "") + test.get("K", "")
    inputs = {"private_key": test["seed"], "ciphertext": test["c"]}
    if test.get("ek"):
        inputs["public_key"] = test["ek"]  # keygen from the seed must give it
    return "kem-decaps", inputs, test.get("K", "")


def check(call, case) -> str | None:
    """None when the case passed, a reason when it is unsupported; raise Fail otherwise.
    ``call`` is the suite's (operation, inputs) → (output, error kind)."""
    if case.kind == "kem-keygen":
        out, kind = call("keygen", case.inputs)
        if kind is not None or out != case.expected:
            raise Fail(f"keygen from the seed gave {kind or out[:32]}, expected ek‖seed")
        return None
    if case.kind == "kem-encaps":
        return _encaps(call, case)
    return _decaps(call, case)


def _encaps(call, case) -> str | None:
    if case.result == "invalid":
        out, kind = call("encaps", {"public_key": case.inputs["public_key"]})
        if kind not in REFUSED:
            raise Fail(f"accepted an invalid encapsulation key (encaps gave {kind or out[:32]})")
        return None
    out, kind = call("encaps", case.inputs)
    if kind == "unsupported":
        return NO_RANDOMNESS
    if kind is not None or out != case.expected:
        raise Fail(f"encaps gave {kind or out[:32]}, expected {case.expected[:32]}")
    return None


def _decaps(call, case) -> str | None:
    inputs = {k: case.inputs[k] for k in ("private_key", "ciphertext")}
    if case.result == "invalid":
        out, kind = call("decaps", inputs)
        if kind not in REFUSED:
            raise Fail(f"accepted a wrong-length seed or ciphertext (decaps gave {kind or out})")
        return None
    public = case.inputs.get("public_key")
    if public:
        out, kind = call("keygen", {"key_seed": inputs["private_key"]})
        if kind is not None or out != public + inputs["private_key"]:
            raise Fail(f"keygen from the seed gave {kind or out[:32]}, expected ek‖seed")
    out, kind = call("decaps", inputs)
    if kind is not None:
        raise Fail(f"decaps of a valid-length ciphertext: {kind} (implicit rejection expected)")
    if out != case.expected:
        raise Fail(f"decaps gave {out[:32]}, expected {case.expected[:32]}")
    return None

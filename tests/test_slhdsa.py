"""SLH-DSA (FIPS 205; issue 31) in the signature family: the catalog entries and benchmark
keys, the stored NIST ACVP subset and how its cases pass (verify/acvp_slhdsa.py), and
go/circl, node/noble-pq and rust/rustcrypto verifying each other's signatures, every ACVP case
passed, wrong-length inputs refused as invalid_params."""

from __future__ import annotations

from collections import Counter

import pytest

from cryptobench.catalog import keys
from cryptobench.catalog import primitives as catalog_mod
from cryptobench.measure import sampling
from cryptobench.verify import acvp_slhdsa as acvp
from cryptobench.verify import wycheproof
from tests import verifyhelp
from tests.conftest import built as _built

CATALOG = catalog_mod.load()
# FIPS 205 Table 2: signature bytes; public key 2n = 32, private key (seed form) 3n = 48
SIZES = {"slh-dsa-sha2-128s": 7856, "slh-dsa-sha2-128f": 17088, "slh-dsa-shake-128f": 17088}
# the stored subset (vectors/acvp/README.md): (kind, result) → count
STORED = {
    "slh-dsa-sha2-128s": {("slhdsa-keygen", "valid"): 4, ("slhdsa-sign", "valid"): 2,
                          ("slhdsa-verify", "invalid"): 1},
    "slh-dsa-sha2-128f": {("slhdsa-keygen", "valid"): 4, ("slhdsa-sign", "valid"): 1,
                          ("slhdsa-verify", "invalid"): 1},
    "slh-dsa-shake-128f": {("slhdsa-keygen", "valid"): 4, ("slhdsa-sign", "valid"): 2,
                           ("slhdsa-verify", "valid"): 1},
}  # fmt: skip
IMPLS = {"go/circl", "node/noble-pq", "rust/rustcrypto"}
RUNTIMES = ("go", "node", "rust")
PRIMS = verifyhelp.flags("primitive", SIZES)


def test_catalog_entries_sizes_and_benchmark_keys():
    for pid, sig in SIZES.items():
        prim = CATALOG.get(pid)
        assert (prim.family, prim.operations) == ("signature", ("keygen", "sign", "verify"))
        assert (prim.public_key_len, prim.private_key_len, prim.signature_len) == (32, 48, sig)
        assert (prim.security_bits, prim.status) == (128, "recommended")
        assert keys.wire_bytes(prim) == {"public_key": 32, "signature": sig}
        pair = keys.for_primitive(pid)
        assert (len(pair.private_key), len(pair.public_key)) == (96, 64)
        assert pair.public_key[:32] == pair.private_key[64:]  # PK.seed in both


def test_small_signature_signing_is_sampled_with_many_calls_like_rsa_keygen():
    assert sampling.call_floor(CATALOG.get("rsa-2048-pss-sha256"), "keygen") > 3
    floor = sampling.call_floor(CATALOG.get("slh-dsa-sha2-128s"), "sign")
    assert floor == sampling.call_floor(CATALOG.get("rsa-2048-pss-sha256"), "keygen")
    for pid, op in [("slh-dsa-sha2-128s", "verify"), ("slh-dsa-sha2-128f", "sign"),
                    ("slh-dsa-shake-128f", "sign"), ("ml-dsa-65", "sign")]:  # fmt: skip
        assert sampling.call_floor(CATALOG.get(pid), op) == 0


def test_acvp_subset_is_pure_empty_context_and_deterministic_where_it_says():
    cases = wycheproof.load()
    for pid, want in STORED.items():
        assert dict(Counter((c.kind, c.result) for c in cases[pid])) == want
        for c in cases[pid]:
            if c.kind == "slhdsa-sign":
                assert len(c.inputs["private_key"]) == 96 and len(c.inputs["randomness"]) == 32
                assert c.inputs["public_key"][:32] == c.inputs["private_key"][64:]
    signing = [c for p in SIZES for c in cases[p] if c.kind == "slhdsa-sign"]
    seeded = [c for c in signing if c.inputs["randomness"] == c.inputs["private_key"][64:]]
    assert (len(signing), len(seeded)) == (5, 3)  # opt_rand = PK.seed: the deterministic tests


class Answers:
    def __init__(self, table: dict):
        self.table, self.calls = table, []

    def __call__(self, op, inputs):
        self.calls.append((op, inputs.get("signature", "")[-2:]))
        answer = self.table[op]
        return answer(inputs) if callable(answer) else answer


def _sign_case():
    inputs = {"private_key": "2a" * 48, "public_key": "2a" * 16 + "11" * 16, "msg": "",
              "randomness": "2a" * 16}  # fmt: skip
    return wycheproof.Case("slh-dsa-sha2-128f", "slhdsa-sign", "t", inputs, "22" * 17088,
                           "valid", {})  # fmt: skip


def _verifier(inputs):
    """Accepts exactly the signature 22…22."""
    return ("ok", None) if inputs["signature"] == "22" * 17088 else (None, "auth_failed")


def test_signing_case_checks_the_signature_its_bit_flip_then_the_exact_signature():
    case = _sign_case()
    call = Answers({"verify": _verifier, "sign": ("22" * 17088, None)})
    assert acvp.check(call, case) is None
    assert call.calls == [("verify", "22"), ("verify", "23"), ("sign", "")]
    got = acvp.check(Answers({"verify": _verifier, "sign": (None, "unsupported")}), case)
    assert got == acvp.NO_RANDOMNESS
    wrongs = [
        {"verify": _verifier, "sign": ("33" * 17088, None)},  # another signature
        {"verify": ("ok", None), "sign": ("22" * 17088, None)},  # accepts a flipped bit
        {"verify": (None, "auth_failed"), "sign": ("22" * 17088, None)},
    ]
    for wrong in wrongs:
        with pytest.raises(acvp.Fail):
            acvp.check(Answers(wrong), case)


def test_keygen_and_sigver_cases():
    keygen = wycheproof.Case("slh-dsa-sha2-128s", "slhdsa-keygen", "t", {"key_seed": "2a" * 48},
                             "11" * 32 + "2a" * 48, "valid", {})  # fmt: skip
    assert acvp.check(Answers({"keygen": ("11" * 32 + "2a" * 48, None)}), keygen) is None
    assert acvp.check(Answers({"keygen": (None, "unsupported")}), keygen) == acvp.NO_SEED
    with pytest.raises(acvp.Fail):
        acvp.check(Answers({"keygen": ("11" * 80, None)}), keygen)
    inputs = {"public_key": "11" * 32, "msg": "", "signature": "22" * 17088}
    bad = wycheproof.Case("slh-dsa-sha2-128f", "slhdsa-verify", "t", inputs, "ok", "invalid", {})
    assert acvp.check(Answers({"verify": (None, "auth_failed")}), bad) is None
    with pytest.raises(acvp.Fail, match="invalid"):
        acvp.check(Answers({"verify": ("ok", None)}), bad)


@pytest.mark.skipif(not all(_built(r) for r in RUNTIMES), reason="go, node or rust not built")
def test_go_node_rust_verify_each_other_and_pass_every_acvp_case():
    where = verifyhelp.flags("runtime", RUNTIMES) + PRIMS
    rows = [r for r in verifyhelp.verify_rows(*where, timeout=1800) if r["primitive"] in SIZES]
    # --runtime rust also selects rust@native (the same crate, built for this CPU) where built
    assert {r["implementation"] for r in rows if "@" not in r["implementation"]} == IMPLS
    assert all(r["status"] == "ok" for r in rows)
    # every signature is verified by an implementation of another runtime
    verifyhelp.assert_checked_by_another_runtime(rows, RUNTIMES, "sign")
    tallies = verifyhelp.wycheproof_tallies(*where, timeout=1800)
    run = sum(n for want in STORED.values() for n in want.values())
    verifyhelp.assert_every_case_passed(tallies, IMPLS, run)


# wrong lengths of every SLH-DSA-SHA2-128f input (the 64-byte FIPS 205 private key included)
WRONG = [
    ("keygen", {"key_seed": "11" * 32}),
    ("sign", {"private_key": "11" * 64, "msg": ""}),
    ("sign", {"private_key": "11" * 48, "msg": "", "randomness": "00" * 32}),
    ("verify", {"public_key": "22" * 31, "msg": "", "signature": "33" * 17088}),
]


@pytest.mark.parametrize(
    ("runtime", "impl"), [("go", "circl"), ("node", "noble-pq"), ("rust", "rustcrypto")]
)
def test_rows_refuse_wrong_lengths_as_invalid_params(runtime, impl):
    verifyhelp.assert_wrong_lengths_refused(runtime, impl, "slh-dsa-sha2-128f", WRONG)

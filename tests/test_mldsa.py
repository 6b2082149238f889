"""ML-DSA (issue 31) in the signature family: the catalog entries and their sizes, the stored
Wycheproof subsets and how a signing test passes (verify/wycheproof_mldsa.py), and go, node
and python signing and verifying each other's signatures, Wycheproof passed; rust/rustcrypto
with them, every Wycheproof vector passed (its signing takes the randomness)."""

from __future__ import annotations

from collections import Counter

import pytest

from cryptobench.catalog import keys
from cryptobench.catalog import primitives as catalog_mod
from cryptobench.verify import wycheproof
from cryptobench.verify import wycheproof_mldsa as wp_mldsa
from tests import verifyhelp
from tests.conftest import built as _built

CATALOG = catalog_mod.load()
# FIPS 204 Table 2: (public key, signature) bytes; the private key is the 32-byte seed ξ
SIZES = {"ml-dsa-44": (1312, 2420), "ml-dsa-65": (1952, 3309), "ml-dsa-87": (2592, 4627)}
# the stored subsets (vectors/wycheproof/README.md): (kind, result) → count
STORED = {
    "ml-dsa-44": {("sig", "valid"): 12, ("sig", "invalid"): 15, ("mldsa-sign", "valid"): 9,
                  ("mldsa-sign", "invalid"): 2},
    "ml-dsa-65": {("sig", "valid"): 12, ("sig", "invalid"): 15, ("mldsa-sign", "valid"): 9,
                  ("mldsa-sign", "invalid"): 2},
    "ml-dsa-87": {("sig", "valid"): 13, ("sig", "invalid"): 16, ("mldsa-sign", "valid"): 9,
                  ("mldsa-sign", "invalid"): 2},
}  # fmt: skip


def test_catalog_entries_sizes_and_benchmark_keys():
    for pid, (pk, sig) in SIZES.items():
        prim = CATALOG.get(pid)
        assert (prim.family, prim.operations) == ("signature", ("keygen", "sign", "verify"))
        assert (prim.public_key_len, prim.private_key_len, prim.signature_len) == (pk, 32, sig)
        assert keys.wire_bytes(prim) == {"public_key": pk, "signature": sig}
        pair = keys.for_primitive(pid)
        assert (len(pair.private_key), len(pair.public_key)) == (64, 2 * pk)


def test_wycheproof_subsets_skip_contexts_and_mu_only_tests():
    cases = wycheproof.load()
    for pid, want in STORED.items():
        assert dict(Counter((c.kind, c.result) for c in cases[pid])) == want
        signing = [c for c in cases[pid] if c.kind == "mldsa-sign" and c.result == "valid"]
        assert all(
            len(c.inputs["randomness"]) == 64 and c.inputs["msg"] is not None for c in signing
        )


class Answers:
    def __init__(self, table: dict):
        self.table, self.calls = table, []

    def __call__(self, op, inputs):
        self.calls.append(op)
        return self.table[op]


def _case(result: str):
    inputs = {
        "private_key": "2a" * 32,
        "public_key": "11" * 1952,
        "msg": "",
        "randomness": "00" * 32,
    }
    return wycheproof.Case("ml-dsa-65", "mldsa-sign", "t", inputs, "22" * 3309, result, {})


def test_wycheproof_signing_checks_keygen_verify_then_the_exact_signature():
    case = _case("valid")
    good = {"keygen": ("11" * 1952 + "2a" * 32, None), "verify": ("ok", None)}
    call = Answers({**good, "sign": ("22" * 3309, None)})
    assert wp_mldsa.check(call, case) is None
    assert call.calls == ["keygen", "verify", "sign"]
    got = wp_mldsa.check(Answers({**good, "sign": (None, "unsupported")}), case)
    assert got == wp_mldsa.NO_RANDOMNESS  # a library that signs with its own randomness only
    signed = {"sign": ("22" * 3309, None)}
    wrongs = [
        {**good, "sign": ("33" * 3309, None)},  # another signature
        {**good, "verify": (None, "auth_failed"), **signed},
        {**good, "keygen": ("44" * 1984, None), **signed},
    ]
    for wrong in wrongs:
        with pytest.raises(wp_mldsa.Fail):
            wp_mldsa.check(Answers(wrong), case)


def test_wycheproof_signing_with_a_wrong_length_key_must_be_refused():
    case = _case("invalid")
    assert wp_mldsa.check(Answers({"sign": (None, "invalid_params")}), case) is None
    with pytest.raises(wp_mldsa.Fail, match="wrong-length"):
        wp_mldsa.check(Answers({"sign": ("22" * 3309, None)}), case)


RUNTIMES = ("go", "node", "python")


@pytest.mark.skipif(not all(_built(r) for r in RUNTIMES), reason="go, node or python not built")
def test_go_node_python_verify_each_other_and_pass_wycheproof():
    where = verifyhelp.flags("runtime", RUNTIMES) + verifyhelp.flags("primitive", SIZES)
    rows = verifyhelp.verify_rows(*where)
    impls = {r["implementation"] for r in rows if r["primitive"] in SIZES}
    assert {"go/circl", "node/noble-pq", "python/cryptography"} <= impls
    assert all(r["status"] == "ok" for r in rows)
    # every signature is verified by an implementation of another runtime
    verifyhelp.assert_checked_by_another_runtime(rows, RUNTIMES, "sign")
    tallies = verifyhelp.wycheproof_tallies(*where)
    run = sum(n for want in STORED.values() for n in want.values())
    assert (tallies["node/noble-pq"]["passed"], tallies["node/noble-pq"]["failed"]) == (run, 0)
    cases = wycheproof.load()
    random = sum(  # circl signs with fresh or zero randomness only: Wycheproof's rnd tests
        c.kind == "mldsa-sign" and c.inputs["randomness"] != "00" * 32
        for pid in SIZES
        for c in cases[pid]
    )
    circl = tallies["go/circl"]
    assert random == 3 and (circl["passed"], circl["unsupported"], circl["failed"]) == (
        run - random,
        random,
        0,
    )
    py = tallies["python/cryptography"]  # hedged signing only: the exact signatures unsupported
    signing = sum(want[("mldsa-sign", "valid")] for want in STORED.values())
    assert (py["passed"], py["unsupported"], py["failed"]) == (run - signing, signing, 0)


@pytest.mark.skipif(not all(_built(r) for r in ("rust", "go")), reason="rust or go not built")
def test_rust_rustcrypto_verifies_with_the_others_and_passes_all_wycheproof():
    # its signatures verified by go/circl; circl's verified by it
    tally = verifyhelp.rustcrypto_and_circl_check_each_other(
        SIZES, ("keygen", "sign", "verify"), "sign"
    )
    run = sum(n for want in STORED.values() for n in want.values())
    assert (tally["passed"], tally["unsupported"], tally["failed"]) == (run, 0, 0)


JAVA_MLDSA = {"java/bc", "java@25/bc", "java@25/jdk"}


@pytest.mark.skipif(
    not all(_built(r) for r in ("java", "java@25", "go")), reason="java, java@25 or go not built"
)
def test_java_bc_and_jdk_verify_with_go_and_pass_wycheproof():
    where = ["--runtime", "java", "--runtime", "go", *verifyhelp.flags("primitive", SIZES)]
    # JDK 17 has no ML-DSA (JEP 497: 24+); every Java signature verified by circl
    _, tallies = verifyhelp.java_checked_by_circl(where, SIZES, JAVA_MLDSA, "sign")
    run = sum(n for want in STORED.values() for n in want.values())  # rnd reaches both
    verifyhelp.assert_every_case_passed(tallies, JAVA_MLDSA, run)


# wrong lengths of every ML-DSA-65 input (the expanded private key is 4032 bytes)
WRONG_MLDSA = [
    ("keygen", {"key_seed": "11" * 64}),
    ("sign", {"private_key": "11" * 4032, "msg": ""}),
    ("sign", {"private_key": "11" * 32, "msg": "", "randomness": "00" * 16}),
    ("verify", {"public_key": "22" * 1951, "msg": "", "signature": "33" * 3309}),
]


@pytest.mark.parametrize(
    ("runtime", "impl"), [("java", "bc"), ("java@25", "bc"), ("java@25", "jdk")]
)
def test_java_rows_refuse_wrong_lengths_as_invalid_params(runtime, impl):
    verifyhelp.assert_wrong_lengths_refused(runtime, impl, "ml-dsa-65", WRONG_MLDSA)

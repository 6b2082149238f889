"""Key agreement and signatures (issue 30): the catalog entries, their sizes, the Wycheproof
files per primitive, how keygen outputs are split, and verification by use — a runner that
answers a fixed key pair or signature is caught before anything it times is kept (a fake
runner, tests/fakes/fake_pubkey_runner.py), and python and go agree across implementations."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cryptobench.catalog import keys
from cryptobench.catalog import primitives as catalog_mod
from cryptobench.plan import cases as plan
from cryptobench.verify import wycheproof
from cryptobench.verify.checks import VerifyError
from cryptobench.verify.pubkey import der_length, flipped, split_pair
from tests import verifyhelp
from tests.conftest import built as _built
from tests.fakes import verified_by_use

CATALOG = catalog_mod.load()
FAKE = Path(__file__).resolve().parent / "fakes" / "fake_pubkey_runner.py"
KEX = ("x25519", "ecdh-p256")
SIGNATURES = (
    "ed25519",
    "ecdsa-p256-sha256",
    "ecdsa-p256-sha256-p1363",
    "rsa-2048-pss-sha256",
    "rsa-3072-pss-sha256",
    "rsa-2048-pkcs1-sha256",
)
# Project Wycheproof testvectors_v1 at the stored commit: (valid, invalid, acceptable)
WYCHEPROOF_COUNTS = {
    "x25519": (264, 0, 254),
    "ecdh-p256": (330, 24, 1),
    "ed25519": (88, 63, 0),
    "ecdsa-p256-sha256": (174, 310, 0),
    "ecdsa-p256-sha256-p1363": (173, 89, 0),
    "rsa-2048-pss-sha256": (63, 45, 0),
    "rsa-3072-pss-sha256": (63, 45, 0),
    "rsa-2048-pkcs1-sha256": (9, 249, 1),
}


def test_families_operations_and_security_levels():
    for pid in KEX:
        prim = CATALOG.get(pid)
        assert (prim.family, prim.operations, prim.output_len) == ("kex", ("keygen", "agree"), 32)
    for pid in SIGNATURES:
        prim = CATALOG.get(pid)
        assert (prim.family, prim.operations) == ("signature", ("keygen", "sign", "verify"))
        assert pid in keys.load()  # every signature is timed with a published key pair
    classical = [p for p in CATALOG if p.id in KEX + SIGNATURES]  # ML-DSA: tests/test_kem.py
    bits = {p.id: p.security_bits for p in classical}
    assert bits.pop("rsa-2048-pss-sha256") == bits.pop("rsa-2048-pkcs1-sha256") == 112
    assert set(bits.values()) == {128}
    assert CATALOG.get("rsa-2048-pkcs1-sha256").status == "acceptable"


def test_keygen_and_agree_have_no_size_axis_and_sign_defaults_to_32_bytes():
    ed, x = CATALOG.get("ed25519"), CATALOG.get("x25519")
    assert plan.sizes_for(x, "agree", [64, 1024]) == [0]
    assert plan.sizes_for(ed, "keygen", None) == [0]
    assert plan.sizes_for(ed, "sign", None) == [32]
    assert plan.sizes_for(ed, "verify", [1024]) == [1024]
    preset = plan.load_preset("public-key", CATALOG)
    named = {p for g in preset.groups for p in g.primitives}
    assert named == set(KEX) | set(SIGNATURES)


def test_fresh_context_is_a_parameter_of_agree_sign_verify_only():
    ed = CATALOG.get("ed25519")
    assert CATALOG.resolve_params(ed, {}, "sign") == {"fresh_context": False}
    assert CATALOG.resolve_params(ed, {"fresh_context": True}, "keygen") == {}
    assert CATALOG.resolve_params(CATALOG.get("bcrypt"), {}, "verify") == {"cost": 10}


def test_wycheproof_counts_per_primitive():
    cases = wycheproof.load()
    for pid, (valid, invalid, acceptable) in WYCHEPROOF_COUNTS.items():
        got = Counter(c.result for c in cases[pid])
        assert (got["valid"], got["invalid"], got["acceptable"]) == (valid, invalid, acceptable)
        assert {c.kind for c in cases[pid]} == {"kex" if pid in KEX else "sig"}
    p256 = cases["ecdh-p256"]
    assert all(len(c.inputs["private_key"]) == 64 for c in p256)  # normalised to 32 bytes


def test_keygen_output_is_split_at_the_public_key():
    x = CATALOG.get("x25519")
    assert split_pair(x, "aa" * 32 + "bb" * 32) == ("aa" * 32, "bb" * 32)
    with pytest.raises(VerifyError):
        split_pair(x, "aa" * 32 + "bb" * 31)  # a 31-byte private key
    rsa = CATALOG.get("rsa-2048-pss-sha256")
    pair = keys.load()["rsa-2048-pss-sha256"]
    assert der_length(pair.public_key) == len(pair.public_key) // 2 == 294
    assert split_pair(rsa, pair.public_key + pair.private_key) == (
        pair.public_key,
        pair.private_key,
    )


def test_the_flipped_bit_is_not_in_ecdsa_s():
    # flipping s's last bit can give n - s, the other valid ECDSA signature: flip in r
    sig = "00" * 32 + "11" * 32
    assert flipped(sig) == "00" * 31 + "01" + "11" * 32


def _fake_runner(tmp_path, monkeypatch, mode: str) -> None:
    verified_by_use.install(tmp_path, monkeypatch, FAKE, mode)


_run = verified_by_use.run


def test_an_honest_runner_is_measured_with_wire_bytes(tmp_path, monkeypatch):
    _fake_runner(tmp_path, monkeypatch, "ok")
    code, got = _run("--primitive", "ecdsa-p256-sha256", "--primitive", "x25519")
    assert code == 0
    for key in (("ecdsa-p256-sha256", "keygen"), ("ecdsa-p256-sha256", "sign")):
        assert got[key]["status"] == "ok" and got[key]["verified"] is True
        assert (
            "flipped bit refused" in got[key]["verification"]
            or "key pair" in got[key]["verification"]
        )
    assert got[("x25519", "agree")]["size"] == 0
    assert got[("x25519", "agree")]["wire_bytes"] == {"public_key": 32, "shared_secret": 32}
    assert got[("ecdsa-p256-sha256", "sign")]["size"] == 32
    assert got[("ecdsa-p256-sha256", "sign")]["throughput_mb_s"] is None
    assert got[("ecdsa-p256-sha256", "verify")]["wire_bytes"]["signature_is_max"] is True


@pytest.mark.parametrize(
    ("mode", "operation", "why"),
    [
        ("fixed-keypair", "keygen", "key pair made during verification"),
        ("fixed-signature", "sign", "does not accept the signature"),
        ("bench-signature", "sign", "does not accept the signature"),
    ],
)
def test_a_fixed_key_pair_or_signature_is_caught_before_timing(
    tmp_path, monkeypatch, mode, operation, why
):
    _fake_runner(tmp_path, monkeypatch, mode)
    verified_by_use.assert_caught_before_timing("ecdsa-p256-sha256", operation, why)


@pytest.mark.skipif(not (_built("python") and _built("go")), reason="python or go not built")
def test_python_and_go_agree_by_use_and_pass_wycheproof():
    prims = verifyhelp.flags("primitive", (*KEX, *SIGNATURES))
    where = ("--runtime", "python", "--runtime", "go", *prims)
    rows = verifyhelp.verify_rows(*where)
    assert rows and all(r["status"] == "ok" for r in rows)
    # every go signature is verified by a python implementation, and the other way round
    verifyhelp.assert_checked_by_another_runtime(rows, ("python", "go"), "sign")
    tallies = verifyhelp.wycheproof_tallies(*where)
    expected = sum(sum(WYCHEPROOF_COUNTS[p]) for p in (*KEX, *SIGNATURES))
    for impl in ("python/cryptography", "go/stdlib"):
        assert tallies[impl]["failed"] == 0 and tallies[impl]["passed"] == expected

"""Project Wycheproof in `verify`: the stored files, declared sizes, and how the suite counts
passed / unsupported / failed (fake implementations answering from the vectors themselves),
plus `verify --suite wycheproof` through the CLI on a real runner."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cryptobench.catalog import primitives as catalog_mod
from cryptobench.runtimes import declared_sizes as sizes
from cryptobench.runtimes.discovery import discover
from cryptobench.runtimes.protocol import Implementation, Offer, RemoteError
from cryptobench.verify import wycheproof

CATALOG = catalog_mod.load()
CASES = wycheproof.load()


def test_every_file_loads_with_the_catalogs_primitives():
    assert set(CASES) == {
        "aes-128-gcm",
        "aes-256-gcm",
        "aes-128-gcm-siv",
        "aes-256-gcm-siv",
        "chacha20-poly1305",
        "xchacha20-poly1305",
        "hmac-sha256",
        "pbkdf2-sha1",
        "pbkdf2-sha256",
        "pbkdf2-sha512",
        "x25519",
        "ecdh-p256",
        "ed25519",
        "ecdsa-p256-sha256",
        "ecdsa-p256-sha256-p1363",
        "rsa-2048-pss-sha256",
        "rsa-3072-pss-sha256",
        "rsa-2048-pkcs1-sha256",
        "ml-kem-512",
        "ml-kem-768",
        "ml-kem-1024",
        "ml-dsa-44",
        "ml-dsa-65",
        "ml-dsa-87",
        # the ACVP SLH-DSA subset (vectors/acvp/), run beside the Wycheproof files
        "slh-dsa-sha2-128s",
        "slh-dsa-sha2-128f",
        "slh-dsa-shake-128f",
    }
    gcm = CASES["aes-128-gcm"]
    assert all(c.sizes["key"] == 16 for c in gcm)  # the AES-192 groups are not read
    assert {c.result for c in gcm} == {"valid", "invalid"}
    assert {c.sizes["nonce"] for c in gcm} > {12, 8, 16}


def test_sample_is_fixed_and_small():
    one, two = wycheproof.sample(CASES), wycheproof.sample(CASES)
    assert [c.where for c in one["chacha20-poly1305"]] == [
        c.where for c in two["chacha20-poly1305"]
    ]
    assert all(len(v) <= wycheproof.SAMPLE_PER_PRIMITIVE for v in one.values())


def test_declared_sizes_default_to_the_catalog_and_take_ranges():
    gcm = CATALOG.get("aes-128-gcm")
    plain = Offer(operations=("seal", "open"))
    assert sizes.declared(gcm, plain) == {"key": [16], "nonce": [12], "tag": [16]}
    assert sizes.unsupported(gcm, plain, {"key": 16, "nonce": 8, "tag": 16}) == "nonce 8 B"
    wide = Offer(operations=("seal",), sizes={"nonce": [[1, 1024]]})
    assert sizes.unsupported(gcm, wide, {"key": 16, "nonce": 257, "tag": 16}) is None
    assert sizes.summary(gcm, wide) == "nonce 1-1024 B, tag 16 B, key 16 B"
    hmac = CATALOG.get("hmac-sha256")
    assert sizes.unsupported(hmac, Offer(operations=("mac",)), {"key": 65, "tag": 32}) is None


class Oracle:
    """A fake verifier whose implementation answers from the Wycheproof vectors: correctly,
    or with one planted fault."""

    def __init__(self, fault: str = "", takes_nonces=(12, 24)):
        self.fault, self.takes = fault, takes_nonces
        self.sealed = {}
        self.opened = {}
        for pid, cases in CASES.items():
            for c in cases:
                if c.kind == "aead":
                    key = (pid, c.inputs["key"], c.inputs["nonce"], c.inputs["aad"])
                    if c.result == "valid":
                        self.sealed[(*key, c.inputs["msg"])] = c.expected
                        self.opened[(*key, c.expected)] = c.inputs["msg"]

    def compute(self, impl, prim, op, inputs, params):
        nonce = len(inputs["nonce"]) // 2
        if nonce not in self.takes:
            raise RemoteError("invalid_params", f"nonce {nonce} B")
        key = (prim, inputs["key"], inputs["nonce"], inputs.get("aad", ""))
        if op == "seal":
            out = self.sealed.get((*key, inputs["msg"]), "00" * 16)
            return ("ff" + out[2:]) if self.fault == "wrong-seal" and out else out
        if (*key, inputs["msg"]) in self.opened:
            return self.opened[(*key, inputs["msg"])]
        if self.fault == "accepts-forgery":
            return inputs["msg"][:-32]
        raise RemoteError("auth_failed", "tag")


def run_fake(fault="", takes_nonces=(12, 24), declared=None) -> wycheproof.Tally:
    offer = Offer(operations=("seal", "open", "roundtrip"), sizes=declared)
    impl = Implementation("fake/lib", "fake", "lib", "1", {}, {"aes-128-gcm": offer})
    suite = wycheproof.Suite(Oracle(fault, takes_nonces), CATALOG)
    return suite.run(impl, {"aes-128-gcm": CASES["aes-128-gcm"]})


def test_a_correct_implementation_passes_and_undeclared_sizes_are_unsupported():
    t = run_fake()
    assert t.ok, t.failed[:3]
    twelve = [c for c in CASES["aes-128-gcm"] if c.sizes["nonce"] == 12]
    assert t.passed == len(twelve)
    assert t.unsupported["unsupported: nonce 8 B"] > 0
    assert t.passed + sum(t.unsupported.values()) == len(CASES["aes-128-gcm"])


def test_accepting_an_undeclared_nonce_is_a_contract_failure():
    t = run_fake(takes_nonces=range(1, 2000))
    assert any("accepted an undeclared nonce 8 B" in f for f in t.failed)
    declared = run_fake(takes_nonces=range(1, 2000), declared={"nonce": [[1, 2000]]})
    assert declared.ok, declared.failed[:3]
    zero = [c for c in CASES["aes-128-gcm"] if c.sizes["nonce"] == 0]
    assert declared.passed == len(CASES["aes-128-gcm"]) - len(zero)
    assert declared.unsupported == {"unsupported: nonce 0 B": len(zero)}


def test_a_wrong_seal_and_an_accepted_forgery_fail():
    assert any("seal gave" in f for f in run_fake("wrong-seal").failed)
    assert any("accepted an invalid vector" in f for f in run_fake("accepts-forgery").failed)


class Refuses:
    """A verifier that fails the test if the suite calls it at all."""

    def compute(self, impl, prim, op, inputs, params):
        raise AssertionError(f"{op} called on an implementation that does not offer it")


def test_a_sign_only_offer_gets_no_verify_vectors():
    offer = Offer(operations=("keygen", "sign"))
    impl = Implementation("fake/lib", "fake", "lib", "1", {}, {"ecdsa-p256-sha256": offer})
    cases = {"ecdsa-p256-sha256": CASES["ecdsa-p256-sha256"]}
    t = wycheproof.Suite(Refuses(), CATALOG).run(impl, cases)
    assert t.ok and t.passed == 0
    assert t.unsupported == {"unsupported: no verify offered": len(cases["ecdsa-p256-sha256"])}


def test_verify_suite_wycheproof_through_the_cli():
    spec = next((s for s in discover() if s.runtime_id == "python"), None)
    if spec is None or spec.skipped:
        pytest.skip(f"python runner: {spec.skipped if spec else 'not found'}")
    res = subprocess.run(
        [sys.executable, "-m", "cryptobench", "verify", "--suite", "wycheproof"]
        + ["--impl", "python/hashlib", "--primitive", "hmac-sha256", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    import json

    rows = json.loads(res.stdout)["wycheproof"]
    assert [r["implementation"] for r in rows] == ["python/hashlib"]
    assert rows[0]["passed"] == len(CASES["hmac-sha256"]) and rows[0]["failed"] == 0

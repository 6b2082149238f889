"""Key encapsulation (issue 31): the ML-KEM catalog entries and their sizes, the stored
Wycheproof subsets and how a test passes, how encaps outputs are split, and verification by
use — a runner that answers a fixed key pair or encapsulation is caught before anything it
times is kept (tests/fakes/fake_kem_runner.py) — and go, node and python agree, rust/rustcrypto
with them (every Wycheproof vector; wrong lengths refused)."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from cryptobench.catalog import keys
from cryptobench.catalog import primitives as catalog_mod
from cryptobench.plan import cases as plan
from cryptobench.runtimes.discovery import discover
from cryptobench.runtimes.inputs import pubkey_inputs
from cryptobench.runtimes.protocol import RunnerProcess
from cryptobench.verify import wycheproof
from cryptobench.verify import wycheproof_kem as wp_kem
from cryptobench.verify.checks import VerifyError, expected_len
from cryptobench.verify.kem import split_encapsulation
from tests import verifyhelp
from tests.conftest import built as _built
from tests.fakes import verified_by_use

CATALOG = catalog_mod.load()
FAKE = Path(__file__).resolve().parent / "fakes" / "fake_kem_runner.py"
# FIPS 203 Table 3: (ek, ciphertext) bytes; the private key is the 64-byte seed d||z
SIZES = {"ml-kem-512": (800, 768), "ml-kem-768": (1184, 1088), "ml-kem-1024": (1568, 1568)}
# the stored subsets (vectors/wycheproof/README.md), per parameter set: (kind, result) → count
SUBSET = {
    ("kem-keygen", "valid"): 4,
    ("kem-encaps", "valid"): 19,
    ("kem-encaps", "invalid"): 16,
    ("kem-decaps", "valid"): 27,
    ("kem-decaps", "invalid"): 16,
}


def test_catalog_entries_sizes_and_wire_bytes():
    for pid, (ek, ct) in SIZES.items():
        prim = CATALOG.get(pid)
        assert (prim.family, prim.operations) == ("kem", ("keygen", "encaps", "decaps"))
        assert (prim.public_key_len, prim.private_key_len, prim.ciphertext_len) == (ek, 64, ct)
        assert keys.wire_bytes(prim) == {"public_key": ek, "ciphertext": ct, "shared_secret": 32}
        assert expected_len(prim, "encaps", {}, {}) == ct + 32
        assert expected_len(prim, "decaps", {}, {}) == 32
        pair = keys.for_primitive(pid)  # the benchmark key: seed, ek and a ciphertext to it
        assert (len(pair.private_key), len(pair.public_key), len(pair.ciphertext)) == (
            128,
            2 * ek,
            2 * ct,
        )


def test_kem_operations_have_no_size_and_take_the_benchmark_key():
    prim = CATALOG.get("ml-kem-768")
    for op in prim.operations:
        assert plan.sizes_for(prim, op, [1024]) == [0]
    pair = keys.for_primitive("ml-kem-768")
    assert pubkey_inputs(prim, "keygen", "") == {}
    assert pubkey_inputs(prim, "encaps", "") == {"public_key": pair.public_key}
    assert pubkey_inputs(prim, "decaps", "") == {
        "private_key": pair.private_key,
        "ciphertext": pair.ciphertext,
    }
    assert CATALOG.resolve_params(prim, {}, "encaps") == {"fresh_context": False}
    assert CATALOG.resolve_params(prim, {}, "keygen") == {}


def test_pq_migration_preset_names_kem_and_classical_choices():
    preset = plan.load_preset("pq-migration", CATALOG)
    named = {p for g in preset.groups for p in g.primitives}
    assert set(SIZES) | {"x25519", "ed25519", "ecdsa-p256-sha256"} <= named


def test_wycheproof_subsets_per_parameter_set():
    cases = wycheproof.load()
    for pid in SIZES:
        got = Counter((c.kind, c.result) for c in cases[pid])
        assert dict(got) == SUBSET
        decaps = [c for c in cases[pid] if c.kind == "kem-decaps" and c.result == "valid"]
        assert decaps and all(len(c.expected) == 64 and c.inputs["public_key"] for c in decaps)


def test_encaps_output_is_split_at_the_ciphertext():
    prim = CATALOG.get("ml-kem-512")
    assert split_encapsulation(prim, "aa" * 768 + "bb" * 32) == ("aa" * 768, "bb" * 32)
    with pytest.raises(VerifyError):
        split_encapsulation(prim, "aa" * 768 + "bb" * 31)


class Answers:
    """A call(operation, inputs) → (output, error kind) from a table, recording the calls."""

    def __init__(self, table: dict):
        self.table, self.calls = table, []

    def __call__(self, op, inputs):
        self.calls.append((op, dict(inputs)))
        return self.table[op] if not callable(self.table[op]) else self.table[op](inputs)


def _case(kind, result, inputs, expected=""):
    return wycheproof.Case("ml-kem-768", kind, "t", inputs, expected, result, {})


def test_wycheproof_decaps_needs_keygen_then_the_secret_and_never_an_error():
    seed, ek, ct, k = "11" * 64, "22" * 1184, "33" * 1088, "44" * 32
    inputs = {"private_key": seed, "ciphertext": ct, "public_key": ek}
    case = _case("kem-decaps", "valid", inputs, k)
    call = Answers({"keygen": (ek + seed, None), "decaps": (k, None)})
    assert wp_kem.check(call, case) is None
    assert [op for op, _ in call.calls] == ["keygen", "decaps"]
    assert call.calls[1][1] == {"private_key": seed, "ciphertext": ct}  # ek is not sent
    for wrong in ({"keygen": (ek + seed, None), "decaps": ("55" * 32, None)},
                  {"keygen": (ek + seed, None), "decaps": (None, "auth_failed")},
                  {"keygen": ("66" * 1248, None), "decaps": (k, None)}):  # fmt: skip
        with pytest.raises(wp_kem.Fail):
            wp_kem.check(Answers(wrong), case)


def test_wycheproof_invalid_lengths_and_keys_must_be_refused():
    short = _case("kem-decaps", "invalid", {"private_key": "11" * 60, "ciphertext": "33" * 1088})
    assert wp_kem.check(Answers({"decaps": (None, "invalid_params")}), short) is None
    with pytest.raises(wp_kem.Fail, match="accepted"):
        wp_kem.check(Answers({"decaps": ("44" * 32, None)}), short)
    bad_ek = _case("kem-encaps", "invalid", {"public_key": "ff" * 1184, "randomness": "42" * 32})
    call = Answers({"encaps": (None, "invalid_params")})
    assert wp_kem.check(call, bad_ek) is None
    assert call.calls == [("encaps", {"public_key": "ff" * 1184})]  # sent without randomness
    with pytest.raises(wp_kem.Fail, match="accepted an invalid encapsulation key"):
        wp_kem.check(Answers({"encaps": ("00" * 1120, None)}), bad_ek)


def test_wycheproof_encaps_with_randomness_or_unsupported():
    inputs = {"public_key": "22" * 1184, "randomness": "42" * 32}
    case = _case("kem-encaps", "valid", inputs, "33" * 1088 + "44" * 32)
    assert wp_kem.check(Answers({"encaps": (case.expected, None)}), case) is None
    got = wp_kem.check(Answers({"encaps": (None, "unsupported")}), case)
    assert got == wp_kem.NO_RANDOMNESS
    with pytest.raises(wp_kem.Fail):  # a constant answer is not c||K
        wp_kem.check(Answers({"encaps": ("00" * 1120, None)}), case)


def _fake_runner(tmp_path, monkeypatch, mode: str) -> None:
    verified_by_use.install(tmp_path, monkeypatch, FAKE, mode)


_run = verified_by_use.run


def _mlkem_in_venv() -> bool:
    try:
        from cryptography.hazmat.backends.openssl.backend import backend
    except ImportError:
        return False
    return bool(getattr(backend, "mlkem_supported", lambda: False)())


needs_mlkem = pytest.mark.skipif(
    not _mlkem_in_venv(), reason="the fake runner needs pyca/cryptography with ML-KEM"
)


@needs_mlkem
def test_an_honest_kem_runner_is_measured_with_wire_bytes(tmp_path, monkeypatch):
    _fake_runner(tmp_path, monkeypatch, "ok")
    code, got = _run("--primitive", "ml-kem-768")
    assert code == 0, got
    for op in ("keygen", "encaps", "decaps"):
        row = got[("ml-kem-768", op)]
        assert row["status"] == "ok" and row["verified"] is True and row["size"] == 0
        assert row["wire_bytes"] == {"public_key": 1184, "ciphertext": 1088, "shared_secret": 32}
    assert "a flipped bit rejected" in got[("ml-kem-768", "encaps")]["verification"]
    assert "decapsulates" in got[("ml-kem-768", "keygen")]["verification"]


@needs_mlkem
@pytest.mark.parametrize(
    ("mode", "operation", "why"),
    [
        ("fixed-keypair", "keygen", "key pair made during verification"),
        ("fixed-encapsulation", "encaps", "same ciphertext twice"),
        ("bench-encapsulation", "encaps", "shared secret decapsulated by"),
    ],
)
def test_a_fixed_key_pair_or_encapsulation_is_caught_before_timing(
    tmp_path, monkeypatch, mode, operation, why
):
    _fake_runner(tmp_path, monkeypatch, mode)
    verified_by_use.assert_caught_before_timing("ml-kem-768", operation, why)


RUNTIMES = ("go", "node", "python")


@pytest.mark.skipif(not all(_built(r) for r in RUNTIMES), reason="go, node or python not built")
def test_go_node_python_agree_by_use_and_pass_wycheproof():
    where = [*verifyhelp.flags("runtime", RUNTIMES), "--family", "kem"]
    rows = verifyhelp.verify_rows(*where)
    impls = {r["implementation"] for r in rows if r["primitive"] in SIZES}
    assert {"go/stdlib", "go/circl", "node/noble-pq", "python/cryptography"} <= impls
    assert all(r["status"] == "ok" for r in rows)
    # every ML-KEM encapsulation is decapsulated by another runtime's (the X25519MLKEM768
    # hybrid has one implementation yet: known answers only)
    mlkem = [r for r in rows if r["primitive"] in SIZES]
    verifyhelp.assert_checked_by_another_runtime(mlkem, RUNTIMES, "encaps")
    tallies = verifyhelp.wycheproof_tallies(*where)
    per_set = sum(SUBSET.values())
    full = {"go/circl": 3, "node/noble-pq": 3, "go/stdlib": 2}  # parameter sets offered
    for impl, n in full.items():
        assert (tallies[impl]["passed"], tallies[impl]["failed"]) == (n * per_set, 0)
    py = tallies["python/cryptography"]  # no encapsulation with a given randomness
    assert py["failed"] == 0 and py["unsupported"] == 2 * SUBSET[("kem-encaps", "valid")]
    assert py["passed"] == 2 * (per_set - SUBSET[("kem-encaps", "valid")])


def _ask_rust(requests: list[dict]) -> list[dict]:
    spec = next(s for s in discover() if s.runtime_id == "rust")
    lines = "".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(requests))
    proc = subprocess.run(
        spec.command, input=lines, capture_output=True, text=True, cwd=spec.folder, timeout=120
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.skipif(not _built("rust"), reason="rust runner not built")
def test_rust_rustcrypto_refuses_wrong_lengths_and_never_errors_on_a_bad_ciphertext():
    def ask(op, inputs):
        return {"op": "compute", "impl": "rustcrypto", "primitive": "ml-kem-768",
                "operation": op, "inputs": inputs, "params": {}}  # fmt: skip

    seed, ct = "11" * 64, "33" * 1088
    wrong = [
        ask("keygen", {"key_seed": "11" * 32}),
        ask("decaps", {"private_key": "11" * 63, "ciphertext": ct}),
        ask("decaps", {"private_key": seed, "ciphertext": "33" * 1087}),
        ask("encaps", {"public_key": "00" * 1183}),
        ask("encaps", {"public_key": "ff" * 1184}),  # coefficients not reduced mod q
        ask("encaps", {"public_key": "00" * 1184, "randomness": "42" * 31}),
    ]
    answers = _ask_rust([*wrong, ask("decaps", {"private_key": seed, "ciphertext": ct})] * 2)
    kinds = [a.get("error", {}).get("kind") for a in answers]
    assert kinds == ([*["invalid_params"] * len(wrong), None]) * 2
    secrets = [a["result"]["output"] for a in answers if a["ok"]]  # implicit rejection: J(z||c)
    assert len(secrets) == 2 and secrets[0] == secrets[1] and len(secrets[0]) == 64


@pytest.mark.skipif(not all(_built(r) for r in ("rust", "go")), reason="rust or go not built")
def test_rust_rustcrypto_agrees_with_go_and_passes_all_wycheproof():
    # its encapsulations decapsulated by go/circl, go's by it
    tally = verifyhelp.rustcrypto_and_circl_check_each_other(
        SIZES, ("keygen", "encaps", "decaps"), "encaps"
    )
    per_set = sum(SUBSET.values())  # it takes encaps' randomness: nothing unsupported
    assert (tally["passed"], tally["unsupported"], tally["failed"]) == (3 * per_set, 0, 0)


JAVA = ("java", "java@25")
JAVA_KEM = {"java/bc", "java@25/bc", "java@25/jdk"}


@pytest.mark.skipif(
    not all(_built(r) for r in (*JAVA, "go")), reason="java, java@25 or go not built"
)
def test_java_bc_and_jdk_agree_with_go_and_pass_wycheproof():
    where = ["--runtime", "java", "--runtime", "go", "--family", "kem"]
    # JDK 17 has no ML-KEM (JEP 496: 24+); every Java encapsulation is decapsulated by Go's
    rows, tallies = verifyhelp.java_checked_by_circl(where, SIZES, JAVA_KEM, "encaps")
    assert {
        (r["implementation"], r["primitive"]) for r in rows if r["implementation"] in JAVA_KEM
    } == {(i, p) for i in JAVA_KEM for p in SIZES}
    per_set = sum(SUBSET.values())  # seeds, m and the modulus check all reach BC and the JDK
    verifyhelp.assert_every_case_passed(tallies, JAVA_KEM, 3 * per_set)


# wrong lengths of every kem input (the ML-KEM-768 expanded decapsulation key is 2400 bytes),
# and an encapsulation key whose coefficients are not reduced mod q (FIPS 203 §7.2)
EK = keys.for_primitive("ml-kem-768").public_key
WRONG_KEM = [
    ("keygen", {"key_seed": "11" * 32}),
    ("encaps", {"public_key": "22" * 1183}),
    ("encaps", {"public_key": "ff" * 1184}),
    ("encaps", {"public_key": EK, "randomness": "42" * 31}),
    ("decaps", {"private_key": "11" * 2400, "ciphertext": "33" * 1088}),
    ("decaps", {"private_key": "11" * 64, "ciphertext": "33" * 1087}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("runtime", "impl"), [("java", "bc"), ("java@25", "bc"), ("java@25", "jdk")]
)
def test_java_rows_refuse_wrong_lengths_as_invalid_params(runtime, impl):
    verifyhelp.assert_wrong_lengths_refused(runtime, impl, "ml-kem-768", WRONG_KEM)


@pytest.mark.skipif(not _built("java"), reason="java not built")
def test_java17_does_not_offer_jdk_ml_kem_and_says_why():
    spec = next(s for s in discover() if s.runtime_id == "java")
    proc = RunnerProcess(spec.command, str(spec.folder), spec.env, spec.runtime_id)
    try:
        hello = proc.start(spec.startup_timeout)
    finally:
        proc.close()
    jdk = next(i for i in hello["implementations"] if i["library"] == "jdk")
    assert not set(SIZES) & set(jdk["primitives"])
    assert "ML-KEM and ML-DSA not offered: this JDK (17)" in jdk["notes"]


@pytest.mark.skipif(not _built("rust"), reason="rust runner not built")
def test_rust_aws_lc_rs_encapsulates_only_and_refuses_invalid_keys():
    # aws-lc-rs 1.19 keeps decapsulation keys in the expanded form only, with no seeded keygen
    # and no given m: encaps is its one operation (docs/runners/rust.md, "Post-quantum")
    where = ("--impl", "rust/aws-lc-rs", *verifyhelp.flags("primitive", SIZES))
    rows = verifyhelp.verify_rows(*where)
    assert all(r["status"] == "ok" for r in rows)  # the Wycheproof sample's row too
    rows = [r for r in rows if r["primitive"] in SIZES]
    assert {(r["primitive"], r["operation"]) for r in rows} == {(p, "encaps") for p in SIZES}
    assert all("decapsulated by" in r["detail"] for r in rows)
    (tally,) = verifyhelp.wycheproof_tallies(*where).values()
    refused = 3 * SUBSET[("kem-encaps", "invalid")]  # the invalid keys: sent without m
    assert (tally["passed"], tally["failed"]) == (refused, 0)
    assert tally["unsupported"] == 3 * sum(SUBSET.values()) - refused

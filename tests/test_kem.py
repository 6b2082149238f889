"""Key encapsulation (issue 31): the ML-KEM catalog entries and their sizes, the stored
Wycheproof subsets and how a test passes, how encaps outputs are split, and verification by
use — a runner that answers a fixed key pair or encapsulation is caught before anything it
times is kept (tests/fakes/fake_kem_runner.py) — and go, node and python agree."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from cryptobench.catalog import keys
from cryptobench.catalog import primitives as catalog_mod
from cryptobench.plan import cases as plan
from cryptobench.runtimes.discovery import discover
from cryptobench.runtimes.inputs import pubkey_inputs
from cryptobench.verify import wycheproof
from cryptobench.verify import wycheproof_kem as wp_kem
from cryptobench.verify.checks import VerifyError, expected_len
from cryptobench.verify.kem import split_encapsulation
from tests.conftest import cli

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
    folder = tmp_path / "runners" / f"fake-{mode}"
    folder.mkdir(parents=True)
    (folder / "runner.toml").write_text(
        f'schema = 1\nruntime = "fake-{mode}"\nlanguage = "fake"\nstartup_timeout = 5\n'
        f'[run]\ncommand = ["{sys.executable}", "{FAKE}", "{mode}"]\n'
    )
    monkeypatch.setenv("CRYPTOBENCH_RUNNERS", str(tmp_path / "runners"))


def _run(*args: str) -> tuple[int, dict]:
    proc = cli("run", "--time-per-case", "0.05", "--rounds", "1", "--format", "json", *args)
    doc = json.loads(proc.stdout)
    got = {(r["primitive"], r["operation"]): r for r in doc["results"] if r["family"] != "noop"}
    return proc.returncode, got


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
    code, got = _run("--primitive", "ml-kem-768", "--operation", operation)
    bad = got[("ml-kem-768", operation)]
    assert code == 1
    assert bad["status"] == "failed" and bad["median_ns"] is None and bad["samples"] == []
    assert why in bad["error"]


def _built(runtime: str) -> bool:
    spec = next((s for s in discover() if s.runtime_id == runtime), None)
    return spec is not None and not spec.skipped


RUNTIMES = ("go", "node", "python")


@pytest.mark.skipif(not all(_built(r) for r in RUNTIMES), reason="go, node or python not built")
def test_go_node_python_agree_by_use_and_pass_wycheproof():
    where = [a for r in RUNTIMES for a in ("--runtime", r)] + ["--family", "kem"]
    res = cli("verify", *where, "--format", "json", timeout=900)
    assert res.returncode == 0, res.stderr[-2000:]
    rows = json.loads(res.stdout)["verification"]
    impls = {r["implementation"] for r in rows if r["primitive"] in SIZES}
    assert {"go/stdlib", "go/circl", "node/noble-pq", "python/cryptography"} <= impls
    assert all(r["status"] == "ok" for r in rows)
    for r in rows:  # every ML-KEM encapsulation is decapsulated by another runtime's
        # (the X25519MLKEM768 hybrid has one implementation yet: known answers only)
        if r["operation"] == "encaps" and r["primitive"] in SIZES:
            runtime = r["implementation"].split("/")[0]
            others = [f"{o}/" for o in RUNTIMES if o != runtime]
            assert any(o in r["detail"] for o in others), r
    res = cli("verify", "--suite", "wycheproof", *where, "--format", "json", timeout=900)
    assert res.returncode == 0, res.stderr[-2000:]
    tallies = {t["implementation"]: t for t in json.loads(res.stdout)["wycheproof"]}
    per_set = sum(SUBSET.values())
    full = {"go/circl": 3, "node/noble-pq": 3, "go/stdlib": 2}  # parameter sets offered
    for impl, n in full.items():
        assert (tallies[impl]["passed"], tallies[impl]["failed"]) == (n * per_set, 0)
    py = tallies["python/cryptography"]  # no encapsulation with a given randomness
    assert py["failed"] == 0 and py["unsupported"] == 2 * SUBSET[("kem-encaps", "valid")]
    assert py["passed"] == 2 * (per_set - SUBSET[("kem-encaps", "valid")])

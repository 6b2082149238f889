"""`cryptobench leak` end to end (a subprocess, the Python runner) and its gate; no timing
assertions: verdicts depend on the machine, their shape does not."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from cryptobench.leak import command as leak
from cryptobench.leak import targets as leak_targets
from cryptobench.stats import leak as stats
from cryptobench.stats.leak import CONTROL_REPLICATES, EDGE_REPLICATES, REPLICATES

from .conftest import built, cli


def test_leak_runs_stores_and_shows():
    proc = cli(
        "leak",
        "--runtime",
        "python",
        "--primitive",
        "chacha20-poly1305",
        "--measurements",
        "1000",
        "--seed",
        "3",
        "--format",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["run"]["settings"]["operation"] == "leak"
    rows = {(r["implementation"], r["primitive"]): r for r in doc["results"]}
    assert {r["operation"] for r in doc["results"]} == {"leak"}
    for key in [("python/control", "equal"), ("python/control", "equal-ct")]:
        r = rows[key]
        per = 1000 * 5 * 2 // CONTROL_REPLICATES  # 5 × N in each of two processes, shared out
        assert r["status"] == "ok" and r["n_samples"] == CONTROL_REPLICATES * per
        assert r["leak"]["n_a"] + r["leak"]["n_b"] == per
        assert len(r["leak"]["replicates"]) == len(r["leak"]["aa"]) == CONTROL_REPLICATES
    aead = rows[("python/cryptography", "chacha20-poly1305")]
    assert aead["status"] == "ok" and aead["leak"]["target"] == "open"
    lk = aead["leak"]
    assert lk["blocks"] == 1000 // leak.BLOCK_MIN  # requests of at least 60 measurements
    assert 1 <= len(lk["curve"]) <= 20 and lk["curve"][-1][0] == 1000
    assert lk["verdict"] in ("leak", "not replicated", "no leak detected", "inconclusive") or (
        lk["verdict"].startswith("no verdict")
    )
    # each replicate with its A/A pair; more where the first two leave it undecided
    assert len(lk["replicates"]) == len(lk["aa"]) in (REPLICATES, EDGE_REPLICATES)
    assert aead["n_samples"] == 1000 * len(lk["replicates"])
    assert {"n_a", "n_b", "low_ns", "high_ns"} <= set(lk["replicates"][1])
    assert isinstance(lk["summary"], str) and isinstance(lk["aa_flagged"], bool)
    assert aead["verification"] == "both classes and the A/A pair: auth_failed"
    shown = cli("show", "last")
    assert shown.returncode == 0, shown.stderr
    assert "timing leakage (dudect)" in shown.stdout
    assert "python/cryptography" in shown.stdout


def test_kem_decapsulation_gets_its_two_targets_against_a_real_runner():
    """ML-KEM decaps through Go's crypto/mlkem: fixed vs random valid ciphertexts, valid vs
    implicitly rejected, each class's outcome checked (no timing judged)."""
    if not built("go"):
        pytest.skip("the go runner is not built here")
    proc = cli(
        *("leak", "--impl", "go/stdlib", "--primitive", "ml-kem-768"),
        *("--measurements", "1000", "--seed", "4", "--format", "json"),
    )
    assert proc.returncode == 0, proc.stderr
    rows = {r["leak"]["target"]: r for r in json.loads(proc.stdout)["results"]}
    assert set(rows) == {"compare", "decaps fixed-random", "decaps valid-rejected"}
    for target in ("decaps fixed-random", "decaps valid-rejected"):
        r = rows[target]
        assert r["status"] == "ok" and r["family"] == "kem", r.get("error")
        k = len(r["leak"]["replicates"])
        assert k == len(r["leak"]["aa"]) and k in (REPLICATES, EDGE_REPLICATES)
        n, probe = r["leak"]["measurements"], r["leak"]["probe_ns"]
        assert probe > 0 and n == leak_targets.budgeted_count(1000, "decaps", probe) == 1000
        assert r["n_samples"] == k * n
    assert "rejected: another secret" in rows["decaps valid-rejected"]["verification"]
    assert "encapsulated secret" in rows["decaps fixed-random"]["verification"]


def _fake_replicate(shifts):
    """leak._replicate over synthetic measurements: replicate ``rep`` shifted by shifts[rep]
    (roles swapped in the odd ones), its A/A pair identical; no runner, no clock."""
    import numpy as np

    def replicate(t, cat, req, rep):
        rng = np.random.default_rng(rep)
        n = 4000
        classes, blocks = rng.integers(0, 2, n), stats.block_ids(n, 64)
        sign = 1 if rep % 2 == 0 else -1
        b = classes == (1 if sign > 0 else 0)
        ns = np.round(rng.gamma(4.0, 10.0, n) + 80.0 + shifts[rep] * b)
        m = leak.Measured(ns, classes.astype(np.uint8), blocks, "fake")
        aa = np.round(rng.gamma(4.0, 10.0, n) + 80.0)
        ab = stats.effect(ns, classes, blocks, sign)
        return m, ab, stats.effect(aa, classes, blocks, sign), "fake"

    return replicate


@pytest.mark.parametrize(
    ("shifts", "measured"),
    [((20.0, 0.0) + (20.0,) * 4, EDGE_REPLICATES), ((20.0,) * 6, REPLICATES), ((0.0,) * 6, 2)],
)
def test_an_undecided_target_is_measured_again(monkeypatch, shifts, measured):
    """A shift in one of the first two processes only: measured in EDGE_REPLICATES processes
    and decided on them all; a replicated shift or none: the first two decide."""
    monkeypatch.setattr(leak, "_replicate", _fake_replicate(shifts))
    t = leak_targets.Target(None, None, "aes-128-gcm", "aead", "open", 4000)
    record, _ = leak._measure_replicates(t, None, leak.LeakRequest("leak", None))
    assert len(record["replicates"]) == len(record["aa"]) == measured
    assert record["verdict"] == ("no leak detected" if not any(shifts) else "leak")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--primitive", "nope"], "valid:"),
        (["--measurements", "10"], "--measurements"),
        (["--control-bytes", "1"], "--control-bytes"),
        (["--runtime", "nope"], "valid:"),
        (["--runtime", "python", "--impl", "python/nope"], "valid:"),
    ],
)
def test_bad_arguments_exit_2_with_the_valid_values(args, says):
    proc = cli("leak", *args)
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr
    assert "Traceback" not in proc.stderr


def _case(rt, family, primitive, verdict):
    return {
        "runtime": rt,
        "family": family,
        "primitive": primitive,
        "status": "ok",
        "flags": [],
        "leak": {"verdict": verdict},
    }


def test_no_power_without_a_detected_early_exit_control():
    cases = [
        _case("go", "control", "equal", "no leak detected (5 measurements, detectable ≥ 1 ns)"),
        _case("go", "control", "equal-ct", "no leak detected"),
        _case("go", "aead", "aes-128-gcm", "no leak detected"),
        _case("rust", "control", "equal", "leak"),
        _case("rust", "control", "equal-ct", "leak"),
        _case("rust", "aead", "aes-128-gcm", "leak"),
    ]
    leak.gate(cases)
    assert cases[2]["leak"]["verdict"] == leak.NO_POWER
    assert cases[2]["leak"]["verdict_before_gate"] == "no leak detected"
    assert cases[0]["leak"]["verdict"].startswith("no leak detected")  # controls keep theirs
    assert cases[5]["leak"]["verdict"] == "leak"
    assert cases[5]["flags"] and "constant-time control" in cases[5]["flags"][0]


def test_gate_is_applied_once():
    cases = [
        _case("go", "control", "equal", "no leak detected"),
        _case("go", "aead", "aes-128-gcm", "leak"),
    ]
    leak.gate(cases)
    leak.gate(cases)
    assert cases[1]["leak"]["verdict_before_gate"] == "leak"


def test_html_report_has_an_escaped_leak_section():
    from cryptobench.report.html import page as html

    case = {
        "runtime": "x",
        "implementation": "x/<script>alert(1)</script>",
        "primitive": "aes-128-gcm",
        "family": "aead",
        "operation": "leak",
        "size": 0,
        "params": {},
        "status": "ok",
        "error": None,
        "n_samples": 1000,
        "flags": [],
        "leak": {
            "target": "open",
            "t": 6.0,
            "detectable_ns": 2.0,
            "verdict": "leak",
            "curve": [[500, 3.0], [1000, 6.0]],
        },
    }
    doc = {"schema": "cryptobench/results/v2", "run": {"id": "r1"}, "machine": {}}
    page = html.render({**doc, "results": [case]})
    assert '<section id="leak">' in page and "<polyline" in page
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def test_an_unsteady_process_is_measured_again_in_its_place(monkeypatch):
    """Six processes (the first two apart), the fourth's blocks scattered 20x: measured once
    more as replicate AGAIN + 3 (the same role orientation), the old one kept with why."""
    import numpy as np

    fake = _fake_replicate((20.0, 0.0) + (20.0,) * 10)
    asked = []

    def replicate(t, cat, req, rep):
        asked.append(rep)
        m, ab, aa, v = fake(t, cat, req, rep)
        if rep == 3:  # the unsteady process: its blocks' differences 20x wider
            d = np.asarray(ab.diffs) * 20.0
            low, high = stats.interval(d)
            ab = replace(ab, diff_ns=float(np.mean(d)), low_ns=low, high_ns=high, diffs=tuple(d))
        return m, ab, aa, v

    monkeypatch.setattr(leak, "_replicate", replicate)
    t = leak_targets.Target(None, None, "aes-128-gcm", "aead", "open", 4000)
    record, _ = leak._measure_replicates(t, None, leak.LeakRequest("leak", None))
    assert asked == [0, 1, 2, 3, 4, 5, leak.AGAIN + 3] and leak.AGAIN % 2 == 0
    (old,) = record["replaced"]
    assert old["replicate"] == 3 and "process 4's target blocks scattered" in old["why"]
    assert record["replicates"][3]["diff_ns"] != old["target"]["diff_ns"]
    assert len(record["replicates"]) == len(record["aa"]) == EDGE_REPLICATES

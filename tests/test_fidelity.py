"""bench/fidelity's arithmetic and order on fixed figures (nothing is timed): each pair runs
A B B A (the next B A A B), the ratio is the median of per-pair ratios of means with its
min-max, and an anchor's own per-message cost is stated and taken out of the verdict."""

from __future__ import annotations

import argparse
import contextlib
import importlib.machinery
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "fidelity"


@pytest.fixture(scope="module")
def fidelity():
    loader = importlib.machinery.SourceFileLoader("bench_fidelity", str(SCRIPT))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    sys.modules[loader.name] = module  # its dataclasses look their module up there
    loader.exec_module(module)
    return module


def fixed_anchor(fidelity, figures, calls, overhead=None):
    class Fixed(fidelity.Anchor):
        def ns(self, size):
            calls.append("anchor")
            return figures.pop(0)

        def overhead_ns(self, size):
            return overhead

    opts = argparse.Namespace(pairs=3, seconds=1.0, smoke=False)
    return Fixed("python", "python/hashlib", "pyperf timeit", opts, Path("."))


def test_pairs_run_abba_then_baab_and_the_ratio_is_the_pairs_median(fidelity, monkeypatch):
    calls: list[str] = []
    cb = [100.0, 120.0, 140.0, 120.0, 90.0, 110.0]

    def fake_cryptobench(anchor, size, db):
        calls.append("cryptobench")
        return cb.pop(0), 50.0

    monkeypatch.setattr(fidelity, "cryptobench_ns", fake_cryptobench)
    anchor = fixed_anchor(fidelity, [100.0] * 6, calls)
    row = fidelity.measure_row(anchor, 64, "db")
    a, b = "anchor", "cryptobench"
    assert calls == [a, b, b, a, b, a, a, b, a, b, b, a]
    # pair means 110, 130, 100 over an anchor of 100
    assert row["ratio"] == pytest.approx(1.1)
    assert (row["ratio_min"], row["ratio_max"]) == (pytest.approx(1.0), pytest.approx(1.3))
    assert row["noop_ns"] == 50.0
    assert "| python | 64 | pyperf timeit | 100.0 | 110.0 | 1.100 | 1.000-1.300 | 50.0 " in (
        fidelity.table([row])
    )
    assert "OUTSIDE" in fidelity.table([row])


def test_a_drift_over_a_pair_reaches_both_sides_alike(fidelity, monkeypatch):
    """A B B A: a machine slowing by 10 ns a measurement adds 15 ns to both sides' means."""
    step = iter(range(4))

    def drifted(base):
        return base + 10.0 * next(step)

    monkeypatch.setattr(fidelity, "cryptobench_ns", lambda anchor, size, db: (drifted(100), None))
    anchor = fixed_anchor(fidelity, [], [])
    anchor.ns = lambda size: drifted(100)
    anchor.opts.pairs = 1
    row = fidelity.measure_row(anchor, 64, "db")
    assert row["anchor_ns"] == row["cryptobench_ns"] == 115.0
    assert row["ratio"] == 1.0


def test_an_anchor_that_reads_the_clock_per_message_is_judged_without_that_cost(
    fidelity, monkeypatch
):
    monkeypatch.setattr(fidelity, "cryptobench_ns", lambda anchor, size, db: (80.0, None))
    anchor = fixed_anchor(fidelity, [100.0] * 6, [], overhead=20.0)
    row = fidelity.measure_row(anchor, 1024, "db")
    assert row["ratio"] == pytest.approx(0.8)
    assert row["ratio_without_overhead"] == pytest.approx(1.0)
    text = fidelity.table([row])
    assert "0.800 (1.000 without)" in text and "| ok |" in text
    assert "20.0 ns of its figure" in text


def test_a_failed_row_is_printed_and_the_others_are_not_lost(fidelity):
    rows = [{"runtime": "java", "size": 64, "anchor": "JMH", "error": "mvn: not found"}]
    assert "| java | 64 | JMH | failed |" in fidelity.table(rows)


def mitata_line(p50, avg, noop):
    return {"p50_ns": p50, "avg_ns": avg, "min_ns": p50 - 10, "max_ns": avg * 3} | {
        "p25_ns": p50 - 5,
        "p75_ns": p50 + 5,
        "samples": 400,
        "batch": 4096,
        "noop_p50_ns": noop,
        "noop_avg_ns": noop * 2,
    }


TINYBENCH_LINE = {"p50_ns": 600.0, "mean_ns": 1000.0, "noop_p50_ns": 20.0, "noop_mean_ns": 50.0}
TINYBENCH_LINE |= {"batched_mean_ns": 920.0, "batched_p50_ns": 590.0, "batch": 3276}


def test_mitata_p50_is_the_node_anchor_and_tinybench_is_stated_beside_it(fidelity, monkeypatch):
    """The node row is judged on mitata's p50 (median of its batches); mitata's avg and own
    per-iteration cost and tinybench's mean and noop task cost go in the note, none taken out."""
    lines = [mitata_line(900.0, 960.0, 0.3), mitata_line(1000.0, 990.0, 0.1)]
    lines += [mitata_line(950.0, 1200.0, 0.2), mitata_line(950.0, 990.0, 0.2)]
    lines += [TINYBENCH_LINE]
    calls = []

    def fake_run(cmd, **kw):
        calls.append([str(c) for c in cmd[1:]])
        return "npm noise\n" + json.dumps(lines.pop(0)) + "\n"

    monkeypatch.setattr(fidelity, "run", fake_run)
    monkeypatch.setattr(fidelity, "lock", contextlib.nullcontext)
    monkeypatch.setattr(fidelity, "cryptobench_ns", lambda anchor, size, db: (969.0, 5.0))
    opts = argparse.Namespace(pairs=2, seconds=1.0, smoke=False)
    cls, impl, name = fidelity.ANCHORS_BY_RUNTIME["node"]
    row = fidelity.measure_row(cls("node", impl, name, opts, Path(".")), 64, "db")
    assert calls == [["--mitata", "64"]] * 4 + [["--anchor", "64", "--time", "1.0"]]
    # pair means 950 and 950: the median over pairs of each pair's mean
    assert row["anchor_ns"] == 950.0 and row["ratio"] == pytest.approx(969.0 / 950.0)
    assert "ratio_without_overhead" not in row
    assert (row["anchor_avg_ns"], row["anchor_noop_ns"]) == (990.0, 0.2)
    assert (row["tinybench_mean_ns"], row["tinybench_noop_ns"]) == (1000.0, 50.0)
    text = fidelity.table([row])
    assert "| node | 64 | mitata (p50) | 950.0 | 969.0 | 1.020 |" in text and "| ok |" in text
    assert "mitata avg 990.0 ns; its p25/p50/p75 per run 895/900/905, 995/1000/1005, " in text
    assert "; mitata's own cost per iteration 0.20 ns" in text
    assert "mean 1000.0 ns, of which its per-call cost (a noop task, same run) 50.0 ns" in text
    assert "batched (3276 calls per sample) mean 920.0 ns" in text


def test_a_failed_tinybench_run_leaves_the_mitata_row_standing(fidelity, monkeypatch):
    def fake_run(cmd, **kw):
        if "--anchor" in map(str, cmd):
            raise fidelity.CaseFailed("tinybench: node crashed")
        return json.dumps(mitata_line(900.0, 950.0, 0.1))

    monkeypatch.setattr(fidelity, "run", fake_run)
    monkeypatch.setattr(fidelity, "lock", contextlib.nullcontext)
    monkeypatch.setattr(fidelity, "cryptobench_ns", lambda anchor, size, db: (900.0, 5.0))
    opts = argparse.Namespace(pairs=1, seconds=1.0, smoke=True)
    anchor = fidelity.Mitata("node", "node/crypto", "mitata (p50)", opts, Path("."))
    row = fidelity.measure_row(anchor, 1024, "db")
    assert "error" not in row and row["ratio"] == pytest.approx(1.0)
    assert "tinybench failed: tinybench: node crashed" in row["note"]


def test_go_test_bench_lines_of_both_benchmarks_are_read():
    loader = importlib.machinery.SourceFileLoader(
        "bench_vs_go_test_bench", str(SCRIPT.parent / "vs-go-test-bench")
    )
    go = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(go)
    lines = {
        "BenchmarkFidelity/sha256/64-2   \t 3464824\t  103.8 ns/op\t 616.53 MB/s\t 0 B/op": (
            "sha256",
            64,
            103.8,
        ),
        "BenchmarkFidelityEd25519/verify/1024-2 \t 2934\t 37987 ns/op\t 0 B/op": (
            "verify",
            1024,
            37987.0,
        ),
    }
    for line, (name, size, ns) in lines.items():
        m = go.LINE.match(line)
        assert (m.group(1), int(m.group(2)), float(m.group(3))) == (name, size, ns)
    assert go.LINE.match("BenchmarkOther/sha256/64-2  10  5.0 ns/op") is None


# `openssl speed -mr` result lines as Debian's OpenSSL 3.0.19 prints them (one per algorithm).
SPEED_MR = {
    "rsa2048": "+DT:rsa2048:1\n+R1:1:2048:1.00\n+F2:2:2048:864.356436:15637.000000\n",
    "ecdsap256": "+F4:3:256:19724.752475:5644.000000\n",
    "ecdhx25519": "+F5:22:253:14606.000000:0.000068\n",
    "ed25519": "+F6:0:253:Ed25519:10263.366337:3943.564356\n",
}


def test_openssl_speed_pubkey_reads_each_operations_figure(monkeypatch):
    loader = importlib.machinery.SourceFileLoader(
        "bench_vs_openssl_speed_pubkey", str(SCRIPT.parent / "vs-openssl-speed-pubkey")
    )
    speed = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(speed)

    def fake_run(cmd, **kw):
        return subprocess.CompletedProcess(cmd, 0, stdout=SPEED_MR[cmd[-1]], stderr="")

    monkeypatch.setattr(speed.subprocess, "run", fake_run)
    monkeypatch.setattr(speed, "run_lock", contextlib.nullcontext)
    expected = {
        "ecdsa-sign": 19724.752475,
        "ecdsa-verify": 5644.0,
        "ed25519-sign": 10263.366337,
        "ed25519-verify": 3943.564356,
        "x25519-agree": 14606.0,
        "rsa2048-sign": 864.356436,
        "rsa2048-verify": 15637.0,
    }
    assert set(expected) == set(speed.CASES)
    for case, ops in expected.items():
        assert speed.openssl_speed("openssl", case, 1) == pytest.approx(ops)

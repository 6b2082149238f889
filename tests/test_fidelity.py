"""bench/fidelity's arithmetic and order on fixed figures (nothing is timed): each pair runs
A B B A (the next B A A B), the ratio is the median of per-pair ratios of means with its
min-max, and an anchor's own per-message cost is stated and taken out of the verdict."""

from __future__ import annotations

import argparse
import contextlib
import importlib.machinery
import importlib.util
import json
import os
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
    assert "| python | 64 | pyperf timeit | 100.0 | 110.0 | 1.100 | 1.000-1.300 (3) | 50.0 " in (
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


def test_botan_speeds_row_takes_out_what_its_timer_counts_at_that_size(fidelity, monkeypatch):
    """The C++ anchor's own cost is the in-place probe's figure for the row's size (what botan
    speed's timestamps count beyond the hash), not the four clock reads alone, which the note
    states beside it."""
    calls = []

    def fake_run(cmd, **kw):
        calls.append([str(c) for c in cmd])
        return json.dumps(
            {
                "median_ns": 31.5,
                "counted_ns": 97.0,
                "without_ns": 65.5,
                "reads_ns": 60.0,
                "batches": 19,
            }
        )

    monkeypatch.setattr(fidelity, "run", fake_run)
    monkeypatch.setattr(fidelity, "lock", contextlib.nullcontext)
    monkeypatch.setattr(fidelity, "cryptobench_ns", lambda anchor, size, db: (68.5, 2.5))
    monkeypatch.setattr(fidelity.BotanSpeed, "ns", lambda self, size: 100.0)
    opts = argparse.Namespace(pairs=1, seconds=2.0, smoke=False)
    botan = fidelity.BotanSpeed("cpp", "cpp/botan", "botan speed", opts, Path("."))
    botan.probe, botan.reads = Path("clock_reads"), {}
    row = fidelity.measure_row(botan, 64, "db")
    assert calls == [["clock_reads", "64", "1.0"]]
    assert row["anchor_overhead_ns"] == 31.5
    assert row["ratio_without_overhead"] == pytest.approx(68.5 / (100.0 - 31.5))
    assert row["note"] == (
        "botan speed's timer counts per message beyond the hash: 31.5 ns of its figure "
        "(its four clock reads back to back: 60.0 ns)"
    )


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


def test_mitata_avg_is_the_node_anchor_and_tinybench_is_stated_beside_it(fidelity, monkeypatch):
    """The node row is judged on mitata's avg (the mean of its batches, GC work included);
    its p25/p50/p75, own per-iteration cost, process flags and tinybench's mean and noop task
    cost go in the note, none taken out."""
    lines = [mitata_line(900.0, 960.0, 0.3), mitata_line(1000.0, 940.0, 0.1)]
    lines += [mitata_line(950.0, 1050.0, 0.2), mitata_line(950.0, 950.0, 0.2)]
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
    # pair means of the avgs 950 and 1000 (not of the p50s, 950 and 950)
    assert row["anchor_ns"] == 975.0
    assert row["ratio"] == pytest.approx((969.0 / 950.0 + 969.0 / 1000.0) / 2)
    assert (row["ratio_min"], row["ratio_max"]) == (969.0 / 1000.0, 969.0 / 950.0)
    assert "ratio_without_overhead" not in row
    assert (row["anchor_p50_ns"], row["anchor_noop_ns"]) == (950.0, 0.2)
    assert (row["tinybench_mean_ns"], row["tinybench_noop_ns"]) == (1000.0, 50.0)
    text = fidelity.table([row])
    assert "node: mitata's avg, the mean of its batches, GC work included" in text
    assert "| node | 64 | mitata (avg) | 975.0 | 969.0 | 0.994 | 0.969-1.020 (2) |" in text
    assert "| ok |" in text
    assert "judged on mitata's avg (GC included); its p50 950.0 ns (median over runs)" in text
    assert "its p25/p50/p75 per run 895/900/905, 995/1000/1005, " in text
    assert "; mitata's own cost per iteration 0.20 ns" in text
    assert "mitata's process: node --expose-gc, gc once before sampling" in text
    assert "mean 1000.0 ns, of which its per-call cost (a noop task, same run) 50.0 ns" in text
    assert "batched (3276 calls per sample) mean 920.0 ns" in text


def mitata_stats(samples: list[float]) -> dict:
    """A `--mitata` line from fixed per-call batch times, with mitata 1.0.34's arithmetic
    (src/lib.mjs): sorted, the 2 fastest and 2 slowest dropped when there are more than 12,
    p-quantiles at index (q * (n - 1)) | 0, avg the mean of the rest."""
    kept = sorted(samples)
    kept = kept[2:-2] if len(kept) > 12 else kept
    at = lambda q: kept[int(q * (len(kept) - 1))]  # noqa: E731
    line = mitata_line(at(0.5), sum(kept) / len(kept), 0.1)
    return line | {"p25_ns": at(0.25), "p75_ns": at(0.75), "samples": len(kept)}


def test_the_node_anchor_counts_the_gc_work_its_median_leaves_out(fidelity):
    """Two runs of the same work: GC reaching 45 or 55 of 100 batches (600 ns without, 1 400
    with). Their p50s fall in different groups (600 and 1 400 ns); their avgs, the figure the
    row is judged on, stay within 10% of each other and carry the GC work."""
    runs = [[600.0] * 55 + [1400.0] * 45, [600.0] * 45 + [1400.0] * 55]
    lines = [mitata_stats(samples) for samples in runs]
    assert [line["p50_ns"] for line in lines] == [600.0, 1400.0]
    anchors = [fidelity.mitata_anchor_ns(line) for line in lines]
    assert anchors == [line["avg_ns"] for line in lines]
    assert anchors[0] == pytest.approx((53 * 600 + 43 * 1400) / 96)
    assert anchors[1] / anchors[0] < 1.1


def test_node_pairs_set_the_node_rows_pairs_and_no_others(fidelity, monkeypatch):
    monkeypatch.delenv("CRYPTOBENCH_FIDELITY_SMOKE", raising=False)
    argv = ["fidelity", "--runtime", "node", "python", "--pairs", "2", "--node-pairs", "7"]
    monkeypatch.setattr(sys, "argv", argv)
    opts = fidelity.parse_args()
    node = fidelity.Mitata("node", "node/crypto", "mitata (avg)", opts, Path("."))
    python = fidelity.Pyperf("python", "python/hashlib", "pyperf timeit", opts, Path("."))
    assert (node.pairs(), python.pairs()) == (7, 2)
    opts.node_pairs = None
    assert node.pairs() == 2
    monkeypatch.setattr(sys, "argv", [*argv, "--smoke"])
    assert fidelity.parse_args().node_pairs is None


def test_both_node_sides_get_one_young_generation_size_unless_told_otherwise(fidelity, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["fidelity", "--runtime", "node"])
    opts = fidelity.parse_args()
    node = fidelity.Mitata("node", "node/crypto", "mitata (avg)", opts, Path("."))
    assert node.env() == {"NODE_OPTIONS": "--max-semi-space-size=1"}
    monkeypatch.setattr(sys, "argv", ["fidelity", "--runtime", "node", "--node-options="])
    opts = fidelity.parse_args()
    assert fidelity.Mitata("node", "node/crypto", "mitata (avg)", opts, Path(".")).env() == {}


def test_node_options_reach_both_sides_of_the_node_rows_only(fidelity, monkeypatch):
    """--node-options is set in the environment while the node rows run, so the anchor's node
    and `cryptobench run`'s runner inherit it alike; other runtimes' rows and what follows do
    not see it."""
    monkeypatch.delenv("NODE_OPTIONS", raising=False)
    seen = []

    def fake_row(anchor, size, db):
        seen.append((anchor.runtime, os.environ.get("NODE_OPTIONS")))
        return {"runtime": anchor.runtime, "size": size}

    monkeypatch.setattr(fidelity, "measure_row", fake_row)
    opts = argparse.Namespace(
        pairs=1, seconds=1.0, smoke=False, size=[64], node_options="--max-semi-space-size=16"
    )
    monkeypatch.setattr(fidelity.Pyperf, "prepare", lambda self: None)
    for rt in ("node", "python"):
        fidelity.measure_runtime(rt, opts, Path("."), "db")
    assert seen == [("node", "--max-semi-space-size=16"), ("python", None)]
    assert "NODE_OPTIONS" not in os.environ
    node = fidelity.Mitata("node", "node/crypto", "mitata (avg)", opts, Path("."))
    assert node.process_note().endswith("; both with NODE_OPTIONS=--max-semi-space-size=16")
    # the runner's side as its runner.toml starts it: its own flag wins over NODE_OPTIONS
    assert "the runner's: node --max-semi-space-size=1 ./runner.mjs, no gc()" in node.process_note()


def test_the_summary_counts_rows_within_target(fidelity):
    rows = [
        {"size": 64, "ratio": 1.04},
        {"size": 1024, "ratio": 0.94},
        {"size": 16384, "ratio": 1.03},
        {"size": 16384, "ratio": 0.7, "ratio_without_overhead": 1.01},
        {"size": 64, "runtime": "java", "anchor": "JMH", "error": "mvn: not found"},
    ]
    assert fidelity.summary(rows) == "2 of 5 rows within target (1 failed)"
    assert fidelity.summary(rows[:1]) == "1 of 1 rows within target"


def test_a_failed_tinybench_run_leaves_the_mitata_row_standing(fidelity, monkeypatch):
    def fake_run(cmd, **kw):
        if "--anchor" in map(str, cmd):
            raise fidelity.CaseFailed("tinybench: node crashed")
        return json.dumps(mitata_line(900.0, 950.0, 0.1))

    monkeypatch.setattr(fidelity, "run", fake_run)
    monkeypatch.setattr(fidelity, "lock", contextlib.nullcontext)
    monkeypatch.setattr(fidelity, "cryptobench_ns", lambda anchor, size, db: (950.0, 5.0))
    opts = argparse.Namespace(pairs=1, seconds=1.0, smoke=True)
    anchor = fidelity.Mitata("node", "node/crypto", "mitata (avg)", opts, Path("."))
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


def test_the_jmh_twin_is_built_against_the_runners_own_bouncycastle(fidelity, monkeypatch):
    """bench/jmh/compare.py's build passes runners/java/pom.xml's BouncyCastle version to
    Maven, and bench/jmh/pom.xml has none of its own to fall back to (a twin built against
    1.84 read java/bc SHA-256 11-13% slower than the runner's 1.87: docs/methodology.md)."""
    import xml.etree.ElementTree as ET

    compare = fidelity.part("jmh/compare.py")  # as bench/fidelity's JMH anchor loads it
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    runner = ET.parse(compare.RUNNER_POM).find("m:dependencies", ns)
    bc = [
        d.find("m:version", ns).text
        for d in runner
        if d.find("m:artifactId", ns).text == "bcprov-jdk18on"
    ]
    assert bc == ["${bouncycastle.version}"]  # the property runner_bouncycastle reads
    version = compare.runner_bouncycastle()
    assert version.count(".") >= 1 and version.replace(".", "").isdigit()
    twin = ET.parse(compare.HERE / "pom.xml").find("m:properties/m:bouncycastle.version", ns)
    assert not (twin.text or "").strip()
    calls = []
    monkeypatch.setattr(compare.subprocess, "run", lambda cmd, **kw: calls.append(cmd))
    compare.build()
    assert calls == [["mvn", "-q", "-B", "package", f"-Dbouncycastle.version={version}"]]

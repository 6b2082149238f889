"""bench/fidelity's arithmetic and order on fixed figures (nothing is timed): pairs alternate
which side goes first, the ratio is the median of per-pair ratios with its min-max, and an
anchor's own per-message cost is stated and taken out of the verdict."""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
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

        def overhead_ns(self):
            return overhead

    opts = argparse.Namespace(pairs=3, seconds=1.0, smoke=False)
    return Fixed("python", "python/hashlib", "pyperf timeit", opts, Path("."))


def test_pairs_alternate_and_the_ratio_is_the_median_of_pair_ratios(fidelity, monkeypatch):
    calls: list[str] = []
    cb = [110.0, 100.0, 130.0]

    def fake_cryptobench(anchor, size, db):
        calls.append("cryptobench")
        return cb.pop(0), 50.0

    monkeypatch.setattr(fidelity, "cryptobench_ns", fake_cryptobench)
    anchor = fixed_anchor(fidelity, [100.0, 100.0, 100.0], calls)
    row = fidelity.measure_row(anchor, 64, "db")
    assert calls == ["anchor", "cryptobench", "cryptobench", "anchor", "anchor", "cryptobench"]
    assert row["ratio"] == pytest.approx(1.1)
    assert (row["ratio_min"], row["ratio_max"]) == (pytest.approx(1.0), pytest.approx(1.3))
    assert row["noop_ns"] == 50.0
    assert "| python | 64 | pyperf timeit | 100.0 | 110.0 | 1.100 | 1.000-1.300 | 50.0 " in (
        fidelity.table([row])
    )
    assert "OUTSIDE" in fidelity.table([row])


def test_an_anchor_that_reads_the_clock_per_message_is_judged_without_that_cost(
    fidelity, monkeypatch
):
    monkeypatch.setattr(fidelity, "cryptobench_ns", lambda anchor, size, db: (80.0, None))
    anchor = fixed_anchor(fidelity, [100.0] * 3, [], overhead=20.0)
    row = fidelity.measure_row(anchor, 1024, "db")
    assert row["ratio"] == pytest.approx(0.8)
    assert row["ratio_without_overhead"] == pytest.approx(1.0)
    text = fidelity.table([row])
    assert "0.800 (1.000 without)" in text and "| ok |" in text
    assert "20.0 ns of its figure" in text


def test_a_failed_row_is_printed_and_the_others_are_not_lost(fidelity):
    rows = [{"runtime": "java", "size": 64, "anchor": "JMH", "error": "mvn: not found"}]
    assert "| java | 64 | JMH | failed |" in fidelity.table(rows)

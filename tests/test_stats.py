"""stats.py on fixed samples: every number checked against a value worked out by hand."""

import math

import numpy as np
import pytest

from cryptobench import stats


def test_per_op_divides_by_iterations():
    got = stats.per_op([{"iterations": 4, "ns": 400}, {"iterations": 10, "ns": 2000}])
    assert got.tolist() == [100.0, 200.0]


def test_median_ci_of_ten_uses_second_and_ninth_order_statistics():
    # Binomial(10, 1/2): P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024, so j = 2
    ci = stats.median_ci(list(range(1, 11)))
    assert (ci.median, ci.low, ci.high) == (5.5, 2.0, 9.0)
    assert ci.confidence == pytest.approx(1 - 2 * 11 / 1024)


def test_median_ci_with_too_few_samples_is_min_max_and_says_so():
    ci = stats.median_ci([3.0, 1.0, 2.0])
    assert (ci.low, ci.high) == (1.0, 3.0)
    assert ci.confidence == pytest.approx(0.75)
    assert "CI coverage 75%" in " ".join(stats.noise_flags([1, 2, 3], ci, 0.01))


def test_median_ci_is_distribution_free_order_statistics_for_large_n():
    values = np.arange(1000.0)
    ci = stats.median_ci(values)
    # the normal approximation gives j ≈ 500 - 1.96·sqrt(1000)/2 ≈ 469
    assert 465 <= ci.low <= 470 and 529 <= ci.high <= 534
    assert ci.confidence >= 0.95


def test_precision_is_half_width_over_median():
    assert stats.precision(100.0, 98.0, 104.0) == pytest.approx(0.03)
    assert stats.precision(0.0, 1.0, 2.0) == math.inf


def test_warmup_end_discards_a_decaying_start():
    steady = [100.0 + (i % 3) for i in range(40)]
    warm = [400.0, 300.0, 220.0, 160.0, 130.0, 115.0, 108.0, 104.0, 102.0, 101.0]
    start = stats.warmup_end(warm + steady, min_kept=10)
    assert start is not None and 5 <= start <= 10


def test_warmup_end_keeps_everything_when_flat():
    flat = [100.0 + (i % 5) for i in range(30)]
    assert stats.warmup_end(flat, min_kept=10) == 0


def test_warmup_end_is_none_while_still_speeding_up():
    assert stats.warmup_end([1000.0 - 10 * i for i in range(30)], min_kept=10) is None


def test_iterations_for_targets_the_batch_length():
    assert stats.iterations_for(1000.0, 10_000_000) == 10_000
    assert stats.iterations_for(50_000_000.0, 10_000_000) == 1


def test_stop_rule():
    kw = {"target": 0.01, "budget_s": 1.0, "min_samples": 10}
    assert stats.should_stop(5, 0.001, 0.1, **kw) == stats.StopDecision(False, "")
    assert stats.should_stop(5, 0.5, 9.0, **kw) == stats.StopDecision(False, "")  # floor
    assert stats.should_stop(10, 0.005, 0.1, **kw) == stats.StopDecision(True, "precision")
    assert stats.should_stop(10, 0.05, 1.5, **kw) == stats.StopDecision(True, "budget")
    assert stats.should_stop(10, 0.05, 0.5, **kw) == stats.StopDecision(False, "")


def test_fit_recovers_call_overhead_and_per_byte_cost():
    sizes = [16, 64, 256, 1024, 8192]
    fit = stats.fit_overhead(sizes, [50 + 0.5 * s for s in sizes])
    assert fit.per_call_ns == pytest.approx(50)
    assert fit.per_byte_ns == pytest.approx(0.5)
    assert fit.asymptotic_mb_s == pytest.approx(2000)


def test_fit_is_robust_to_one_disturbed_size():
    sizes = [16, 64, 256, 1024, 8192, 16384]
    times = [50 + 0.5 * s for s in sizes]
    times[2] *= 3  # one noisy size
    assert stats.fit_overhead(sizes, times).per_byte_ns == pytest.approx(0.5, rel=0.01)


def test_fit_needs_two_sizes():
    assert stats.fit_overhead([64, 64], [1.0, 2.0]) is None


def test_units():
    assert stats.throughput_mb_s(1000, 1000.0) == pytest.approx(1000.0)  # 1 B/ns = 1000 MB/s
    assert stats.cycles_per_byte(1000, 1000.0, 3e9) == pytest.approx(3.0)
    assert stats.cycles_per_byte(1000, 1000.0, None) is None


def test_ratio_ci_brackets_the_ratio():
    a = [200.0 + i % 3 for i in range(30)]
    b = [100.0 + i % 3 for i in range(30)]
    r, lo, hi = stats.ratio_ci(a, b)
    assert lo <= r <= hi and r == pytest.approx(2.0, rel=0.01)

"""stats.py on fixed samples: every number checked against a value worked out by hand."""

import math

import numpy as np
import pytest

from cryptobench import stats
from cryptobench.stats import batches


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
    assert "CI coverage 75%" in " ".join(batches.noise_flags([1, 2, 3], ci, 0.01))


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
    start = batches.warmup_end(warm + steady, min_kept=10)
    assert start is not None and 5 <= start <= 10


def test_warmup_end_keeps_everything_when_flat():
    flat = [100.0 + (i % 5) for i in range(30)]
    assert batches.warmup_end(flat, min_kept=10) == 0


def test_warmup_end_is_none_while_still_speeding_up():
    assert batches.warmup_end([1000.0 - 10 * i for i in range(30)], min_kept=10) is None


def test_iterations_for_targets_the_batch_length():
    assert batches.iterations_for(1000.0, 10_000_000) == 10_000
    assert batches.iterations_for(50_000_000.0, 10_000_000) == 1


def test_stop_rule():
    kw = {"target": 0.01, "budget_s": 1.0, "min_samples": 10}
    assert batches.should_stop(5, 0.001, 0.1, **kw) == batches.StopDecision(False, "")
    assert batches.should_stop(5, 0.5, 9.0, **kw) == batches.StopDecision(False, "")  # floor
    assert batches.should_stop(10, 0.005, 0.1, **kw) == batches.StopDecision(True, "precision")
    assert batches.should_stop(10, 0.05, 1.5, **kw) == batches.StopDecision(True, "budget")
    assert batches.should_stop(10, 0.05, 0.5, **kw) == batches.StopDecision(False, "")


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


# -- rounds (docs/methodology.md, "Rounds") ----------------------------------------------------
T2 = 4.302652729911275  # Student's t, 97.5% quantile, 2 degrees of freedom


def test_rounds_ci_uses_the_spread_of_round_medians_when_it_dominates():
    meds = [100.0, 110.0, 105.0]
    ci = stats.rounds_ci(meds, [99.0, 109.0, 104.0], [101.0, 111.0, 106.0])
    logs = np.log(meds)
    var = np.var(logs, ddof=1) / 3  # between rounds: 0.00076…/3, above the batches' floor
    assert ci.median == pytest.approx(math.exp(logs.mean()))
    assert ci.low == pytest.approx(math.exp(logs.mean() - T2 * math.sqrt(var)))
    assert ci.high == pytest.approx(math.exp(logs.mean() + T2 * math.sqrt(var)))
    assert ci.rounds == 3 and ci.between == pytest.approx(np.std(logs, ddof=1))


def test_rounds_ci_is_floored_by_the_rounds_own_intervals():
    ci = stats.rounds_ci([100.0] * 3, [90.0] * 3, [110.0] * 3)  # rounds agree exactly
    se2 = ((math.log(110) - math.log(90)) / (2 * stats.Z95)) ** 2
    assert ci.median == 100.0
    assert ci.log_var == pytest.approx(se2 / 3)
    assert ci.high == pytest.approx(100 * math.exp(T2 * math.sqrt(se2 / 3)))


def test_one_round_is_its_own_interval():
    ci = stats.rounds_ci([50.0], [49.0], [52.0])
    assert (ci.median, ci.low, ci.high, ci.rounds) == (50.0, 49.0, 52.0, 1)


def test_rounds_diff_is_welch_t_on_logs():
    a = stats.rounds_ci([100.0, 102.0, 98.0], [99.0, 101.0, 97.0], [101.0, 103.0, 99.0])
    b = stats.rounds_ci([110.0, 112.0, 108.0], [109.0, 111.0, 107.0], [111.0, 113.0, 109.0])
    d = stats.rounds_diff(a, b)
    assert d.ratio == pytest.approx(b.median / a.median)
    df = (a.log_var + b.log_var) ** 2 / (a.log_var**2 / 2 + b.log_var**2 / 2)
    t = math.log(d.ratio) / math.sqrt(a.log_var + b.log_var)
    from scipy import stats as sps

    assert d.p_value == pytest.approx(2 * sps.t.sf(t, df))
    assert d.low < d.ratio < d.high and d.low > 1.0  # a 10% change with 2% noise is found
    same = stats.rounds_diff(a, a)
    assert same.ratio == 1.0 and same.p_value == pytest.approx(1.0)


def test_compiled_until_points_after_the_last_compiling_batch():
    assert stats.compiled_until([0, 3, 0, 1, 0, 0]) == 4
    assert stats.compiled_until([None, None]) == 0 and stats.compiled_until([]) == 0


def test_size_inversions_need_intervals_apart():
    pts = [(16, 300, 290, 310), (64, 95, 90, 100), (1024, 400, 390, 410)]
    assert stats.size_inversions(pts) == {16: 64}
    assert stats.size_inversions([(16, 100, 90, 110), (64, 95, 88, 105)]) == {}


def test_a_per_byte_cost_not_shown_above_zero_is_said_so_never_inf_or_negative():
    # webcrypto-like: a large per-call cost whose noise hides the bytes (slope ≈ 0 or < 0)
    fit = stats.fit_overhead([16, 64, 1024, 16384], [55000.0, 23000.0, 37000.0, 43000.0])
    assert not fit.significant
    assert fit.asymptotic_mb_s is None
    assert fit.cells()[1:] == ("not significant", "—")


def test_a_clear_per_byte_cost_is_significant():
    fit = stats.fit_overhead([16, 64, 1024, 16384], [58.0, 82.0, 562.0, 8250.0])
    assert fit.significant and fit.per_byte_low > 0
    assert fit.cells()[2] == f"{1e3 / fit.per_byte_ns:.0f}"


def test_the_probe_level_is_the_geometric_mean_of_the_rounds_medians():
    from cryptobench.stats import probe_level

    assert probe_level([{"median_ns": 800.0}, {"median_ns": 1800.0}]) == pytest.approx(1200.0)
    assert probe_level(
        [{"median_ns": 900.0}, {"median_ns": None}, {"median_ns": 0}]
    ) == pytest.approx(900.0)
    assert probe_level([]) is None


def test_slowed_says_how_many_times_slower_only_past_the_busy_bound():
    from cryptobench.stats import BUSY_SPREAD, slowed

    at_bound = [{"median_ns": 1000.0 * (1 + BUSY_SPREAD)}]
    assert slowed(at_bound, 1000.0) is None  # a quiet machine's spread
    assert slowed([{"median_ns": 2400.0}], 1000.0) == pytest.approx(2.4)
    assert slowed([{"median_ns": 2400.0}], None) is None  # a machine's first run
    assert slowed([], 1000.0) is None

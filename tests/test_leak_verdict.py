"""stats.leak's published verdict on fixed (seeded) samples: a replicated shift, a one-off
shift, an A/A pair, a difference within the A/A floor; no timing anywhere."""

import math
from dataclasses import replace

import numpy as np
from scipy import stats as scipy_stats

from cryptobench.stats import leak as stats
from cryptobench.stats.leak import block_ids


def _measure(rng, shift=0.0, swap=False, n=20_000, blocks=64):
    """One measurement of a target whose class B is ``shift`` ns slower: skewed,
    integer-valued times with a long tail. ``swap``: class B had the role of class 0."""
    classes = rng.integers(0, 2, n)
    is_b = classes == (0 if swap else 1)
    ns = rng.gamma(4.0, 10.0, n) + 80.0 + shift * is_b
    tail = rng.random(n) < 0.01
    ns[tail] += rng.exponential(5000.0, tail.sum())
    ids = block_ids(n, blocks)
    return stats.effect(np.round(ns), classes, ids, sign=-1 if swap else 1)


def _measured(seed, shifts=(0.0, 0.0), aa_shift=0.0):
    """A replicate per shift (roles swapped in the odd ones), each with its A/A measurement."""
    rng = np.random.default_rng(seed)
    reps = [_measure(rng, s, swap=i % 2 == 1) for i, s in enumerate(shifts)]
    aas = [_measure(rng, aa_shift, swap=i % 2 == 1) for i in range(len(shifts))]
    return reps, aas


def _target(seed, shifts=(0.0, 0.0), aa_shift=0.0):
    return stats.replicated_verdict(*_measured(seed, shifts, aa_shift))


def _undecided(reps, aas) -> bool:
    return stats.undecided(reps, stats.replicated_verdict(reps, aas))


def test_block_trimmed_differences_by_hand():
    ns = [10, 12, 20, 30, 11, 13, 40, 40]
    classes = [0, 0, 1, 1, 0, 0, 1, 1]
    blocks = [0, 0, 0, 0, 1, 1, 1, 1]
    assert stats.block_trimmed_differences(ns, classes, blocks).tolist() == [14.0, 28.0]
    # ten times per class: 10% trimmed is one cut at each end (the 900 ns interrupt goes)
    a = [20] * 9 + [30]
    b = [20] * 4 + [30] * 5 + [900]
    got = stats.block_trimmed_differences(a + b, [0] * 10 + [1] * 10, [0] * 20)
    assert got.tolist() == [(20 * 3 + 30 * 5) / 8 - 20.0]  # 6.25 ns; the medians: 10
    # a class on one tick with a sub-tick difference: the medians read 0, the trimmed means not
    a, b = [20] * 8 + [30] * 2, [20] * 6 + [30] * 4
    got = stats.block_trimmed_differences(a + b, [0] * 10 + [1] * 10, [0] * 20)
    assert np.median(b) - np.median(a) == 0 and got.tolist() == [2.5]
    # a block missing a class is left out
    assert stats.block_trimmed_differences([1, 2, 3], [0, 0, 1], [0, 0, 1]).tolist() == []
    # blocks in the order first taken, whatever their ids, even interleaved
    got = stats.block_trimmed_differences(
        [1, 9, 5, 2, 8, 6], [0, 0, 1, 1, 1, 0], [7, 3, 7, 3, 3, 7]
    )
    assert got.tolist() == [5.0 - 3.5, 5.0 - 9.0]


def test_a_replicated_shift_is_a_leak_with_its_size():
    v = _target(1, shifts=(3.0, 3.0))
    assert v.verdict == "leak" and v.summary.startswith("leak: difference of ")
    e = v.effect
    assert e.low_ns < 3.0 < e.high_ns  # the interval holds the true shift
    assert e.low_ns > v.floor_ns  # beyond the A/A floor
    assert e.blocks == 128 and e.n_a + e.n_b == 40_000
    assert 0 < v.fraction < 0.1  # 3 ns of a ~120 ns call
    assert not v.aa_flagged


def test_the_swapped_replicate_is_oriented_like_the_first():
    v = _target(2, shifts=(-3.0, -3.0))
    assert v.verdict == "leak" and v.effect.high_ns < 0


def test_a_one_off_shift_is_not_replicated():
    v = _target(3, shifts=(3.0, 0.0))
    assert v.verdict == "not replicated"
    assert v.summary.startswith("difference of ")
    assert v.summary.endswith(", not replicated (1 of 2 measurements beyond the A/A floor)")
    assert v.effect == stats.pooled(_measured(3, shifts=(3.0, 0.0))[0])  # both pooled
    opposite = _target(4, shifts=(3.0, -3.0))
    assert opposite.verdict == "not replicated"


def test_an_a_a_pair_is_not_flagged_and_no_leak_is_sized():
    v = _target(5)
    assert v.verdict == "no leak detected" and not v.aa_flagged
    assert v.summary == f"no leak detected ≥ {stats.fmt_ns(v.detectable_ns)} ns"
    assert v.floor_ns < v.detectable_ns < 5.0


def test_a_difference_the_a_a_pair_also_shows_is_not_a_leak():
    """The inputs' bytes alone (no secret) move the time: the A/A pair shows it as well, its
    floor rises above the target's difference, and nothing is called a leak."""
    v = _target(6, shifts=(2.0, 2.0), aa_shift=2.0)
    assert v.aa_flagged
    assert v.floor_ns > 2.0
    assert v.verdict != "leak"


def test_the_rule_rarely_flags_identical_classes():
    """60 seeded targets with identical classes everywhere: no leak, at most one A/A flag
    (each A/A flag needs two 95% intervals off zero on the same side: ~0.1%)."""
    verdicts = [_target(100 + k) for k in range(60)]
    assert not any(v.verdict == "leak" for v in verdicts)
    assert sum(v.aa_flagged for v in verdicts) <= 1


def test_measured_again_the_floor_is_the_far_end_of_the_a_a_measurements_pooled():
    """Two A/A measurements: the largest end of their intervals. More (a case measured
    again): their pooled interval's far end, which one noisy A/A process does not set alone."""
    _, aas = _measured(7, shifts=(0.0,) * 6)
    aas[3] = replace(aas[3], low_ns=aas[3].low_ns - 10.0, high_ns=aas[3].high_ns + 10.0)
    ends = [max(abs(e.low_ns), abs(e.high_ns)) for e in aas]
    both = stats.pooled(aas)
    assert stats.aa_floor(aas) == max(abs(both.low_ns), abs(both.high_ns)) < max(ends)
    assert stats.aa_floor(aas[:2]) == max(ends[:2])
    assert stats.aa_floor([]) == 0.0


def test_too_few_measurements_are_inconclusive():
    rng = np.random.default_rng(9)
    reps = [_measure(rng, 3.0, n=600), _measure(rng, 3.0, swap=True, n=600)]
    v = stats.replicated_verdict(reps, reps)
    assert v.verdict == "inconclusive" and math.isinf(v.detectable_ns)
    one = stats.replicated_verdict(reps[:1], reps)
    assert one.verdict == "inconclusive"  # a single measurement never gives a verdict


def test_dudect_crops_are_holm_corrected():
    rng = np.random.default_rng(10)
    n = 20_000
    classes = rng.integers(0, 2, n)
    ns = np.round(rng.gamma(4.0, 10.0, n) + 80.0)
    test = stats.leak_test(ns, classes, block_ids(n, 64))
    raw = 2 * scipy_stats.t.sf(abs(test.t), 63)
    assert test.p_holm == min(1.0, 101 * raw)


def _stored(runtime, verdict, aa_flagged, diff=(3.3, 2.9, 3.8), reps=((2.5, 4.0), (2.0, 3.9))):
    return {
        "runtime": runtime,
        "implementation": f"{runtime}/lib",
        "primitive": "aes-128-gcm",
        "operation": "leak",
        "status": "ok",
        "n_samples": 100_000,
        "leak": {
            "target": "open",
            "verdict": verdict,
            "summary": f"{verdict}: …",
            "diff_ns": diff[0],
            "diff_low_ns": diff[1],
            "diff_high_ns": diff[2],
            "fraction": diff[0] / 110,
            "floor_ns": 0.9,
            "aa_flagged": aa_flagged,
            "replicates": [{"low_ns": lo, "high_ns": hi} for lo, hi in reps],
            "t": 7.5,
            "blocks": 64,
            "curve": [],
        },
    }


def test_report_rows_show_the_size_the_floor_and_the_a_a_rate():
    from cryptobench.report import leak as leak_report

    results = [
        _stored("rust", "leak", False),
        _stored("rust", "no leak detected", True),
        _stored("go", "not replicated", False),
        _stored("c", "leak", False, reps=((2.5, 4.0), (0.1, 1.9)) + ((2.0, 3.9),) * 4),
    ]
    rows = leak_report.rows(results)
    assert rows[0].difference == "3.30 ns (2.90…3.80)" and rows[0].fraction == "+3.00%"
    assert rows[0].floor == "0.90 ns" and rows[0].verdict.startswith("leak (replicated in 2,")
    assert rows[2].verdict == "difference not replicated"
    assert rows[3].verdict.startswith("leak (replicated in 5 of 6,")  # measured again
    results[3]["leak"]["replaced"] = [{"replicate": 3, "why": "…", "target": {}, "aa": {}}]
    assert leak_report.rows(results)[3].verdict.endswith("; 1 unsteady process measured again")
    assert leak_report.aa_rates(results) == {"rust": (1, 2), "go": (0, 1), "c": (0, 1)}
    assert leak_report.notes(results)[1].endswith("go 0/1, rust 1/2.")
    assert len(rows[0].cells()) == len(leak_report.COLUMNS)


def _two_layouts(swapped, seed=31, n=20_000, blocks=64, cost=8.0):
    """Identical classes, measured in a runner whose allocator gives each request's two
    prepared calls one of two layouts in turn: the first call costs ``cost`` ns more in even
    requests, the second in odd ones (the C runner, 2026-11-25: 8–10 ns, libgcrypt's HMAC
    verify). ``swapped[k]``: block k gave class B's inputs to the runner's first call."""
    rng = np.random.default_rng(seed)
    classes = rng.integers(0, 2, n)
    ids = block_ids(n, blocks)
    served = classes ^ np.asarray(swapped, dtype=int)[ids]  # the runner's call: 0 first
    ns = rng.gamma(4.0, 10.0, n) + 80.0 + cost * (served == ids % 2)
    return stats.effect(np.round(ns), classes, ids)


def test_a_swap_in_every_other_block_turns_alternating_layouts_into_a_difference():
    """The bug the random swap fixes (docs/methodology.md, "Measurement"): swapping in every
    other block undoes the allocator's alternation, so class A always got the slow call."""
    e = _two_layouts([k % 2 == 1 for k in range(64)])
    assert e.high_ns < 0 and abs(e.diff_ns + 8.0) < 1.0


def test_a_random_balanced_swap_leaves_identical_classes_inside_their_interval():
    from cryptobench.leak.command import swaps

    swapped = swaps(7, "c/libgcrypt:hmac-sha256:verify:aa", 64)
    assert sum(swapped) == 32 and swapped == swaps(7, "c/libgcrypt:hmac-sha256:verify:aa", 64)
    assert swapped != [k % 2 == 1 for k in range(64)]
    assert swapped != swaps(8, "c/libgcrypt:hmac-sha256:verify:aa", 64)  # from the seed
    e = _two_layouts(swapped)
    assert e.low_ns < 0 < e.high_ns


def _process(d) -> stats.Effect:
    """One process's effect from its blocks' differences ``d``."""
    d = np.asarray(d, dtype=float)
    low, high = stats.interval(d)
    return stats.Effect(float(np.mean(d)), low, high, 1.0, 5000, 5000, len(d), 50, 100.0, tuple(d))


def test_processes_that_disagree_widen_the_pooled_interval_to_theirs():
    """Two processes at 10 and 16 ns, each precise to ±0.5 ns: the blocks' interval alone
    (±0.35) would miss the next process. For two equally precise processes (variance v each)
    DerSimonian-Laird's τ² is (m1 − m2)²/2 − v; its share τ²/2 is taken at t(0.975, 1)."""
    base = np.random.default_rng(7).normal(0.0, 2.0, 64)
    reps = [_process(base + 10.0), _process(base[::-1] + 16.0)]
    both = stats.pooled(reps)
    v = (reps[0].half_width / scipy_stats.t.ppf(0.975, 63)) ** 2
    blocks_only = stats.interval(np.concatenate([r.diffs for r in reps]))
    within = (blocks_only[1] - blocks_only[0]) / 2
    half = math.sqrt(within**2 + scipy_stats.t.ppf(0.975, 1) ** 2 * (6.0**2 / 2 - v) / 2)
    assert math.isclose(both.diff_ns, 13.0 + base.mean(), rel_tol=1e-12)
    assert math.isclose(both.high_ns - both.diff_ns, half, rel_tol=1e-9)
    assert math.isclose(both.diff_ns - both.low_ns, half, rel_tol=1e-9)
    assert both.low_ns < 10.0 and both.high_ns > 16.0


def test_processes_that_agree_keep_the_blocks_interval():
    """Equal means (Cochran's Q = 0): no variance between processes, nothing widened."""
    base = np.random.default_rng(8).normal(0.0, 2.0, 64)
    reps = [_process(base + 12.0), _process(base[::-1] + 12.0)]
    both = stats.pooled(reps)
    d = np.concatenate([r.diffs for r in reps])
    assert (both.low_ns, both.high_ns) == stats.interval(d)


def test_the_widened_interval_leaves_the_verdict_to_each_measurement():
    """The verdict stands on each process's own interval beyond the A/A floor: two processes
    that disagree on the size (8 and 14 ns) but both show it are still a leak."""
    v = _target(9, shifts=(8.0, 14.0))
    assert v.verdict == "leak"
    assert v.effect.low_ns < 8.0 and v.effect.high_ns > 14.0
    assert _undecided(*_measured(9, shifts=(8.0, 14.0)))  # apart: measured again


def test_what_leaves_the_first_two_measurements_undecided():
    """Measured again (up to EDGE_REPLICATES): one beyond the floor and not the other, or two
    processes whose intervals are apart; not a replicated shift, nor identical classes."""
    assert _undecided(*_measured(3, shifts=(3.0, 0.0)))
    assert not _undecided(*_measured(1, shifts=(3.0, 3.0)))
    # both off zero on one side, neither beyond the floor the A/A pair sets: too little power
    reps, aas = _measured(6, shifts=(2.0, 2.0), aa_shift=2.0)
    assert all(e.low_ns > 0 for e in reps) and _undecided(reps, aas)
    assert not _undecided(*_measured(5))
    rng = np.random.default_rng(9)
    few = [_measure(rng, 3.0, n=600), _measure(rng, 3.0, swap=True, n=600)]
    assert not _undecided(few, few)  # inconclusive: nothing more to learn this way


def test_measured_again_a_shift_in_most_processes_is_a_leak():
    """Six processes, one of them without the shift (a one-off zero): the pooled interval and
    processes in both role orientations lie beyond the floor, so it is a leak, and the row
    says in how many."""
    v = _target(21, shifts=(3.0, 3.0, 3.0, 0.0, 3.0, 3.0))
    assert v.verdict == "leak" and v.effect.low_ns > v.floor_ns
    assert ", replicated in 5 of 6, beyond the A/A floor of " in v.summary


def test_measured_again_a_one_off_or_one_orientation_is_not_replicated():
    """A shift in one process of six, or only where the roles were not swapped (an effect of
    the runner's first prepared call, not of the class): not replicated."""
    one_off = _target(22, shifts=(3.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    assert one_off.verdict == "not replicated"
    one_side = _target(23, shifts=(3.0, 0.0, 3.0, 0.0, 3.0, 0.0))
    assert one_side.verdict == "not replicated"
    none = _target(24, shifts=(0.0,) * 6)
    assert none.verdict == "no leak detected"


def test_a_process_the_clock_cannot_resolve_still_counts_between_processes():
    """One process's blocks all gave 0 (a 10 ns clock tick over a ~2 ns difference: c/nettle's
    HMAC verify, 2026-11-26), the other's 3.75 ns ± 2.3: with no standard error to weigh the
    first by, τ² is the means' variance less their mean squared error (Hedges), taken at
    t(0.975, 1) like DerSimonian-Laird's; before, the first was left out and nothing widened."""
    base = np.random.default_rng(12).normal(0.0, 9.0, 64)
    reps = [_process(np.zeros(64)), _process(base - base.mean() + 3.75)]
    both = stats.pooled(reps)
    se = reps[1].half_width / scipy_stats.t.ppf(0.975, 63)
    assert math.isclose(reps[1].se, se, rel_tol=1e-12)
    tau2 = np.var([0.0, 3.75], ddof=1) - se**2 / 2
    low, high = stats.interval(np.concatenate([r.diffs for r in reps]))
    within = (high - low) / 2
    half = math.sqrt(within**2 + scipy_stats.t.ppf(0.975, 1) ** 2 * tau2 / 2)
    assert math.isclose(both.high_ns - both.diff_ns, half, rel_tol=1e-9)
    assert both.low_ns < 0.0 and both.high_ns > 3.75


def _processes(seed, sds, shift=0.0):
    """One process per standard deviation of its 64 blocks' differences, around ``shift``."""
    rng = np.random.default_rng(seed)
    return [_process(rng.normal(shift, sd, 64)) for sd in sds]


def test_an_unsteady_process_is_told_by_its_spread():
    """Of six processes, the one whose blocks scatter 20x the others' (node/crypto's ECDSA
    signing, 2026-11-28: ±8-11 µs against ±0.2-0.5 µs) is unsteady, in the target's or the
    A/A measurement, with the ratio; steady processes, and two (which is unsteady, two
    cannot say), give none."""
    steady = _processes(31, [1.0] * 6)
    noisy = _processes(32, [1.0, 1.0, 1.0, 20.0, 1.0, 1.0], shift=-70.0)
    got = stats.unsteady(noisy, steady)
    assert list(got) == [3] and got[3][1] == "target" and 12.0 < got[3][0] < 30.0
    aa_noisy = _processes(33, [1.0, 1.0, 1.0, 1.0, 1.0, 20.0])
    got = stats.unsteady(steady, aa_noisy)
    assert list(got) == [5] and got[5][1] == "A/A"
    assert stats.unsteady(steady, steady) == {}
    assert stats.unsteady(noisy[2:4], steady[:2]) == {}
    # chosen by the spread, not the difference: a steady process far off is not unsteady
    off = [*steady[:5], _process(np.random.default_rng(34).normal(500.0, 1.0, 64))]
    assert stats.unsteady(off, steady) == {}


def test_the_fraction_is_of_class_a_whatever_the_classes_share():
    """An early-exit control's classes lie far apart (31 against 297 ns): the difference is a
    fraction of class A's median in both role orientations, whichever class has more of the
    measurements (both classes' median fell on either, 2026-11-29: 857% then 102%)."""
    rng = np.random.default_rng(41)
    for swap in (False, True):
        for share_b in (0.45, 0.55):
            n = 20_000
            classes = (rng.random(n) < (1 - share_b if swap else share_b)).astype(int)
            is_b = classes == (0 if swap else 1)
            ns = np.round(np.where(is_b, 297.0, 31.0) + rng.normal(0.0, 2.0, n))
            e = stats.effect(ns, classes, block_ids(n, 64), sign=-1 if swap else 1)
            assert e.median_ns == 31.0 and 265.0 < e.diff_ns < 267.0

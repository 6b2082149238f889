"""stats.leak.leak_test / leak_verdict on synthetic samples (no timing anywhere)."""

import numpy as np
import pytest

from cryptobench.stats import leak as stats
from cryptobench.stats.leak import block_ids


def _test(ns, classes, blocks=64):
    return stats.leak_test(ns, classes, block_ids(len(ns), blocks))


def _sample(rng, n, shift=0.0):
    """Skewed, integer-valued times with a long upper tail, like single-call timings."""
    classes = rng.integers(0, 2, n)
    ns = rng.gamma(4.0, 10.0, n) + 80.0 + shift * classes
    tail = rng.random(n) < 0.01
    ns[tail] += rng.exponential(5000.0, tail.sum())
    return np.round(ns), classes


def test_a_shift_of_a_few_ns_is_detected():
    ns, classes = _sample(np.random.default_rng(7), 100_000, shift=3.0)
    test = _test(ns, classes)
    assert test.t > stats.LEAK_T
    assert stats.leak_verdict(test) == "leak"
    assert test.detectable_ns < 3.0
    assert test.curve[-1][0] == 100_000
    # a real leak grows with the measurements
    assert test.curve[-1][1] > test.curve[0][1]


def test_the_tail_alone_hides_nothing_cropping_finds_it():
    ns, classes = _sample(np.random.default_rng(8), 100_000, shift=3.0)
    test = _test(ns, classes)
    assert test.test.startswith("crop")  # the uncropped t is swamped by the tail


def test_identical_distributions_false_positive_rate():
    """Identical classes: at |t| > 4.5 over 101 correlated tests the false-positive rate is
    well under 1% (each test: 7e-6 under normality); 300 seeded trials give at most 2."""
    rng = np.random.default_rng(11)
    flagged = 0
    for _ in range(300):
        ns, classes = _sample(rng, 4_000)
        flagged += stats.leak_verdict(_test(ns, classes)) == "leak"
    assert flagged <= 2


def test_identical_not_detected_and_detectable_size_reported():
    ns, classes = _sample(np.random.default_rng(3), 50_000)
    test = _test(ns, classes)
    verdict = stats.leak_verdict(test)
    assert verdict.startswith("no leak detected (50000 measurements, detectable ≥ ")
    assert 0 < test.detectable_ns < 10


def test_inconclusive_when_too_few_or_too_coarse():
    rng = np.random.default_rng(5)
    ns, classes = _sample(rng, 600)  # about 300 per class
    assert stats.leak_verdict(_test(ns, classes)) == "inconclusive"
    ns, classes = _sample(rng, 20_000)  # enough measurements, too few blocks
    assert stats.leak_verdict(_test(ns, classes, blocks=4)) == "inconclusive"
    coarse = np.where(rng.random(10_000) < 0.5, 1000.0, 2000.0)
    assert stats.leak_verdict(_test(coarse, rng.integers(0, 2, 10_000))) == "inconclusive"


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        stats.leak_test([1, 2, 3], [0, 1], [0, 0, 0])
    with pytest.raises(ValueError):
        stats.leak_test([1, 2, 3], [0, 1, 0], [0, 0])


def _placed(rng, n, blocks, spread, swap=True):
    """Identical classes, but each block's two prepared calls sit somewhere in memory that
    costs each of them its own few ns (``spread``), as measured in Rust; ``swap``: in every
    other block the first call serves class B."""
    ns, classes = _sample(rng, n)
    ids = block_ids(n, blocks)
    slot = rng.normal(0.0, spread, (blocks, 2))  # per block, per prepared call
    served = classes ^ (ids % 2 if swap else 0)  # which prepared call served each measurement
    return ns + np.round(slot[ids, served]), classes, ids


def test_placement_per_request_is_not_a_leak():
    """The bug this design fixes: a pooled t over 500 000 calls called a few ns of per-request
    placement a leak (|t| ≈ 100 on identical classes); the t over blocks does not."""
    rng = np.random.default_rng(21)
    ns, classes, ids = _placed(rng, 500_000, 64, spread=4.0)
    assert stats.leak_verdict(stats.leak_test(ns, classes, ids)).startswith("no leak detected")
    pooled = stats.leak_test(ns, classes, np.zeros_like(ids))  # one block: the old test
    assert pooled.blocks == 1 and stats.leak_verdict(pooled) == "inconclusive"


def test_a_leak_shows_through_placement_noise():
    rng = np.random.default_rng(22)
    ns, classes, ids = _placed(rng, 500_000, 64, spread=1.0)
    test = stats.leak_test(ns + 3.0 * classes, classes, ids)
    assert stats.leak_verdict(test) == "leak"
    assert test.t > 0  # class B slower


def test_blocks_split_the_measurements_in_order():
    ids = block_ids(10, 3)
    assert ids.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]

"""stats.leak_test / leak_verdict on synthetic samples (no timing anywhere)."""

import numpy as np
import pytest

from cryptobench import stats


def _sample(rng, n, shift=0.0):
    """Skewed, integer-valued times with a long upper tail, like single-call timings."""
    classes = rng.integers(0, 2, n)
    ns = rng.gamma(4.0, 10.0, n) + 80.0 + shift * classes
    tail = rng.random(n) < 0.01
    ns[tail] += rng.exponential(5000.0, tail.sum())
    return np.round(ns), classes


def test_a_shift_of_a_few_ns_is_detected():
    ns, classes = _sample(np.random.default_rng(7), 100_000, shift=3.0)
    test = stats.leak_test(ns, classes)
    assert test.t > stats.LEAK_T
    assert stats.leak_verdict(test) == "leak"
    assert test.detectable_ns < 3.0
    assert test.curve[-1][0] == 100_000
    # a real leak grows with the measurements
    assert test.curve[-1][1] > test.curve[0][1]


def test_the_tail_alone_hides_nothing_cropping_finds_it():
    ns, classes = _sample(np.random.default_rng(8), 100_000, shift=3.0)
    test = stats.leak_test(ns, classes)
    assert test.test.startswith("crop")  # the uncropped t is swamped by the tail


def test_identical_distributions_false_positive_rate():
    """Identical classes: at |t| > 4.5 over 101 correlated tests the false-positive rate is
    well under 1% (each test: 7e-6 under normality); 300 seeded trials give at most 2."""
    rng = np.random.default_rng(11)
    flagged = 0
    for _ in range(300):
        ns, classes = _sample(rng, 4_000)
        flagged += stats.leak_verdict(stats.leak_test(ns, classes)) == "leak"
    assert flagged <= 2


def test_identical_not_detected_and_detectable_size_reported():
    ns, classes = _sample(np.random.default_rng(3), 50_000)
    test = stats.leak_test(ns, classes)
    verdict = stats.leak_verdict(test)
    assert verdict.startswith("no leak detected (50000 measurements, detectable ≥ ")
    assert 0 < test.detectable_ns < 10


def test_inconclusive_when_too_few_or_too_coarse():
    rng = np.random.default_rng(5)
    ns, classes = _sample(rng, 600)  # about 300 per class
    assert stats.leak_verdict(stats.leak_test(ns, classes)) == "inconclusive"
    coarse = np.where(rng.random(10_000) < 0.5, 1000.0, 2000.0)
    assert stats.leak_verdict(stats.leak_test(coarse, rng.integers(0, 2, 10_000))) == "inconclusive"


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        stats.leak_test([1, 2, 3], [0, 1])

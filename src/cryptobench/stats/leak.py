"""Timing leakage, dudect-style (docs/methodology.md, "Timing leakage"). Pure: no I/O.

The measurements come in blocks: one runner request each, with its own freshly prepared
call per class (key schedule, buffers, their addresses). Where a block's two calls sit in
memory changes its class difference by a few nanoseconds in some runtimes — more than a
leak — and a t test over pooled measurements would call that a leak (it did: a
constant-time compare gave |t| = 104 and identical classes |t| = 95 in Rust). So the unit
of the test is the block: each block gives the class difference of its means (after each
percentile crop, its own thresholds), and the test is a one-sample t over the blocks'
differences — the placement noise is then in the standard error, where it belongs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LEAK_T = 4.5  # dudect's threshold on |t| (Reparaz, Balasch, Verbauwhede, DATE 2017)
LEAK_CROPS = 100  # dudect's number of percentile crops
LEAK_MIN_PER_CLASS = 400  # fewer measurements in a class: inconclusive
LEAK_MIN_BLOCKS = 8  # fewer blocks: inconclusive (the t over blocks has too few degrees)
_KEPT = np.concatenate(([1.0], 1.0 - 0.5 ** (10.0 * (np.arange(LEAK_CROPS) + 1) / LEAK_CROPS)))
LABELS = ["all"] + [f"crop p{100 * k:.1f}" for k in _KEPT[1:]]


def leak_thresholds(ns) -> np.ndarray:
    """dudect's crop thresholds: the percentiles 1 − 0.5^(10·(i+1)/100), i = 0…99."""
    return np.quantile(np.asarray(ns, dtype=float), _KEPT[1:])


def block_ids(n: int, blocks: int) -> np.ndarray:
    """Which of ``blocks`` contiguous, nearly equal requests each of n measurements is in."""
    cuts = np.linspace(0, n, blocks + 1).astype(int)
    return np.searchsorted(cuts[1:], np.arange(n), side="right")


def block_differences(ns, classes) -> np.ndarray:
    """One block's class-B-minus-A difference of means, for "all" then each crop (a crop
    keeps the block's measurements at or below its own threshold); NaN where a class is
    empty."""
    x = np.asarray(ns, dtype=float)
    c = np.asarray(classes, dtype=int)
    nb = LEAK_CROPS + 1
    bucket = np.searchsorted(leak_thresholds(x), x, side="left")  # crop k keeps bucket ≤ k
    y = x - np.median(x)
    cell = c * nb + bucket
    n = np.bincount(cell, minlength=2 * nb).reshape(2, nb).cumsum(axis=1)
    s = np.bincount(cell, weights=y, minlength=2 * nb).reshape(2, nb).cumsum(axis=1)
    tests = [LEAK_CROPS, *range(LEAK_CROPS)]  # "all" (every bucket) first, then the crops
    n, s = n[:, tests], s[:, tests]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((n[0] > 0) & (n[1] > 0), s[1] / n[1] - s[0] / n[0], np.nan)


def _t_over_blocks(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One-sample t (and its standard error) of each column of ``d`` (blocks × tests)."""
    seen = ~np.isnan(d)
    m = seen.sum(axis=0)
    x = np.where(seen, d, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = x.sum(axis=0) / m
        var = (np.where(seen, d - mean, 0.0) ** 2).sum(axis=0) / (m - 1)
        se = np.sqrt(var / m)
        t = mean / se
    ok = (m >= 3) & (se > 0)
    return np.where(ok, t, 0.0), np.where(ok, se, np.inf)


@dataclass(frozen=True)
class LeakTest:
    """The dudect tests of one leak case: all measurements, then each percentile crop."""

    t: float  # the t of largest magnitude over the tests (class B minus class A)
    test: str  # which test gave it: "all" or "crop p<q>"
    n: int  # measurements (both classes)
    n_a: int
    n_b: int
    blocks: int  # requests, each with its own prepared calls: the test's unit
    detectable_ns: float  # smallest mean shift giving |t| = LEAK_T in a test on ≥ half the data
    distinct: int  # distinct time values: a clock too coarse shows few
    curve: list  # [(measurements so far, max |t| so far)], at growing numbers of blocks
    median_a: float
    median_b: float


def leak_test(ns, classes, blocks, points: int = 20) -> LeakTest:
    """Per block (``blocks``: each measurement's block id, blocks in the order taken), the
    class difference of means on all its measurements and after each of dudect's 100
    percentile crops; per test, the one-sample t of those differences over the blocks.
    Reported: the t of largest magnitude, the counts, and the smallest shift the most
    sensitive test keeping at least half the measurements would have flagged (|t| = 4.5 at
    its standard error). ``curve``: max |t| over the tests at growing prefixes of the blocks
    (a real leak grows like √n, noise does not). Second-order (variance) tests are left out."""
    x = np.asarray(ns, dtype=float)
    c = np.asarray(classes, dtype=int)
    b = np.asarray(blocks, dtype=int)
    if x.shape != c.shape or x.shape != b.shape or len(x) < 2:
        raise ValueError("leak_test needs a class and a block for every measurement")
    ids, starts = np.unique(b, return_index=True)
    ids = ids[np.argsort(starts)]
    d = np.array([block_differences(x[b == i], c[b == i]) for i in ids])
    t, se = _t_over_blocks(d)
    best = int(np.argmax(np.abs(t)))
    ses = se[np.isfinite(se) & (_KEPT >= 0.5)]
    ends = np.array([int(np.max(np.nonzero(b == i))) + 1 for i in ids])
    cuts = np.unique(np.linspace(0, len(ids), points + 1).astype(int)[1:])
    cuts = cuts[cuts >= LEAK_MIN_BLOCKS]
    curve = [(int(ends[k - 1]), float(np.max(np.abs(_t_over_blocks(d[:k])[0])))) for k in cuts]
    return LeakTest(
        t=float(t[best]),
        test=LABELS[best],
        n=len(x),
        n_a=int(np.count_nonzero(c == 0)),
        n_b=int(np.count_nonzero(c == 1)),
        blocks=len(ids),
        detectable_ns=float(LEAK_T * ses.min()) if len(ses) else math.inf,
        distinct=len(np.unique(x)),
        curve=curve,
        median_a=float(np.median(x[c == 0])) if (c == 0).any() else math.nan,
        median_b=float(np.median(x[c == 1])) if (c == 1).any() else math.nan,
    )


def leak_verdict(test: LeakTest) -> str:
    """``leak`` (|t| > 4.5), ``no leak detected (N measurements, detectable ≥ X ns)``, or
    ``inconclusive`` (too few measurements or blocks, or a clock too coarse to tell)."""
    too_few = min(test.n_a, test.n_b) < LEAK_MIN_PER_CLASS or test.blocks < LEAK_MIN_BLOCKS
    if too_few or test.distinct < 3:
        return "inconclusive"
    if abs(test.t) > LEAK_T:
        return "leak"
    return f"no leak detected ({test.n} measurements, detectable ≥ {test.detectable_ns:.3g} ns)"

"""Pure statistics for cryptobench: no I/O, no printing, no clocks.

Every number a user sees is computed here (docs/methodology.md explains each):

- per-operation times of batches                      :func:`per_op`
- the distribution-free 95% CI of the median           :func:`median_ci`
- precision (CI half-width / median)                   :func:`precision`
- warm-up detection (batches kept once no trend)       :func:`warmup_end`
- calibration (iterations per batch)                   :func:`iterations_for`
- the stop rule                                        :func:`should_stop`
- the per-call / per-byte fit t(n) = a + b·n           :func:`fit_overhead`
- unit conversions        :func:`throughput_mb_s`, :func:`cycles_per_byte`
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

CONFIDENCE = 0.95


def per_op(samples: list[dict]) -> np.ndarray:
    """ns per operation of each batch ``{"iterations", "ns"}``."""
    return np.array([s["ns"] / s["iterations"] for s in samples], dtype=float)


@dataclass(frozen=True)
class MedianCI:
    median: float
    low: float
    high: float
    n: int
    confidence: float  # the coverage actually reached (order statistics are discrete)

    @property
    def precision(self) -> float:
        return precision(self.median, self.low, self.high)


def median_ci(values, confidence: float = CONFIDENCE) -> MedianCI:
    """Distribution-free confidence interval of the median from order statistics.

    The number of samples below the true median is Binomial(n, 1/2), so
    ``[X_(j), X_(n+1-j)]`` (1-based order statistics) covers it with probability
    ``1 - 2·P(B ≤ j-1)``.  We take the largest j whose coverage is still ≥ ``confidence``
    (Hollander & Wolfe, *Nonparametric Statistical Methods*, §3.6; as in pyperf/benchstat).
    With fewer than 6 samples no j reaches 95%: the interval is [min, max] and the
    reached coverage is reported.
    """
    x = np.sort(np.asarray(values, dtype=float))
    n = len(x)
    if n == 0:
        raise ValueError("median_ci needs at least one value")
    med = float(np.median(x))
    alpha = 1.0 - confidence
    # largest j >= 1 with P(B <= j-1) <= alpha/2 (cdf is increasing)
    j = max(1, int(np.count_nonzero(sps.binom.cdf(np.arange(n), n, 0.5) <= alpha / 2)))
    coverage = 1.0 - 2.0 * float(sps.binom.cdf(j - 1, n, 0.5))
    return MedianCI(med, float(x[j - 1]), float(x[n - j]), n, coverage)


def precision(median: float, low: float, high: float) -> float:
    """Half-width of the CI relative to the median (0.01 = ±1%)."""
    if median <= 0:
        return math.inf
    return (high - low) / 2.0 / median


@dataclass(frozen=True)
class Trend:
    drift: float  # relative change across the series (Theil–Sen slope × span / median)
    p_value: float  # Kendall's tau test of a monotonic trend


def trend(values) -> Trend:
    """Robust trend of a series: Theil–Sen drift and Kendall's tau p-value."""
    y = np.asarray(values, dtype=float)
    n = len(y)
    if n < 3 or np.all(y == y[0]):
        return Trend(0.0, 1.0)
    idx = np.arange(n)
    slope = sps.theilslopes(y, idx).slope
    p = sps.kendalltau(idx, y).pvalue
    med = float(np.median(y))
    drift = float(slope * (n - 1) / med) if med > 0 else 0.0
    return Trend(drift, 1.0 if math.isnan(p) else float(p))


def warmup_end(values, min_kept: int = 10, alpha: float = 0.05, max_drift: float = 0.01):
    """Index of the first batch to keep, or None while the series is still warming up.

    Batches are discarded from the front until the rest shows no *downward* trend that is
    both significant (Kendall p < ``alpha``) and material: a Theil–Sen drift, or a first third
    slower than the last third, beyond ``max_drift`` of the median. JIT compilation, cache and
    frequency warm-up make early batches slow; a series that keeps getting faster is not yet at
    steady state.
    """
    y = np.asarray(values, dtype=float)
    n = len(y)
    if n < min_kept:
        return None
    step = max(1, min_kept // 2)
    for start in range(0, n - min_kept + 1, step):
        window = y[start:]
        t = trend(window)
        third = max(1, len(window) // 3)
        med = float(np.median(window))
        head_tail = (np.median(window[-third:]) - np.median(window[:third])) / med if med else 0
        if t.p_value >= alpha or min(t.drift, head_tail) > -max_drift:
            return start
    return None


def iterations_for(ns_per_op: float, target_batch_ns: float) -> int:
    """Iterations so one batch lasts about ``target_batch_ns`` (at least 1)."""
    if ns_per_op <= 0:
        return 1
    return max(1, int(target_batch_ns / ns_per_op))


@dataclass(frozen=True)
class StopDecision:
    stop: bool
    reason: str  # "precision", "budget", "max_samples" or "" while going on


def should_stop(
    kept: int,
    prec: float,
    elapsed_s: float,
    *,
    target: float,
    budget_s: float,
    min_samples: int,
    max_samples: int = 2000,
) -> StopDecision:
    """The stop rule: enough samples and the precision target, or the budget is spent.

    ``min_samples`` is a floor even past the budget (slow KDFs still get their 10 samples).
    """
    if kept >= max_samples:
        return StopDecision(True, "max_samples")
    if kept < min_samples:
        return StopDecision(False, "")
    if prec <= target:
        return StopDecision(True, "precision")
    if elapsed_s >= budget_s:
        return StopDecision(True, "budget")
    return StopDecision(False, "")


def noise_flags(values, ci: MedianCI, target: float) -> list[str]:
    """Warnings printed next to a number (pyperf style)."""
    flags = []
    if ci.precision > target:
        flags.append(f"precision {ci.precision:.1%} > target {target:.0%}")
    if ci.confidence < CONFIDENCE:
        flags.append(f"only {ci.n} samples: CI coverage {ci.confidence:.0%}")
    y = np.asarray(values, dtype=float)
    q1, q3 = np.percentile(y, [25, 75])
    if ci.median > 0 and (q3 - q1) / ci.median > 0.10:
        flags.append(f"spread: IQR {(q3 - q1) / ci.median:.0%} of median")
    return flags


@dataclass(frozen=True)
class Fit:
    per_call_ns: float  # a: fixed cost of one call
    per_byte_ns: float  # b: marginal cost of one byte

    @property
    def asymptotic_mb_s(self) -> float:
        return 1e3 / self.per_byte_ns if self.per_byte_ns > 0 else math.inf


def fit_overhead(sizes, median_ns) -> Fit | None:
    """Robust fit t(n) = a + b·n over a case's sizes (Theil–Sen: median of pairwise slopes).

    Robust to one disturbed size, unlike least squares. Needs two distinct sizes.
    """
    x = np.asarray(sizes, dtype=float)
    y = np.asarray(median_ns, dtype=float)
    if len(np.unique(x)) < 2:
        return None
    res = sps.theilslopes(y, x)
    return Fit(float(res.intercept), float(res.slope))


def throughput_mb_s(size: int, ns_per_op: float) -> float | None:
    """Throughput in MB/s (10^6 bytes per second)."""
    if size <= 0 or ns_per_op <= 0:
        return None
    return size / ns_per_op * 1e3


def cycles_per_byte(size: int, ns_per_op: float, tsc_hz: float | None) -> float | None:
    """TSC cycles per byte (the TSC ticks at a fixed rate; the core clock may differ)."""
    if not tsc_hz or size <= 0:
        return None
    return ns_per_op * tsc_hz / 1e9 / size


def ratio_ci(a, b, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """Ratio of medians median(a)/median(b) with a distribution-free CI from the two
    median CIs (conservative: low/high and high/low)."""
    ca, cb = median_ci(a, confidence), median_ci(b, confidence)
    return ca.median / cb.median, ca.low / cb.high, ca.high / cb.low

"""The batch loop's decisions (measure/sampling.py): when warm-up ends, how many iterations a
batch gets, when to stop, which results are noisy. Pure: no I/O, no clocks."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import CONFIDENCE, MedianCI, _sps


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
    idx, sps = np.arange(n), _sps()
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


def collection_share(values: list[float]) -> float | None:
    """How far the mean of the later half of a warm-up's batches (ns per call) lies above their
    median: 1.0 where every batch costs the same; more where a minority of batches carry a cost
    the others do not (a garbage collection longer apart than a batch), which a median of such
    batches leaves out (docs/methodology.md, "Batches that hold the collections"). None with
    fewer than 8 batches."""
    later = values[len(values) // 2 :]
    if len(later) < 8:
        return None
    med = float(np.median(later))
    return float(np.mean(later)) / med if med > 0 else None

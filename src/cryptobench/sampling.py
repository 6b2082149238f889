"""Adaptive sampling of one case: calibrate, warm up, sample until precise or out of time.

The decisions are stats.py's; this module only asks the runner for batches
(docs/methodology.md, "How a case is measured").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from . import stats

TARGET_BATCH_NS = 10_000_000  # a batch lasts ~10 ms
CALIBRATION_NS = 1_000_000  # calibrate until one batch takes ≥ 1 ms
SLOW_OP_NS = 10_000_000  # ≥ 10 ms per operation: one operation per batch
CHUNK_NS = 100_000_000  # ask for ~100 ms of batches per request


@dataclass
class Policy:
    precision: float = 0.01  # target CI half-width / median
    budget_s: float = 1.0  # time per case
    min_samples: int = 10
    slow_precision: float = 0.03  # relaxed target for KDFs/password hashes
    base_timeout_s: float = 60.0


@dataclass
class Measurement:
    samples: list[dict]  # kept batches
    warmup: list[dict]  # discarded batches (calibration + warm-up)
    iterations: int
    ci: stats.MedianCI
    target: float
    stop_reason: str
    slow: bool
    elapsed_s: float
    flags: list[str] = field(default_factory=list)

    @property
    def warmup_ns(self) -> int:
        return int(sum(s["ns"] for s in self.warmup))


# bench(iterations, batches, timeout_s) -> samples; raises on failure / wrong output
Bench = Callable[[int, int, float], list[dict]]


def _timeout(policy: Policy, expected_ns: float) -> float:
    """Scales with the expected duration, so a 2-second pure-JS Argon2 is not a hang."""
    return max(policy.base_timeout_s, 10 * expected_ns / 1e9 + 5)


def calibrate(bench: Bench, policy: Policy, first_timeout: float) -> tuple[float, list[dict]]:
    """ns/op from growing single batches; returns (ns_per_op, calibration batches)."""
    iterations, spent = 1, []
    timeout = first_timeout
    while True:
        (s,) = bench(iterations, 1, timeout)
        spent.append(s)
        per_op = max(s["ns"], 1) / iterations
        if s["ns"] >= CALIBRATION_NS or iterations >= 1 << 30:
            if iterations == 1 and len(spent) == 1:
                # one cold call (first use, JIT) must not make a fast op look slow: confirm it
                (again,) = bench(1, 1, _timeout(policy, s["ns"]))
                spent.append(again)
                per_op = max(min(s["ns"], again["ns"]), 1)
                if per_op < CALIBRATION_NS:
                    iterations, timeout = 2, _timeout(policy, per_op * 2)
                    continue
            return per_op, spent
        grow = min(100, max(2, int(2 * CALIBRATION_NS / max(s["ns"], 1))))
        iterations *= grow
        timeout = _timeout(policy, per_op * iterations)


def measure(
    bench: Bench,
    policy: Policy,
    slow_family: bool,
    clock: Callable[[], float] = time.monotonic,
    first_timeout: float | None = None,
) -> Measurement:
    start = clock()
    per_op, warm = calibrate(bench, policy, first_timeout or policy.base_timeout_s)
    slow = slow_family or per_op >= SLOW_OP_NS
    iterations = 1 if slow else stats.iterations_for(per_op, TARGET_BATCH_NS)
    batch_ns = per_op * iterations
    chunk = 1 if slow else max(1, min(50, int(CHUNK_NS / batch_ns)))
    target = policy.slow_precision if slow else policy.precision
    min_samples = policy.min_samples
    values: list[float] = []
    batches: list[dict] = []
    keep_from: int | None = None
    while True:
        got = bench(iterations, chunk, _timeout(policy, batch_ns * chunk))
        batches.extend(got)
        values.extend(s["ns"] / s["iterations"] for s in got)
        keep_from = stats.warmup_end(values, min_kept=min_samples)
        kept = values[keep_from:] if keep_from is not None else []
        prec = stats.median_ci(kept).precision if len(kept) >= 2 else float("inf")
        elapsed = clock() - start
        decision = stats.should_stop(
            len(kept),
            prec,
            elapsed,
            target=target,
            budget_s=policy.budget_s,
            min_samples=min_samples,
        )
        if decision.stop:
            break
        if keep_from is None and elapsed >= 3 * policy.budget_s and len(values) >= 2 * min_samples:
            decision = stats.StopDecision(True, "no steady state")
            break
    flags = []
    if keep_from is None:  # never stopped trending: keep the second half, say so
        keep_from = len(values) // 2
        flags.append("no steady state: still getting faster")
    kept_batches = batches[keep_from:]
    ci = stats.median_ci(stats.per_op(kept_batches))
    flags += stats.noise_flags(stats.per_op(kept_batches), ci, target)
    return Measurement(
        samples=kept_batches,
        warmup=warm + batches[:keep_from],
        iterations=iterations,
        ci=ci,
        target=target,
        stop_reason=decision.reason,
        slow=slow,
        elapsed_s=clock() - start,
        flags=flags,
    )

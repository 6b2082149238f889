"""Adaptive sampling of one case in one round: calibrate, warm up, sample until precise or
out of the round's time.

The decisions are stats.py's; this module only asks the runner for batches
(docs/methodology.md, "How a case is measured"). Rounds are the scheduler's (measure/rounds.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from .. import stats
from ..stats import batches as rules

TARGET_BATCH_NS = 3_000_000  # a batch lasts ~3 ms (docs/methodology.md, "How many rounds")
# … or ~30 ms, where a group's warm-up showed collections further apart than 3 ms batches
# (batch_for; docs/methodology.md, "Batches that hold the collections")
LONG_BATCH_NS = 30_000_000
# A case's time where neither --time-per-case nor its preset says: its 8 rounds at their floor
# of 5 batches of ~3 ms (docs/methodology.md, "How many rounds": 6 ms batches and 0.3 s, or 1 s
# without a preset, measured nothing more precisely in more time)
TIME_PER_CASE_S = 0.12
CALIBRATION_NS = 1_000_000  # calibrate until one batch takes ≥ 1 ms
SLOW_OP_NS = 10_000_000  # ≥ 10 ms per operation: one operation per batch
CHUNK_NS = 100_000_000  # ask for ~100 ms of batches per request
LONG_CALL_NS = 100_000_000  # ≥ 100 ms per call: the slow-operation policy (below)
LONG_CALL_MIN_SAMPLES = 3  # its floor of kept batches in a round
# A password hash's round that skips calibration (its call's duration known) first makes this many
# calls as warm-up, the calls a first round makes before its first kept one: in a fresh process
# the first calls ran slow (2026-11-26 `default`, rounds 2–8, with two: python/argon2-cffi
# 22.8–28.2 ms, then 15.9–21.1 ms; go/x-crypto Argon2id derive 24.7–35.7 ms twice, then
# 15.2–18.8 ms; node/argon2 23–29 ms for four calls, then 16–20 ms; c/libgcrypt three once).
SLOW_WARM_CALLS = 4
# RSA key generation is a random prime search: one call's duration varies several-fold, so a
# round keeps at least this many calls and the result reports the median with p10/p90.
RANDOM_DURATION_CALLS = 50


# A group's warm-up whose later batches average more than this over their median: a minority of
# batches carries collections the others do not, further apart than ~3 ms (docs/methodology.md,
# "Batches that hold the collections": node/crypto AES-128-GCM seal, mean/median 1.3–1.6)
COLLECTIONS = 1.2


def batch_for(share: float | None) -> float:
    """A fast case's batch from its group's warm-up (stats.batches.collection_share): ~30 ms
    where collections are further apart than a ~3 ms batch, so that each batch holds its
    share of them and the median of batches is what a loop of the call costs; ~3 ms else."""
    if share is not None and share > COLLECTIONS:
        return LONG_BATCH_NS
    return TARGET_BATCH_NS


@dataclass
class Policy:
    precision: float = 0.01  # target CI half-width / median
    budget_s: float = TIME_PER_CASE_S  # time per case (in one round: the run's budget / rounds)
    min_samples: int = 10  # kept batches at least (in one round)
    slow_min_samples: int = 10  # the same for operations of ≥ 10 ms
    slow_precision: float = 0.03  # relaxed target for KDFs/password hashes
    base_timeout_s: float = 60.0
    max_warmup_s: float = 3.0  # how long a runtime that is still compiling may warm up
    jit_warmup_s: float = 1.0  # the least warm-up of a case on a runtime that reports JIT
    batch_ns: float = TARGET_BATCH_NS  # a fast case's batch (LONG_BATCH_NS: batch_for)


def slow_target(policy: Policy) -> float:
    """A slow operation's target: its relaxed one, or the run's where that is wider (the 3%
    was relaxed beside a 1% default; beside today's 5% it had become the stricter)."""
    return max(policy.slow_precision, policy.precision)


def for_rounds(policy: Policy, rounds: int) -> Policy:
    """The policy of one of ``rounds`` rounds: the case's budget split over them; the sample
    floors split too (between-round variation, not batches, now sets the interval), but never
    below 5 batches (3 for slow operations) in a round."""
    return replace(
        policy,
        budget_s=policy.budget_s / rounds,
        min_samples=max(5, math.ceil(policy.min_samples / rounds)),
        slow_min_samples=max(3, math.ceil(policy.slow_min_samples / rounds)),
    )


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
    warmup_reason: str = ""

    @property
    def warmup_ns(self) -> int:
        return int(sum(s["ns"] for s in self.warmup))


# bench(iterations, batches, timeout_s) -> samples; raises on failure / wrong output
Bench = Callable[[int, int, float], list[dict]]


def request_timeout(policy: Policy, expected_ns: float) -> float:
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
                (again,) = bench(1, 1, request_timeout(policy, s["ns"]))
                spent.append(again)
                per_op = max(min(s["ns"], again["ns"]), 1)
                if per_op < CALIBRATION_NS:
                    iterations, timeout = 2, request_timeout(policy, per_op * 2)
                    continue
            return per_op, spent
        grow = min(100, max(2, int(2 * CALIBRATION_NS / max(s["ns"], 1))))
        iterations *= grow
        timeout = request_timeout(policy, per_op * iterations)


def measure(
    bench: Bench,
    policy: Policy,
    slow_family: bool,
    clock: Callable[[], float] = time.monotonic,
    first_timeout: float | None = None,
    min_warmup_s: float = 0.0,
    expected_ns: float | None = None,
    min_calls: int = 0,
    known_ns: float | None = None,
    give_up_ns: float | None = None,
) -> Measurement:
    """One round of one case. ``min_warmup_s``: the least warm-up a runtime that reports JIT
    compilation gets (as JMH's warm-up iterations); others are not held to it.
    ``expected_ns``: how long the verified call took, where known (slow-operation policy).
    ``min_calls``: kept batches a round needs at least, whatever the budget (an operation of
    random duration: RSA key generation, slowop.call_floor). ``known_ns``: ns per call an
    earlier round of the case measured: batches are sized from it, with no calibration (a
    JIT runtime's first batches then run long, not many, and are warm-up); a password hash's
    later round takes it as the call's known duration (known_slow: its floor in one request,
    no calibration). ``give_up_ns``: a password hash whose calibrated call is slower than this
    is measured no further (advise's first pass: it cannot be among the top few); the round
    keeps its calibration calls, flagged (ruled_out)."""
    start = clock()
    if slow_family and expected_ns is None:
        expected_ns = known_ns
    if known_ns and not slow_family and not is_long_call(known_ns):
        per_op, warm = known_ns, []  # a later round: the case's first round calibrated it
    else:
        per_op, warm, bench = first_estimate(bench, policy, slow_family, first_timeout, expected_ns)
        if slow_family and give_up_ns and per_op > give_up_ns and len(warm) >= 2:
            return ruled_out(warm, policy, per_op, give_up_ns, clock() - start)
    loop = _Round(bench, policy, slow_family, per_op, warm, min_calls, later=bool(known_ns))
    while True:
        loop.sample(policy.budget_s - (clock() - start), min_warmup_s)
        loop.settle(min_warmup_s)
        elapsed = clock() - start
        decision = loop.decide(elapsed)
        if decision.stop:
            break
        floor = max(3 * policy.budget_s, 2 * min_warmup_s)
        if loop.keep_from is None and _warmup_over(
            policy, loop.batches, elapsed, loop.min_samples, floor
        ):
            decision = rules.StopDecision(True, "no steady state")
            break
    return loop.result(decision, elapsed, clock() - start)


class _Round:
    """The sampling loop of one round (measure): its batches so far, how they are sized, and
    where its warm-up ends."""

    def __init__(self, bench, policy, slow_family, per_op, warm, min_calls, later: bool):
        self.bench, self.policy, self.slow_family = bench, policy, slow_family
        self.per_op, self.warm = per_op, warm
        self.slow = slow_family or per_op >= SLOW_OP_NS
        self.target = slow_target(policy) if self.slow else policy.precision
        self.min_samples = max(sample_floor(policy, self.slow, slow_family, per_op), min_calls)
        self.warm_ns = sum(s["ns"] for s in warm)
        self.values: list[float] = []
        self.batches: list[dict] = []
        self.keep_from: int | None = None
        self.base = 0  # batches before this one were sized for a slower code path: warm-up
        self.lead = (
            None if later and not self.slow else 0
        )  # a later round: its leading slow batches
        self.note = self.why = ""
        self.iterations, self.batch_ns, self.chunk = 1, 0.0, 1

    def sample(self, left_s: float, min_warmup_s: float = 0.0) -> None:
        """One request for batches, (re)sized to ~3 ms at the current speed where due."""
        if self.base == len(self.batches):
            batch = self.policy.batch_ns
            self.iterations = 1 if self.slow else rules.iterations_for(self.per_op, batch)
            self.batch_ns = self.per_op * self.iterations
            self.chunk = batches_per_request(
                self.slow, self.slow_family, self.batch_ns, self.min_samples
            )
        kept = len(self.values) - (self.keep_from or 0)
        ask = _ask(
            self.chunk, self.slow, self.keep_from, kept, self.min_samples, left_s, self.batch_ns
        )
        if self.slow:
            ask = max(ask, self._owed_calls(min_warmup_s))
        got = self.bench(self.iterations, ask, request_timeout(self.policy, self.batch_ns * ask))
        self.batches.extend(got)
        self.values.extend(s["ns"] / s["iterations"] for s in got)
        if self.lead is None:
            self.lead = settled_at(self.values, len(got), self.per_op)
        now_per_op = float(np.median([s["ns"] / s["iterations"] for s in got]))
        if not self.slow and now_per_op < self.per_op / 2:  # compiled: 2× faster than sized for
            n = len(self.batches)
            self.note = f"{self.per_op / now_per_op:.0f}× faster after {n} batches (resized); "
            self.per_op, self.base = now_per_op, n

    def _owed_calls(self, min_warmup_s: float) -> int:
        """A slow operation on a runtime that reports its compilations still owing its least
        warm-up: the calls that cover what is left of it, in one request (at most
        MAX_WARM_CALLS), not one request each — every request also runs an untimed, verified
        call, so asked one at a time, java/bc's Argon2id and bcrypt rounds (32 and 47 ms calls)
        took 2.2–2.7 s each for a 1 s warm-up and 3 kept calls (`default`, 2026-11-28). 0 where
        nothing is owed."""
        done = self.warm + self.batches
        if not min_warmup_s or not _reports_jit(done) or self.batch_ns <= 0:
            return 0
        left = min_warmup_s * 1e9 - sum(b["ns"] for b in done)
        return min(MAX_WARM_CALLS, math.ceil(left / self.batch_ns)) if left > 0 else 0

    def settle(self, min_warmup_s: float) -> None:
        """Where the kept batches start (None: still warming up), and why."""
        start_at = max(self.base, self.lead if self.lead is not None else len(self.values))
        self.keep_from, why = _steady(
            self.batches,
            self.values,
            start_at,
            self.warm_ns,
            min_warmup_s,
            self.min_samples,
            self.slow,
        )
        lead = f"{self.lead} batches slower than round 1's speed; " if self.lead else ""
        if self.lead is None:  # a later round not back at the earlier rounds' speed yet
            why = (
                f"none of its {len(self.values)} batches within {SETTLED:g}× the earlier "
                f"rounds' {self.per_op:.4g} ns per call: this process ran slow"
            )
        self.why = lead + self.note + why

    def decide(self, elapsed: float) -> rules.StopDecision:
        kept = self.values[self.keep_from :] if self.keep_from is not None else []
        prec = stats.median_ci(kept).precision if len(kept) >= 2 else float("inf")
        limits = {"target": self.target, "budget_s": self.policy.budget_s}
        return rules.should_stop(len(kept), prec, elapsed, min_samples=self.min_samples, **limits)

    def result(self, decision: rules.StopDecision, elapsed: float, total_s: float) -> Measurement:
        flags = []
        keep_from, why = self.keep_from, self.why
        if keep_from is None:
            keep_from, why = _never_steady(self.batches, self.slow, elapsed, why)
            flags.append(why)
        kept = self.batches[keep_from:]
        ci = stats.median_ci(stats.per_op(kept))
        flags += rules.noise_flags(stats.per_op(kept), ci, self.target)
        flags += long_call_flags(
            self.policy, self.slow, self.slow_family, self.per_op, self.min_samples, ci
        )
        return Measurement(
            samples=kept,
            warmup=self.warm + self.batches[:keep_from],
            iterations=self.iterations,
            ci=ci,
            target=self.target,
            stop_reason=decision.reason,
            slow=self.slow,
            elapsed_s=total_s,
            flags=flags,
            warmup_reason=why,
        )


RULED_OUT = "ruled out"


def ruled_out(
    calls: list[dict], policy: Policy, per_op: float, give_up_ns: float, elapsed: float
) -> Measurement:
    """A round that stopped after calibration: its calls (the cold one and its confirmation)
    are its samples, and its flag says why nothing more was asked."""
    why = (
        f"{RULED_OUT} after calibration: its call ({per_op / 1e6:.3g} ms) is slower than "
        f"{give_up_ns / 1e6:.3g} ms, the cut of this pass; its {len(calls)} calibration calls "
        "are the round"
    )
    ci = stats.median_ci([s["ns"] / s["iterations"] for s in calls])
    return Measurement(
        samples=list(calls),
        warmup=[],
        iterations=1,
        ci=ci,
        target=slow_target(policy),
        stop_reason=RULED_OUT,
        slow=True,
        elapsed_s=elapsed,
        flags=[why],
    )


MAX_WARM_CALLS = 50  # a slow operation's least JIT warm-up: at most this many calls a request
SETTLED = 1.5  # a later round's batch this close to the earlier rounds' ns/op: warmed up


def settled_at(values: list[float], new: int, known: float) -> int | None:
    """In a later round (batches sized from the first round's ns/op, no calibration), the
    index of the first batch back at that speed: the ones before it ran in a JIT's slower tiers
    or a cold process, and are warm-up (measured: node/noble SHA-256 at 64 B, 6× slower for
    its first batches; the trend rule alone, on 6 batches, kept them). None: not yet. Only the
    leading run counts: a slow batch later (a collection) is part of the cost."""
    for i in range(len(values) - new, len(values)):
        if values[i] <= SETTLED * known:
            return i
    return None


def _never_steady(batches, slow: bool, elapsed: float, why: str) -> tuple[int, str]:
    """Keep what followed the last compilation, or the second half; and say so."""
    keep_from = stats.compiled_until(_jit(batches, not slow))
    if len(batches) - keep_from < 2:
        keep_from = len(batches) // 2
    return keep_from, f"no steady state within {elapsed:.1f} s: {why}"


def _steady(batches, values, base: int, warm_ns: float, min_warmup: float, floor: int, slow):
    """(index of the first kept batch or None, why warm-up ended or goes on): not before the
    batches sized for a slower path (``base``) nor the JIT warm-up a compiling runtime owes."""
    lo = max(base, _after(warm_ns, batches, min_warmup) if _reports_jit(batches) else 0)
    start_at, why = steady_from(batches[lo:], values[lo:], floor, jit=not slow)
    if lo > base and start_at is not None:
        why = f"JIT warm-up of at least {min_warmup:g} s, then {why}"
    return (None if start_at is None else lo + start_at), why


# -- the slow-operation policy (docs/methodology.md, "Slow operations") -------------------------
def is_long_call(ns: float | None) -> bool:
    """One call of ≥ 100 ms: a huge message, or a slow library at a large size."""
    return ns is not None and ns >= LONG_CALL_NS


def first_estimate(
    bench: Bench,
    policy: Policy,
    slow_family: bool,
    first_timeout: float | None,
    expected_ns: float | None,
) -> tuple[float, list[dict], Bench]:
    """(ns/op, calibration batches, the bench to go on with). After a verified call of ≥ 100 ms
    (a message operation's) or a password hash's call of known duration (known_slow), the
    first request asks the floor's one-call batches at once, and they are the round's first
    batches, not calibration, if one call takes ≥ 10 ms; a cold call
    that made a fast operation look long is caught here: its batches are warm-up and calibration
    runs as usual."""
    if not known_slow(slow_family, expected_ns):
        per_op, warm = calibrate(bench, policy, first_timeout or policy.base_timeout_s)
        return per_op, warm, bench
    k = sample_floor(policy, True, slow_family, float(expected_ns))
    lead = SLOW_WARM_CALLS if slow_family else 0
    got = bench(1, lead + k, request_timeout(policy, expected_ns * (lead + k)))
    per_op = float(np.median([s["ns"] for s in got[lead:]]))
    if per_op < SLOW_OP_NS:
        per_op, warm = calibrate(bench, policy, first_timeout or policy.base_timeout_s)
        return per_op, got + warm, bench
    first = [got[lead:]]

    def replay(iterations: int, batches: int, timeout: float) -> list[dict]:
        return first.pop() if first else bench(iterations, batches, timeout)

    return per_op, got[:lead], replay


def known_slow(slow_family: bool, expected_ns: float | None) -> bool:
    """Whether a round may skip calibration and ask its floor at once: a long call of a message
    operation, or a password hash whose call's duration is known (calibrate's probes, its
    verification: measure/case.own_call_ns, or the case's first round)."""
    if slow_family:
        return expected_ns is not None and expected_ns >= SLOW_OP_NS
    return is_long_call(expected_ns)


def call_floor(prim, op: str) -> int:
    """Calls a round keeps at least (0: the usual floors): RSA keygen's duration is random."""
    return RANDOM_DURATION_CALLS if prim.random_duration(op) else 0


def sample_floor(policy: Policy, slow: bool, slow_family: bool, per_op: float) -> int:
    """Kept batches a round needs at least. A long call of a message operation needs only as
    many as fit in the round's budget, but at least 3 ([min, max] of 3 covers the median with
    75%, reported as such); password hashes and KDFs keep their floor: their slowness is the
    figure, and presets budget for it."""
    floor = policy.slow_min_samples if slow else policy.min_samples
    if slow_family or not is_long_call(per_op):
        return floor
    fit = math.ceil(policy.budget_s * 1e9 / per_op)
    return max(LONG_CALL_MIN_SAMPLES, min(floor, fit))


def batches_per_request(slow: bool, slow_family: bool, batch_ns: float, min_samples: int) -> int:
    """~100 ms of batches per request; one at a time for slow operations, except long calls of
    message operations: each request also runs one untimed, verified call and expands the
    generated message, so a long call asks for the whole floor at once."""
    if not slow_family and is_long_call(batch_ns):
        return min_samples
    return 1 if slow else max(1, min(50, int(CHUNK_NS / batch_ns)))


def _ask(chunk: int, slow: bool, keep_from, kept: int, floor: int, left_s: float, batch_ns) -> int:
    """Batches the next request asks for: while the warm-up goes on, a whole chunk (~100 ms);
    once steady (or before the first batch: ``keep_from`` None and nothing yet), what the
    round still needs — its floor of kept batches, else what fits in the budget left — never
    more than a chunk. A round no longer overshoots its share by most of a chunk (measured:
    10 batches of 10 ms for a 60 ms share). Asking only the floor again while warming up was
    tried (2026-11-26): 17 s less of a 356 s `default` run, but fewer kept batches a round and
    wider intervals (cases within ±5%: C 122 → 113 of 131, Node.js 36 → 23 of 84)."""
    if slow or chunk <= 1:
        return chunk
    fit = int(max(left_s, 0) * 1e9 / max(batch_ns, 1))
    need = max(floor - kept, fit, 1) if keep_from is not None or kept == 0 else chunk
    return max(1, min(chunk, need))


def long_call_flags(
    policy: Policy, slow: bool, slow_family: bool, per_op: float, floor: int, ci: stats.MedianCI
) -> list[str]:
    """What the result says when the slow-operation policy lowered the floor: the interval is
    not widened or narrowed, its coverage is said."""
    usual = policy.slow_min_samples if slow else policy.min_samples
    if slow_family or not is_long_call(per_op) or floor >= usual:
        return []
    cover = ""
    if ci.confidence < stats.CONFIDENCE:
        cover = f"; {ci.n} samples: CI coverage {ci.confidence:.0%}"
    return [
        f"slow operation (≥ {LONG_CALL_NS / 1e9:g} s per call): a floor of {floor} samples "
        f"per round, not {usual} (slow-operation policy){cover}"
    ]


def _after(warm_ns: float, batches: list[dict], seconds: float) -> int:
    """Index of the first batch that starts once ``seconds`` of warm-up have run."""
    spent = warm_ns
    for i, b in enumerate(batches):
        if spent >= seconds * 1e9:
            return i
        spent += b["ns"]
    return len(batches)


def _reports_jit(batches: list[dict]) -> bool:
    return any(b.get("compiles") is not None for b in batches)


def _jit(batches: list[dict], jit: bool = True) -> list:
    return [b.get("compiles") if jit else None for b in batches]


def steady_from(batches: list[dict], values: list[float], min_kept: int, jit: bool = True):
    """(index of the first batch to measure, or None; why warm-up ended or goes on).

    Batches that overlapped JIT compilation (``compiles`` > 0, reported by runtimes that can see
    it) are warm-up; after the last of them, the trend rule (:func:`rules.warmup_end`) must
    also pass on at least ``min_kept`` batches. Slow operations (one per batch) ignore
    compilation: a background compile is small beside a 10 ms operation."""
    quiet = stats.compiled_until(_jit(batches, jit))
    start = rules.warmup_end(values[quiet:], min_kept=min_kept)
    if start is None:
        if quiet == len(batches) or quiet > 0 and len(batches) - quiet < min_kept:
            return None, "still compiling"
        return None, "still getting faster"
    if quiet:
        return quiet + start, f"no compilation in the last {len(batches) - quiet} batches"
    return start, "no downward trend"


def _warmup_over(policy: Policy, batches, elapsed: float, min_samples: int, floor: float) -> bool:
    """Give up waiting for a steady state after ``floor`` seconds (3× the budget, or twice the
    JIT's least warm-up), or, while a JIT is visibly still compiling (in the last
    ``min_samples`` batches), after ``max_warmup_s``."""
    if len(batches) < 2 * min_samples or elapsed < floor:
        return False
    compiling = stats.compiled_until(_jit(batches)) > len(batches) - min_samples
    return not compiling or elapsed >= max(policy.max_warmup_s, floor)

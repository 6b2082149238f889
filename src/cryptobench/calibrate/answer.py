"""An implementation's answer in rounds, as `calibrate` measures it (docs/methodology.md,
"calibrate"): round 1 is the search's probe at the chosen value (its calls, verified and timed,
are kept, not thrown away); the other rounds follow once every implementation has its first
answer, each in a fresh process of its own whose first timed call is dropped (a JIT's warm-up
on Java and Node.js; slower elsewhere too) and whose next one is kept: processes differ more
than the calls of one do. Every request's output is the verified one (measure.case.bench_for).

Given how to get a bench and how to start a fresh process, so the tests run it on fakes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .. import stats
from ..measure import sampling
from ..measure.case import Prepared
from ..measure.rounds import round_entry
from ..results import document as results
from .budget import DROP, LATER_CALLS, MIN_PER_ROUND
from .search import Search

SLOW_PRECISION = sampling.Policy().slow_precision
FROM_PROBE = "the search's probe at the chosen value: round 1"
FRESH = f"a fresh process; its first {DROP} timed call dropped (a fresh process's is slower)"
FRESH_JIT = f"a fresh process; its first {DROP} timed call is the JIT's warm-up"
IN_SEARCH = (
    f"the search's process, warm from its probes: {MIN_PER_ROUND} calls kept, none dropped "
    "(the value was chosen unprobed)"
)


def as_round(r: int, calls: list[dict], warm: list[dict], why: str) -> dict:
    """A round entry (measure/rounds.round_entry) from one-call batches."""
    per_op = [c["ns"] / c["iterations"] for c in calls]
    m = sampling.Measurement(
        samples=calls,
        warmup=warm,
        iterations=1,
        ci=stats.median_ci(per_op),
        target=SLOW_PRECISION,
        stop_reason=why,
        slow=True,
        elapsed_s=sum(c["ns"] for c in warm + calls) / 1e9,
        warmup_reason=why if warm else "",
    )
    return round_entry(r, m)


def from_probe(s: Search, value: int) -> dict | None:
    """Round 1 from the chosen value's probe, where it had a round's calls."""
    calls = s.samples.get(value) or []
    if len(calls) < MIN_PER_ROUND:
        return None
    return as_round(1, list(calls), [], FROM_PROBE)


def timeout_s(call_ns: float, calls: int, base_s: float) -> float:
    return max(base_s, 10 * call_ns * (calls + 1) / 1e9 + 5)


def measure(
    bench: sampling.Bench,
    fresh: Callable[[], None],
    first: int,
    n: int,
    call_ns: float,
    why: str,
    base_timeout_s: float = 60.0,
) -> list[dict]:
    """Rounds ``first`` … ``first + n − 1``, each in a fresh process (budget.rounds_s is their
    arithmetic); ``why``: what each round's stop reason says of it (Answer.fresh_why)."""
    out, calls = [], DROP + LATER_CALLS
    for i in range(n):
        fresh()
        got = bench(1, calls, timeout_s(call_ns, calls, base_timeout_s))
        out.append(as_round(first + i, got[DROP:], got[:DROP], why))
    return out


def in_search(bench: sampling.Bench, call_ns: float, base_timeout_s: float = 60.0) -> dict:
    """Round 1 of a value chosen unprobed, in the search's own process: it is warm from the
    probes, so nothing is dropped, and it keeps a probe's MIN_PER_ROUND calls, so its interval
    is their range and not one call's zero width (the plan counts it as the probe at the
    target it stands in for)."""
    got = bench(1, MIN_PER_ROUND, timeout_s(call_ns, MIN_PER_ROUND, base_timeout_s))
    return as_round(1, got, [], IN_SEARCH)


@dataclass
class Answer:
    """One implementation's answer so far: its search, the chosen case, its rounds."""

    seq: int
    search: Search
    prepared: Prepared
    runtime_id: str
    jit: bool
    rounds: list[dict] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def impl(self) -> str:
        return self.search.impl.id

    @property
    def fresh_why(self) -> str:
        """What a round in a fresh process says of its dropped call."""
        return FRESH_JIT if self.jit else FRESH

    def call_ns(self) -> float:
        """The chosen value's call: its rounds' median so far, else its probe."""
        if self.rounds:
            return sorted(r["median_ns"] for r in self.rounds)[len(self.rounds) // 2]
        return float(self.prepared.call_ns or 0.0)

    def row(self, planned: int, tsc_hz) -> dict:
        """The stored row of its rounds so far."""
        p = self.prepared
        if not self.rounds:
            why = "; ".join(f"round {r}: {e}" for r, e in self.errors) or "not measured"
            return results.failed(p.case, why, p.verification)
        ctx = {"tsc_hz": tsc_hz, "errors": self.errors}
        planned = max(planned, len(self.rounds))  # narrowing may add rounds (command._narrow)
        return results.measured(p.case, self.rounds, planned, p.verification, ctx)

    def half_width(self) -> float:
        """Its interval's half-width over its median, as its row states it (results.measured's
        stats.rounds_ci; inf: no rounds)."""
        if not self.rounds:
            return float("inf")
        keys = ("median_ns", "ci_low_ns", "ci_high_ns")
        ci = stats.rounds_ci(*([r[k] for r in self.rounds] for k in keys))
        return (ci.high - ci.low) / 2 / ci.median

"""How `calibrate` spends its time budget (docs/methodology.md, "calibrate"): planned before
anything runs. An implementation is admitted only while its search and its rounds both fit in
what is left of the budget beside the rounds already reserved for the ones admitted before it
(``Plan``): a search never eats the rounds' share. The searches run first, each in its own
runner process, in an order that takes every runtime once before any twice (``interleave``), so
the answers spread over the runtimes; then the rounds of the admitted implementations, each
planned by the one estimate of `run`, `calibrate` and `advise` (measure/rounds.estimate) at the
call's duration the search found. An implementation that is not admitted is not started: the
run says which got no answer and how long it would need.

Pure arithmetic on fixed inputs, so the tests check it without a runner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..measure.rounds import PROBE_S, START_S, estimate
from ..plan.cases import Case
from .search import FIRST_PROBE_CALLS, PROBE_CALLS, TOLERANCE, VERIFY_CALLS, probe_s

__all__ = ["VERIFY_CALLS", "probe_s"]

PLANNED_NEAR = 2  # probes at the target a search plans for: the law's value, one refinement
FIRST_SHARE = 0.25  # the first probe's call (the policy's start) as a share of the target: a prior
MIN_PER_ROUND = 3  # one-call batches a round keeps at least (sampling.for_rounds' floor)
MARGIN = 0.05  # of the budget, kept for what no estimate covers (opening the run, the table)


def search_s(target_s: float, start_s: float) -> float:
    """What one implementation's search may take: a process start, the first probe at the
    policy's start (FIRST_PROBE_CALLS timed calls of FIRST_SHARE of the target), then
    PLANNED_NEAR probes at the target with PROBE_CALLS each, every one with its verification.
    Also the search's share: it stops before a probe that would not fit (search.Searcher)."""
    first = probe_s(target_s * FIRST_SHARE, FIRST_PROBE_CALLS)
    return start_s + first + PLANNED_NEAR * probe_s(target_s, PROBE_CALLS)


def slow_floor(rounds: int) -> int:
    """The policy's slow_min_samples that gives each round MIN_PER_ROUND batches."""
    return MIN_PER_ROUND * rounds


def rounds_s(case: Case, call_s: float, rounds: int, starts: dict[str, float]) -> float:
    """What the rounds of one implementation's chosen case should take (rounds.estimate, the
    call's duration known from the search, a budget share no longer than the floor)."""
    calls = {case.key: call_s}
    budget = MIN_PER_ROUND * call_s * rounds
    floor = slow_floor(rounds)
    return estimate([case], budget, rounds, set(), starts, rounds, set(), calls, floor)


@dataclass
class Unanswered:
    impl: str
    need_s: float
    what: str  # "search" or "rounds"

    def text(self) -> str:
        return (
            f"no answer within the time budget: its {self.what} would need about "
            f"{self.need_s:.1f} s more (--time-budget)"
        )


@dataclass
class Plan:
    """The budget shared out as the searches start: each admitted implementation's rounds are
    reserved (at the target's edge, +TOLERANCE) until they run, so later searches cannot take
    them."""

    budget_s: float
    target_s: float
    rounds: int
    starts: dict[str, float]
    reserved: dict[str, float] = field(default_factory=dict)  # impl → its rounds' seconds

    def need(self, case: Case) -> tuple[float, float]:
        """(its search, its rounds) in seconds, before anything of it has run; the rounds'
        drift probes, once a round for all, are the plan's own (``admit``)."""
        start = start_of(self.starts, case.impl.runtime_id)
        call_s = self.target_s * (1 + TOLERANCE)
        rounds = rounds_s(case, call_s, self.rounds, self.starts) - self.rounds * PROBE_S
        return search_s(self.target_s, start), rounds

    def admit(self, case: Case, left_s: float) -> float | Unanswered:
        """The search's share in seconds, its rounds reserved; or, where search and rounds do
        not both fit beside what is reserved, what it would need."""
        search, rounds = self.need(case)
        kept = MARGIN * self.budget_s + self.rounds * PROBE_S
        free = left_s - sum(self.reserved.values()) - kept
        if search + rounds > free:
            return Unanswered(case.impl.id, search + rounds, "search and rounds")
        self.reserved[case.impl.id] = rounds
        return search

    def total_s(self, cases: list[Case]) -> float:
        """What searching and measuring all of ``cases`` should take (the plan's estimate)."""
        return sum(sum(self.need(c)) for c in cases) + self.rounds * PROBE_S


def interleave(items: list, runtime_of) -> list:
    """Every runtime's first item, then every runtime's second, … (runtimes in order of first
    appearance), so that a budget that cannot answer every implementation answers for as many
    runtimes as it can; a runtime variant's items (java@25, rust@native: the same libraries
    again) come after all the others, interleaved alike."""
    queues: dict[str, list] = {}
    for item in items:
        queues.setdefault(runtime_of(item), []).append(item)
    out: list = []
    for variants in (False, True):
        mine = [q for rid, q in queues.items() if ("@" in rid) == variants]
        while any(mine):
            out += [q.pop(0) for q in mine if q]
    return out


def fit(needs: list[tuple[str, float]], left_s: float) -> tuple[list[str], list[Unanswered]]:
    """The implementations whose rounds fit in ``left_s``, in order (one that does not fit is
    passed over, a later cheaper one may still fit), and the rest with what they need."""
    taken, rest = [], []
    for impl, need in needs:
        if need <= left_s:
            taken.append(impl)
            left_s -= need
        else:
            rest.append(Unanswered(impl, need, "rounds"))
    return taken, rest


def start_of(starts: dict[str, float], runtime_id: str) -> float:
    return starts.get(runtime_id, START_S)

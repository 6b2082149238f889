"""How `calibrate` spends its time budget (docs/methodology.md, "calibrate"): every
implementation's search first, each in its own runner process, so every one has an answer (its
nearest probe) before any is measured in rounds; then the rounds of as many implementations as
fit in what is left, in the same order, each planned by the one estimate of `run`, `calibrate`
and `advise` (measure/rounds.estimate) at the call's duration the search found. An
implementation whose search or rounds do not fit is not started: the run says which got no
answer and how long it would need.

Pure arithmetic on fixed inputs, so the tests check it without a runner.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..measure.rounds import START_S, estimate
from ..plan.cases import Case
from .search import FIRST_PROBE_CALLS, PROBE_CALLS

PLANNED_PROBES = 3  # a search's usual probes: the start, the law's value, one refinement
VERIFY_CALLS = 2  # a probe's verification: another implementation's hash, its own verify
MIN_PER_ROUND = 3  # one-call batches a round keeps at least (sampling.for_rounds' floor)


def probe_s(call_s: float, calls: int) -> float:
    """A probe: its verification, the request's untimed call and its timed calls."""
    return (VERIFY_CALLS + 1 + calls) * call_s


def search_s(target_s: float, start_s: float) -> float:
    """What one implementation's search should take: a process start, then PLANNED_PROBES
    probes, the first (at the policy's start, FIRST_PROBE_CALLS timed calls) at most the
    target's time, the others at the target with PROBE_CALLS each."""
    near = probe_s(target_s, PROBE_CALLS) * (PLANNED_PROBES - 1)
    return start_s + probe_s(target_s, FIRST_PROBE_CALLS) + near


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

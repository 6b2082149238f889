"""How `calibrate` spends its time budget (docs/methodology.md, "calibrate"): the plan's own
arithmetic, the one the estimate printed before anything is timed comes from.

Every implementation first gets an answer: a process start, a short probe (the policy's start,
``short_call_s``) and the probe at the value the scaling law predicts, whose calls are round 1
(``first_s``; where the search begins at an earlier answer here, earlier.py, the process start
and that one probe). Only then do the answered implementations get their other rounds,
cheapest first, while the budget lasts (``rounds_s``): each round a fresh process whose first
timed call is dropped (DROP: warm-up on Java and Node.js, and slower elsewhere too) and whose
next is kept (LATER_CALLS), so that the rounds see as many processes as they are. An implementation
that does not fit is not started, or keeps its first round: the run says which and what it
would need. ``interleave`` orders the first answers so a budget that cannot answer every
implementation answers for as many runtimes as it can.

Pure arithmetic on fixed inputs, so the tests check it without a runner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..measure.rounds import PROBE_S, START_S
from .search import FIRST_PROBE_CALLS, FIXED_PASSES, PROBE_CALLS, VERIFY_CALLS, probe_s

__all__ = ["VERIFY_CALLS", "probe_s"]

# The short probe's call (the policy's start), a prior before anything of the implementation
# ran: Argon2 about 2/3 ms per MiB of m and pass (t=1 at 64 MiB: about a quarter of 250 ms),
# the other starts (bcrypt cost 6, PBKDF2 10 000 iterations, scrypt N=2^10) a few ms; never
# more than the target.
ARGON2_S_PER_MIB_PASS = 0.00067
SMALL_START_S = 0.005
MIN_PER_ROUND = PROBE_CALLS  # a probe's calls are round 1 where it has this many
LATER_CALLS = 1  # … and each later round keeps this many, in a fresh process of its own
# a later round's first timed call, in its fresh process, is dropped: on a JIT it is warm-up,
# and elsewhere it was slower too (2026-12-04, go/x-crypto Argon2id t=7, m=64 MiB, 4 fresh
# processes: 299 / 301 / 274 / 292 ms, the next calls 242–272 ms); over every implementation
# (2026-12-07, 7 fresh processes each) the dropped call over the kept one read 1.59 on Go, 1.16
# on java/bc and 1.04–1.07 on libsodium, Botan, RustCrypto and noble: docs/methodology.md
DROP = 1
MARGIN = 0.05  # of the budget, kept for what no estimate covers (opening the run, the table)
DRIFT_PROBES = 2  # the drift probe: before the first answers, before the other rounds
NARROW = 0.05  # a row whose interval is wider than ±5% may get more rounds while budget is left
# The searches that take a neighbour probe after their two (search.refine): a linear law
# (Argon2's t) is off by more than ±15% often, a doubling one (bcrypt's cost, scrypt's N) not.
# Counted where the plan fits the later rounds, never in a search's own share (its first
# answer is not held back for them). Measured: Argon2id at 250 ms, 11 of 16 searches
# (2026-12-07 23:41, a busy VM; 9 of 16 on 2026-11-29), and the plan had said "all 4 rounds
# for up to 7" where none got them; bcrypt 0 of 12 that day (5 of 12 on 2026-11-29, before
# its law was trusted: search.farther).
REFINE_SHARE = {"linear": 0.6}
MAX_ROUNDS = 8  # … up to this many (measure/rounds.ROUNDS, a `run`'s rounds)


def short_call_s(spec, params: dict, target_s: float) -> float:
    """The short probe's call by the prior above (``spec``: the policy's search)."""
    if spec.memory_param:
        passes = spec.start + FIXED_PASSES  # Argon2: t passes and the fixed cost
        guess = params[spec.memory_param] / 1024 * ARGON2_S_PER_MIB_PASS * passes
    else:
        guess = SMALL_START_S
    return min(target_s, guess)


def first_s(target_s: float, start_s: float, short_s: float, verify: int = VERIFY_CALLS) -> float:
    """An implementation's first answer: a process start, the short probe (FIRST_PROBE_CALLS
    calls of ``short_s``) and the probe at the target, whose PROBE_CALLS calls are round 1;
    each probe with its verification (``verify`` calls) and the request's untimed call."""
    short = probe_s(short_s, FIRST_PROBE_CALLS, verify)
    return start_s + short + probe_s(target_s, PROBE_CALLS, verify)


def rounds_s(n: int, call_s: float, start_s: float) -> float:
    """``n`` rounds at a call of ``call_s``, each a fresh process and one request: its untimed
    call, DROP dropped and LATER_CALLS kept."""
    if n <= 0:
        return 0.0
    return n * (start_s + (1 + DROP + LATER_CALLS) * call_s)


@dataclass
class Unanswered:
    impl: str
    need_s: float
    what: str  # "search and first round", "rounds 2–3", "second look"

    def text(self) -> str:
        if self.what == "second look":
            return (
                f"no second look within the time budget: its rounds would need about "
                f"{self.need_s:.1f} s more (--time-budget)"
            )
        if self.what.startswith("round"):
            return (
                f"1 round, not more: the time budget ran out; its {self.what} would need "
                f"about {self.need_s:.1f} s more (--time-budget)"
            )
        return (
            f"no answer within the time budget: its {self.what} would need about "
            f"{self.need_s:.1f} s more (--time-budget)"
        )


@dataclass
class Schedule:
    """What the plan expects to run: first answers, then the other rounds."""

    first: list[str] = field(default_factory=list)  # implementations answered, in order
    refined: list[str] = field(default_factory=list)  # … that also get their other rounds
    unanswered: list[Unanswered] = field(default_factory=list)
    seconds: float = 0.0  # first answers, other rounds and drift probes; narrowing in its own
    narrowing: float = 0.0  # more rounds for rows wider than ±NARROW, at most what is left

    def text(self, n: int, rounds: int) -> str:
        more = (
            f", then up to {self.narrowing:.0f} s of more rounds for rows wider than "
            f"±{100 * NARROW:.0f}%"
            if self.narrowing >= 1
            else ""
        )
        # "up to": the plan counts two probes a search and the neighbour probes REFINE_SHARE
        # expects; a search that takes more spends the time of some other's later rounds
        return (
            f"plan: a first answer for {len(self.first)} of {n} implementations, all "
            f"{rounds} rounds for up to {len(self.refined)}: about {self.seconds:.0f} s{more}"
        )


@dataclass
class Plan:
    budget_s: float
    target_s: float
    rounds: int
    starts: dict[str, float]  # runtime id → its measured process start
    short_s: float | None = None  # the short probe's call (short_call_s); None: a quarter of T
    # a probe's verification calls: none where every known answer came from the cache (an
    # earlier calibrate with nothing changed: its probes' cases are most likely cached too)
    verify: int = VERIFY_CALLS
    # implementations whose search begins at an earlier answer here (earlier.py): one probe,
    # near the target, is their first answer
    warm: set[str] = field(default_factory=set)
    scale: str = ""  # the search's law (policy.toml): REFINE_SHARE's neighbour probes

    def refine_s(self, impls: list[str]) -> float:
        """The neighbour probes the searches of ``impls`` are expected to take (REFINE_SHARE),
        at the target; none for a search that begins at an earlier answer."""
        probe = probe_s(self.target_s, PROBE_CALLS, self.verify)
        cold = sum(i not in self.warm for i in impls)
        return REFINE_SHARE.get(self.scale, 0.0) * probe * cold

    def kept_s(self) -> float:
        """What no implementation may take: the margin and the drift probes."""
        return MARGIN * self.budget_s + DRIFT_PROBES * PROBE_S

    def first(self, rid: str, impl: str | None = None) -> float:
        """An implementation's first answer (first_s); where its search begins at an earlier
        answer (``warm``), a process start and the one probe at the target."""
        if impl in self.warm:
            return start_of(self.starts, rid) + probe_s(self.target_s, PROBE_CALLS, self.verify)
        short = self.target_s / 4 if self.short_s is None else self.short_s
        return first_s(self.target_s, start_of(self.starts, rid), short, self.verify)

    def later(self, rid: str, call_s: float) -> float:
        """Rounds 2…R of an answered implementation."""
        return rounds_s(self.rounds - 1, call_s, start_of(self.starts, rid))

    def one_more(self, rid: str, call_s: float) -> float:
        """One more round of an answered implementation (narrowing its interval)."""
        return rounds_s(1, call_s, start_of(self.starts, rid))

    def again(self, rid: str, call_s: float) -> float:
        """All R rounds of another value (the second look)."""
        return rounds_s(self.rounds, call_s, start_of(self.starts, rid))

    def schedule(self, items: list[tuple[str, str]], left_s: float) -> Schedule:
        """(impl, runtime id) in the order of the first answers: what fits in ``left_s``, by
        the arithmetic the run follows, every call at the target."""
        out, free = Schedule(), left_s - self.kept_s()
        for impl, rid in items:
            need = self.first(rid, impl)
            if need > free:
                out.unanswered.append(Unanswered(impl, need, "search and first round"))
                continue
            out.first.append(impl)
            free -= need
        refine = min(free, self.refine_s(out.first))
        free -= refine
        rid_of = dict(items)
        needs = [(i, self.later(rid_of[i], self.target_s)) for i in out.first]
        taken, rest = fit(sorted(needs, key=lambda x: x[1]), free, later_what(self.rounds))
        out.refined, out.unanswered = taken, out.unanswered + rest
        out.seconds = sum(self.first(rid_of[i], i) for i in out.first) + refine
        out.seconds += sum(dict(needs)[i] for i in taken) + DRIFT_PROBES * PROBE_S
        more = (MAX_ROUNDS - self.rounds) * sum(
            self.one_more(rid_of[i], self.target_s) for i in taken
        )
        out.narrowing = max(0.0, min(more, left_s - self.kept_s() - out.seconds))
        return out


def later_what(rounds: int) -> str:
    return f"rounds 2–{rounds}" if rounds > 2 else "round 2"


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


def fit(
    needs: list[tuple[str, float]], left_s: float, what: str = "rounds"
) -> tuple[list[str], list[Unanswered]]:
    """The implementations whose ``what`` fit in ``left_s``, in order (one that does not fit
    is passed over, a later cheaper one may still fit), and the rest with what they need."""
    taken, rest = [], []
    for impl, need in needs:
        if need <= left_s:
            taken.append(impl)
            left_s -= need
        else:
            rest.append(Unanswered(impl, need, what))
    return taken, rest


def start_of(starts: dict[str, float], runtime_id: str) -> float:
    return starts.get(runtime_id, START_S)

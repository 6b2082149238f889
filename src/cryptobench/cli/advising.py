"""`advise` when the store lacks cases: measure only what can change the answer
(advise/passes.py), in two passes planned by the one estimate (measure/rounds.estimate) within
`--budget`, saying the plan and its estimate first."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..measure.sampling import TIME_PER_CASE_S, Policy
from ..paths import default_db
from ..results import document as results
from .common import err

SLOW_FLOOR = Policy.slow_min_samples  # a password hash's kept calls: the policy's


@dataclass
class Here:
    """What the runtimes found here say about the plan: their implementations, each
    runtime's start, which report their compilations (JIT: fewer rounds) and each one's
    group warm-up (runner.toml warm_up_s)."""

    implementations: list[dict] = field(default_factory=list)
    compiling: set[str] = field(default_factory=set)
    warmups: dict[str, float] = field(default_factory=dict)
    fingerprints: object = None  # verify.cache.Fingerprints of these runtimes (None: unknown)
    opened: object = None  # runtimes.session.Opened: the passes' runtimes, started once

    @property
    def starts(self) -> dict[str, float]:
        """Each runtime's group start, as ``opened`` timed it ({} when nothing was opened)."""
        return self.opened.starts if self.opened is not None else {}

    def stop(self) -> None:
        """Every runtime of ``opened`` stopped (a pass stops them too, as its run ends)."""
        for rt in self.opened.live if self.opened is not None else []:
            rt.stop()

    def verified_calls(self, cases: list) -> dict:
        """{case key: seconds a call took when it was verified}, for the cases the cache of
        verified answers holds unchanged (measure/verified.py keeps each one's call): a call
        measured here, where the estimate would otherwise take its family's prior."""
        if self.fingerprints is None:
            return {}
        from ..measure.verified import case_key
        from ..verify.cache import Cache

        cache, out = Cache(), {}
        for c in cases:
            kept = cache.get(case_key(self.fingerprints, c))
            if kept and kept.get("call_ns"):
                out[c.key] = kept["call_ns"] / 1e9
        return out


def here(runtimes) -> Here:
    """The runtimes found here, started once for the plan and every pass (Here.stop ends
    them; group_starts leaves each stopped, and a pass's first request starts it again)."""
    from ..runtimes.session import Opened, group_starts, open_runtimes
    from ..verify.cache import Fingerprints

    live, skipped = open_runtimes(list(runtimes), [])
    try:
        starts = group_starts(live)
    except BaseException:
        for rt in live:
            rt.stop()
        raise
    return Here(
        results.implementation_dicts(live),
        {rt.id for rt in live if rt.spec.compiles},
        {rt.id: rt.spec.warm_up_s for rt in live},
        Fingerprints.of(live),
        Opened(live, skipped, starts),
    )


@dataclass
class Plan:
    """The two passes of one `advise` and their estimates."""

    keys: list[tuple]
    rounds: int
    budget_s: float
    here: Here
    known: dict = field(default_factory=dict)  # slow families' call seconds (passes.call_seconds)
    measured: dict = field(default_factory=dict)  # a case's call seconds, by the first pass
    # the rounds' time over the plan's arithmetic: the last run's here (pace_here) for the
    # first pass, the first pass's own (pass_pace) for the full rounds
    pace: float = 1.0

    def seconds(
        self, cat, keys: list[tuple], per_case: float, rounds: int, slow_floor: int = SLOW_FLOOR
    ) -> float:
        """What measuring ``keys`` should take (``estimate``'s seconds)."""
        return self.estimate(cat, keys, per_case, rounds, slow_floor)[0]

    def estimate(
        self, cat, keys: list[tuple], per_case: float, rounds: int, slow_floor: int = SLOW_FLOOR
    ) -> tuple[float, int]:
        """(seconds, guessed): rounds.estimate over the cases the run will measure, the keys'
        and each runtime's noop beside fast cases (measure/case.py), ``slow_floor`` a password
        hash's kept calls, at the plan's ``pace``; ``guessed``, how many slow cases' calls
        nothing here knew (the family's as stored, the case's own as its verification timed
        it or the first pass measured it), each taken at the family's prior
        (rounds.SLOW_CALL_S)."""
        from ..advise.passes import cases_of
        from ..measure.case import noop_cases
        from ..measure.rounds import estimate

        doc = {"run": {"implementations": self.here.implementations}}
        cases = cases_of(doc, keys, cat)
        cases += noop_cases(cases)
        calls = {c.key: self.known.get((c.prim.id, c.operation)) for c in cases}
        calls = {k: v for k, v in calls.items() if v is not None}
        calls.update(self.here.verified_calls(cases))  # a call verified here: the case's own
        calls.update({c.key: self.measured[c.key] for c in cases if c.key in self.measured})
        guessed = sum(c.prim.is_slow and c.key not in calls for c in cases)
        seconds = estimate(
            cases,
            per_case,
            rounds,
            self.here.compiling,
            self.here.starts,
            rounds,
            self.here.warmups,
            calls,
            slow_floor,
        )
        return seconds * self.pace, guessed

    def measured_calls(self, keys: list[tuple]) -> dict:
        """The calls of ``keys`` the first pass measured, for the run of a pass
        (RunRequest.calls): above the one call its verification times, as in this estimate,
        so the run says the full rounds' estimate said here ("about 2 s" had been "about 4 s"
        in the run's line, 2026-12-04); a family's stored median stays below it."""
        return {k: self.measured[k] for k in keys if k in self.measured}

    def first_pass(self) -> bool:
        """A first pass only where it can rule cases out: more than the top few."""
        from ..advise.passes import KEEP

        return len({k[:2] for k in self.keys}) > KEEP


def _requests(
    keys: list[tuple],
    opts: dict,
    per_case: float,
    rounds: int,
    slow_floor: int,
    opened=None,
    calls: dict | None = None,
    cut=None,
    pace: float | None = None,
) -> list:
    """RunRequests that measure exactly ``keys`` (one per fresh_context value), on the
    runtimes ``opened`` (session.Opened) where given, ``calls`` the calls' seconds the first
    pass measured (Plan.measured_calls), ``cut`` the first pass's (measure/rounds.Cut),
    ``pace`` the estimate's (Plan.pace: the run says what advise said)."""
    from ..plan import cases as plan
    from ..run import pipeline

    groups: dict = {}
    for key in keys:
        groups.setdefault(json.loads(key[4]).get("fresh_context"), []).append(key)
    reqs = []
    for fresh, ks in groups.items():
        filters = plan.Filters(
            impls=sorted({k[0] for k in ks}),
            primitives=sorted({k[1] for k in ks}),
            operations=sorted({k[2] for k in ks}),
            sizes=sorted({k[3] for k in ks}),
            params={} if fresh is None else {"fresh_context": fresh},
        )
        reqs.append(
            pipeline.RunRequest(
                command=opts["command"],
                db=Path(opts["db"]) if opts["db"] else default_db(),
                filters=filters,
                only=set(ks),
                time_per_case=per_case,
                rounds=rounds,
                jit_rounds=rounds,
                seed=random.SystemRandom().randrange(1 << 31),
                slow_floor=slow_floor,
                opened=opened,
                calls=calls,
                cut=cut,
                pace=pace,
            )
        )
    return reqs


def measure(
    keys: list[tuple],
    opts: dict,
    per_case: float,
    rounds: int,
    slow_floor: int = SLOW_FLOOR,
    opened=None,
    calls: dict | None = None,
    cut=None,
    pace: float | None = None,
) -> list[dict]:
    """Measure exactly ``keys``: ``per_case`` seconds in ``rounds`` rounds (Plan.seconds's
    order), ``slow_floor`` calls kept of a password hash, on ``opened``'s runtimes, the run's
    estimate from ``calls`` (Plan.measured_calls) at ``pace`` (Plan.pace); ``cut``
    (measure/rounds.Cut): a password hash that cannot be among the top few is measured no
    further."""
    from ..run import pipeline

    docs = []
    for req in _requests(keys, opts, per_case, rounds, slow_floor, opened, calls, cut, pace):
        done = pipeline.run(req, err.get())
        docs.append(results.document(done.run, done.results))
    return docs


def first_pass(plan: Plan, cat, rank, opts: dict) -> tuple[list[dict], list[tuple]]:
    """One short round of every key (a password hash that cannot win stops after its
    calibration, passes.CUT_RATIO): its documents, and the keys of the top few it ranks
    (advise/passes.contenders); what it measured of each call goes to the plan."""
    from ..advise import passes
    from ..measure.rounds import Cut

    keys, first_s, first_rounds = plan.keys, passes.FIRST_PASS_S, passes.FIRST_PASS_ROUNDS
    first, unknown = plan.estimate(cat, keys, first_s, first_rounds, passes.FIRST_PASS_SLOW_FLOOR)
    paced = f", at the last run's pace here ({plan.pace:.2f}× the plan's)" if plan.pace != 1 else ""
    err.print(
        f"first pass: {len(keys)} cases × 1 short round, about {first:.0f} s of measuring "
        f"(budget {plan.budget_s:.0f} s{paced}{guessed(unknown)}), after verifying what the "
        "cache lacks",
        markup=False,
    )
    docs = measure(
        keys,
        opts,
        first_s,
        first_rounds,
        passes.FIRST_PASS_SLOW_FLOOR,
        plan.here.opened,
        plan.measured_calls(keys),
        Cut(passes.KEEP, passes.CUT_RATIO),
        plan.pace,
    )
    rows = [r for d in docs for r in d["results"]]
    plan.known |= passes.call_seconds(rows, cat)
    plan.measured |= passes.case_seconds(rows, cat)
    plan.pace = pass_pace(docs)
    measured = {results_key(r) for r in rows if r["status"] == "ok"}
    return docs, passes.contenders([e.row for e in rank(docs).ranking], measured)


def two_passes(plan: Plan, cat, rank, opts: dict) -> list[dict]:
    """A first pass of one short round of every key, then the full rounds of the top few
    (advise/passes.contenders) where they fit in what is left of the budget."""
    from ..advise import passes

    t0, per_case = time.monotonic(), opts["time_per_case"] or TIME_PER_CASE_S
    docs, keys = first_pass(plan, cat, rank, opts) if plan.first_pass() else ([], plan.keys)
    if not keys:
        return docs
    full = plan.seconds(cat, keys, per_case, plan.rounds)
    left = plan.budget_s - (time.monotonic() - t0)
    if docs and full > left:
        err.print(
            f"full rounds of the top {passes.KEEP} would take about {full:.0f} s, more than the "
            f"{max(left, 0):.0f} s left of --budget: ranked from the first pass (one round)",
            markup=False,
        )
        return docs
    paced = f", at the first pass's pace ({plan.pace:.2f}× the plan's)" if plan.pace != 1 else ""
    err.print(
        f"full rounds for {len(keys)} cases × {plan.rounds} rounds, about {full:.0f} s{paced}",
        markup=False,
    )
    calls, opened = plan.measured_calls(keys), plan.here.opened
    return docs + measure(
        keys, opts, per_case, plan.rounds, opened=opened, calls=calls, pace=plan.pace
    )


def pace_here(store, newest: int = 20) -> float:
    """The pace of the newest complete run on this machine that stored one (its
    run.measuring, rounds.pace_seen), as a run's estimate takes the last run's here; 1.0
    where none of the ``newest`` did (an empty store: the plan's arithmetic alone)."""
    from ..measure.rounds import pace_seen
    from ..results.identity import machine_id

    for run in store.complete_runs(machine_id()[0], newest):
        if (run.get("measuring") or {}).get("as_taken_s"):
            return pace_seen(run["measuring"])
    return 1.0


def pass_pace(docs: list[dict]) -> float:
    """How much longer than the plan's arithmetic the first pass's rounds took here, all its
    runs together (each one's run.measuring: ``took_s`` over ``as_taken_s``, rounds.pace_seen):
    what the full rounds' estimate is multiplied by, as a run's is by the last run's here. The
    machine's per-round cost the constants do not know (a busy VM: a first pass of 15–16 s
    for "about 11 s", 2026-12-07) is then counted in the second line too."""
    from ..measure.rounds import pace_seen

    return pace_seen(*(d["run"].get("measuring") for d in docs))


def guessed(n: int) -> str:
    """What an estimate took on trust, for the plan's line ("" when nothing): ``n`` slow
    cases' calls at the family's prior; a slower library than that (node/noble's Argon2id,
    ~10x) makes the pass longer."""
    from ..measure.rounds import SLOW_CALL_S

    if not n:
        return ""
    return (
        f"; {n} of its calls not known here, each taken at {1000 * SLOW_CALL_S:.0f} ms: a "
        "slower library makes the pass longer"
    )


def results_key(r: dict) -> tuple:
    from ..results.compare import case_key

    return case_key(r)

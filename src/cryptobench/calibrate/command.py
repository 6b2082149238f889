"""`cryptobench calibrate`: the cost parameters that make one password hash take a target time
on this machine, per implementation, as `cryptsetup benchmark` does for LUKS
(docs/methodology.md, "calibrate").

The known answers the probes need are checked first, in parallel, nothing timed (verified.py).
Then every implementation gets a first answer: its search (search.py), each probe verified like
any case, whose probe at the chosen value is round 1 (answer.py); only then the other rounds,
cheapest first, while the budget lasts (budget.py: the plan and its estimate); where a
re-measured time is more than ±15% off and another value is expected nearer, it is measured in
rounds too and the nearer kept (remeasure.py); the verdict (verdict.py) says what the
parameters buy and how near the target they came. Stored as a run with operation ``calibrate``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rich.console import Console

from .. import stats
from ..catalog import policy as policy_mod
from ..catalog import primitives as catalog
from ..errors import UsageError
from ..measure import probe
from ..measure.case import Prepared, bench_for, round_error, serves
from ..plan.cases import PASSWORD_SIZES, Case
from ..results import document as results
from ..results import probe as probe_words
from ..run.lifecycle import Lifecycle, document, earlier_runs, fastest_probe, stopping
from ..runtimes.discovery import runtime_matches
from ..runtimes.protocol import RemoteError, RunnerFailure
from ..runtimes.session import Runtime, open_runtimes
from ..store.sqlite import RunStore
from ..verify import vectors
from ..verify.verifier import Verifier, VerifyError, check_encoded_cost
from . import answer, budget, earlier
from .answer import Answer, from_probe
from .remeasure import Remeasure
from .search import (
    OF_EVERY,
    OF_OTHERS,
    OPERATIONS,
    PROBE_CALLS,
    REFINE_PROBES,
    REFUSED,
    TOLERANCE,
    Refused,
    Search,
    Searcher,
    operation_for,
    probe_s,
)
from .verdict import KEYSPACE, KEYSPACE_TEXT, Verdict, search_info
from .verified import Verified

PASSWORD_LEN = PASSWORD_SIZES[0]


@dataclass
class Request:
    algorithm: str
    target_s: float
    command: str
    db: Path
    memory_kib: int | None = None
    runtimes: list[str] = field(default_factory=list)
    impls: list[str] = field(default_factory=list)
    time_budget_s: float = 60.0
    rounds: int = 4
    seed: int = 0
    timeout: float = 60.0
    reverify: bool = False  # ignore the cache of verified answers (and rewrite it)
    # time.monotonic() when the command started (the CLI's first step): the budget is the whole
    # call's, its imports and runner handshakes included (measured 2026-12-01: 1.2 s of imports
    # and 1.8 s opening 11 runtimes before the run's clock, so a "57.2 s" call took 61.0 s)
    started: float | None = None


def how(p: dict) -> str:
    """What a probe's time is (search.Searcher.probe), as its line says it."""
    if p["by"] == "fastest":
        low, high = p["spread"]
        return f"fastest of {p['calls']} calls, {low / 1e6:.1f}–{high / 1e6:.1f} ms: they disagree"
    return f"median of {p['calls']} calls"


class Calibration:
    """One `calibrate` invocation: searches, then rounds, stored as one run."""

    def __init__(self, req: Request, console: Console):
        self.req, self.console = req, console
        self.cat = catalog.load()
        self.policy = policy_mod.load(self.cat)
        self.prim = self.cat.get(req.algorithm)
        self.spec = self.policy.search(req.algorithm)
        self.target_ns = req.target_s * 1e9
        self.base = self._base_params()
        self.cap = self._cap()
        self.verdict = Verdict(self.spec, self.prim, self.policy, self.target_ns, self.cap)
        self.seq = 0
        self.clock0, self.starts = time.monotonic(), {}
        self.unanswered: list[budget.Unanswered] = []
        self.looked: set[str] = set()  # implementations that got a second look
        self.verified: Verified | None = None  # the cache of verified answers (_measure)
        self.store: RunStore | None = None
        self.run_doc: dict = {}
        self.runtime_of: dict[str, Runtime] = {}  # implementation → its runtime (answers)
        self.started: set[str] = set()  # runtimes whose first answer's process was timed
        self.said_slowed = False  # that the machine is slower than it has been (_drift)

    def _base_params(self) -> dict:
        user = {}
        if self.spec.memory_param:
            mem = self.req.memory_kib or self.spec.default_memory
            user[self.spec.memory_param] = mem
        return self.cat.resolve_params(self.prim, user, OPERATIONS[self.prim.family][0])

    def _cap(self) -> int | None:
        """scrypt: --memory caps N (memory = 128·N·r bytes)."""
        if self.spec.memory_param or not self.spec.memory or not self.req.memory_kib:
            return None
        per_unit = self.spec.memory_bytes({**self.base, self.spec.param: 1})
        return 2 ** int(math.log2(self.req.memory_kib * 1024 / per_unit))

    def params(self, value: int) -> dict:
        return {**self.base, self.spec.param: value}

    # -- one implementation ---------------------------------------------------------------
    def prepare(self, s: Search, value: int) -> Prepared:
        """The case at ``value``, verified like any (an encoded hash must carry the
        parameters asked for), or taken from the cache of verified answers as `run` takes it
        (calibrate/verified.py); Refused where the API will not take the value."""
        case = Case(s.impl, self.prim, s.operation, PASSWORD_LEN, self.params(value))
        got = self.verified.prepare(case, self.seq, self.req.seed)
        if isinstance(got, dict):
            why = str(got.get("error"))
            if any(f"{k}:" in why for k in REFUSED):
                raise Refused(f"refuses {self.spec.param}={value}: {why}")
            raise VerifyError(why)
        if s.operation == "verify":
            check_encoded_cost(self.prim, got.inputs["encoded"], case.params)
        return got

    def searcher(self, rt: Runtime) -> Searcher:
        return Searcher(
            self.spec,
            self.prim,
            self.target_ns,
            self.cap,
            prepare=self.prepare,
            bench=lambda p: bench_for(rt, p, []),
            timeout_s=self.req.timeout,
        )

    # -- the whole command ----------------------------------------------------------------
    def selected(self, live: list[Runtime]) -> list[tuple[Runtime, Search]]:
        out = []
        for rt in live:
            for impl in rt.implementations:
                if self.req.runtimes and not any(
                    runtime_matches(impl.runtime_id, r) for r in self.req.runtimes
                ):
                    continue
                if self.req.impls and impl.id not in self.req.impls:
                    continue
                op = operation_for(impl, self.prim)
                if op is not None:
                    out.append((rt, Search(impl, op)))
        return budget.interleave(out, lambda x: x[1].impl.runtime_id)  # every runtime early

    def run(self) -> tuple[dict, list[dict]]:
        life = Lifecycle(self.req.db, self.console)  # run/lifecycle.py, as `run` and `leak`
        live, skipped = open_runtimes(self.req.runtimes, self.req.impls)
        for rid, why in skipped:
            self.console.print(f"skipped {rid}: {why}", markup=False)
        with stopping(lambda: live):
            chosen = self.selected(live)
            self._check_selection(live, chosen)
            with life:
                self._measure(life, live, skipped, chosen)
        return life.store.load(life.run["id"])

    def _check_selection(self, live, chosen) -> None:
        known = sorted(i.id for rt in live for i in rt.implementations)
        for i in self.req.impls:
            if i not in known:
                raise UsageError(f"unknown implementation {i!r}; valid: {', '.join(known)}")
        if not chosen:
            offering = [
                i.id for rt in live for i in rt.implementations if self.prim.id in i.primitives
            ]
            raise UsageError(
                f"no selected implementation offers {self.prim.id}; these do: "
                f"{', '.join(offering) or 'none'}"
            )

    def _measure(self, life: Lifecycle, live, skipped, chosen) -> None:
        """Known answers (untimed), then a first answer for every implementation, then the
        other rounds while the budget lasts (the lifecycle closes the run whatever happens)."""
        req = self.req
        clock0 = req.started if req.started is not None else time.monotonic()
        self.store, self.run_doc = life.store, life.begin(self._start(live, skipped))
        before = earlier_runs(self.store, self.run_doc)
        fastest = fastest_probe(before, self.run_doc["machine"])
        if fastest:  # a drift probe slower than it has read here is said (_drift)
            self.run_doc["calibration"]["fastest_probe"] = fastest
        verifier = Verifier(self.cat, vectors.load_all(self.cat), live, timeout=req.timeout)
        self.clock0, self.starts = clock0, {rt.id: rt.start_s for rt in live if rt.start_s}
        self.verified = Verified.of(verifier, live, req.reverify)
        jit = {rt.id for rt in live if rt.compiles or rt.isolate}  # Java, Node.js
        short = budget.short_call_s(self.spec, self.base, req.target_s)
        plan = budget.Plan(req.time_budget_s, req.target_s, req.rounds, self.starts, short)
        plan.scale = self.spec.scale
        plan.warm = self._begin_at_earlier(before, chosen, jit)
        try:
            self._verify_first(live, chosen)
            self._start_first(chosen)
            self._say_plan(plan, chosen)
            answers = self._first_answers(plan, chosen)
            self._later_rounds(plan, answers)
            finals = [(a.search, a.prepared) for a in answers]
            self._second_look(plan, answers)
            self._narrow(plan, answers)
            self._annotate(self.store, self.run_doc, finals)
            self._say_unanswered()
        finally:
            self.verified.keep()
            self.console.print(self.verified.summary(), markup=False)
            self.run_doc["calibration"]["wall_s"] = round(time.monotonic() - clock0, 1)

    def _begin_at_earlier(self, before: list[dict], chosen, jit: set[str]) -> set[str]:
        """Each search on a runtime without a JIT begins where this machine's earlier answer
        puts the target (earlier.py); the implementations that do."""
        cal, machine = self.run_doc["calibration"], self.run_doc["machine"]
        seen = earlier.answers(self.store, before, cal, machine)
        for _, s in chosen:
            if s.impl.runtime_id not in jit:
                s.started_from = earlier.start(
                    self.spec, self.prim, self.target_ns, self.cap, seen.get(s.impl.id)
                )
        return {s.impl.id for _, s in chosen if s.started_from}

    def left_s(self) -> float:
        """Seconds of the time budget left."""
        return self.req.time_budget_s - (time.monotonic() - self.clock0)

    def free_s(self) -> float:
        """What an implementation may still take: the budget left but its margin."""
        return self.left_s() - budget.MARGIN * self.req.time_budget_s

    def _verify_first(self, live, chosen) -> None:
        """Every known answer the probes need, checked before anything is timed, the runtimes
        asked in parallel (calibrate/verified.py): nothing is timed while verifying."""
        t0 = time.monotonic()
        ops = sorted({OF_OTHERS[s.operation] for _, s in chosen})
        self.verified.recall(self.prim.id, {*ops, *(s.operation for _, s in chosen)})
        pairs = [(s.impl, s.operation) for _, s in chosen]
        every = sorted({OF_EVERY[s.operation] for _, s in chosen})  # checked in parallel too
        pairs += [(i, op) for op in every for i in self.verified.offering(self.prim.id, op)]
        self.verified.own(self.prim.id, pairs)  # in parallel
        if "hash" in ops:  # a verify probe verifies one maker's hash (Agreement._verify)
            self.verified.consult(self.prim.id, "hash")
        self.verified.keep()
        for rt in live:
            rt.stop()  # every first answer starts its own process (budget.first_s)
        self.console.print(
            f"known answers checked before timing in {time.monotonic() - t0:.1f} s "
            f"({self.verified.checked()} checked, {len(self.verified.taken)} from the cache)",
            markup=False,
        )

    def _start_first(self, chosen) -> None:
        """Each runtime's process for its first implementation's first answer, serving that
        library only (hello's `only`), started before the plan, one at a time with nothing
        else running: its start is the plan's process start for that runtime (the first
        hello, of every library, is dearer)."""
        for rt, s in chosen:
            if rt.process is not None or rt.id in self.started:
                continue
            self.started.add(rt.id)
            rt.stop((s.impl.library,))
            t0 = time.monotonic()
            rt.start()
            if rt.process is not None:
                self.starts[rt.id] = time.monotonic() - t0

    def _say_plan(self, plan: budget.Plan, chosen) -> None:
        if self.verified.taken and not self.verified.checked():  # a warm cache
            plan.verify = 0
        items = [(s.impl.id, s.impl.runtime_id) for _, s in chosen]
        sched = plan.schedule(items, self.left_s())
        spent = time.monotonic() - self.clock0
        # the narrowing runs only for rows wider than ±5%: said as "up to", not counted (the
        # bcrypt call of 2026-11-26 20:28 planned 9 s of it, used none, and ran 38.5 s
        # where "about 57 s" had been printed)
        estimate = spent + sched.seconds
        self.run_doc["calibration"]["estimate_s"] = round(estimate, 1)  # beside wall_s
        self.console.print(
            f"about {estimate:.0f} s in all ({spent:.0f} s "
            "spent verifying; "
            f"{sched.text(len(chosen), self.req.rounds)}; time budget "
            f"{self.req.time_budget_s:.0f} s)",
            markup=False,
        )

    def _drift(self, round_no: int) -> None:
        """The drift probe; the first time the probes read more than 1 + stats.BUSY_SPREAD
        times this machine's fastest earlier run's, one line says so: the costs chosen on a
        machine slower than it has been are lower than the target asks of it at its speed."""
        probes = self.run_doc["probes"]
        probes.append({"round": round_no, **probe.measure(None)})
        self.store.update_run(self.run_doc)
        fastest = (self.run_doc.get("calibration") or {}).get("fastest_probe")
        times = stats.slowed(probes, (fastest or {}).get("ns"))
        if times and not self.said_slowed:
            self.said_slowed = True
            self.console.print(probe_words.slowed(times, fastest, during=True), markup=False)

    def _start(self, live, skipped) -> dict:
        settings = {"time_budget_s": self.req.time_budget_s, "rounds": self.req.rounds, "pin": None}
        run_doc = document(self.req.command, None, self.req.seed, settings, live, skipped)
        run_doc["operation"] = "calibrate"
        run_doc["calibration"] = {
            "algorithm": self.prim.id,
            "target_ms": self.target_ns / 1e6,
            "tolerance": TOLERANCE,
            "param": self.spec.param,
            "scale": self.spec.scale,
            "fixed_params": {k: v for k, v in self.base.items() if k != self.spec.param},
            "memory_kib": self.req.memory_kib,
            "time_budget_s": self.req.time_budget_s,
            "keyspace": KEYSPACE,
            "keyspace_text": KEYSPACE_TEXT,
            "owasp_source": self.policy.owasp_source,
            "owasp_reviewed": self.policy.owasp_reviewed,
        }
        return run_doc

    def _first_answers(self, plan: budget.Plan, chosen) -> list[Answer]:
        """Every implementation's search and round 1 (its probe at the chosen value), in the
        order that takes every runtime once before any twice; one whose first answer no longer
        fits is not started (budget.Unanswered). A search may take more than its first answer's
        share (a neighbour probe) only where the first answers after it still fit."""
        self._drift(1)
        answers = []
        firsts = [plan.first(s.impl.runtime_id, s.impl.id) for _, s in chosen]
        refine = REFINE_PROBES * probe_s(self.req.target_s, PROBE_CALLS)
        for seq, (rt, s) in enumerate(chosen):
            need, after = firsts[seq], sum(firsts[seq + 1 :])
            if need > self.free_s():
                u = budget.Unanswered(s.impl.id, need, "search and first round")
                self._store_skipped(seq, s, u.text())
                self.unanswered.append(u)
                continue
            share = max(need, min(need + refine, self.free_s() - after))
            a = self._first_answer(seq, rt, s, share)
            if a is not None:
                answers.append(a)
                self.runtime_of[a.impl] = rt
        return answers

    def _first_answer(self, seq: int, rt: Runtime, s: Search, share: float) -> Answer | None:
        began = ""
        if s.started_from:
            par, was = self.spec.param, s.started_from["from"]
            began = (
                f" from {par}={s.started_from['value']} ({par}={was['value']} took "
                f"{was['ms']:.1f} ms here in run {was['run'][:8]})"
            )
        self.console.print(
            f"calibrating {s.impl.id} {self.prim.id} {s.operation}{began} …", markup=False
        )
        if rt.process is None or rt.only != (s.impl.library,):
            rt.stop((s.impl.library,))  # a fresh process serving its library
        self.searcher(rt).run(s, share)
        for p in s.probes:
            self.console.print(
                f"  {self.spec.param}={p['value']}: {p['ns'] / 1e6:.1f} ms ({how(p)})",
                markup=False,
            )
        for value, ns in s.predicted.items():
            self.console.print(
                f"  {self.spec.param}={value}: {ns / 1e6:.1f} ms by the line through two probes "
                "(chosen unprobed: the rounds measure it)",
                markup=False,
            )
        if s.refused or s.failed:
            self.console.print(f"  {s.refused or s.failed}", markup=False)
            rt.stop()
            self._store_skipped(seq, s, None)
            return None
        q = s.prepared
        p = Prepared(seq, q.case, q.inputs, q.expected, q.verification, self.chosen_ns(s))
        a = Answer(seq, s, p, rt.id, rt.compiles or rt.isolate)
        first = from_probe(s, q.case.params[self.spec.param])
        if first is not None:
            a.rounds.append(first)
            self.store.put_case(self.run_doc["id"], seq, a.row(self.req.rounds, self._tsc()))
        else:  # chosen unprobed: round 1 now, in the search's warm process
            self._round_in_search(a, rt)
        rt.stop()  # one runner process per implementation's first answer
        return a

    def _rounds_of(self, a: Answer, rt: Runtime, first: int, n: int) -> None:
        """Rounds ``first`` … ``first + n − 1`` of ``a``, each in a fresh process of its own
        (answer.measure), its row stored again; the runtime is left stopped."""
        fresh, call, base = partial(rt.stop, serves(a.prepared.case)), a.call_ns(), self.req.timeout
        try:
            self._keep(
                a, rt, first, lambda b: answer.measure(b, fresh, first, n, call, a.fresh_why, base)
            )
        finally:
            rt.stop()

    def _round_in_search(self, a: Answer, rt: Runtime) -> None:
        """Round 1 of a value the search chose unprobed, in the search's own warm process
        (answer.in_search), its row stored again."""
        call, base = a.call_ns(), self.req.timeout
        self._keep(a, rt, 1, lambda b: [answer.in_search(b, call, base)])

    def _keep(self, a: Answer, rt: Runtime, first: int, measure) -> None:
        """The rounds ``measure(bench)`` takes of ``a`` on ``rt`` added to its answer (a failure
        kept as round ``first``'s error), and its row stored again."""
        try:
            a.rounds += measure(bench_for(rt, a.prepared, []))
        except (RemoteError, RunnerFailure, VerifyError) as exc:
            a.errors.append((first, round_error(exc)))
        self.store.put_case(self.run_doc["id"], a.seq, a.row(self.req.rounds, self._tsc()))

    def _tsc(self):
        return self.run_doc["machine"].get("tsc_hz")

    def _later_rounds(self, plan: budget.Plan, answers: list[Answer]) -> None:
        """Rounds 2…R of the answered implementations, cheapest first, while they fit; the
        others keep their first round and say what the rest would need."""
        if self.req.rounds <= 1 or not answers:
            return
        needs = sorted(
            ((a, plan.later(a.runtime_id, a.call_ns() / 1e9)) for a in answers if a.rounds),
            key=lambda x: x[1],
        )
        what = budget.later_what(self.req.rounds)
        fits, _ = budget.fit([(a.impl, n) for a, n in needs], self.free_s())
        left = f"{max(0.0, self.left_s()):.0f} s of the time budget left"
        self.console.print(
            f"measuring {what} of {len(fits)} of {len(needs)} implementations, cheapest "
            f"first: about {sum(n for a, n in needs if a.impl in fits):.0f} s ({left})"
            if fits
            else f"no time left for {what} ({left})",
            markup=False,
        )
        self._drift(2)
        for a, need in needs:
            if need > self.free_s():
                self.unanswered.append(budget.Unanswered(a.impl, need, what))
                continue
            self._rounds_of(a, self.runtime_of[a.impl], 2, self.req.rounds - 1)

    def _second_look(self, plan: budget.Plan, answers: list[Answer]) -> None:
        """calibrate/remeasure.py, for each implementation whose rounds of the other value
        fit in what is left of the budget (else it says so)."""
        fix = Remeasure(self.verdict, self.prepare, self.console)
        by_impl = {a.impl: a for a in answers}
        finals = [(a.search, a.prepared) for a in answers if a.rounds]
        rows = self._rows(self.store, self.run_doc)
        for s, q, row in fix.candidates(rows, finals):
            a = by_impl[s.impl.id]
            q = self._known(s, q, row)
            need = plan.again(a.runtime_id, q.call_ns / 1e9)
            if need > self.free_s():
                self.unanswered.append(budget.Unanswered(a.impl, need, "second look"))
                continue
            value = q.case.params[self.spec.param]
            self.console.print(
                f"a second look at {a.impl}: {self.spec.param}={value} in "
                f"{self.req.rounds} rounds, about {need:.0f} s",
                markup=False,
            )
            self.looked.add(a.impl)
            other = Answer(q.seq, s, q, a.runtime_id, a.jit)
            self._rounds_of(other, self.runtime_of[a.impl], 1, self.req.rounds)
            fix.keep_nearer(
                self.store, self.run_doc, self._rows(self.store, self.run_doc), [(s, q, row)]
            )

    def _narrow(self, plan: budget.Plan, answers: list[Answer]) -> None:
        """While the budget lasts, one more round at a time for an answered row whose interval is
        wider than ±NARROW (all its planned rounds measured, no second look taken), the one with
        the fewest rounds first, then the widest, up to MAX_ROUNDS rounds: the budget left buys
        precision where it is missing."""
        done: set[str] = set(self.looked)
        while True:
            wide = [
                (a.half_width(), a)
                for a in answers
                if a.impl not in done and self.req.rounds <= len(a.rounds) < budget.MAX_ROUNDS
            ]
            fits = [
                (hw, a)
                for hw, a in wide
                if hw > budget.NARROW
                and plan.one_more(a.runtime_id, a.call_ns() / 1e9) <= self.free_s()
            ]
            if not fits:
                return
            hw, a = max(fits, key=lambda x: (-len(x[1].rounds), x[0]))  # fewest, then widest
            before = len(a.rounds)
            self.console.print(
                f"one more round of {a.impl} (±{100 * hw:.1f}% after {before} rounds)",
                markup=False,
            )
            self._rounds_of(a, self.runtime_of[a.impl], before + 1, 1)
            if len(a.rounds) == before:
                done.add(a.impl)  # its round failed: not again

    def _known(self, s: Search, q: Prepared, row: dict) -> Prepared:
        """The other value's case with its call's expected duration (verdict.other_step: its
        probe scaled to the rounds, else the scaling law)."""
        value = row["params"][self.spec.param]
        other = self.verdict.other_step(s, value, row["median_ns"])
        ns = other["ms"] * 1e6 if other else row["median_ns"]
        return Prepared(q.seq, q.case, q.inputs, q.expected, q.verification, ns)

    def _store_skipped(self, seq: int, s: Search, late: str | None) -> None:
        """A search's refusal or failure, or no answer within the budget, stored at once."""
        case = Case(s.impl, self.prim, s.operation, PASSWORD_LEN, self.base)
        if late is not None:
            row = results.skipped(case, late)
        elif s.refused:
            row = results.skipped(case, f"cannot take the parameter: {s.refused}")
        else:
            row = results.failed(case, s.failed)
        row["calibration"] = search_info(s)
        self.store.put_case(self.run_doc["id"], seq, row)

    def chosen_ns(self, s: Search) -> float:
        """The chosen value's probe, or the line's prediction where it was chosen unprobed
        (Searcher.unprobed): the rounds know its call's duration."""
        value = s.prepared.case.params[self.spec.param]
        probed = (p["ns"] for p in s.probes if p["value"] == value)
        return next(probed, None) or s.predicted[value]

    def _say_unanswered(self) -> None:
        for u in self.unanswered:
            self.console.print(f"{u.impl}: {u.text()}", markup=False)

    def _rows(self, store: RunStore, run_doc: dict) -> dict[str, dict]:
        return {r["implementation"]: r for r in store.load(run_doc["id"])[1]}

    def _annotate(self, store, run_doc, finals) -> None:
        """Each measured row gets its search, parameters, OWASP check and attacker's view."""
        stored = self._rows(store, run_doc)
        for s, p in finals:
            row = stored.get(s.impl.id)
            if row is not None:
                params = row.get("params") or p.case.params
                row["calibration"] = self.verdict.describe(s, params, row)
                store.put_case(run_doc["id"], p.seq, row)

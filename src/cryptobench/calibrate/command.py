"""`cryptobench calibrate`: the cost parameters that make one password hash take a target time
on this machine, per implementation, as `cryptsetup benchmark` does for LUKS
(docs/methodology.md, "calibrate").

Per implementation, the search (search.py) probes the cost parameter, each probe verified
like any case (measure.prepare); then the chosen parameters of every implementation are
measured in rounds (measure/rounds.py); where a re-measured time is more than ±15% off and
another value is expected nearer, it is measured in rounds too and the nearer kept
(remeasure.py); the verdict (verdict.py) says what the parameters buy and how near the target
they came. Stored as a run with operation ``calibrate``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from ..catalog import policy as policy_mod
from ..catalog import primitives as catalog
from ..errors import UsageError
from ..measure import sampling
from ..measure.case import Prepared, bench_for
from ..measure.rounds import Rounds
from ..plan.cases import PASSWORD_SIZES, Case
from ..results import document as results
from ..run.lifecycle import Lifecycle, document, stopping
from ..run.progress import Progress
from ..runtimes.discovery import runtime_matches
from ..runtimes.session import Runtime, open_runtimes
from ..store.sqlite import RunStore
from ..verify import vectors
from ..verify.verifier import Verifier, VerifyError, check_encoded_cost
from . import budget
from .remeasure import Remeasure
from .search import (
    OF_OTHERS,
    OPERATIONS,
    REFUSED,
    TOLERANCE,
    Refused,
    Search,
    Searcher,
    operation_for,
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
    rounds: int = 3
    seed: int = 0
    timeout: float = 60.0
    reverify: bool = False  # ignore the cache of verified answers (and rewrite it)


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
        self.verified: Verified | None = None  # the cache of verified answers (_measure)

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
        """Searches, then rounds (the lifecycle closes the run whatever happens)."""
        req, store = self.req, life.store
        clock0 = time.monotonic()
        run_doc = life.begin(self._start(live, skipped))
        verifier = Verifier(self.cat, vectors.load_all(self.cat), live, timeout=req.timeout)
        self.clock0, self.starts = clock0, {rt.id: rt.start_s for rt in live if rt.start_s}
        self.verified = Verified.of(verifier, live, req.reverify)
        try:
            self._searches(chosen)
            self.verified.keep()
            finals = self._store_unmeasured(store, run_doc, chosen)
            finals = self._within_budget(store, run_doc, finals)
            rounds = self._rounds(live, verifier, store, run_doc, finals)
            self._in_rounds(rounds, [p for _, p in finals], "the chosen parameters")
            self._second_look(rounds, store, run_doc, finals)
            self._annotate(store, run_doc, finals)
            self._say_unanswered()
        finally:
            self.verified.keep()
            self.console.print(self.verified.summary(), markup=False)
            run_doc["calibration"]["wall_s"] = round(time.monotonic() - clock0, 1)

    def left_s(self) -> float:
        """Seconds of the time budget left."""
        return self.req.time_budget_s - (time.monotonic() - self.clock0)

    def need_s(self, prepared: list[Prepared]) -> float:
        """The rounds of these cases, by the one estimate (calibrate/budget.py)."""
        starts, r = self.starts, self.req.rounds
        return sum(
            budget.rounds_s(p.case, (p.call_ns or self.target_ns) / 1e9, r, starts)
            for p in prepared
        )

    def _rounds(self, live, verifier, store, run_doc, finals) -> Rounds:
        """The rounds: each round keeps budget.MIN_PER_ROUND one-call batches and no more, so
        that they take what the estimate says (the interval comes from the rounds)."""
        policy = sampling.Policy(
            budget_s=0.0,
            base_timeout_s=self.req.timeout,
            slow_min_samples=budget.slow_floor(self.req.rounds),
        )
        by_id = {rt.id: rt for rt in live}
        return Rounds(by_id, verifier, store, run_doc, policy, self.req.rounds, self.req.rounds)

    def _second_look(self, rounds, store, run_doc, finals) -> None:
        """calibrate/remeasure.py, where its rounds fit in what is left of the budget."""
        fix = Remeasure(self.verdict, self.prepare, self.console)
        again = [
            (s, self._known(s, q, row), row)
            for s, q, row in fix.candidates(self._rows(store, run_doc), finals)
        ]
        if again and self.need_s([q for _, q, _ in again]) > self.left_s():
            names = ", ".join(s.impl.id for s, _, _ in again)
            self.console.print(f"no time left for a second look at {names}", markup=False)
            return
        if again:
            self._in_rounds(rounds, [q for _, q, _ in again], "a value expected nearer the target")
            fix.keep_nearer(store, run_doc, self._rows(store, run_doc), again)

    def _known(self, s: Search, q: Prepared, row: dict) -> Prepared:
        """The other value's case with its call's expected duration (verdict.other_step: its
        probe scaled to the rounds, else the scaling law), as the rounds and estimate use it."""
        value = row["params"][self.spec.param]
        other = self.verdict.other_step(s, value, row["median_ns"])
        ns = other["ms"] * 1e6 if other else row["median_ns"]
        return Prepared(q.seq, q.case, q.inputs, q.expected, q.verification, ns)

    def _in_rounds(self, rounds: Rounds, prepared: list[Prepared], what: str) -> None:
        if not prepared:  # nothing fitted: no rounds of fresh processes and drift probes
            return
        n, need = len(prepared), self.need_s(prepared)
        self.console.print(
            f"measuring {what}: {n} cases × {rounds.rounds} rounds, about {need:.0f} s "
            f"({max(0.0, self.left_s()):.0f} s of the time budget left)",
            markup=False,
        )
        with Progress(self.console, n * rounds.rounds, need) as progress:
            rounds.on_step = progress.update
            rounds.measure(prepared)

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

    def _searches(self, chosen) -> None:
        """Every implementation's search, in its own runner process, before any rounds; one
        whose search and rounds no longer fit beside the rounds reserved for those before it
        is not started (budget.Plan, budget.Unanswered)."""
        ops = sorted({OF_OTHERS[s.operation] for _, s in chosen})
        self.verified.recall(self.prim.id, {*ops, *(s.operation for _, s in chosen)})
        for op in ops:  # the others' known answers probes ask for: before the plan counts
            # a verify probe verifies one maker's hash (Agreement._verify); a derive asks
            # second opinions, a hash every verify (Agreement.verify_elsewhere)
            self.verified.consult(self.prim.id, op, one=op == "hash")
        plan = budget.Plan(self.req.time_budget_s, self.req.target_s, self.req.rounds, self.starts)
        for rt, s in chosen:
            case = Case(s.impl, self.prim, s.operation, PASSWORD_LEN, self.base)
            share = plan.admit(case, self.left_s())
            if isinstance(share, budget.Unanswered):
                self.unanswered.append(share)
                continue
            self.console.print(
                f"calibrating {s.impl.id} {self.prim.id} {s.operation} …", markup=False
            )
            self.searcher(rt).run(s, share)
            rt.stop()  # one runner process per implementation's search
            self.seq += 1
            for p in s.probes:
                self.console.print(
                    f"  {self.spec.param}={p['value']}: {p['ns'] / 1e6:.1f} ms "
                    f"(median of {p['calls']} calls)",
                    markup=False,
                )
            if s.refused or s.failed:
                self.console.print(f"  {s.refused or s.failed}", markup=False)

    def _store_unmeasured(self, store, run_doc, chosen) -> list[tuple[Search, Prepared]]:
        """Refusals and failures are stored at once; the rest get fresh row numbers."""
        finals = []
        for seq, (_, s) in enumerate(chosen):
            case = Case(s.impl, self.prim, s.operation, PASSWORD_LEN, self.base)
            late = next((u for u in self.unanswered if u.impl == s.impl.id), None)
            if late is not None:
                row = results.skipped(case, late.text())
            elif s.refused:
                row = results.skipped(case, f"cannot take the parameter: {s.refused}")
            elif s.failed:
                row = results.failed(case, s.failed)
            else:
                p, ns = s.prepared, self.chosen_ns(s)
                finals.append((s, Prepared(seq, p.case, p.inputs, p.expected, p.verification, ns)))
                continue
            row["calibration"] = search_info(s)
            store.put_case(run_doc["id"], seq, row)
        return finals

    def chosen_ns(self, s: Search) -> float:
        """The chosen value's probe: the rounds know its call's duration (they skip the
        sampler's calibration, sampling.known_slow)."""
        value = s.prepared.case.params[self.spec.param]
        return next(p["ns"] for p in s.probes if p["value"] == value)

    def _within_budget(self, store, run_doc, finals) -> list[tuple[Search, Prepared]]:
        """The implementations whose rounds fit in what is left of the budget, in order; the
        others are stored with the search's answer and what their rounds would need."""
        needs = [(s.impl.id, self.need_s([p])) for s, p in finals]
        taken, rest = budget.fit(needs, self.left_s())
        self.unanswered += rest
        late = {u.impl: u for u in rest}
        for s, p in finals:
            if s.impl.id not in late:
                continue
            u = late[s.impl.id]
            probe = f"{self.spec.param}={p.case.params[self.spec.param]}"
            why = f"{u.text()}; its search's nearest probe: {probe}, {p.call_ns / 1e6:.1f} ms"
            row = results.skipped(p.case, why)
            row["calibration"] = search_info(s)
            store.put_case(run_doc["id"], p.seq, row)
        return [(s, p) for s, p in finals if s.impl.id in taken]

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

"""The rounds (docs/methodology.md, "Rounds"): every verified case is measured in R
independent rounds. Each round starts fresh runner processes — for JIT runtimes
(`isolate = true` in runner.toml) one per group of cases, as JMH forks a JVM per benchmark —
times the drift probe, and walks the groups (implementation × primitive × operation) in an
order shuffled from the run's seed, sizes shuffled inside. A case's row is stored again after
each of its rounds, so a run stopped at any point keeps every finished round.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..plan.cases import Case
from ..results import document as results
from ..runtimes.protocol import RemoteError, RunnerFailure
from ..runtimes.session import Runtime
from ..store.sqlite import RunStore
from ..verify.verifier import Verifier, VerifyError
from . import probe, sampling
from .case import Prepared, measure_round, round_error

START_S = 0.5  # a fresh runner process, roughly (JVM and Node included)


def group_key(case: Case) -> tuple:
    params = json.dumps(case.params, sort_keys=True)
    return (case.impl.id, case.prim.id, case.operation, params, case.cpu_off)


def order(prepared: list[Prepared], seed: int, round_no: int) -> list[list[Prepared]]:
    """Round ``round_no``'s groups, shuffled from the seed, sizes shuffled inside each."""
    groups: dict[tuple, list[Prepared]] = {}
    for p in prepared:
        groups.setdefault(group_key(p.case), []).append(p)
    rng = random.Random(f"{seed}:{round_no}")
    out = [list(g) for g in groups.values()]
    rng.shuffle(out)
    for g in out:
        rng.shuffle(g)
    return out


def estimate(cases: list[Case], budget_s: float, rounds: int, isolated: set[str]) -> float:
    """Seconds a plan should take here: a rough guide, printed before the run."""
    groups = {(group_key(c), c.impl.runtime_id) for c in cases}
    starts = sum(rt in isolated for _, rt in groups) + len({c.impl.runtime_id for c in cases})
    total = rounds * (starts * START_S + 0.1)
    for c in cases:
        total += max(0.8 * budget_s, 1.5) if c.prim.is_slow else rounds * 0.07 + 0.6 * budget_s
    return total


@dataclass
class _State:
    rounds: list[dict] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    final: dict | None = None  # a refusal or a wrong output: no further rounds


@dataclass
class Rounds:
    runtimes: dict[str, Runtime]  # by Runtime.key (the id, and the features switched off)
    verifier: Verifier
    store: RunStore
    run: dict
    policy: sampling.Policy  # for the whole case; each round gets its share
    rounds: int = 3
    pin: dict | None = None  # machine.pin_plan()
    on_step: Callable[[Prepared, int, dict | None], None] = lambda p, r, res: None
    _state: dict[int, _State] = field(default_factory=dict)

    def measure(self, prepared: list[Prepared]) -> None:
        """Every round of every case, each stored as soon as it is measured."""
        self._state = {p.seq: _State() for p in prepared}
        round_policy = sampling.for_rounds(self.policy, self.rounds)
        cpu = self.pin["runner_cpu"] if self.pin else None
        if self.pin:
            os.sched_setaffinity(0, {self.pin["orchestrator_cpu"]})
        for r in range(1, self.rounds + 1):
            for rt in self.runtimes.values():
                rt.stop()
                rt.cpu = cpu
            self.run["probes"].append({"round": r, **probe.measure(cpu)})
            self.store.update_run(self.run)
            for group in order(prepared, self.run["seed"], r):
                rt = self.runtimes[group[0].case.runtime_key]
                if rt.isolate:
                    rt.stop()
                for p in group:
                    self._one(rt, p, r, round_policy)
        self._flag_sizes(prepared)

    def result_of(self, p: Prepared) -> dict:
        """A case's row after the rounds so far."""
        return self._result(p, self._state[p.seq])

    def _one(self, rt: Runtime, p: Prepared, r: int, policy: sampling.Policy) -> None:
        st = self._state[p.seq]
        if st.final is not None:
            return
        self.on_step(p, r, None)
        try:
            m = measure_round(rt, p, policy, self.verifier, first_round=not st.rounds)
            st.rounds.append(results.round_entry(r, m))
        except RemoteError as exc:
            if exc.kind == "unsupported":
                st.final = results.skipped(p.case, f"not offered: {exc.message}")
            else:
                st.errors.append((r, round_error(exc)))
        except (RunnerFailure, VerifyError) as exc:
            st.errors.append((r, round_error(exc)))
            if isinstance(exc, VerifyError):  # the timed path returned a wrong output
                st.final = self._result(p, st)
        res = self._result(p, st)
        self.store.put_case(self.run["id"], p.seq, res)
        self.on_step(p, r, res)

    def _result(self, p: Prepared, st: _State) -> dict:
        if st.final is not None:
            return st.final
        if st.rounds:
            ctx = {"tsc_hz": self.run["machine"].get("tsc_hz"), "errors": st.errors}
            res = results.measured(p.case, st.rounds, self.rounds, p.verification, ctx)
        else:
            why = "; ".join(f"round {r}: {e}" for r, e in st.errors) or "not measured"
            res = results.failed(p.case, why, p.verification)
        return results.as_noop(res, p.case.impl.runtime_id) if p.case.prim.family == "noop" else res

    def _flag_sizes(self, prepared: list[Prepared]) -> None:
        """After the last round: flag a size slower per operation than a larger one."""
        rows = [self._result(p, self._state[p.seq]) for p in prepared]
        for i, flag in results.size_inversions(rows).items():
            rows[i]["flags"].append(flag)
            self.store.put_case(self.run["id"], prepared[i].seq, rows[i])

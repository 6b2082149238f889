"""`cryptobench run` as its data flow: plan → runtimes → verify → rounds → store; the caller
renders. Each step is one module (plan, session, measure, rounds, store, results)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from . import catalog, identity, liveness, machine, plan, results, sampling, vectors
from .errors import UsageError
from .liveness import Heartbeat
from .lock import RunLock
from .measure import Prepared, noop_cases, prepare
from .progress import Progress
from .rounds import Rounds, estimate
from .session import Runtime, open_runtimes
from .store import RunStore, open_store
from .verify import Verifier


@dataclass
class RunRequest:
    """What the user asked for (the `run` command's options)."""

    command: str
    db: Path | str  # a file or a postgresql:// URL
    preset: str | None = None
    filters: plan.Filters = field(default_factory=plan.Filters)
    time_per_case: float | None = None
    precision: float | None = None  # a fraction
    rounds: int = 3
    seed: int = 0
    timeout: float = 60.0
    wait: bool = False
    pin: bool = False
    name: str | None = None
    machine_label: str | None = None


@dataclass
class Outcome:
    run: dict
    results: list[dict]
    failures: int
    interrupted: bool


def run(req: RunRequest, console: Console) -> Outcome:
    """Verify and measure what ``req`` asks for; every case is stored as it is measured."""
    cat = catalog.load()
    store = open_store(req.db)
    live, skipped = open_runtimes(req.filters.runtimes, req.filters.impls)
    try:
        cases, not_offered, chosen = _plan(req, cat, live, skipped, console)
        policy = _policy(req, chosen)
        with RunLock(wait=req.wait):
            run_doc = _start(req, chosen, policy, live, skipped, store)
            _announce(console, run_doc, cases, policy, req, live, store)
            with Heartbeat(_beat(req.db, run_doc["id"])):
                interrupted = _verify_and_measure(
                    cat, live, store, run_doc, policy, req, cases, not_offered, console
                )
    finally:
        for rt in live:
            rt.stop()
    run_doc, stored = store.load(run_doc["id"])
    return Outcome(run_doc, stored, sum(r["status"] == "failed" for r in stored), interrupted)


def _beat(db, run_id: str):
    """The heartbeat's beat: its own connection (opened in its thread), one UPDATE."""
    own: list[RunStore] = []

    def beat() -> None:
        if not own:
            own.append(open_store(db))
        own[0].heartbeat(run_id)

    return beat


def _verify_and_measure(cat, live, store, run_doc, policy, req, cases, not_offered, console):
    """Verification, then the rounds; the run is closed whatever happens. True if
    interrupted (Ctrl-C keeps every stored case)."""
    cpu0, load0 = machine.cpu_times(), os.getloadavg()[0]
    interrupted = True
    try:
        verifier = Verifier(cat, vectors.load_all(cat), live, timeout=req.timeout)
        prepared = _verify(verifier, cases, not_offered, run_doc, store, req, console)
        with Progress(console, len(prepared) * req.rounds) as progress:
            rounds = Rounds({rt.id: rt for rt in live}, verifier, store, run_doc, policy)
            rounds.rounds, rounds.pin = req.rounds, run_doc["settings"]["pin"]
            rounds.on_step = progress.update
            rounds.measure(prepared)
        interrupted = False
    except KeyboardInterrupt:
        pass
    finally:
        steal = machine.steal_fraction(cpu0, machine.cpu_times())
        results.finish(run_doc, interrupted, steal, load0)
        store.update_run(run_doc)
    return interrupted


def _plan(req: RunRequest, cat, live: list[Runtime], skipped, console: Console):
    f = req.filters
    chosen = plan.load_preset(req.preset or "default") if req.preset or not f.primitives else None
    impls = [i for rt in live for i in rt.implementations]
    plan.validate_filters(
        f, cat, [rt.id for rt in live] + [s for s, _ in skipped], [i.id for i in impls]
    )
    for rid, why in skipped:
        console.print(f"skipped {rid}: {why}", markup=False)
    cases, not_offered = plan.build(plan.groups_for(chosen, f, cat), f, cat, impls)
    if not cases:
        raise UsageError(
            "nothing to run: no implementation offers what was asked (see `cryptobench list`)"
        )
    return cases, not_offered, chosen


def _policy(req: RunRequest, chosen: plan.Preset | None) -> sampling.Policy:
    return sampling.Policy(
        precision=req.precision or (chosen and chosen.precision) or 0.01,
        budget_s=req.time_per_case or (chosen and chosen.time_per_case) or 1.0,
        base_timeout_s=req.timeout,
    )


def _start(req, chosen, policy, live, skipped, store: RunStore) -> dict:
    pin = machine.pin_plan() if req.pin else None
    settings = {
        "precision": policy.precision,
        "time_per_case": policy.budget_s,
        "rounds": req.rounds,
        "pin": pin,
    }
    run_doc = results.start(
        req.command,
        chosen.name if chosen else None,
        req.seed,
        settings,
        {**machine.fingerprint(), **identity.identity(req.machine_label)},
        machine.git_commit(),
        live,
        skipped,
    )
    run_doc["name"], run_doc["process"] = req.name, liveness.process()
    store.begin_run(run_doc)
    return run_doc


def _announce(console, run_doc, cases, policy, req, live, store) -> None:
    isolated = {rt.id for rt in live if rt.isolate}
    minutes = estimate(cases + noop_cases(cases), policy.budget_s, req.rounds, isolated) / 60
    console.print(
        f"run {run_doc['id'][:8]}: {len(cases)} cases × {req.rounds} rounds, about "
        f"{minutes:.1f} min; results in {store.path}",
        markup=False,
    )
    if req.pin and not run_doc["settings"]["pin"]:
        console.print("--pin: fewer than 2 CPUs here, nothing pinned", markup=False)


def _verify(verifier, cases, not_offered, run_doc, store, req, console) -> list[Prepared]:
    """Verify every case before any is timed; refusals and failures are stored at once."""
    seq = 0
    for case, reason in not_offered:
        store.put_case(run_doc["id"], seq, results.skipped(case, reason))
        seq += 1
    prepared = []
    for case in noop_cases(cases) + cases:
        got = prepare(verifier, case, seq, req.seed)
        if isinstance(got, Prepared):
            prepared.append(got)
        else:
            store.put_case(run_doc["id"], seq, got)
            console.print(
                f"{case.impl.id} {case.prim.id} {case.operation} {case.size}: "
                f"FAILED {got['error']}",
                markup=False,
            )
        seq += 1
    return prepared

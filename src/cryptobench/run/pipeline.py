"""`cryptobench run` as its data flow: plan → runtimes → verify → rounds → store; the caller
renders. Each step is one module (plan, session, measure, rounds, store, results)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from .. import stats
from ..catalog import primitives as catalog
from ..errors import UsageError
from ..measure import parallel, sampling
from ..measure.case import Prepared, noop_cases
from ..measure.rounds import JIT_ROUNDS, ROUNDS, Cut, Rounds, estimate, go_on_seen, pace_seen
from ..measure.verified import prepare_all
from ..plan import cases as plan
from ..results import document as results
from ..results import machine
from ..runtimes import cpu_features, feature_sets
from ..runtimes.session import Opened, group_starts, runtime_specs, start_all
from ..verify import vectors
from ..verify.cache import Cache, Fingerprints
from ..verify.verifier import Verifier
from .lifecycle import Lifecycle, document, earlier_runs, fastest_probe, stopping
from .progress import Progress

# the half-width a case's interval aims for unless --precision or the preset says: a round
# stops at its floor once its batches are this precise, a case once its rounds are (after
# rounds.LEAST_ROUNDS) (docs/methodology.md, "How many rounds"). 5%: the width a table marks
# (docs/reports.md), so a case stops once its figure reads without a mark
PRECISION = 0.05


@dataclass
class RunRequest:
    """What the user asked for (the `run` command's options)."""

    command: str
    db: Path | str  # a file or a postgresql:// URL
    preset: str | None = None
    filters: plan.Filters = field(default_factory=plan.Filters)
    time_per_case: float | None = None
    precision: float | None = None  # a fraction
    rounds: int = ROUNDS
    jit_rounds: int = JIT_ROUNDS  # runtimes that report compiles: a fresh JVM warms up each round
    least_rounds: int | None = None  # a case decided once its interval meets its target after
    # this many rounds (`run`: rounds.LEAST_ROUNDS); None: every round, as --rounds N asks
    seed: int = 0
    timeout: float = 60.0
    wait: bool = False
    pin: bool = False
    only: set | None = None  # case keys: measure just these of the plan (advise's missing cases)
    cpu_features: list[tuple[str, ...]] = field(default_factory=lambda: [()])  # feature sets
    parallel: list[int] = field(default_factory=list)  # --parallel: the CPUs, one per process
    threads: list[int] = field(default_factory=list)  # --threads: the CPUs of the one process
    name: str | None = None
    machine_label: str | None = None
    reverify: bool = False  # ignore the cache of verified answers (and rewrite it)
    metric: str | None = None  # --metric: "instructions" also counts each case; None: preset's
    slow_floor: int = sampling.Policy.slow_min_samples  # a password hash's kept calls (advise)
    opened: Opened | None = None  # runtimes a caller already started (advise's passes)
    # seconds per call a caller measured, by Case.key (advise's first pass): the estimate's,
    # over a call timed once by verification, so the run says what the caller said
    calls: dict | None = None
    cut: Cut | None = None  # advise's first pass: a password hash that cannot win stops early
    # the estimate's pace as the caller measured it (advise's full rounds: its first pass's),
    # over the last run's here
    pace: float | None = None


@dataclass
class Outcome:
    run: dict
    results: list[dict]
    failures: int
    interrupted: bool


def run(req: RunRequest, console: Console) -> Outcome:
    """Verify and measure what ``req`` asks for; every case is stored as it is measured."""
    cat = catalog.load()
    selected = _selection(req, cat)  # a bad preset file is refused before anything starts
    narrowed = selected[2]
    life = Lifecycle(req.db, console, wait=req.wait)
    left: list[str] = []  # runtimes the exclusions leave whole: never started
    if req.opened is not None:
        live, skipped = req.opened.live, req.opened.skipped
    else:
        stats.prefetch()  # while the runners start
        specs = runtime_specs(req.filters.runtimes, req.filters.impls)
        left = [s.runtime_id for s in specs if plan.excludes_runtime(s.runtime_id, narrowed)]
        live, skipped = start_all([s for s in specs if s.runtime_id not in left])
    sets = feature_sets.switched_sets(live, req.cpu_features)
    with stopping(lambda: [*live, *(rt for rts in sets.values() for rt in rts)]):
        cases, not_offered, chosen = _plan(req, cat, (live, skipped, left), selected, console)
        cases, not_offered = feature_sets.for_sets(cases, not_offered, sets)
        if not cases:
            raise UsageError("nothing to run: no implementation can switch off what was asked")
        policy = _policy(req, chosen)
        with life:
            run_doc = life.begin(
                _start(req, chosen, policy, live, skipped),
                lambda doc: _announce(console, doc, cases, req, live, life.store),
            )
            _verify_and_measure(
                cat, sets, life.store, run_doc, policy, req, cases, not_offered, console
            )
    run_doc, stored = life.store.load(run_doc["id"])
    failures = sum(r["status"] == "failed" for r in stored)
    return Outcome(run_doc, stored, failures, life.interrupted)


def _parallel(ctx, prepared, seq: int, cpus: list[int], threads: bool) -> int:
    """--parallel / --threads: every measured case again, in N processes (or N threads of one
    process) at once (measure/parallel.py). Returns the next row number."""
    req, by_key, store, run_doc, policy, rounds, console = ctx
    singles = {p.seq: rounds.result_of(p) for p in prepared}
    mark = f"{len(cpus)} threads" if threads else f"×{len(cpus)}"

    def show(p, row):
        par = row.get("parallel") or {}
        text = (
            f"{par['aggregate_ops_per_s']:.4g} ops/s in all, efficiency {par['efficiency']:.0%}"
            if row["status"] == "ok" and par.get("efficiency")
            else row.get("error") or row["status"]
        )
        console.print(
            f"[{mark}] {p.case.impl.id} {p.case.prim.id} {p.case.operation} {p.case.size}: {text}",
            markup=False,
        )

    par = parallel.Parallel(
        by_key,
        store,
        run_doc,
        cpus,
        req.rounds,
        policy.budget_s / req.rounds,
        policy.jit_warmup_s,
        show,
        threads,
    )
    return par.measure(prepared, singles, seq)


def _count_instructions(rounds: Rounds, prepared: list[Prepared], ctx, console) -> None:
    """--metric instructions: every measured case counted under valgrind after the rounds
    (measure/instructions.py); its row is stored again with the count."""
    from ..measure import instructions  # only when asked: no cost otherwise

    store, run_doc, req = ctx
    rows = [rounds.result_of(p) for p in prepared]
    for i, flag in results.size_inversions(rows).items():  # as the rounds left them
        rows[i]["flags"].append(flag)
    by_seq = {p.seq: row for p, row in zip(prepared, rows, strict=True)}
    todo = [(rounds.runtimes[p.case.runtime_key], p, by_seq[p.seq]) for p in prepared]
    console.print(f"counting instructions of {len(todo)} cases under valgrind", markup=False)

    def on_row(p: Prepared, got: dict) -> None:
        row = {**by_seq[p.seq], **got}
        store.put_case(run_doc["id"], p.seq, row)
        c, n = p.case, got.get("instructions_per_op")
        said = f"{n:,.0f} instructions/op" if n is not None else got["instructions"]["detail"]
        label = f"{row['implementation']} {c.prim.id} {c.operation} {c.size}"
        console.print(f"{label}: {said}", markup=False)

    instructions.count_all(todo, req.timeout, on_row)


def _verify_and_measure(cat, sets, store, run_doc, policy, req, cases, not_offered, console):
    """Verification, then the rounds (the lifecycle closes the run whatever happens)."""
    vecs, prepared, seq = vectors.load_all(cat), [], 0
    cases = feature_sets.switched_impls(sets, cases)
    for off, rts in sets.items():  # each feature set verified in its own processes
        verifier = Verifier(cat, vecs, rts, timeout=req.timeout)
        got, seq = _verify(
            verifier,
            [c for c in cases if c.cpu_off == off],
            [(c, why) for c, why in not_offered if c.cpu_off == off],
            (run_doc, store, req, console),
            seq,
        )
        prepared += got
    by_key = {rt.key: rt for rts in sets.values() for rt in rts}
    rounds = Rounds(by_key, verifier, store, run_doc, policy, req.rounds, req.jit_rounds)
    rounds.pin, rounds.least = run_doc["settings"]["pin"], req.least_rounds
    rounds.cut = req.cut
    compiling = {rt.id for rt in by_key.values() if rt.compiles}
    earlier = earlier_runs(store, run_doc)
    seen, pace, which = _go_on_seen(store, earlier, run_doc, compiling)
    pace = req.pace or pace
    fastest = fastest_probe(earlier, run_doc["machine"])
    stats.prefetched()  # nothing is imported beside a timed process start or round
    starts = _starts(prepared, req, by_key)  # the estimate's now and the one redone after
    planned = _planned(prepared, policy, req, by_key, seen, starts) * pace
    said = f", its rounds as {which} took them" if seen else ""
    said += f", at its pace ({pace:.2f}× the plan's)" if pace != 1.0 else ""
    console.print(f"measuring: about {_about(planned)}{said}", markup=False)
    t0 = time.monotonic()
    with Progress(console, rounds.steps(prepared), planned, fastest) as bar:
        rounds.on_step, rounds.on_decided, rounds.on_probe = bar.update, bar.skip, bar.probe
        rounds.on_again = bar.more
        rounds.measure(prepared)
    taken = go_on_seen([rounds.result_of(p) for p in prepared], req.least_rounds, compiling)
    run_doc["measuring"] = {  # read by the next run's estimate (_go_on_seen)
        "estimate_s": round(planned, 1),
        "took_s": round(time.monotonic() - t0, 1),
        "as_taken_s": round(_planned(prepared, policy, req, by_key, taken, starts), 1),
        "go_on": {rid: round(share, 4) for rid, share in taken.items()},
        **({"fastest_probe": fastest} if fastest else {}),
    }
    if run_doc["settings"].get("metric") == "instructions":
        _count_instructions(rounds, prepared, (store, run_doc, req), console)
    for cpus, threads in ((req.parallel, False), (req.threads, True)):
        if cpus:
            ctx = (req, by_key, store, run_doc, policy, rounds, console)
            seq = _parallel(ctx, prepared, seq, cpus, threads)


def _selection(req: RunRequest, cat) -> tuple:
    """(chosen, selection, narrowed): the preset the run asks (None for a question that names
    primitives only), the preset whose exclusions it takes (plan.selection_for) and the
    filters with those exclusions."""
    f = req.filters
    wanted = req.preset or not f.primitives
    chosen = plan.load_preset(req.preset or "default", cat) if wanted else None
    selection = plan.selection_for(chosen, f, cat)
    return chosen, selection, plan.with_preset_exclusions(selection, f)


def _plan(req: RunRequest, cat, started: tuple, selected: tuple, console: Console):
    """The cases, those not offered, and the preset. ``started``: (live, skipped, left), left
    the runtimes not started, every implementation of theirs excluded (named first in the
    line that says what was left out); ``selected``: _selection's, read once a run."""
    f = req.filters
    live, skipped, left = started
    chosen, selection, narrowed = selected
    impls = [i for rt in live for i in rt.implementations]
    ids = [rt.id for rt in live] + [s for s, _ in skipped] + list(left)
    plan.validate_filters(f, cat, ids, [i.id for i in impls])
    for rid, why in skipped:
        console.print(f"skipped {rid}: {why}", markup=False)
    groups = plan.groups_for(chosen, f, cat)
    cases, not_offered = plan.build(groups, narrowed, cat, impls)
    out = [f"{rid}/* (not started)" for rid in left]
    if narrowed is not f:
        out += plan.left_out(plan.build(groups, f, cat, impls)[0], cases)
    if out:
        who = f"`{selection.name}`" if narrowed is not f else "--exclude"
        console.print(
            f"left out as {who} leaves them: {', '.join(out)} (--impl ID names one back)",
            markup=False,
        )
    if req.only is not None:
        cases = [c for c in cases if c.key in req.only]
        not_offered = [(c, why) for c, why in not_offered if c.key in req.only]
    if not cases:
        raise UsageError(
            "nothing to run: no implementation offers what was asked (see `cryptobench list`)"
        )
    return cases, not_offered, chosen


def _policy(req: RunRequest, chosen: plan.Preset | None) -> sampling.Policy:
    return sampling.Policy(
        precision=req.precision or (chosen and chosen.precision) or PRECISION,
        budget_s=req.time_per_case or (chosen and chosen.time_per_case) or sampling.TIME_PER_CASE_S,
        base_timeout_s=req.timeout,
        slow_min_samples=req.slow_floor,
    )


def _metric(req: RunRequest, chosen: plan.Preset | None) -> str:
    """--metric, else the preset's, else time."""
    return req.metric or (chosen.metric if chosen else None) or "time"


def _start(req, chosen, policy, live, skipped) -> dict:
    """The run's document (lifecycle.document) with the `run` command's settings."""
    pin = machine.pin_plan() if req.pin else None
    settings = {
        "parallel": req.parallel or None,
        "threads": req.threads or None,
        "cpu_features": [cpu_features.label(off) for off in req.cpu_features],
        "precision": policy.precision,
        "time_per_case": policy.budget_s,
        "rounds": req.rounds,
        "jit_rounds": req.jit_rounds,
        "least_rounds": req.least_rounds,
        "pin": pin,
        "metric": _metric(req, chosen),
    }
    preset = chosen.name if chosen else None
    return document(
        req.command,
        preset,
        req.seed,
        settings,
        live,
        skipped,
        label=req.machine_label,
        name=req.name,
    )


def _about(seconds: float) -> str:
    """An estimate as said: seconds up to 90 s, else minutes ("about 0.1 min" had been said
    for `advise`'s 1.5 s of full rounds, 2026-12-02)."""
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


# which earlier run a run's estimate reads (_go_on_seen), by how alike its question was: the
# same command, else the same preset, else any run with the same settings. Measured: `make
# bench` after `run --primitive sha256 --size 1KiB` read that run's shares (0.09 of the rounds
# past the least, its 1 KiB cases quiet) and pace (1.00) and said "about 3.2 min" for 6.3 min
# of measuring; the `default` run before had gone on 0.49–0.59 at 1.36–1.40× (2026-12-04 19:38,
# a noisy AMD EPYC VM)
SEEN_AS = {
    2: "this command's last run here",
    1: "the preset's last run here",
    0: "the last run here",
}


def _alike(run: dict, run_doc: dict) -> int:
    """2: the same command, 1: the same preset, 0: neither (SEEN_AS)."""
    for level, what in ((2, "command"), (1, "preset")):
        if run_doc.get(what) and run.get(what) == run_doc[what]:
            return level
    return 0


def _go_on_seen(
    store, earlier, run_doc: dict, compiling
) -> tuple[dict[str, float], float, str | None]:
    """How far past the least rounds each runtime's cases went in the complete run on this
    machine (``earlier``: its complete runs, newest first) with the same rounds and precision
    whose question was most alike (_alike: the same command, else preset, else the newest)
    (rounds.go_on_seen, as it stored them in run.measuring, else from its cases), the pace of
    its rounds against the plan's arithmetic (rounds.pace_seen), and which run that was, in
    words (SEEN_AS); {}, 1.0 and None where none is."""
    want = run_doc["settings"]
    same = ("rounds", "jit_rounds", "least_rounds", "precision", "parallel", "threads")
    runs = [
        r for r in earlier if all((r.get("settings") or {}).get(k) == want.get(k) for k in same)
    ]
    if not runs:
        return {}, 1.0, None
    run = max(runs, key=lambda r: _alike(r, run_doc))  # max keeps the newest of the most alike
    measuring = run.get("measuring") or {}
    shares = measuring.get("go_on")
    if shares is None:  # a run stored before its shares were: read from its cases
        cases = store.load(run["id"], raw=False)[1]
        shares = go_on_seen(cases, want.get("least_rounds"), compiling)
    return shares, pace_seen(measuring), SEEN_AS[_alike(run, run_doc)]


def _starts(prepared: list[Prepared], req: RunRequest, by_key: dict) -> dict[str, float]:
    """Each measured runtime's group start, timed once a run (session.group_starts), or as
    the caller timed it (req.opened)."""
    if req.opened is not None:
        return req.opened.starts
    used = {p.case.runtime_key for p in prepared}
    return group_starts([rt for key, rt in by_key.items() if key in used])


def _planned(prepared: list[Prepared], policy, req, by_key: dict, seen, starts) -> float:
    """The rounds' estimate, printed and behind the progress's time left: the plan's
    arithmetic (rounds.estimate) over the verified cases, a long call at its verified
    duration (or as the caller measured it: req.calls), each runtime's group start
    ``starts`` (_starts: timed once a run; timed again for the estimate redone after the
    rounds, it had cost a busy 2-core VM ~1.2 s more at the end of each run), the rounds
    past the least as ``seen`` here (_go_on_seen). A runtime that reports its compilations
    gets req.jit_rounds rounds, as Rounds.planned gives it."""
    used = {p.case.runtime_key for p in prepared}
    runtimes = [rt for key, rt in by_key.items() if key in used]
    calls = {p.case.key: p.call_ns / 1e9 for p in prepared if p.call_ns}
    calls.update(req.calls or {})
    return estimate(
        [p.case for p in prepared],
        policy.budget_s,
        req.rounds,
        {rt.id for rt in runtimes if rt.compiles},
        starts,
        req.jit_rounds,
        {rt.id: rt.spec.warm_up_s for rt in runtimes},
        calls,
        policy.slow_min_samples,
        req.least_rounds,
        seen,
    )


def _announce(console, run_doc, cases, req, live, store) -> None:
    """The run's first line: what it measures and where it stores it (the time it will take is
    said once its cases are verified, `measuring: about N min`)."""
    used = {c.impl.runtime_id for c in cases} & {rt.id for rt in live if rt.compiles}
    jit = f" ({req.jit_rounds} on {', '.join(sorted(used))})" if used else ""
    upto = "up to " if req.least_rounds else ""
    console.print(
        f"run {run_doc['id'][:8]}: {len(cases)} cases × {upto}{req.rounds} rounds{jit}; "
        f"results in {store.path}",
        markup=False,
    )
    if req.pin and not run_doc["settings"]["pin"]:
        console.print("--pin: fewer than 2 CPUs here, nothing pinned", markup=False)


def _verify(verifier, cases, not_offered, ctx, seq: int) -> tuple[list[Prepared], int]:
    """Verify every case before any is timed, every runtime at once, earlier runs' answers
    taken from the cache (measure/verified.py); refusals and failures are stored at once.
    Returns the verified cases and the next row number."""
    run_doc, store, req, console = ctx
    for case, reason in not_offered:
        store.put_case(run_doc["id"], seq, results.skipped(case, reason))
        seq += 1
    todo = list(enumerate(noop_cases(cases) + cases, start=seq))
    cache = Cache(enabled=not req.reverify)
    fps = Fingerprints.of(list(verifier.runtimes.values()))
    t0 = time.monotonic()
    got_all = prepare_all(verifier, todo, req.seed, cache, fps)
    took = time.monotonic() - t0  # not in the rounds' estimate: said here, where it was spent
    prepared = []
    for n, case in todo:
        got = got_all[n]
        if isinstance(got, Prepared):
            prepared.append(got)
            continue
        store.put_case(run_doc["id"], n, got)
        off = cpu_features.label(case.cpu_off)
        what = "FAILED" if got["status"] == "failed" else "skipped:"
        console.print(
            f"{case.impl.id}{f' [{off}]' if off else ''} {case.prim.id} {case.operation} "
            f"{case.size}: {what} {got['error']}",
            markup=False,
        )
    console.print(f"{cache.summary()} in {took:.1f} s", markup=False)
    return prepared, seq + len(todo)

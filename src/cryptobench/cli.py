"""The cryptobench command line: each subcommand reads like its pipeline."""

from __future__ import annotations

import functools
import random
import shlex
import sys
from pathlib import Path

import click
from rich.console import Console

from . import catalog as catalog_mod
from . import listing, machine, plan, report, results, sampling
from . import vectors as vectors_mod
from .engine import RunContext, execute, noop_cases
from .errors import CryptobenchError, UsageError
from .paths import default_db
from .protocol import RemoteError, RunnerFailure
from .runners import discover
from .session import start_all
from .store import Store
from .verify import Verifier

err = Console(stderr=True, highlight=False, soft_wrap=True)
FORMATS = ("table", "json", "csv", "markdown")


def guarded(fn):
    """Known errors become one line and an exit code, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CryptobenchError as exc:
            err.print(f"cryptobench: {exc}", markup=False)
            sys.exit(exc.exit_code)

    return wrapper


def _wanted_variants(runtimes: tuple[str, ...], impls: tuple[str, ...]) -> dict:
    wanted: dict[str, set] = {}
    for name in (*runtimes, *(i.split("/")[0] for i in impls)):
        if "@" in name:
            base, var = name.split("@", 1)
            wanted.setdefault(base, set()).add(var)
    return wanted


def open_runtimes(runtimes=(), impls=(), only_needed=False):
    """Discover runners and start them; (live, skipped). Every runtime is started unless
    ``only_needed``: the others are the references implementations are checked against."""
    specs = discover(_wanted_variants(runtimes, impls))
    ids = [s.runtime_id for s in specs]
    for r in runtimes:
        if not any(plan.runtime_matches(i, r) for i in ids):
            raise UsageError(f"unknown runtime {r!r}; valid: {', '.join(sorted(ids))}")
    wanted = list(runtimes) + [i.split("/")[0] for i in impls]
    if only_needed and wanted:
        specs = [s for s in specs if any(plan.runtime_matches(s.runtime_id, w) for w in wanted)]
    return start_all(specs)


def _print_skips(skipped):
    for rid, reason in skipped:
        err.print(f"skipped {rid}: {reason}", markup=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cryptobench")
def main():
    """Verified, statistically sound benchmarks of cryptographic primitives."""


@main.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@guarded
def list_cmd(fmt):
    """Runtimes, implementations, what each offers, and what was skipped with why."""
    live, skipped = open_runtimes()
    try:
        click.echo(listing.render_list(live, skipped, fmt), nl=False)
    finally:
        for rt in live:
            rt.stop()


@main.command()
@guarded
def presets():
    """The presets, what each runs and its expected duration here."""
    cat = catalog_mod.load()
    live, skipped = open_runtimes()
    impls = [i for rt in live for i in rt.implementations]
    for rt in live:
        rt.stop()
    click.echo(listing.render_presets(cat, impls), nl=False)


@main.command()
@click.option("--runtime", "runtimes", multiple=True, help="runtime id (java selects java@25 too)")
@click.option("--impl", "impls", multiple=True, help="implementation id, e.g. go/stdlib")
@click.option("--primitive", "primitives", multiple=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@click.option("--all-vectors", is_flag=True, help="also run vectors marked slow")
@click.option(
    "--timeout", type=float, default=60.0, show_default=True, help="seconds to wait for one answer"
)
@guarded
def verify(runtimes, impls, primitives, fmt, all_vectors, timeout):
    """The verification matrix: known answers, forgeries, agreement between implementations."""
    cat = catalog_mod.load()
    vecs = vectors_mod.load_all(cat)
    for p in primitives:
        cat.get(p)
    live, skipped = open_runtimes(runtimes, impls)
    _print_skips(skipped)
    verifier = Verifier(cat, vecs, live, timeout=timeout, all_vectors=all_vectors)
    try:
        rows = listing.verify_matrix(verifier, cat, live, runtimes, impls, primitives, err)
    finally:
        for rt in live:
            rt.stop()
    click.echo(listing.render_matrix(rows, fmt), nl=False)
    sys.exit(1 if any(not r["ok"] for r in rows) else 0)


@main.command()
@click.option("--impl", required=True, help="implementation id, e.g. python/hashlib")
@click.option("--primitive", required=True)
@click.option("--operation", required=True)
@click.option("--msg", default=None)
@click.option("--key", default=None)
@click.option("--nonce", default=None)
@click.option("--aad", default=None)
@click.option("--password", default=None)
@click.option("--salt", default=None)
@click.option("--encoded", default=None)
@click.option("--param", "params", multiple=True, help="K=V")
@click.option("--timeout", type=float, default=600.0)
@guarded
def compute(impl, primitive, operation, params, timeout, **raw):
    """One operation on explicit inputs (hex); the output on stdout."""
    cat = catalog_mod.load()
    prim = cat.get(primitive)
    if operation not in prim.operations:
        raise UsageError(
            f"{primitive} has operations {', '.join(prim.operations)}, not {operation!r}"
        )
    inputs = {}
    for name, value in raw.items():
        if value is None:
            continue
        if name != "encoded":
            try:
                bytes.fromhex(value)
            except ValueError:
                raise UsageError(f"--{name} must be hex") from None
        inputs[name] = value.lower() if name != "encoded" else value
    user = dict(plan.parse_param(p) for p in params)
    resolved = cat.resolve_params(prim, user, operation)
    live, skipped = open_runtimes((), (impl,), only_needed=True)
    found = [i for rt in live for i in rt.implementations if i.id == impl]
    try:
        if not found:
            known = sorted(i.id for rt in live for i in rt.implementations)
            reason = "; ".join(f"{r}: {why}" for r, why in skipped)
            raise UsageError(
                f"unknown implementation {impl!r}; valid: {', '.join(known)}"
                + (f" ({reason})" if reason else "")
            )
        rt = next(rt for rt in live if rt.id == found[0].runtime_id)
        try:
            out = rt.request(
                "compute",
                timeout,
                impl=found[0].library,
                primitive=primitive,
                operation=operation,
                inputs=inputs,
                params=resolved,
            )
        except RemoteError as exc:
            err.print(f"{exc.kind}: {exc.message}", markup=False)
            sys.exit(2 if exc.kind == "bad_request" else 1)
        except RunnerFailure as exc:
            err.print(f"runner failure: {exc}", markup=False)
            sys.exit(1)
        click.echo(out.get("output", ""))
    finally:
        for rt in live:
            rt.stop()


def _output(doc: dict, fmt: str, output: str | None, show_precision: bool) -> None:
    text = report.render(
        fmt,
        doc,
        show_precision=show_precision,
        color=fmt == "table" and output is None and sys.stdout.isatty(),
    )
    if output:
        try:
            Path(output).write_text(text)
        except OSError as exc:
            raise CryptobenchError(f"cannot write {output}: {exc.strerror}") from None
        err.print(f"wrote {output}", markup=False)
    else:
        click.echo(text, nl=False)


@main.command()
@click.option("--preset", default=None, help="a preset name (see `cryptobench presets`)")
@click.option("--runtime", "runtimes", multiple=True)
@click.option("--impl", "impls", multiple=True)
@click.option("--primitive", "primitives", multiple=True)
@click.option("--operation", "operations", multiple=True)
@click.option("--exclude", multiple=True, help="glob over impl, primitive or impl:primitive")
@click.option("--size", "sizes", multiple=True, type=click.IntRange(0))
@click.option("--param", "params", multiple=True, help="K=V, e.g. fresh_context=true")
@click.option("--time-per-case", type=click.FloatRange(0.01), default=None)
@click.option("--precision", type=click.FloatRange(0.01, 50), default=None, help="percent")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table")
@click.option("--output", default=None, help="write the report here instead of stdout")
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default=None,
    help=f"SQLite store (default {default_db()})",
)
@click.option("--seed", type=int, default=None)
@click.option("--timeout", type=float, default=60.0, help="base seconds for one answer")
@click.option("--show-precision", is_flag=True)
@click.option("--wait", is_flag=True, help="wait for another run to finish instead of failing")
@guarded
def run(
    preset,
    runtimes,
    impls,
    primitives,
    operations,
    exclude,
    sizes,
    params,
    time_per_case,
    precision,
    fmt,
    output,
    db,
    seed,
    timeout,
    show_precision,
    wait,
):
    """Verify and measure: a preset (default: `default`) or the primitives named."""
    from .progress import Progress

    cat = catalog_mod.load()
    vecs = vectors_mod.load_all(cat)
    f = plan.Filters(
        list(runtimes),
        list(impls),
        list(primitives),
        list(operations),
        list(exclude),
        list(sizes),
        dict(plan.parse_param(p) for p in params),
    )
    chosen = plan.load_preset(preset or "default") if preset or not primitives else None
    store = Store(Path(db) if db else default_db())
    live, skipped = open_runtimes(runtimes, impls)
    plan.validate_filters(
        f,
        cat,
        [rt.id for rt in live] + [s for s, _ in skipped],
        [i.id for rt in live for i in rt.implementations],
    )
    _print_skips(skipped)
    cases, not_offered = plan.build(
        plan.groups_for(chosen, f, cat), f, cat, [i for rt in live for i in rt.implementations]
    )
    if not cases:
        for rt in live:
            rt.stop()
        raise UsageError(
            "nothing to run: no implementation offers what was asked (see `cryptobench list`)"
        )
    policy = sampling.Policy(
        precision=(precision / 100) if precision else (chosen and chosen.precision) or 0.01,
        budget_s=time_per_case or (chosen and chosen.time_per_case) or 1.0,
        base_timeout_s=timeout,
    )
    seed = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
    with machine.RunLock(wait=wait):
        run_doc = results.new_run(
            shlex.join(["cryptobench", *sys.argv[1:]]),
            chosen.name if chosen else None,
            seed,
            {"precision": policy.precision, "time_per_case": policy.budget_s},
            machine.fingerprint(),
            machine.git_commit(),
        )
        run_doc["runtimes"] = [rt.info for rt in live]
        run_doc["implementations"] = [
            listing.impl_dict(i) for rt in live for i in rt.implementations
        ]
        run_doc["skipped"] = [{"runtime": r, "reason": why} for r, why in skipped]
        store.begin_run(run_doc)
        err.print(
            f"run {run_doc['id'][:8]}: {len(cases)} cases, about "
            f"{listing.estimate(cases, policy.budget_s) / 60:.1f} min; "
            f"results in {store.path}",
            markup=False,
        )
        verifier = Verifier(cat, vecs, live, timeout=timeout)
        with Progress(err, len(cases) + len(noop_cases(cases)), policy.budget_s) as progress:
            ctx = RunContext(
                {rt.id: rt for rt in live}, verifier, store, run_doc, policy, seed, progress.update
            )
            failures, interrupted = execute(ctx, cases, not_offered)
    run_doc, stored = store.load(run_doc["id"])
    _output(results.document(run_doc, stored), fmt, output, show_precision)
    if interrupted:
        err.print(
            f"interrupted: {len(stored)} finished cases kept in run {run_doc['id'][:8]}",
            markup=False,
        )
        sys.exit(130)
    sys.exit(1 if failures else 0)


@main.command()
@click.option("--db", type=click.Path(dir_okay=False), default=None)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@guarded
def runs(db, fmt):
    """The runs in the store."""
    store = Store(Path(db) if db else default_db())
    click.echo(listing.render_runs(store.runs(), fmt), nl=False)


@main.command()
@click.argument("run_ref", metavar="RUN")
@click.option("--db", type=click.Path(dir_okay=False), default=None)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table")
@click.option("--output", default=None)
@click.option("--show-precision", is_flag=True)
@guarded
def show(run_ref, db, fmt, output, show_precision):
    """One stored run (an id prefix, or `last`) in any format."""
    store = Store(Path(db) if db else default_db())
    run_doc, stored = store.load(run_ref)
    _output(results.document(run_doc, stored), fmt, output, show_precision)


from . import cli_reports  # noqa: E402,F401  (registers report/compare/import/export)

if __name__ == "__main__":
    main()

"""`cryptobench run`: the options become a RunRequest; pipeline.run does the work."""

from __future__ import annotations

import random
import sys

import click

from ..catalog.sizes import SIZE
from ..errors import UsageError
from ..measure import parallel
from ..measure.rounds import JIT_ROUNDS, LEAST_ROUNDS, ROUNDS
from ..paths import default_db
from ..plan import cases as plan
from ..results import document as results
from ..run import pipeline
from ..runtimes import cpu_features
from ..store.redact import command_line
from .common import (
    DB_HELP,
    FORMATS,
    err,
    guarded,
    output,
    parse_exports,
    validate_name,
    write_exports,
)
from .types import SEED, SEED_MAX, TIMEOUT, Finite, label_option


@click.command()
@click.option(
    "--preset", default=None, help="a preset name (see `cryptobench presets`) or a FILE.toml"
)
@click.option("--runtime", "runtimes", multiple=True)
@click.option("--impl", "impls", multiple=True)
@click.option("--primitive", "primitives", multiple=True)
@click.option("--operation", "operations", multiple=True)
@click.option("--exclude", multiple=True, help="glob over impl, primitive or impl:primitive")
@click.option(
    "--size", "sizes", multiple=True, type=SIZE, help="bytes, or with a unit: 64KiB, 1GiB"
)
@click.option("--param", "params", multiple=True, help="K=V, e.g. fresh_context=true")
@click.option("--time-per-case", type=Finite(0.01), default=None)
@click.option("--precision", type=Finite(0.01, 50), default=None, help="percent")
@click.option(
    "--rounds",
    type=click.IntRange(1, 50),
    default=None,
    help="independent rounds per case, each group in fresh processes (default 8; 5 on Java, "
    "whose every round warms a fresh JVM up); N sets every runtime's",
)
@click.option(
    "--cpu-features",
    "cpu_features",
    multiple=True,
    metavar="LIST",
    help="switch CPU features off: -sha,-aes,-pclmul,-avx512,-avx2,-crc32 or baseline (all); "
    "repeat to compare sets (default = the default paths)",
)
@click.option(
    "--parallel",
    default=None,
    metavar="N|all",
    help="also run every case in N processes at once, each pinned to its own CPU "
    "(all = every CPU): aggregate throughput and scaling efficiency",
)
@click.option(
    "--threads",
    default=None,
    metavar="N|all",
    help="also run every case in N threads of one runner process (Python's GIL, a "
    "library's lock), where the runner offers threads",
)
@click.option("--pin", is_flag=True, help="runners on one CPU, the orchestrator on another")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table")
@click.option(
    "--output", "output_path", default=None, help="write the report here instead of stdout"
)
@click.option(
    "--export",
    "exports",
    multiple=True,
    callback=parse_exports,
    metavar="FORMAT=FILE",
    help="also write the run to FILE in FORMAT (repeatable; any --format but table)",
)
@click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--seed", type=SEED, default=None, help=f"0..{SEED_MAX}")
@click.option("--timeout", type=TIMEOUT, default=60.0, help="base seconds for one answer")
@click.option("--show-precision", is_flag=True)
@click.option("--wait", is_flag=True, help="wait for another run to finish instead of failing")
@click.option(
    "--reverify",
    is_flag=True,
    help="verify every case again instead of taking unchanged ones from the cache",
)
@click.option(
    "--metric",
    type=click.Choice(["time", "instructions"]),
    default=None,
    help="instructions: also count each case's instructions per operation under valgrind "
    "(docs/methodology.md); default: the preset's, else time",
)
@click.option(
    "--name", default=None, callback=validate_name, help="a name for this run (unique per machine)"
)
@click.option(
    "--machine-label",
    default=None,
    callback=label_option,
    help="what to call this machine, e.g. c7i.large (default $CRYPTOBENCH_MACHINE_LABEL, "
    "else the hostname)",
)
@guarded
def run(fmt, output_path, show_precision, exports, **opts):
    """Verify and measure: a preset (default: `default`) or the primitives named."""
    req = _request(opts)
    _first_use(req.filters.runtimes or [i.split("/")[0] for i in req.filters.impls])
    done = pipeline.run(req, err.get())
    doc = results.document(done.run, done.results)
    output(doc, fmt, output_path, show_precision)
    write_exports(doc, exports, show_precision)
    if done.interrupted:
        err.print(
            f"interrupted: {len(done.results)} cases kept in run {done.run['id'][:8]}",
            markup=False,
        )
        sys.exit(130)
    lost = lost_rounds(done.results)
    if lost:
        err.print(f"{lost} cases lost a round (see FAILED above): exit 1", markup=False)
    sys.exit(1 if done.failures or lost else 0)


def _request(opts: dict) -> pipeline.RunRequest:
    """The run request the options describe."""
    req = pipeline.RunRequest(
        command=command_line(["cryptobench", *sys.argv[1:]]),
        db=opts["db"] or default_db(),
        preset=opts["preset"],
        filters=plan.Filters(
            list(opts["runtimes"]),
            list(opts["impls"]),
            list(opts["primitives"]),
            list(opts["operations"]),
            list(opts["exclude"]),
            list(opts["sizes"]),
            dict(plan.parse_param(p) for p in opts["params"]),
        ),
        time_per_case=opts["time_per_case"],
        precision=opts["precision"] / 100 if opts["precision"] else None,
        rounds=opts["rounds"] or ROUNDS,
        jit_rounds=opts["rounds"] or JIT_ROUNDS,
        least_rounds=None if opts["rounds"] else LEAST_ROUNDS,  # --rounds N: all N
        seed=opts["seed"] if opts["seed"] is not None else random.SystemRandom().randrange(1 << 31),
        timeout=opts["timeout"],
        wait=opts["wait"],
        pin=opts["pin"],
        name=opts["name"],
        machine_label=opts["machine_label"],
        reverify=opts["reverify"],
        metric=opts["metric"],
    )
    if opts["parallel"] is not None:
        req.parallel = _cpus(opts["parallel"])
    if opts["threads"] is not None:
        req.threads = _cpus(opts["threads"])
    if opts["cpu_features"]:
        req.cpu_features = list(dict.fromkeys(cpu_features.parse(s) for s in opts["cpu_features"]))
    elif req.preset and plan.load_preset(req.preset).cpu_features:
        req.cpu_features = list(dict.fromkeys(plan.load_preset(req.preset).cpu_features))
    return req


def lost_rounds(rows: list[dict]) -> int:
    """Cases measured in fewer rounds than planned (a runner killed or hung in one; not one
    decided early): kept, but README's exit 1 "a measurement failed" applies."""
    return sum(
        1
        for r in rows
        if r.get("status") == "ok"
        and r.get("rounds_planned")
        and len(r.get("rounds") or ()) < r["rounds_planned"]
        and not r.get("decided_after")
    )


def _cpus(value: str) -> list[int]:
    """--parallel N|all → the CPUs, one per process (exit 2 with what is valid)."""
    from ..results import machine

    usable = len(machine.usable_cpus())
    if value != "all" and not (value.isdigit() and 1 <= int(value) <= usable):
        raise UsageError(f"--parallel {value!r}: valid: all, or 1..{usable} (usable CPUs here)")
    return parallel.cpus_for(value)


def _first_use(runtimes: list[str]) -> None:
    """An installed cryptobench builds the runners a run needs into its cache first."""
    from ..runtimes import install

    for o in install.ensure(runtimes, lambda msg: err.print(msg, markup=False)):
        if not o.ok:
            err.print(f"runner {o.runtime} not built: {o.detail}", markup=False)

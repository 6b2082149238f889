"""`cryptobench run`: the options become a RunRequest; pipeline.run does the work."""

from __future__ import annotations

import os
import random
import shlex
import sys

import click

from ..catalog.sizes import SIZE
from ..errors import UsageError
from ..measure import parallel
from ..paths import default_db
from ..plan import cases as plan
from ..results import document as results
from ..run import pipeline
from ..runtimes import cpu_features
from .common import DB_HELP, FORMATS, err, guarded, output, validate_name


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
@click.option("--time-per-case", type=click.FloatRange(0.01), default=None)
@click.option("--precision", type=click.FloatRange(0.01, 50), default=None, help="percent")
@click.option(
    "--rounds",
    type=click.IntRange(1, 50),
    default=3,
    show_default=True,
    help="independent rounds per case, each in fresh processes",
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
@click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--seed", type=int, default=None)
@click.option("--timeout", type=float, default=60.0, help="base seconds for one answer")
@click.option("--show-precision", is_flag=True)
@click.option("--wait", is_flag=True, help="wait for another run to finish instead of failing")
@click.option(
    "--name", default=None, callback=validate_name, help="a name for this run (unique per machine)"
)
@click.option(
    "--machine-label",
    default=None,
    help="what to call this machine, e.g. c7i.large (default $CRYPTOBENCH_MACHINE_LABEL, "
    "else the hostname)",
)
@guarded
def run(fmt, output_path, show_precision, **opts):
    """Verify and measure: a preset (default: `default`) or the primitives named."""
    req = pipeline.RunRequest(
        command=shlex.join(["cryptobench", *sys.argv[1:]]),
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
        rounds=opts["rounds"],
        seed=opts["seed"] if opts["seed"] is not None else random.SystemRandom().randrange(1 << 31),
        timeout=opts["timeout"],
        wait=opts["wait"],
        pin=opts["pin"],
        name=opts["name"],
        machine_label=opts["machine_label"],
    )
    if opts["parallel"] is not None:
        req.parallel = _cpus(opts["parallel"])
    if opts["threads"] is not None:
        req.threads = _cpus(opts["threads"])
    if opts["cpu_features"]:
        req.cpu_features = list(dict.fromkeys(cpu_features.parse(s) for s in opts["cpu_features"]))
    elif req.preset and plan.load_preset(req.preset).cpu_features:
        req.cpu_features = list(dict.fromkeys(plan.load_preset(req.preset).cpu_features))
    done = pipeline.run(req, err.get())
    output(results.document(done.run, done.results), fmt, output_path, show_precision)
    if done.interrupted:
        err.print(
            f"interrupted: {len(done.results)} cases kept in run {done.run['id'][:8]}",
            markup=False,
        )
        sys.exit(130)
    sys.exit(1 if done.failures else 0)


def _cpus(value: str) -> list[int]:
    """--parallel N|all → the CPUs, one per process (exit 2 with what is valid)."""
    usable = len(os.sched_getaffinity(0))
    if value != "all" and not (value.isdigit() and 1 <= int(value) <= usable):
        raise UsageError(f"--parallel {value!r}: valid: all, or 1..{usable} (usable CPUs here)")
    return parallel.cpus_for(value)

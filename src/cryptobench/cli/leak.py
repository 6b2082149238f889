"""`cryptobench leak`: the options become a LeakRequest; leak.run does the work."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import click

from ..leak import command as leak_mod
from ..paths import default_db
from ..results import document as results
from .common import DB_HELP, FORMATS, err, guarded, output
from .types import SEED, TIMEOUT


@click.command()
@click.option("--runtime", "runtimes", multiple=True)
@click.option("--impl", "impls", multiple=True)
@click.option("--primitive", "primitives", multiple=True)
@click.option(
    "--measurements",
    type=click.IntRange(1000, 50_000_000),
    default=leak_mod.DEFAULT_MEASUREMENTS,
    show_default=True,
    help="single calls timed per measurement; a case takes 4 (two replicates, each with its "
    "A/A pair; password verify: 1/100 of it, decaps and agree 1/10, sign 1/20, at least 1000)",
)
@click.option(
    "--control-bytes",
    type=click.IntRange(2, 1 << 20),
    default=None,
    help="input length of the two equality controls [default: the runner.toml's [leak] "
    "control_bytes, else 1024]",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table")
@click.option("--output", "output_path", default=None, help="write the report here")
@click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--seed", type=SEED, default=None)
@click.option("--timeout", type=TIMEOUT, default=300.0, help="seconds for one leak answer")
@click.option("--wait", is_flag=True, help="wait for another run to finish instead of failing")
@click.option(
    "--taint",
    is_flag=True,
    help="also run each target once under Valgrind's memcheck with its secret marked "
    "undefined, and report every branch or memory index on it (runners with [leak] taint)",
)
@guarded
def leak(fmt, output_path, **opts):
    """Is it constant time? dudect's paired timing test of AEAD and MAC tag checks, password
    verification, ML-KEM decapsulation, key agreement and signing, with an early-exit and a
    constant-time control in every runtime."""
    req = leak_mod.LeakRequest(
        command=shlex.join(["cryptobench", *sys.argv[1:]]),
        db=Path(opts["db"]) if opts["db"] else default_db(),
        runtimes=list(opts["runtimes"]),
        impls=list(opts["impls"]),
        primitives=list(opts["primitives"]),
        measurements=opts["measurements"],
        control_bytes=opts["control_bytes"],
        seed=opts["seed"] if opts["seed"] is not None else random.SystemRandom().randrange(1 << 31),
        timeout=opts["timeout"],
        wait=opts["wait"],
        taint=opts["taint"],
    )
    done = leak_mod.run(req, err)
    output(results.document(done.run, done.results), fmt, output_path, False)
    sys.exit(1 if done.failures else 0)

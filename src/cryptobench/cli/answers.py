"""The commands that answer a question: calibrate (password-hash cost for a target time) and
advise (the fastest safe choice for a use)."""

from __future__ import annotations

import random
import re
import shlex
import sys
from pathlib import Path

import click

from .. import results
from ..paths import default_db
from .common import db_option, err, guarded, output

_UNITS = {
    "time": {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0},
    "memory": {"kib": 1, "k": 1, "mib": 1024, "m": 1024, "gib": 1 << 20, "g": 1 << 20},
}


class Quantity(click.ParamType):
    """``250ms``, ``1.5s``, ``64MiB``: a number with a unit (time in s, memory in KiB)."""

    def __init__(self, kind: str, default_unit: str):
        self.kind, self.default_unit = kind, default_unit
        self.name = kind

    def convert(self, value, param, ctx):
        if isinstance(value, int | float):
            return value
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Zµ]*)\s*", str(value))
        units = _UNITS[self.kind]
        unit = (m.group(2) if m else "") or self.default_unit
        if not m or unit.lower() not in {u.lower() for u in units}:
            self.fail(
                f"{value!r} is not a {self.kind} (a number with one of: {', '.join(units)})",
                param,
                ctx,
            )
        factor = next(f for u, f in units.items() if u.lower() == unit.lower())
        amount = float(m.group(1)) * factor
        if amount <= 0:
            self.fail(f"{value!r} must be positive", param, ctx)
        return amount


def _command() -> str:
    return shlex.join(["cryptobench", *sys.argv[1:]])


@click.command()
@click.argument("algorithm")
@click.option("--target", type=Quantity("time", "ms"), default="250ms", show_default=True)
@click.option(
    "--memory",
    type=Quantity("memory", "MiB"),
    default=None,
    help="Argon2's m (default 64MiB, RFC 9106); for scrypt, a cap on 128·N·r",
)
@click.option("--runtime", "runtimes", multiple=True)
@click.option("--impl", "impls", multiple=True)
@click.option(
    "--time-budget",
    type=Quantity("time", "s"),
    default="60s",
    show_default=True,
    help="for the search and the rounds of every implementation together",
)
@click.option("--rounds", type=click.IntRange(1, 50), default=3, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table")
@click.option("--output", "output_path", default=None)
@click.option("--seed", type=int, default=None)
@click.option("--timeout", type=float, default=60.0, help="base seconds for one answer")
@db_option
@guarded
def calibrate(algorithm, target, memory, runtimes, impls, time_budget, rounds, fmt, **opts):
    """Cost parameters that make one hash of ALGORITHM take --target here, per implementation,
    re-measured in rounds, with the attacker's view and OWASP's minimums."""
    from .. import calibrate as calibrate_mod

    req = calibrate_mod.Request(
        algorithm=algorithm,
        target_s=target,
        command=_command(),
        db=Path(opts["db"]) if opts["db"] else default_db(),
        memory_kib=int(memory) if memory else None,
        runtimes=list(runtimes),
        impls=list(impls),
        time_budget_s=time_budget,
        rounds=rounds,
        seed=opts["seed"] if opts["seed"] is not None else random.SystemRandom().randrange(1 << 31),
        timeout=opts["timeout"],
    )
    run_doc, rows = calibrate_mod.Calibration(req, err).run()
    output(results.document(run_doc, rows), fmt, opts["output_path"], False)
    if run_doc["status"] == "interrupted":
        sys.exit(130)
    sys.exit(1 if any(r["status"] == "failed" for r in rows) else 0)


COMMANDS = (calibrate,)

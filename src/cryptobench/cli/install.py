"""`cryptobench setup` and `cryptobench doctor`: the runners of an installed cryptobench,
built into the user's cache directory, and what each runtime's toolchain looks like here."""

from __future__ import annotations

import sys

import click

from .common import err, guarded


@click.command("setup")
@click.argument("runtimes", nargs=-1, metavar="[RUNTIME]...")
@guarded
def setup_cmd(runtimes):
    """Build the runners of an installed cryptobench into ~/.cache/cryptobench (default: all)."""
    from ..runtimes import install

    outcomes = install.setup(list(runtimes), lambda msg: err.print(msg, markup=False))
    for o in outcomes:
        click.echo(f"{o.runtime:<8} {'ok' if o.ok else 'not built'}: {o.detail}")
    sys.exit(0 if all(o.ok for o in outcomes) else 1)


@click.command("doctor")
@click.option(
    "--machine",
    is_flag=True,
    help="also keep every CPU busy for --seconds and say whether the machine is steady "
    'enough to take figures on (docs/methodology.md, "A busy machine")',
)
@click.option(
    "--seconds",
    type=click.FloatRange(0.1, 600),
    default=5.0,
    show_default=True,
    help="how long --machine keeps every CPU busy",
)
@guarded
def doctor(machine, seconds):
    """Each runtime's toolchain: found with its version, or missing with how to install it."""
    from ..runtimes import doctor as doctor_mod

    click.echo(doctor_mod.render(doctor_mod.checks()), nl=False)
    if machine:
        from ..measure import steady
        from ..run.lock import RunLock

        with RunLock():  # every CPU is busy: a run timing meanwhile would be spoilt
            states = steady.sample(seconds)
        for state in states:
            click.echo(state.text())
        click.echo(steady.verdict(states))

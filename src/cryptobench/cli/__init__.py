"""The cryptobench command line: thin commands, grouped by what they work on.

info (list, presets, verify, compute) · run · stored (runs, show, report, compare, import,
export). Each parses its options and calls the module that does the work.
"""

from __future__ import annotations

import click

from . import fleet, info, stored
from .run import run


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cryptobench")
def main():
    """Verified, statistically sound benchmarks of cryptographic primitives."""


for _command in (*info.COMMANDS, run, *stored.COMMANDS, *fleet.COMMANDS):
    main.add_command(_command)

if __name__ == "__main__":
    main()

"""The cryptobench command line: thin commands, grouped by what they work on.

info (list, presets, verify, compute, compute --batch) · run · stored (runs, show, report,
compare, import, export). Each parses its options and calls the module that does the work.
A command's module is imported only when that command runs (lazy.py): `--version`, `--help`
and `compute` start without scipy or the report stack.
"""

from __future__ import annotations

import click

from .. import __version__
from .lazy import LazyGroup

COMMANDS = {  # name → module:function in this package
    "list": "info:list_cmd",
    "presets": "info:presets",
    "verify": "info:verify",
    "compute": "info:compute",
    "run": "run:run",
    "runs": "stored:runs",
    "show": "stored:show",
    "report": "stored:report_cmd",
    "compare": "stored:compare_cmd",
    "import": "stored:import_cmd",
    "export": "stored:export_cmd",
    "calibrate": "answers:calibrate",
    "advise": "answers:advise",
    "leak": "leak:leak",
    "machines": "fleet:machines",
    "history": "fleet:history",
    "setup": "install:setup_cmd",
    "doctor": "install:doctor",
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__)  # not importlib.metadata: 30 imports fewer
def main():
    """Verified, statistically sound benchmarks of cryptographic primitives."""


if __name__ == "__main__":
    main()

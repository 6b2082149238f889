"""The CLI starts light: commands are imported when they run, and `--version`, `--help` and
`compute` never import scipy, numpy, rich or the report stack (module counts, never timings;
bench/startup prints the times)."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from cryptobench.cli import COMMANDS, main

from .conftest import ROOT, cli

HEAVY = ("scipy", "numpy", "rich", "cryptobench.report", "cryptobench.stats", "jsonschema")
PROBE = """
import json, sys
from cryptobench.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded(*args: str) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT
    )
    return json.loads(proc.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["compute", "--help"]])
def test_light_commands_import_nothing_heavy(args):
    mods = loaded(*args)
    assert not [m for m in mods if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]


def test_compute_imports_nothing_heavy(fakes):
    fakes("ok")
    mods = loaded("compute", "--impl", "fake-ok/fakelib", "--primitive", "sha256",
                  "--operation", "digest", "--msg", "00")  # fmt: skip
    assert "cryptobench.runtimes.session" in mods  # it did run
    assert not [m for m in mods if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]


def test_help_lists_every_command_with_its_own_short_help():
    proc = cli("--help")
    assert proc.returncode == 0
    ctx = click.Context(main)
    for name in COMMANDS:
        cmd = main.get_command(ctx, name)  # imports it
        assert cmd is not None and cmd.name == name
        assert f"\n  {name} " in proc.stdout
        for width in (40, 200):  # the help read from the source is the command's own
            assert main._lazy_short_help(name, width) == cmd.get_short_help_str(width)

"""Every `$ cryptobench …` example in README.md and docs/*.md runs, and prints what it shows.

Examples live in ```console blocks; a line without `$ ` right after a command is its expected
output (checked exactly). Examples with <placeholders> are templates and are not run.
"""

from __future__ import annotations

import re
import shlex

import pytest

from .conftest import QUICK_RUN, ROOT, cli

BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def examples():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for block in BLOCK.findall(path.read_text()):
            lines = block.splitlines()
            for i, line in enumerate(lines):
                if not line.startswith("$ cryptobench ") or "<" in line:
                    continue
                expected = []
                for nxt in lines[i + 1 :]:
                    if nxt.startswith("$ "):
                        break
                    expected.append(nxt)
                yield pytest.param(line[2:], expected, id=f"{path.name}: {line[2:60]}")


@pytest.mark.parametrize(("command", "expected"), list(examples()))
def test_documented_example_runs(command, expected):
    args = shlex.split(command)[1:]
    if args[0] == "run" and "--time-per-case" not in args:
        args += ["--time-per-case", "0.1"]
    if args[0] == "run" and "--preset" in args:
        args += ["--runtime", "python"]  # the docs' presets, on the runtime every setup has
    if args[0] in ("show", "runs"):  # a read command needs a store to read
        assert cli(*QUICK_RUN).returncode == 0
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr
    if expected:
        assert proc.stdout.splitlines() == expected

"""How the verified-by-use tests (test_kem.py, test_pubkey.py) drive a fake runner that lies
in one way: install it for one test, run one short round of it, and check what was caught."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conftest import cli


def install(tmp_path: Path, monkeypatch, script: Path, mode: str) -> None:
    """The fake runner `script` in `mode`, the only runner `cryptobench` finds."""
    folder = tmp_path / "runners" / f"fake-{mode}"
    folder.mkdir(parents=True)
    (folder / "runner.toml").write_text(
        f'schema = 1\nruntime = "fake-{mode}"\nlanguage = "fake"\nstartup_timeout = 5\n'
        f'[run]\ncommand = ["{sys.executable}", "{script}", "{mode}"]\n'
    )
    monkeypatch.setenv("CRYPTOBENCH_RUNNERS", str(tmp_path / "runners"))


def run(*args: str) -> tuple[int, dict]:
    """`cryptobench run` of one short round: (exit code, (primitive, operation) → result)."""
    proc = cli("run", "--time-per-case", "0.05", "--rounds", "1", "--format", "json", *args)
    doc = json.loads(proc.stdout)
    got = {(r["primitive"], r["operation"]): r for r in doc["results"] if r["family"] != "noop"}
    return proc.returncode, got


def assert_caught_before_timing(primitive: str, operation: str, why: str) -> None:
    """The lie failed the case, for the reason `why`, before any sample was kept."""
    code, got = run("--primitive", primitive, "--operation", operation)
    bad = got[(primitive, operation)]
    assert code == 1
    assert bad["status"] == "failed" and bad["median_ns"] is None and bad["samples"] == []
    assert why in bad["error"]

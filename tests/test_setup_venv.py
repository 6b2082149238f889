"""scripts/setup.py's .venv: made by a pinned uv, by pip where uv cannot be had or fails."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("cb_setup", ROOT / "scripts/setup.py")
setup = importlib.util.module_from_spec(_spec)
sys.modules["cb_setup"] = setup
_spec.loader.exec_module(setup)


class Calls:
    """subprocess.run's stand-in: records each command, fails those ``fail`` picks."""

    def __init__(self, fail=lambda cmd: False):
        self.cmds: list[list[str]] = []
        self.fail = fail

    def __call__(self, cmd, *args, **kwargs):
        self.cmds.append([str(c) for c in cmd])
        return subprocess.CompletedProcess(cmd, 1 if self.fail(cmd) else 0)


def test_uv_that_cannot_be_installed_leaves_nothing_and_says_pip_does_it(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def half_installed(cmd):  # pip gave up after writing part of it
        if "--target" not in cmd:
            return False
        target = Path(cmd[cmd.index("--target") + 1])
        (target / "bin").mkdir(parents=True)
        (target / "bin" / "uv").touch()
        return True

    calls = Calls(fail=half_installed)
    monkeypatch.setattr(setup.subprocess, "run", calls)
    assert setup.uv() is None
    assert any(setup.UV in cmd for cmd in calls.cmds)  # the pinned version was asked for
    assert list((tmp_path / "cryptobench").iterdir()) == []  # no half-installed uv
    assert "made with pip" in capsys.readouterr().out


def test_a_failed_uv_install_falls_back_to_pip_with_the_same_constraints(tmp_path, monkeypatch):
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()  # the environment uv made
    monkeypatch.setattr(setup, "VENV", venv)
    monkeypatch.setattr(setup, "uv", lambda: "/cache/uv")
    calls = Calls(fail=lambda cmd: cmd[0] == "/cache/uv")
    monkeypatch.setattr(setup.subprocess, "run", calls)
    setup.venv([], dev=False)
    uv_cmd, pip_cmd = calls.cmds
    assert uv_cmd[:3] == ["/cache/uv", "pip", "install"]
    assert pip_cmd[1:4] == ["-m", "pip", "install"]
    lock = str(setup.ROOT / "requirements.lock")
    for cmd in (uv_cmd, pip_cmd):
        assert cmd[cmd.index("-c") + 1] == lock
        assert cmd[-1] == str(setup.ROOT)  # the orchestrator itself, not editable


def test_bytecode_is_written_where_python_would_write_none(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "mod.py").write_text("X = 1\n")
    monkeypatch.setattr(setup, "VENV", Path(sys.executable).parents[1])
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    setup.bytecode([pkg])
    tag = sys.implementation.cache_tag
    assert (pkg / "__pycache__" / f"mod.{tag}.pyc").is_file()

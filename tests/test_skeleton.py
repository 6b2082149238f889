"""The runner skeleton check (scripts/check_runners.py, docs/adding-a-runner.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_runners", ROOT / "scripts/check_runners.py")
check_runners = importlib.util.module_from_spec(_spec)
sys.modules["check_runners"] = check_runners  # dataclasses look their module up there
_spec.loader.exec_module(check_runners)


def test_every_runner_folder_follows_the_skeleton():
    assert check_runners.check_skeleton(ROOT) == []


def test_every_runner_folder_has_a_skeleton_entry():
    folders = {p.parent.name for p in (ROOT / "runners").glob("*/runner.toml")}
    assert folders <= set(check_runners.SKELETONS)


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_a_bad_folder_is_reported(tmp_path):
    folder = tmp_path / "runners" / "python"
    _write(
        folder,
        {
            "runner.toml": 'schema = 1\nruntime = "python"\n',
            "runner.py": "import sys\n",
            "cbrunner/protocol.py": "import json\n",
            "cbrunner/registry.py": "import hashlib\n",
            "cbrunner/hello.py": "# time.perf_counter_ns() in a comment is no read\n",
            "cbrunner/dispatch.py": "import time\n\nt0 = time.perf_counter_ns()\n",
            "lib_zlib.py": "import zlib\n",
        },
    )
    problems = check_runners.check_skeleton(tmp_path)
    assert "runners/python: no timing file (expected cbrunner/timing.py)" in problems
    assert any(p.startswith("runners/python/cbrunner/dispatch.py:3: clock read") for p in problems)
    assert any(
        p.startswith("runners/python/cbrunner/registry.py:1: library code") for p in problems
    )
    assert not any("hello.py" in p or "lib_zlib.py" in p for p in problems)
    assert len(problems) == 3


def test_a_runner_folder_of_an_unknown_language_is_reported(tmp_path):
    _write(tmp_path / "runners" / "cobol", {"runner.toml": "schema = 1\n"})
    assert check_runners.check_skeleton(tmp_path) == [
        "runners/cobol: no skeleton for this language "
        "(add it to SKELETONS in scripts/check_runners.py and docs/adding-a-runner.md)"
    ]

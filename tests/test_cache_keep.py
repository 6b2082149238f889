"""runners/cache.mk's cb_keep, the recipe the Java Makefile keeps its jar with (a file) and the
Node.js one its node_modules (a folder; tests/test_node_modules_cache.py): a second checkout
copies what the first built, the copy takes its own time (an output older than its sources
reads as a stale build to verify/cache.py), and only the newest KEEP are kept."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CACHE_MK = Path(__file__).resolve().parents[1] / "runners" / "cache.mk"

pytestmark = pytest.mark.skipif(not shutil.which("make"), reason="make not installed")

# a runner's Makefile in miniature: its output built from `source`, named after its bytes
MAKEFILE = """include ../cache.mk
CACHE := $(CB_CACHE)/demo
KEY = $(shell sha256sum source | cut -c1-24)
build:
\t@key=$(KEY); $(call cb_keep,$(CACHE)/out-$$key.jar,target/out.jar,$(BUILD),$(CACHE)/out-*.jar)
"""
BUILD = "mkdir -p target && cp source target/out.jar && echo built >> $$CALLS"


def _checkout(root: Path, source: str) -> Path:
    root.mkdir(parents=True)
    shutil.copy(CACHE_MK, root.parent / "cache.mk")
    (root / "Makefile").write_text(MAKEFILE)
    (root / "source").write_text(source)
    return root


def _build(folder: Path, tmp: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache"), "CALLS": str(tmp / "calls")}
    subprocess.run(["make", "-s", "build", f"BUILD={BUILD}"], cwd=folder, env=env, check=True)


def _builds(tmp: Path) -> int:
    calls = tmp / "calls"
    return len(calls.read_text().splitlines()) if calls.exists() else 0


def test_a_second_checkout_copies_the_kept_file_with_a_fresh_time(tmp_path):
    first = _checkout(tmp_path / "a" / "demo", "v1")
    _build(first, tmp_path)
    assert _builds(tmp_path) == 1
    kept = list((tmp_path / "cache" / "cryptobench" / "demo").iterdir())
    assert [p.name.startswith("out-") and p.suffix == ".jar" for p in kept] == [True]
    os.utime(kept[0], (1_000_000_000, 1_000_000_000))  # kept long ago

    second = _checkout(tmp_path / "b" / "demo", "v1")
    _build(second, tmp_path)
    assert _builds(tmp_path) == 1  # copied, not built
    out = second / "target" / "out.jar"
    assert out.read_text() == "v1"
    assert out.stat().st_mtime_ns >= (second / "source").stat().st_mtime_ns


def test_changed_sources_build_again_and_only_the_newest_three_are_kept(tmp_path):
    folder = _checkout(tmp_path / "a" / "demo", "v0")
    for i in range(5):
        (folder / "source").write_text(f"v{i}")
        _build(folder, tmp_path)
        assert (folder / "target" / "out.jar").read_text() == f"v{i}"
    assert _builds(tmp_path) == 5
    kept = sorted((tmp_path / "cache" / "cryptobench" / "demo").iterdir())
    assert len(kept) == 3
    assert sorted(p.read_text() for p in kept) == ["v2", "v3", "v4"]  # no temporary left

"""runners/cache.mk's cb_keep, the recipe the Java Makefile keeps its jar with (a file) and the
Node.js one its node_modules (a folder): a second checkout copies what the first built instead
of building it, the copy takes its own time (an output older than its sources reads as a stale
build to verify/cache.py), and only the newest KEEP are kept. A miniature Makefile for the file,
runners/node/Makefile itself for the folder, with a stand-in npm that records each call (the
real one is what `make setup` runs)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

RUNNERS = Path(__file__).resolve().parents[1] / "runners"
CACHE_MK = RUNNERS / "cache.mk"

pytestmark = pytest.mark.skipif(not shutil.which("make"), reason="make not installed")

# a runner's Makefile in miniature: its output built from `source`, named after its bytes
MAKEFILE = """include ../cache.mk
CACHE := $(CB_CACHE)/demo
KEY = $(shell sha256sum source | cut -c1-24)
build:
\t@key=$(KEY); $(call cb_keep,$(CACHE)/out-$$key.jar,target/out.jar,$(BUILD),$(CACHE)/out-*.jar)
"""
BUILD = "mkdir -p target && cp source target/out.jar && echo built >> $$CALLS"


FAKE_NPM = """#!/bin/sh
# stands in for npm: `--version`, or `ci` installing one package from the lock
[ "$1" = --version ] && { echo 11.0.0; exit 0; }
echo "$*" >> "$CALLS"
rm -rf node_modules && mkdir -p node_modules/pkg node_modules/.bin
cp package-lock.json node_modules/.package-lock.json
echo "installed from $(cat package-lock.json)" > node_modules/pkg/index.js
ln -s ../pkg/index.js node_modules/.bin/pkg
"""


def _checkout(root: Path, source: str) -> Path:
    root.mkdir(parents=True)
    shutil.copy(CACHE_MK, root.parent / "cache.mk")  # as in runners/
    (root / "Makefile").write_text(MAKEFILE)
    (root / "source").write_text(source)
    return root


def _node_checkout(root: Path, lock: str) -> Path:
    root.mkdir(parents=True)
    shutil.copy(RUNNERS / "node" / "Makefile", root / "Makefile")
    shutil.copy(CACHE_MK, root.parent / "cache.mk")
    (root / "package.json").write_text('{"name": "runner"}\n')
    (root / "package-lock.json").write_text(lock)
    return root


def _make(folder: Path, tmp: Path, var: str) -> None:
    """`make build` with the cache under ``tmp``, each build or npm call counted in tmp/calls."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache"), "CALLS": str(tmp / "calls")}
    subprocess.run(["make", "-s", "build", var], cwd=folder, env=env, check=True)


def _build(folder: Path, tmp: Path) -> None:
    _make(folder, tmp, f"BUILD={BUILD}")


def _npm_build(folder: Path, tmp: Path) -> None:
    npm = tmp / "npm"
    if not npm.exists():
        npm.write_text(FAKE_NPM)
        npm.chmod(0o755)
    _make(folder, tmp, f"NPM={npm}")


def _count(tmp: Path) -> int:
    calls = tmp / "calls"
    return len(calls.read_text().splitlines()) if calls.exists() else 0


def test_a_second_checkout_copies_the_kept_file_with_a_fresh_time(tmp_path):
    first = _checkout(tmp_path / "a" / "demo", "v1")
    _build(first, tmp_path)
    assert _count(tmp_path) == 1
    kept = list((tmp_path / "cache" / "cryptobench" / "demo").iterdir())
    assert [p.name.startswith("out-") and p.suffix == ".jar" for p in kept] == [True]
    os.utime(kept[0], (1_000_000_000, 1_000_000_000))  # kept long ago

    second = _checkout(tmp_path / "b" / "demo", "v1")
    _build(second, tmp_path)
    assert _count(tmp_path) == 1  # copied, not built
    out = second / "target" / "out.jar"
    assert out.read_text() == "v1"
    assert out.stat().st_mtime_ns >= (second / "source").stat().st_mtime_ns


def test_changed_sources_build_again_and_only_the_newest_three_are_kept(tmp_path):
    folder = _checkout(tmp_path / "a" / "demo", "v0")
    for i in range(5):
        (folder / "source").write_text(f"v{i}")
        _build(folder, tmp_path)
        assert (folder / "target" / "out.jar").read_text() == f"v{i}"
    assert _count(tmp_path) == 5
    kept = sorted((tmp_path / "cache" / "cryptobench" / "demo").iterdir())
    assert len(kept) == 3
    assert sorted(p.read_text() for p in kept) == ["v2", "v3", "v4"]  # no temporary left


def test_a_second_checkout_of_the_same_lock_copies_node_modules_without_npm(tmp_path):
    first = _node_checkout(tmp_path / "a", "lock 1\n")
    _npm_build(first, tmp_path)
    assert _count(tmp_path) == 1
    second = _node_checkout(tmp_path / "b", "lock 1\n")
    _npm_build(second, tmp_path)
    assert _count(tmp_path) == 1  # copied, npm not run
    assert (second / "node_modules/pkg/index.js").read_text() == "installed from lock 1\n"
    assert os.readlink(second / "node_modules/.bin/pkg") == "../pkg/index.js"  # still relative
    kept = list((tmp_path / "cache" / "cryptobench" / "node").iterdir())
    assert len(kept) == 1 and kept[0].name.startswith("node_modules-")


def test_a_changed_lock_runs_npm_again_and_only_the_newest_three_are_kept(tmp_path):
    folder = _node_checkout(tmp_path / "a", "lock 0\n")
    for n in range(5):
        (folder / "package-lock.json").write_text(f"lock {n}\n")
        _npm_build(folder, tmp_path)
        got = (folder / "node_modules/pkg/index.js").read_text()
        assert got == f"installed from lock {n}\n"
    assert _count(tmp_path) == 5
    assert len(list((tmp_path / "cache" / "cryptobench" / "node").iterdir())) == 3


def test_what_an_old_build_left_in_node_modules_does_not_survive_a_copy(tmp_path):
    _npm_build(_node_checkout(tmp_path / "a", "lock 1\n"), tmp_path)
    second = _node_checkout(tmp_path / "b", "lock 1\n")
    (second / "node_modules" / "stale").mkdir(parents=True)
    _npm_build(second, tmp_path)
    assert not (second / "node_modules" / "stale").exists()

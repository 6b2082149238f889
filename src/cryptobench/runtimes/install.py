"""Runners for an installed cryptobench (a wheel, pipx): their sources come in the package
(``paths.share_dir()/runners``) and are copied into the user's cache directory and built there
(``paths.cache_dir()/runners``), by `cryptobench setup` or on first use by `run`. A checkout
builds its runners in place with `make setup` instead (docs/install.md)."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError
from ..paths import cache_dir, installed, share_dir

STAMP = ".cryptobench-built"  # the sources' fingerprint, written once the build succeeded
BUILD_TIMEOUT = 40 * 60


@dataclass(frozen=True)
class Outcome:
    runtime: str
    ok: bool
    detail: str


def sources() -> Path:
    return share_dir() / "runners"


def names() -> list[str]:
    return sorted(p.parent.name for p in sources().glob("*/runner.toml"))


def fingerprint(folder: Path) -> str:
    """SHA-256 over every source file's path and bytes: a new version's sources rebuild."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def python_shim() -> None:
    """The python runner starts ``../../.venv/bin/python`` (a checkout's venv); in the cache
    that is this interpreter, so the runner sees the libraries installed next to cryptobench."""
    shim = cache_dir() / ".venv" / "bin" / "python"
    text = f'#!/bin/sh\nexec "{sys.executable}" "$@"\n'
    if not shim.exists() or shim.read_text() != text:
        shim.parent.mkdir(parents=True, exist_ok=True)
        shim.write_text(text)
        shim.chmod(0o755)


def _build(folder: Path, cmd: list[str]) -> str | None:
    """Runs the runner's build command in its folder; None, or the tail of the log."""
    log = folder / ".build.log"
    with open(log, "w") as fh:
        try:
            res = subprocess.run(
                cmd, cwd=folder, stdout=fh, stderr=subprocess.STDOUT, timeout=BUILD_TIMEOUT
            )
            if res.returncode == 0:
                return None
        except (OSError, subprocess.TimeoutExpired) as exc:
            fh.write(f"\n{exc}\n")
    tail = log.read_text(errors="replace").splitlines()[-8:]
    return f"build failed (log: {log}):\n    " + "\n    ".join(tail)


def setup_runner(name: str, say: Callable[[str], None]) -> Outcome:
    """Copy one runner into the cache (when its sources changed) and build it."""
    src, dst = sources() / name, cache_dir() / "runners" / name
    fp = fingerprint(src)
    stamp = dst / STAMP
    if stamp.exists() and stamp.read_text() == fp:
        return Outcome(name, True, f"up to date in {dst}")
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    python_shim()
    raw = tomllib.loads((dst / "runner.toml").read_text())
    missing = [t for t in raw.get("requires", []) if "/" not in t and not shutil.which(t)]
    if missing:
        return Outcome(name, False, f"{', '.join(missing)} not found (`cryptobench doctor`)")
    cmd = raw.get("setup", {}).get("build")
    if cmd:
        say(f"building the {name} runner in {dst}: {' '.join(cmd)}")
        failed = _build(dst, cmd)
        if failed:
            return Outcome(name, False, failed)
    stamp.write_text(fp)
    return Outcome(name, True, f"built in {dst}" if cmd else f"ready in {dst}")


def setup(wanted: list[str], say: Callable[[str], None]) -> list[Outcome]:
    """`cryptobench setup [RUNTIME...]`: the named runners (default: every one)."""
    if not installed():
        raise UsageError(
            "this cryptobench runs from a checkout (or CRYPTOBENCH_HOME): build its runners "
            "with `make setup` there"
        )
    valid = names()
    folders = [w.split("@")[0] for w in wanted] or valid
    unknown = sorted(set(folders) - set(valid))
    if unknown:
        raise UsageError(f"unknown runtime {', '.join(unknown)}: valid: {', '.join(valid)}")
    return [setup_runner(n, say) for n in dict.fromkeys(folders)]


def ensure(wanted: list[str], say: Callable[[str], None]) -> list[Outcome]:
    """On first use (installed only): set up the runners a run asks for that are not built
    yet, or whose sources changed with a new version. A checkout is left alone."""
    if not installed():
        return []
    valid = names()
    folders = [w.split("@")[0] for w in wanted] or valid
    return [setup_runner(n, say) for n in dict.fromkeys(folders) if n in valid]

"""Where things live: the project tree and the user's data directory."""

from __future__ import annotations

import os
from pathlib import Path


def project_root() -> Path:
    """The checkout holding catalog/, presets/, runners/ (override: CRYPTOBENCH_HOME)."""
    env = os.environ.get("CRYPTOBENCH_HOME")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2]


def runners_dir() -> Path:
    return Path(os.environ.get("CRYPTOBENCH_RUNNERS", project_root() / "runners"))


def default_db() -> Path | str:
    """$CRYPTOBENCH_DB (a path or a postgresql:// URL, kept as text), else
    $XDG_DATA_HOME/cryptobench/results.sqlite (~/.local/share/…)."""
    env = os.environ.get("CRYPTOBENCH_DB")
    if env:
        return env if "://" in env else Path(env)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "cryptobench" / "results.sqlite"


def lock_path() -> Path:
    """One lock per machine and user: two runs must never time at the same time."""
    env = os.environ.get("CRYPTOBENCH_LOCK")
    if env:
        return Path(env)
    return Path(os.environ.get("TMPDIR", "/tmp")) / f"cryptobench-{os.getuid()}.lock"

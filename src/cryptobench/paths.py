"""Where things live: the project tree and the user's data directory."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def share_dir() -> Path:
    """Where an installed wheel keeps catalog/, presets/, vectors/ and the runners' sources
    (setup.py copies them in; absent in a checkout)."""
    return Path(__file__).resolve().parent / "_share"


def installed() -> bool:
    """Running from an installed wheel rather than a checkout (or CRYPTOBENCH_HOME)."""
    return not os.environ.get("CRYPTOBENCH_HOME") and share_dir().is_dir()


def project_root() -> Path:
    """The checkout holding catalog/, presets/, runners/ (override: CRYPTOBENCH_HOME), or the
    installed package's copy of them."""
    env = os.environ.get("CRYPTOBENCH_HOME")
    if env:
        return Path(env)
    if share_dir().is_dir():
        return share_dir()
    return Path(__file__).resolve().parents[2]


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/cryptobench (~/.cache/cryptobench): where an installed cryptobench
    builds its runners (`cryptobench setup`), and where the runners' Makefiles
    (runners/cache.mk) and scripts/setup.py (which reads this function from this file) keep what
    a later checkout reuses."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cryptobench"


def runners_dir() -> Path:
    """$CRYPTOBENCH_RUNNERS, else the checkout's runners/, else (installed) the runners built
    into the cache directory."""
    env = os.environ.get("CRYPTOBENCH_RUNNERS")
    if env:
        return Path(env)
    return cache_dir() / "runners" if installed() else project_root() / "runners"


def default_db() -> Path | str:
    """$CRYPTOBENCH_DB (a path or a postgresql:// URL, kept as text), else
    $XDG_DATA_HOME/cryptobench/results.sqlite (~/.local/share/…)."""
    env = os.environ.get("CRYPTOBENCH_DB")
    if env:
        return env if "://" in env else Path(env)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "cryptobench" / "results.sqlite"


def runtime_dir() -> Path:
    """A directory of this user's own for the run lock: $XDG_RUNTIME_DIR/cryptobench where
    $XDG_RUNTIME_DIR is ours and closed to others, else $TMPDIR/cryptobench-UID (run.lock
    creates it 0700 and refuses it when it is a link or not ours)."""
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isabs(xdg):
        try:
            st = os.lstat(xdg)
        except OSError:
            st = None
        if st and stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o077:
            return Path(xdg) / "cryptobench"
    return Path(os.environ.get("TMPDIR") or "/tmp") / f"cryptobench-{os.geteuid()}"


def lock_path() -> Path:
    """One lock per machine and user: two runs must never time at the same time."""
    env = os.environ.get("CRYPTOBENCH_LOCK")
    if env:
        return Path(env)
    return runtime_dir() / "run.lock"


MAX_PRESET_BYTES = 1 << 20
MAX_RESULTS_BYTES = 1 << 30  # a whole store exported with its raw samples


class NotReadable(ValueError):
    """A user's file that is not read: not a regular file, too large, or not UTF-8."""


def read_text_limited(path, limit: int) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes. A device, a FIFO or a
    larger file is refused at once (NotReadable), never read forever; OSError as open's."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotReadable(f"{path}: not a regular file")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise NotReadable(f"{path}: larger than {limit // (1 << 20)} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotReadable(f"{path}: not UTF-8 text") from None

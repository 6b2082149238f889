"""Other users' runs on this machine. The lock is per user, so two users may time at once;
each run leaves a world-readable marker (pid, uid, start: nothing secret) in a shared directory
while it measures, and a run that sees another user's marker at its start or end says so in
its record and its summary (report.layout.method_note)."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path

from ..store import liveness

MAX_BYTES = 4096
PREFIX = "cryptobench-run-"


def shared_dir() -> Path:
    """Where every user's markers meet: $CRYPTOBENCH_MARKERS (tests), else /tmp."""
    return Path(os.environ.get("CRYPTOBENCH_MARKERS") or "/tmp")


def _create(path: Path, text: str) -> os.stat_result | None:
    """Write a new file (never through a link, never over someone else's); None if not."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except OSError:
        return None
    try:
        os.fchmod(fd, 0o644)  # readable by every user whatever the umask
        os.write(fd, text.encode())
        return os.fstat(fd)
    finally:
        os.close(fd)


class Marker:
    """This run's marker for as long as it measures (a context manager)."""

    def __init__(self, folder: Path | None = None):
        self.path = (folder or shared_dir()) / f"{PREFIX}{os.geteuid()}.json"
        self.stat: os.stat_result | None = None

    def __enter__(self):
        text = json.dumps({"pid": os.getpid(), "uid": os.geteuid(), "started": liveness.now_iso()})
        self.stat = _create(self.path, text)
        if self.stat is None and _ours(self.path):  # a stale one of ours: replace it
            with contextlib.suppress(OSError):
                self.path.unlink()
            self.stat = _create(self.path, text)
        return self

    def __exit__(self, *exc):
        if self.stat is None:
            return
        with contextlib.suppress(OSError):
            now = os.lstat(self.path)
            if (now.st_dev, now.st_ino) == (self.stat.st_dev, self.stat.st_ino):
                self.path.unlink()


def _ours(path: Path) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid()


def _read(path: Path) -> dict | None:
    """A marker of another user whose process is alive, else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid == os.geteuid():
            return None
        doc = json.loads(os.read(fd, MAX_BYTES))
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    if not isinstance(doc, dict) or doc.get("uid") != st.st_uid:
        return None  # a marker claiming another user than its owner: not believed
    pid = doc.get("pid")
    if not isinstance(pid, int) or pid <= 0 or not liveness.pid_alive(pid):
        return None
    return {"uid": st.st_uid, "pid": pid, "started": str(doc.get("started"))[:40]}


def others(folder: Path | None = None) -> list[dict]:
    """Other users' runs measuring on this machine now: [{uid, pid, started}]."""
    try:
        names = sorted(p for p in (folder or shared_dir()).glob(f"{PREFIX}*.json"))
    except OSError:
        return []
    return [m for p in names[:64] if (m := _read(p)) is not None]


def note(seen: list[dict]) -> str | None:
    """The line a run's summary gains when other users' runs measured alongside it."""
    if not seen:
        return None
    who = ", ".join(sorted({f"uid {m['uid']} (pid {m['pid']})" for m in seen}))
    return f"another user's cryptobench run was measuring at the same time: {who}"


def record(run: dict, folder: Path | None = None) -> str | None:
    """Add the other users' runs measuring now to ``run["other_users"]``; the summary line
    when this look found one not recorded before."""
    known = run.setdefault("other_users", [])
    new = [m for m in others(folder) if (m["uid"], m["pid"]) not in _keys(known)]
    known += new
    if not known:
        del run["other_users"]
    return note(new)


def _keys(seen: list[dict]) -> set[tuple]:
    return {(m["uid"], m["pid"]) for m in seen}

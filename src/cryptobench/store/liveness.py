"""Is a run that says ``running`` still running? The writer stores its host and pid with the
run and beats a heartbeat; a reader decides (docs/results.md, "Interrupted runs").

- same host: the pid is gone → interrupted (kill -9, a crash, a power cut);
- any host: no heartbeat for ``LEASE_S`` → interrupted (also catches a reused pid);
- otherwise: running (on another host: "running on HOST").
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import socket
import threading
from collections.abc import Callable

HEARTBEAT_S = 30.0  # how often a run's writer says it is alive
LEASE_S = 300.0  # silence after which a run counts as interrupted (10 missed beats)


def utcnow() -> dt.datetime:
    """The one clock of liveness: every stamp written and every reading of one (a test moves
    it to see a long run without waiting for it)."""
    return dt.datetime.now(dt.UTC)


def now_iso() -> str:
    return utcnow().isoformat(timespec="seconds")


def this_host() -> str:
    return socket.gethostname()


def process() -> dict:
    """What a run stores about its writer."""
    return {"host": this_host(), "pid": os.getpid()}


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _age_s(stamp: str | None, now: dt.datetime) -> float | None:
    if not stamp:
        return None
    try:
        t = dt.datetime.fromisoformat(stamp)
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.UTC)
    return (now - t).total_seconds()


def status(run: dict, host, pid, heartbeat, now: dt.datetime | None = None):
    """(status, detail or None) of a stored run as a reader sees it now."""
    if run.get("status") != "running":
        return run.get("status"), None
    now = now or utcnow()
    age = _age_s(heartbeat, now)
    if host == this_host() and pid is not None and not pid_alive(int(pid)):
        return "interrupted", f"its process {pid} on {host} is gone"
    if age is not None and age > LEASE_S:
        return "interrupted", f"no heartbeat from {host or 'its writer'} since {heartbeat}"
    if host and host != this_host():
        return "running", f"running on {host}"
    return "running", None


class CaseBeats:
    """The beat a stored case gives (docs/results.md: every stored case beats the heartbeat):
    at most one per ``HEARTBEAT_S`` of the liveness clock, so that a run storing a case every
    few milliseconds adds no write per case."""

    def __init__(self, beat: Callable[[str], None], every: float = HEARTBEAT_S):
        self.beat, self.every = beat, every
        self._last: dict[str, dt.datetime] = {}

    def __call__(self, run_id: str) -> None:
        now, last = utcnow(), self._last.get(run_id)
        if last is None or (now - last).total_seconds() >= self.every:
            self.beat(run_id)
            self._last[run_id] = now


class Heartbeat:
    """A daemon thread that beats ``beat()`` every ``HEARTBEAT_S`` until stopped; a failed
    beat is skipped (the next one may get through), never fatal to the run."""

    def __init__(self, beat: Callable[[], None], every: float = HEARTBEAT_S):
        self.beat, self.every = beat, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="heartbeat", daemon=True)

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            with contextlib.suppress(Exception):  # a store hiccup must not end the run
                self.beat()

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=5)

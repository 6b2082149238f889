"""One run's life, the same for `run`, `calibrate` and `leak` (docs/architecture.md):

- the runtimes are stopped at the end whatever happens (``stopping``);
- the run lock and this run's marker for other users (run/lock.py, run/neighbours.py);
- the document carries the machine's fingerprint and identity (host, label, machine id) and
  the writer's process (``document``), so `machines` and `runs --machine` find every run;
- ``begin`` stores it and starts the heartbeat; every case stored through ``Lifecycle.store``
  beats it too (store/liveness.py), so a live run never reads as interrupted;
- at the end the run is finished (load and steal while it ran, other users' runs) and
  written a last time; a store that stopped taking writes marks it failed where it can.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator

from rich.console import Console

from .. import stats
from ..errors import DataError
from ..results import document as results
from ..results import identity, machine
from ..runtimes.protocol import reap_exiting
from ..store import liveness
from ..store.sql import RunStore, StoreLost
from ..store.sqlite import open_store
from . import neighbours
from .lock import RunLock


def earlier_runs(store, run_doc: dict) -> list[dict]:
    """This machine's complete runs other than this one, newest first (store.complete_runs):
    what a run's estimate (run/pipeline._go_on_seen) and ``fastest_probe`` read."""
    mine = store.complete_runs(run_doc["machine"].get("machine_id"))
    return [r for r in mine if r["id"] != run_doc["id"]]


# the probe is Python's hashlib on this CPU: runs of another CPU model under the same machine
# id (a VM image cloned with its machine-id) or another Python are not its reference
PROBE_SAME = ("cpu_model", "python")


def fastest_probe(earlier: list[dict], machine: dict | None = None) -> dict | None:
    """The fastest drift probe of this machine's earlier complete runs (``earlier``, newest
    first: store.complete_runs) whose ``machine`` fingerprint has the same PROBE_SAME, by each
    run's probe level (stats.probe_level), with the run it came from; None where no run here
    has one. A run whose probe reads more than 1 + stats.BUSY_SPREAD times it is said to run
    on a machine slower than it has been (results/probe.slowed): `run` and `calibrate` alike."""
    best, machine = None, machine or {}
    for run in earlier:
        theirs = run.get("machine") or {}
        if any(theirs.get(k) != machine.get(k) for k in PROBE_SAME):
            continue
        level = stats.probe_level(run.get("probes") or [])
        if level and (best is None or level < best["ns"]):
            best = {"ns": round(level, 1), "run": run["id"], "started": run.get("started")}
    return best


@contextlib.contextmanager
def stopping(runtimes: Callable[[], Iterable]) -> Iterator[None]:
    """Every runtime ``runtimes()`` names at the end (each once) is stopped, whatever
    happened meanwhile (a planning error, a refused lock, Ctrl-C)."""
    try:
        yield
    finally:
        seen: set[int] = set()
        for rt in runtimes():
            if id(rt) not in seen:
                seen.add(id(rt))
                rt.stop()
        reap_exiting()  # a group's process that was ending while the run stopped


def document(command: str, preset, seed: int, settings: dict, live, skipped, **who) -> dict:
    """A new run document (results.start) with this machine's fingerprint and identity
    (``label``: --machine-label, else $CRYPTOBENCH_MACHINE_LABEL) and the writer's process;
    ``name``: the run's name, if any."""
    fingerprint = {**machine.fingerprint(), **identity.identity(who.get("label"))}
    doc = results.start(
        command, preset, seed, settings, fingerprint, machine.git_commit(), live, skipped
    )
    doc["name"], doc["process"] = who.get("name"), liveness.process()
    return doc


class BeatingStore:
    """The store a run writes through: the store itself, but every stored case also beats
    the run's heartbeat (liveness.CaseBeats)."""

    def __init__(self, store: RunStore):
        self.inner = store
        self.beats = liveness.CaseBeats(store.heartbeat)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def put_case(self, run_id: str, seq: int, result: dict) -> None:
        self.inner.put_case(run_id, seq, result)
        self.beats(run_id)


def _beat(db, run_id: str) -> Callable[[], None]:
    """The heartbeat thread's beat: its own connection (opened in its thread), one UPDATE."""
    own: list[RunStore] = []

    def beat() -> None:
        if not own:
            own.append(open_store(db))
        own[0].heartbeat(run_id)

    return beat


class Lifecycle:
    """One run from the lock to its last write: ``with life:`` takes the lock, ``begin``
    stores the document and starts the heartbeat, leaving the block finishes the run.
    ``keep_interrupted``: Ctrl-C ends the run "interrupted" and the command goes on to show
    what it kept (``interrupted``); else the KeyboardInterrupt goes on up (after the run is
    closed all the same)."""

    def __init__(self, db, console: Console, wait: bool = False, keep_interrupted: bool = True):
        self.db, self.console, self.wait = db, console, wait
        self.keep_interrupted = keep_interrupted
        self.store = BeatingStore(open_store(db))  # a bad --db: refused before anything starts
        self.run: dict | None = None
        self.interrupted = False
        self._held = contextlib.ExitStack()
        self._cpu0, self._load0 = None, 0.0

    def __enter__(self) -> Lifecycle:
        with contextlib.ExitStack() as stack:
            stack.enter_context(RunLock(wait=self.wait))
            stack.enter_context(neighbours.Marker())
            self._held = stack.pop_all()
        return self

    def begin(self, run_doc: dict, announce: Callable[[dict], None] | None = None) -> dict:
        """Store the new run (``document``), say so (``announce``) and start its heartbeat."""
        self.store.begin_run(run_doc)
        self.run = run_doc
        self._cpu0, self._load0 = machine.cpu_times(), os.getloadavg()[0]
        if announce is not None:
            announce(run_doc)
        self._note_others()
        self._held.enter_context(liveness.Heartbeat(_beat(self.db, run_doc["id"])))
        return run_doc

    def __exit__(self, kind, exc, tb) -> bool:
        try:
            if self.run is not None:
                self._finish(exc)
        finally:
            self._held.close()  # the heartbeat, the marker, the lock
        self.interrupted = kind is KeyboardInterrupt
        return self.interrupted and self.keep_interrupted

    def _finish(self, failure: BaseException | None) -> None:
        """Close the run (interrupted by any exception) and write it a last time; a store
        that stopped taking writes (StoreLost: a full disk, a server gone) marks it failed
        where it still can, and its error goes on to the user."""
        steal = machine.steal_fraction(self._cpu0, machine.cpu_times())
        results.finish(self.run, failure is not None, steal, self._load0)
        self._note_others()
        if not isinstance(failure, StoreLost):
            self.store.update_run(self.run)
            return
        self.run["status"], self.run["status_detail"] = "failed", failure.reason
        with contextlib.suppress(DataError):
            self.store.update_run(self.run)

    def _note_others(self) -> None:
        """Another user's run measuring at our start or end (the lock is per user): recorded
        in the run, said now and in its summary."""
        line = neighbours.record(self.run)
        if line:
            self.console.print(line, markup=False)

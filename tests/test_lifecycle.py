"""One run lifecycle for `run`, `calibrate` and `leak` (run/lifecycle.py): every run carries its
machine and process, and a stored case beats the heartbeat, so a live run never reads as
interrupted however long it runs. `leak` in process with a fake runtime and a fake clock (no
runner, no timing); `calibrate` through the CLI on the fake KDF runner."""

from __future__ import annotations

import datetime as dt
import json
import os
from types import SimpleNamespace

import pytest
from rich.console import Console

from cryptobench.leak import command as leak
from cryptobench.store import liveness
from cryptobench.store.sqlite import open_store
from tests.conftest import cli
from tests.test_answers import kdf_runner  # noqa: F401 (the fixture)

CASE_S = liveness.LEASE_S + 1  # each fake leak case "takes" longer than the lease


class FakeRuntime:
    id = key = "fake"
    info = {"name": "fake", "version": "1"}
    implementations: list = []

    def __init__(self):
        self.stops = 0

    def stop(self) -> None:
        self.stops += 1


class Clock:
    """The liveness clock, moved by hand."""

    def __init__(self):
        self.now = dt.datetime.now(dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now


def _row(n: int) -> dict:
    return {
        "runtime": "fake",
        "implementation": "fake/control",
        "library": "control",
        "primitive": f"p{n}",
        "family": "control",
        "operation": "leak",
        "size": 0,
        "params": {},
        "status": "ok",
        "error": None,
        "flags": [],
        "n_samples": 10,
        "leak": {"target": "compare", "verdict": "no leak detected"},
    }


def _read(db) -> tuple[dict, str]:
    """The run as a reader sees it now, and its stored heartbeat."""
    store = open_store(db, create=False)
    try:
        (run,) = store.runs()
        return run, store._exec("SELECT heartbeat FROM runs").fetchone()[0]
    finally:
        store.close()


@pytest.fixture
def fake_leak(monkeypatch, tmp_path):
    """`leak` over three fake targets on a fake runtime; ``seen``: what a reader of the store
    saw before each case after the first (``silent``: after a further lease without a case)."""
    clock, rt = Clock(), FakeRuntime()
    got = SimpleNamespace(rt=rt, seen=[], silent=False, db=tmp_path / "results.sqlite")
    monkeypatch.setattr(liveness, "utcnow", clock)
    monkeypatch.setenv("CRYPTOBENCH_MACHINE_LABEL", "leak-box")
    monkeypatch.setattr(leak, "open_runtimes", lambda *a, **k: ([rt], []))
    targets = [SimpleNamespace(impl=None, n=n) for n in range(3)]
    monkeypatch.setattr(leak, "plan_targets", lambda *a: targets)

    def measure(t, cat, req):
        if t.n:  # a reader: the last case was stored just now, the run began long ago
            if got.silent:
                clock.now += dt.timedelta(seconds=CASE_S)
            got.seen.append((*_read(got.db), liveness.now_iso()))
        clock.now += dt.timedelta(seconds=CASE_S)
        return _row(t.n)

    monkeypatch.setattr(leak, "measure", measure)
    got.req = leak.LeakRequest(command="cryptobench leak", db=got.db, seed=1)
    return got


def _quiet() -> Console:
    return Console(file=open(os.devnull, "w"))  # noqa: SIM115


def test_a_leak_run_reads_running_past_the_lease_and_carries_its_machine(fake_leak):
    done = leak.run(fake_leak.req, _quiet())
    assert len(fake_leak.seen) == 2
    for k, (run, beat, now) in enumerate(fake_leak.seen, start=1):
        assert run["status"] == "running", run.get("status_detail")
        assert beat == now  # beaten by the case stored k × (lease + 1 s) after the start
        assert run["n_cases"] == k
    assert done.run["status"] == "complete" and len(done.results) == 3
    assert done.run["process"] == {"host": liveness.this_host(), "pid": os.getpid()}
    m = done.run["machine"]
    assert m["label"] == "leak-box" and m["machine_id"] and m["hostname"]
    assert fake_leak.rt.stops >= 1  # the runtimes are stopped at the end
    listed = cli("runs", "--db", str(fake_leak.db), "--machine", "leak-box", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert [r["id"] for r in json.loads(listed.stdout)["runs"]] == [done.run["id"]]


def test_a_lease_without_a_stored_case_or_a_beat_reads_interrupted(fake_leak):
    """The reader uses the same (fake) clock: silence past the lease is an interruption."""
    fake_leak.silent = True
    leak.run(fake_leak.req, _quiet())
    for run, _, _ in fake_leak.seen:
        assert run["status"] == "interrupted" and "no heartbeat" in run["status_detail"]


def test_ctrl_c_closes_a_leak_run_as_interrupted_and_stops_the_command(fake_leak, monkeypatch):
    def stopped(t, cat, req):
        if t.n:
            raise KeyboardInterrupt
        return _row(t.n)

    monkeypatch.setattr(leak, "measure", stopped)
    with pytest.raises(KeyboardInterrupt):
        leak.run(fake_leak.req, _quiet())
    run, cases = open_store(fake_leak.db, create=False).load("last")
    assert run["status"] == "interrupted" and len(cases) == 1
    assert fake_leak.rt.stops >= 1


def test_a_stored_case_beats_at_most_once_per_heartbeat_period(monkeypatch):
    clock, beats = Clock(), []
    monkeypatch.setattr(liveness, "utcnow", clock)
    case_beats = liveness.CaseBeats(beats.append)
    for _ in range(3):
        case_beats("r")
    clock.now += dt.timedelta(seconds=liveness.HEARTBEAT_S)
    case_beats("r")
    case_beats("other")
    assert beats == ["r", "r", "other"]


def test_a_calibrate_run_carries_its_machine_and_process(kdf_runner):  # noqa: F811
    label = {"CRYPTOBENCH_MACHINE_LABEL": "calib-box"}
    args = ("calibrate", "pbkdf2-sha256", "--target", "5ms", "--time-budget", "0.001s")
    res = cli(*args, "--format", "json", env=label)
    assert res.returncode == 0, res.stderr
    run = json.loads(res.stdout)["run"]
    assert run["operation"] == "calibrate" and run["process"]["pid"] > 0
    listed = cli("runs", "--machine", "calib-box", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    (found,) = json.loads(listed.stdout)["runs"]
    assert found["id"] == run["id"] and found["status"] == "complete"
    machines = json.loads(cli("machines", "--format", "json").stdout)["machines"]
    assert [(m["label"], m["runs"]) for m in machines] == [("calib-box", 1)]

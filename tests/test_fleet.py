"""Several machines, one PostgreSQL store: the CLI end to end, through subprocesses."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from .conftest import ROOT

SIZES = ["--size", "64", "--size", "128"]
FAST = ["--primitive", "sha256", *SIZES, "--time-per-case", "0.05", "--rounds", "2"]


def _popen(args, env=None):
    return subprocess.Popen(
        [sys.executable, "-m", "cryptobench", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


def _runs(run_cli, db, *extra):
    proc = run_cli("runs", "--db", db, "--format", "json", *extra)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["runs"]


def _cases(run_cli, db, ref):
    proc = run_cli("show", ref, "--db", db, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"]


def test_two_machines_write_one_postgresql_at_once(fakes, run_cli, pg_url, tmp_path):
    fakes("ok")
    procs = [  # two "machines": each its own label and its own run lock
        _popen(
            ["run", *FAST, "--db", pg_url, "--machine-label", label, "--format", "json"],
            env={"CRYPTOBENCH_LOCK": str(tmp_path / f"{label}.lock")},
        )
        for label in ("c7i.large", "m7g.large")
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e for _, e in outs]
    runs = _runs(run_cli, pg_url)
    assert sorted(r["machine"]["label"] for r in runs) == ["c7i.large", "m7g.large"]
    assert [r["status"] for r in runs] == ["complete", "complete"]
    for r in runs:
        stored = _cases(run_cli, pg_url, r["id"])
        measured = {(c["implementation"], c["size"]) for c in stored if c["status"] == "ok"}
        assert {("fake-ok/fakelib", 64), ("fake-ok/fakelib", 128)} <= measured
        assert all(
            c["rounds_planned"] == 2 and len(c["rounds"]) == 2
            for c in stored
            if c["status"] == "ok"
        )
    (only,) = _runs(run_cli, pg_url, "--machine", "m7g.large")
    assert only["machine"]["label"] == "m7g.large"


def test_kill_9_keeps_finished_cases_and_the_run_reads_interrupted(fakes, run_cli, pg_url):
    import psycopg

    fakes("slow")
    sizes = [a for s in (64, 128, 256, 512) for a in ("--size", str(s))]
    proc = _popen(
        ["run", "--primitive", "sha256", *sizes, "--time-per-case", "0.5", "--db", pg_url]
    )
    deadline, n = time.monotonic() + 120, 0
    while time.monotonic() < deadline and n < 2:  # wait until two cases are stored
        time.sleep(0.2)
        try:
            with psycopg.connect(pg_url) as conn:
                n = conn.execute("SELECT COUNT(*) FROM cases").fetchone()[0]
        except psycopg.Error:
            n = 0
    assert n >= 2, "no case was stored in time"
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)  # reaped: its pid is gone
    (run,) = _runs(run_cli, pg_url)
    assert run["status"] == "interrupted" and "is gone" in run["status_detail"]
    assert run["n_cases"] >= 2
    table = run_cli("runs", "--db", pg_url)
    assert "interrupted" in table.stdout
    stored = _cases(run_cli, pg_url, run["id"])
    assert len(stored) >= 2 and all(c["status"] in ("ok", "failed", "skipped") for c in stored)


@pytest.mark.parametrize(
    "args",
    [
        ["runs"],
        ["show", "last"],
        ["compare", "a", "b"],
        ["report", "--html", "out.html"],
        ["export", "last"],
        ["export", "--all"],
        ["machines"],
        ["history", "fake-ok/fakelib:sha256"],
    ],
)
def test_a_read_command_on_a_missing_store_says_so(run_cli, tmp_path, args):
    db = tmp_path / "no" / "such" / "dir" / "x.sqlite"
    proc = run_cli(*args, "--db", str(db))
    assert proc.returncode == 2, proc.stderr
    assert "no store at" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "no").exists()

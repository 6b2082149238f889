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


FIXED = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05", "--rounds", "2"]


def _slower(doc: dict, run_id: str, factor: float) -> dict:
    """The run as if measured again, ``factor`` slower in every round (a new run id)."""
    out = json.loads(json.dumps(doc))
    out["run"]["id"], out["run"]["name"] = run_id, None
    out["run"]["started"] = "2099-01-01T00:00:00+00:00"
    for r in out["results"]:
        for x in r.get("rounds") or []:
            for k in ("median_ns", "ci_low_ns", "ci_high_ns"):
                x[k] *= factor * (1 + 0.001 * x["round"])
        if r["status"] == "ok":
            for k in ("median_ns", "ci_low_ns", "ci_high_ns"):
                r[k] *= factor
    return out


def test_names_machines_history_and_n_way_compare(fakes, run_cli, tmp_path):
    fakes("fixed")
    for name in ("base", "again"):
        proc = run_cli("run", *FIXED, "--name", name, "--machine-label", "box-a")
        assert proc.returncode == 0, proc.stderr
    dup = run_cli("run", *FIXED, "--name", "base", "--machine-label", "box-a")
    assert dup.returncode == 2 and "already exists for machine 'box-a'" in dup.stderr
    bad = run_cli("run", *FIXED, "--name", "last")
    assert bad.returncode == 2 and "a name is 1–64" in bad.stderr
    shown = json.loads(run_cli("show", "base", "--format", "json").stdout)
    assert shown["run"]["name"] == "base" and shown["machine"]["label"] == "box-a"
    assert shown["machine"]["hostname"] and len(shown["machine"]["machine_id"]) == 16
    slow = tmp_path / "slow.json"
    slow.write_text(json.dumps(_slower(shown, "5" * 32, 1.5)))
    assert run_cli("import", str(slow)).returncode == 0

    hist = run_cli("history", "fake-fixed/fakelib:sha256")
    assert hist.returncode == 0, hist.stderr
    assert "fake-fixed/fakelib sha256 digest 64 B on box-a" in hist.stdout
    rows = [ln for ln in hist.stdout.splitlines() if "│" in ln and "ns/op" not in ln]
    assert len(rows) == 3 and "slower ×1.5" in rows[-1] and "~" in rows[1]
    doc = json.loads(run_cli("history", "fake-fixed/*:sha256:digest:64", "--format", "json").stdout)
    (series,) = doc["history"]
    assert [p["run_label"] for p in series["points"]] == ["base", "again", "55555555"]
    assert run_cli("history", "nonsense").returncode == 2

    cmp = run_cli("compare", "base", "again", "55555555")
    assert cmp.returncode == 0, cmp.stderr
    assert "== again against base" in cmp.stdout and "== 55555555 against base" in cmp.stdout
    both = json.loads(run_cli("compare", "base", "again", "5555", "--format", "json").stdout)
    assert both["baseline"] == "base" and len(both["comparisons"]) == 2

    listed = json.loads(run_cli("machines", "--format", "json").stdout)["machines"]
    assert [(m["label"], m["runs"]) for m in listed] == [("box-a", 3)]
    assert "box-a" in run_cli("machines").stdout
    assert _runs(run_cli, os.environ["CRYPTOBENCH_DB"], "--machine", "nope") == []


def test_a_whole_store_moves_between_sqlite_and_postgresql(fakes, run_cli, pg_url, tmp_path):
    fakes("fixed")
    for label in ("box-a", "box-b"):
        assert run_cli("run", *FIXED, "--machine-label", label).returncode == 0
    dump = tmp_path / "all.json"
    out = run_cli("export", "--all", "--output", str(dump))
    assert out.returncode == 0 and "exported 2 runs" in out.stderr
    first = run_cli("import", str(dump), "--db", pg_url)
    assert first.returncode == 0 and "imported 2 runs" in first.stderr
    assert len(first.stdout.split()) == 2
    again = run_cli("import", str(dump), "--db", pg_url)
    assert again.returncode == 0 and "imported 0 runs (0 cases)" in again.stderr
    assert "2 already there" in again.stderr
    back = tmp_path / "back.json"
    assert run_cli("export", "--all", "--db", pg_url, "--output", str(back)).returncode == 0
    assert json.loads(back.read_text()) == json.loads(dump.read_text())
    assert run_cli("export", "last", "--all").returncode == 2

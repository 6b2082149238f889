"""Fault tests: misbehaving runners are reported, their cases fail, the run goes on, and
nothing already measured is lost (fake runners in tests/fakes)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys

import pytest

from .conftest import ROOT

FAST = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05", "--format", "json"]


def results(proc) -> dict:
    doc = json.loads(proc.stdout)
    return {r["implementation"]: r for r in doc["results"] if r["family"] != "noop"}


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash", "runner crashed"),
        ("hang", "runner timeout"),
        ("garbage", "runner garbage"),
        ("wrong", "verification failed"),
    ],
)
def test_bad_runner_fails_its_cases_and_the_run_goes_on(fakes, run_cli, mode, reason):
    fakes("ok", mode)
    proc = run_cli("run", *FAST, "--timeout", "3")
    assert proc.returncode == 1, proc.stderr
    got = results(proc)
    assert got["fake-ok/fakelib"]["status"] == "ok"
    assert got["fake-ok/fakelib"]["verified"] is True
    bad = got[f"fake-{mode}/fakelib"]
    assert bad["status"] == "failed"
    assert reason in bad["error"]
    assert "Traceback" not in proc.stderr
    if mode == "hang":  # one --timeout, not one in each of the 8 rounds
        assert bad["error"].count("runner timeout") == 1, bad["error"]
        assert bad["error"].endswith("; not asked again in later rounds")


def test_wrong_output_is_never_timed(fakes, run_cli):
    fakes("ok", "wrong")
    bad = results(run_cli("run", *FAST))["fake-wrong/fakelib"]
    assert bad["median_ns"] is None and bad["samples"] == []
    assert "disagrees" in bad["error"] or "known answer" in bad["error"]


def test_runner_exiting_at_hello_is_reported_and_others_run(fakes, run_cli):
    fakes("ok", "hello-exit")
    proc = run_cli("run", *FAST)
    assert "fake-hello-exit" in proc.stderr and "failed at hello" in proc.stderr
    assert results(proc)["fake-ok/fakelib"]["status"] == "ok"


def test_slow_start_is_waited_for(fakes, run_cli):
    fakes("ok", "slow-start")  # one round: every round's fresh processes would wait 2 s again
    got = results(run_cli("run", *FAST, "--rounds", "1"))
    assert got["fake-slow-start/fakelib"]["status"] == "ok"


def test_fixed_samples_give_exact_numbers(fakes, run_cli):
    fakes("fixed")
    r = results(run_cli("run", *FAST))["fake-fixed/fakelib"]
    assert r["median_ns"] == 1000.0 and r["precision"] == 0.0
    assert r["throughput_mb_s"] == pytest.approx(64.0)  # 64 B per µs
    assert r["n_samples"] >= 10


def test_a_runner_dying_in_round_2_keeps_round_1(fakes, run_cli, isolated):
    fakes("late-crash", env={"FAKE_STARTS_FILE": str(isolated / "starts")})
    proc = run_cli("run", *FAST, "--rounds", "3")
    r = results(proc)["fake-late-crash/fakelib"]
    assert r["status"] == "ok" and [x["round"] for x in r["rounds"]] == [1]
    assert r["rounds_planned"] == 3 and "measured in 1 of 3 rounds" in r["flags"]
    assert any(f.startswith("round 2: runner crashed") for f in r["flags"])
    assert r["median_ns"] == r["rounds"][0]["median_ns"]


def test_every_case_is_stored_even_when_a_runner_crashes(fakes, run_cli, isolated):
    fakes("ok", "crash")
    run_cli("run", *FAST)
    db = sqlite3.connect(isolated / "results.sqlite")
    statuses = sorted(s for (s,) in db.execute("SELECT status FROM cases"))
    assert statuses.count("ok") >= 1 and "failed" in statuses


def test_ctrl_c_keeps_finished_cases_and_leaves_no_runner(fakes, isolated):
    pids = isolated / "pids"
    fakes("slow", env={"FAKE_PID_FILE": str(pids)})
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cryptobench",
            "run",
            "--primitive",
            "sha256",
            "--size",
            "64",
            "--size",
            "128",
            "--size",
            "256",
            "--size",
            "512",
            "--time-per-case",
            "0.5",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a shell's background job ignores SIGINT and Python keeps an inherited SIG_IGN: the
        # run must get the default, as from a terminal's Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    db_path = isolated / "results.sqlite"
    # a case is stored before its progress line is printed: after "[2/" two cases (noop + one)
    # are, with 38 steps still to run (polling the store instead raced the run's end on a
    # loaded machine: the interrupt arrived after the last step)
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.startswith("[2/"):
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    err = "".join(seen) + err
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    db = sqlite3.connect(db_path)
    assert db.execute("SELECT COUNT(*) FROM cases").fetchone()[0] >= 2
    assert db.execute("SELECT status FROM runs").fetchone()[0] == "interrupted"
    for pid in pids.read_text().split():
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)

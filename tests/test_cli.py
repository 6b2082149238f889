"""The CLI end to end: exit codes, stdout ownership, clear errors for bad input."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import jsonschema
import pytest

import cryptobench
from cryptobench.run.lock import RunLock

SCHEMA = Path(cryptobench.__file__).parent / "results" / "results.schema.json"
FAST = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05"]


def no_traceback(proc):
    assert "Traceback" not in proc.stderr + proc.stdout
    return proc


@pytest.mark.parametrize(
    ("args", "listed"),
    [
        (["run", "--runtime", "cobol"], "valid: fake-ok"),
        (["run", "--primitive", "sha257"], "valid: adler32"),
        (["run", "--preset", "nope"], "valid: "),
        (["run", "--primitive", "sha256", "--param", "colour=blue"], "valid: "),
        (["run", "--impl", "fake-ok/nolib", "--primitive", "sha256"], "valid: fake-ok/fakelib"),
        (["run", "--primitive", "sha256", "--operation", "bake"], "valid: digest"),
        (
            [
                "compute",
                "--impl",
                "fake-ok/fakelib",
                "--primitive",
                "sha256",
                "--operation",
                "digest",
                "--msg",
                "xyz",
            ],
            "must be hex",
        ),
        (
            ["compute", "--impl", "fake-ok/zzz", "--primitive", "sha256", "--operation", "digest"],
            "valid: fake-ok/fakelib",
        ),
        (
            [
                "compute",
                "--impl",
                "fake-ok/fakelib",
                "--primitive",
                "sha256",
                "--operation",
                "seal",
            ],
            "operations digest",
        ),
        (["show", "no-such-run"], "no store at"),
        (["verify", "--runtime", "cobol"], "valid: fake-ok"),
    ],
)
def test_bad_input_exits_2_listing_valid_values(fakes, run_cli, args, listed):
    fakes("ok")
    proc = no_traceback(run_cli(*args))
    assert proc.returncode == 2, proc.stderr
    assert listed in proc.stderr
    assert proc.stdout == ""


def test_click_usage_errors_exit_2(run_cli):
    proc = no_traceback(run_cli("run", "--size", "-5"))
    assert proc.returncode == 2 and "--size" in proc.stderr


def test_compute_prints_only_the_output(fakes, run_cli):
    fakes("ok")
    proc = run_cli(
        "compute",
        "--impl",
        "fake-ok/fakelib",
        "--primitive",
        "sha256",
        "--operation",
        "digest",
        "--msg",
        "616263",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n"


def test_json_owns_stdout_progress_goes_to_stderr(fakes, run_cli):
    fakes("ok")
    proc = run_cli("run", *FAST, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["schema"] == "cryptobench/results/v2"
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    assert "cases" in proc.stderr  # the plan line
    (r,) = [r for r in doc["results"] if r["primitive"] == "sha256"]
    for key in (
        "runtime",
        "implementation",
        "library_version",
        "backend",
        "primitive",
        "operation",
        "size",
        "params",
        "status",
        "error",
        "median_ns",
        "ci_low_ns",
        "ci_high_ns",
        "precision",
        "throughput_mb_s",
        "n_samples",
        "samples",
    ):
        assert key in r
    assert r["ci_low_ns"] <= r["median_ns"] <= r["ci_high_ns"]
    assert len(r["samples"]) == r["n_samples"]
    assert doc["run"]["seed"] is not None and doc["run"]["command"].startswith("cryptobench run")
    assert doc["machine"]["cpu_model"]


@pytest.mark.parametrize("fmt", ["table", "csv", "markdown"])
def test_every_format_renders_a_run(fakes, run_cli, fmt):
    fakes("ok")
    proc = run_cli("run", *FAST, "--format", fmt)
    assert proc.returncode == 0, proc.stderr
    assert "sha256" in proc.stdout and "fake-ok/fakelib" in proc.stdout


def test_runs_and_show_read_the_store(fakes, run_cli):
    fakes("ok")
    run_cli("run", *FAST)
    runs = json.loads(run_cli("runs", "--format", "json").stdout)["runs"]
    assert len(runs) == 1 and runs[0]["status"] == "complete"
    shown = run_cli("show", runs[0]["id"][:8], "--format", "csv")
    assert shown.returncode == 0 and "fake-ok/fakelib" in shown.stdout
    assert run_cli("show", "last", "--format", "json").returncode == 0


def test_corrupt_database_is_a_clear_error(fakes, run_cli, tmp_path):
    fakes("ok")
    bad = tmp_path / "corrupt.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    proc = no_traceback(run_cli("runs", "--db", str(bad)))
    assert proc.returncode == 1 and "not a usable cryptobench database" in proc.stderr


def test_foreign_database_is_refused(fakes, run_cli, tmp_path):
    foreign = tmp_path / "other.sqlite"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE stuff (x)")
    db.commit()
    db.close()
    proc = no_traceback(run_cli("runs", "--db", str(foreign)))
    assert proc.returncode == 1 and "another application" in proc.stderr


def test_unwritable_database_is_a_clear_error(fakes, run_cli, tmp_path):
    fakes("ok")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = no_traceback(run_cli("run", *FAST, "--db", str(blocker / "sub" / "r.sqlite")))
    assert proc.returncode == 1 and "cannot open the database" in proc.stderr


def test_two_runs_never_overlap(fakes, run_cli, isolated):
    fakes("ok")
    with RunLock(isolated / "run.lock"):
        proc = no_traceback(run_cli("run", *FAST))
    assert proc.returncode == 1 and "another cryptobench run" in proc.stderr


def test_skipped_runtime_is_one_line_not_a_failure(fakes, run_cli, tmp_path):
    runners = fakes("ok")
    missing = runners / "ghost"
    missing.mkdir()
    (missing / "runner.toml").write_text(
        'schema = 1\nruntime = "ghost"\nrequires = ["no-such-toolchain-xyz"]\n'
        '[run]\ncommand = ["bin/ghost"]\nartifacts = ["bin/ghost"]\n'
    )
    proc = no_traceback(run_cli("run", *FAST))
    assert proc.returncode == 0
    assert "skipped ghost: toolchain missing: no-such-toolchain-xyz not found" in proc.stderr
    listing = json.loads(run_cli("list", "--format", "json").stdout)
    assert {"runtime": "ghost", "reason": listing["skipped"][0]["reason"]} in listing["skipped"]


def test_invalid_runner_toml_is_skipped_with_reason(fakes, run_cli):
    runners = fakes("ok")
    broken = runners / "broken"
    broken.mkdir()
    (broken / "runner.toml").write_text("schema = 1\nruntime = 'Broken!'\n")
    proc = no_traceback(run_cli("list"))
    assert proc.returncode == 0 and "invalid runner.toml" in proc.stdout

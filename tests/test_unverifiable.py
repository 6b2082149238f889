""" "Unverifiable": no published vector and no second implementation. Never timed, shown with its
reason, not a failure unless `verify --strict` (README, "Using it")."""

from __future__ import annotations

import json

import pytest

from .conftest import ROOT, cli


@pytest.fixture(autouse=True)
def without_haval_vectors(tmp_path, monkeypatch):
    """A project tree whose vectors/ lacks haval.toml: haval128-4 then has no published vector,
    and the fake "lonely" runner is its only implementation."""
    home = tmp_path / "home"
    (home / "vectors").mkdir(parents=True)
    for entry in ROOT.iterdir():
        if entry.name not in ("vectors", ".git"):
            (home / entry.name).symlink_to(entry)
    for entry in (ROOT / "vectors").iterdir():
        if entry.name != "haval.toml":
            (home / "vectors" / entry.name).symlink_to(entry)
    monkeypatch.setenv("CRYPTOBENCH_HOME", str(home))


def test_verify_shows_unverifiable_and_exits_0(fakes):
    fakes("lonely")
    proc = cli("verify", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["primitive"]: r for r in json.loads(proc.stdout)["verification"]}
    assert rows["sha256"]["status"] == "ok"
    assert rows["haval128-4"]["status"] == "unverifiable"
    assert "no published vector and no second implementation" in rows["haval128-4"]["detail"]
    table = cli("verify")
    assert table.returncode == 0
    assert "unverifiable" in table.stdout and "1 unverifiable" in table.stdout


def test_verify_strict_exits_1_and_says_why(fakes):
    fakes("lonely")
    proc = cli("verify", "--strict")
    assert proc.returncode == 1
    assert "--strict: 1 unverifiable" in proc.stderr
    assert "fake-lonely/fakelib haval128-4 digest" in proc.stderr


def test_strict_passes_when_everything_is_verified(fakes):
    fakes("ok")
    assert cli("verify", "--strict").returncode == 0


def test_run_never_times_an_unverifiable_case(fakes):
    fakes("lonely")
    proc = cli("run", "--primitive", "haval128-4", "--primitive", "sha256", "--size", "64",
               "--time-per-case", "0.05", "--rounds", "1", "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = {r["primitive"]: r for r in json.loads(proc.stdout)["results"]}
    assert rows["haval128-4"]["status"] == "skipped"
    assert rows["haval128-4"]["error"].startswith("unverifiable: no published vector")
    assert not rows["haval128-4"].get("samples")
    assert rows["sha256"]["status"] == "ok"

"""`advise` answers from the store where what the store lacks cannot change the answer
(advise/passes.could_win): for `password`, a run with two Argon2id choices stored that lacks
another algorithm's case starts no runner, imports neither the measuring stack nor
scipy.stats, stores no run and says why it measured nothing (module counts, never timings)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import cli
from tests.test_startup import loaded

FIXTURE = Path(__file__).parent / "fixtures" / "advise-run.json"
# what answering from the store must not import: starting runners, the measuring stack (and
# scipy.stats with it, through stats.batches), the verification of what would be measured
HEAVY = {
    "cryptobench.runtimes.session",
    "cryptobench.measure.rounds",
    "cryptobench.measure.sampling",
    "cryptobench.run.pipeline",
    "cryptobench.verify.verifier",
    "scipy.stats",
}


def _store(tmp_path) -> str:
    """The fixture run without go/x-crypto's bcrypt: a case the use needs that cannot outrank
    the two Argon2id choices stored (go/x-crypto, python/cryptography)."""
    doc = json.loads(FIXTURE.read_text())
    doc["results"] = [r for r in doc["results"] if r["primitive"] != "bcrypt"]
    path = tmp_path / "run.json"
    path.write_text(json.dumps(doc))
    db = str(tmp_path / "store.sqlite")
    assert cli("import", str(path), "--db", db).returncode == 0
    return db


def test_what_cannot_change_the_answer_is_not_measured(tmp_path):
    db = _store(tmp_path)
    res = cli("advise", "--use", "password", "--size", "8", "--format", "json", "--db", db)
    assert res.returncode == 0, res.stderr
    assert "lacks 1 cases (go/x-crypto bcrypt verify) that cannot change this answer" in (
        res.stderr
    )
    assert json.loads(res.stdout)["recommendation"]["primitive"] == "argon2id"
    runs = cli("runs", "--db", db, "--format", "json")
    assert runs.returncode == 0, runs.stderr
    assert len(json.loads(runs.stdout)["runs"]) == 1  # nothing measured, nothing stored


def test_what_cannot_change_the_answer_starts_no_runner_and_no_measuring_stack(tmp_path):
    db = _store(tmp_path)
    mods = set(loaded("advise", "--use", "password", "--size", "8", "--db", db))
    assert "cryptobench.advise.rank" in mods  # it did answer
    assert not HEAVY & mods, HEAVY & mods


def test_a_later_run_without_the_use_s_primitives_is_passed_over(tmp_path):
    """`make bench` (the password hashes stored), then `run --preset quick` (none): advise
    answers from the earlier run, measuring nothing, and names it (cli/answers._stored)."""
    db = _store(tmp_path)
    doc = json.loads(FIXTURE.read_text())
    later = {
        **doc["run"],
        "id": "0b0b0b0b-0000-4000-8000-00000000ad02",
        "command": "cryptobench run",
    }
    later["started"], later["ended"] = "2026-11-22T13:00:00+00:00", "2026-11-22T13:01:00+00:00"
    doc["run"] = later
    doc["results"] = [r for r in doc["results"] if r["primitive"] in ("sha256", "noop")]
    path = tmp_path / "quick.json"
    path.write_text(json.dumps(doc))
    assert cli("import", str(path), "--db", db).returncode == 0
    res = cli("advise", "--use", "password", "--size", "8", "--format", "json", "--db", db)
    assert res.returncode == 0, res.stderr
    assert "run 0a0a0a0a lacks 1 cases (go/x-crypto bcrypt verify) that cannot" in res.stderr
    assert json.loads(res.stdout)["recommendation"]["primitive"] == "argon2id"
    runs = json.loads(cli("runs", "--db", db, "--format", "json").stdout)["runs"]
    assert len(runs) == 2  # nothing measured, nothing stored
    mixed = cli("advise", "--use", "small-digest", "--size", "64", "--format", "json", "--db", db)
    assert mixed.returncode == 0, mixed.stderr  # the later run holds sha256: it is the one read
    assert "0b0b0b0b" in mixed.stdout and "0a0a0a0a" not in mixed.stdout

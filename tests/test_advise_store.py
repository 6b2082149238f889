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
    assert len(json.loads(runs.stdout)) == 1  # nothing measured, nothing stored


def test_what_cannot_change_the_answer_starts_no_runner_and_no_measuring_stack(tmp_path):
    db = _store(tmp_path)
    mods = set(loaded("advise", "--use", "password", "--size", "8", "--db", db))
    assert "cryptobench.advise.rank" in mods  # it did answer
    assert not HEAVY & mods, HEAVY & mods

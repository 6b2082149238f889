"""`calibrate` and the cache of verified answers (calibrate/verified.py, verify/cache.py), as
tests/test_verify_cache.py checks it for `run`: a second calibrate re-verifies nothing that did
not change (neither a probe's case nor the known answers its probes consult), and a changed
library version invalidates both. On the fake KDF runner (tests/fakes/fake_kdf_runner.py)."""

from __future__ import annotations

import json

from tests.conftest import cli
from tests.test_answers import CALIBRATE_KDF, kdf_runner  # noqa: F401 (the fixture)

ARGS = (*CALIBRATE_KDF, "--impl", "fake-kdf/fakekdf")


def _calibrate(*extra: str, env: dict | None = None):
    res = cli(*ARGS, *extra, env=env)
    assert res.returncode == 0, res.stderr
    (row,) = json.loads(res.stdout)["results"]
    assert row["status"] == "ok" and row["params"]["iterations"] == 50000
    return res, row


def test_a_second_calibrate_takes_verification_from_the_cache(kdf_runner):  # noqa: F811
    first, row = _calibrate()
    assert "verification: 0 taken from the cache" in first.stderr, first.stderr
    assert "known answers: 0 taken from the cache, 3 checked" in first.stderr
    assert "cached" not in row["verification"]
    second, row = _calibrate()
    probes = len(row["calibration"]["probes"])
    assert f"verification: {probes} taken from the cache" in second.stderr, second.stderr
    assert "0 checked; known answers: 3 taken from the cache, 0 checked" in second.stderr
    assert "cached" in row["verification"]
    again, row = _calibrate("--reverify")
    assert "the cache was not read" in again.stderr
    assert "known answers: 0 taken from the cache, 3 checked" in again.stderr
    assert "cached" not in row["verification"]


def test_a_changed_library_version_invalidates_what_calibrate_kept(kdf_runner):  # noqa: F811
    _calibrate()
    changed, row = _calibrate(env={"FAKE_KDF_VERSION": "2"})
    assert "verification: 0 taken from the cache" in changed.stderr, changed.stderr
    assert "known answers: 0 taken from the cache, 3 checked" in changed.stderr
    assert "cached" not in row["verification"]
    back, row = _calibrate()  # the first version's answers are still kept under their key
    assert "known answers: 3 taken from the cache, 0 checked" in back.stderr, back.stderr


def test_a_peer_whose_runner_fails_is_asked_once_and_is_no_peer(tmp_path):
    """The known answers a verify probe asks of the others (one maker's hash): a maker whose
    runner crashes is recorded as failed for the run, and the next maker is the peer."""
    from cryptobench.calibrate.verified import Verified
    from cryptobench.catalog import primitives as catalog
    from cryptobench.runtimes.protocol import Implementation, Offer, RunnerFailure
    from cryptobench.verify.cache import Cache, Fingerprints
    from cryptobench.verify.checks import Check
    from cryptobench.verify.verifier import Verifier

    verifier = Verifier(catalog.load(), {}, [])
    offer = {"argon2id": Offer(("hash", "verify"))}
    makers = [Implementation(f"{r}/lib", r, "lib", "1", {}, offer) for r in ("a", "b", "c")]
    verifier.impls = {i.id: i for i in makers}
    asked = []

    def known_answers(impl, prim, op):
        asked.append(impl.id)
        if impl.id == "a/lib":
            raise RunnerFailure("crashed", "a exited (status 1)")
        return Check(True, "1 known answer", 1)

    verifier._known_answers = known_answers
    cache = Cache(tmp_path / "verified.sqlite")
    verified = Verified(verifier, Fingerprints("data", {}, {}), cache, cache)
    verified.consult("argon2id", "hash")
    assert asked == ["a/lib", "b/lib"]  # c's answers are not needed: one hash is verified
    assert verifier.first_offering("argon2id", "hash").id == "b/lib"
    assert asked == ["a/lib", "b/lib"]  # the crashed maker is not asked again
    assert "runner crashed" in verifier.answers_checked()[("a/lib", "argon2id", "hash")].detail
    verified.keep()  # a failure is never kept; a pass is
    assert verified.kept == {("b/lib", "argon2id", "hash")}

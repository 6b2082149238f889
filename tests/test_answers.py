"""`cryptobench advise` and `cryptobench calibrate`, through the CLI as a user runs them.

advise: on the stored fixture run tests/fixtures/advise-run.json (tests/fakes/advise_fixture.py)
— ranking, the security filter per use, the interval rule, and the issue's three seed checks.
calibrate: on a deterministic fake KDF runner (tests/fakes/fake_kdf_runner.py: 100 ns per
PBKDF2 iteration), so the search's arithmetic can be checked exactly; no timing is asserted.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

from cryptobench.advise import missing as advise_missing
from cryptobench.advise import rank as advise
from cryptobench.calibrate import search as calibrate_search
from cryptobench.calibrate import verdict as calibrate_verdict
from cryptobench.catalog import policy
from cryptobench.catalog import primitives as catalog
from tests.conftest import cli

FIXTURE = Path(__file__).parent / "fixtures" / "advise-run.json"
KDF_RUNNER = Path(__file__).parent / "fakes" / "fake_kdf_runner.py"


def advice(*args: str) -> dict:
    res = cli("advise", "--from", str(FIXTURE), "--no-measure", "--format", "json", *args)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def fixture_row(impl: str, prim: str, size: int) -> dict:
    doc = json.loads(FIXTURE.read_text())
    return next(
        r
        for r in doc["results"]
        if (r["implementation"], r["primitive"], r["size"]) == (impl, prim, size)
    )


# -- the seed checks ---------------------------------------------------------------
def test_password_never_proposes_a_fast_digest():
    a = advice("--use", "password")
    ranked = {e["primitive"] for e in a["ranking"]}
    assert a["recommendation"]["primitive"] == "argon2id"
    assert not ranked & {"md5", "sha256"}
    # the fixture holds md5/sha256 of an 8-byte password, far faster than any password hash
    assert fixture_row("python/hashlib", "md5", 8)["median_ns"] < a["recommendation"]["median_ns"]


def test_checksum_at_5000_proposes_a_hardware_crc_path():
    a = advice("--use", "checksum", "--size", "5000")
    best = a["recommendation"]
    assert best["primitive"].startswith("crc32")
    assert "SSE4.2" in best["code_path"] or "PCLMUL" in best["code_path"]
    assert any(r.startswith("code path:") for r in a["reasons"])
    # adler32 is faster in the fixture, and kept out with the policy's reason
    assert fixture_row("c/zlib", "adler32", 5000)["median_ns"] < best["median_ns"]
    assert "adler32" in {x["primitive"] for x in a["excluded"]}


def test_encryption_at_13_in_python_proposes_a_reused_key_aead():
    a = advice("--use", "encryption", "--size", "13", "--runtime", "python")
    best = a["recommendation"]
    assert best["implementation"].startswith("python/")
    assert best["params"]["fresh_context"] is False
    assert catalog.load().get(best["primitive"]).family == "aead"
    fresh = [r for r in a["reasons"] if "fresh object per message" in r and "costs" in r]
    assert fresh and "× the reused-key time" in fresh[0]
    # a faster non-AEAD (aes-128-ctr) is never ranked
    assert fixture_row("python/pycryptodome", "aes-128-ctr", 13)["median_ns"] < best["median_ns"]
    assert all(e["primitive"] != "aes-128-ctr" for e in a["ranking"])


# -- ranking, security filter, interval rule -----------------------------------------------
def test_ranking_is_fastest_first_and_runner_up_is_second():
    a = advice("--use", "checksum", "--size", "5000")
    times = [e["median_ns"] for e in a["ranking"]]
    assert times == sorted(times) and len(times) >= 3
    assert a["runner_up"] == a["ranking"][1]


def test_broken_hashes_never_win_integrity_but_may_win_small_digest():
    integrity = advice("--use", "integrity", "--size", "1024")
    cat = catalog.load()
    assert all(
        cat.get(e["primitive"]).status in ("recommended", "acceptable")
        for e in integrity["ranking"]
    )
    assert {"md4", "md5", "sha1"} <= {x["primitive"] for x in integrity["excluded"]}
    small = advice("--use", "small-digest", "--size", "16")
    assert small["recommendation"]["primitive"] == "md5"  # collisions broken, preimages not
    assert [x["primitive"] for x in small["excluded"]] == ["md4"]  # preimage attack


def test_margin_apart_and_not_distinguishable():
    apart = advice("--use", "integrity", "--size", "1024")["margin"]
    assert apart["distinguishable"] and apart["low"] > 1 and apart["method"] == "rounds"
    close = advice("--use", "integrity", "--size", "16")["margin"]
    assert not close["distinguishable"]
    assert close["low"] <= 1 <= close["high"]
    assert close["text"].startswith("not distinguishable")


def test_overlapping_intervals_are_not_distinguishable_even_if_welch_says_so():
    best = fixture_row("go/stdlib", "sha256", 1024)
    other = copy.deepcopy(fixture_row("python/hashlib", "sha256", 1024))
    other["ci_low_ns"] = best["ci_high_ns"] * 0.999  # intervals touch; the round data differ
    m = advise.margin(best, other)
    assert m.low > 1 and not m.distinguishable


def test_order_rank_puts_the_preferred_algorithm_first_even_when_slower():
    doc = json.loads(FIXTURE.read_text())
    for r in doc["results"]:
        if r["primitive"] == "bcrypt":
            r["median_ns"], r["ci_low_ns"], r["ci_high_ns"] = 1e6, 0.99e6, 1.01e6
    cat = catalog.load()
    a = advise.rank([doc], cat, policy.load(cat), "password", 8, [])
    assert a.recommendation.row["primitive"] == "argon2id"
    assert a.ranking[-1].row["primitive"] in ("pbkdf2-sha256", "bcrypt")


def test_markdown_and_table_formats(tmp_path):
    md = cli(
        "advise",
        "--use",
        "checksum",
        "--size",
        "5000",
        "--from",
        str(FIXTURE),
        "--no-measure",
        "--format",
        "markdown",
    )
    assert md.returncode == 0 and "| 1 | crc32c · c/isa-l |" in md.stdout
    table = cli(
        "advise", "--use", "checksum", "--size", "5000", "--from", str(FIXTURE), "--no-measure"
    )
    assert "recommendation: crc32c · c/isa-l" in table.stdout and "margin:" in table.stdout


def test_unknown_use_exits_2_with_the_valid_values():
    res = cli("advise", "--use", "hashing", "--from", str(FIXTURE))
    assert res.returncode == 2
    assert "password, kdf, checksum, integrity, mac, encryption, small-digest" in res.stderr
    assert "Traceback" not in res.stderr


def test_missing_cases_are_announced():
    res = cli(
        "advise", "--use", "small-digest", "--size", "16", "--from", str(FIXTURE), "--no-measure"
    )
    assert res.returncode == 0
    assert "lacks 1 cases (go/stdlib md5 digest)" in res.stderr


def test_needed_keys_follow_the_policy_and_reuse():
    doc = json.loads(FIXTURE.read_text())
    cat = catalog.load()
    keys = advise_missing.needed(doc, cat, policy.load(cat), "encryption", 13, ["python"])
    got = {(k[0], k[1], json.loads(k[4])["fresh_context"]) for k in keys}
    assert got == {
        ("python/cryptography", "aes-128-gcm", False),
        ("python/cryptography", "chacha20-poly1305", False),
        ("python/pycryptodome", "aes-128-gcm", True),  # single-use objects
    }


# -- policy and calibrate arithmetic -------------------------------------------------------
def test_owasp_minimums():
    cat = catalog.load()
    pol = policy.load(cat)
    assert pol.owasp("argon2id", {"m": 65536, "t": 1, "p": 1})[0] is True
    assert pol.owasp("argon2id", {"m": 19456, "t": 1, "p": 1})[0] is False
    assert pol.owasp("bcrypt", {"cost": 9})[0] is False
    assert pol.owasp("pbkdf2-sha256", {"iterations": 600000, "out_len": 32})[0] is True
    assert pol.owasp("scrypt", {"n": 65536, "r": 8, "p": 1})[0] is False
    assert pol.owasp("argon2i", {"m": 65536, "t": 3, "p": 1})[0] is None


def test_predict_follows_each_scaling_law():
    cat = catalog.load()
    pol = policy.load(cat)

    def nxt(pid, value, ns, target, cap=None):
        return calibrate_search.predict(pol.search(pid), cat.get(pid), value, ns, target, cap)

    assert nxt("bcrypt", 6, 4e6, 256e6) == 12  # 64× = 6 doublings
    assert nxt("scrypt", 1024, 2e6, 256e6) == 131072  # N × 128
    assert nxt("scrypt", 1024, 2e6, 256e6, cap=65536) == 65536  # --memory caps N
    # Argon2: time ∝ t + FIXED_PASSES (its fixed cost, half a pass): (1 + 0.5) × 3.125 − 0.5
    assert nxt("argon2id", 1, 80e6, 250e6) == 4
    assert nxt("argon2i", 3, 900e6, 250e6) == 3  # never below the least t
    assert nxt("pbkdf2-sha256", 10000, 1e6, 250e6) == 2_500_000


def test_attacker_arithmetic():
    a = calibrate_verdict.attacker(250e6, 240e6, 260e6)
    assert a["guesses_per_s"] == pytest.approx(4.0)
    assert a["keyspace"] == 36**8
    assert a["core_years_average"] == pytest.approx(36**8 / 2 * 0.25 / (365.25 * 86400))
    assert a["core_years_all"] == pytest.approx(2 * a["core_years_average"])


# -- calibrate through the CLI on the fake KDF runner --------------------------------------
@pytest.fixture
def kdf_runner(tmp_path, monkeypatch):
    folder = tmp_path / "runners" / "fake-kdf"
    folder.mkdir(parents=True)
    (folder / "runner.toml").write_text(
        'schema = 1\nruntime = "fake-kdf"\nlanguage = "fake"\nstartup_timeout = 5\n'
        f'[run]\ncommand = ["{sys.executable}", "{KDF_RUNNER}"]\n'
    )
    monkeypatch.setenv("CRYPTOBENCH_RUNNERS", str(tmp_path / "runners"))


# calibrate on the fake KDF: 5 ms is 50 000 iterations at its 100 ns each (also
# tests/test_calibrate_cache.py). The budget leaves room for a busy machine: the runner's start
# and its known answers took the whole of 5 s under xdist beside another worker.
CALIBRATE_KDF = ("calibrate", "pbkdf2-sha256", "--target", "5ms", "--time-budget", "30s")
CALIBRATE_KDF += ("--rounds", "2", "--format", "json")


def test_calibrate_finds_the_cost_and_lists_fixed_cost_bindings(kdf_runner, tmp_path):
    res = cli(*CALIBRATE_KDF)
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["run"]["operation"] == "calibrate"
    rows = {r["implementation"]: r for r in doc["results"]}
    found = rows["fake-kdf/fakekdf"]
    assert found["status"] == "ok" and found["verified"]
    assert found["params"]["iterations"] == 50000  # 5 ms / 100 ns per iteration
    c = found["calibration"]
    assert c["on_target"] and c["owasp_ok"] is False and c["probes"][0]["value"] == 10000
    assert "remeasured" not in c  # on target at once: no second look
    assert len(found["rounds"]) == 2
    fixed = rows["fake-kdf/fixedkdf"]
    assert fixed["status"] == "skipped"
    assert (
        fixed["error"].startswith("cannot take the parameter")
        and "invalid_params" in fixed["error"]
    )
    exported = tmp_path / "calibrate.json"
    exported.write_text(res.stdout)
    other_db = str(tmp_path / "other.sqlite")
    assert cli("import", str(exported), "--db", other_db).returncode == 0  # schema-valid
    shown = cli("show", doc["run"]["id"][:8])
    assert "calibrate pbkdf2-sha256" in shown.stdout and "iterations=50000*" in shown.stdout
    assert "not calibrated: fake-kdf/fixedkdf" in shown.stdout


def test_calibrate_measures_a_nearer_value_when_the_rounds_disagree_with_the_probes(kdf_runner):
    # skewkdf: probes (round 1 among them) say 100 ns per iteration, the later rounds 130 ns:
    # 50000 iterations re-measure +19% (5.0, 6.5, 6.5 ms), so the value the law predicts from
    # the rounds (42000) is measured in rounds too (6.5 ms · 42/50: +9%) and kept
    res = cli(
        "calibrate",
        "pbkdf2-sha256",
        "--impl",
        "fake-kdf/skewkdf",
        "--target",
        "5ms",
        "--time-budget",
        "30s",
        "--rounds",
        "3",
        "--format",
        "json",
    )
    assert res.returncode == 0, res.stderr
    (found,) = json.loads(res.stdout)["results"]
    c = found["calibration"]
    assert [p["value"] for p in c["probes"]] == [10000, 50000]
    assert [p["calls"] for p in c["probes"]] == [
        calibrate_search.FIRST_PROBE_CALLS,
        calibrate_search.PROBE_CALLS,
    ]
    assert [(r["value"], round(r["off"], 3)) for r in c["remeasured"]] == [
        (50000, 0.191),
        (42000, 0.092),
    ]
    assert found["params"]["iterations"] == 42000 and c["on_target"] and c["verdict"] == ""
    assert "kept iterations=42000" in c["search_stopped"]
    assert "a second look at fake-kdf/skewkdf: iterations=42000 in 3 rounds" in res.stderr


def test_calibrate_refuses_what_it_cannot_calibrate(kdf_runner):
    res = cli("calibrate", "sha256")
    assert res.returncode == 2 and "cannot calibrate 'sha256'; valid: argon2i" in res.stderr
    bad = cli("calibrate", "bcrypt", "--target", "5parsecs")
    assert bad.returncode == 2 and "not a time" in bad.stderr


def test_a_case_under_another_of_the_uses_operations_is_not_missing():
    doc = json.loads(FIXTURE.read_text())
    cat = catalog.load()
    pol = policy.load(cat)
    keys = advise_missing.needed(doc, cat, pol, "password", 8, ["go"])
    assert {k[:3] for k in keys} == {
        ("go/x-crypto", "argon2id", "verify"),
        ("go/x-crypto", "bcrypt", "verify"),
    }
    ops = pol.use("password").operations
    assert advise_missing.missing([doc], keys, ops) == []
    doc["results"] = [
        r for r in doc["results"] if (r["primitive"], r["operation"]) != ("argon2id", "verify")
    ]
    assert advise_missing.missing([doc], keys, ops) == []  # hash and derive are stored
    doc["results"] = [r for r in doc["results"] if r["primitive"] != "argon2id"]
    assert [k[1] for k in advise_missing.missing([doc], keys, ops)] == ["argon2id"]

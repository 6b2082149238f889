"""`advise --use key-exchange|signature` on the stored fixture run
tests/fixtures/advise-pubkey-run.json (tests/fakes/advise_pubkey_fixture.py): the cost of one
use added per round, only one security level compared, and the catalog's dated transitions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cryptobench import stats
from cryptobench.advise import oneuse
from cryptobench.advise import rank as advise
from cryptobench.catalog import policy
from cryptobench.catalog import primitives as catalog
from cryptobench.errors import DataError
from tests.conftest import cli

FIXTURE = Path(__file__).parent / "fixtures" / "advise-pubkey-run.json"
DAY = "2026-11-25"
EDGES = ("ci_low_ns", "ci_high_ns")


@pytest.fixture(scope="module")
def cat():
    return catalog.load()


def doc() -> dict:
    return json.loads(FIXTURE.read_text())


def ranked(cat, use: str, bits=None, day=DAY) -> advise.Advice:
    return advise.rank([doc()], cat, policy.load(cat), use, None, [], bits, day)


def row(impl: str, prim: str, op: str) -> dict:
    return next(
        r
        for r in doc()["results"]
        if (r["implementation"], r["primitive"], r["operation"]) == (impl, prim, op)
    )


def test_key_exchange_ranks_keygen_plus_agree(cat):
    a = ranked(cat, "key-exchange")
    best = a.recommendation.row
    assert (best["implementation"], best["primitive"]) == ("go/stdlib", "ecdh-p256")
    assert best["operation"] == "keygen+agree" and set(best["parts"]) == {"keygen", "agree"}
    assert [e.row["primitive"] for e in a.ranking] == ["ecdh-p256", "x25519", "x25519"]
    # one use costs more than either operation alone
    assert best["median_ns"] > max(best["parts"].values())


def test_signature_compares_only_128_bit_choices(cat):
    a = ranked(cat, "signature")
    levels = {cat.get(e.row["primitive"]).security_bits for e in a.ranking}
    assert levels == {128}
    assert a.recommendation.row["primitive"] == "ed25519"
    assert a.runner_up is not None and a.margin.distinguishable and a.margin.low > 1
    kept_out = dict(a.excluded)
    assert "112-bit security" in kept_out["rsa-2048-pss-sha256"]
    assert "112-bit security" in kept_out["rsa-2048-pkcs1-sha256"]
    # node signs but stored no verify: not a whole use, said so
    assert any(x.startswith("node/node ed25519 (no verify)") for x in a.incomplete)


def test_security_bits_112_ranks_rsa_2048_only(cat):
    a = ranked(cat, "signature", bits=112)
    assert {e.row["primitive"] for e in a.ranking} == {
        "rsa-2048-pss-sha256",
        "rsa-2048-pkcs1-sha256",
    }


def test_dated_transitions_apply_on_their_day(cat):
    rsa = cat.get("rsa-2048-pss-sha256")
    assert rsa.status_on("2030-12-31") == "acceptable"
    assert rsa.status_on("2031-01-01") == "legacy"
    assert rsa.status_on("2036-01-01") == "broken"
    later = ranked(cat, "signature", bits=112, day="2031-06-01")
    assert later.ranking == []
    assert "deprecated after 2030-12-31" in dict(later.excluded)["rsa-2048-pss-sha256"]
    after_2035 = ranked(cat, "key-exchange", day="2036-01-01")
    assert after_2035.ranking == []
    assert "disallowed after 2035-12-31" in dict(after_2035.excluded)["x25519"]


def test_one_use_adds_rounds_not_intervals():
    keygen, agree = row("go/stdlib", "x25519", "keygen"), row("go/stdlib", "x25519", "agree")
    both = oneuse.combined([keygen, agree], ("keygen", "agree"))
    for r, k, g in zip(both["rounds"], keygen["rounds"], agree["rounds"], strict=True):
        assert r["median_ns"] == pytest.approx(k["median_ns"] + g["median_ns"])
        # the one sum of a use's round (stats.round_sum, as the handshake's): variances add
        want = stats.round_sum(*([x[f] for x in (k, g)] for f in ("median_ns", *EDGES)))
        assert (r["median_ns"], *(r[f] for f in EDGES)) == pytest.approx(want)
        widths = [x["ci_high_ns"] - x["ci_low_ns"] for x in (k, g)]
        assert r["ci_high_ns"] - r["ci_low_ns"] < sum(widths)  # intervals are not added


def test_margin_without_two_common_rounds_is_not_comparable():
    keygen, agree = row("go/stdlib", "x25519", "keygen"), row("go/stdlib", "x25519", "agree")
    agree = {**agree, "rounds": agree["rounds"][:1]}
    best = oneuse.combined([keygen, agree], ("keygen", "agree"))
    other = oneuse.combined(
        [row("go/stdlib", "ecdh-p256", "keygen"), row("go/stdlib", "ecdh-p256", "agree")],
        ("keygen", "agree"),
    )
    m = advise.margin(best, other)
    assert not m.comparable and not m.distinguishable and "two rounds" in m.why


def test_a_transition_must_name_its_source(tmp_path):
    text = (Path(catalog.project_root()) / "catalog" / "catalog.toml").read_text()
    bad = text.replace('term = "disallowed", source = ', 'term = "disallowed", where = ', 1)
    path = tmp_path / "catalog.toml"
    path.write_text(bad)
    with pytest.raises(DataError, match="transition needs after, status and source"):
        catalog.load(path)


def test_cli_signature_json_carries_level_day_and_parts():
    res = cli(
        "advise", "--use", "signature", "--from", str(FIXTURE), "--no-measure", "--format", "json"
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["security_bits"] == 128 and out["day"]
    assert set(out["recommendation"]["parts_ns"]) == {"sign", "verify"}
    assert any(r.startswith("dated transitions") for r in out["reasons"])
    assert out["margin"]["ratio"] > 1


def test_pq_key_exchange_ranks_the_kems_of_category_3(cat):
    a = ranked(cat, "key-exchange-pq")
    assert [(e.row["implementation"], e.row["primitive"]) for e in a.ranking] == [
        ("go/stdlib", "ml-kem-768"),
        ("python/cryptography", "ml-kem-768"),
        ("go/circl", "ml-kem-768"),
        ("go/stdlib", "x25519-mlkem768"),
    ]
    best = a.recommendation.row
    assert best["operation"] == "keygen+encaps+decaps"
    assert set(best["parts"]) == {"keygen", "encaps", "decaps"}
    assert "128-bit security" in dict(a.excluded)["ml-kem-512"]
    assert a.margin.distinguishable and a.margin.low > 1
    # the quantum-vulnerable key exchanges are another family: never ranked here
    assert all(cat.get(e.row["primitive"]).family == "kem" for e in a.ranking)


def test_pq_signature_ranks_ml_dsa_only(cat):
    a = ranked(cat, "signature-pq")
    assert {e.row["primitive"] for e in a.ranking} == {"ml-dsa-65"}
    assert a.recommendation.row["implementation"] == "go/circl"
    assert "not one of signature-pq's choices" in dict(a.excluded)["ed25519"]


def test_cli_pq_flag_picks_the_post_quantum_use_and_refuses_others():
    res = cli(
        "advise",
        *("--use", "key-exchange", "--pq", "--from", str(FIXTURE), "--no-measure"),
        *("--format", "json"),
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["use"] == "key-exchange-pq" and out["security_bits"] == 192
    assert out["recommendation"]["primitive"] == "ml-kem-768"
    bad = cli("advise", "--use", "password", "--pq", "--from", str(FIXTURE), "--no-measure")
    assert bad.returncode == 2 and "--pq applies to" in bad.stderr

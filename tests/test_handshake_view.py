"""The tls-handshake view (report.handshake) on the fixture run tests/golden/pubkey-run.json:
which rows it has, how its interval is made (per round, then across rounds: never by adding
intervals), and that every format shows it only when the run has what it needs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from cryptobench import report, stats
from cryptobench.report import handshake, sections
from cryptobench.report.html import page

DOC = json.loads((Path(__file__).parent / "golden" / "pubkey-run.json").read_text())


def find(impl: str, prim: str, op: str, size: int) -> dict:
    return next(
        r
        for r in DOC["results"]
        if (r["implementation"], r["primitive"], r["operation"], r["size"])
        == (impl, prim, op, size)
    )


def test_one_row_per_implementation_and_choice_with_all_three_operations():
    got = {(h.implementation, h.kex, h.signature) for h in handshake.handshakes(DOC["results"])}
    assert got == {
        ("go/stdlib", "x25519", "ed25519"),
        ("go/stdlib", "x25519", "ecdsa-p256-sha256"),
        ("go/stdlib", "ecdh-p256", "ed25519"),
        ("go/stdlib", "ecdh-p256", "ecdsa-p256-sha256"),
        ("rust/ring", "x25519", "ed25519"),
    }  # python/cryptography has no agree: no handshake; verify and 1 KiB signs are not used


def test_the_interval_comes_from_the_rounds_sums_not_from_adding_intervals():
    parts = [
        find("go/stdlib", "x25519", "keygen", 0),
        find("go/stdlib", "x25519", "agree", 0),
        find("go/stdlib", "ed25519", "sign", 32),
    ]
    e = handshake.estimate(*parts)
    sums = [sum(p["rounds"][i]["median_ns"] for p in parts) for i in range(3)]
    # the centre: the geometric mean of the per-round sums (rounds_ci's estimate)
    assert e.median == pytest.approx(math.exp(np.mean(np.log(sums))))
    assert e.rounds == 3
    added = (sum(p["ci_low_ns"] for p in parts), sum(p["ci_high_ns"] for p in parts))
    assert (e.low, e.high) != pytest.approx(added)
    assert e.low < e.median < e.high


def test_rounds_are_paired_by_their_number():
    parts = [
        find("go/stdlib", "x25519", "keygen", 0),
        find("go/stdlib", "x25519", "agree", 0),
        find("go/stdlib", "ed25519", "sign", 32),
    ]
    shuffled = {**parts[2], "rounds": list(reversed(parts[2]["rounds"]))}
    assert handshake.estimate(parts[0], parts[1], shuffled) == handshake.estimate(*parts)


def test_round_sum_adds_variances_not_intervals():
    total, low, high = stats.round_sum([100.0, 100.0], [90.0, 90.0], [110.0, 110.0])
    assert total == 200.0
    one = math.log(110 / 90) / 2  # one part's half-width on the log scale
    # two equal independent parts: the sum's relative half-width is one part's / √2
    assert math.log(high / low) / 2 == pytest.approx(one / math.sqrt(2))


def test_wire_bytes_are_the_key_share_plus_the_signature():
    rows = {
        (h.kex, h.signature, h.implementation): h.wire for h in handshake.handshakes(DOC["results"])
    }
    assert rows[("x25519", "ed25519", "rust/ring")] == "32 + 64 = 96"
    assert rows[("ecdh-p256", "ecdsa-p256-sha256", "go/stdlib")] == "65 + ≤72 = ≤137"


def test_every_format_shows_the_view_only_when_the_run_has_it():
    without = {**DOC, "results": [r for r in DOC["results"] if r["operation"] != "agree"]}
    assert not sections.tls_handshake(without["results"])
    for fmt in ("table", "markdown"):
        assert "TLS handshake" in report.render(fmt, DOC, width=160)
        assert "TLS handshake" not in report.render(fmt, without, width=160)
    html = page.render(DOC)
    assert 'id="tls-handshake"' in html and 'id="public-key"' in html
    plain = page.render({**DOC, "results": [r for r in DOC["results"] if r["family"] != "kex"]})
    assert 'id="tls-handshake"' not in plain and 'id="public-key"' in plain


def test_html_public_key_sections_have_rates_and_sizes():
    html = page.render(DOC)

    def part(section: str) -> str:
        start = html.index(f'<section id="{section}">')
        return html[start : html.index("</section>", start)]

    for text in ("ops/s", "µs/op (95% CI)", "go/stdlib", "ecdh-p256"):
        assert text in part("public-key")
    assert "public key (B)" not in part("public-key")  # sizes: one section, the same as text's
    for text in ("public key (B)", "private key (B)", "≤72", "ecdh-p256"):
        assert text in part("public-key-sizes")


def test_explore_shows_public_key_operations_as_time_not_throughput():
    from cryptobench.report.html import views

    data = views.data([page.Run(0, "run", DOC)])
    at = {name: i for i, name in enumerate(data["fields"])}
    pubkey = [rec for rec in data["records"] if rec[at["family"]] in ("kex", "signature")]
    assert pubkey and all(rec[at["slow"]] == 1 for rec in pubkey)
    assert 0 not in data["sizes"]  # no "MB/s at 0 B" size to choose

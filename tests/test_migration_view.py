"""The pq-migration view (report.migration) on results made here with known round medians:
what one use costs (both parties, weighted operations), the bytes on the wire, the ratio to
the runtime's classical choice with its interval, the fastest implementation per choice, and
that every format shows the section only when a runtime measured a post-quantum choice."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from cryptobench import report, stats
from cryptobench.catalog import keys, primitives
from cryptobench.report import migration, sections
from cryptobench.report.html import page

CATALOG = primitives.load()
PUBKEY_RUN = json.loads((Path(__file__).parent / "golden" / "pubkey-run.json").read_text())
FAMILY = {"x25519": "kex", "ml-kem-768": "kem", "ed25519": "signature", "ml-dsa-65": "signature"}


def result(impl: str, pid: str, op: str, round_medians: list[float]) -> dict:
    """A measured result whose rounds have these medians, each ±1% (its 95% interval)."""
    rounds = [
        {"round": i, "median_ns": m, "ci_low_ns": m * 0.99, "ci_high_ns": m * 1.01}
        for i, m in enumerate(round_medians, 1)
    ]
    cols = [[r[k] for r in rounds] for k in ("median_ns", "ci_low_ns", "ci_high_ns")]
    est = stats.rounds_ci(*cols)
    size = 32 if op in ("sign", "verify") else 0
    return {
        "runtime": impl.split("/")[0],
        "implementation": impl,
        "primitive": pid,
        "family": FAMILY[pid],
        "operation": op,
        "size": size,
        "status": "ok",
        "median_ns": est.median,
        "ci_low_ns": est.low,
        "ci_high_ns": est.high,
        "rounds": rounds,
        "params": {},
        "wire_bytes": keys.wire_bytes(CATALOG.get(pid)),
    }


def go_results(kem_scale: float = 1.0) -> list[dict]:
    flat = lambda v: [v, v * 1.02, v * 0.98]  # noqa: E731
    return [
        result("go/stdlib", "x25519", "keygen", flat(20_000)),
        result("go/stdlib", "x25519", "agree", flat(60_000)),
        result("go/stdlib", "ml-kem-768", "keygen", flat(30_000 * kem_scale)),
        result("go/stdlib", "ml-kem-768", "encaps", flat(40_000 * kem_scale)),
        result("go/stdlib", "ml-kem-768", "decaps", flat(50_000 * kem_scale)),
        result("go/circl", "ml-kem-768", "keygen", flat(60_000)),
        result("go/circl", "ml-kem-768", "encaps", flat(80_000)),
        result("go/circl", "ml-kem-768", "decaps", flat(100_000)),
        result("go/stdlib", "ed25519", "sign", flat(25_000)),
        result("go/stdlib", "ed25519", "verify", flat(55_000)),
    ]


def test_one_use_counts_both_parties_and_its_wire_bytes():
    got = {(c.use, c.kind): c for c in migration.choices(go_results())}
    ecdh, kem = got[("key exchange", "classical")], got[("key exchange", "post-quantum")]
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))  # noqa: E731
    assert ecdh.estimate.median == pytest.approx(geo([160_000 * f for f in (1, 1.02, 0.98)]))
    assert kem.estimate.median == pytest.approx(geo([120_000 * f for f in (1, 1.02, 0.98)]))
    x = keys.wire_bytes(CATALOG.get("x25519"))["public_key"]
    m = keys.wire_bytes(CATALOG.get("ml-kem-768"))
    assert ecdh.wire == 2 * x
    assert kem.wire == m["public_key"] + m["ciphertext"]
    sig = got[("signature", "classical")]
    assert sig.estimate.median == pytest.approx(geo([80_000 * f for f in (1, 1.02, 0.98)]))


def test_the_fastest_implementation_stands_for_its_runtime():
    got = {(c.use, c.kind): c.implementation for c in migration.choices(go_results())}
    assert got[("key exchange", "post-quantum")] == "go/stdlib"
    slow = {(c.use, c.kind): c.implementation for c in migration.choices(go_results(3.0))}
    assert slow[("key exchange", "post-quantum")] == "go/circl"


def test_the_ratio_to_classical_has_an_interval_from_the_rounds():
    kem = next(c for c in migration.choices(go_results()) if c.kind == "post-quantum")
    assert kem.versus.ratio == pytest.approx(0.75)
    assert kem.versus.low < 0.75 < kem.versus.high
    assert migration.versus_text(kem.versus).startswith("0.75 (")
    classical = next(c for c in migration.choices(go_results()) if c.kind == "classical")
    assert classical.versus is None


def test_a_runtime_without_a_post_quantum_choice_has_no_rows():
    classical_only = [r for r in go_results() if r["family"] != "kem"]
    assert migration.choices(classical_only) == []
    assert sections.pq_migration(classical_only) == []


def test_every_format_shows_the_view_only_when_a_runtime_has_a_post_quantum_choice():
    kem = [r for r in go_results() if r["family"] == "kem"]
    doc = {**PUBKEY_RUN, "results": PUBKEY_RUN["results"] + kem}
    for fmt in ("table", "markdown"):
        assert "(pq-migration)" in report.render(fmt, doc, width=200)
        assert "(pq-migration)" not in report.render(fmt, PUBKEY_RUN, width=200)
    assert 'id="pq-migration"' in page.render(doc)
    assert 'id="pq-migration"' not in page.render(PUBKEY_RUN)

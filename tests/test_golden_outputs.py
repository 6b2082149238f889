"""Golden output of every other output kind: `compare`, `advise`, a `calibrate` run, a `leak`
run and a public-key run (its size tables and the tls-handshake view), each in its formats,
compared with the stored text so a report change is a visible diff (tests/golden/; the
results formats are in test_golden.py). Regenerate after an intended change with
`CRYPTOBENCH_UPDATE_GOLDEN=1 pytest tests/test_golden_outputs.py` and review the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cryptobench import report
from cryptobench.advise import rank as advise
from cryptobench.catalog import policy
from cryptobench.catalog import primitives as catalog
from cryptobench.report import advice as advice_report
from cryptobench.report import comparison
from cryptobench.results import compare

GOLDEN = Path(__file__).parent / "golden"
FIXTURES = Path(__file__).parent / "fixtures"
EXT = {"table": "txt", "json": "json", "markdown": "md"}


def load(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text())


def check(got: str, name: str) -> None:
    path = GOLDEN / name
    if os.environ.get("CRYPTOBENCH_UPDATE_GOLDEN"):
        path.write_text(got)
    assert got == path.read_text()


@pytest.fixture(autouse=True)
def _fixed_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")


@pytest.mark.parametrize("fmt", sorted(EXT))
def test_compare_output_as_stored(fmt):
    base = load("results-v1.json")
    other = json.loads(json.dumps(base))
    other["run"]["id"] = "0b1b2c3d-0000-4000-8000-000000000000"
    for r in other["results"]:
        factor = 0.8 if r["primitive"] == "sha256" else 1.0  # one faster case, the rest alike
        for s in r.get("samples") or []:
            s["ns"] = int(s["ns"] * factor)
    cmp = compare.compare(base, other)
    check(comparison.render(fmt, cmp, "0a1b2c3d", "0b1b2c3d", 5.0), f"compare.{EXT[fmt]}")


@pytest.mark.parametrize("fmt", sorted(EXT))
def test_advice_output_as_stored(fmt):
    doc = json.loads((FIXTURES / "advise-run.json").read_text())
    cat = catalog.load()
    a = advise.rank([doc], cat, policy.load(cat), "checksum", 5000, [])
    check(advice_report.render(fmt, a), f"advice.{EXT[fmt]}")


@pytest.mark.parametrize("kind", ["calibrate", "leak", "pubkey"])
@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_calibrate_leak_and_public_key_runs_as_stored(kind, fmt):
    doc = load(f"{kind}-run.json")
    got = report.render(fmt, doc, show_precision=True, color=False, width=160)
    check(got, f"{kind}-run.{EXT[fmt]}")

"""Output formats: what a spreadsheet or renderer would execute is neutralised."""

from __future__ import annotations

import csv
import io

from cryptobench import report
from cryptobench.report import layout

HOSTILE = "<img src=x onerror=alert(1)>|=cmd"


def result(**over) -> dict:
    r = {
        "runtime": "x",
        "implementation": "x/" + HOSTILE,
        "library": HOSTILE,
        "library_version": '=HYPERLINK("http://evil")',
        "backend": "@SUM(A1)",
        "primitive": "sha256",
        "family": "hash",
        "operation": "digest",
        "size": 64,
        "params": {},
        "status": "ok",
        "error": None,
        "median_ns": 100.0,
        "ci_low_ns": 99.0,
        "ci_high_ns": 101.0,
        "precision": 0.01,
        "throughput_mb_s": 640.0,
        "n_samples": 10,
        "samples": [],
        "flags": [],
        "security_status": "recommended",
    }
    r.update(over)
    return r


def doc(*results) -> dict:
    return {
        "schema": "cryptobench/results/v1",
        "run": {},
        "machine": {"cpu_model": HOSTILE},
        "results": list(results),
    }


def test_csv_neutralises_formulas():
    text = report.render("csv", doc(result(), result(status="failed", error="-2+3")))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["library_version"].startswith("'=")
    assert rows[0]["backend"].startswith("'@")
    assert rows[1]["error"] == "'-2+3"
    assert rows[0]["median_ns"] == "100.0"  # numbers stay numbers


def test_markdown_escapes_pipes_and_html():
    text = report.render("markdown", doc(result()))
    assert "<img" not in text and "&lt;img" in text
    assert "\\|=cmd" in text
    table_rows = [ln for ln in text.splitlines() if ln.startswith("| sha256")]
    assert table_rows and all(ln.count(" | ") == 1 for ln in table_rows)  # label + one size


def test_terminal_marks_the_fastest_and_shows_failures():
    slow = result(implementation="b/slow", median_ns=200.0, throughput_mb_s=320.0)
    fast = result(implementation="a/fast")
    bad = result(implementation="c/bad", status="failed", error="disagrees with a/fast")
    text = report.render("table", doc(slow, fast, bad))
    fast_line = next(ln for ln in text.splitlines() if "a/fast" in ln)
    assert "★" in fast_line and "640.0" in fast_line
    assert "FAILED c/bad sha256 digest 64: disagrees with a/fast" in text


def test_layout_groups_by_family_operation_and_params():
    a = result(params={"aad_len": 13, "fresh_context": False}, family="aead", operation="seal")
    b = result(params={"aad_len": 13, "fresh_context": True}, family="aead", operation="seal")
    titles = [t.title for t in layout.tables([a, b, result()])]
    assert titles == [
        "hash · digest",
        "aead · seal · aad_len=13",
        "aead · seal · aad_len=13 fresh_context",
    ]


def test_slow_families_are_shown_in_ms():
    r = result(
        family="password-hash",
        primitive="bcrypt",
        operation="hash",
        size=8,
        median_ns=55_000_000.0,
        throughput_mb_s=None,
    )
    (t,) = layout.tables([r])
    assert t.unit == "ms/op" and layout.cell(r, t.unit) == "55.00"


def _probed(*ns: float) -> dict:
    return {"run": {"settings": {"rounds": len(ns)}, "probes": [{"median_ns": x} for x in ns]}}


def test_the_method_note_says_a_machine_was_busy_only_past_its_bound():
    busy = layout.method_note(_probed(860, 1140, 1140, 820, 1070, 1110, 1040, 1090))
    assert "(spread 39.0%)" in busy
    assert "the machine was busy" in busy and "1.39x as long" in busy
    assert "measure on a quiet machine" in busy
    assert "cryptobench doctor --machine" in busy  # how to tell when one is
    quiet = layout.method_note(_probed(1000, 1040, 1120, 1010))
    assert "(spread 12.0%)" in quiet
    assert "busy" not in quiet


def test_the_method_note_says_a_machine_was_slower_than_its_fastest_earlier_run():
    doc = _probed(1900, 1940, 1980, 1950)  # every round alike, each 2.4x the earlier run's
    fastest = {"ns": 800.0, "run": "0123456789abcdef", "started": "2026-12-02T04:03:00+00:00"}
    doc["run"]["measuring"] = {"fastest_probe": fastest}
    note = layout.method_note(doc)
    assert "busy" not in note.split("slower")[0]  # the probes did not spread
    assert "the drift probe read 2.43x as long as in this machine's fastest earlier run" in note
    assert "(0.80 µs, run 01234567 on 2026-12-02)" in note and "not comparable" in note
    doc["run"]["measuring"]["fastest_probe"]["ns"] = 1700.0  # 1.14x: a quiet machine's
    assert "slower than it has been" not in layout.method_note(doc)

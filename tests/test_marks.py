"""The mark rule (docs/reports.md, "Marks"): a figure is marked only when its uncertainty
changes how it reads, and every mark used is explained under its table."""

from __future__ import annotations

from cryptobench.report import layout


def _row(impl: str, median: float, half: float, size: int = 64, flags=()) -> dict:
    return {
        "implementation": impl,
        "runtime": impl.split("/")[0],
        "library": impl.split("/")[1],
        "primitive": "sha256",
        "family": "hash",
        "operation": "digest",
        "size": size,
        "params": {},
        "status": "ok",
        "median_ns": median,
        "ci_low_ns": median * (1 - half),
        "ci_high_ns": median * (1 + half),
        "precision": half,
        "throughput_mb_s": size / median * 1e3,
        "flags": list(flags),
    }


def _cells(rows: list[dict]) -> tuple[dict, list[str]]:
    (t,) = layout.tables(rows)
    return {label.split()[-1]: cells[64] for label, cells in t.rows}, t.notes


def test_a_narrow_interval_is_not_marked_even_when_flagged():
    cells, notes = _cells([_row("c/a", 100, 0.01, flags=["rounds differ"]), _row("c/b", 200, 0.02)])
    assert all("mark" not in c for c in cells.values())
    assert layout.cell(cells["c/a"], "MB/s") == "640.0"
    assert notes == []


def test_a_wide_interval_is_marked_and_explained():
    cells, notes = _cells([_row("c/a", 100, 0.01), _row("c/b", 200, 0.08)])
    assert cells["c/b"]["mark"] == "?" and "mark" not in cells["c/a"]
    assert layout.cell(cells["c/b"], "MB/s").endswith(" ?")
    assert notes == [layout.WIDE_NOTE]


def test_the_fastest_that_overlaps_its_runner_up_is_marked():
    cells, notes = _cells([_row("c/a", 100, 0.03), _row("c/b", 104, 0.03), _row("c/c", 300, 0)])
    assert cells["c/a"]["mark"] == "≈"
    assert "mark" not in cells["c/b"]  # only the ranking claim (★) is in question
    assert notes == [layout.TIE_NOTE]


def test_both_marks_and_both_notes():
    cells, notes = _cells([_row("c/a", 100, 0.06), _row("c/b", 105, 0.01)])
    assert cells["c/a"]["mark"] == "?≈"
    assert notes == [layout.WIDE_NOTE, layout.TIE_NOTE]


def test_the_rows_themselves_are_not_changed():
    rows = [_row("c/a", 100, 0.06), _row("c/b", 105, 0.01)]
    _cells(rows)
    assert all("mark" not in r for r in rows)


def test_rounds_that_differ_say_which_measured_reason():
    from cryptobench.results.document import _why_apart

    def rnd(med, half):
        return {"median_ns": med, "ci_low_ns": med * (1 - half), "ci_high_ns": med * (1 + half)}

    scattered = [rnd(40e3, 0.2), rnd(70e3, 0.3), rnd(55e3, 0.25)]
    steady = [rnd(166.0, 0.01), rnd(220.0, 0.01), rnd(205.0, 0.012)]
    assert "scatter within each round" in _why_apart(scattered)
    assert "each round steady (±1.0%)" in _why_apart(steady)

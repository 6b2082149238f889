"""The section model (report.sections) as HTML: one sortable table per section, a "run" column
first when the page holds several runs' rows, numbers sortable by their exact value, the leak
curve as an inline SVG line. Every string from a results file goes through ``esc``."""

from __future__ import annotations

from collections.abc import Callable

from ...stats import leak as stats
from ..sections import Curve, Num, Section
from .charts import Run, esc
from .tables import table, td

W, H = 180, 36

# what a section means, said once above its table (the text formats say it in their notes)
INTRO = {
    "noop": "Each runtime's noop through the same dispatch and loop: its per-call overhead, "
    "shown next to small-message results; cryptobench never subtracts it.",
}


def svg(curve) -> str:
    """max |t| against measurements; the threshold 4.5 is the dashed line (no script)."""
    if not curve:
        return ""
    top = max(2 * stats.LEAK_T, *(abs(float(t)) for _, t in curve))
    n_max = max(float(n) for n, _ in curve) or 1.0
    pts = " ".join(
        f"{W * float(n) / n_max:.1f},{H - H * abs(float(t)) / top:.1f}" for n, t in curve
    )
    y = H - H * stats.LEAK_T / top
    return (
        f'<svg width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
        f'aria-label="max |t| against measurements">'
        f'<line x1="0" x2="{W}" y1="{y:.1f}" y2="{y:.1f}" stroke="#c00" stroke-dasharray="3,3"/>'
        f'<polyline fill="none" stroke="#036" stroke-width="1.5" points="{pts}"/></svg>'
    )


def cell(c) -> str:
    if isinstance(c, Curve):
        return f"<td>{svg(c.points)}</td>"
    if isinstance(c, Num):
        return td(c.text, "" if c.value is None else f"{float(c.value):.9g}")
    return td(c)


def render(runs: list[tuple[str, list[dict]]], make: Callable[[list[dict]], list[Section]]) -> str:
    """``make`` (a builder of report.sections) applied to each run's results, as one
    ``<section>``: "" when no run has rows for it."""
    found = [(label, s) for label, results in runs for s in make(results)]
    if not found:
        return ""
    first = found[0][1]
    columns = [("run", False)] + [(c, first.is_numeric(i)) for i, c in enumerate(first.columns)]
    rows = [
        f"<tr>{td(label)}{''.join(cell(c) for c in row)}</tr>"
        for label, s in found
        for row in s.rows
    ]
    title = first.title[:1].upper() + first.title[1:]
    notes = [n for n in dict.fromkeys(n for _, s in found for n in s.notes)]
    intro = f"<p>{esc(INTRO[first.id])}</p>" if first.id in INTRO else ""
    return (
        f'<section id="{esc(first.id)}"><h2>{esc(title)}</h2>{intro}'
        + table(f"table-{first.id}", columns, rows, title)
        + "".join(f"<p>{esc(n)}</p>" for n in notes)
        + "</section>"
    )


def of_runs(runs: list[Run]) -> list[tuple[str, list[dict]]]:
    return [(run.label, run.results) for run in runs]

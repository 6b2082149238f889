"""The HTML report's section for `cryptobench leak` cases: one table row per case with its
max |t| against the measurements as an inline SVG line (no script: the threshold 4.5 is the
dashed line). Every value is escaped or a number."""

from __future__ import annotations

from ...stats import leak as stats
from .. import leak as leak_report
from .charts import esc

W, H = 180, 36


def without_leak(doc: dict) -> dict:
    """The document the other sections chart: every case but the leak ones."""
    return {**doc, "results": [r for r in doc.get("results", []) if not leak_report.is_leak(r)]}


def _svg(curve) -> str:
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


def section(docs: list[dict], labels: list[str]) -> str:
    """The section, or "" when no run holds a leak case."""
    body = []
    for doc, label in zip(docs, labels, strict=True):
        by_row = [r for r in doc.get("results", []) if leak_report.is_leak(r)]
        for r, row in zip(by_row, leak_report.rows(by_row), strict=True):
            curve = (r.get("leak") or {}).get("curve") or []
            cells = (label, *row.cells())
            body.append(
                "<tr>"
                + "".join(f"<td>{esc(c)}</td>" for c in cells)
                + f"<td>{_svg(curve) if r['status'] == 'ok' else ''}</td></tr>"
            )
    if not body:
        return ""
    head = "".join(f"<th>{esc(c)}</th>" for c in ("run", *leak_report.COLUMNS))
    return (
        '<section id="leak"><h2>Timing leakage (dudect)</h2>'
        f'<table class="cb-table" id="table-leak"><thead><tr>{head}'
        "<th>|t| vs measurements</th></tr></thead><tbody>"
        + "\n".join(body)
        + f"</tbody></table><p>{esc(leak_report.NOTE)}</p></section>"
    )

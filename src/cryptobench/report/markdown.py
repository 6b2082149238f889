"""Markdown tables to paste into a post: pipes and HTML from results files are escaped."""

from __future__ import annotations

import html

from . import layout
from . import leak as leak_report


def esc(text) -> str:
    return html.escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def render(doc: dict, show_precision: bool = False, **_) -> str:
    machine = doc.get("machine", {})
    lines = [
        f"Machine: {esc(machine.get('cpu_model', '?'))}, {machine.get('cores', '?')} cores, "
        f"{esc(machine.get('os', ''))}",
        "",
    ]
    for t in layout.tables(doc["results"]):
        lines += [f"### {esc(t.title)} ({t.unit})", ""]
        lines.append(
            "| primitive · implementation | " + " | ".join(f"{s} B" for s in t.sizes) + " |"
        )
        lines.append("|---|" + "---:|" * len(t.sizes))
        for label, cells in t.rows:
            row = []
            for size in t.sizes:
                text = esc(layout.cell(cells.get(size), t.unit, show_precision))
                row.append(f"**{text}**" if t.best.get(size) == label else text)
            lines.append(f"| {esc(label)} | " + " | ".join(row) + " |")
        lines.append("")
    fitted = layout.fits(doc["results"])
    if fitted:
        lines += [
            "### Per-call overhead and per-byte cost (t(n) = a + b·n)",
            "",
            "| case · implementation | a: ns/call | b: ns/byte | 1/b: MB/s |",
            "|---|---:|---:|---:|",
        ]
        lines += [
            f"| {esc(label)} | {f.per_call_ns:.0f} | {f.per_byte_ns:.3f} | "
            f"{f.asymptotic_mb_s:.0f} |"
            for label, f in fitted
        ]
        lines.append("")
    noop = layout.noop_rows(doc["results"])
    if noop:
        lines.append(
            "Runner overhead (noop, ns/call): "
            + ", ".join(f"{esc(rt)} {ns:.0f}" for rt, ns in noop)
        )
    leak_rows = leak_report.rows(doc["results"])
    if leak_rows:
        lines += [
            "### Timing leakage (dudect)",
            "",
            "| " + " | ".join(esc(c) for c in (*leak_report.COLUMNS, "|t| vs measurements")) + " |",
            "|---" * (len(leak_report.COLUMNS) + 1) + "|",
        ]
        lines += [
            "| " + " | ".join(esc(c) for c in (*row.cells(), row.curve)) + " |" for row in leak_rows
        ]
        lines += ["", esc(leak_report.NOTE), ""]
    for case, reason in layout.problems(doc["results"]):
        lines.append(f"- FAILED {esc(case)}: {esc(reason)}")
    lines += ["", f"Method: {esc(layout.method_note(doc))}."]
    return "\n".join(lines) + "\n"

"""Markdown tables to paste into a post: pipes and HTML from results files are escaped."""

from __future__ import annotations

import html

from . import layout


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
    ups = layout.speedups(doc["results"])
    if ups:
        lines += [
            "### What the hardware buys (default path's speed-up, 95% interval)",
            "",
            "| case | size | implementation | speed-up |",
            "|---|---:|---|---|",
        ]
        lines += [
            f"| {esc(s.case)} | {s.size} B | {esc(s.implementation)} | "
            f"{esc(layout.speedup_text(s))} |"
            for s in ups
        ]
        lines.append("")
    scaled = layout.scaling_rows(doc["results"])
    if scaled:
        lines += [
            "### All cores: N workers at once",
            "",
            "| case | implementation | workers | per worker | aggregate | efficiency |",
            "|---|---|---:|---:|---:|---:|",
        ]
        lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in scaled]
        lines.append("")
    noop = layout.noop_rows(doc["results"])
    if noop:
        lines.append(
            "Runner overhead (noop, ns/call): "
            + ", ".join(f"{esc(rt)} {ns:.0f}" for rt, ns in noop)
        )
    for case, reason in layout.problems(doc["results"]):
        lines.append(f"- FAILED {esc(case)}: {esc(reason)}")
    lines += ["", f"Method: {esc(layout.method_note(doc))}."]
    return "\n".join(lines) + "\n"

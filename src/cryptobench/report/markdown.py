"""Markdown tables to paste into a post: pipes and HTML from results files are escaped."""

from __future__ import annotations

import html

from . import calibration, hardware, layout
from . import leak as leak_report


def esc(text) -> str:
    return html.escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def caption(doc: dict) -> str:
    """What a pasted table needs to be read alone: the machine, the command, the run."""
    machine = doc.get("machine") or {}
    run = doc.get("run") or {}
    parts = [
        f"{machine.get('cpu_model', '?')}, {machine.get('cores', '?')} cores, "
        f"{machine.get('os', '')}".rstrip(", "),
        f"command: {run.get('command') or '?'}",
        f"run {str(run.get('id', '?'))[:8]} of {str(run.get('started', '?'))[:10]}",
    ]
    return " · ".join(_no_emphasis(esc(p)) for p in parts)


def _no_emphasis(text: str) -> str:
    """A command line inside the italic caption: its `*`, `_` and backticks stay literal."""
    for ch in "\\*_`":
        text = text.replace(ch, "\\" + ch)
    return text


def _table(t: layout.Table, show_precision: bool, note: str) -> list[str]:
    better = "higher" if t.unit == "MB/s" else "lower"
    lines = [f"### {esc(t.title)} ({t.unit})", ""]
    lines.append(
        f"| {esc(t.head.replace('  ', ' · '))} | " + " | ".join(f"{s} B" for s in t.sizes) + " |"
    )
    lines.append("|---|" + "---:|" * len(t.sizes))
    for label, cells in t.rows:
        row = []
        for size in t.sizes:
            text = esc(layout.cell(cells.get(size), t.unit, show_precision))
            row.append(f"**{text}**" if t.best.get(size) == label else text)
        lines.append(f"| {esc(label)} | " + " | ".join(row) + " |")
    lines.append("")
    notes = [esc(n) for n in t.notes]
    lines.append(f"*{t.unit}, {better} is better, **bold** the fastest. {note}*")
    lines += [f"*{n}*" for n in notes]
    lines.append("")
    return lines


def render(doc: dict, show_precision: bool = False, group_by: str = "family", **_) -> str:
    machine = doc.get("machine", {})
    lines = [
        f"Machine: {esc(machine.get('cpu_model', '?'))}, {machine.get('cores', '?')} cores, "
        f"{esc(machine.get('os', ''))}",
        "",
    ]
    if calibration.applies(doc):
        return "\n".join(lines + _calibration(calibration.view(doc))) + "\n"
    note = caption(doc)
    results = doc["results"]
    for t in layout.tables(results, group_by):
        lines += _table(t, show_precision, note)
    for section in (_fits, _speedups, _scaling, _noop, _leak):
        lines += section(results)
    for case, reason in layout.problems(results):
        lines.append(f"- FAILED {esc(case)}: {esc(reason)}")
    lines += ["", f"Method: {esc(layout.method_note(doc))}."]
    return "\n".join(lines) + "\n"


def _section(title: str, head: tuple[str, ...], align: str, rows: list[tuple]) -> list[str]:
    """A titled Markdown table (``align``: one ``---``/``---:`` cell per column)."""
    if not rows:
        return []
    out = [f"### {title}", "", "| " + " | ".join(head) + " |", align]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return [*out, ""]


def _fits(results: list[dict]) -> list[str]:
    rows = [(esc(label), *f.cells()) for label, f in layout.fits(results)]
    head = ("case · implementation", "a: ns/call", "b: ns/byte", "1/b: MB/s")
    title = "Per-call overhead and per-byte cost (t(n) = a + b·n)"
    return _section(title, head, "|---|---:|---:|---:|", rows)


def _speedups(results: list[dict]) -> list[str]:
    rows = [
        (esc(s.case), f"{s.size} B", esc(s.implementation), esc(hardware.speedup_text(s)))
        for s in hardware.speedups(results)
    ]
    title = "What the hardware buys (default path's speed-up, 95% interval)"
    return _section(
        title, ("case", "size", "implementation", "speed-up"), "|---|---:|---|---|", rows
    )


def _scaling(results: list[dict]) -> list[str]:
    rows = [tuple(esc(c) for c in row) for row in hardware.scaling_rows(results)]
    head = ("case", "implementation", "workers", "per worker", "aggregate", "efficiency")
    return _section("All cores: N workers at once", head, "|---|---|---:|---:|---:|---:|", rows)


def _noop(results: list[dict]) -> list[str]:
    noop = layout.noop_rows(results)
    if not noop:
        return []
    return [
        "Runner overhead (noop, ns/call): " + ", ".join(f"{esc(rt)} {ns:.0f}" for rt, ns in noop)
    ]


def _leak(results: list[dict]) -> list[str]:
    rows = [tuple(esc(c) for c in (*r.cells(), r.curve)) for r in leak_report.rows(results)]
    head = tuple(esc(c) for c in (*leak_report.COLUMNS, "|t| vs measurements"))
    align = "|---" * (len(leak_report.COLUMNS) + 1) + "|"
    out = _section("Timing leakage (dudect)", head, align, rows)
    return [*out, esc(leak_report.NOTE), ""] if out else []


def _calibration(v) -> list[str]:
    lines = [f"### {esc(v.title)}", ""]
    lines.append("| " + " | ".join(calibration.COLUMNS) + " |")
    lines.append("|---|---|---|---|" + "---:|" * (len(calibration.COLUMNS) - 4))
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in v.rows]
    lines.append("")
    lines += [f"- not calibrated: {esc(line)}" for line in v.others]
    lines += [f"- {esc(line)}" for line in v.notes]
    return lines

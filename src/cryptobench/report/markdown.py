"""Markdown tables of the section model (report.sections) to paste into a post: pipes and
HTML from results files are escaped."""

from __future__ import annotations

import html

from . import layout, sections
from .sections import Options, Section


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


def _head(s: Section) -> list[str]:
    head = [esc(c.replace("  ", " · ")) for c in s.columns]
    align = "".join("---:|" if s.is_numeric(j) else "---|" for j in range(len(s.columns)))
    return ["| " + " | ".join(head) + " |", "|" + align]


def _cells(s: Section, i: int, row: tuple) -> list[str]:
    return [f"**{esc(c)}**" if (i, j) in s.best else esc(c) for j, c in enumerate(row)]


def _caption(s: Section, note: str) -> list[str]:
    """A size table's caption: its unit, which way is better, where it comes from."""
    if s.unit is None:
        return []
    better = "higher" if s.unit == "MB/s" else "lower"
    return [f"*{s.unit}, {better} is better, **bold** the fastest. {note}*"]


def section_lines(s: Section, note: str = "") -> list[str]:
    """One section: a titled table with its notes in italics, or one line (``style="line"``)."""
    title = s.title if s.unit else s.title[:1].upper() + s.title[1:]  # size tables: ids
    if s.style == "line":
        items = ", ".join(" ".join(esc(c) for c in row) for row in s.rows)
        return [f"{esc(title)}: {items}"]
    unit = f" ({s.unit})" if s.unit else ""
    lines = [f"### {esc(title)}{unit}", "", *_head(s)]
    lines += ["| " + " | ".join(_cells(s, i, row)) + " |" for i, row in enumerate(s.rows)]
    lines.append("")
    notes = _caption(s, note) + [f"*{esc(n)}*" for n in s.notes]
    return lines + (notes + [""] if notes else [])


def render(doc: dict, opts: Options | None = None, **kw) -> str:
    opts = sections.options(opts, **kw)
    machine = doc.get("machine", {})
    lines = [
        f"Machine: {esc(machine.get('cpu_model', '?'))}, {machine.get('cores', '?')} cores, "
        f"{esc(machine.get('os', ''))}",
        "",
    ]
    note = caption(doc)
    for s in sections.build(doc, opts):
        lines += section_lines(s, note)
    if sections.is_calibration(doc):
        return "\n".join(lines) + "\n"
    for case, reason in layout.problems(doc["results"]):
        lines.append(f"- FAILED {esc(case)}: {esc(reason)}")
    lines += ["", f"Method: {esc(layout.method_note(doc))}."]
    return "\n".join(lines) + "\n"

"""Rich terminal tables of the section model (report.sections): the size tables (one per
family and operation, or per primitive, per runtime, or the fastest per runtime:
``group_by``) with the fastest per size in bold and ★, then the other sections. Titles are
printed above their table and wrap at word boundaries; size columns that do not fit the width
go to a continuation table rather than being squeezed."""

from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from . import layout, sections
from .sections import Options, Section
from .tty import DEFAULT_WIDTH


def _texts(s: Section) -> list[list[str]]:
    """Every cell as printed: the fastest of a size table with its ★."""
    return [
        [f"{c} ★" if (i, j) in s.best else str(c) for j, c in enumerate(row)]
        for i, row in enumerate(s.rows)
    ]


def _chunks(s: Section, texts: list[list[str]], width: int) -> list[list[int]]:
    """A size table's columns split so each part fits ``width`` (at least one per part); the
    label column repeats in every part. Other sections are one part."""
    if s.unit is None:
        return [list(range(1, len(s.columns)))]
    label_width = max([len(s.columns[0])] + [len(row[0]) for row in texts])
    chunks: list[list[int]] = [[]]
    used = label_width + 4
    for j in range(1, len(s.columns)):
        need = max([len(s.columns[j])] + [len(row[j]) for row in texts]) + 3
        if chunks[-1] and used + need > width:
            chunks.append([])
            used = label_width + 4
        chunks[-1].append(j)
        used += need
    return chunks


def _title(s: Section, part: int, parts: int) -> str:
    more = f"part {part + 1} of {parts}" if parts > 1 else ""
    if s.unit is not None:
        return f"{s.title}  ({s.unit}; ★ fastest{', ' + more if more else ''})"
    return f"{s.title}  ({more})" if more else s.title


def _table(s: Section, texts: list[list[str]], columns: list[int]) -> RichTable:
    table = RichTable()
    # labels give way before numbers do, but between words while the width allows
    words = [len(w) for row in texts for w in row[0].split()] or [0]
    table.add_column(s.columns[0], overflow="fold", min_width=min(max(words), 40))
    for j in columns:
        if s.is_numeric(j):
            table.add_column(
                s.columns[j], justify="right", no_wrap=s.unit is not None, overflow="fold"
            )
        else:
            table.add_column(s.columns[j], overflow="fold")
    for i, row in enumerate(texts):
        cells = [escape(row[j]) for j in columns]
        cells = [
            f"[bold]{c}[/bold]" if (i, j) in s.best else c
            for j, c in zip(columns, cells, strict=True)
        ]
        table.add_row(escape(row[0]), *cells)
    return table


def print_section(console: Console, s: Section, width: int) -> None:
    if s.style == "line":
        items = ", ".join(" ".join(str(c) for c in row) for row in s.rows)
        console.print(f"{s.title}: {items}", markup=False, highlight=False)
        return
    texts = _texts(s)
    chunks = _chunks(s, texts, width)
    for n, columns in enumerate(chunks):
        console.print(_title(s, n, len(chunks)), markup=False, highlight=False)
        console.print(_table(s, texts, columns))
    for note in s.notes:
        console.print(note, markup=False, highlight=False)


def render(doc: dict, opts: Options | None = None, **kw) -> str:
    opts = sections.options(opts, **kw)
    buf = io.StringIO()
    width = opts.width or DEFAULT_WIDTH
    console = Console(
        file=buf, force_terminal=opts.color, width=width, no_color=not opts.color, highlight=False
    )
    for s in sections.build(doc, opts):
        print_section(console, s, width)
    if not sections.is_calibration(doc):
        _footer(console, doc)
    return buf.getvalue()


def _footer(console: Console, doc: dict) -> None:
    results = doc["results"]
    for case, reason in layout.problems(results):
        console.print(
            f"[red]FAILED[/red] {escape(case)}: {escape(reason)}", markup=True, highlight=False
        )
    console.print(layout.method_note(doc), markup=False, highlight=False)

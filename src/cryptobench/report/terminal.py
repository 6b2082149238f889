"""Rich terminal tables: one per family and operation (or per primitive, per runtime, or the
fastest per runtime: ``group_by``); the fastest per size in bold. Titles are printed above
their table and wrap at word boundaries; size columns that do not fit the width go to a
continuation table rather than being squeezed."""

from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from . import calibration, hardware, layout
from . import leak as leak_report
from .tty import DEFAULT_WIDTH


def _size_chunks(t: layout.Table, texts: dict, label_width: int, width: int) -> list[list[int]]:
    """The table's sizes split so each part fits ``width`` (at least one size per part)."""
    chunks: list[list[int]] = [[]]
    used = label_width + 4
    for size in t.sizes:
        need = max([len(f"{size} B")] + [len(x) for x in texts[size]]) + 3
        if chunks[-1] and used + need > width:
            chunks.append([])
            used = label_width + 4
        chunks[-1].append(size)
        used += need
    return chunks


def _print_table(console: Console, t: layout.Table, show_precision: bool, width: int) -> None:
    texts: dict[int, list[str]] = {}
    for size in t.sizes:
        texts[size] = []
        for label, cells in t.rows:
            text = layout.cell(cells.get(size), t.unit, show_precision)
            texts[size].append(f"{text} ★" if t.best.get(size) == label else text)
    label_width = max([len(t.head)] + [len(lbl) for lbl, _ in t.rows])
    chunks = _size_chunks(t, texts, label_width, width)
    for n, sizes in enumerate(chunks):
        more = f", part {n + 1} of {len(chunks)}" if len(chunks) > 1 else ""
        console.print(f"{t.title}  ({t.unit}; ★ fastest{more})", markup=False, highlight=False)
        table = RichTable()
        table.add_column(t.head, overflow="fold")  # labels give way before numbers do
        for size in sizes:
            table.add_column(f"{size} B", justify="right", no_wrap=True)
        for i, (label, _) in enumerate(t.rows):
            row = []
            for size in sizes:
                text = texts[size][i]
                row.append(f"[bold]{escape(text)}[/bold]" if text.endswith("★") else escape(text))
            table.add_row(escape(label), *row)
        console.print(table)
    for note in t.notes:
        console.print(note, markup=False, highlight=False)


def render(
    doc: dict,
    show_precision: bool = False,
    color: bool = False,
    width: int | None = None,
    group_by: str = "family",
    **_,
) -> str:
    buf = io.StringIO()
    width = width or DEFAULT_WIDTH
    console = Console(
        file=buf, force_terminal=color, width=width, no_color=not color, highlight=False
    )
    results = doc["results"]
    if calibration.applies(doc):
        return _calibration(console, buf, calibration.view(doc))
    for t in layout.tables(results, group_by):
        _print_table(console, t, show_precision, width)
    for section in (_fits, _speedups, _scaling, _noop, _leak):
        section(console, results)
    _footer(console, doc)
    return buf.getvalue()


def _fits(console: Console, results: list[dict]) -> None:
    fitted = layout.fits(results)
    if not fitted:
        return
    console.print(
        "per-call overhead and per-byte cost: t(n) = a + b·n (Theil–Sen)",
        markup=False,
        highlight=False,
    )
    table = RichTable()
    for col in ("case  implementation", "a: ns/call", "b: ns/byte", "1/b: MB/s"):
        table.add_column(col, justify="left" if col.startswith("case") else "right")
    for label, fit in fitted:
        table.add_row(escape(label), *fit.cells())
    console.print(table)


def _speedups(console: Console, results: list[dict]) -> None:
    ups = hardware.speedups(results)
    if not ups:
        return
    table = RichTable(
        title="what the hardware buys: default path's speed-up over the features switched "
        "off (95% interval)",
        title_justify="left",
    )
    for col in ("case", "size", "implementation", "speed-up"):
        table.add_column(col, justify="right" if col == "size" else "left")
    for s in ups:
        table.add_row(s.case, f"{s.size} B", s.implementation, hardware.speedup_text(s))
    console.print(table)


def _scaling(console: Console, results: list[dict]) -> None:
    scaled = hardware.scaling_rows(results)
    if not scaled:
        return
    table = RichTable(
        title="all cores: N workers at once (per worker: median; efficiency = aggregate / "
        "(N × one worker alone))",
        title_justify="left",
    )
    for col in ("case", "implementation", "workers", "per worker", "aggregate", "efficiency"):
        table.add_column(col, justify="left" if col in ("case", "implementation") else "right")
    for row in scaled:
        table.add_row(*row)
    console.print(table)


def _noop(console: Console, results: list[dict]) -> None:
    noop = layout.noop_rows(results)
    if noop:
        console.print(
            "runner overhead (noop, ns per call): " + ", ".join(f"{rt} {ns:.0f}" for rt, ns in noop)
        )


def _leak(console: Console, results: list[dict]) -> None:
    leak_rows = leak_report.rows(results)
    if not leak_rows:
        return
    table = RichTable(title="timing leakage (dudect)", title_justify="left")
    for col in (*leak_report.COLUMNS, "|t| vs measurements"):
        table.add_column(col, overflow="fold")
    for row in leak_rows:
        table.add_row(*row.cells(), row.curve)
    console.print(table)
    console.print(leak_report.NOTE, markup=False, highlight=False)


def _footer(console: Console, doc: dict) -> None:
    results = doc["results"]
    for case, reason in layout.problems(results):
        console.print(
            f"[red]FAILED[/red] {escape(case)}: {escape(reason)}", markup=True, highlight=False
        )
    console.print(layout.method_note(doc), markup=False, highlight=False)


def _calibration(console: Console, buf: io.StringIO, v) -> str:
    table = RichTable(title=v.title, title_justify="left")
    for i, col in enumerate(calibration.COLUMNS):
        table.add_column(col, justify="left" if i < 4 else "right")
    for row in v.rows:
        table.add_row(*row)
    console.print(table, markup=False)
    for line in v.others:
        console.print(f"not calibrated: {line}", markup=False, highlight=False)
    for line in v.notes:
        console.print(line, markup=False, highlight=False)
    return buf.getvalue()

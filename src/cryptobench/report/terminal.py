"""Rich terminal tables: one per family and operation; the fastest per size in bold."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table as RichTable

from . import layout
from . import leak as leak_report


def render(
    doc: dict, show_precision: bool = False, color: bool = False, width: int = 160, **_
) -> str:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=color, width=width, no_color=not color)
    results = doc["results"]
    for t in layout.tables(results):
        table = RichTable(title=f"{t.title}  ({t.unit}; ★ fastest)", title_justify="left")
        table.add_column("primitive  implementation", no_wrap=True)
        for size in t.sizes:
            table.add_column(f"{size} B", justify="right")
        for label, cells in t.rows:
            row = []
            for size in t.sizes:
                text = layout.cell(cells.get(size), t.unit, show_precision)
                if t.best.get(size) == label:
                    text = f"[bold]{text} ★[/bold]"
                row.append(text)
            table.add_row(label, *row)
        console.print(table)
    fitted = layout.fits(results)
    if fitted:
        table = RichTable(
            title="per-call overhead and per-byte cost: t(n) = a + b·n (Theil–Sen)",
            title_justify="left",
        )
        for col in ("case  implementation", "a: ns/call", "b: ns/byte", "1/b: MB/s"):
            table.add_column(col, justify="left" if col.startswith("case") else "right")
        for label, fit in fitted:
            table.add_row(
                label,
                f"{fit.per_call_ns:.0f}",
                f"{fit.per_byte_ns:.3f}",
                f"{fit.asymptotic_mb_s:.0f}",
            )
        console.print(table)
    noop = layout.noop_rows(results)
    if noop:
        console.print(
            "runner overhead (noop, ns per call): " + ", ".join(f"{rt} {ns:.0f}" for rt, ns in noop)
        )
    leak_rows = leak_report.rows(results)
    if leak_rows:
        table = RichTable(title="timing leakage (dudect)", title_justify="left")
        for col in (*leak_report.COLUMNS, "|t| vs measurements"):
            table.add_column(col, overflow="fold")
        for row in leak_rows:
            table.add_row(*row.cells(), row.curve)
        console.print(table)
        console.print(leak_report.NOTE, markup=False, highlight=False)
    for case, reason in layout.problems(results):
        console.print(f"[red]FAILED[/red] {case}: {reason}", markup=True, highlight=False)
    if len(leak_rows) < len(results):
        console.print(layout.method_note(doc), markup=False, highlight=False)
    if any(r.get("flags") for r in results):
        console.print(
            "? = noisy or imprecise result: `cryptobench show RUN --format json` lists its flags"
        )
    return buf.getvalue()

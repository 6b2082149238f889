"""What `verify` shows of Project Wycheproof: plain `verify`'s rows for the seeded sample,
and `verify --suite wycheproof`'s table (or JSON) per implementation."""

from __future__ import annotations

import io
import json

from rich.console import Console
from rich.table import Table

from ..verify.wycheproof import Tally
from .tty import terminal_width


def matrix_rows(tallies: list[Tally]) -> list[dict]:
    """Plain `verify`'s rows for the seeded sample (one per implementation)."""
    rows = []
    for t in tallies:
        detail = f"{t.passed} passed, {sum(t.unsupported.values())} unsupported"
        if t.failed:
            detail = f"{len(t.failed)} failed: {t.failed[0]}"
        rows.append(
            {
                "implementation": t.implementation,
                "primitive": "wycheproof sample",
                "operation": "*",
                "status": "ok" if t.ok else "failed",
                "detail": detail,
            }
        )
    return rows


def render(tallies: list[Tally], fmt: str) -> str:
    """`verify --suite wycheproof`: per implementation, passed / unsupported / failed."""
    if fmt == "json":
        return json.dumps({"wycheproof": [t.as_dict() for t in tallies]}, indent=2) + "\n"
    table = Table(title="Project Wycheproof (vectors/wycheproof)", title_justify="left")
    for col in ("implementation", "passed", "unsupported", "failed", "why unsupported / failed"):
        table.add_column(col, overflow="fold")
    for t in tallies:
        reasons = ", ".join(
            f"{n}× {r.removeprefix('unsupported: ')}" for r, n in t.unsupported.items()
        )
        detail = "; ".join(t.failed[:3]) + (f" (+{len(t.failed) - 3})" if len(t.failed) > 3 else "")
        table.add_row(
            t.implementation,
            str(t.passed),
            str(sum(t.unsupported.values())),
            str(len(t.failed)) if t.failed else "0",
            detail or reasons,
        )
    buf = io.StringIO()
    console = Console(file=buf, width=terminal_width(), no_color=True)
    console.print(table)
    failed = sum(not t.ok for t in tallies)
    console.print(f"{len(tallies) - failed} implementations passed, {failed} failed")
    return buf.getvalue()

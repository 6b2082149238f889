"""Commands for results from several machines: machines, history (and the whole-store file
reading that `import` shares)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from ..errors import DataError
from ..report.tty import terminal_width
from ..results import fleet
from ..results import history as history_mod
from .common import Sources, _validator, db_option, guarded, read_results_file, read_user_file


@click.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@guarded
def machines(db, fmt):
    """The machines in the store: CPU, flags, instance type and how many runs each."""
    rows = fleet.machines(Sources(db).store.runs())
    if fmt == "json":
        click.echo(json.dumps({"machines": rows}, indent=2))
        return
    t = Table(title="machines", title_justify="left")
    for col in (
        "label",
        "machine id",
        "hostname",
        "cpu",
        "cores",
        "flags",
        "instance",
        "runs",
        "last run",
    ):
        t.add_column(col, overflow="fold")
    for r in rows:
        t.add_row(
            r["label"],
            (r["machine_id"] or "")[:8],
            r["hostname"] or "",
            r["cpu_model"] or "",
            str(r["cores"] or ""),
            " ".join(r["flags"]),
            r["instance_type"] or r["virtualisation"] or "",
            str(r["runs"]),
            r["last_run"] or "",
        )
    click.echo(_text(t), nl=False)


@click.command()
@click.argument("case_filter", metavar="CASE-FILTER")
@click.option("--machine", default=None, help="only this machine (label, hostname or id prefix)")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@db_option
@guarded
def history(case_filter, machine, fmt, db):
    """One case's median and 95% interval in every stored run, per machine, oldest first;
    a significant change from the run before is flagged. CASE-FILTER: IMPL:PRIMITIVE
    [:OPERATION[:SIZE]], each part a glob, e.g. 'go/stdlib:sha256::1024'."""
    store = Sources(db).store
    series = history_mod.history(store, case_filter, machine)
    if fmt == "json":
        doc = [
            {"machine": m, "case": list(key), "points": [p.__dict__ for p in pts]}
            for (m, key), pts in series.items()
        ]
        click.echo(json.dumps({"history": doc}, indent=2))
        return
    if not series:
        click.echo(f"no measured case matches {case_filter!r}")
        return
    out = []
    for (mach, key), pts in series.items():
        impl, prim, op, size, params = key
        extra = "" if params == "{}" else f" {params}"
        t = Table(title=f"{impl} {prim} {op} {size} B{extra} on {mach}", title_justify="left")
        for col in ("started", "run", "median ns/op", "95% CI", "change"):
            t.add_column(col)
        for p in pts:
            t.add_row(
                p.started,
                p.run_label,
                f"{p.median_ns:.4g}",
                f"{p.ci_low_ns:.4g}–{p.ci_high_ns:.4g}",
                p.change or "~",
            )
        out.append(_text(t))
    click.echo("\n".join(out), nl=False)


def _text(renderable) -> str:
    buf = io.StringIO()
    Console(file=buf, width=terminal_width(), no_color=True).print(renderable)
    return buf.getvalue()


def read_documents(path: Path) -> list[dict]:
    """The results documents in a results file or a whole-store file (`export --all`), each
    validated against the results schema."""
    try:
        head = json.loads(read_user_file(path))
    except (DataError, json.JSONDecodeError):
        head = None  # read_results_file says what is wrong, in one line
    if not (isinstance(head, dict) and head.get("schema") == fleet.STORE_SCHEMA):
        return [read_results_file(path)]
    from jsonschema.exceptions import best_match

    for i, doc in enumerate(head.get("runs") or []):
        error = best_match(_validator().iter_errors(doc))
        if error is not None:
            raise DataError(f"{path}: run {i} is not a valid results document: {error.message}")
    return head.get("runs") or []


COMMANDS = (machines, history)

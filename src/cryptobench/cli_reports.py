"""The commands around stored results: report (HTML), compare, import, export.

Each takes runs from the store (an id prefix or `last`) or results files (FILE.json, as
`cryptobench export` or `run --format json` write them). A results file from elsewhere is
validated against results.schema.json first; a bad one is one line and exit 1.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from . import compare as compare_mod
from . import report as report_mod
from . import results
from .cli import err, guarded, main
from .errors import CryptobenchError, DataError
from .paths import default_db
from .report import comparison
from .store import Store

SCHEMA_PATH = Path(__file__).with_name("results.schema.json")
DB_HELP = f"SQLite store (default {default_db()})"


@functools.cache
def _validator():
    import jsonschema  # only when a file is read: keeps every other command quick to start

    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_results_file(path: Path) -> dict:
    """A results document from a file, validated against the schema (DataError if not)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not a cryptobench results file (not UTF-8 text)") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"{path}: not a cryptobench results file (invalid JSON: {exc.msg} at line "
            f"{exc.lineno} column {exc.colno})"
        ) from None
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(doc))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the document"
        raise DataError(
            f"{path}: not a valid cryptobench results file (schema {results.SCHEMA}): "
            f"at {_short(where, 60)}: {_short(error.message)}"
        )
    return doc


def _is_file_ref(ref: str) -> bool:
    return ref.endswith(".json") or "/" in ref or Path(ref).is_file()


class Sources:
    """Resolves RUN or FILE.json arguments; opens the store only when a run id is given."""

    def __init__(self, db: str | None):
        self.db = db
        self._store: Store | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(Path(self.db) if self.db else default_db())
        return self._store

    def load(self, ref: str) -> dict:
        if _is_file_ref(ref):
            return read_results_file(Path(ref))
        run, stored = self.store.load(ref)
        return results.document(run, stored)


def _write(text: str, output: str | None) -> None:
    if not output:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CryptobenchError(f"cannot write {output}: {exc.strerror}") from None
    err.print(f"wrote {output}", markup=False)


@main.command("report")
@click.argument("refs", nargs=-1, metavar="[RUN|FILE.json]...")
@click.option(
    "--html", "html_path", required=True, type=click.Path(dir_okay=False), help="write it here"
)
@click.option("--title", default=None, help="the page title")
@click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@guarded
def report_cmd(refs, html_path, title, db):
    """One self-contained HTML report (charts, sortable tables, machines) of runs
    (default: `last`) or results files; several runs are shown side by side."""
    from .report import html as html_report  # plotly: loaded only for this command

    sources = Sources(db)
    docs = [sources.load(ref) for ref in refs or ("last",)]
    path = Path(html_path)
    try:
        html_report.write(path, docs, title=title)
    except OSError as exc:
        raise CryptobenchError(f"cannot write {path}: {exc.strerror}") from None
    click.echo(str(path.resolve()))


@main.command("compare")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option(
    "--fail-above",
    type=click.FloatRange(0),
    default=None,
    metavar="PCT",
    help="exit 3 if a significant slowdown exceeds PCT percent",
)
@click.option("--format", "fmt", type=click.Choice(sorted(comparison.FORMATS)), default="table")
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=compare_mod.ALPHA,
    show_default=True,
    help="false discovery rate (Benjamini–Hochberg)",
)
@click.option(
    "--min-effect",
    type=click.FloatRange(0),
    default=compare_mod.MIN_EFFECT * 100,
    show_default=True,
    help="smallest change in percent that is called a change",
)
@click.option("--output", default=None, help="write the comparison here instead of stdout")
@click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@guarded
def compare_cmd(a, b, fail_above, fmt, alpha, min_effect, output, db):
    """B against A (runs or results files): ratio of medians with its CI, Mann–Whitney U
    p-values with Benjamini–Hochberg control, `~` where not significant."""
    sources = Sources(db)
    doc_a, doc_b = sources.load(a), sources.load(b)
    label_a, label_b = compare_mod.run_labels([doc_a, doc_b])
    cmp = compare_mod.compare(doc_a, doc_b, alpha=alpha, min_effect=min_effect / 100)
    _write(comparison.render(fmt, cmp, label_a, label_b, fail_above), output)
    if not cmp.cases:
        err.print("cryptobench: no case was measured in both runs", markup=False)
        sys.exit(1)
    if fail_above is not None and cmp.slowdowns_above(fail_above):
        sys.exit(3)


@main.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@guarded
def import_cmd(file, db):
    """Add a results file (e.g. from another machine) to the store; prints its run id."""
    doc = read_results_file(Path(file))
    store = Sources(db).store
    store.import_run({**doc["run"], "machine": doc["machine"]}, doc["results"])
    err.print(
        f"imported run {doc['run']['id'][:8]} ({len(doc['results'])} cases) into {store.path}",
        markup=False,
    )
    click.echo(doc["run"]["id"])


@main.command("export")
@click.argument("run_ref", metavar="RUN")
@click.option("--format", "fmt", type=click.Choice(["json"]), default="json", show_default=True)
@click.option("--output", default=None, help="write it here instead of stdout")
@click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@guarded
def export_cmd(run_ref, fmt, output, db):
    """One stored run as a results file (`cryptobench import` reads it back)."""
    run, stored = Sources(db).store.load(run_ref)
    _write(report_mod.render(fmt, results.document(run, stored)), output)

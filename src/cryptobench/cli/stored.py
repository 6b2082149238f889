"""The commands around stored results: runs, show, report (HTML), compare, import, export.

Each takes runs from the store (an id prefix or `last`) or results files (FILE.json, as
`cryptobench export` or `run --format json` write them). A results file from elsewhere is
validated against results.schema.json first; a bad one is one line and exit 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import compare as compare_mod
from .. import listing, results
from .. import report as report_mod
from ..errors import CryptobenchError
from ..report import comparison
from .common import FORMATS, Sources, db_option, err, guarded, output, read_results_file, write


@click.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@guarded
def runs(db, fmt):
    """The runs in the store."""
    click.echo(listing.render_runs(Sources(db).store.runs(), fmt), nl=False)


@click.command()
@click.argument("run_ref", metavar="RUN")
@db_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table")
@click.option("--output", "output_path", default=None)
@click.option("--show-precision", is_flag=True)
@click.option(
    "--group-by",
    type=click.Choice(("family", "primitive", "runtime", "best")),  # report.layout.GROUPINGS
    default="family",
    show_default=True,
    help="one table per family, per primitive, per runtime, or the fastest per runtime (best)",
)
@guarded
def show(run_ref, db, fmt, output_path, show_precision, group_by):
    """One stored run (an id prefix, or `last`) in any format."""
    run_doc, stored = Sources(db).store.load(run_ref)
    output(results.document(run_doc, stored), fmt, output_path, show_precision, group_by)


@click.command("report")
@click.argument("refs", nargs=-1, metavar="[RUN|FILE.json]...")
@click.option(
    "--html", "html_path", required=True, type=click.Path(dir_okay=False), help="write it here"
)
@click.option("--title", default=None, help="the page title")
@db_option
@guarded
def report_cmd(refs, html_path, title, db):
    """One self-contained HTML report (charts, sortable tables, machines) of runs
    (default: `last`) or results files; several runs are shown side by side."""
    from ..report import html as html_report  # plotly: loaded only for this command

    sources = Sources(db)
    docs = [sources.load(ref) for ref in refs or ("last",)]
    path = Path(html_path)
    try:
        html_report.write(path, docs, title=title)
    except OSError as exc:
        raise CryptobenchError(f"cannot write {path}: {exc.strerror}") from None
    bundle, _ = html_report.plotly_bundle()
    note = "" if "basic" in bundle else "; web/ not set up (make setup): full plotly.js inlined"
    err.print(f"report: {path.stat().st_size / 1e6:.1f} MB, {bundle}{note}", markup=False)
    click.echo(str(path.resolve()))


@click.command("compare")
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
@db_option
@guarded
def compare_cmd(a, b, fail_above, fmt, alpha, min_effect, output, db):
    """B against A (runs or results files): ratio of medians with its CI, Mann–Whitney U
    p-values with Benjamini–Hochberg control, `~` where not significant."""
    sources = Sources(db)
    doc_a, doc_b = sources.load(a), sources.load(b)
    label_a, label_b = compare_mod.run_labels([doc_a, doc_b])
    cmp = compare_mod.compare(doc_a, doc_b, alpha=alpha, min_effect=min_effect / 100)
    write(comparison.render(fmt, cmp, label_a, label_b, fail_above), output)
    if not cmp.cases:
        err.print("cryptobench: no case was measured in both runs", markup=False)
        sys.exit(1)
    if fail_above is not None and cmp.slowdowns_above(fail_above):
        sys.exit(3)


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@db_option
@guarded
def import_cmd(file, db):
    """Add a results file (e.g. from another machine) to the store; prints its run id."""
    doc = read_results_file(Path(file))
    store = Sources(db).store
    run = {**doc["run"], "machine": doc["machine"], "results_schema": doc["schema"]}
    store.import_run(run, doc["results"])
    err.print(
        f"imported run {doc['run']['id'][:8]} ({len(doc['results'])} cases) into {store.path}",
        markup=False,
    )
    click.echo(doc["run"]["id"])


@click.command("export")
@click.argument("run_ref", metavar="RUN")
@click.option("--format", "fmt", type=click.Choice(["json"]), default="json", show_default=True)
@click.option("--output", default=None, help="write it here instead of stdout")
@db_option
@guarded
def export_cmd(run_ref, fmt, output, db):
    """One stored run as a results file (`cryptobench import` reads it back)."""
    run, stored = Sources(db).store.load(run_ref)
    write(report_mod.render(fmt, results.document(run, stored)), output)


COMMANDS = (runs, show, report_cmd, compare_cmd, import_cmd, export_cmd)

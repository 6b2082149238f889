"""The commands around stored results: runs, show, report (HTML), compare, import, export.

Each takes runs from the store (an id prefix or `last`) or results files (FILE.json, as
`cryptobench export` or `run --format json` write them). A results file from elsewhere is
validated against results.schema.json first; a bad one is one line and exit 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import report as report_mod
from ..errors import CryptobenchError, UsageError
from ..report import comparison
from ..results import compare as compare_mod
from ..results import document as results
from . import listing
from .common import FORMATS, Sources, db_option, err, guarded, output, write
from .types import Finite


@click.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
@click.option(
    "--machine", default=None, help="only runs of this machine (label, hostname or id prefix)"
)
@guarded
def runs(db, fmt, machine):
    """The runs in the store (a run whose process is gone shows as interrupted)."""
    from ..results.fleet import runs_of_machine

    found = Sources(db).store.runs()
    click.echo(listing.render_runs(runs_of_machine(found, machine), fmt), nl=False)


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
    """One stored run (an id prefix, a name, or `last`) in any format."""
    run_doc, stored = Sources(db).store.load(run_ref)
    output(results.document(run_doc, stored), fmt, output_path, show_precision, group_by)


@click.command("report")
@click.argument("refs", nargs=-1, metavar="[RUN|FILE.json]...")
@click.option(
    "--html", "html_path", required=True, type=click.Path(dir_okay=False), help="write it here"
)
@click.option("--title", default=None, help="the page title")
@click.option(
    "--machines", default=None, metavar="A,B,…", help="add each machine's last run (labels)"
)
@click.option(
    "--normalise-to", default=None, metavar="MACHINE", help="the machine ratios are taken to"
)
@db_option
@guarded
def report_cmd(refs, html_path, title, machines, normalise_to, db):
    """One self-contained HTML report (charts, sortable tables, machines) of runs
    (default: `last`) or results files; several runs are shown side by side, and runs from
    several machines get a machine × implementation matrix."""
    from ..report.html import page as html_report
    from ..results.fleet import check_machine, last_runs_of

    sources = Sources(db)
    refs = list(refs) + (last_runs_of(sources.store, machines.split(",")) if machines else [])
    docs = [sources.load(ref, raw=False) for ref in refs or ("last",)]  # the page shows no samples
    check_machine(docs, normalise_to)
    path = Path(html_path)
    try:
        html_report.write(path, docs, title=title, normalise_to=normalise_to)
    except OSError as exc:
        raise CryptobenchError(f"cannot write {path}: {exc.strerror}") from None
    bundle, _ = html_report.plotly_bundle()
    note = "" if "basic" in bundle else "; web/ not set up (make setup): full plotly.js inlined"
    err.print(f"report: {path.stat().st_size / 1e6:.1f} MB, {bundle}{note}", markup=False)
    click.echo(str(path.resolve()))


@click.command("compare")
@click.argument("a", metavar="BASELINE")
@click.argument("candidates", nargs=-1, required=True, metavar="CANDIDATE...")
@click.option(
    "--fail-above",
    type=Finite(0),
    default=None,
    metavar="PCT",
    help="exit 3 if a significant slowdown exceeds PCT percent",
)
@click.option("--format", "fmt", type=click.Choice(sorted(comparison.FORMATS)), default="table")
@click.option(
    "--alpha",
    type=Finite(0, 1, min_open=True, max_open=True),
    default=compare_mod.ALPHA,
    show_default=True,
    help="false discovery rate (Benjamini–Hochberg)",
)
@click.option(
    "--min-effect",
    type=Finite(0),
    default=None,
    help=f"smallest change in percent that is called a change (default {compare_mod.MIN_EFFECT:.0%}"
    "; instruction counts: --fail-above's PCT, else 0.5)",
)
@click.option(
    "--metric",
    type=click.Choice(["auto", "time", "instructions"]),
    default="auto",
    show_default=True,
    help="what is compared; auto: instructions per operation when both runs were counted "
    "(run --metric instructions), else time",
)
@click.option(
    "--machine-level",
    "machine",
    type=click.Choice(compare_mod.LEVELS),
    default="auto",
    show_default=True,
    help="take the machine's shift between the runs (the drift probe's B/A) out of every "
    "ratio: probe, none, or auto (probe when both runs come from one machine)",
)
@click.option("--output", default=None, help="write the comparison here instead of stdout")
@db_option
@guarded
def compare_cmd(a, candidates, fail_above, fmt, alpha, min_effect, metric, machine, output, db):
    """Each CANDIDATE against BASELINE (runs, run names or results files): the ratio of the
    round estimates with its CI (Welch's t over the rounds; Mann–Whitney U on the batches only
    for one-round runs), Benjamini–Hochberg control; a change is called only when it is at
    least --min-effect and its CI excludes 1, `~` otherwise. Runs counted with `run --metric
    instructions`: the exact ratio of the counts against a threshold. One table per candidate
    (docs/reports.md, "When a change is called")."""
    from ..report.comparison import compare_many

    sources = Sources(db)
    docs = [sources.load(ref) for ref in (a, *candidates)]
    base_id = docs[0]["run"].get("id")
    for ref, doc in zip(candidates, docs[1:], strict=True):
        if doc["run"].get("id") == base_id:
            err.print(
                f"note: {ref!r} is the same run as {a!r} ({str(base_id)[:8]}): every case is "
                "compared with itself, so nothing can differ",
                markup=False,
            )
    effect = None if min_effect is None else min_effect / 100
    text, empty, slow = compare_many(docs, fmt, alpha, effect, fail_above, metric, machine)
    write(text, output)
    if empty:
        err.print("cryptobench: no case was measured in both runs", markup=False)
        sys.exit(1)
    if slow:
        sys.exit(3)


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@db_option
@guarded
def import_cmd(file, db):
    """Add a results file, or a whole store from `export --all`, to the store (e.g. from
    another machine, or SQLite into PostgreSQL); prints the run ids added. Importing twice
    adds nothing."""
    from ..catalog import primitives as catalog
    from ..results.fleet import import_documents
    from .fleet import read_documents

    docs = read_documents(Path(file))
    store = Sources(db, create=True).store
    added, summary, refused = import_documents(store, docs, catalog.load())
    for line in refused:
        err.print(line, markup=False)
    err.print(summary, markup=False)
    for run_id in added:
        click.echo(run_id)
    if refused:
        sys.exit(1)


@click.command("export")
@click.argument("run_ref", metavar="RUN", required=False)
@click.option("--all", "everything", is_flag=True, help="every run: the whole store")
@click.option("--format", "fmt", type=click.Choice(["json"]), default="json", show_default=True)
@click.option("--output", default=None, help="write it here instead of stdout")
@db_option
@guarded
def export_cmd(run_ref, everything, fmt, output, db):
    """One stored run as a results file, or with --all the whole store (`cryptobench import`
    reads either back, into SQLite or PostgreSQL)."""
    if everything == bool(run_ref):
        raise UsageError("give one RUN (an id prefix, a name or `last`) or --all")
    store = Sources(db).store
    if everything:
        from ..results.fleet import export_all

        text, summary = export_all(store)
        write(text, output)
        err.print(summary, markup=False)
        return
    run, stored = store.load(run_ref)
    write(report_mod.render(fmt, results.document(run, stored)), output)


COMMANDS = (runs, show, report_cmd, compare_cmd, import_cmd, export_cmd)

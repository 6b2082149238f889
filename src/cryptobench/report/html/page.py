"""One self-contained HTML report of one or more runs (docs/reports.md).

Everything is inline: plotly.js draws the charts (the `plotly.js-basic-dist-min` partial
bundle, bar and scatter only, which `make setup` installs from web/package.json; the full
bundle the plotly Python package ships where that is missing), DataTables (the bundle the
itables package ships) makes the tables sortable and filterable, and the page's own CSS and
scripts tie them together. Nothing is fetched when the page is viewed, and a
Content-Security-Policy forbids it. Every value that comes from a results file is data:
HTML-escaped where it is markup, and embedded as JSON where `<`, `>` and `&` are escaped, so
``</script>`` or ``<!--`` in a library name can never end the data block. Only the page's own
scripts run: the policy lists their hashes, so even an injected event handler would not.
"""

from __future__ import annotations

import base64
import datetime as dt
import functools
import hashlib
import importlib.util
import json
from importlib import resources
from pathlib import Path

import plotly
import plotly.io as pio
from plotly.offline import get_plotlyjs, get_plotlyjs_version

from ... import __version__
from ...catalog.primitives import PUBKEY_FAMILIES
from ...results.compare import run_labels
from .. import sections as model
from . import charts as html_charts
from . import leak as html_leak
from . import machines as html_machines
from . import methodology as html_methodology
from . import sections as html_sections
from . import tables as html_tables
from . import views as html_views
from .charts import Run, esc

# installed by `make setup` from web/package.json (npm ci); pinned there
WEB = Path(__file__).resolve().parents[4] / "web" / "node_modules"
PARTIAL_BUNDLE = WEB / "plotly.js-basic-dist-min" / "plotly-basic.min.js"
DATATABLES = (
    WEB / "datatables.net" / "js" / "dataTables.min.mjs",
    WEB / "datatables.net-dt" / "css" / "dataTables.dataTables.min.css",
)

FAMILY_NAMES = {
    "hash": "Hashes",
    "xof": "Extendable-output functions",
    "checksum": "Checksums and non-cryptographic hashes",
    "mac": "MACs",
    "cipher": "Ciphers",
    "aead": "AEADs",
    "password-hash": "Password hashes",
    "kdf": "Key derivation functions",
    "kex": "Key agreement",
    "signature": "Signatures",
    "kem": "Key encapsulation",
}


def _asset(name: str) -> str:
    return resources.files("cryptobench.report").joinpath("assets", name).read_text("utf-8")


@functools.cache
def _datatables() -> tuple[str, str]:
    """(ES module, CSS) of DataTables: DataTables 3 from web/ (~150 kB) when set up, else the
    bundle with every extension that the itables package ships (~700 kB; read, never
    imported). The module is inlined as text with `%` and `<` percent-encoded (itables' holds
    `<!--` and `<script`, which would change how the page parses the block); the page decodes
    it back."""
    try:
        js, css = (path.read_text("utf-8") for path in DATATABLES)
    except OSError:
        spec = importlib.util.find_spec("itables")
        folder = Path(next(iter(spec.submodule_search_locations))) / "html"
        js = (folder / "dt_bundle.js").read_text("utf-8")
        css = (folder / "dt_bundle.css").read_text("utf-8")
    return js.replace("%", "%25").replace("<", "%3C"), css


@functools.cache
def plotly_bundle() -> tuple[str, str]:
    """(name, source) of the plotly.js to inline: the basic partial bundle (bar, scatter;
    ~1.2 MB) when set up and of the plotly package's plotly.js version, else the full bundle
    the plotly package ships (~4.6 MB)."""
    try:
        text = PARTIAL_BUNDLE.read_text("utf-8")
    except OSError:
        text = ""
    if text and f"v{get_plotlyjs_version()}" in text[:400]:
        return f"plotly.js-basic-dist-min {get_plotlyjs_version()}", text
    return f"plotly.js {get_plotlyjs_version()} (full bundle)", get_plotlyjs()


def _inline_ok(text: str, tag: str) -> str:
    if f"</{tag}" in text.lower():
        raise RuntimeError(f"an inlined asset contains </{tag}: it cannot be inlined safely")
    return text


def json_for_script(obj) -> str:
    """JSON safe inside <script type=application/json>: no `<`, `>` or `&` at all."""
    text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _sha256(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def csp(scripts: list[str]) -> str:
    return "; ".join(
        [
            "default-src 'none'",
            "script-src " + " ".join(_sha256(s) for s in scripts) + " blob:",
            "style-src 'unsafe-inline'",
            "img-src data: blob:",
            "font-src data:",
            "connect-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )


def _family_section(family: str, charts: list, runs: list[Run]) -> str:
    rows = [(run, r) for run in runs for r in run.results if r.get("family") == family]
    name = FAMILY_NAMES.get(family, family)
    parts = [f'<section id="family-{esc(family)}"><h2>{esc(name)}</h2>']
    if charts:
        parts.append('<div class="cb-charts">')
        for chart in charts:
            parts.append(
                f'<figure class="cb-chart" data-kind="{chart.kind}">'
                f'<div id="{chart.id}" class="cb-plot"></div></figure>'
            )
        parts.append("</div>")
    parts.append(html_tables.results_table(f"table-{family}", rows, len(runs) > 1))
    parts.append("</section>")
    return "\n".join(parts)


def _nav(families: list[str]) -> str:
    items = ['<a href="#explore">Explore</a>']
    items += [f'<a href="#family-{esc(f)}">{esc(FAMILY_NAMES.get(f, f))}</a>' for f in families]
    if set(PUBKEY_FAMILIES) & set(families):  # their sections: html.sections
        items.append('<a href="#public-key">Public-key operations</a>')
        items.append('<a href="#public-key-sizes">Public-key sizes</a>')
    if {"kex", "signature"} <= set(families):
        items.append('<a href="#tls-handshake">TLS handshake</a>')
    if "kem" in families:
        items.append('<a href="#pq-migration">Post-quantum migration</a>')
    items += ['<a href="#fits">Per-call and per-byte cost</a>', '<a href="#runs">Runs</a>']
    items += ['<a href="#machines">Machines</a>', '<a href="#methodology">Methodology</a>']
    return '<nav class="cb-nav">' + " · ".join(items) + "</nav>"


def body(
    runs: list[Run], charts: dict[str, list], explore: dict, normalise_to: str | None = None
) -> str:
    families = list(charts) + sorted(
        {r.get("family") for run in runs for r in run.results} - set(charts) - {"noop", None}
    )
    generated = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    head = [
        "<header><h1>cryptobench report</h1>",
        "<ul class=cb-runs>"
        + "".join(f"<li><b>{esc(r.label)}</b> {html_tables.run_summary(r)}</li>" for r in runs)
        + "</ul>",
        f"<p class=cb-generated>Generated {esc(generated)} by cryptobench {esc(__version__)}; "
        "every chart and table is in this one file.</p>",
        _nav(families),
        "</header><main>",
        html_views.section(runs, explore),
    ]
    sections = [_family_section(f, charts.get(f, []), runs) for f in families]
    tail = [
        html_sections.render(html_sections.of_runs(runs), model.public_key),
        html_sections.render(html_sections.of_runs(runs), model.public_key_sizes),
        html_sections.render(html_sections.of_runs(runs), model.tls_handshake),
        html_sections.render(html_sections.of_runs(runs), model.pq_migration),
        html_machines.section(runs, normalise_to),
        html_tables.fits_section(runs),
        html_sections.render(html_sections.of_runs(runs), model.noop),
        html_tables.problems_section(runs),
        html_tables.runs_section(runs),
        html_tables.machines_section(runs),
        html_methodology.section(),
        "</main>",
    ]
    return "\n".join(head + sections + tail)


def render(docs, opts: model.Options | None = None, **kw) -> str:
    """The report of one results document or a list of them."""
    opts = model.options(opts, **kw)
    title, normalise_to = opts.title, opts.normalise_to
    docs = [docs] if isinstance(docs, dict) else list(docs)
    labels = run_labels(docs)
    runs = [Run(i, labels[i], html_leak.without_leak(doc)) for i, doc in enumerate(docs)]
    charts = html_charts.charts(runs)
    explore = html_views.data(runs)
    data = {
        "template": pio.templates["plotly_white"].to_plotly_json(),
        "charts": [{"id": c.id, "kind": c.kind, **c.figure} for cs in charts.values() for c in cs],
        "explore": explore,
    }
    bundle_name, plotly_js = plotly_bundle()
    plotly_js = _inline_ok(plotly_js, "script")
    page_js = _inline_ok(_asset("report.js"), "script")
    explore_js = _inline_ok(_asset("explore.js"), "script")
    dt_text, dt_css = _datatables()
    page_title = title or "cryptobench report: " + ", ".join(r.label for r in runs)
    generator = f"cryptobench {__version__}; {bundle_name}; plotly {plotly.__version__}"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp([plotly_js, page_js, explore_js])}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{esc(generator)}">
<title>{esc(page_title)}</title>
<style>{_inline_ok(dt_css, "style")}</style>
<style>{_inline_ok(_asset("report.css"), "style")}</style>
</head>
<body>
<noscript><p class="cb-warning">Charts and table sorting need JavaScript;
the tables below are complete without it.</p></noscript>
{body(runs, charts, explore, normalise_to)}
{_leak(docs, labels)}
<script type="application/json" id="cb-data">{json_for_script(data)}</script>
<script type="text/plain" id="cb-datatables">{dt_text}</script>
<script>{plotly_js}</script>
<script>{page_js}</script>
<script>{explore_js}</script>
</body>
</html>
"""


def _leak(docs: list[dict], labels: list[str]) -> str:
    """The leak cases of every run (the other sections chart the runs without them)."""
    runs = [(label, doc.get("results", [])) for doc, label in zip(docs, labels, strict=True)]
    return html_sections.render(runs, model.leak)


def write(path: Path, docs, title: str | None = None, normalise_to: str | None = None) -> Path:
    path = Path(path)
    opts = model.Options(title=title, normalise_to=normalise_to)
    path.write_text(render(docs, opts), encoding="utf-8")
    return path

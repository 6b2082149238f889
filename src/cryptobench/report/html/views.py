"""The HTML report's "Explore" views: the data and the controls they are drawn from.

The page's script (assets/report.js) draws, from the compact records built here, one
horizontal bar chart per primitive at the chosen message size (sorted, the round-level 95%
interval as whiskers, coloured by runtime), the same per-runtime and fastest-per-runtime
views as `cryptobench show --group-by`, and a size-sweep line chart of a few implementations.
Pure data shaping and escaped markup; strings stay raw in the JSON and are escaped by the
script before Plotly sees them.
"""

from __future__ import annotations

from plotly.colors import qualitative

from .. import layout
from .charts import Run, esc

PALETTE = qualitative.Plotly + qualitative.D3 + qualitative.Dark24
# one record per measured case, as a list in this order (the page makes objects of them)
FIELDS = (
    "run",
    "impl",
    "runtime",
    "library",
    "family",
    "primitive",
    "op",
    "params",
    "size",
    "ns",
    "lo",
    "hi",
    "fresh",
    "slow",
)
VIEWS = (
    ("primitive", "one chart per primitive"),
    ("runtime", "per runtime: which library?"),
    ("best", "fastest implementation of each runtime"),
)


def _records(run: Run) -> list[list]:
    """One record per measured case, reused-key gaps filled by fresh-context figures (marked
    `fresh`), fresh-context groups that only held those stand-ins left out."""
    rows = layout.with_fresh_figures(
        [r for r in run.results if r.get("family") != "noop" and r.get("family")]
    )
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        key = (r["family"], r["primitive"], r["operation"], layout._pj(r.get("params") or {}))
        groups.setdefault(key, []).append(r)
    out = []
    for rs in groups.values():
        if all(r.get("shown_as_substitute") for r in rs):
            continue
        for r in rs:
            if r.get("status") != "ok" or not r.get("median_ns"):
                continue
            out.append(
                [
                    run.index,
                    r["implementation"],
                    r.get("runtime") or r["implementation"].split("/")[0],
                    r.get("library") or r["implementation"].split("/", 1)[-1],
                    r["family"],
                    r["primitive"],
                    r["operation"],
                    layout.params_label(r.get("params") or {}),
                    r["size"],
                    _g(r["median_ns"]),
                    _g(r.get("ci_low_ns") or r["median_ns"]),
                    _g(r.get("ci_high_ns") or r["median_ns"]),
                    1 if r.get("fresh_substitute") else 0,
                    # time per operation, not MB/s: password hashes, KDFs, public-key ops
                    1 if r["family"] in (*layout.SLOW, *layout.PUBKEY_FAMILIES) else 0,
                ]
            )
    return out


def _g(x: float) -> float:
    return float(f"{x:.6g}")  # six significant digits: far below any interval's width


def data(runs: list[Run]) -> dict:
    """What the Explore views are drawn from (embedded as JSON in the page)."""
    records = [rec for run in runs for rec in _records(run)]
    at = {name: i for i, name in enumerate(FIELDS)}
    runtimes = sorted({rec[at["runtime"]] for rec in records})
    fast_sizes = sorted({rec[at["size"]] for rec in records if not rec[at["slow"]]})
    default = 1024 if 1024 in fast_sizes else (fast_sizes[len(fast_sizes) // 2 :] or [None])[0]
    return {
        "fields": FIELDS,
        "records": records,
        "runs": [run.label for run in runs],
        "runtimes": runtimes,
        "colors": {rt: PALETTE[i % len(PALETTE)] for i, rt in enumerate(runtimes)},
        "sizes": fast_sizes,
        "size": default,
        "families": list(layout.FAMILY_ORDER),
        "fresh_note": layout.FRESH_NOTE,
    }


def section(runs: list[Run], explore: dict) -> str:
    """The Explore section's markup: controls (filled and wired by the script) and the
    containers the charts are drawn into."""
    if not explore["records"]:
        return '<section id="explore"><h2>Explore</h2><p>No measured case.</p></section>'
    views = "".join(f'<option value="{v}">{esc(text)}</option>' for v, text in VIEWS)
    sizes = "".join(
        f'<option value="{s}"{" selected" if s == explore["size"] else ""}>{s} B</option>'
        for s in explore["sizes"]
    )
    boxes = "".join(
        f'<label class="cb-rt"><input type="checkbox" value="{esc(rt)}" checked>'
        f'<span class="cb-swatch" style="background:{esc(explore["colors"][rt])}"></span>'
        f"{esc(rt)}</label>"
        for rt in explore["runtimes"]
    )
    return f"""<section id="explore"><h2>Explore</h2>
<p>Bars: throughput at one message size (password hashes and KDFs: milliseconds per operation
at their parameters), fastest on top, whiskers the 95% interval of the median over rounds;
colour = runtime. {esc(layout.FRESH_NOTE)}. Click a bar to add that implementation to the
size sweep below (click again to remove it).</p>
<div class="cb-controls">
<label>View <select id="cb-view">{views}</select></label>
<label>Message size <select id="cb-size">{sizes}</select></label>
<fieldset id="cb-runtimes"><legend>Runtimes</legend>{boxes}
<button type="button" id="cb-rt-all">all</button>
<button type="button" id="cb-rt-none">none</button></fieldset>
</div>
<div id="cb-bars" class="cb-charts cb-bars"></div>
<h3>Size sweep</h3>
<p id="cb-sweep-note">Throughput against message size (log–log) for a few implementations: by
default the fastest of each runtime at the chosen size; clicked bars replace that choice.</p>
<div id="cb-sweeps" class="cb-charts"></div>
</section>"""

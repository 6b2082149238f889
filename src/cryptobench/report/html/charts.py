"""The HTML report's per-family charts: Plotly figures (validated by plotly's graph objects)
as plain dicts, drawn in the page by the inlined plotly.js. Pure data shaping, no HTML.

Plotly renders a small subset of HTML tags inside labels, so every string from a results file
is HTML-escaped here (`<b>` in a library name shows as text, never as markup).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

import plotly.graph_objects as go
from plotly.colors import qualitative

from ... import stats
from .. import layout

PALETTE = qualitative.Plotly + qualitative.D3 + qualitative.Dark24


def esc(text) -> str:
    return html.escape(str(text), quote=True)


@dataclass
class Run:
    """One results document in the report, with the label that tells it apart."""

    index: int
    label: str
    doc: dict

    @property
    def results(self) -> list[dict]:
        return self.doc.get("results", [])


@dataclass
class Chart:
    id: str
    kind: str  # "fit"
    family: str
    title: str
    figure: dict  # {"data": [...], "layout": {...}} without a template


class Styler:
    """Colour per implementation, marker symbol per run: the same implementation has the
    same colour in every chart."""

    def __init__(self, runs: list[Run]):
        impls = sorted({r["implementation"] for run in runs for r in run.results})
        self.color = {impl: PALETTE[i % len(PALETTE)] for i, impl in enumerate(impls)}
        self.many_runs = len(runs) > 1

    def name(self, impl: str, run: Run) -> str:
        return esc(f"{impl} · {run.label}" if self.many_runs else impl)


def _figure(traces: list, title: str, **axes) -> dict:
    fig = go.Figure(data=traces)
    fig.update_layout(
        title={"text": esc(title)},
        legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0},
        margin={"l": 70, "r": 20, "t": 50, "b": 40},
        height=420 + 10 * len(traces),
        **axes,
    )
    out = fig.to_plotly_json()
    out["layout"].pop("template", None)  # one shared template in the page
    # plain lists and floats; a non-finite number becomes null (a gap), never invalid JSON
    return json.loads(json.dumps(out), parse_constant=lambda _: None)


def _ok(results: list[dict]) -> list[dict]:
    return [
        r
        for r in results
        if r.get("status") == "ok" and r.get("median_ns") and r.get("family") != "noop"
    ]


def _params_key(r: dict) -> str:
    return json.dumps(r.get("params") or {}, sort_keys=True)


def fit_points(runs: list[Run], family: str | None = None) -> list[dict]:
    """t(n) = a + b·n per case series (stats.fit_overhead), as the HTML tables show it."""
    series: dict[tuple, list[dict]] = {}
    for run in runs:
        for r in _ok(run.results):
            if r["family"] in layout.SLOW or (family and r["family"] != family):
                continue
            key = (run.index, r["implementation"], r["primitive"], r["operation"], _params_key(r))
            series.setdefault(key, []).append(r)
    out = []
    for (idx, impl, prim, op, params_json), rs in sorted(series.items()):
        fit = stats.fit_overhead([r["size"] for r in rs], [r["median_ns"] for r in rs])
        if fit is None:
            continue
        out.append(
            {
                "run": idx,
                "implementation": impl,
                "family": rs[0]["family"],
                "case": f"{prim} {op} {layout.params_label(json.loads(params_json))}".strip(),
                "sizes": len({r["size"] for r in rs}),
                "fit": fit,
            }
        )
    return out


def fit_chart(runs: list[Run], styler: Styler, family: str) -> list[Chart]:
    """Per-call overhead against per-byte cost, log–log, one point per case series."""
    points = [p for p in fit_points(runs, family) if p["fit"].per_call_ns > 0]
    points = [p for p in points if p["fit"].significant]
    if not points:
        return []
    by_series: dict[tuple, list[dict]] = {}
    for p in points:
        by_series.setdefault((p["implementation"], p["run"]), []).append(p)
    traces = [
        go.Scatter(
            x=[p["fit"].per_byte_ns for p in ps],
            y=[p["fit"].per_call_ns for p in ps],
            mode="markers",
            marker={"size": 10, "color": styler.color[impl], "symbol": idx % 8},
            name=styler.name(impl, runs[idx]),
            text=[esc(p["case"]) for p in ps],
            hovertemplate="%{text}<br>a = %{y:.4g} ns/call<br>b = %{x:.4g} ns/byte"
            "<extra>%{fullData.name}</extra>",
        )
        for (impl, idx), ps in sorted(by_series.items())
    ]
    title = f"{family}: per-call overhead vs per-byte cost, t(n) = a + b·n"
    fig = _figure(
        traces,
        title,
        xaxis={"type": "log", "title": {"text": "b: per-byte cost (ns/byte)"}},
        yaxis={"type": "log", "title": {"text": "a: per-call overhead (ns)"}},
    )
    return [Chart("", "fit", family, title, fig)]


def charts(runs: list[Run]) -> dict[str, list[Chart]]:
    """The per-family charts (per-call overhead against per-byte cost), by family in the
    report's family order, with ids; the bars and size sweeps are drawn by the Explore view
    (html_views)."""
    styler = Styler(runs)
    families = {r["family"] for run in runs for r in _ok(run.results)}
    order = list(layout.FAMILY_ORDER) + sorted(families - set(layout.FAMILY_ORDER))
    out: dict[str, list[Chart]] = {}
    n = 0
    for family in (f for f in order if f in families):
        found = [] if family in layout.SLOW else fit_chart(runs, styler, family)
        for chart in found:
            n += 1
            chart.id = f"cb-chart-{n}"
        out[family] = found
    return out

"""What every human-readable format shows: tables per family, rows per implementation,
columns per size. Pure data shaping, shared by terminal, Markdown and HTML output."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .. import probe, stats
from ..catalog import FAMILIES
from ..catalog import SLOW_FAMILIES as SLOW

FAMILY_ORDER = FAMILIES


@dataclass
class Table:
    title: str
    unit: str  # "MB/s" or "ms"
    sizes: list[int]
    rows: list[tuple[str, dict]] = field(default_factory=list)  # (label, {size: result})
    best: dict = field(default_factory=dict)  # size -> label of the fastest


def params_label(params: dict) -> str:
    shown = {k: v for k, v in params.items() if k != "fresh_context" and v not in (None, "")}
    text = " ".join(f"{k}={v}" for k, v in sorted(shown.items()))
    if params.get("fresh_context"):
        text = (text + " fresh_context").strip()
    return text


def tables(results: list[dict]) -> list[Table]:
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        if r.get("family") == "noop" or r.get("operation") == "leak":
            continue
        key = (r["family"], r["operation"], json.dumps(r.get("params") or {}, sort_keys=True))
        groups.setdefault(key, []).append(r)
    order = {f: i for i, f in enumerate(FAMILY_ORDER)}
    out = []
    for (family, op, params_json), rs in sorted(
        groups.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0])
    ):
        params = json.loads(params_json)
        slow = family in SLOW
        label = params_label(params)
        title = f"{family} · {op}" + (f" · {label}" if label else "")
        table = Table(title, "ms/op" if slow else "MB/s", sorted({r["size"] for r in rs}))
        rows: dict[str, dict] = {}
        for r in rs:
            rows.setdefault(f"{r['primitive']}  {r['implementation']}", {})[r["size"]] = r
        table.rows = sorted(rows.items())
        for size in table.sizes:
            ok = [
                (lbl, cells[size])
                for lbl, cells in table.rows
                if size in cells and cells[size]["status"] == "ok"
            ]
            if ok:
                table.best[size] = min(ok, key=lambda x: x[1]["median_ns"])[0]
        out.append(table)
    return out


def cell(r: dict | None, unit: str, show_precision: bool = False) -> str:
    if r is None:
        return ""
    if r["status"] == "failed":
        return "FAILED"
    if r["status"] == "skipped":
        return "not offered" if str(r.get("error", "")).startswith("not offered") else "skipped"
    if unit == "ms/op":
        text = f"{r['median_ns'] / 1e6:.2f}"
    else:
        text = (
            f"{r['throughput_mb_s']:.1f}"
            if r.get("throughput_mb_s")
            else f"{r['median_ns']:.0f} ns"
        )
    if show_precision and r.get("precision") is not None:
        text += f" ±{r['precision']:.1%}"
    if r.get("flags"):
        text += " ?"
    return text


def noop_rows(results: list[dict]) -> list[tuple[str, float]]:
    return [
        (r["runtime"], r["median_ns"])
        for r in results
        if r.get("family") == "noop" and r["status"] == "ok"
    ]


def problems(results: list[dict]) -> list[tuple[str, str]]:
    """(case, reason) of failures, shown under the tables."""
    return [
        (
            f"{r['implementation']} {r['primitive']} {r['operation']} {r['size']}",
            r.get("error") or "",
        )
        for r in results
        if r["status"] == "failed"
    ]


def fits(results: list[dict]) -> list[tuple[str, stats.Fit]]:
    """Per-call overhead and per-byte cost (t(n) = a + b·n) of every case series with two or
    more sizes, fast families only."""
    series: dict[tuple, list[dict]] = {}
    for r in results:
        fast = r.get("family") not in SLOW and r.get("family") != "noop"
        if r["status"] == "ok" and fast and r.get("operation") != "leak":
            label = f"{r['primitive']} {r['operation']}"
            extra = params_label(r.get("params") or {})
            key = (f"{label}{' ' + extra if extra else ''}  {r['implementation']}",)
            series.setdefault(key, []).append(r)
    out = []
    for (label,), rs in sorted(series.items()):
        fit = stats.fit_overhead([r["size"] for r in rs], [r["median_ns"] for r in rs])
        if fit is not None:
            out.append((label, fit))
    return out


def method_note(doc: dict) -> str:
    """How the run was measured, and what the drift probe saw: one line under the tables."""
    run = doc.get("run") or {}
    rounds = (run.get("settings") or {}).get("rounds") or 1
    text = (
        f"{rounds} rounds per case, each in fresh processes, in shuffled order"
        if rounds > 1
        else "one round per case: intervals leave out run-to-run variation"
    )
    probes = [p["median_ns"] for p in run.get("probes") or [] if p.get("median_ns")]
    if probes:
        spread = probe.drift(run["probes"])
        text += "; drift probe " + ", ".join(f"{ns / 1e3:.2f}" for ns in probes) + " µs"
        if spread is not None:
            text += f" (spread {spread:.1%})"
    return text

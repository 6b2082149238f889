"""What every human-readable format shows: tables per family, rows per implementation,
columns per size. Pure data shaping, shared by terminal, Markdown and HTML output."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .. import cpu_features, probe, stats
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


def impl_label(r: dict) -> str:
    """The implementation, with the CPU features that were off: ``c/openssl [-sha]``."""
    off = cpu_features.label(r.get("cpu_features_off") or ())
    return f"{r['implementation']} [{off}]" if off else r["implementation"]


@dataclass
class Speedup:
    """What switched-off features cost one case: default over switched, from their rounds."""

    implementation: str
    case: str  # primitive, operation, params
    size: int
    features: str  # the relevant features that were off, by name
    diff: stats.Diff  # ratio = switched / default time: the default path's speed-up


def _estimate(r: dict) -> stats.RoundsCI:
    rounds = r.get("rounds") or [r]
    return stats.rounds_ci(
        [x["median_ns"] for x in rounds],
        [x["ci_low_ns"] for x in rounds],
        [x["ci_high_ns"] for x in rounds],
    )


def speedups(results: list[dict]) -> list[Speedup]:
    """Every measured case that also ran with CPU features off, against its default run
    (stats.rounds_diff: the ratio's interval comes from both cases' rounds)."""
    base, out = {}, []
    for r in results:
        if r["status"] == "ok" and r.get("family") != "noop" and not r.get("cpu_features_off"):
            base[_case_key(r)] = r
    for r in results:
        off = r.get("cpu_features_off") or []
        d = base.get(_case_key(r))
        if not off or r["status"] != "ok" or d is None or r.get("family") == "noop":
            continue
        label = params_label(r.get("params") or {})
        out.append(
            Speedup(
                r["implementation"],
                f"{r['primitive']} {r['operation']}" + (f" {label}" if label else ""),
                r["size"],
                cpu_features.relevant_names(r["primitive"], off),
                stats.rounds_diff(_estimate(d), _estimate(r)),
            )
        )
    return sorted(out, key=lambda s: (s.case, s.size, s.implementation, s.features))


def _case_key(r: dict) -> tuple:
    params = json.dumps(r.get("params") or {}, sort_keys=True)
    return (r["implementation"], r["primitive"], r["operation"], r["size"], params)


def speedup_text(s: Speedup) -> str:
    """``SHA-NI ×3.40 (3.1–3.7)``: how much faster the default path is."""
    d = s.diff
    if d.low == d.high:
        return f"{s.features} ×{d.ratio:.2f} (one round: no interval)"
    return f"{s.features} ×{d.ratio:.2f} ({d.low:.2f}–{d.high:.2f})"


def scaling_rows(results: list[dict]) -> list[tuple[str, str, str, str, str, str]]:
    """(case, implementation, workers, per worker, aggregate, efficiency) of every case run
    in N processes or threads at once: what the whole machine sustains."""
    out = []
    for r in results:
        par = r.get("parallel")
        if r["status"] != "ok" or not par:
            continue
        slow = r.get("family") in SLOW
        params = {k: v for k, v in (r.get("params") or {}).items() if k != par["kind"]}
        label = params_label(params)
        case = f"{r['primitive']} {r['operation']} {r['size']} B" + (f" {label}" if label else "")
        if slow or not par.get("aggregate_mb_s"):
            each = f"{r['median_ns'] / 1e6:.2f} ms" if slow else f"{r['ops_per_s']:.4g} ops/s"
            total = f"{par['aggregate_ops_per_s']:.4g} ops/s"
        else:
            each = f"{r['throughput_mb_s']:.1f} MB/s"
            total = f"{par['aggregate_mb_s']:.1f} MB/s"
        eff = "" if par.get("efficiency") is None else f"{par['efficiency']:.0%}"
        out.append((case, impl_label(r), f"{par['workers']} {par['kind']}", each, total, eff))
    return sorted(out)


def params_label(params: dict) -> str:
    shown = {k: v for k, v in params.items() if k != "fresh_context" and v not in (None, "")}
    text = " ".join(f"{k}={v}" for k, v in sorted(shown.items()))
    if params.get("fresh_context"):
        text = (text + " fresh_context").strip()
    return text


def tables(results: list[dict]) -> list[Table]:
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        if r.get("family") == "noop":
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
            rows.setdefault(f"{r['primitive']}  {impl_label(r)}", {})[r["size"]] = r
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
        (cpu_features.runtime_key(r["runtime"], r.get("cpu_features_off") or ()), r["median_ns"])
        for r in results
        if r.get("family") == "noop" and r["status"] == "ok"
    ]


def problems(results: list[dict]) -> list[tuple[str, str]]:
    """(case, reason) of failures, shown under the tables."""
    return [
        (
            f"{impl_label(r)} {r['primitive']} {r['operation']} {r['size']}",
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
        if r["status"] == "ok" and r.get("family") not in SLOW and r.get("family") != "noop":
            label = f"{r['primitive']} {r['operation']}"
            extra = params_label(r.get("params") or {})
            key = (f"{label}{' ' + extra if extra else ''}  {impl_label(r)}",)
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

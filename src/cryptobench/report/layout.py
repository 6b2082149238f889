"""What every human-readable format shows: tables per family, rows per implementation,
columns per size. Pure data shaping, shared by terminal, Markdown and HTML output."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .. import stats
from ..catalog.primitives import FAMILIES, PUBKEY_FAMILIES
from ..catalog.primitives import SLOW_FAMILIES as SLOW
from ..results import probe
from ..runtimes import cpu_features

FAMILY_ORDER = FAMILIES


GROUPINGS = ("family", "primitive", "runtime", "best")
PUBKEY_UNIT = "µs/op (ops/s)"  # key agreement and signatures: per operation, no per-byte figure
FRESH_MARK = "†"
FRESH_NOTE = (
    "† includes key setup in every message (fresh_context): this API has no reusable key object"
)


@dataclass
class Table:
    title: str
    unit: str  # "MB/s", "ms/op", or PUBKEY_UNIT
    sizes: list[int]
    rows: list[tuple[str, dict]] = field(default_factory=list)  # (label, {size: result})
    best: dict = field(default_factory=dict)  # size -> label of the fastest
    head: str = "primitive  implementation"  # what the row labels are
    notes: list[str] = field(default_factory=list)  # footnotes shown under the table


def impl_label(r: dict) -> str:
    """The implementation, with the CPU features that were off: ``c/openssl [-sha]``."""
    off = cpu_features.label(r.get("cpu_features_off") or ())
    return f"{r['implementation']} [{off}]" if off else r["implementation"]


def params_label(params: dict) -> str:
    shown = {k: v for k, v in params.items() if k != "fresh_context" and v not in (None, "")}
    text = " ".join(f"{k}={v}" for k, v in sorted(shown.items()))
    if params.get("fresh_context"):
        text = (text + " fresh_context").strip()
    return text


def _not_offered(r: dict) -> bool:
    return r["status"] == "skipped" and str(r.get("error", "")).startswith("not offered")


def _case_key(r: dict, drop_fresh: bool = False) -> tuple:
    params = dict(r.get("params") or {})
    if drop_fresh:
        params.pop("fresh_context", None)
    off = tuple(r.get("cpu_features_off") or ())
    return (r["implementation"], r["primitive"], r["operation"], r["size"], _pj(params), off)


def _pj(params: dict) -> str:
    return json.dumps(params or {}, sort_keys=True)


def with_fresh_figures(results: list[dict]) -> list[dict]:
    """A reused-key case that is not offered (the API has no reusable key object) takes the
    same case's fresh-context figure, marked ``fresh_substitute``; a fresh-context result that
    stands in this way is kept too (marked ``shown_as_substitute``), so the fresh table still
    has it. Both tables stay: the distinction is shown, never hidden."""
    fresh = {
        _case_key(r, drop_fresh=True): r
        for r in results
        if (r.get("params") or {}).get("fresh_context") and r["status"] != "skipped"
    }
    out, used = [], set()
    for r in results:
        params = r.get("params") or {}
        sub = fresh.get(_case_key(r, drop_fresh=True))
        if _not_offered(r) and "fresh_context" in params and not params["fresh_context"] and sub:
            out.append({**sub, "params": params, "fresh_substitute": True})
            used.add(_case_key(sub))
        else:
            out.append(r)
    return [{**r, "shown_as_substitute": True} if _case_key(r) in used else r for r in out]


def _row_label(r: dict, text: str) -> str:
    return f"{text} {FRESH_MARK}" if r.get("fresh_substitute") else text


def _group_key(r: dict, group_by: str) -> tuple:
    case = (r["operation"], _pj(r.get("params") or {}))
    if group_by == "primitive" or group_by == "best":
        return (r["family"], r["primitive"], *case)
    if group_by == "runtime":
        return (r["runtime"], r["family"], *case)
    return (r["family"], *case)


def _title(key: tuple, group_by: str) -> str:
    *head, op, params_json = key
    label = params_label(json.loads(params_json))
    if group_by == "runtime":
        head = [head[0], head[1]]
    elif group_by in ("primitive", "best"):
        head = [head[1]]
    text = " · ".join([*head, op]) + (f" · {label}" if label else "")
    return text + (" · fastest per runtime" if group_by == "best" else "")


def _rows(rs: list[dict], group_by: str) -> tuple[str, dict[str, dict]]:
    rows: dict[str, dict] = {}
    if group_by == "best":
        for r in rs:
            label = r["runtime"]
            cur = rows.setdefault(label, {}).get(r["size"])
            if r["status"] == "ok" and (
                cur is None or cur["status"] != "ok" or r["median_ns"] < cur["median_ns"]
            ):
                rows[label][r["size"]] = {**r, "best_of_runtime": r["library"]}
            elif cur is None:
                rows[label][r["size"]] = r
        return "runtime (fastest library)", rows
    for r in rs:
        if group_by == "primitive":
            label = _row_label(r, impl_label(r))
        elif group_by == "runtime":
            off = impl_label(r).removeprefix(r["implementation"])
            label = _row_label(r, f"{r['primitive']}  {r['library']}{off}")
        else:
            label = _row_label(r, f"{r['primitive']}  {impl_label(r)}")
        rows.setdefault(label, {})[r["size"]] = r
    head = {"primitive": "implementation", "runtime": "primitive  library"}
    return head.get(group_by, "primitive  implementation"), rows


def tables(results: list[dict], group_by: str = "family") -> list[Table]:
    """The tables of one grouping (GROUPINGS): per family (the default), per primitive, per
    runtime, or the fastest implementation of each runtime side by side."""
    groups: dict[tuple, list[dict]] = {}
    for r in with_fresh_figures(
        [r for r in results if r.get("family") != "noop" and r.get("operation") != "leak"]
    ):
        groups.setdefault(_group_key(r, group_by), []).append(r)
    order = {f: i for i, f in enumerate(FAMILY_ORDER)}

    def sort_key(item):
        key = item[0]
        if group_by == "runtime":  # runtime first, then the family order
            return (key[0], order.get(key[1], 99), key)
        return (order.get(key[0], 99), key)

    out = []
    for key, rs in sorted(groups.items(), key=sort_key):
        if all(r.get("shown_as_substitute") for r in rs):
            continue  # every figure is already in the reused-key table, marked
        family = key[1] if group_by == "runtime" else key[0]
        table = Table(
            _title(key, group_by),
            unit_of(family),
            sorted({r["size"] for r in rs}),
        )
        table.head, rows = _rows(rs, group_by)
        table.rows = sorted(rows.items())
        for size in table.sizes:
            ok = [
                (lbl, cells[size])
                for lbl, cells in table.rows
                if size in cells and cells[size]["status"] == "ok"
            ]
            if ok:
                table.best[size] = min(ok, key=lambda x: x[1]["median_ns"])[0]
        table.rows = mark(table)
        if any(r.get("fresh_substitute") for cells in rows.values() for r in cells.values()):
            table.notes.append(FRESH_NOTE)
        out.append(table)
    return out


WIDE = 0.05  # an interval wider than ±5% changes how a figure reads
WIDE_MARK, TIE_MARK = "?", "≈"
WIDE_NOTE = "? its 95% interval is wider than ±5%: read the figure as approximate"
TIE_NOTE = "≈ fastest, but its 95% interval overlaps the runner-up's: the two are not told apart"


def mark_of(r: dict, runner_up: dict | None) -> str:
    """The marks a cell earns (docs/reports.md, "Marks"): ``?`` when its interval is wider
    than ±5%, ``≈`` when it is ranked fastest and its interval overlaps the runner-up's."""
    out = WIDE_MARK if (r.get("precision") or 0) > WIDE else ""
    lo, hi = runner_up and runner_up.get("ci_low_ns"), r.get("ci_high_ns")
    if lo is not None and hi is not None and hi >= lo:
        out += TIE_MARK
    return out


def mark(table: Table) -> list[tuple[str, dict]]:
    """The table's rows with each cell's ``mark``; the notes that explain the marks used."""
    used: set[str] = set()
    rows = [(label, dict(cells)) for label, cells in table.rows]
    for size in table.sizes:
        ok = sorted(
            (cells[size]["median_ns"], label)
            for label, cells in rows
            if size in cells and cells[size]["status"] == "ok"
        )
        second = dict(rows)[ok[1][1]][size] if len(ok) > 1 else None
        for label, cells in rows:
            r = cells.get(size)
            if r is None or r["status"] != "ok":
                continue
            m = mark_of(r, second if table.best.get(size) == label else None)
            if m:
                cells[size] = {**r, "mark": m}
                used.update(m)
    table.notes += [n for m, n in ((WIDE_MARK, WIDE_NOTE), (TIE_MARK, TIE_NOTE)) if m in used]
    return rows


def unit_of(family: str) -> str:
    """How a family's cells read: ms per operation for password hashes and KDFs, µs per
    operation and operations per second for the public-key families, MB/s for the rest."""
    if family in SLOW:
        return "ms/op"
    return PUBKEY_UNIT if family in PUBKEY_FAMILIES else "MB/s"


def cell(r: dict | None, unit: str, show_precision: bool = False) -> str:
    if r is None:
        return ""
    if r["status"] == "failed":
        return "FAILED"
    if r["status"] == "skipped":
        return "not offered" if str(r.get("error", "")).startswith("not offered") else "skipped"
    if unit == "ms/op":
        text = f"{r['median_ns'] / 1e6:.2f}"
    elif unit == PUBKEY_UNIT:
        text = f"{r['median_ns'] / 1e3:.1f} ({1e9 / r['median_ns']:,.0f}/s)"
    else:
        text = (
            f"{r['throughput_mb_s']:.1f}"
            if r.get("throughput_mb_s")
            else f"{r['median_ns']:.0f} ns"
        )
    if show_precision and r.get("precision") is not None:
        text += f" ±{r['precision']:.1%}"
    if r.get("best_of_runtime"):
        text += f" {r['best_of_runtime']}"
        text += f" {FRESH_MARK}" if r.get("fresh_substitute") else ""
    if r.get("mark"):
        text += f" {r['mark']}"
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
        fast = r.get("family") not in (*SLOW, *PUBKEY_FAMILIES, "noop")  # per byte: messages
        if r["status"] == "ok" and fast and r.get("operation") != "leak":
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
        spread = stats.drift(run["probes"])
        text += "; drift probe " + ", ".join(f"{ns / 1e3:.2f}" for ns in probes) + " µs"
        if spread is not None:
            busy = spread > stats.BUSY_SPREAD
            text += f" (spread {spread:.1%})" + ("; " + probe.busy(spread, False) if busy else "")
        times = probe.slowed_by(run)
        if times:
            text += "; " + probe.slowed(times, probe.fastest(run), during=False)
    others = run.get("other_users") or []
    if others:  # run.neighbours: another user's run was timing on this machine meanwhile
        who = ", ".join(f"uid {m.get('uid')} (pid {m.get('pid')})" for m in others)
        text += f"; another user's cryptobench run was measuring at the same time: {who}"
    return text

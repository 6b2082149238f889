"""The HTML report's tables and fact sheets: escaped markup, no script.

Tables of class ``cb-sortable`` are made sortable and filterable by DataTables in the page;
numeric cells carry their exact value in ``data-order`` so sorting never depends on how a
number is printed. Every string from a results file goes through :func:`esc`.
"""

from __future__ import annotations

import json

from ...results.compare import busy
from .. import layout
from .charts import Run, esc, fit_points


def num(x, kind: str = "g") -> str:
    if x is None:
        return ""
    if kind == "pct":
        return f"±{x:.2%}"
    if kind == "int":
        return f"{x:,.0f}"
    if abs(x) >= 1e4:
        return f"{x:,.0f}"
    return f"{x:.4g}"


def td(text, order=None, title: str | None = None) -> str:
    attrs = ""
    if order is not None:
        attrs += f' data-order="{esc(order)}"'
    if title:
        attrs += f' title="{esc(title)}"'
    return f"<td{attrs}>{esc(text)}</td>"


def ntd(x, kind: str = "g") -> str:
    """A numeric cell: printed for people, to 9 significant digits for sorting (empty sorts
    first): finer than any measurement, without repr's 17 digits in every cell."""
    return td(num(x, kind), "" if x is None else f"{float(x):.9g}")


def table(table_id: str, columns: list[tuple[str, bool]], rows: list[str], caption: str) -> str:
    head = "".join(
        f'<th class="{"num" if numeric else "text"}">{esc(name)}</th>' for name, numeric in columns
    )
    return (
        f'<div class="cb-scroll"><table id="{esc(table_id)}" class="cb-sortable display compact">'
        f"<caption>{esc(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _div(a, b):
    return a / b if a is not None and b else None


RESULT_COLUMNS = (
    ("implementation", False),
    ("library version", False),
    ("backend", False),
    ("primitive", False),
    ("operation", False),
    ("params", False),
    ("size (B)", True),
    ("status", False),
    ("median (ns/op)", True),
    ("CI low (ns)", True),
    ("CI high (ns)", True),
    ("precision", True),
    ("MB/s", True),  # ms/op when the table holds password hashes or KDFs
    ("ops/s", True),
    ("cycles/byte", True),
    ("samples", True),
    ("warm-up (ms)", True),
    ("verified", False),
    ("code path", False),
    ("security status", False),
    ("flags", False),
    ("verification or error", False),
)


def _result_cells(r: dict, slow: bool) -> list[str]:
    """One result's cells, in RESULT_COLUMNS order."""
    return [
        td(layout.impl_label(r) if r.get("implementation") else ""),
        td(r.get("library_version", "")),
        td(r.get("backend", "")),
        td(r.get("primitive", "")),
        td(r.get("operation", "")),
        td(
            layout.params_label(r.get("params") or {}),
            title=json.dumps(r["params"]) if r.get("params") else None,
        ),
        ntd(r.get("size"), "int"),
        td(r.get("status", "")),
        ntd(r.get("median_ns")),
        ntd(r.get("ci_low_ns")),
        ntd(r.get("ci_high_ns")),
        ntd(r.get("precision"), "pct"),
        ntd(_div(r.get("median_ns"), 1e6)) if slow else ntd(r.get("throughput_mb_s")),
        ntd(r.get("ops_per_s"), "int" if (r.get("ops_per_s") or 0) >= 100 else "g"),
        ntd(r.get("cycles_per_byte")),
        ntd(r.get("n_samples"), "int"),
        ntd(_div(r.get("warmup_ns"), 1e6)),
        td("yes" if r.get("verified") else "no"),
        td(r.get("code_path") or ""),
        td(r.get("security_status") or ""),
        td("; ".join(map(str, r.get("flags") or []))),
        td(r.get("error") or r.get("verification") or ""),
    ]


def results_table(table_id: str, rows: list[tuple[Run, dict]], many_runs: bool) -> str:
    slow = any(r.get("family") in layout.SLOW for _, r in rows)
    columns = [("run", False)] if many_runs else []
    columns += [("ms/op", True) if slow and c == "MB/s" else (c, n) for c, n in RESULT_COLUMNS]
    body = []
    for run, r in rows:
        cells = ([td(run.label)] if many_runs else []) + _result_cells(r, slow)
        # end tags of cells and rows are optional in HTML: left out in the biggest table
        row = "".join(cells).replace("</td>", "")
        body.append(f'<tr class="cb-{esc(r.get("status", ""))}">{row}')
    return table(
        table_id,
        columns,
        body,
        "Every case: click a heading to sort, type in Search to filter. "
        "Precision is the 95% CI half-width relative to the median.",
    )


def run_summary(run: Run) -> str:
    info = run.doc.get("run") or {}
    n_ok = sum(r.get("status") == "ok" for r in run.results)
    n_failed = sum(r.get("status") == "failed" for r in run.results)
    text = esc(
        f"— {info.get('status', '?')} run started {info.get('started', '?')}, "
        f"preset {info.get('preset') or 'none'}, {n_ok} measured, {n_failed} failed"
    )
    why = busy(run.doc)
    return text + (f' <span class="cb-busy">busy machine: {esc(why)}</span>' if why else "")


def fits_section(runs: list[Run]) -> str:
    points = fit_points(runs)
    out = [
        '<section id="fits"><h2>Per-call overhead and per-byte cost</h2>',
        "<p>Over each case's sizes, t(n) = a + b·n is fitted by Theil–Sen (the median of "
        "pairwise slopes, robust to one disturbed size): a is the per-call overhead, b the "
        "per-byte cost, 1/b the asymptotic throughput. A negative a means the overhead is "
        "below what the fit can resolve; such points are left out of the charts.</p>",
    ]
    if not points:
        out.append("<p>No case was measured at two or more sizes.</p></section>")
        return "\n".join(out)
    many = len(runs) > 1
    columns = [("run", False)] if many else []
    columns += [
        ("implementation", False),
        ("family", False),
        ("case", False),
        ("sizes", True),
        ("a: ns/call", True),
        ("b: ns/byte", True),
        ("1/b: MB/s", True),
    ]
    rows = []
    for p in points:
        f = p["fit"]
        cells = [td(runs[p["run"]].label)] if many else []
        cells += [
            td(p["implementation"]),
            td(p["family"]),
            td(p["case"]),
            ntd(p["sizes"], "int"),
            ntd(f.per_call_ns),
            ntd(f.per_byte_ns),
            ntd(f.asymptotic_mb_s),
        ]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    out.append(table("table-fits", columns, rows, "t(n) = a + b·n per implementation and case"))
    out.append("</section>")
    return "\n".join(out)


def problems_section(runs: list[Run]) -> str:
    items = []
    for run in runs:
        for case, reason in layout.problems(run.results):
            items.append(f"<li>{esc(run.label)}: FAILED {esc(case)}: {esc(reason)}</li>")
        for s in (run.doc.get("run") or {}).get("skipped") or []:
            items.append(
                f"<li>{esc(run.label)}: skipped runtime {esc(s.get('runtime', '?'))}: "
                f"{esc(s.get('reason', ''))}</li>"
            )
    if not items:
        return ""
    head = '<section id="problems"><h2>Failures and skips</h2><ul>'
    return head + "".join(items) + "</ul></section>"


def flat(value) -> str:
    """A fact for a fact sheet: dicts as k=v, lists one item a line, flags as yes/no."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        if value and all(isinstance(v, bool) for v in value.values()):
            return " ".join(f"{k}{'' if v else '(no)'}" for k, v in value.items())
        return ", ".join(f"{k}={flat(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "\n".join(flat(v) for v in value)  # one per line (the cells pre-wrap)
    return str(value)


def facts(table_id: str, runs: list[Run], records: list[dict]) -> str:
    keys: list[str] = []
    for rec in records:
        keys += [k for k in rec if k not in keys]
    head = "<th>field</th>" + "".join(f"<th>{esc(run.label)}</th>" for run in runs)
    rows = [
        f"<tr><th>{esc(k)}</th>" + "".join(td(flat(rec.get(k))) for rec in records) + "</tr>"
        for k in keys
    ]
    return (
        f'<div class="cb-scroll"><table id="{table_id}" class="cb-facts">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _run_record(run: Run) -> dict:
    info = dict(run.doc.get("run") or {})
    info["runtimes"] = [
        f"{rt.get('id', '?')} {rt.get('version', '')}".strip() for rt in info.get("runtimes") or []
    ]
    info["implementations"] = [
        f"{i.get('id', '?')} {i.get('version', '')} ({flat(i.get('backend'))})"
        for i in info.get("implementations") or []
    ]
    info["skipped"] = [f"{s.get('runtime')}: {s.get('reason')}" for s in info.get("skipped") or []]
    return info


def runs_section(runs: list[Run]) -> str:
    return (
        '<section id="runs"><h2>Runs</h2>'
        + facts("table-runs", runs, [_run_record(run) for run in runs])
        + "</section>"
    )


def machines_section(runs: list[Run]) -> str:
    return (
        '<section id="machines"><h2>Machines</h2><p>The fingerprint each run recorded: CPU '
        "model and the flags that select code paths, cores, memory, virtualisation, kernel, "
        "OS and TSC rate.</p>"
        + facts("table-machines", runs, [run.doc.get("machine") or {} for run in runs])
        + "</section>"
    )

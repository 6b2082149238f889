"""The across-machines section of the HTML report: for every primitive, operation and size, a
machine × implementation matrix (fastest machine per row) and the same matrix normalised to
one machine (docs/reports.md, "Across machines"). Only drawn when the runs come from more than
one machine. Every value from a results file is escaped."""

from __future__ import annotations

import json

from ...results.identity import display_label
from .charts import Run, esc

SLOW = ("password-hash", "kdf")


def machine_names(runs: list[Run]) -> list[str]:
    """A column name per run: its machine label, plus the run's name or id where one machine
    has several runs."""
    labels = [display_label(r.doc.get("machine") or {}) for r in runs]
    out = []
    for run, label in zip(runs, labels, strict=True):
        if labels.count(label) > 1:
            rid = run.doc.get("run", {})
            label += f" ({rid.get('name') or str(rid.get('id', '?'))[:8]})"
        out.append(label)
    return out


def _value(r: dict) -> str:
    if r.get("family") in SLOW:
        return f"{r['median_ns'] / 1e6:.4g} ms"
    if r.get("throughput_mb_s"):
        return f"{r['throughput_mb_s']:.4g} MB/s"
    return f"{r['median_ns']:.4g} ns"


def groups(runs: list[Run]) -> dict[tuple, dict[str, dict[int, dict]]]:
    """{(family, primitive, operation, size, params): {implementation: {run index: result}}}."""
    out: dict[tuple, dict[str, dict[int, dict]]] = {}
    for run in runs:
        for r in run.results:
            if r.get("status") != "ok" or r.get("family") == "noop" or not r.get("median_ns"):
                continue
            params = json.dumps(r.get("params") or {}, sort_keys=True)
            key = (r.get("family") or "", r["primitive"], r["operation"], r["size"], params)
            out.setdefault(key, {}).setdefault(r["implementation"], {})[run.index] = r
    return dict(sorted(out.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][3], kv[0][4])))


def _fastest(cells: dict[int, dict], names: list[str]) -> str:
    """The fastest machine of a row, or 'tie: A, B' when its interval overlaps the next's."""
    ranked = sorted(cells.items(), key=lambda kv: kv[1]["median_ns"])
    if len(ranked) < 2:
        return names[ranked[0][0]] if ranked else ""
    (i, best), (j, second) = ranked[0], ranked[1]
    if best.get("ci_high_ns", best["median_ns"]) >= second.get("ci_low_ns", second["median_ns"]):
        return f"tie: {names[i]}, {names[j]}"
    return names[i]


def _table(key, rows, runs, names, ref: int | None) -> str:
    family, prim, op, size, params = key
    kind = "cb-matrix-norm" if ref is not None else "cb-matrix"
    cols = "".join(f"<th>{esc(n)}</th>" for n in names)
    head = f"<tr><th>implementation</th>{cols}<th>fastest machine</th></tr>"
    body = []
    for impl, cells in sorted(rows.items()):
        fastest = _fastest(cells, names)
        tds = []
        for run in runs:
            r = cells.get(run.index)
            if r is None:
                tds.append('<td class="cb-missing">—</td>')
                continue
            best = "cb-fastest" if fastest == names[run.index] else ""
            if ref is None:
                text, order = _value(r), r["median_ns"]
            elif ref in cells:
                order = cells[ref]["median_ns"] / r["median_ns"]  # >1: faster than ref
                text = f"×{order:.3g}"
            else:
                tds.append('<td class="cb-missing">no reference</td>')
                continue
            tds.append(f'<td class="{best}" data-order="{order:.6g}">{esc(text)}</td>')
        body.append(f"<tr><th>{esc(impl)}</th>{''.join(tds)}<td>{esc(fastest)}</td></tr>")
    extra = "" if params == "{}" else f" {params}"
    caption = f"{prim} {op} {size} B{extra}" + (
        f" — speed relative to {names[ref]} (×2 = twice as fast)" if ref is not None else ""
    )
    return (
        f'<table class="{kind}" data-primitive="{esc(prim)}" data-operation="{esc(op)}" '
        f'data-size="{esc(size)}" data-family="{esc(family)}"><caption>{esc(caption)}</caption>'
        f"<thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"
    )


def section(runs: list[Run], normalise_to: str | None = None) -> str:
    """The section, or '' when every run comes from one machine."""
    if len({display_label(r.doc.get("machine") or {}) for r in runs}) < 2:
        return ""
    names = machine_names(runs)
    ref = names.index(normalise_to) if normalise_to in names else 0
    parts = [
        '<section id="machines-matrix"><h2>Across machines</h2>',
        f"<p>Each table: one row per implementation, one column per machine; the fastest "
        f"machine per row is marked (a tie where its 95% interval overlaps the next one's). "
        f"Below each, the same numbers as speed relative to <b>{esc(names[ref])}</b>.</p>",
    ]
    for key, rows in groups(runs).items():
        parts.append('<div class="cb-matrix-pair">')
        parts.append(_table(key, rows, runs, names, None))
        parts.append(_table(key, rows, runs, names, ref))
        parts.append("</div>")
    parts.append("</section>")
    return "\n".join(parts)

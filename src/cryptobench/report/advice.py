"""`cryptobench advise` output: the recommendation, the runner-up, the margin with its interval,
the reasons, the ranking and what the policy kept out; as a table, JSON or Markdown."""

from __future__ import annotations

import io
import json

from rich.console import Console
from rich.table import Table as RichTable

from ..advise import oneuse
from ..advise.rank import Advice, Entry
from .markdown import esc
from .tty import terminal_width

FORMATS = ("table", "json", "markdown")
SHOWN = 8  # ranking rows shown in table and Markdown (JSON has all)


def _time(row: dict) -> str:
    med = row["median_ns"]
    f, unit = next(
        (f, u) for f, u in ((1e6, "ms"), (1e3, "µs"), (1.0, "ns")) if med >= 10 * f or f == 1.0
    )
    return f"{med / f:.4g} {unit} ({row['ci_low_ns'] / f:.4g}–{row['ci_high_ns'] / f:.4g})"


def margin_text(a: Advice) -> str:
    m = a.margin
    if m is None:
        return "no runner-up: only one candidate"
    if not m.comparable:
        return f"no time margin: {m.why}"
    span = f"{m.ratio:.2f}× [{m.low:.2f}, {m.high:.2f}] (95%, {m.method})"
    if not m.distinguishable:
        why = "the ratio's interval contains 1" if m.low <= 1 <= m.high else "the intervals overlap"
        return f"not distinguishable ({why}): runner-up/recommendation = {span}"
    return f"the recommendation is faster: runner-up/recommendation = {span}"


def _entry(e: Entry | None) -> dict | None:
    if e is None:
        return None
    r = e.row
    return {
        "implementation": r["implementation"],
        "library_version": r.get("library_version"),
        "primitive": r["primitive"],
        "operation": r["operation"],
        "size": r["size"],
        "params": r["params"],
        "security_status": r.get("security_status"),
        "median_ns": r["median_ns"],
        "ci_low_ns": r["ci_low_ns"],
        "ci_high_ns": r["ci_high_ns"],
        "code_path": r.get("code_path"),
        "flags": r.get("flags", []),
        **({"parts_ns": r["parts"]} if r.get("parts") else {}),
    }


def as_dict(a: Advice) -> dict:
    m = a.margin
    return {
        "schema": "cryptobench/advice/v1",
        "use": a.use.name,
        "title": a.use.title,
        "size": a.size,
        "runtimes": a.runtimes,
        "runs": a.sources,
        "recommendation": _entry(a.recommendation),
        "runner_up": _entry(a.runner_up),
        "margin": None
        if m is None
        else {
            "ratio": m.ratio,
            "low": m.low,
            "high": m.high,
            "method": m.method,
            "distinguishable": m.distinguishable,
            "comparable": m.comparable,
            "text": margin_text(a),
        },
        "reasons": a.reasons,
        "ranking": [_entry(e) for e in a.ranking],
        "excluded": [{"primitive": p, "why": w} for p, w in a.excluded],
        "ignored_other_params": a.ignored_params,
        **_level(a),
    }


def _level(a: Advice) -> dict:
    """Uses that compare one security level (key-exchange, signature): the level, the day
    the statuses were read at, the choices lacking one of the use's operations."""
    if not a.security_bits:
        return {}
    return {"security_bits": a.security_bits, "day": a.day, "incomplete": a.incomplete}


def _lines(a: Advice) -> list[str]:
    best, second = a.recommendation, a.runner_up
    where = f" on {', '.join(a.runtimes)}" if a.runtimes else ""
    sized = any(oneuse.size_of(op, 1) for op in a.use.operations)
    at = f" at {a.size} B" if sized else ""
    level = f", {a.security_bits}-bit security" if a.security_bits else ""
    out = [f"advise --use {a.use.name} ({a.use.title}){at}{level}{where}"]
    if best is None:
        return out + ["no candidate: no stored result the policy allows for this use and size"]
    out.append(f"recommendation: {best.label}: {_time(best.row)}")
    if second is not None:
        out.append(f"runner-up:      {second.label}: {_time(second.row)}")
    out.append(f"margin: {margin_text(a)}")
    out += ["why:"] + [f"  - {r}" for r in a.reasons]
    return out


def _footer(a: Advice) -> list[str]:
    out = []
    if a.excluded:
        out.append("kept out by the policy: " + "; ".join(f"{p} ({w})" for p, w in a.excluded))
    if a.incomplete:
        out.append("not a whole use (an operation not stored): " + "; ".join(a.incomplete))
    if a.ignored_params:
        out.append(f"{a.ignored_params} results at other parameters than the catalog's ignored")
    out.append(f"from run(s) {', '.join(s[:8] for s in a.sources)}; times: 95% intervals")
    return out


def render(fmt: str, a: Advice) -> str:
    if fmt == "json":
        return json.dumps(as_dict(a), indent=2) + "\n"
    if fmt == "markdown":
        lines = [f"### {esc(_lines(a)[0])}", ""] + [f"{esc(x)}  " for x in _lines(a)[1:]]
        lines += ["", "| # | choice | status | time (95% CI) |", "|---:|---|---|---:|"]
        lines += [
            f"| {i} | {esc(e.label)} | {esc(e.row.get('security_status'))} | {esc(_time(e.row))} |"
            for i, e in enumerate(a.ranking[:SHOWN], 1)
        ]
        lines += [""] + [f"- {esc(x)}" for x in _footer(a)]
        return "\n".join(lines) + "\n"
    buf = io.StringIO()
    console = Console(file=buf, width=terminal_width(), no_color=True, highlight=False)
    for line in _lines(a):
        console.print(line, markup=False)
    if a.ranking:
        table = RichTable(title="ranking", title_justify="left")
        for col in ("#", "choice", "status", "time (95% CI)"):
            table.add_column(col, justify="right" if col in ("#", "time (95% CI)") else "left")
        for i, e in enumerate(a.ranking[:SHOWN], 1):
            table.add_row(str(i), e.label, str(e.row.get("security_status")), _time(e.row))
        console.print(table)
    for line in _footer(a):
        console.print(line, markup=False)
    return buf.getvalue()

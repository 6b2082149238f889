"""`cryptobench compare` output: table, JSON or Markdown of a compare.Comparison."""

from __future__ import annotations

import io
import json

from rich.console import Console
from rich.table import Table as RichTable

from ..results import compare as compare_mod
from ..results.compare import CaseComparison, Comparison, key_dict
from ..results.fleet import labels
from . import layout
from .markdown import esc
from .tty import terminal_width

SCHEMA = "cryptobench/compare/v1"


def case_label(key) -> str:
    impl, prim, op, size, params = key
    extra = layout.params_label(json.loads(params))
    return f"{impl} {prim} {op} {size} B" + (f" {extra}" if extra else "")


def duration(ns: float) -> str:
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def side_text(median: float, low: float, high: float) -> str:
    return f"{duration(median)} ±{(high - low) / 2 / median:.1%}" if median > 0 else "?"


def change_text(c: CaseComparison) -> str:
    """benchstat style: the change where significant, `~` where not, with the p-values."""
    p = f"p={c.p_value:.3g} q={c.q_value:.3g}"
    if not c.significant:
        return f"~ ({p})"
    return f"{c.change:+.1%} ({p})"


def ratio_text(c: CaseComparison) -> str:
    return f"{c.ratio:.3f} [{c.ratio_low:.3f}, {c.ratio_high:.3f}]"


def summary_lines(cmp: Comparison, fail_above: float | None) -> list[str]:
    sig = cmp.significant
    slower = sum(c.ratio > 1 for c in sig)
    g = cmp.geomean()
    lines = [
        f"{len(cmp.cases)} cases compared; {len(sig)} significant "
        f"({slower} slower, {len(sig) - slower} faster) at FDR {cmp.alpha:.0%} "
        f"(Benjamini–Hochberg), a minimum effect of {cmp.min_effect:.0%} and a CI of B/A "
        "excluding 1",
        "geometric mean of B/A: " + (f"{g:.3f} ({g - 1:+.1%})" if g else "n/a"),
    ]
    if len(cmp.families()) > 1:
        parts = [f"{f} {cmp.geomean(f):.3f}" for f in cmp.families()]
        lines.append("by family: " + ", ".join(parts))
    if cmp.only_a:
        lines.append(f"only in A ({len(cmp.only_a)}): " + "; ".join(map(case_label, cmp.only_a)))
    if cmp.only_b:
        lines.append(f"only in B ({len(cmp.only_b)}): " + "; ".join(map(case_label, cmp.only_b)))
    if cmp.skipped_both:
        lines.append(f"skipped (not offered) in both runs: {len(cmp.skipped_both)} cases")
    for key, why in cmp.not_comparable:
        lines.append(f"not compared: {case_label(key)}: {why}")
    lines += [f"warning: {w}" for w in cmp.warnings]
    if fail_above is not None:
        bad = cmp.slowdowns_above(fail_above)
        lines.append(
            f"FAIL: {len(bad)} significant slowdowns above {fail_above:g}%"
            if bad
            else f"ok: no significant slowdown above {fail_above:g}%"
        )
    return lines


def render_table(cmp: Comparison, a: str, b: str, fail_above=None, width: int | None = None) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width or terminal_width(), no_color=True, highlight=False)
    table = RichTable(title=f"A = {a}\nB = {b}", title_justify="left")
    for col, justify in (
        ("case", "left"),
        ("A", "right"),
        ("B", "right"),
        ("B/A [95% CI]", "right"),
        ("change", "left"),
    ):
        table.add_column(col, justify=justify)
    for c in cmp.cases:
        table.add_row(
            case_label(c.key),
            side_text(c.a.median_ns, c.a.ci_low_ns, c.a.ci_high_ns),
            side_text(c.b.median_ns, c.b.ci_low_ns, c.b.ci_high_ns),
            ratio_text(c),
            change_text(c),
        )
    if cmp.cases:
        console.print(table)
    for line in summary_lines(cmp, fail_above):
        console.print(line, markup=False)
    return buf.getvalue()


def render_markdown(cmp: Comparison, a: str, b: str, fail_above=None, **_) -> str:
    lines = [f"A = {esc(a)}  ", f"B = {esc(b)}", ""]
    if cmp.cases:
        lines += ["| case | A | B | B/A [95% CI] | change |", "|---|---:|---:|---:|---|"]
        for c in cmp.cases:
            cells = [
                case_label(c.key),
                side_text(c.a.median_ns, c.a.ci_low_ns, c.a.ci_high_ns),
                side_text(c.b.median_ns, c.b.ci_low_ns, c.b.ci_high_ns),
                ratio_text(c),
                change_text(c),
            ]
            lines.append("| " + " | ".join(esc(x) for x in cells) + " |")
        lines.append("")
    lines += [f"- {esc(line)}" for line in summary_lines(cmp, fail_above)]
    return "\n".join(lines) + "\n"


def _case_json(c: CaseComparison) -> dict:
    def side(s):
        return {
            "median_ns": s.median_ns,
            "ci_low_ns": s.ci_low_ns,
            "ci_high_ns": s.ci_high_ns,
            "n_samples": s.n,
        }

    return {
        **key_dict(c.key),
        "family": c.family,
        "a": side(c.a),
        "b": side(c.b),
        "ratio": c.ratio,
        "ratio_ci": [c.ratio_low, c.ratio_high],
        "change": c.change,
        "p_value": c.p_value,
        "q_value": c.q_value,
        "significant": c.significant,
        "verdict": c.verdict,
    }


def render_json(cmp: Comparison, a: str, b: str, fail_above=None, **_) -> str:
    sig = cmp.significant
    doc = {
        "schema": SCHEMA,
        "a": a,
        "b": b,
        "method": {
            "test": "Mann-Whitney U, two-sided, on per-operation times of the kept batches",
            "fdr": "Benjamini-Hochberg",
            "alpha": cmp.alpha,
            "min_effect": cmp.min_effect,
        },
        "summary": {
            "compared": len(cmp.cases),
            "significant": len(sig),
            "slower": sum(c.ratio > 1 for c in sig),
            "faster": sum(c.ratio < 1 for c in sig),
            "geomean_ratio": cmp.geomean(),
            "geomean_ratio_by_family": {f: cmp.geomean(f) for f in cmp.families()},
        },
        "warnings": cmp.warnings,
        "cases": [_case_json(c) for c in cmp.cases],
        "unmatched": {
            "only_in_a": [key_dict(k) for k in cmp.only_a],
            "only_in_b": [key_dict(k) for k in cmp.only_b],
            "not_compared": [{**key_dict(k), "reason": why} for k, why in cmp.not_comparable],
            "skipped_in_both": [key_dict(k) for k in cmp.skipped_both],
        },
    }
    if fail_above is not None:
        doc["fail_above_pct"] = fail_above
        doc["failing"] = [_case_json(c) for c in cmp.slowdowns_above(fail_above)]
    return json.dumps(doc, indent=2) + "\n"


FORMATS = {"table": render_table, "json": render_json, "markdown": render_markdown}


def render(fmt: str, cmp: Comparison, a: str, b: str, fail_above: float | None = None) -> str:
    return FORMATS[fmt](cmp, a, b, fail_above=fail_above)


def compare_many(docs, fmt, alpha, min_effect, fail_above):
    """Every candidate (docs[1:]) against the baseline (docs[0]): (text, any candidate with
    nothing in common, any slowdown above ``fail_above``)."""
    names = labels(docs)
    texts, empty, slow, as_json = [], False, False, []
    for doc, name in zip(docs[1:], names[1:], strict=True):
        cmp = compare_mod.compare(docs[0], doc, alpha=alpha, min_effect=min_effect)
        text = render(fmt, cmp, names[0], name, fail_above)
        empty |= not cmp.cases
        slow |= fail_above is not None and bool(cmp.slowdowns_above(fail_above))
        if fmt == "json":
            as_json.append(json.loads(text))
        else:
            texts.append(text)
    if len(docs) == 2:
        return (texts[0] if texts else json.dumps(as_json[0], indent=2) + "\n"), empty, slow
    if fmt == "json":
        return (
            json.dumps({"baseline": names[0], "comparisons": as_json}, indent=2) + "\n",
            empty,
            slow,
        )
    heads = [f"{'#' if fmt == 'markdown' else '=='} {n} against {names[0]}\n\n" for n in names[1:]]
    return "\n".join(h + t for h, t in zip(heads, texts, strict=True)), empty, slow

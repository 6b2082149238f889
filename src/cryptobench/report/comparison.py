"""`cryptobench compare` output: table, JSON or Markdown of a compare.Comparison."""

from __future__ import annotations

import io
import json

from rich.console import Console
from rich.table import Table as RichTable

from ..results import compare as compare_mod
from ..results import instructions
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


def side_of(c: CaseComparison, s) -> str:
    """One side's figure: an instruction count, or a time with its interval."""
    if c.method == "instructions":
        return f"{s.median_ns:,.0f} instr/op"
    return side_text(s.median_ns, s.ci_low_ns, s.ci_high_ns)


def change_text(c: CaseComparison) -> str:
    """benchstat style: the change where significant, `~` where not, with the p-values."""
    if c.method == "instructions":  # exact counts: the change itself, `~` within the threshold
        return f"{c.change:+.2%}" if c.significant else f"~ ({c.change:+.2%})"
    p = f"p={c.p_value:.3g} q={c.q_value:.3g}"
    if not c.significant:
        return f"~ ({p})"
    return f"{c.change:+.1%} ({p})"


def ratio_text(c: CaseComparison) -> str:
    if c.method == "instructions":
        return f"{c.ratio:.4f} (exact)"
    return f"{c.ratio:.3f} [{c.ratio_low:.3f}, {c.ratio_high:.3f}]"


def _head_lines(cmp: Comparison) -> list[str]:
    sig = cmp.significant
    slower = sum(c.ratio > 1 for c in sig)
    if cmp.metric == "instructions":
        return [
            "metric: instructions per operation (counted under valgrind; exact counts, no test)",
            f"{len(cmp.cases)} cases compared; {len(sig)} changed by more than "
            f"{cmp.min_effect:.2%} ({slower} more, {len(sig) - slower} fewer instructions)",
        ]
    return [
        "metric: time per operation",
        f"{len(cmp.cases)} cases compared; {len(sig)} significant "
        f"({slower} slower, {len(sig) - slower} faster) at FDR {cmp.alpha:.0%} "
        f"(Benjamini–Hochberg), a minimum effect of {cmp.min_effect:.0%} and a CI of B/A "
        "excluding 1",
    ]


def level_line(d) -> str:
    return (
        f"machine level: the drift probe took {d.ratio:.3f}× as long in B as in A (95% CI "
        f"{d.low:.3f}–{d.high:.3f}); every ratio is divided by it and carries its uncertainty "
        "(--machine-level none compares raw times)"
    )


def summary_lines(cmp: Comparison, fail_above: float | None) -> list[str]:
    g = cmp.geomean()
    lines = [
        *_head_lines(cmp),
        "geometric mean of B/A: " + (f"{g:.3f} ({g - 1:+.1%})" if g else "n/a"),
    ]
    if cmp.level is not None:
        lines.append(level_line(cmp.level))
    lines += [f"note: {case_label(c.key)}: {c.note}" for c in cmp.cases if c.note]
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
        many, one = ("significant slowdowns", "significant slowdown")
        if cmp.metric == "instructions":
            many, one = ("rises in instructions per operation", "rise in instructions")
        lines.append(
            f"FAIL: {len(bad)} {many} above {fail_above:g}%"
            if bad
            else f"ok: no {one} above {fail_above:g}%"
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
            side_of(c, c.a),
            side_of(c, c.b),
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
                side_of(c, c.a),
                side_of(c, c.b),
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
        **({"note": c.note} if c.note else {}),
    }


# the test behind each CaseComparison.method (results/compare.py)
TESTS = {
    "rounds": "Welch's t, two-sided, on the logs of the round medians (between-round variance)",
    "batches": "Mann-Whitney U, two-sided, on per-operation times of the kept batches",
}


def _method(cmp: Comparison) -> dict:
    if cmp.metric == "instructions":
        return {
            "test": "none: instruction counts under valgrind are exact; B/A beyond the threshold",
            "threshold": cmp.min_effect,
        }
    methods = sorted({c.method for c in cmp.cases}) or ["rounds"]
    return {
        "test": "; ".join(TESTS.get(m, m) for m in methods),
        "fdr": "Benjamini-Hochberg",
        "alpha": cmp.alpha,
        "min_effect": cmp.min_effect,
    }


def render_json(cmp: Comparison, a: str, b: str, fail_above=None, **_) -> str:
    sig = cmp.significant
    doc = {
        "schema": SCHEMA,
        "a": a,
        "b": b,
        "metric": cmp.metric,
        "method": _method(cmp),
        "summary": {
            "compared": len(cmp.cases),
            "significant": len(sig),
            "slower": sum(c.ratio > 1 for c in sig),
            "faster": sum(c.ratio < 1 for c in sig),
            "geomean_ratio": cmp.geomean(),
            "geomean_ratio_by_family": {f: cmp.geomean(f) for f in cmp.families()},
        },
        "machine_level": None
        if cmp.level is None
        else {"probe_ratio": cmp.level.ratio, "low": cmp.level.low, "high": cmp.level.high},
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


def compare_pair(
    doc_a, doc_b, alpha, min_effect, metric="auto", fail_above=None, machine="auto"
) -> Comparison:
    """Time (compare.py) or instruction counts (results/instructions.py). ``min_effect`` None:
    the metric's default; for counts, --fail-above's percentage, else 0.5%."""
    if instructions.choose_metric(doc_a, doc_b, metric) == "instructions":
        default = instructions.THRESHOLD if fail_above is None else fail_above / 100
        threshold = default if min_effect is None else min_effect
        return instructions.compare(doc_a, doc_b, threshold)
    effect = compare_mod.MIN_EFFECT if min_effect is None else min_effect
    return compare_mod.compare(doc_a, doc_b, alpha=alpha, min_effect=effect, machine=machine)


def compare_many(docs, fmt, alpha, min_effect, fail_above, metric="auto", machine="auto"):
    """Every candidate (docs[1:]) against the baseline (docs[0]): (text, any candidate with
    nothing in common, any slowdown above ``fail_above``)."""
    names = labels(docs)
    texts, empty, slow, as_json = [], False, False, []
    for doc, name in zip(docs[1:], names[1:], strict=True):
        cmp = compare_pair(docs[0], doc, alpha, min_effect, metric, fail_above, machine)
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

"""Run-to-run comparison of instructions per operation (--metric instructions; docs/reports.md,
"Comparing instruction counts"). A count is exact up to the few hundred instructions that
differ between two processes (docs/methodology.md), so there is no test: a change is called
when B/A differs from 1 by more than the threshold (default 0.5%). Two counts are compared
only when they come from the same code path: the path each instrumented process reported
(the implementation's ``code_path`` and the CPU features its runtime saw under Valgrind), unless
the rows say why it differs (``--cpu-features`` switched something off in one run: then the
change is the point, and the pair carries a note naming both paths).
"""

from __future__ import annotations

from .compare import CaseComparison, Comparison, Key, Side, _by_key, warnings

THRESHOLD = 0.005


def counted(doc: dict) -> bool:
    """True if any row of the run carries an instruction count."""
    return any(r.get("instructions_per_op") is not None for r in doc.get("results", []))


def choose_metric(doc_a: dict, doc_b: dict, asked: str = "auto") -> str:
    """``asked`` unless "auto": instructions when both runs carry counts, else time."""
    if asked != "auto":
        return asked
    return "instructions" if counted(doc_a) and counted(doc_b) else "time"


def path_of(r: dict) -> tuple:
    got = r.get("instructions") or {}
    return got.get("code_path"), tuple(got.get("cpu_features") or ())


def path_text(r: dict) -> str:
    code, feats = path_of(r)
    return f"{code or '?'} [{' '.join(feats) or 'no features'}]"


def _why_not(ra: dict, rb: dict) -> str | None:
    """Why these two rows' counts are not compared, or None."""
    missing = []
    for side, r in (("A", ra), ("B", rb)):
        if r.get("instructions_per_op") is None:
            detail = (r.get("instructions") or {}).get("detail") or "not counted"
            missing.append(f"{side}: no instruction count ({detail})")
    if missing:
        return "; ".join(missing)
    same_switch = sorted(ra.get("cpu_features_off") or []) == sorted(
        rb.get("cpu_features_off") or []
    )
    if same_switch and path_of(ra) != path_of(rb):
        return (
            f"code paths under instrumentation differ (A {path_text(ra)}, B {path_text(rb)}): "
            "counts of different code are not compared"
        )
    return None


def compare_case(key: Key, ra: dict, rb: dict, threshold: float) -> CaseComparison:
    a, b = float(ra["instructions_per_op"]), float(rb["instructions_per_op"])
    ratio = b / a if a > 0 else float("inf")
    changed = abs(ratio - 1.0) > threshold
    note = None
    if path_of(ra) != path_of(rb):
        offs = [",".join(r.get("cpu_features_off") or []) or "nothing" for r in (ra, rb)]
        note = (
            f"paths differ by --cpu-features (A off: {offs[0]}, B off: {offs[1]}): "
            f"A {path_text(ra)}, B {path_text(rb)}"
        )
    return CaseComparison(
        key=key,
        family=rb.get("family") or ra.get("family") or "?",
        a=Side(a, a, a, 1),
        b=Side(b, b, b, 1),
        ratio=ratio,
        ratio_low=ratio,
        ratio_high=ratio,
        p_value=0.0 if changed else 1.0,
        q_value=0.0 if changed else 1.0,
        significant=changed,
        method="instructions",
        note=note,
    )


def compare(doc_a: dict, doc_b: dict, threshold: float = THRESHOLD) -> Comparison:
    """Compare run B's instruction counts against run A's (the baseline)."""
    a, b = _by_key(doc_a), _by_key(doc_b)
    result = Comparison([], alpha=0.0, min_effect=threshold, metric="instructions")
    result.warnings = [w for w in warnings(doc_a, doc_b) if "different CPUs" in w]
    result.only_a = sorted(k for k in a if k not in b)
    result.only_b = sorted(k for k in b if k not in a)
    for key in sorted(k for k in a if k in b):
        ra, rb = a[key], b[key]
        if ra.get("status") == rb.get("status") == "skipped":
            result.skipped_both.append(key)
            continue
        why = _why_not(ra, rb)
        if why:
            result.not_comparable.append((key, why))
            continue
        result.cases.append(compare_case(key, ra, rb, threshold))
    return result

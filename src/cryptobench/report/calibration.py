"""A `calibrate` run (run.operation = "calibrate") as a table per algorithm: rows are
implementations with the chosen parameters, the re-measured time with its interval, memory,
the attacker's view and OWASP's verdict. Shared by the terminal and Markdown formats."""

from __future__ import annotations

from dataclasses import dataclass

from ..results import probe


def applies(doc: dict) -> bool:
    return (doc.get("run") or {}).get("operation") == "calibrate"


COLUMNS = (
    "implementation",
    "version",
    "operation",
    "parameters",
    "ms (95% CI)",
    "vs target",
    "memory",
    "guesses/s/core",
    "core-years (avg)",
    "OWASP",
)


@dataclass
class View:
    title: str
    rows: list[list[str]]  # measured rows, COLUMNS wide
    others: list[str]  # implementations that could not be calibrated, with why
    notes: list[str]


def _memory(n: int | None) -> str:
    if n is None:
        return "not memory-hard"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.4g} {unit}"
    return f"{n} B"


def _sci(x: float) -> str:
    return f"{x:.3g}"


def _params(params: dict, param: str) -> str:
    shown = {k: v for k, v in params.items() if k != "out_len"}
    return " ".join(f"{k}={v}" if k != param else f"{k}={v}*" for k, v in shown.items())


def _row(r: dict, param: str) -> list[str]:
    c = r.get("calibration") or {}
    a = c.get("attacker") or {}
    ms = f"{r['median_ns'] / 1e6:.1f} ({r['ci_low_ns'] / 1e6:.1f}–{r['ci_high_ns'] / 1e6:.1f})"
    off = c.get("off_target")
    vs = "" if off is None else f"{off:+.0%}" + ("" if c.get("on_target") else " !")
    owasp = {True: "ok", False: "BELOW", None: "none listed"}[c.get("owasp_ok")]
    return [
        r["implementation"],
        str(r.get("library_version", "")),
        r["operation"],
        _params(r.get("params") or {}, param),
        ms + (" ?" if r.get("flags") else ""),
        vs,
        _memory(c.get("memory_bytes")),
        _sci(a["guesses_per_s"]) if a else "",
        _sci(a["core_years_average"]) if a else "",
        owasp,
    ]


def view(doc: dict) -> View:
    run = doc["run"]
    c = run.get("calibration") or {}
    param = c.get("param", "")
    rows, others, notes = [], [], []
    for r in doc["results"]:
        if r.get("status") == "ok" and r.get("median_ns"):
            rows.append(_row(r, param))
        else:
            why = r.get("error") or r.get("status")
            others.append(f"{r['implementation']} ({r.get('library_version', '')}): {why}")
    rows.sort(key=lambda row: row[0])
    fixed = " ".join(f"{k}={v}" for k, v in (c.get("fixed_params") or {}).items()) or "—"
    title = (
        f"calibrate {c.get('algorithm')} · target {c.get('target_ms', 0):g} ms · "
        f"searched {param}* ({c.get('scale')}) · fixed {fixed}"
    )
    notes += [
        f"ms: geometric mean of {_rounds(doc, run)} rounds' medians, "
        "95% interval over rounds (docs/methodology.md); '!' = outside ±"
        f"{c.get('tolerance', 0.15):.0%} of the target, '?' = flagged (see --format json)",
        f"attacker's view: guesses/s on one core = 1000 / ms; {c.get('keyspace_text')}; "
        f"on average half are tried, so core-years = {c.get('keyspace', 0) / 2:.4g} × ms / "
        "1000 / 31 557 600 s (a year of 365.25 days)",
        f"OWASP minimums: {c.get('owasp_source')} (reviewed {c.get('owasp_reviewed')})",
    ]
    notes += _steps(doc, param)
    times = probe.slowed_by(run)
    if times:
        notes.append(probe.slowed(times, probe.fastest(run), during=False))
    if c.get("wall_s") is not None:
        notes.append(f"wall time {c['wall_s']:g} s (time budget {c.get('time_budget_s'):g} s)")
    return View(title, rows, others, notes)


def _steps(doc: dict, param: str) -> list[str]:
    """Each implementation more than ±15% off: the adjacent step on the target's side, and
    whether any value of the parameter can be within the band (calibrate_verdict)."""
    parts = []
    for r in doc["results"]:
        c = r.get("calibration") or {}
        if c.get("verdict"):
            parts.append(f"{r['implementation']} off target: {c['verdict']}")
        elif c.get("neighbours") and not c.get("on_target"):  # runs stored before the verdict
            nb = c["neighbours"]
            est = ", ".join(f"{param}={n['value']} ≈ {n['ms_estimated']:.0f} ms" for n in nb)
            parts.append(f"{r['implementation']} off target; by the scaling law: {est}")
    return parts


def _rounds(doc: dict, run: dict) -> str:
    """How many rounds the rows' times are of: the planned number, or the range where
    narrowing gave some rows more (or the budget fewer)."""
    counts = {len(r.get("rounds") or []) for r in doc["results"] if r.get("status") == "ok"}
    counts.discard(0)
    if not counts:
        return str(run.get("settings", {}).get("rounds", "?"))
    lo, hi = min(counts), max(counts)
    return str(lo) if lo == hi else f"{lo}–{hi}"

"""What every human-readable format shows of a `cryptobench leak` run: one row per case
(implementation, target, measurements, the class difference with its 95% interval and share
of the call, the A/A floor, dudect's |t|, the verdict) and the t-statistic against the
measurements; the notes say how, and each runtime's A/A false-positive rate
(docs/methodology.md, "Timing leakage")."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..stats import leak as stats

SPARK = "▁▂▃▄▅▆▇█"
COLUMNS = (
    "implementation",
    "target",
    "measurements",
    "difference",
    "of the call",
    "A/A floor",
    "|t|",
    "verdict",
)
NUMERIC = (False, False, False, True, True, True, True, False)
TAINT = "taint (memcheck)"


@dataclass
class Row:
    implementation: str
    target: str
    measurements: str
    difference: str  # "X ns (lo…hi)": the measurements pooled
    fraction: str
    floor: str
    t: str
    verdict: str
    curve: str
    taint: str | None = None  # None: the run has no taint check, no column

    def cells(self) -> tuple[str, ...]:
        cells = (
            self.implementation,
            self.target,
            self.measurements,
            self.difference,
            self.fraction,
            self.floor,
            self.t,
            self.verdict,
        )
        return cells if self.taint is None else (*cells, self.taint)


def has_taint(results: list[dict]) -> bool:
    return any("taint" in (r.get("leak") or {}) for r in results if is_leak(r))


def columns(results: list[dict]) -> tuple[str, ...]:
    """COLUMNS, and the taint column when a case of the run was checked under memcheck."""
    return (*COLUMNS, TAINT) if has_taint(results) else COLUMNS


def numeric(results: list[dict]) -> tuple[bool, ...]:
    """Per column of ``columns`` and the curve's: right-aligned numbers or not."""
    return (*NUMERIC, *((False,) if has_taint(results) else ()), False)


def taint_text(lk: dict) -> str:
    t = lk.get("taint") or {}
    return t.get("text", "") if t.get("status") in ("ok", "failed") else "not offered"


def is_leak(r: dict) -> bool:
    return r.get("operation") == "leak"


def curve_text(curve) -> str:
    """max |t| at growing measurement counts as a sparkline scaled to the 4.5 threshold
    (full height = 2 × 4.5 or more)."""
    top = 2 * stats.LEAK_T
    return "".join(SPARK[min(len(SPARK) - 1, int(abs(t) / top * len(SPARK)))] for _, t in curve)


def _ns(v) -> str:
    return "" if v is None else f"{stats.fmt_ns(v)} ns"


def _sized(lk: dict) -> tuple[str, str, str]:
    """(difference with its interval, share of the call, A/A floor); empty for cases stored
    before the replicated verdict."""
    if lk.get("diff_ns") is None:
        return "", "", ""
    lo, hi = lk.get("diff_low_ns"), lk.get("diff_high_ns")
    ci = f" ({stats.fmt_ns(lo)}…{stats.fmt_ns(hi)})" if lo is not None and hi is not None else ""
    frac = lk.get("fraction")
    return _ns(lk["diff_ns"]) + ci, "" if frac is None else f"{frac:+.2%}", _ns(lk["floor_ns"])


def verdict_text(lk: dict) -> str:
    """The row's verdict: the summary ("leak: …", "difference of …, not replicated", "no leak
    detected ≥ Y ns") without what the other columns show; older cases: their verdict."""
    if "summary" not in lk or lk["verdict"].startswith("no verdict"):
        return lk["verdict"].split(" (")[0]  # count and detectable shift have their columns
    if lk["verdict"] == "leak":
        text = f"leak (replicated in {_beyond(lk)}, beyond the A/A floor)"
    elif lk["verdict"] == "not replicated":
        text = "difference not replicated"
    else:
        text = lk["summary"]
    n = len(lk.get("replaced") or [])
    return f"{text}; {n} unsteady process{'es' if n > 1 else ''} measured again" if n else text


def _beyond(lk: dict) -> str:
    """How many of the case's measurements lay beyond its A/A floor ("2", or "4 of 6" when
    it was measured again: stats.leak.EDGE_REPLICATES)."""
    reps, floor = lk.get("replicates") or [], lk.get("floor_ns") or 0.0
    n = sum(
        1 for e in reps if (e.get("low_ns") or 0.0) > floor or (e.get("high_ns") or 0.0) < -floor
    )
    return str(n) if n == len(reps) else f"{n} of {len(reps)}"


def _row(r: dict, target: str) -> Row:
    lk = r.get("leak") or {}
    blocks = f" in {lk['blocks']} blocks" if lk.get("blocks") else ""
    return Row(
        r["implementation"],
        target,
        f"{r.get('n_samples', '')}{blocks}",
        *_sized(lk),
        f"{abs(lk['t']):.1f}",
        verdict_text(lk),
        curve_text(lk.get("curve") or []),
    )


def rows(results: list[dict]) -> list[Row]:
    out, show = [], has_taint(results)
    for r in results:
        if not is_leak(r):
            continue
        lk = r.get("leak") or {}
        target = f"{r['primitive']} {lk.get('target', '')}".strip()
        if r["status"] != "ok":
            why = "FAILED" if r["status"] == "failed" else "not offered"
            error = str(r.get("error") or "")
            text = error if error.startswith(why) else f"{why}: {error}"  # never said twice
            row = Row(r["implementation"], target, "", "", "", "", "", text, "")
        else:
            row = _row(r, target)
        out.append(replace(row, taint=taint_text(lk)) if show else row)
    return out


def aa_rates(results: list[dict]) -> dict[str, tuple[int, int]]:
    """Per runtime: (A/A pairs the rule would have called a leak, A/A pairs measured)."""
    out: dict[str, tuple[int, int]] = {}
    for r in results:
        lk = r.get("leak") or {}
        if is_leak(r) and r["status"] == "ok" and "aa_flagged" in lk:
            k, n = out.get(r["runtime"], (0, 0))
            out[r["runtime"]] = (k + bool(lk["aa_flagged"]), n + 1)
    return out


def notes(results: list[dict]) -> list[str]:
    """NOTE, then each runtime's A/A false-positive rate when the run has A/A pairs."""
    rates = aa_rates(results)
    out = [NOTE, *([TAINT_NOTE] if has_taint(results) else [])]
    if rates:
        each = ", ".join(f"{rt} {k}/{n}" for rt, (k, n) in sorted(rates.items()))
        out.append(f"A/A false positives (pairs the rule would have called a leak): {each}.")
    return out


TAINT_NOTE = (
    "Taint: the runner, under Valgrind's memcheck, marks the secret (the controls' expected "
    "value, an AEAD's or a MAC's key) undefined before setting the call up and makes one call "
    "per class; each conditional branch or memory index computed from it is listed with its symbol "
    "(memcheck replaces memcmp by its own bcmp). An AEAD open's branch on its tag check's "
    "outcome (accept or reject, public) is listed too: read the symbol."
)


NOTE = (
    "Classes: controls differ at byte 0 / at the last byte; AEAD open and MAC verify have "
    "their tag wrong in the first / last byte; password verify gets a password wrong in its "
    "first / last character; the A/A pair beside them is wrong at the same position by two "
    "different values. ML-KEM decaps: the all-zero message's ciphertext vs a fresh valid one "
    "per block (fixed-random), a valid ciphertext vs the same with a bit flipped "
    "(valid-rejected); agree and sign: a fixed private key vs a fresh random one per block; "
    "their A/A pairs are built like the random class. "
    f"Each case is measured {stats.REPLICATES} times, the controls {stats.CONTROL_REPLICATES} "
    "(a fresh runner process and "
    "fresh inputs each, the classes' roles swapped in one), each time with its A/A pair; a "
    "case those leave undecided (one beyond the floor, both off zero but not beyond it, or two "
    f"processes apart) up to "
    f"{stats.EDGE_REPLICATES} times; of three or more, a process whose blocks scattered more "
    f"than {stats.UNSTEADY:.0f}× the others' is measured again in its place. "
    "Difference: class B − class A, per block (one request, its calls prepared afresh) the "
    f"difference of the classes' {stats.TRIM:.0%} trimmed means, their mean over the blocks "
    "with a 95% "
    "interval: "
    "Student's t over the blocks of every measurement, widened by the variance between the "
    "processes when their means disagree. Leak only when every measurement's interval lies "
    "beyond the A/A floor (the largest end of the A/A intervals), on the same side; for a case "
    "measured again, when the pooled interval lies beyond the far end of the pooled A/A "
    "interval and at least one measurement in each role orientation does too, none on the "
    "other side. A difference seen once is 'not replicated'; 'no leak detected ≥ Y' gives "
    "the smallest difference the rule would have flagged, and does not prove there is none. "
    f"|t|: dudect's largest over all measurements and {stats.LEAK_CROPS} percentile crops (first "
    f"measurement; shown, not the verdict); the curve is max |t| as measurements accumulate "
    f"(full height = {2 * stats.LEAK_T:g})."
)

"""What every human-readable format shows of a `cryptobench leak` run: one row per case
(implementation, target, measurements, |t|, smallest detectable shift, verdict) and the
t-statistic against the measurements (docs/methodology.md, "Timing leakage")."""

from __future__ import annotations

from dataclasses import dataclass

from ..stats import leak as stats

SPARK = "▁▂▃▄▅▆▇█"
COLUMNS = ("implementation", "target", "measurements", "|t|", "detectable", "verdict")


@dataclass
class Row:
    implementation: str
    target: str
    measurements: str
    t: str
    detectable: str
    verdict: str
    curve: str

    def cells(self) -> tuple[str, ...]:
        return (
            self.implementation,
            self.target,
            self.measurements,
            self.t,
            self.detectable,
            self.verdict,
        )


def is_leak(r: dict) -> bool:
    return r.get("operation") == "leak"


def curve_text(curve) -> str:
    """max |t| at growing measurement counts as a sparkline scaled to the 4.5 threshold
    (full height = 2 × 4.5 or more)."""
    top = 2 * stats.LEAK_T
    return "".join(SPARK[min(len(SPARK) - 1, int(abs(t) / top * len(SPARK)))] for _, t in curve)


def rows(results: list[dict]) -> list[Row]:
    out = []
    for r in results:
        if not is_leak(r):
            continue
        lk = r.get("leak") or {}
        target = f"{r['primitive']} {lk.get('target', '')}".strip()
        if r["status"] != "ok":
            why = "FAILED" if r["status"] == "failed" else "not offered"
            out.append(Row(r["implementation"], target, "", "", "", f"{why}: {r['error']}", ""))
            continue
        blocks = f" in {lk['blocks']} blocks" if lk.get("blocks") else ""
        out.append(
            Row(
                r["implementation"],
                target,
                f"{r.get('n_samples', '')}{blocks}",
                f"{abs(lk['t']):.1f}",
                f"≥ {lk['detectable_ns']:.3g} ns",
                lk["verdict"].split(" (")[0],  # count and detectable shift have their columns
                curve_text(lk.get("curve") or []),
            )
        )
    return out


NOTE = (
    "Classes: controls differ at byte 0 / at the last byte; AEAD open has its tag wrong in "
    "the first / last byte; password verify gets a password wrong in its first / last "
    "character. dudect-style: per block (one request, its calls prepared afresh) the "
    "difference of the classes' mean single-call times, on all measurements and after "
    f"{stats.LEAK_CROPS} percentile crops; the t of those differences over the blocks; "
    f"|t| > {stats.LEAK_T} = leak. The curve is max |t| as measurements accumulate (full height = "
    f"{2 * stats.LEAK_T:g}): a real leak grows like √n. 'Detectable' is the shift of the "
    f"class means that would have reached |t| = {stats.LEAK_T}; no leak detected does not "
    "prove there is none."
)

"""github-action-benchmark's ``customSmallerIsBetter`` input
(github.com/benchmark-action/github-action-benchmark, "Examples" → custom benchmarks): a JSON
array of ``{"name", "unit", "value", "range", "extra"}``, ``range`` and ``extra`` strings.

``value`` is the median in ns/op; ``range`` is ``± h``, half the width of the 95% interval over
the rounds (the interval itself, which need not be symmetric, is in ``extra``).
"""

from __future__ import annotations

import json

from .cases import label, measured, rounds


def _num(x: float) -> str:
    """Four significant digits, never in exponent notation (the chart shows the text)."""
    return f"{x:.0f}" if x >= 1000 else f"{x:.4g}"


def entry(r: dict) -> dict:
    med, low, high = r["median_ns"], r.get("ci_low_ns"), r.get("ci_high_ns")
    out = {"name": label(r), "unit": "ns/op", "value": med}
    extra = [f"{len(rounds(r))} rounds"]
    if low and high:
        out["range"] = f"± {_num((high - low) / 2)}"
        extra.insert(0, f"95% interval {_num(low)}–{_num(high)} ns")
    if r.get("throughput_mb_s"):
        extra.append(f"{_num(r['throughput_mb_s'])} MB/s")
    out["extra"] = "\n".join(extra)
    return out


def render(doc: dict, **_) -> str:
    return json.dumps([entry(r) for r in measured(doc)], indent=2, ensure_ascii=False) + "\n"

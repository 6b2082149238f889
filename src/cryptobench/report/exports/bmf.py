"""Bencher Metric Format (bencher.dev/docs/reference/bencher-metric-format), read by
`bencher run --adapter json`.

One benchmark per case with Bencher's two built-in measures: ``latency`` (nanoseconds per
operation) and ``throughput`` (operations per second), each with ``lower_value`` and
``upper_value`` from the case's 95% interval over its rounds.
"""

from __future__ import annotations

import json

from .cases import label, measured


def metrics(r: dict) -> dict:
    med, low, high = r["median_ns"], r.get("ci_low_ns"), r.get("ci_high_ns")
    latency = {"value": med}
    throughput = {"value": 1e9 / med}
    if low and high:
        latency.update(lower_value=low, upper_value=high)
        throughput.update(lower_value=1e9 / high, upper_value=1e9 / low)
    return {"latency": latency, "throughput": throughput}


def render(doc: dict, **_) -> str:
    return json.dumps({label(r): metrics(r) for r in measured(doc)}, indent=2) + "\n"

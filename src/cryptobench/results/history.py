"""One case over time, per machine: its median and interval in every stored run, with
significant changes from one run to the next flagged (stats.rounds_diff, as `compare`)."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from .. import stats
from ..errors import UsageError
from .compare import ALPHA, MIN_EFFECT, case_key, rounds_estimate
from .identity import display_label

FILTER_HELP = "IMPL:PRIMITIVE[:OPERATION[:SIZE]], each part a glob (e.g. 'c/*:sha256::1024')"


@dataclass
class Point:
    run_id: str
    run_label: str
    started: str
    median_ns: float
    ci_low_ns: float
    ci_high_ns: float
    change: str = ""  # "" (first point or no significant change), else e.g. "slower ×1.25"


def parse_filter(text: str) -> list[str]:
    parts = text.split(":")
    if len(parts) < 2 or len(parts) > 4 or not all(p or i > 1 for i, p in enumerate(parts)):
        raise UsageError(f"case filter {text!r}: expected {FILTER_HELP}")
    return [p or "*" for p in parts] + ["*"] * (4 - len(parts))


def matches(result: dict, pattern: list[str]) -> bool:
    values = (result["implementation"], result["primitive"], result["operation"], result["size"])
    return all(fnmatch.fnmatchcase(str(v), p) for v, p in zip(values, pattern, strict=True))


def _change(prev: dict, cur: dict) -> str:
    a, b = rounds_estimate(prev), rounds_estimate(cur)
    if not (a and b):
        return ""
    d = stats.rounds_diff(a, b)
    if d.p_value < ALPHA and abs(d.ratio - 1) >= MIN_EFFECT and not d.low <= 1 <= d.high:
        return f"{'slower' if d.ratio > 1 else 'faster'} ×{d.ratio:.3g} (p={d.p_value:.2g})"
    return ""


def history(store, case_filter: str, machine: str | None = None) -> dict[tuple, list[Point]]:
    """{(machine label, case key): points in time order} for every measured case matching."""
    from .fleet import matches_machine

    pattern = parse_filter(case_filter)
    series: dict[tuple, list[tuple[Point, dict]]] = {}
    for run in store.runs():
        if machine and not matches_machine(run, machine):
            continue
        _, cases = store.load(run["id"])
        label = run.get("name") or run["id"][:8]
        for r in cases:
            if r.get("status") != "ok" or not matches(r, pattern):
                continue
            p = Point(
                run["id"], label, run["started"], r["median_ns"], r["ci_low_ns"], r["ci_high_ns"]
            )
            key = (display_label(run.get("machine") or {}), case_key(r))
            series.setdefault(key, []).append((p, r))
    out = {}
    for key, pts in sorted(series.items()):
        pts.sort(key=lambda pr: pr[0].started)
        for (_, prev), (p, cur) in zip(pts, pts[1:], strict=False):
            p.change = _change(prev, cur)
        out[key] = [p for p, _ in pts]
    return out

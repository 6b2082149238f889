"""The two tables of what the hardware does: "what the hardware buys" (a case with CPU
features switched off against its default run) and "all cores" (a case in N processes or
threads at once). Pure data shaping, shared by terminal, Markdown and HTML output."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .. import stats
from ..catalog.primitives import SLOW_FAMILIES as SLOW
from ..runtimes import cpu_features
from .layout import impl_label, params_label


@dataclass
class Speedup:
    """What switched-off features cost one case: default over switched, from their rounds."""

    implementation: str
    case: str  # primitive, operation, params
    size: int
    features: str  # the relevant features that were off, by name
    diff: stats.Diff  # ratio = switched / default time: the default path's speed-up


def _estimate(r: dict) -> stats.RoundsCI:
    rounds = r.get("rounds") or [r]
    return stats.rounds_ci(
        [x["median_ns"] for x in rounds],
        [x["ci_low_ns"] for x in rounds],
        [x["ci_high_ns"] for x in rounds],
    )


def speedups(results: list[dict]) -> list[Speedup]:
    """Every measured case that also ran with CPU features off, against its default run
    (stats.rounds_diff: the ratio's interval comes from both cases' rounds)."""
    base, out = {}, []
    for r in results:
        if r["status"] == "ok" and r.get("family") != "noop" and not r.get("cpu_features_off"):
            base[_speedup_key(r)] = r
    for r in results:
        off = r.get("cpu_features_off") or []
        d = base.get(_speedup_key(r))
        if not off or r["status"] != "ok" or d is None or r.get("family") == "noop":
            continue
        label = params_label(r.get("params") or {})
        out.append(
            Speedup(
                r["implementation"],
                f"{r['primitive']} {r['operation']}" + (f" {label}" if label else ""),
                r["size"],
                cpu_features.relevant_names(r["primitive"], off),
                stats.rounds_diff(_estimate(d), _estimate(r)),
            )
        )
    return sorted(out, key=lambda s: (s.case, s.size, s.implementation, s.features))


def _speedup_key(r: dict) -> tuple:
    """A case regardless of the CPU features that were off: default and switched pair up."""
    params = json.dumps(r.get("params") or {}, sort_keys=True)
    return (r["implementation"], r["primitive"], r["operation"], r["size"], params)


def speedup_text(s: Speedup) -> str:
    """``SHA-NI ×3.40 (3.1–3.7)``: how much faster the default path is."""
    d = s.diff
    if d.low == d.high:
        return f"{s.features} ×{d.ratio:.2f} (one round: no interval)"
    return f"{s.features} ×{d.ratio:.2f} ({d.low:.2f}–{d.high:.2f})"


def scaling_rows(results: list[dict]) -> list[tuple[str, str, str, str, str, str]]:
    """(case, implementation, workers, per worker, aggregate, efficiency) of every case run
    in N processes or threads at once: what the whole machine sustains."""
    out = []
    for r in results:
        par = r.get("parallel")
        if r["status"] != "ok" or not par:
            continue
        slow = r.get("family") in SLOW
        params = {k: v for k, v in (r.get("params") or {}).items() if k != par["kind"]}
        label = params_label(params)
        case = f"{r['primitive']} {r['operation']} {r['size']} B" + (f" {label}" if label else "")
        if slow or not par.get("aggregate_mb_s"):
            each = f"{r['median_ns'] / 1e6:.2f} ms" if slow else f"{r['ops_per_s']:.4g} ops/s"
            total = f"{par['aggregate_ops_per_s']:.4g} ops/s"
        else:
            each = f"{r['throughput_mb_s']:.1f} MB/s"
            total = f"{par['aggregate_mb_s']:.1f} MB/s"
        eff = "" if par.get("efficiency") is None else f"{par['efficiency']:.0%}"
        out.append((case, impl_label(r), f"{par['workers']} {par['kind']}", each, total, eff))
    return sorted(out)

"""The results contract (docs/results.md): the run document's whole life — started, a case
stored after every round, finished — and one dict per case."""

from __future__ import annotations

import datetime as dt
import json
import os
import uuid

import numpy as np

from .. import stats
from ..catalog import keys
from ..plan.cases import Case
from ..runtimes.protocol import Implementation

SCHEMA = "cryptobench/results/v2"
READABLE = ("cryptobench/results/v1", SCHEMA)  # v1: one round per case, read as such
SPREAD_FLAG = 0.20  # round medians further apart than this are flagged
WITHIN_NOISY = 0.05  # a round's own half-width beyond this: the calls scatter, not the process


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def implementation_dict(i: Implementation, one_cpu: str | None = None) -> dict:
    """An implementation as the run document lists it; ``one_cpu``: why its groups' processes
    ran on one CPU (runner.toml [run.one_cpu]), where they did."""
    return {
        "id": i.id,
        "runtime": i.runtime_id,
        "library": i.library,
        "version": i.version,
        "backend": i.backend,
        "code_path": i.code_path,
        "notes": i.notes,
        "primitives": {
            p: {
                "operations": list(o.operations),
                "reuses_key": o.reuses_key,
                "takes_salt": o.takes_salt,
            }
            for p, o in sorted(i.primitives.items())
        },
        **({"one_cpu": one_cpu} if one_cpu else {}),
    }


def implementation_dicts(live) -> list[dict]:
    """Every implementation of the live runtimes, as the run document lists them."""
    return [
        implementation_dict(i, rt.one_cpu_why(i.library)) for rt in live for i in rt.implementations
    ]


def start(command: str, preset, seed: int, settings: dict, machine: dict, commit, live, skipped):
    """A new run document (status ``running``), before any case."""
    return {
        "id": str(uuid.uuid4()),
        "started": now(),
        "ended": None,
        "status": "running",
        "command": command,
        "preset": preset,
        "seed": seed,
        "git_commit": commit,
        "settings": settings,
        "machine": machine,
        "runtimes": [rt.info for rt in live],
        "implementations": implementation_dicts(live),
        "skipped": [{"runtime": r, "reason": why} for r, why in skipped],
        "probes": [],
    }


def finish(run: dict, interrupted: bool, steal: float | None, load0: float) -> None:
    """Close the run: end time, status, and how busy the machine was meanwhile."""
    run["ended"] = now()
    run["status"] = "interrupted" if interrupted else "complete"
    run["machine"]["steal_fraction"] = steal
    run["machine"]["load_avg_start"] = load0
    run["machine"]["load_avg_end"] = os.getloadavg()[0]


def unmeasured() -> dict:
    """A result's status and measurement fields before it is verified and measured."""
    return {
        "status": "skipped",
        "error": None,
        "verified": False,
        "verification": None,
        "median_ns": None,
        "ci_low_ns": None,
        "ci_high_ns": None,
        "precision": None,
        "throughput_mb_s": None,
        "ops_per_s": None,
        "cycles_per_byte": None,
        "n_samples": 0,
        "samples": [],
        "warmup_ns": None,
        "warmup_samples": [],
        "flags": [],
    }


def base(case: Case) -> dict:
    impl, prim = case.impl, case.prim
    return {
        "runtime": impl.runtime_id,
        "implementation": impl.id,
        "library": impl.library,
        "library_version": impl.version,
        "backend": impl.backend_label,
        "primitive": prim.id,
        "family": prim.family,
        "operation": case.operation,
        "size": case.size,
        "params": case.params,
        "security_status": prim.status,
        "code_path": impl.code_path,
        "cpu_features_off": list(case.cpu_off),
        **({"wire_bytes": keys.wire_bytes(prim)} if prim.is_pubkey else {}),
        **unmeasured(),
    }


def skipped(case: Case, reason: str) -> dict:
    return {**base(case), "status": "skipped", "error": reason}


def failed(case: Case, reason: str, verification: str | None = None, **extra) -> dict:
    return {
        **base(case),
        "status": "failed",
        "error": reason,
        "verification": verification,
        **extra,
    }


def _why_apart(rounds: list[dict], probes: list[dict] | None = None) -> str:
    """The measured reason rounds differ (docs/methodology.md, "Why whole rounds ran slow"):
    calls whose times scatter within every round (an awaited hand-off, a collector), or
    rounds each steady at its own speed — the machine's, where the run's drift probe of
    those rounds (``probes``) spread more than stats.BUSY_SPREAD too, else the process's
    (what ran in it before, its placement)."""
    within = sorted(
        (r["ci_high_ns"] - r["ci_low_ns"]) / 2 / r["median_ns"] for r in rounds if r["median_ns"]
    )
    w = within[len(within) // 2] if within else 0.0
    if w > WITHIN_NOISY:
        return f"the calls scatter within each round too (±{w:.0%}): the call's own noise"
    seen = _probe_spread(rounds, probes or [])
    if seen is not None and seen > stats.BUSY_SPREAD:
        return (
            f"each round steady (±{w:.1%}), and the drift probe took {1 + seen:.2f}x as long "
            "in one of these rounds as in another: the machine's speed moved between them"
        )
    return f"each round steady (±{w:.1%}): each process settles at its own speed"


def _probe_spread(rounds: list[dict], probes: list[dict]) -> float | None:
    """The spread (stats.drift) of the drift probe over the rounds a case was measured in;
    a round measured again after the last one is left out (its probe is not its time's)."""
    by_round = {p.get("round"): p for p in probes}
    return stats.drift(
        [
            by_round[r.get("round")]
            for r in rounds
            if r.get("round") in by_round and not r.get("remeasured")
        ]
    )


def _flags(
    ci: stats.RoundsCI, rounds: list[dict], planned: int, errors, target, decided=None, probes=None
) -> list[str]:
    flags = []
    if ci.precision > target:
        flags.append(f"precision {ci.precision:.1%} > target {target:.0%}")
    if planned == 1:
        flags.append("one round: the interval does not include run-to-run variation")
    elif len(rounds) < planned and not decided:
        flags.append(f"measured in {len(rounds)} of {planned} rounds")
    meds = [r["median_ns"] for r in rounds]
    if len(meds) > 1 and max(meds) > (1 + SPREAD_FLAG) * min(meds):
        why = _why_apart(rounds, probes)
        flags.append(f"rounds differ: {min(meds):.4g}–{max(meds):.4g} ns; {why}")
    flags += [  # a round's own noise is in the interval; a round that never settled is not
        f"round {r['round']}: {f}"
        for r in rounds
        for f in r["flags"]
        if f.startswith(("no steady state", "slow operation", "ruled out"))
    ]
    flags += [f"round {r}: {why}" for r, why in errors]
    return flags


def measured(case: Case, rounds: list[dict], planned: int, verification: str, ctx: dict) -> dict:
    """A case from its rounds so far; ``ctx``: tsc_hz, errors [(round, why)], where the
    case was decided early, the rounds after which it was (``decided``), and the run's drift
    probes (``probes``: whether the machine's speed moved where rounds differ)."""
    ci = stats.rounds_ci(
        [r["median_ns"] for r in rounds],
        [r["ci_low_ns"] for r in rounds],
        [r["ci_high_ns"] for r in rounds],
    )
    med = ci.median
    slow = case.prim.is_slow or case.prim.is_pubkey  # no per-byte figures: ops/s and µs/op
    return {
        **base(case),
        "status": "ok",
        "verified": True,
        "verification": verification,
        "median_ns": med,
        "ci_low_ns": ci.low,
        "ci_high_ns": ci.high,
        "precision": ci.precision,
        "target_precision": rounds[-1]["target"],
        "throughput_mb_s": None if slow else stats.throughput_mb_s(case.size, med),
        "ops_per_s": 1e9 / med if med > 0 else None,
        "cycles_per_byte": None if slow else stats.cycles_per_byte(case.size, med, ctx["tsc_hz"]),
        "n_samples": sum(r["n_samples"] for r in rounds),
        "samples": [s for r in rounds for s in r["samples"]],
        "iterations": rounds[-1]["iterations"],
        "warmup_ns": sum(r["warmup_ns"] for r in rounds),
        "warmup_samples": [s for r in rounds for s in r["warmup_samples"]],
        "stop_reason": ", ".join(sorted({r["stop_reason"] for r in rounds})),
        "elapsed_s": round(sum(r["elapsed_s"] for r in rounds), 3),
        "rounds_planned": planned,
        **({"decided_after": ctx["decided"]} if ctx.get("decided") else {}),
        "rounds": [
            {k: v for k, v in r.items() if k not in ("samples", "warmup_samples")} for r in rounds
        ],
        "between_round_sd": ci.between,
        "flags": _flags(
            ci,
            rounds,
            planned,
            ctx["errors"],
            rounds[-1]["target"],
            ctx.get("decided"),
            ctx.get("probes"),
        ),
        **_spread(case, rounds),
    }


def _spread(case: Case, rounds: list[dict]) -> dict:
    """An operation of random duration (RSA keygen: a prime search) also reports the 10th and
    90th percentiles of its calls, over every round (measure/sampling.call_floor)."""
    if not case.prim.random_duration(case.operation):
        return {}
    per_call = [s["ns"] / s["iterations"] for r in rounds for s in r["samples"]]
    if not per_call:
        return {}
    p10, p90 = np.percentile(per_call, [10, 90])
    return {"p10_ns": float(p10), "p90_ns": float(p90)}


def size_inversions(cases: list[dict]) -> dict[int, str]:
    """{index in ``cases``: flag} for a size slower per operation than a larger size of the
    same implementation, primitive, operation and parameters, intervals apart."""
    groups: dict[tuple, list[int]] = {}
    for i, r in enumerate(cases):
        if r["status"] == "ok" and r.get("family") != "noop":
            key = (r["implementation"], r["primitive"], r["operation"], _params_key(r))
            groups.setdefault(key, []).append(i)
    out = {}
    for idx in groups.values():
        by_size = {cases[i]["size"]: i for i in idx}
        points = [(cases[i]["size"], 0, cases[i]["ci_low_ns"], cases[i]["ci_high_ns"]) for i in idx]
        for small, big in stats.size_inversions(points).items():
            out[by_size[small]] = f"slower per operation than at {big} B: distrust this number"
    return out


def _params_key(r: dict) -> str:
    return json.dumps(r.get("params") or {}, sort_keys=True)


def document(run: dict, results: list[dict]) -> dict:
    """The versioned JSON interchange document (docs/results.md)."""
    return {
        "schema": run.get("results_schema", SCHEMA),  # an imported v1 run stays v1
        "run": {k: v for k, v in run.items() if k not in ("machine", "results_schema")},
        "machine": run.get("machine", {}),
        "results": results,
    }


def as_noop(res: dict, runtime_id: str) -> dict:
    """A noop case's row: the runner's loop-and-call overhead, not a library's throughput."""
    res.update(
        implementation=f"{runtime_id}/noop",
        library="noop",
        library_version="",
        backend="",
        family="noop",
        throughput_mb_s=None,
        cycles_per_byte=None,
    )
    return res


def _parallel_base(case: Case, workers: int, kind: str) -> dict:
    """A case run in ``workers`` processes (or threads) at once: its own row, told apart from
    the single-worker one by ``params[kind]`` (docs/results.md)."""
    row = base(case)
    row["params"] = {**case.params, kind: workers}
    return row


def parallel_skipped(case: Case, workers: int, reason: str, kind: str = "threads") -> dict:
    return {**_parallel_base(case, workers, kind), "status": "skipped", "error": reason}


def parallel_failed(case: Case, workers: int, reason: str, kind: str = "processes") -> dict:
    return {**_parallel_base(case, workers, kind), "status": "failed", "error": reason}


def parallel_measured(
    case: Case,
    sc: stats.Scaling,
    detail: dict,
    flags: list[str],
    verification: str,
    tsc_hz,
    kind: str = "processes",
) -> dict:
    """The per-worker figures (median, interval, MB/s: what one of them sustained while all
    ran) and, in ``parallel``, the machine's aggregate and the scaling efficiency."""
    med, slow = sc.per_op.median, case.prim.is_slow
    size = case.size
    return {
        **_parallel_base(case, sc.workers, kind),
        "status": "ok",
        "verified": True,
        "verification": verification,
        "median_ns": med,
        "ci_low_ns": sc.per_op.low,
        "ci_high_ns": sc.per_op.high,
        "precision": sc.per_op.precision,
        "throughput_mb_s": None if slow else stats.throughput_mb_s(size, med),
        "ops_per_s": 1e9 / med if med > 0 else None,
        "cycles_per_byte": None if slow else stats.cycles_per_byte(size, med, tsc_hz),
        "n_samples": sum(len(w) for r in detail["samples"] for w in r),
        "samples": [],
        "flags": flags,
        "parallel": {
            "kind": kind,
            "workers": sc.workers,
            "per_worker_median_ns": list(sc.per_worker_ns),
            "aggregate_ops_per_s": sc.aggregate_ops_per_s,
            "aggregate_ops_per_s_range": [sc.aggregate_low, sc.aggregate_high],
            "aggregate_mb_s": None if slow or size <= 0 else sc.aggregate_ops_per_s * size / 1e6,
            "single_ops_per_s": sc.single_ops_per_s,
            "efficiency": sc.efficiency,
            **detail,
        },
    }

"""The results contract: one dict per case, one document per run (docs/results.md)."""

from __future__ import annotations

import datetime as dt
import uuid

from . import stats
from .plan import Case
from .sampling import Measurement

SCHEMA = "cryptobench/results/v1"


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def new_run(
    command: str, preset: str | None, seed: int, settings: dict, machine: dict, commit: str | None
) -> dict:
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
        "runtimes": [],
        "implementations": [],
        "skipped": [],
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


def skipped(case: Case, reason: str) -> dict:
    return {**base(case), "status": "skipped", "error": reason}


def failed(case: Case, reason: str, verification: str | None = None) -> dict:
    return {**base(case), "status": "failed", "error": reason, "verification": verification}


def measured(case: Case, m: Measurement, verification: str, tsc_hz: float | None) -> dict:
    med = m.ci.median
    return {
        **base(case),
        "status": "ok",
        "verified": True,
        "verification": verification,
        "median_ns": med,
        "ci_low_ns": m.ci.low,
        "ci_high_ns": m.ci.high,
        "precision": m.ci.precision,
        "target_precision": m.target,
        "throughput_mb_s": None if case.prim.is_slow else stats.throughput_mb_s(case.size, med),
        "ops_per_s": 1e9 / med if med > 0 else None,
        "cycles_per_byte": None
        if case.prim.is_slow
        else stats.cycles_per_byte(case.size, med, tsc_hz),
        "n_samples": len(m.samples),
        "samples": m.samples,
        "iterations": m.iterations,
        "warmup_ns": m.warmup_ns,
        "warmup_samples": m.warmup,
        "stop_reason": m.stop_reason,
        "elapsed_s": round(m.elapsed_s, 3),
        "flags": m.flags,
    }


def document(run: dict, results: list[dict]) -> dict:
    """The versioned JSON interchange document (docs/results.md)."""
    return {
        "schema": SCHEMA,
        "run": {k: v for k, v in run.items() if k != "machine"},
        "machine": run.get("machine", {}),
        "results": results,
    }

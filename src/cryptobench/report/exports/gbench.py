"""Google Benchmark's JSON output (json_schema_version 1: `--benchmark_format=json`), read by
its `tools/compare.py` and by tools that take Google Benchmark results.

Each case is a benchmark family whose repetitions are its rounds (``run_type: iteration``, one
per round: ``real_time`` the round's median), followed by the ``mean``, ``median``, ``stddev``
and ``cv`` aggregates over the rounds, as Google Benchmark computes them over repetitions.
Runners time wall-clock only, so ``cpu_time`` repeats ``real_time``.
"""

from __future__ import annotations

import json
import statistics

from ... import __version__
from .cases import label, measured, one_line, per_byte, rounds, versions, workers


def context(doc: dict) -> dict:
    run, machine = doc["run"], doc.get("machine") or {}
    ctx = {
        "date": run.get("started") or "",
        "host_name": machine.get("hostname") or "",
        "executable": "cryptobench",
        "num_cpus": int(machine.get("cores") or 0),
        "mhz_per_cpu": round((machine.get("tsc_hz") or 0) / 1e6),
        "caches": [],
        "load_avg": [machine["load_avg_start"]] if machine.get("load_avg_start") else [],
        "library_version": f"cryptobench {__version__}",
        "library_build_type": "release",
        "json_schema_version": 1,
    }
    extra = {  # Google Benchmark's custom context: string keys and string values
        "cpu_model": machine.get("cpu_model"),
        "cryptobench_run": run.get("id"),
        "cryptobench_command": run.get("command"),
        **{f"runtime_{rid}": v for rid, v in versions(doc)},
    }
    ctx.update({k: one_line(v) for k, v in extra.items() if v})
    return ctx


def _entry(r: dict, family: int, name: str, repetitions: int, time_ns: float, iters: int) -> dict:
    out = {
        "name": name,
        "family_index": family,
        "per_family_instance_index": 0,
        "run_name": label(r),
        "run_type": "iteration",
        "repetitions": repetitions,
        "repetition_index": 0,
        "threads": workers(r),
        "iterations": iters,
        "real_time": time_ns,
        "cpu_time": time_ns,
        "time_unit": "ns",
    }
    if per_byte(r):
        out["bytes_per_second"] = r["size"] / time_ns * 1e9
    return out


def _aggregates(values: list[float]) -> dict[str, float]:
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    return {"mean": mean, "median": statistics.median(values), "stddev": sd, "cv": sd / mean}


def entries(r: dict, family: int) -> list[dict]:
    """One ``iteration`` entry per round, then the aggregates over the rounds (of the time
    and of ``bytes_per_second``, as Google Benchmark aggregates its counters)."""
    rds = rounds(r)
    n = len(rds)
    out = []
    for i, rd in enumerate(rds):
        e = _entry(r, family, label(r), n, rd.median_ns, rd.iterations)
        e["repetition_index"] = i
        out.append(e)
    if n < 2:
        return out
    times = _aggregates([rd.median_ns for rd in rds])
    rates = _aggregates([e["bytes_per_second"] for e in out]) if per_byte(r) else {}
    for agg, value in times.items():
        e = _entry(r, family, f"{label(r)}_{agg}", n, value, n)
        del e["repetition_index"]
        e.update(run_type="aggregate", aggregate_name=agg)
        e["aggregate_unit"] = "percentage" if agg == "cv" else "time"
        e.pop("bytes_per_second", None)
        if rates:
            e["bytes_per_second"] = rates[agg]
        out.append(e)
    return out


def render(doc: dict, **_) -> str:
    benchmarks = [e for i, r in enumerate(measured(doc)) for e in entries(r, i)]
    return json.dumps({"context": context(doc), "benchmarks": benchmarks}, indent=2) + "\n"

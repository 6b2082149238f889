"""A pyperf suite (pyperf's JSON format 1.0), read by `python -m pyperf show`, `stats`,
`hist` and `compare_to`.

Each case is a benchmark whose runs are its rounds, one value per run (the round's median,
in seconds, as pyperf stores times), so pyperf's statistics and its t-test in `compare_to`
work over the rounds, which are independent processes as pyperf's worker runs are.
"""

from __future__ import annotations

import json

from .cases import label, measured, one_line, rounds, versions


def _clean(metadata: dict) -> dict:
    """pyperf refuses empty strings and newlines in metadata values."""
    out = {}
    for k, v in metadata.items():
        if isinstance(v, str):
            v = one_line(v)
        if v not in (None, ""):
            out[k] = v
    return out


def suite_metadata(doc: dict) -> dict:
    run, machine = doc["run"], doc.get("machine") or {}
    meta = {
        "cpu_model_name": machine.get("cpu_model"),
        "cpu_count": machine.get("cores") if isinstance(machine.get("cores"), int) else None,
        "hostname": machine.get("hostname"),
        "platform": " ".join(str(machine[k]) for k in ("os", "kernel", "arch") if machine.get(k)),
        "date": run.get("started"),
        "cryptobench_run": run.get("id"),
        "cryptobench_command": run.get("command"),
        **{f"runtime_{rid}": version for rid, version in versions(doc)},
    }
    return _clean(meta)


def benchmark(r: dict) -> dict:
    meta = {
        "name": label(r),
        "unit": "second",
        "description": f"{r['primitive']} {r['operation']} of {r['size']} bytes",
        "cryptobench_median_ns": r["median_ns"],
        "cryptobench_ci_low_ns": r.get("ci_low_ns"),
        "cryptobench_ci_high_ns": r.get("ci_high_ns"),
        "library_version": r.get("library_version"),
        "backend": r.get("backend"),
        "code_path": r.get("code_path"),
    }
    runs = [
        {"metadata": {"loops": rd.iterations}, "values": [rd.median_ns / 1e9]} for rd in rounds(r)
    ]
    return {"metadata": _clean(meta), "runs": runs}


def render(doc: dict, **_) -> str:
    suite = {
        "version": "1.0",
        "metadata": suite_metadata(doc),
        "benchmarks": [benchmark(r) for r in measured(doc)],
    }
    return json.dumps(suite, indent=2) + "\n"

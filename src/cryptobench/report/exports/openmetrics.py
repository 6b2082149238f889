"""OpenMetrics text (openmetrics.io; the Prometheus exposition format's successor), for a
Pushgateway, a node-exporter textfile collector or any OpenMetrics parser.

Gauges in base units (seconds), one sample per case labelled by implementation, primitive,
operation, size, parameters and CPU features off; the run and the runtimes as info metrics.
"""

from __future__ import annotations

from .cases import cpu_off, measured, params_text, per_byte, rounds, versions

FAMILIES = (
    # family name, unit, help, the case field it shows (ns → seconds)
    ("cryptobench_op_seconds", "seconds", "median time per operation", "median_ns"),
    ("cryptobench_op_low_seconds", "seconds", "95% interval, low end", "ci_low_ns"),
    ("cryptobench_op_high_seconds", "seconds", "95% interval, high end", "ci_high_ns"),
)


def escape(value) -> str:
    """A label value: backslash, double quote and newline escaped (OpenMetrics ABNF)."""
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def labels(pairs: dict) -> str:
    return "{" + ",".join(f'{k}="{escape(v)}"' for k, v in pairs.items()) + "}"


def case_labels(r: dict) -> dict:
    return {
        "implementation": r["implementation"],
        "primitive": r["primitive"],
        "operation": r["operation"],
        "size_bytes": r["size"],
        "params": params_text(r, ","),
        "cpu_off": cpu_off(r),
    }


def _family(name: str, kind: str, unit: str | None, text: str) -> list[str]:
    head = [f"# TYPE {name} {kind}"]
    if unit:
        head.append(f"# UNIT {name} {unit}")
    return [*head, f"# HELP {name} {text}"]


def render(doc: dict, **_) -> str:
    run, machine = doc["run"], doc.get("machine") or {}
    cases = measured(doc)
    out = _family("cryptobench_run", "info", None, "the run these numbers come from")
    run_labels = {"run_id": run.get("id"), "started": run.get("started")}
    run_labels["cpu_model"] = machine.get("cpu_model", "")
    out.append(f"cryptobench_run_info{labels(run_labels)} 1")
    out += _family("cryptobench_runtime", "info", None, "a runtime of the run and its version")
    out += [
        f"cryptobench_runtime_info{labels({'runtime': rid, 'version': v})} 1"
        for rid, v in versions(doc)
    ]
    for name, unit, text, key in FAMILIES:
        out += _family(name, "gauge", unit, text)
        out += [f"{name}{labels(case_labels(r))} {r[key] / 1e9!r}" for r in cases if r.get(key)]
    out += _family(
        "cryptobench_throughput_bytes_per_second",
        "gauge",
        None,
        "bytes per second (1 MB/s = 10^6 B/s)",
    )
    out += [
        f"cryptobench_throughput_bytes_per_second{labels(case_labels(r))} "
        f"{r['size'] / r['median_ns'] * 1e9!r}"
        for r in cases
        if per_byte(r)
    ]
    out += _family("cryptobench_rounds", "gauge", None, "rounds the case was measured in")
    out += [f"cryptobench_rounds{labels(case_labels(r))} {len(rounds(r))}" for r in cases]
    return "\n".join([*out, "# EOF"]) + "\n"

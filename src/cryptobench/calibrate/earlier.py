"""Where an earlier `calibrate` on this machine answered, so that a search can begin there
instead of at the policy's start (docs/methodology.md, "calibrate", "From an earlier answer").

A search from the policy's start spends a short probe (Argon2 t=1: 3 calls, the request's
untimed one, their verification) and often a third probe where the law's first guess is off,
about 1–1.5 s of the 3.5 s an implementation has in a 60 s call; an earlier answer here puts
the first probe near the target. It only chooses where the search begins: that value is
verified and probed like any, and the law and the rounds decide as before. Only runtimes
without a JIT begin there: on Java and Node.js the short probe also warms the process up
before the probe whose calls become round 1.
"""

from __future__ import annotations

from .search import predict

LOOK_BACK = 5  # earlier calibrate runs of the same algorithm and fixed parameters read


def answers(store, earlier: list[dict], calibration: dict, machine: dict) -> dict[str, dict]:
    """implementation id → ``{"value", "ms", "run"}``: its newest measured row in this
    machine's earlier complete ``calibrate`` runs (``earlier``, newest first:
    run/lifecycle.earlier_runs) of the same algorithm and fixed parameters on the same CPU
    model, at most LOOK_BACK of them."""
    out: dict[str, dict] = {}
    param, read = calibration["param"], 0
    for run in earlier:
        cal = run.get("calibration") or {}
        if run.get("operation") != "calibrate" or any(
            cal.get(k) != calibration[k] for k in ("algorithm", "param", "fixed_params")
        ):
            continue
        if (run.get("machine") or {}).get("cpu_model") != machine.get("cpu_model"):
            continue
        read += 1
        if read > LOOK_BACK:
            break
        for row in store.load(run["id"], raw=False)[1]:
            value = (row.get("params") or {}).get(param)
            if row.get("status") != "ok" or not row.get("median_ns") or value is None:
                continue
            out.setdefault(
                row["implementation"],
                {"value": int(value), "ms": row["median_ns"] / 1e6, "run": run["id"]},
            )
    return out


def start(spec, prim, target_ns: float, cap, seen: dict | None) -> dict | None:
    """Where a search begins from an earlier answer (``seen``: answers()'s entry): the value
    the law predicts from its time for this target, with the answer it came from; None
    without one."""
    if not seen:
        return None
    value = predict(spec, prim, seen["value"], seen["ms"] * 1e6, target_ns, cap)
    return {"value": value, "from": dict(seen)}

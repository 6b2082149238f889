"""A group's warm-up (docs/methodology.md, "A group warms up once"): in a fresh process of a
runtime whose code gets faster as it runs (a JVM's JIT, V8's tiers), every size of the group
runs in turn, a short turn each, until the runtime's warm-up time is spent; each size is then
measured on its own, with its own steady-state proof (sampling: compilation quiet, no
downward trend). One warm-up serves every size, and no size is measured in a process that
has only run the others."""

from __future__ import annotations

import numpy as np

from ..stats import batches as rules
from . import sampling

TURN_NS = 20_000_000  # one size's turn: ~20 ms of batches, then the next size's


def warm_group(
    benches: list[tuple[sampling.Bench, float | None]],
    seconds: float,
    policy: sampling.Policy,
) -> tuple[float, list[float], list[list[float]]]:
    """Run every (bench, ns per call or None) in turns until their batches have run for
    ``seconds``, as a JIT's least warm-up is counted (sampling._after); return the seconds
    they ran and each one's ns per call in its last turn (a first round sizes its batches from
    it and skips calibration, as a later round does from the earlier ones). A case whose ns
    per call is not known yet is calibrated first (sampling.calibrate: its batches are warm-up
    too); batches are resized to ~3 ms as the code gets faster. Raises what a bench raises:
    the case's own round then says why. Third: each bench's ns per call of every batch of its
    turns, in order (stats.batches.collection_share reads them)."""
    spent, per_op = 0.0, []
    seen: list[list[float]] = [[] for _ in benches]
    for bench, known in benches:
        if known:
            per_op.append(known)
            continue
        ns, batches = sampling.calibrate(bench, policy, policy.base_timeout_s)
        per_op.append(ns)
        spent += sum(b["ns"] for b in batches)
    while spent < seconds * 1e9:
        before = spent
        for i, (bench, _) in enumerate(benches):
            n = rules.iterations_for(per_op[i], sampling.TARGET_BATCH_NS)
            k = max(1, min(50, round(TURN_NS / max(n * per_op[i], 1))))
            got = bench(n, k, sampling.request_timeout(policy, n * per_op[i] * k))
            spent += sum(b["ns"] for b in got)
            values = [b["ns"] / b["iterations"] for b in got]
            per_op[i] = max(float(np.median(values)), 1e-3)
            seen[i].extend(values)
        if spent == before:  # a clock that reads no time: turns would never add up
            break
    return spent / 1e9, per_op, seen

"""The timed batches: the only place that reads the clock (time.perf_counter_ns). No policy."""

from __future__ import annotations

import time
from collections.abc import Callable

_SINK: list = []


def time_batches(call: Callable, iterations: int, batches: int) -> list[dict]:
    clock = time.perf_counter_ns
    samples, sink = [], 0
    rng = range(iterations)
    for _ in range(batches):
        t0 = clock()
        for _ in rng:
            out = call()
        t1 = clock()
        sink ^= out[0] if out else 0  # keep the output alive
        samples.append({"iterations": iterations, "ns": t1 - t0})
    _SINK.append(sink)
    return samples

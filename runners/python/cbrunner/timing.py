"""The timed batches: the only place that reads the clock (time.perf_counter_ns). No policy."""

from __future__ import annotations

import base64
import sys
import time
from array import array
from collections.abc import Callable

from cbrunner.protocol import AuthFailed

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


def time_single_calls(calls: list[Callable], order: bytes) -> str:
    """The leak request: one call of ``calls[order[i]]`` per measurement, each timed alone
    (a bad tag or password is the expected outcome); base64 of little-endian uint32 ns."""
    clock = time.perf_counter_ns
    ns = array("I", bytes(4 * len(order)))
    sink = 0
    for i, c in enumerate(order):
        call = calls[c]
        t0 = clock()
        try:
            out = call()
        except AuthFailed:
            out = b""
        t1 = clock()
        ns[i] = min(t1 - t0, 0xFFFFFFFF)
        sink ^= out[0] if out else 0
    _SINK.append(sink)
    if sys.byteorder != "little":
        ns.byteswap()
    return base64.b64encode(ns.tobytes()).decode()

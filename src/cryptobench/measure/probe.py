"""The drift probe: one fixed, tiny workload timed at the start of every round.

It measures the machine, not any library under test: SHA-256 of 1 KiB through Python's
hashlib (OpenSSL underneath), 2 000 calls a batch, 9 batches, the median ns per call. If the
probe moves between rounds or runs, the machine changed (frequency, neighbours, thermal
state); `compare` says so (docs/methodology.md, "The drift probe").
"""

from __future__ import annotations

import hashlib
import os
import time

from .. import stats
from ..runtimes.protocol import reap_exiting

CALLS, BATCHES = 2000, 9
_MSG = bytes(range(256)) * 4


def measure(cpu: int | None = None) -> dict:
    """Probe once; on ``cpu`` when given (the runners' CPU under ``--pin``), once every
    runner process told to end has ended."""
    reap_exiting()
    pinned = cpu is not None and hasattr(os, "sched_setaffinity")  # not on macOS
    before = os.sched_getaffinity(0) if pinned else None
    if pinned:
        os.sched_setaffinity(0, {cpu})
    try:
        per_call = []
        for _ in range(BATCHES):
            t0 = time.perf_counter_ns()
            for _ in range(CALLS):
                hashlib.sha256(_MSG).digest()
            per_call.append((time.perf_counter_ns() - t0) / CALLS)
    finally:
        if pinned:
            os.sched_setaffinity(0, before)
    ci = stats.median_ci(per_call)
    return {"median_ns": ci.median, "ci_low_ns": ci.low, "ci_high_ns": ci.high}

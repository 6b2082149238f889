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
from contextlib import contextmanager

from .. import stats
from ..runtimes.protocol import reap_exiting

CALLS, BATCHES = 2000, 9
_MSG = bytes(range(256)) * 4


@contextmanager
def pinned(cpu: int | None):
    """This process on ``cpu`` for the block (None, or no affinity on this OS: unchanged)."""
    pin = cpu is not None and hasattr(os, "sched_setaffinity")  # not on macOS
    before = os.sched_getaffinity(0) if pin else None
    if pin:
        os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        if pin:
            os.sched_setaffinity(0, before)


def batch_ns(msg: bytes, calls: int) -> float:
    """ns per call of one batch of ``calls`` hashlib SHA-256 digests of ``msg``."""
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        hashlib.sha256(msg).digest()
    return (time.perf_counter_ns() - t0) / calls


def measure(cpu: int | None = None) -> dict:
    """Probe once; on ``cpu`` when given (the runners' CPU under ``--pin``), once every
    runner process told to end has ended."""
    reap_exiting()
    with pinned(cpu):
        per_call = [batch_ns(_MSG, CALLS) for _ in range(BATCHES)]
    ci = stats.median_ci(per_call)
    return {"median_ns": ci.median, "ci_low_ns": ci.low, "ci_high_ns": ci.high}

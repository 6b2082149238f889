"""Is this machine steady enough to take figures on? (docs/methodology.md, "A busy machine";
`cryptobench doctor --machine`.) One loop pinned to each CPU at once — Python's hashlib
SHA-256 of 16 B in batches of 2 000 calls, ~1 ms each on an idle host — for a few seconds;
per CPU: its fast speed (the batches' 5th percentile), their median, the share of batches
slower than SLOW times the fast speed, and how much of that slow time lies in stretches longer
than LONG_S, as long as a fast case's round: such a stretch slows a whole round, every batch
of it agreeing. The machine reads steady when no CPU had more than STEADY_SHARE of its batches
slow (a host slow throughout reads steady too: its fastest speed, against another day's, says
so).

The summary is a pure function of the batches, so the tests run it on fixed samples.
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import time
from dataclasses import dataclass

from . import probe

MSG, CALLS = b"x" * 16, 2000
SLOW = 1.4  # a batch this much slower than the CPU's fast speed is slow
LONG_S = 0.1  # a slow stretch longer than this slows a whole round of a fast case
STEADY_SHARE = 0.05  # steady: no CPU with more than this share of its batches slow


@dataclass(frozen=True)
class CpuState:
    cpu: int
    fast_ns: float  # ns per call, the batches' 5th percentile
    median_ns: float
    slow_share: float  # of the batches
    long_share: float  # of the slow time, in stretches longer than LONG_S
    batches: int

    def text(self) -> str:
        return (
            f"CPU {self.cpu}: {self.fast_ns:.0f} ns a call at its fastest, median "
            f"{self.median_ns:.0f} ns; {100 * self.slow_share:.0f}% of {self.batches} batches "
            f"slower than {SLOW}x its fastest, {100 * self.long_share:.0f}% of that time in "
            f"stretches longer than {LONG_S} s"
        )


def summarize(cpu: int, batches: list[tuple[float, float]]) -> CpuState:
    """A CPU's state from its batches, each (seconds since the start, ns per call)."""
    if not batches:
        raise ValueError("no batch was timed")
    ns = sorted(v for _, v in batches)
    fast = ns[len(ns) // 20]
    slow = [v > SLOW * fast for _, v in batches]
    times = [t for t, _ in batches]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    step = statistics.median(gaps) if gaps else 0.0
    ends = times[1:] + [times[-1] + step]  # a batch ends where the next begins
    stretches, start, end = [], None, 0.0  # the seconds of each run of slow batches
    for t, e, s in zip(times, ends, slow, strict=True):
        if s:
            start, end = (t if start is None else start), e
        elif start is not None:
            stretches.append(t - start)
            start = None
    if start is not None:
        stretches.append(end - start)
    slow_s = sum(stretches)
    long_share = sum(d for d in stretches if d > LONG_S) / slow_s if slow_s else 0.0
    return CpuState(
        cpu=cpu,
        fast_ns=fast,
        median_ns=statistics.median(ns),
        slow_share=sum(slow) / len(slow),
        long_share=long_share,
        batches=len(batches),
    )


def steady(states: list[CpuState]) -> bool:
    return bool(states) and max(s.slow_share for s in states) <= STEADY_SHARE


def verdict(states: list[CpuState]) -> str:
    """One line: steady, or busy and what that does to rounds. A host slow throughout reads
    steady too: its fastest ns, against an earlier day's, says so."""
    worst = max(s.slow_share for s in states)
    if steady(states):
        return (
            f"steady: at most {100 * worst:.0f}% of a CPU's batches slow (a machine slow "
            "throughout reads steady too: compare its fastest ns a call with another day's)"
        )
    return (
        f"busy: {100 * worst:.0f}% of a CPU's batches slow (steady: at most "
        f"{100 * STEADY_SHARE:.0f}%); rounds measured now differ by the machine's state, not the "
        "code's: measure on a quiet machine to decide"
    )


def _loop(cpu: int | None, seconds: float) -> list[tuple[float, float]]:
    """(seconds since the start, ns per call) of each batch, on ``cpu`` (None: unpinned)."""
    out, t0 = [], time.monotonic()
    with probe.pinned(cpu):
        while (now := time.monotonic()) - t0 < seconds or not out:
            out.append((now - t0, probe.batch_ns(MSG, CALLS)))
    return out


def sample(seconds: float) -> list[CpuState]:
    """Every CPU this process may run on, each with its own loop, all at once (one unpinned
    loop where CPUs cannot be chosen: macOS)."""
    if not hasattr(os, "sched_setaffinity"):
        return [summarize(0, _loop(None, seconds))]
    cpus = sorted(os.sched_getaffinity(0))
    with multiprocessing.get_context("spawn").Pool(len(cpus)) as pool:
        got = pool.starmap(_loop, [(cpu, seconds) for cpu in cpus])
    return [summarize(cpu, batches) for cpu, batches in zip(cpus, got, strict=True)]

"""`--parallel N`: N runner processes of one implementation, each pinned to its own CPU,
timing the same case at once, as `openssl speed -multi N` does (docs/methodology.md, "All
cores"). Runs after the ordinary rounds, whose single-process figure it is compared with.

The barrier: in every round, N fresh processes are started and answer hello; each is warmed
up by one untimed bench request, sent to all of them together; then N orchestrator threads,
one per process, wait at a ``threading.Barrier`` and each sends its process the timed bench
request at once (skew: the threads' wake-up, microseconds, against batches of ~3 ms). The
rounds' timed windows are recorded, and how much of them ran together (``overlap``).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

import numpy as np

from ..results import document as results
from ..results import machine
from ..runtimes.protocol import RemoteError, RunnerFailure, check_samples
from ..runtimes.session import Runtime
from ..stats import per_op
from ..stats.scaling import overlap, scaling
from ..store.sqlite import RunStore
from ..verify.verifier import VerifyError
from .case import Prepared, bench_request, serves

OVERLAP_FLAG = 0.9  # timed windows that ran together less than this are flagged
EFFICIENCY_FLAG = 1.1  # N workers faster each than one alone: not believable, flagged


def cpus_for(n: int | str, available: list[int] | None = None) -> list[int]:
    """The CPUs N processes are pinned to: the first N usable ones; ``all`` = every one."""
    cpus = sorted(available if available is not None else machine.usable_cpus())
    count = len(cpus) if n == "all" else int(n)
    if count < 1 or count > len(cpus):
        raise ValueError(f"--parallel {n}: this machine has {len(cpus)} usable CPUs")
    return cpus[:count]


@dataclass
class Plan:
    iterations: int
    warmup_batches: int
    batches: int
    timeout: float


def plan_for(single: dict, round_budget_s: float, jit_warmup_s: float) -> Plan:
    """Batches as long as the single-process round's (its iterations per batch), enough of
    them to fill the round's share of the budget; warm-up as long as a JIT runtime needs."""
    it = int(single.get("iterations") or 1)
    batch_ns = max(1.0, it * single["median_ns"])
    floor = 3 if single.get("family") in ("password-hash", "kdf") else 5
    batches = min(200, max(floor, math.ceil(round_budget_s * 1e9 / batch_ns)))
    warm = max(1, min(100, math.ceil(max(0.1, jit_warmup_s) * 1e9 / batch_ns)))
    timeout = 60.0 + 10 * (batches + warm) * batch_ns / 1e9
    return Plan(it, warm, batches, timeout)


def _bench(
    rt: Runtime, p: Prepared, iterations: int, batches: int, timeout: float, threads: int = 1
) -> list:
    """One bench request; with ``threads`` > 1 the samples of every thread (a list each)."""
    extra = {"threads": threads} if threads > 1 else {}
    res = bench_request(rt, p, iterations, batches, timeout, **extra)
    if threads == 1:
        return check_samples(res.get("samples"), iterations, batches)
    per_thread = res.get("thread_samples")
    if not isinstance(per_thread, list):  # a runner that ignored the field
        raise RemoteError("unsupported", f"{rt.id} does not run a bench in threads")
    if len(per_thread) != threads:
        raise RunnerFailure("protocol", f"{len(per_thread)} threads answered, not {threads}")
    return [check_samples(s, iterations, batches) for s in per_thread]


def _worker(base: Runtime, p: Prepared, cpu: int | str) -> Runtime:
    """A fresh process of ``base``'s runtime pinned to ``cpu``, as a round's group process is
    started: a brief hello (the runtime is described) naming the one library it serves
    (``only``, docs/protocol.md), so a lazily loading runner loads that library alone."""
    w = Runtime(base.spec, features_off=base.features_off, cpu=cpu, only=serves(p.case))
    w.info, w.implementations = base.info, base.implementations
    return w


def threads_round(base: Runtime, cpus: list[int], p: Prepared, plan: Plan):
    """One fresh process allowed ``cpus``, its N threads warmed up, then timed together
    (the runner's own barrier). Returns (samples per thread, None)."""
    w = _worker(base, p, ",".join(map(str, cpus)))
    n = len(cpus)
    try:
        _bench(w, p, plan.iterations, plan.warmup_batches, plan.timeout, n)
        return _bench(w, p, plan.iterations, plan.batches, plan.timeout, n), None
    finally:
        w.stop()


def together(workers: list[Runtime], job) -> list[tuple[object, int, int]]:
    """Run ``job(worker)`` in one thread per worker, released at once by a barrier; returns
    (result or exception, start ns, end ns) per worker."""
    barrier = threading.Barrier(len(workers))
    out: list = [None] * len(workers)

    def run(i: int) -> None:
        barrier.wait()
        t0 = time.monotonic_ns()
        try:
            got = job(workers[i])
        except (RunnerFailure, RemoteError, VerifyError) as exc:
            got = exc
        out[i] = (got, t0, time.monotonic_ns())

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def one_round(base: Runtime, cpus: list[int], p: Prepared, plan: Plan):
    """N fresh processes, warmed up together, timed together. Returns (samples per worker,
    overlap) or raises the first worker's error."""
    workers = [_worker(base, p, cpu) for cpu in cpus]
    try:
        for w in workers:
            w.ensure()
        for phase in ("warm-up", "timed"):
            n = plan.warmup_batches if phase == "warm-up" else plan.batches
            got = together(workers, lambda w, n=n: _bench(w, p, plan.iterations, n, plan.timeout))
            for res, _, _ in got:
                if isinstance(res, Exception):
                    raise res
        return [res for res, _, _ in got], overlap([(a, b) for _, a, b in got])
    finally:
        for w in workers:
            w.stop()


@dataclass
class Parallel:
    runtimes: dict[str, Runtime]  # by Runtime.key
    store: RunStore
    run: dict
    cpus: list[int]
    rounds: int
    round_budget_s: float
    jit_warmup_s: float
    on_step: object = None
    threads: bool = False  # --threads: N threads in one process instead of N processes

    def measure(self, prepared: list[Prepared], singles: dict[int, dict], seq: int) -> int:
        """A row per case measured in N processes; returns the next row number."""
        for p in prepared:
            if p.case.prim.family == "noop":
                continue
            single = singles.get(p.seq)
            row = self._case(p, single)
            self.store.put_case(self.run["id"], seq, row)
            if self.on_step:
                self.on_step(p, row)
            seq += 1
        return seq

    def _case(self, p: Prepared, single: dict | None) -> dict:
        n, kind = len(self.cpus), "threads" if self.threads else "processes"
        if not single or single.get("status") != "ok":
            return results.parallel_failed(p.case, n, "no single-worker figure to start from", kind)
        base = self.runtimes[p.case.runtime_key]
        plan = plan_for(single, self.round_budget_s, self.jit_warmup_s if base.isolate else 0.1)
        rounds, alone, overlaps, errors = [], [], [], []
        timed = threads_round if self.threads else one_round
        for r in range(1, self.rounds + 1):
            try:
                # one worker first, under the same plan (warm-up, batches, fresh process):
                # the efficiency's reference, so a noisier ordinary figure cannot pose as it
                one = timed(base, self.cpus[:1], p, plan)[0]  # one thread: its samples
                alone.append(one if self.threads else one[0])  # one process: worker 0's
                samples, ov = timed(base, self.cpus, p, plan)
                rounds.append(samples)
                if ov is not None:
                    overlaps.append(ov)
            except RemoteError as exc:
                if exc.kind == "unsupported":
                    return results.parallel_skipped(p.case, n, f"not offered: {exc.message}", kind)
                errors.append(f"round {r}: {exc.kind}: {exc.message}")
            except (RunnerFailure, VerifyError) as exc:
                errors.append(f"round {r}: {exc}")
                if isinstance(exc, VerifyError):
                    break
        if not rounds:
            return results.parallel_failed(p.case, n, "; ".join(errors) or "not measured", kind)
        single_ns = float(np.median([np.median(per_op(w)) for w in alone]))
        sc = scaling(rounds, single_ns)
        detail = _detail(self.cpus, plan, alone, rounds, overlaps)
        flags = _flags(n, overlaps, sc) + errors
        return results.parallel_measured(
            p.case, sc, detail, flags, p.verification, self.run["machine"].get("tsc_hz"), kind
        )


def _rounds_of(samples) -> list:
    return [[{**s, "round": i + 1} for s in w] for i, w in enumerate(samples)]


def _detail(cpus, plan: Plan, alone, rounds, overlaps) -> dict:
    return {
        "cpus": cpus,
        "single_samples": _rounds_of(alone),
        "iterations": plan.iterations,
        "batches": plan.batches,
        "warmup_batches": plan.warmup_batches,
        "overlap": [round(o, 4) for o in overlaps],
        "samples": [
            [[{**s, "round": i + 1} for s in w] for w in rnd] for i, rnd in enumerate(rounds)
        ],
    }


def _flags(n: int, overlaps, sc) -> list[str]:
    flags = [
        f"round {i + 1}: the {n} processes ran together for {o:.0%} of their windows"
        for i, o in enumerate(overlaps)
        if o < OVERLAP_FLAG
    ]
    if sc.efficiency and sc.efficiency > EFFICIENCY_FLAG:
        flags.append(
            f"efficiency {sc.efficiency:.0%}: above 100%, so the machine's speed moved "
            "between the one-worker and the N-worker timings (see the drift probe)"
        )
    return flags

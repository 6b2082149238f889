"""Instructions per operation (--metric instructions; docs/methodology.md, "Instructions per
operation"): each verified, timed case is run again in a runner process under Valgrind's
callgrind. Per case, three identical `bench` requests of one batch: N iterations (warm: the
library's lazy set-up), N, then 2N, the counts dumped after each; the difference of the
thread that ran the timed loop between the last two, divided by N, is the count. What both
requests did alike (parsing, set-up, the untimed verified call, the answer) cancels out.

One instrumented process per runtime (and feature set) serves all its cases, so a runtime's
start-up (a billion instructions for Python) is paid once. Counts do not depend on timing,
so the runtimes' processes run side by side (one per CPU) after the timed rounds, when
nothing is being timed.
"""

from __future__ import annotations

import contextlib
import math
import queue
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..results import machine
from ..runtimes import cpu_features, valgrind
from ..runtimes.msggen import GENERATOR, wire_inputs
from ..runtimes.protocol import RemoteError, RunnerFailure, RunnerProcess, parse_hello
from ..runtimes.session import Runtime
from .case import Prepared

TOOL = "callgrind"
NATIVE_NS = 2e6  # the N-iteration request holds about 2 ms of native work (docs/methodology.md)
MAX_ITERATIONS = 1 << 20
SLOWDOWN = 200  # a generous bound on callgrind's slowdown, for timeouts only
EXIT_GRACE_S = 120.0


class CountError(Exception):
    pass


def refused(rt: Runtime) -> str | None:
    """Why this runtime's cases are not counted, or None."""
    if rt.spec.instructions_refused:
        return f"not offered: {rt.spec.instructions_refused}"
    why = valgrind.missing(callgrind_control=True)
    return f"not counted: {why}" if why else None


def iterations_for(ns_per_op: float | None) -> int:
    """N: about NATIVE_NS of the case's timed work, at least 2 iterations."""
    if not ns_per_op or not math.isfinite(ns_per_op) or ns_per_op <= 0:
        return 1000
    return max(2, min(MAX_ITERATIONS, math.ceil(NATIVE_NS / ns_per_op)))


def _short(exc: Exception) -> str:
    """An error's first line, without the stderr tail (valgrind's log) a failure carries."""
    return str(exc).split(" (stderr:")[0].splitlines()[0][:200]


class Instrumented:
    """One runner process of ``rt`` under callgrind, its counts dumped between requests."""

    def __init__(self, rt: Runtime, out_dir: Path):
        env = {**rt.spec.env, **rt.spec.instructions_env}
        argv, env = cpu_features.apply(rt.spec.command, env, rt.spec.cpu_features, rt.features_off)
        argv = valgrind.wrap(argv, TOOL, valgrind.callgrind_options(out_dir))
        self.rt, self.out, self.dumps = rt, out_dir, 0
        self.proc = RunnerProcess(argv, str(rt.spec.folder), env, f"{rt.id} under {TOOL}")
        self.hello: dict = {}

    def start(self) -> None:
        self.hello = self.proc.start(self.rt.spec.startup_timeout * SLOWDOWN / 10)
        self.dump()  # start-up and hello: part 1, never used

    def dump(self) -> dict[int, int]:
        self.dumps += 1
        valgrind.dump(self.proc.proc.pid)
        return valgrind.read_thread_totals(self.out, self.dumps)

    def bench(self, p: Prepared, iterations: int, timeout: float) -> None:
        c = p.case
        res = self.proc.request(
            "bench",
            timeout=timeout,
            impl=c.impl.library,
            primitive=c.prim.id,
            operation=c.operation,
            inputs=wire_inputs(p.inputs, GENERATOR in (self.hello.get("generators") or ())),
            params=c.params,
            iterations=iterations,
            batches=1,
        )
        if p.expected is not None and res.get("output") != p.expected:
            raise CountError(f"under {TOOL}: the output differs from the verified output")

    def path(self, library: str) -> dict:
        """The code path the instrumented process reported: the implementation's
        ``code_path`` and the CPU features its runtime detected (Valgrind's CPUID)."""
        _, impls = parse_hello(self.rt.id, self.hello)
        impl = next((i for i in impls if i.library == library), None)
        feats = (self.hello.get("cpu") or {}).get("features") or {}
        return {
            "code_path": impl.code_path if impl else None,
            "cpu_features": sorted(k for k, v in feats.items() if v is True),
        }

    def count(self, p: Prepared, ns_per_op: float | None, timeout: float) -> dict:
        """The row's instruction fields for one case (raises CountError)."""
        n = iterations_for(ns_per_op)
        limit = timeout + SLOWDOWN * 2 * n * (ns_per_op or 1e6) / 1e9
        try:
            self.bench(p, n, limit)  # warm: a library's first-call set-up counted in neither
            self.dump()
            self.bench(p, n, limit)
            counts_n = self.dump()
            self.bench(p, 2 * n, limit)
            counts_2n = self.dump()
            per_op, thread = valgrind.per_op(counts_n, counts_2n, n)
        except (RunnerFailure, RemoteError, ValueError, OSError) as exc:
            raise CountError(f"under {TOOL}: {_short(exc)}") from None
        return fields(per_op, p.case.size, n, thread, self.path(p.case.impl.library))

    def close(self) -> None:
        self.proc.close(grace=EXIT_GRACE_S)


def fields(per_op: float, size: int, n: int, thread: int, path: dict) -> dict:
    """A row's instruction fields (docs/results.md)."""
    return {
        "instructions_per_op": round(per_op, 1),
        "instructions_per_byte": round(per_op / size, 3) if size else None,
        "instructions": {
            "status": "ok",
            "tool": f"{valgrind.version() or 'valgrind'} --tool={TOOL}",
            "iterations": [n, 2 * n],
            "thread": thread,
            **path,
        },
    }


def not_counted(status: str, detail: str) -> dict:
    return {"instructions_per_op": None, "instructions": {"status": status, "detail": detail}}


def count_group(rt: Runtime, cases: list[tuple[Prepared, float | None]], timeout: float, on_row):
    """Every case of one runtime in instrumented processes of its own (a new one after a
    process died); ``on_row(p, fields)`` as each is known."""
    todo = list(cases)
    while todo:
        with tempfile.TemporaryDirectory(prefix="cryptobench-callgrind-") as out:
            proc = Instrumented(rt, Path(out))
            try:
                proc.start()
            except (RunnerFailure, RemoteError, ValueError, OSError) as exc:
                for p, _ in todo:
                    on_row(p, not_counted("failed", f"under {TOOL}: {_short(exc)}"))
                proc.proc.kill()
                return
            try:
                while todo and proc.proc.alive:
                    p, ns = todo.pop(0)
                    try:
                        on_row(p, proc.count(p, ns, timeout))
                    except CountError as exc:
                        on_row(p, not_counted("failed", str(exc)))
            finally:
                proc.close()


def count(rt: Runtime, p: Prepared, ns_per_op: float | None, timeout: float) -> dict:
    """One case counted in a process of its own (raises CountError)."""
    got: list[dict] = []
    count_group(rt, [(p, ns_per_op)], timeout, lambda _, f: got.append(f))
    if got[0]["instructions_per_op"] is None:
        raise CountError(got[0]["instructions"]["detail"])
    return got[0]


def count_all(rows: list[tuple[Runtime, Prepared, dict]], timeout: float, on_row) -> None:
    """Count every measured row: one instrumented process per runtime, side by side (one
    per CPU); ``on_row(p, fields)`` gets each row's fields as its count is known."""
    groups: dict[str, tuple[Runtime, list]] = {}
    for rt, p, row in rows:
        why = refused(rt)
        if why:
            on_row(p, not_counted("not offered" if "offered" in why else "skipped", why))
        elif row.get("status") != "ok":
            on_row(p, not_counted("skipped", f"not counted: the case is {row['status']}"))
        else:
            groups.setdefault(rt.key, (rt, []))[1].append((p, row.get("median_ns")))
    workers = max(1, min(len(groups), len(machine.usable_cpus())))
    done: queue.Queue = queue.Queue()  # on_row runs here, in the caller's thread (its store)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        jobs = [
            pool.submit(count_group, rt, cases, timeout, lambda p, f: done.put((p, f)))
            for rt, cases in groups.values()
        ]
        while not (all(j.done() for j in jobs) and done.empty()):
            with contextlib.suppress(queue.Empty):
                on_row(*done.get(timeout=0.2))
        for job in jobs:
            job.result()

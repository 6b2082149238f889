"""Live runtimes: a started runner, what its hello declared, and restarts after failures."""

from __future__ import annotations

import functools
import os
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from ..errors import UsageError
from . import cpu_features
from .discovery import RuntimeSpec, discover, runtime_matches
from .msggen import GENERATOR, wire_inputs
from .protocol import Implementation, RemoteError, RunnerFailure, RunnerProcess, parse_hello

MAX_RESTARTS = 3
MAX_STARTING = 16  # runners started at once by start_all


@dataclass
class Runtime:
    """A discovered runtime; started lazily, restarted after a failure."""

    spec: RuntimeSpec
    info: dict = field(default_factory=dict)
    implementations: list[Implementation] = field(default_factory=list)
    failed: str | None = None  # set when it cannot be (re)started
    restarts: int = 0  # after failures; a fresh process for a round or group is not one
    process: RunnerProcess | None = None
    cpu: int | str | None = None  # --pin: the CPU its processes run on ("0,1": CPUs)
    features_off: tuple[str, ...] = ()  # --cpu-features: switched off in its processes
    generators: tuple = ()  # message generators its hello declares (docs/protocol.md)
    start_s: float | None = None  # how long its first process took to answer hello
    # the libraries its next fresh process serves (hello's `only`, docs/protocol.md); None: all
    only: tuple[str, ...] | None = None
    # one request at a time: verification asks several runtimes at once, from threads
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.spec.runtime_id

    def start(self) -> None:
        """Start the runner and read its hello; failures are recorded, not raised."""
        argv, env = cpu_features.apply(
            self.spec.command, self.spec.env, self.spec.cpu_features, self.features_off
        )
        cpu = self.cpu if self.cpu is not None else self._one_cpu()
        if cpu is not None and shutil.which("taskset"):
            argv = ["taskset", "-c", str(cpu), *argv]  # every thread, from the first
        proc = RunnerProcess(argv, str(self.spec.folder), env, self.id)
        known = bool(self.implementations)  # a fresh process of a runtime already described
        t0 = time.monotonic()
        try:
            hello = proc.start(self.spec.startup_timeout, **self._hello_fields(known))
            if self.start_s is None:  # the first (full) hello: 5-10x a group's (pipeline)
                self.start_s = time.monotonic() - t0
            info, impls = parse_hello(self.id, hello)
            if not known:
                self.info, self.implementations = info, impls
                self.generators = tuple(hello.get("generators") or ())
            else:
                self._same_implementations([i.library for i in impls])
        except (RunnerFailure, RemoteError, ValueError, TypeError, AttributeError) as exc:
            proc.kill()
            self.failed = f"failed at hello: {exc}"
            return
        self.process = proc

    def _one_cpu(self) -> int | None:
        """The CPU a process serving only libraries of runner.toml's [run.one_cpu] runs on
        (the last usable one, as --pin's runners), every process of the runtime where it names
        ``"*"``: a call that hands its work to a thread pool and waits costs a wake-up across
        CPUs otherwise, and where the kernel placed the pool's threads held for the process's
        life; a runtime whose collector's helper threads ran on the other vCPU was slowed
        whenever that vCPU was (docs/methodology.md, "Calls that wait on a thread pool",
        "Helper threads on the other vCPU"). None: any other process, or fewer than 2 CPUs."""
        named = self.spec.one_cpu
        if "*" not in named and (not self.only or not set(self.only) <= set(named)):
            return None
        return _spare_cpu()

    def one_cpu_why(self, library: str) -> str | None:
        """Why ``library``'s group processes run on one CPU (None: they do not, or --pin
        already puts every runner on one)."""
        if self.cpu is not None or _spare_cpu() is None:
            return None
        return self.spec.one_cpu.get(library) or self.spec.one_cpu.get("*")

    def _hello_fields(self, known: bool) -> dict:
        """A fresh process of a runtime already described gets a brief hello, told which
        libraries it serves when a group's process serves fewer than all (``only``)."""
        if not known:
            return {}
        return {"brief": True} if self.only is None else {"brief": True, "only": list(self.only)}

    def _same_implementations(self, declared: list[str]) -> None:
        """A fresh process declares what the first did; told ``only``, it may declare just
        those (it loaded no other library), but at least those."""
        first = [i.library for i in self.implementations]
        if self.only is None:
            ok = declared == first
        else:
            ok = set(declared) <= set(first) and set(self.only) & set(first) <= set(declared)
        if not ok:
            raise ValueError("a fresh process declared other implementations")

    def ensure(self) -> RunnerProcess:
        """A live process, restarting once more after a failure (at most MAX_RESTARTS)."""
        if self.process and self.process.alive:
            return self.process
        if self.failed:
            raise RunnerFailure("crashed", self.failed)
        if self.process is not None:
            self.restarts += 1
            if self.restarts > MAX_RESTARTS:
                self.failed = f"gave up after {MAX_RESTARTS} restarts"
                raise RunnerFailure("crashed", self.failed)
        self.start()
        if self.failed:
            raise RunnerFailure("crashed", self.failed)
        return self.process

    def request(self, op: str, timeout: float, **fields) -> dict:
        if "inputs" in fields:
            try:
                fields["inputs"] = wire_inputs(fields["inputs"], GENERATOR in self.generators)
            except ValueError as exc:  # too large for hex, and no generator here
                raise RemoteError("invalid_params", f"{exc}: {self.id} has no generator") from None
        with self.lock:
            return self.ensure().request(op, timeout=timeout, **fields)

    @property
    def key(self) -> str:
        """Its id, with the features switched off: ``c`` and ``c[-sha]`` are two runtimes."""
        return cpu_features.runtime_key(self.id, self.features_off)

    def switched(self, off: tuple[str, ...]) -> Runtime:
        """The same runtime with ``off`` switched off (a new, unstarted process)."""
        return Runtime(self.spec, features_off=tuple(off))

    def cannot(self, library: str) -> list[str]:
        """Features of ``features_off`` this library cannot switch off."""
        return cpu_features.cannot(self.spec.cpu_features, library, self.features_off)

    def never_uses(self, library: str) -> bool:
        """True when every feature switched off is one this library's code never uses."""
        how = cpu_features.support(self.spec.cpu_features, library)
        return all(how.get(f) == "unused" for f in self.features_off)

    @property
    def isolate(self) -> bool:
        return self.spec.isolate

    @property
    def compiles(self) -> bool:
        """Its samples report JIT compilations: each round warms a fresh JVM up (fewer rounds)."""
        return self.spec.compiles

    @property
    def warm_up_s(self) -> float:
        """A group's warm-up in each fresh process, its sizes in turn (measure/warmup.py)."""
        return self.spec.warm_up_s

    def stop(self, only: tuple[str, ...] | None = None, wait: bool = True) -> None:
        """End the process (EOF); the next request starts a fresh one, not counted as a
        restart. ``only``: the libraries that one serves (a group's, docs/protocol.md
        `hello`); None: every library. ``wait`` False: the process ends while the next one
        starts, reaped before anything is timed (protocol.reap_exiting)."""
        with self.lock:
            if self.process:
                self.process.close(wait=wait)
                self.process = None
            self.only = None if only is None else tuple(only)


@functools.cache
def _spare_cpu() -> int | None:
    """The CPU [run.one_cpu]'s processes run on: the last this process may run on, where it
    may run on two or more and taskset can pin to it (read once, before --pin moves the
    orchestrator)."""
    cpus = sorted(os.sched_getaffinity(0))
    return cpus[-1] if len(cpus) > 1 and shutil.which("taskset") else None


def group_start_s(rt: Runtime, only: tuple[str, ...]) -> float | None:
    """Seconds a fresh process serving ``only`` takes to answer its brief hello: what every
    group of a run's rounds starts. Not the first hello, which loads every library while every
    runtime starts at once (measured 2026-11-26: Python 426 ms against 65 ms for a group's,
    Node.js 486 / 74, Java 987 / 113, C 85 / 14). None if it cannot start (a first round
    would fail alike); the runtime is left stopped, serving every library again."""
    rt.stop(only)
    t0 = time.monotonic()
    try:
        rt.ensure()
    except RunnerFailure:
        return None
    took = time.monotonic() - t0
    rt.stop()
    return took


def group_starts(live: list[Runtime]) -> dict[str, float]:
    """Each runtime's group start (group_start_s), serving its first implementation's
    library: the estimates' process start (`cryptobench presets`, `advise`, `run`)."""
    out = {}
    for rt in live:
        only = (rt.implementations[0].library,) if rt.implementations else ()
        took = group_start_s(rt, only)
        if took is not None:
            out[rt.id] = took
    return out


@dataclass
class Opened:
    """Runtimes discovered and started once, with their group starts (group_starts), for a
    caller that hands them to more than one run: `advise` planned its passes on them and
    each pass had discovered and started every runtime again (2026-12-03, a slow host:
    2.8–3.2 s a pass, and 1.7 s more timing the group starts again). A run stops them as it
    ends, as its own; the next one's first request starts a fresh process (Runtime.ensure)."""

    live: list[Runtime]
    skipped: list[tuple[str, str]]
    starts: dict[str, float]


def start_all(specs: list[RuntimeSpec]) -> tuple[list[Runtime], list[tuple[str, str]]]:
    """Start every runnable spec at once (each runner is its own process: a thread only waits
    for its hello); return live runtimes and (runtime, reason) skips, in the specs' order."""
    rts = [None if spec.skipped else Runtime(spec) for spec in specs]
    runnable = [rt for rt in rts if rt is not None]
    if runnable:
        with ThreadPoolExecutor(max_workers=min(len(runnable), MAX_STARTING)) as pool:
            list(pool.map(Runtime.start, runnable))
    live, skipped = [], []
    for spec, rt in zip(specs, rts, strict=True):
        why = spec.skipped or rt.failed
        if why:
            skipped.append((spec.runtime_id, why))
        else:
            live.append(rt)
    return live, skipped


def _wanted_variants(runtimes, impls) -> dict[str, set[str]]:
    wanted: dict[str, set] = {}
    for name in (*runtimes, *(i.split("/")[0] for i in impls)):
        if "@" in name:
            base, var = name.split("@", 1)
            wanted.setdefault(base, set()).add(var)
    return wanted


def runtime_specs(runtimes=(), impls=(), only_needed=False) -> list[RuntimeSpec]:
    """The runners discovered for a request naming ``runtimes`` and ``impls`` (an unknown
    runtime refused): every one unless ``only_needed``, the others being the references
    implementations are checked against."""
    specs = discover(_wanted_variants(runtimes, impls))
    ids = [s.runtime_id for s in specs]
    for r in runtimes:
        if not any(runtime_matches(i, r) for i in ids):
            raise UsageError(f"unknown runtime {r!r}; valid: {', '.join(sorted(ids))}")
    wanted = list(runtimes) + [i.split("/")[0] for i in impls]
    if only_needed and wanted:
        specs = [s for s in specs if any(runtime_matches(s.runtime_id, w) for w in wanted)]
    return specs


def open_runtimes(runtimes=(), impls=(), only_needed=False):
    """Discover runners (runtime_specs) and start them; (live, skipped)."""
    return start_all(runtime_specs(runtimes, impls, only_needed))

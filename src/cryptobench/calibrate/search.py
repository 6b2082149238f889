"""The search of `calibrate`, per implementation: probes of the cost parameter, each verified
like any case and timed as a short batch of calls (the median of ``PROBE_CALLS``, or the fastest
where they disagree), so that a probe predicts the median the rounds will measure; the next
probe comes from the primitive's scaling law (catalog/policy.toml). A probe within ±10% of the
target ends the search (the rounds decide); so does the search's share of the time budget,
before a probe that would not fit in it. When the nearest probe is more than ±15% off the
target, the value the law predicts from it, or else the adjacent step on the other side of the
target, is probed too and the nearer kept
(docs/methodology.md, "calibrate").

The searcher is given how to verify a case at a value (``prepare``) and how to time it
(``bench``), so the arithmetic runs on fakes in the tests.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..catalog import policy as policy_mod
from ..catalog import primitives as catalog
from ..measure import sampling
from ..measure.case import Prepared
from ..runtimes.protocol import Implementation, RemoteError, RunnerFailure
from ..verify.verifier import VerifyError

OPERATIONS = {"password-hash": ("verify", "derive", "hash"), "kdf": ("derive",)}
# what a probe's verification asks of the other implementations (verify/agreement.py): a hash
# to verify, second opinions on a derived key, verification of an encoded hash
OF_OTHERS = {"verify": "hash", "derive": "derive", "hash": "verify"}
# … and what it asks of every other implementation offering it: second opinions on a derived
# key; every verify of a hash (a hash probe's own, or the maker's a verify probe verifies)
OF_EVERY = {"verify": "verify", "derive": "derive", "hash": "verify"}
REFUSED = ("invalid_params", "unsupported")
TOLERANCE = 0.15  # a re-measured time this close to the target is on target
# a probe this close ends the search: the rounds re-measure it anyway, and one more probe at
# the target costs VERIFY_CALLS + 1 + PROBE_CALLS calls (1.5 s of a 60 s budget at 250 ms)
CLOSE_ENOUGH = 0.10
MAX_PROBES = 7
REFINE_PROBES = 2  # at most this many more when the nearest probe is off by > TOLERANCE
PROBE_CALLS = 3  # a probe is the median of this many timed calls (one bench request)
# the policy's start only steers the search, but a median of two is their mean: three timed calls,
# so that one slow call does not steer it (2026-11-29: java/bc Argon2id at t=1, m=64 MiB, 8 calls
# in a fresh JVM, twice: 59.8 / 60.4 / 449.5 / 38.7 … ms and 55.9 / 57.7 / 441.4 / 40.0 … ms: its
# third call grew the heap, touching every new page (AlwaysPreTouch); with two, the probe read
# 475.7 ms, the search stopped at t=1, and its rounds measured 57.7 ms, −77% of the target)
FIRST_PROBE_CALLS = 3
# calls further apart than this (slowest / fastest) are not one speed: something only added to
# some of them (a JIT compiling, a heap growing, a collection), and the probe steers by the
# fastest. 2026-11-29 05:47, `calibrate argon2id --target 250ms`: java/bc's first probe at t=1
# took 221.6 / 64.9 / 938.7 ms (compiling, steady, the heap growing), its median stopped the
# search at t=1 (-11% by the probe; its calls take ~60 ms, -76%); the other 15 implementations'
# probes at their chosen values lay 0.2-7.5% apart (slowest / fastest - 1)
DISAGREE = 1.5
VERIFY_CALLS = 2  # a probe's verification: another implementation's hash, its own verify
# Argon2's time at fixed m is a fixed cost (allocating and first touching m) plus t passes; the
# fixed cost in passes, a prior for the first prediction, from one probe, before a second gives
# the line (read from the 2026-11-25 searches of 12 implementations at m=64 MiB: 0.1–1.4,
# median 0.5): without it the ratio law's second probe fell 20–40% short in 11 of 12.
FIXED_PASSES = 0.5
# … and the line through two probes is believed for a fixed cost of 0 to this many passes only:
# beyond, the two probes' noise made the line (2026-12-03 05:49, the Xeon VM busy, `calibrate
# argon2id --target 250ms`: python/pynacl t=5 215.8 ms, t=6 222.4 ms, a line of 6.6 ms a pass
# and a fixed cost of 28 passes, sent the next probe to t=10, 366 ms, +46%; python/cryptography
# t=1 143.8, t=2 163.2 ms, 6.4 passes, to t=6, 588 ms, +135%; 7 of 16 searches took a third or
# fourth probe and 11 of 16 implementations were left with 1 round of 3). Where the line's is
# past it, the law through the latest probe takes it at the bound.
FIXED_MAX_PASSES = 2.0
LAW_SLACK = 0.10  # a doubling step is probed unless the law puts it this much farther off


def probe_s(call_s: float, calls: int, verify: int = VERIFY_CALLS) -> float:
    """A probe's seconds: its verification (``verify`` calls; none where the cache of verified
    answers holds its case), the request's untimed call and its timed calls."""
    return (verify + 1 + calls) * call_s


@dataclass
class Search:
    impl: Implementation
    operation: str
    probes: list[dict] = field(default_factory=list)  # {value, ns, calls, verification}
    tried: dict[int, Prepared] = field(default_factory=dict)  # verified case per probed value
    prepared: Prepared | None = None  # of the chosen value
    refused: str | None = None  # the implementation cannot take the parameter
    failed: str | None = None
    stopped: str = ""  # why the search ended
    remeasured: list[dict] = field(default_factory=list)  # {value, ms, off}: both rounds runs
    predicted: dict[int, float] = field(default_factory=dict)  # ns of a value chosen unprobed
    samples: dict[int, list[dict]] = field(default_factory=dict)  # a probe's timed calls
    # where the search began instead of the policy's start: the value the law predicts from
    # this machine's earlier answer, {"value", "from": {"value", "ms", "run"}} (earlier.py)
    started_from: dict | None = None


class Refused(Exception):
    pass


def operation_for(impl: Implementation, prim: catalog.Primitive) -> str | None:
    return next((op for op in OPERATIONS[prim.family] if impl.offers(prim.id, op)), None)


def off(ns: float, target_ns: float) -> float:
    """How far ``ns`` is from the target: time / target − 1 (what the table prints)."""
    return ns / target_ns - 1


def bounds(spec: policy_mod.Search, prim, cap: int | None) -> tuple[int, int | None]:
    """The least and largest value searched (the catalog's range, the policy's least, the cap
    --memory puts on scrypt's N)."""
    p = prim.params[spec.param]
    lo = max(int(p.min or 1), spec.least or 1)
    hi = int(p.max) if p.max is not None else None
    if cap is not None:
        hi = cap if hi is None else min(hi, cap)
    return lo, hi


def step(spec: policy_mod.Search, value: int, direction: int) -> int:
    """The adjacent value: one cost step (log2), a factor 2 (pow2), or one more or less."""
    if spec.scale == "pow2":
        return value * 2 if direction > 0 else value // 2
    return value + direction


def scale(spec: policy_mod.Search, value: int, other: int) -> float:
    """time(other) / time(value) by the scaling law."""
    if spec.scale == "log2":
        return 2.0 ** (other - value)
    return other / value


def rising(value: int, ns: float, prev) -> float | None:
    """The ns per unit of the line through (``value``, ``ns``) and ``prev`` = (value, ns) of
    another probe, where it rises with the cost; None otherwise (no other probe, or one no
    faster as the cost grows: the probes' noise, no law)."""
    if prev is None or prev[0] == value:
        return None
    slope = (ns - prev[1]) / (value - prev[0])  # Argon2: a fixed cost plus t passes
    return slope if slope > 0 else None


def fixed_cost(spec, value: int, ns: float, prev=None) -> float:
    """A linear law's fixed cost, in units of the value (time ∝ value + fixed), at the probe
    (``value``, ``ns``): the line's through it and ``prev`` where that rises — Argon2's held
    within 0–FIXED_MAX_PASSES —, else the prior (FIXED_PASSES for Argon2, none for PBKDF2)."""
    prior = FIXED_PASSES if spec.memory_param else 0.0
    slope = rising(value, ns, prev)
    if not slope:
        return prior
    fixed = ns / slope - value
    return min(max(fixed, 0.0), FIXED_MAX_PASSES) if spec.memory_param else fixed


def predict(spec, prim, value: int, ns: float, target_ns: float, cap, prev=None) -> int:
    """The value the scaling law says takes ``target_ns``, from a probe (and, for a linear
    law, the line through it and ``prev`` = (value, ns) of another probe), within bounds."""
    ratio = target_ns / max(ns, 1.0)
    if spec.scale == "log2":
        nxt = value + round(math.log2(ratio))
    elif spec.scale == "pow2":
        nxt = value * 2 ** round(math.log2(ratio))
    else:
        fixed = fixed_cost(spec, value, ns, prev)
        nxt = (value + fixed) * ratio - fixed
        if nxt <= 0:  # a line that would cross zero first: the prior's law
            fixed = fixed_cost(spec, value, ns)
            nxt = (value + fixed) * ratio - fixed
        nxt = round(nxt, -3) if nxt >= 10_000 else round(nxt)
    lo, hi = bounds(spec, prim, cap)
    return int(min(max(nxt, lo), hi if hi is not None else nxt))


def toward(spec, prim, cap, value: int, ns: float, target_ns: float) -> int | None:
    """The adjacent step on the target's side of ``value``, or None past the bounds."""
    other = step(spec, value, -1 if ns > target_ns else 1)
    lo, hi = bounds(spec, prim, cap)
    return other if other >= lo and (hi is None or other <= hi) else None


@dataclass
class Searcher:
    spec: policy_mod.Search
    prim: catalog.Primitive
    target_ns: float
    cap: int | None
    prepare: Callable[[Search, int], Prepared]  # verified; raises Refused or VerifyError
    bench: Callable[[Prepared], sampling.Bench]
    timeout_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _deadline: float = math.inf  # the clock's reading when the search's share is spent

    def probe(self, s: Search, value: int) -> dict:
        """One probe: the median of PROBE_CALLS single calls (FIRST_PROBE_CALLS for the first
        probe of a search), after the request's untimed (verified) call, so the first call of
        a fresh value is not the one timed; the fastest where the calls disagree (DISAGREE)."""
        p = self.prepare(s, value)
        expected = self._guess(s, value)
        calls = PROBE_CALLS if s.probes else FIRST_PROBE_CALLS
        timeout = max(self.timeout_s, 10 * expected * (calls + 1) / 1e9 + 5)
        samples = self.bench(p)(1, calls, timeout)
        per_call = [x["ns"] / x["iterations"] for x in samples]
        s.tried[value], s.samples[value] = p, samples
        ns, by = float(statistics.median(per_call)), "median"
        if max(per_call) > DISAGREE * min(per_call):
            ns, by = float(min(per_call)), "fastest"
        return {
            "value": value,
            "ns": ns,
            "calls": len(per_call),
            "by": by,
            "spread": [min(per_call), max(per_call)],
            "verification": p.verification,
        }

    def _guess(self, s: Search, value: int) -> float:
        """The expected ns of a probe (for its timeout), from the last one."""
        if not s.probes:
            return self.target_ns
        last = s.probes[-1]
        return last["ns"] * max(scale(self.spec, last["value"], value), 1.0)

    def _take(self, s: Search, value: int) -> bool:
        """Probe ``value``; a refusal after earlier probes ends the search, keeping them."""
        try:
            s.probes.append(self.probe(s, value))
            return True
        except (Refused, RemoteError) as exc:
            if not s.probes or isinstance(exc, RemoteError) and exc.kind not in REFUSED:
                raise
            s.stopped += f"; {exc} (kept the nearest value it took)"
            return False

    def nearest(self, s: Search) -> dict:
        return min(s.probes, key=lambda p: abs(off(p["ns"], self.target_ns)))

    def fits(self, s: Search, value: int) -> bool:
        """Whether a probe of ``value`` fits in what is left of the search's share (the first
        two probes always run: a search needs an answer and a second point)."""
        cost = probe_s(max(self._guess(s, value), self.target_ns) / 1e9, PROBE_CALLS)
        return len(s.probes) < 2 or self.clock() + cost <= self._deadline

    def search(self, s: Search, share_s: float) -> None:
        """Probes from the policy's start, or from ``s.started_from`` (an earlier answer here;
        one the implementation now refuses sends the search back to the policy's start)."""
        self._deadline = self.clock() + share_s
        value = s.started_from["value"] if s.started_from else self.spec.start
        while len(s.probes) < MAX_PROBES:
            try:
                if not self._take(s, value):
                    break
            except (Refused, RemoteError) as exc:
                if not s.started_from or value == self.spec.start or s.probes:
                    raise
                if isinstance(exc, RemoteError) and exc.kind not in REFUSED:
                    raise
                s.stopped += f"; {self.spec.param}={value}, where it began, was refused: {exc}"
                s.started_from, value = None, self.spec.start
                continue
            p = s.probes[-1]
            prev = (s.probes[-2]["value"], s.probes[-2]["ns"]) if len(s.probes) > 1 else None
            nxt = predict(self.spec, self.prim, value, p["ns"], self.target_ns, self.cap, prev)
            if abs(off(p["ns"], self.target_ns)) <= CLOSE_ENOUGH and p["calls"] > 1:
                s.stopped += f"; within {CLOSE_ENOUGH:.0%} of the target"
                break
            if nxt in s.tried:
                s.stopped += "; the scaling law points at a value already probed"
                break
            if not self.fits(s, nxt):
                s.stopped += "; its share of the time budget was spent"
                break
            value = nxt
        else:
            s.stopped += f"; {MAX_PROBES} probes"
        s.stopped = s.stopped.lstrip("; ")
        self.refine(s)
        s.prepared = s.tried[self.nearest(s)["value"]]
        self.unprobed(s)

    def farther(self, best: dict, value: int) -> bool:
        """Whether a step the time doubles by (bcrypt's cost, scrypt's N: a law as exact as the
        algorithm's definition) puts ``value`` farther from the target than ``best``, by more
        than LAW_SLACK: probing it would only confirm the law (the verdict names it). A linear
        law (Argon2's fixed cost) is never trusted that far."""
        if self.spec.scale == "linear":
            return False
        law = off(best["ns"] * scale(self.spec, best["value"], value), self.target_ns)
        return abs(law) > abs(off(best["ns"], self.target_ns)) + LAW_SLACK

    def refine(self, s: Search) -> None:
        """While the nearest probe is off by more than TOLERANCE and the share allows: probe
        what the law predicts from it, or else the adjacent step on the target's side; keep
        the nearer."""
        for _ in range(REFINE_PROBES):
            best = self.nearest(s)
            if abs(off(best["ns"], self.target_ns)) <= TOLERANCE:
                return
            nxt = predict(self.spec, self.prim, best["value"], best["ns"], self.target_ns, self.cap)
            if nxt in s.tried:
                nxt = toward(
                    self.spec, self.prim, self.cap, best["value"], best["ns"], self.target_ns
                )
            if nxt is None or nxt in s.tried:
                return
            if self.farther(best, nxt):
                law = off(best["ns"] * scale(self.spec, best["value"], nxt), self.target_ns)
                s.stopped += f"; {self.spec.param}={nxt} would be {law:+.0%} by the law: not probed"
                return
            if not self.fits(s, nxt):
                s.stopped += "; its share of the time budget was spent"
                return
            was = f"{self.spec.param}={best['value']} was {off(best['ns'], self.target_ns):+.0%}"
            if not self._take(s, nxt):
                return
            s.stopped += f"; {was}: probed {self.spec.param}={nxt} too"

    def unprobed(self, s: Search) -> None:
        """The nearest probe still off by more than TOLERANCE (the share spent before the
        line through two probes could be probed): the value that line points at, where it
        expects it within TOLERANCE, is verified (untimed) and chosen unprobed; the rounds
        measure it as any answer. Measured (2026-11-29, `calibrate argon2id --target 250ms`):
        go/x-crypto's t=1 took 32.7 ms, the fixed cost's prior sent the second probe to t=11
        (402 ms, +61%), the line through both said t=7 (+2%), and with the share spent t=11
        was the answer: 1.6x the target."""
        best = self.nearest(s)
        if abs(off(best["ns"], self.target_ns)) <= TOLERANCE or len(s.probes) < 2:
            return
        near = min(
            (p for p in s.probes if p["value"] != best["value"]),
            key=lambda p: abs(off(p["ns"], self.target_ns)),
        )
        prev = (near["value"], near["ns"])
        nxt = predict(
            self.spec, self.prim, best["value"], best["ns"], self.target_ns, self.cap, prev
        )
        if nxt in s.tried:
            return
        if self.spec.scale == "linear":
            if not rising(best["value"], best["ns"], prev):
                return
            fixed = fixed_cost(self.spec, best["value"], best["ns"], prev)
            ns = best["ns"] * (nxt + fixed) / (best["value"] + fixed)
        else:
            ns = best["ns"] * scale(self.spec, best["value"], nxt)
        if abs(off(ns, self.target_ns)) > TOLERANCE:
            return
        try:
            p = self.prepare(s, nxt)
        except (Refused, RemoteError, VerifyError):
            return  # the nearest probe stays the answer
        s.tried[nxt], s.prepared, s.predicted[nxt] = p, p, ns
        par = self.spec.param
        s.stopped += (
            f"; {par}={nxt} chosen unprobed ({off(ns, self.target_ns):+.0%} by the line through "
            f"{par}={near['value']} and {par}={best['value']}): the rounds measure it"
        )

    def run(self, s: Search, share_s: float) -> None:
        """The search, with refusals and failures recorded on ``s`` instead of raised."""
        try:
            self.search(s, share_s)
        except Refused as exc:
            s.refused = str(exc)
        except RemoteError as exc:
            if exc.kind in REFUSED:
                s.refused = f"{exc.kind}: {exc.message}"
            else:
                s.failed = f"{exc.kind}: {exc.message}"
        except (RunnerFailure, VerifyError) as exc:
            s.failed = str(exc)
        if s.prepared is None and not s.refused and not s.failed:
            s.failed = "no probe succeeded"

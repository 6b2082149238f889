"""The rounds (docs/methodology.md, "Rounds"): every verified case is measured in R
independent rounds. Each round times the drift probe and walks the groups (implementation ×
primitive × operation) in an order shuffled from the run's seed, sizes shuffled inside; every
group runs in a fresh runner process, as JMH forks a JVM per benchmark: a library's call
earlier in a process can slow another's later (measured: one AVX-512 call of xxh3 or ISA-L
makes OpenSSL's SHA-256 of 16 B 1.9x slower for the rest of the process's life). A case's row
is stored again after each of its rounds, so a run stopped at any point keeps every finished
round.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .. import stats
from ..plan.cases import Case
from ..results import document as results
from ..runtimes.protocol import RemoteError, RunnerFailure
from ..runtimes.session import Runtime
from ..stats.batches import collection_share
from ..store.sqlite import RunStore
from ..verify.verifier import Verifier, VerifyError
from . import alloc, probe, sampling, warmup
from .case import Prepared, measure_round, round_error, serves, warm_bench

START_S = 0.5  # a fresh runner process, roughly (JVM and Node included)
SLOW_FLOOR_S = 0.5  # a slow case's (password hashes, KDFs: 3 calls of ~100 ms and more)
CALIBRATE_S = 0.02  # finding a batch's iterations: a case's first round only (later ones reuse it)
PROBE_S = 0.1  # the drift probe, once a round
BATCH_S = sampling.TARGET_BATCH_NS / 1e9  # a fast case's batch of calls
# What a fast case's batch costs besides its calls (the request, the runner's loop, its untimed
# call), per runtime: read from the stored rounds of the 2026-11-26 `default` run (elapsed_s of
# its case-rounds less their batches and their groups' process starts, each as
# session.group_starts times it, over their batches: C, C++, Go, Rust, Pascal, PHP and Java
# 0.4–0.6 ms, Python 2.0 ms, Node.js 1.5 ms). The figures of 2026-11-25 (Python 6.5 ms,
# Node.js 12 ms) held the process starts, which the estimate also counted apart.
BATCH_EXTRA_S = {"python": 0.002, "node": 0.0015}
BATCH_EXTRA_DEFAULT_S = 0.0007
LEAD_BATCHES = 0.25  # batches a round runs beyond its share, on average (that run: 6.5 for 6.25)
# What a fast case's round on a JIT spends proving its own steady state after its group's
# 0.3 s warm-up (batches overlapping a compilation are warm-up, sampling._steady): 0.09–0.10 s
# on average in the `--runtime java` runs of 2026-11-28 15:55 and 15:59 (docs/methodology.md,
# "JIT runtimes").
JIT_PROOF_S = 0.1
ROUNDS = 8  # rounds per case at most (docs/methodology.md, "How many rounds")
JIT_ROUNDS = 5  # … on a JIT runtime, unless --rounds says otherwise
LEAST_ROUNDS = 4  # a case is decided once its interval meets its target, after this many …
JIT_LEAST_ROUNDS = 3  # … or these on a JIT runtime (--rounds N: every one of N rounds)
# … and a runner's noop from its first round once within NOOP_RESOLUTION_NS (noop_resolved):
# nothing is ranked on it, and its later rounds were a process start and, on a JIT, a warm-up
# each (docs/methodology.md, "How many rounds")
NOOP_LEAST = 1
# A case whose runner did not answer within --timeout is not asked again: every later round
# would wait the whole timeout once more (a hung runner cost 8 × --timeout of each case).
NOT_AGAIN = "not asked again in later rounds"
# In the estimate, the share of the rounds past the least that a case still takes, by runtime:
# measured with the 5% target in the `default`, `quick` and `run --primitive sha256 --size
# 1KiB` runs of 2026-11-28 19:07–19:21 (docs/methodology.md, "How many rounds": 0.05–0.08
# where neither a JIT nor V8 decides, Java 0.17–0.59, Node.js 0.45–0.60); a group's process
# starts while any of its sizes still goes on (group_go_on)
GO_ON = {"java": 0.45, "node": 0.55}
GO_ON_DEFAULT = 0.06


def group_key(case: Case) -> tuple:
    params = json.dumps(case.params, sort_keys=True)
    return (case.impl.id, case.prim.id, case.operation, params, case.cpu_off)


def order(prepared: list[Prepared], seed: int, round_no: int) -> list[list[Prepared]]:
    """Round ``round_no``'s groups, shuffled from the seed, sizes shuffled inside each."""
    groups: dict[tuple, list[Prepared]] = {}
    for p in prepared:
        groups.setdefault(group_key(p.case), []).append(p)
    rng = random.Random(f"{seed}:{round_no}")
    out = [list(g) for g in groups.values()]
    rng.shuffle(out)
    for g in out:
        rng.shuffle(g)
    return out


def round_entry(r: int, m: sampling.Measurement, warmed: str = "") -> dict:
    """What one round of a case keeps (its batches go to the case's samples, tagged);
    ``warmed``: what its group's warm-up says, before the round's own warm-up reason."""
    return {
        "round": r,
        "median_ns": m.ci.median,
        "ci_low_ns": m.ci.low,
        "ci_high_ns": m.ci.high,
        "n_samples": len(m.samples),
        "iterations": m.iterations,
        "warmup_ns": m.warmup_ns,
        "warmup_batches": len(m.warmup),
        "warmup_reason": warmed + m.warmup_reason,
        "stop_reason": m.stop_reason,
        "target": m.target,
        "elapsed_s": round(m.elapsed_s, 3),
        "flags": m.flags,
        "samples": [{**s, "round": r} for s in m.samples],
        "warmup_samples": [{**s, "round": r} for s in m.warmup],
    }


# a password hash's call where nothing better is known: a prior, not a figure (the mean call of
# the `default` preset's password hashes at their pinned parameters, 2026-11-25: 35 ms)
SLOW_CALL_S = 0.04
SLOW_MIN_SAMPLES = sampling.Policy().slow_min_samples
CALIBRATION_REQUESTS = 2  # sampling.calibrate: a slow call, then the same call confirmed


def slow_round_s(call_s: float, rounds: int, known: bool, floor: int = SLOW_MIN_SAMPLES) -> float:
    """Seconds one round of a slow case takes by the sampler's arithmetic: every bench
    request runs one untimed (verified) call besides its batches (docs/protocol.md); a round
    keeps its floor of one-call batches (sampling.for_rounds), asked one per request after
    calibration's requests, or all in its first request, after four calls of warm-up, where the
    call's duration is known (sampling.first_estimate: ``known``); more only while the round is
    less precise than its target, so a steady call's round is its floor, not its share of the
    budget (measured: the full rounds of an `advise --use password` on 2026-11-25 stopped at
    their floor in 8 of 9 rounds, 0.05 s against a 0.33 s share). ``floor``: the policy's
    slow_min_samples for the whole case."""
    per_round = max(3, math.ceil(floor / rounds))
    warm = sampling.SLOW_WARM_CALLS
    calls = per_round + warm + 1 if known else 2 * CALIBRATION_REQUESTS + 2 * per_round
    return calls * call_s


def fast_round_s(runtime_id: str, share_s: float, rounds: int) -> float:
    """Seconds one round of a fast case takes, its first round's calibration aside: a round
    asks only for the batches it still needs (sampling._ask), ~3 ms each (TARGET_BATCH_NS):
    its share of the budget in batches, at least its floor (sampling.for_rounds), each with
    what the runtime spends besides its calls (BATCH_EXTRA_S)."""
    floor = sampling.for_rounds(sampling.Policy(), rounds).min_samples
    batches = max(floor, share_s / BATCH_S) + LEAD_BATCHES
    return batches * (BATCH_S + BATCH_EXTRA_S.get(runtime_id, BATCH_EXTRA_DEFAULT_S))


def warm_up_s(runtime_id: str, seconds: float) -> float:
    """Seconds a group's warm-up of ``seconds`` of calls takes (measure/warmup.py): ~3 ms
    batches, each with what the runtime spends besides its calls (BATCH_EXTRA_S)."""
    extra = BATCH_EXTRA_S.get(runtime_id.split("@")[0], BATCH_EXTRA_DEFAULT_S)
    return seconds * (1 + extra / BATCH_S)


def case_round_s(
    case: Case,
    share_s: float,
    rounds: int,
    call_s: float | None = None,
    slow_floor: int = SLOW_MIN_SAMPLES,
) -> float:
    """Seconds one round of one case takes: a slow family's from its call's duration
    (``call_s`` where known: a probe, a stored result; else SLOW_CALL_S), its calibration
    included where the duration is not known; any other case's by fast_round_s (its
    calibration, in its first round only, is case_rounds_s's)."""
    if case.prim.is_slow:
        known = sampling.known_slow(True, call_s * 1e9 if call_s else None)
        return slow_round_s(call_s or SLOW_CALL_S, rounds, known, slow_floor)
    return fast_round_s(case.impl.runtime_id.split("@")[0], share_s, rounds)


def case_rounds_s(
    case: Case,
    share_s: float,
    rounds: int,
    call_s: float | None,
    slow_floor: int,
    count: float | None = None,
) -> float:
    """Seconds the rounds of one case take, ``count`` of its ``rounds`` (all by default; a
    case decided early measures fewer, expected_rounds): later rounds reuse the first
    round's ns/op (sampling.measure's ``known_ns``): a fast case's skip calibration, a
    password hash's ask their floor in one request."""
    count = rounds if count is None else count
    if not case.prim.is_slow:
        return count * case_round_s(case, share_s, rounds, call_s, slow_floor) + CALIBRATE_S
    first = case_round_s(case, share_s, rounds, call_s, slow_floor)
    call = call_s or SLOW_CALL_S
    later = slow_round_s(call, rounds, sampling.known_slow(True, call * 1e9), slow_floor)
    return first + (count - 1) * later


GO_ON_MIN_CASES = 3  # a runtime's share is read from at least this many of its cases


def go_on_seen(results: list[dict], least: int | None, compiling: set[str]) -> dict[str, float]:
    """The share of the rounds past the least that each runtime's cases took in a finished
    run (``results``, its stored rows; ``least`` its settings' least_rounds), where at least
    GO_ON_MIN_CASES of its cases could have gone on, and under "*" the share of every case of
    a runtime that does not compile (for such a runtime with fewer): what this machine's noise
    made them take, which GO_ON's constants (a quiet machine's) do not know. Measured: `run
    --primitive sha256 --size 1KiB` on a noisy 2-core Xeon VM (2026-12-01 20:20–20:25) took
    all 8 rounds in 25 and 29 of 32 cases off the JVM where GO_ON says 0.06 past the least,
    and printed "about 0.6 min" for 57 and 67 s of run."""
    shares: dict[str, list[float]] = {}
    for r in results:
        planned, taken = r.get("rounds_planned"), len(r.get("rounds") or [])
        lst = least_rounds(least, r["runtime"] in compiling, r.get("family") == "noop")
        if r.get("status") != "ok" or not planned or lst is None or planned <= lst or not taken:
            continue
        share = min(1.0, max(0.0, (taken - lst) / (planned - lst)))
        shares.setdefault(r["runtime"], []).append(share)
        if r["runtime"] not in compiling:
            shares.setdefault("*", []).append(share)
    return {rid: sum(v) / len(v) for rid, v in shares.items() if len(v) >= GO_ON_MIN_CASES}


# A finished run's pace is believed within these bounds (a run cut short by a crash or a
# laptop's sleep says nothing of the next one's)
PACE_RANGE = (0.5, 4.0)


def pace_seen(*measurings: dict | None) -> float:
    """How much longer than the plan's arithmetic finished runs' rounds took here, all of
    ``measurings`` (each a run.measuring) together: their ``took_s`` over their ``as_taken_s``
    (the estimate redone after its rounds with the rounds its cases did take, go_on_seen of
    itself), so what is left is the machine's per-round cost (process starts, store writes, a
    batch's overhead) that BATCH_EXTRA_S and START_S, read on a faster VM, do not know; within
    PACE_RANGE, 1.0 where none is stored. Measured: `make bench` on a noisy 2-core Xeon VM
    (2026-12-01 22:57) printed "about 4.3 min" for 9.3 min of measuring, and `run --primitive
    sha256 --size 1KiB` after it, its rounds as that run took them, "about 0.6 min" for 0.8
    min."""
    took = sum((m or {}).get("took_s") or 0 for m in measurings)
    planned = sum((m or {}).get("as_taken_s") or 0 for m in measurings)
    if not took or planned <= 0:
        return 1.0
    low, high = PACE_RANGE
    return min(high, max(low, took / planned))


def _case_go_on(rid: str, compiles: bool, seen: dict[str, float]) -> float:
    """A runtime's share past the least: as seen here (go_on_seen), its own or, not compiling,
    every such runtime's; else GO_ON's."""
    prior = GO_ON.get(rid.split("@")[0], GO_ON_DEFAULT)
    return seen.get(rid, prior if compiles else seen.get("*", prior))


def group_go_on(case_go_on: float, sizes: int) -> float:
    """The share of the rounds past the least that a group of ``sizes`` cases still starts a
    process for: while any of them goes on, each as often as ``case_go_on`` (measured: groups
    of 4 sizes 0.38–0.61 for cases' 0.13–0.32, of 2 sizes 0.15–0.54 for 0.08–0.30)."""
    return 1 - (1 - case_go_on) ** sizes


def planned_rounds(rounds: int, jit_rounds: int, compiles: bool) -> int:
    """How many rounds a runtime's cases get at most: ``jit_rounds`` at most on a runtime that
    reports its compilations (each of its rounds warms a fresh JVM up)."""
    return min(rounds, jit_rounds) if compiles else rounds


def least_rounds(least: int | None, compiles: bool, noop: bool = False) -> int | None:
    """The rounds after which a case may be decided: ``least``, at most JIT_LEAST_ROUNDS on a
    runtime that reports its compilations, NOOP_LEAST for a runner's noop (None: never, as
    --rounds N asks)."""
    if least is None:
        return None
    if noop:
        return min(least, NOOP_LEAST)
    return min(least, JIT_LEAST_ROUNDS) if compiles else least


def expected_rounds(rounds: int, least: int | None, go_on: float) -> float:
    """The rounds a group or a case is expected to take where a case may be decided after
    ``least``: the least, and the share ``go_on`` of the rest (GO_ON)."""
    if least is None or least >= rounds:
        return float(rounds)
    return least + go_on * (rounds - least)


def estimate(
    cases: list[Case],
    budget_s: float,
    rounds: int,
    compiling: set[str],
    starts: dict[str, float] | None = None,
    jit_rounds: int = JIT_ROUNDS,
    warmups: dict[str, float] | None = None,
    calls: dict[tuple, float] | None = None,
    slow_floor: int = SLOW_MIN_SAMPLES,
    least: int | None = None,
    go_on: dict[str, float] | None = None,
) -> float:
    """Seconds measuring a plan should take here, from the plan's own arithmetic: every group
    in every one of its rounds starts a process (``starts``: each runtime's measured start,
    else START_S); a runtime that reports its compilations (``compiling``) gets
    ``jit_rounds``; a group on a runtime that warms up (``warmups``: runner.toml's
    warm_up_s by runtime) spends it once a round (measure/warmup.py; a slow operation's
    group on a JIT is held to its own least warm-up instead, sampling.Policy.jit_warmup_s),
    and each of its fast cases on a JIT proves its own steady state after it (JIT_PROOF_S);
    and each case spends one round's time (case_round_s; ``calls``: a case's known call duration in
    seconds, by Case.key; ``slow_floor``: the policy's slow_min_samples). With ``least`` (a
    case decided once its interval meets its target after that many rounds, JIT_LEAST_ROUNDS
    on a JIT), groups and cases count expected_rounds, each runtime's share past the least from
    ``go_on`` (go_on_seen: a finished run here) where it has one, else GO_ON. The one estimate
    of `run`, `calibrate` and `advise`."""
    groups: dict[tuple, list[Case]] = {}
    for c in cases:
        groups.setdefault((group_key(c), c.impl.runtime_id), []).append(c)
    total = 0.0
    for (_, rid), cs in groups.items():
        r = planned_rounds(rounds, jit_rounds, rid in compiling)
        lst = least_rounds(least, rid in compiling, all(c.prim.family == "noop" for c in cs))
        case_go = _case_go_on(rid, rid in compiling, go_on or {})
        per_round = (starts or {}).get(rid, START_S)
        fast = any(not c.prim.is_slow for c in cs)
        if fast:
            per_round += warm_up_s(rid, (warmups or {}).get(rid, 0.0))
        elif rid in compiling:  # a slow operation's own least warm-up (sampling.Policy)
            per_round += warm_up_s(rid, sampling.Policy().jit_warmup_s)
        total += expected_rounds(r, lst, group_go_on(case_go, len(cs))) * per_round
        count = expected_rounds(r, lst, case_go)
        for c in cs:
            call_s = (calls or {}).get(c.key)
            total += case_rounds_s(c, budget_s / r, r, call_s, slow_floor, count)
            if rid in compiling and not c.prim.is_slow:
                total += count * JIT_PROOF_S
    return total + rounds * PROBE_S


# A runner's noop (its loop and one call) is printed in whole ns ("runner overhead"): an interval
# within ±0.5 ns of its median reads the same whatever its relative width (1.5 ns ±7%).
NOOP_RESOLUTION_NS = 0.5


def noop_resolved(res: dict) -> bool:
    """A noop row whose interval is within the precision it is printed at (NOOP_RESOLUTION_NS):
    decided as a case within its target is. Measured: noops of 1.2–3 ns stayed 4–15% wide and
    took all 8 rounds, each a process start (2026-11-28 `run --primitive sha256 --size 1KiB`:
    rust, rust@native, pascal and node/noop 8 rounds, 0.05–0.5 s each)."""
    if res.get("family") != "noop" or not res.get("median_ns"):
        return False
    half = max(res["median_ns"] - res["ci_low_ns"], res["ci_high_ns"] - res["median_ns"])
    return half <= NOOP_RESOLUTION_NS


@dataclass
class _State:
    rounds: list[dict] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    final: dict | None = None  # a refusal or a wrong output: no further rounds
    replaced: list[dict] = field(default_factory=list)  # rounds measured again, kept here
    decided: int | None = None  # the rounds after which its interval met its target
    batch_ns: float | None = None  # its batch, from its first group warm-up (sampling.batch_for)
    batch_why: str = ""  # what its rounds' warmup_reason says of a long batch
    prim: str = ""  # its primitive's id (Rounds._give_up compares the cases of one)

    @property
    def done(self) -> bool:
        """No further round: decided early, refused, or a wrong output."""
        return self.decided is not None or self.final is not None

    def known_ns(self) -> float | None:
        """ns per call the rounds so far say (their median: one slow round does not make the
        next one's slow leading batches look settled, sampling.settled_at); None before any."""
        meds = sorted(x["median_ns"] for x in self.rounds)
        return meds[(len(meds) - 1) // 2] if meds else None

    def rounds_why(self) -> str:
        return "; ".join(x["remeasured"] for x in self.rounds if x.get("remeasured"))


@dataclass(frozen=True)
class Cut:
    """A password hash's case whose calibrated call is more than ``ratio`` times the
    ``keep``-th fastest call of its primitive measured so far in the run is measured no
    further (sampling.ruled_out): it cannot be among the top ``keep`` (advise's first pass,
    advise/passes.CUT_RATIO)."""

    keep: int
    ratio: float

    def ns(self, medians: list[float]) -> float | None:
        """The call above which a case is ruled out, given the medians measured so far; None
        while fewer than ``keep`` are."""
        if len(medians) < self.keep:
            return None
        return self.ratio * sorted(medians)[self.keep - 1]


@dataclass
class Rounds:
    runtimes: dict[str, Runtime]  # by Runtime.key (the id, and the features switched off)
    verifier: Verifier
    store: RunStore
    run: dict
    policy: sampling.Policy  # for the whole case; each round gets its share
    rounds: int = ROUNDS
    jit_rounds: int = JIT_ROUNDS  # runtimes that report compiles: a fresh JVM warms up each round
    least: int | None = None  # decided after this many rounds at least (run: LEAST_ROUNDS)
    pin: dict | None = None  # machine.pin_plan()
    # a case's round starts (no row) or ends (its row); a round measured again is "N again"
    on_step: Callable[[Prepared, int | str, dict | None], None] = lambda p, r, res: None
    on_decided: Callable[[int], None] = lambda skipped: None  # case-rounds no longer needed
    on_again: Callable[[int], None] = lambda steps: None  # rounds the second look measures again
    on_probe: Callable[[int, list[dict]], None] = lambda r, probes: None  # after each probe
    cut: Cut | None = None  # advise's first pass: a password hash that cannot win stops early
    _state: dict[int, _State] = field(default_factory=dict)

    def measure(self, prepared: list[Prepared]) -> None:
        """Every round of every case, each stored as soon as it is measured."""
        self._state = {p.seq: _State(prim=p.case.prim.id) for p in prepared}
        cpu = self.pin["runner_cpu"] if self.pin else None
        if self.pin:
            os.sched_setaffinity(0, {self.pin["orchestrator_cpu"]})
        for r in range(1, self.rounds + 1):
            for rt in self.runtimes.values():
                rt.stop()
                rt.cpu = cpu
            self.run["probes"].append({"round": r, **probe.measure(cpu)})
            self.store.update_run(self.run)
            self.on_probe(r, self.run["probes"])
            for group in order(prepared, self.run["seed"], r):
                rt = self.runtimes[group[0].case.runtime_key]
                if r > self.planned(rt) or all(self._state[p.seq].done for p in group):
                    continue  # no process for a group with nothing left to measure
                rt.stop(serves(group[0].case))  # a fresh process for every group (below)
                policy = sampling.for_rounds(self.policy, self.planned(rt))
                policy, warmed, speeds = self._warm_group(rt, group, policy)
                for p in group:
                    self._one(rt, p, r, policy, warmed, speeds.get(p.seq))
                self._done_with(rt)
        self._second_look(prepared)
        self._flag_sizes(prepared)

    def _warm_group(
        self, rt: Runtime, group: list[Prepared], policy: sampling.Policy
    ) -> tuple[sampling.Policy, str, dict[int, float]]:
        """A fresh process of a runtime whose code warms up (runner.toml ``warm_up_s``) runs
        the group's sizes in turn first (measure/warmup.py): the round's policy after it (no
        least warm-up of each case's own: each size still proves its steady state,
        sampling._steady), what each round's ``warmup_reason`` then says of it, and each
        case's ns per call at its end (by seq); ``policy`` unchanged, "" and {} where nothing
        warmed up: a runtime with no warm-up, a group of slow operations only (their own
        warm-up calls, sampling), or a warm-up that failed (each case's round then says why,
        and a JIT's case is held to the policy's least warm-up of its own)."""
        seconds = rt.warm_up_s
        fast = [p for p in group if not p.case.prim.is_slow and self._state[p.seq].final is None]
        if not seconds or not fast:
            return policy, "", {}
        benches = []
        for p in fast:
            st = self._state[p.seq]
            benches.append((warm_bench(rt, p), st.known_ns()))
        try:
            took, speeds, seen = warmup.warm_group(benches, seconds, self.policy)
        except (RemoteError, RunnerFailure, VerifyError):
            rt.stop(serves(group[0].case))
            return policy, "", {}
        shares = [(collection_share(v), p.case.size) for p, v in zip(fast, seen, strict=True)]
        self._choose_batch([self._state[p.seq] for p in fast], shares)
        sizes = f"{len(fast)} sizes in turn" if len(fast) > 1 else "its one size"
        note = f"after the group's warm-up ({took:.2f} s, {sizes}): "
        speeds_by_seq = {p.seq: ns for p, ns in zip(fast, speeds, strict=True)}
        return replace(policy, jit_warmup_s=0.0), note, speeds_by_seq

    @staticmethod
    def _choose_batch(states: list[_State], shares: list[tuple[float | None, int]]) -> None:
        """The group's batch, once, at its first warm-up: sampling.batch_for of the largest of
        its sizes' (collection_share, size) — a call's collections are its operation's, and a
        size's share from a 0.2 s warm-up of several sizes is read from few batches (2026-11-29
        10:19: node/crypto AES-128-GCM chose ~30 ms at 64 B only, and its 16 B and 1 KiB rows
        kept rounds 1.7× apart). Every size's later rounds keep it, so every round is measured
        alike."""
        if all(st.batch_ns is not None for st in states):
            return
        share, size = max(((s, n) for s, n in shares if s is not None), default=(None, 0))
        batch = sampling.batch_for(share)
        why = (
            f"batches of ~{batch / 1e6:.0f} ms: the group's warm-up's ~3 ms batches averaged "
            f"{share:.2f}× their median at {size} B (collections further apart than a batch); "
            if batch != sampling.TARGET_BATCH_NS
            else ""
        )
        for st in states:
            if st.batch_ns is None:
                st.batch_ns, st.batch_why = batch, why

    def _policy_of(self, st: _State, policy: sampling.Policy) -> sampling.Policy:
        return replace(policy, batch_ns=st.batch_ns or sampling.TARGET_BATCH_NS)

    def planned(self, rt: Runtime) -> int:
        """How many rounds a runtime's cases get at most."""
        return planned_rounds(self.rounds, self.jit_rounds, rt.compiles)

    def _decide(self, rt: Runtime, st: _State, res: dict, r: int) -> None:
        """After round ``r`` of a case: decided once its interval over its rounds is within
        its target (the preset's precision; a slow operation's own), from its least rounds on
        (docs/methodology.md, "How many rounds"): its later rounds are not measured. Every
        other case of its group still is, in a process that warms up as before."""
        noop = res.get("family") == "noop"
        least, planned = least_rounds(self.least, rt.compiles, noop), self.planned(rt)
        if least is None or not least <= r < planned or res["status"] != "ok":
            return
        if res["precision"] <= res["target_precision"] or noop_resolved(res):
            st.decided = r
            self.on_decided(planned - r)

    def steps(self, prepared: list[Prepared]) -> int:
        """Rounds of cases the run will measure (for progress)."""
        return sum(self.planned(self.runtimes[p.case.runtime_key]) for p in prepared)

    def _second_look(self, prepared: list[Prepared]) -> None:
        """The rounds that disagree with all the others beyond their spread
        (stats.outlier_rounds: one, or two of eight) are measured once more, each in a fresh
        process of its runtime; each new round takes its old one's place and the old one stays
        in the row (``replaced_rounds``), with why. Progress is told how many first
        (``on_again``), then each as "N again" (``on_step``): a busy machine's `quick` had
        measured 19 rounds again in 8 s after its last line said "about 0 s left"."""
        again = []
        for p in prepared:
            st = self._state[p.seq]
            meds = [[x[k] for x in st.rounds] for k in ("median_ns", "ci_low_ns", "ci_high_ns")]
            out = stats.outlier_rounds(*meds) if st.final is None else []
            if out:
                others = sorted(x["median_ns"] for j, x in enumerate(st.rounds) if j not in out)
                again.append((p, st, out, others[len(others) // 2]))
        self.on_again(sum(len(out) for _, _, out, _ in again))  # progress counts them
        for p, st, out, centre in again:
            for i in out:  # stored after each, as every round is
                label = f"{st.rounds[i]['round']} again"
                self.on_step(p, label, None)
                self._measure_again(p, st, i, centre)
                res = self._result(p, st)
                self.store.put_case(self.run["id"], p.seq, res)
                self.on_step(p, label, res)

    def _measure_again(self, p: Prepared, st: _State, i: int, centre: float) -> None:
        """Round ``i`` of a case once more in a fresh process, as every round: the case's group
        warm-up, batches sized from the other rounds' median ``centre``."""
        rt = self.runtimes[p.case.runtime_key]
        policy = sampling.for_rounds(self.policy, self.planned(rt))
        rt.stop(serves(p.case))
        old = st.rounds[i]
        try:
            policy, warmed, _ = self._warm_group(rt, [p], policy)
            m = measure_round(rt, p, self._policy_of(st, policy), self.verifier, False, centre)
        except (RemoteError, RunnerFailure, VerifyError):
            return  # the round stays as it was
        finally:
            rt.stop()
        why = (
            f"round {old['round']} ({old['median_ns']:.4g} ns) disagreed with the others "
            f"(median {centre:.4g} ns): measured again in a fresh process"
        )
        st.rounds[i] = {**round_entry(old["round"], m, warmed + st.batch_why), "remeasured": why}
        st.replaced.append({k: v for k, v in old.items() if "samples" not in k})

    def _done_with(self, rt: Runtime) -> None:
        """A group's process ends with the group: no runner process is left alive (compiling,
        collecting) beside the next group, and no group inherits another's process state
        (docs/methodology.md, "Why whole rounds ran slow"). So do the other runtimes'
        processes its verification started (a first round's salted hash verified by other
        implementations, a randomised output used elsewhere: measure.case.measure_round), which
        lived on, idle, until their runtime's next group. Each exits while the next group's
        process starts, and is reaped before that one's first timed request or the next
        round's drift probe (protocol.reap_exiting)."""
        rt.stop(wait=False)
        for other in self.verifier.runtimes.values() if self.verifier else ():
            if other is not rt and other.process is not None:
                other.stop(wait=False)

    def result_of(self, p: Prepared) -> dict:
        """A case's row after the rounds so far."""
        return self._result(p, self._state[p.seq])

    def _one(
        self,
        rt: Runtime,
        p: Prepared,
        r: int,
        policy: sampling.Policy,
        warmed: str,
        speed: float | None,
    ) -> None:
        """One round of one case, stored. ``warmed``: what the group's warm-up says;
        ``speed``: the case's ns per call at its end (None: no warm-up), which a first round
        takes as the earlier rounds' (sampling.measure's ``known_ns``)."""
        st = self._state[p.seq]
        if st.done:
            return
        self.on_step(p, r, None)
        try:
            known, mine = st.known_ns() or speed, self._policy_of(st, policy)
            give_up = self._give_up(p)
            m = measure_round(rt, p, mine, self.verifier, not st.rounds, known, give_up)
            st.rounds.append(round_entry(r, m, warmed + st.batch_why))
            if m.stop_reason == sampling.RULED_OUT:
                st.final = self._result(p, st)  # its calibration is its answer: no further round
        except RemoteError as exc:
            if exc.kind == "unsupported":
                st.final = results.skipped(p.case, f"not offered: {exc.message}")
            else:
                st.errors.append((r, round_error(exc)))
        except (RunnerFailure, VerifyError) as exc:
            timeout = isinstance(exc, RunnerFailure) and exc.kind == "timeout"
            st.errors.append((r, round_error(exc) + (f"; {NOT_AGAIN}" if timeout else "")))
            if isinstance(exc, VerifyError) or timeout:  # a wrong output, or a whole --timeout
                st.final = self._result(p, st)  # a round: its rounds so far, no further one
        if st.final is not None:  # refused, wrong or timed out: its later rounds are not run
            self.on_decided(self.planned(rt) - r)
        res = self._result(p, st)
        self._decide(rt, st, res, r)
        if st.decided:
            res = self._result(p, st)
        self.store.put_case(self.run["id"], p.seq, res)
        self.on_step(p, r, res)

    def _give_up(self, p: Prepared) -> float | None:
        """The call above which ``p`` is ruled out (``cut``), from the other cases of its
        primitive measured so far (their rounds' median); None without a cut, for a fast
        primitive, or while too few are measured."""
        if self.cut is None or not p.case.prim.is_slow:
            return None
        medians = [
            st.known_ns()
            for seq, st in self._state.items()
            if seq != p.seq
            and st.rounds
            and st.prim == p.case.prim.id
            and all(x["stop_reason"] != sampling.RULED_OUT for x in st.rounds)
        ]
        return self.cut.ns(medians)

    def _result(self, p: Prepared, st: _State) -> dict:
        if st.final is not None:
            return st.final
        if st.rounds:
            ctx = {"tsc_hz": self.run["machine"].get("tsc_hz"), "errors": st.errors}
            ctx["probes"] = self.run.get("probes")  # whether the machine moved (rounds differ)
            planned = self.planned(self.runtimes[p.case.runtime_key])
            ctx["decided"] = st.decided
            res = results.measured(p.case, st.rounds, planned, p.verification, ctx)
            res.update(alloc.fields(p.allocs))  # the untimed calls' allocation, where read
            if st.replaced:
                res["replaced_rounds"] = st.replaced
                res["flags"].append(st.rounds_why())
        else:
            why = "; ".join(f"round {r}: {e}" for r, e in st.errors) or "not measured"
            res = results.failed(p.case, why, p.verification)
        return results.as_noop(res, p.case.impl.runtime_id) if p.case.prim.family == "noop" else res

    def _flag_sizes(self, prepared: list[Prepared]) -> None:
        """After the last round: flag a size slower per operation than a larger one."""
        rows = [self._result(p, self._state[p.seq]) for p in prepared]
        for i, flag in results.size_inversions(rows).items():
            rows[i]["flags"].append(flag)
            self.store.put_case(self.run["id"], prepared[i].seq, rows[i])

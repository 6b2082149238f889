"""One case, verified before it is timed, then measured in one round (docs/methodology.md).

`prepare` runs the verification and keeps what the rounds need (the inputs to time, the
output the timed code path must return); `measure_round` asks the runner for batches through
`sampling`. The rounds themselves are `measure/rounds.py`'s.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..catalog.primitives import NOOP, NOOP_SIZE
from ..plan.cases import Case
from ..results import document as results
from ..runtimes.inputs import case_inputs
from ..runtimes.msggen import Generated, reference
from ..runtimes.protocol import RemoteError, RunnerFailure, check_alloc, check_samples
from ..runtimes.session import Runtime
from ..verify.verifier import Verifier, VerifyError
from . import alloc, sampling, slowop


@dataclass
class Prepared:
    """A verified case, ready to be timed in every round."""

    seq: int  # its row in the run
    case: Case
    inputs: dict  # what the bench request sends
    expected: str | None  # the verified output; None for salt-generating `hash`
    verification: str
    call_ns: float | None = None  # the verified call's duration, where timed (slow operations)
    cached: bool = False  # taken from the cache of verified answers (measure/verified.py)
    allocs: list = field(default_factory=list)  # bench answers' alloc readings (measure.alloc)


def noop_cases(cases: list[Case]) -> list[Case]:
    """One noop case per runtime that has fast cases: its loop and call overhead (not beside
    huge messages only, where a call's overhead is nothing and its second of budget is much)."""
    seen, out = set(), []
    for c in cases:
        small = not c.prim.is_slow and c.size < slowop.HUGE_MESSAGE
        if small and c.runtime_key not in seen:
            seen.add(c.runtime_key)
            out.append(Case(c.impl, NOOP, "digest", NOOP_SIZE, {}, c.cpu_off))
    return out


def serves(case: Case) -> tuple[str, ...]:
    """The libraries a process measuring ``case``'s group loads (hello's `only`): its own, or
    none for noop, which needs no library (docs/protocol.md). Verification may still ask the
    process for another library of its runtime; the runner then loads that one too."""
    return () if case.prim.id == NOOP.id else (case.impl.library,)


def prepare(verifier: Verifier, case: Case, seq: int, seed: int) -> Prepared | dict:
    """The verified case, or the stored result saying why it cannot be timed."""
    if case.prim.id == NOOP.id:
        expected = NOOP_SIZE.to_bytes(8, "big").hex()
        return Prepared(seq, case, {"msg": "00" * NOOP_SIZE}, expected, "returns its length")
    try:
        inputs = case_inputs(case.prim, case.operation, case.size, case.params, seed)
    except ValueError as exc:  # a cipher's message (and output) travels as hex: 64 MiB at most
        return results.skipped(case, f"{case.operation} {exc}: digests and MACs take any size")
    try:
        call_ns = own_call_ns(verifier, case, inputs)
        if isinstance(call_ns, dict):
            return call_ns
        once = isinstance(inputs.get("msg"), Generated) and slowop.one_opinion(case.size, call_ns)
        check_case = slowop.check_once if once else Verifier.check_case
        check, bench_inputs, expected = check_case(
            verifier, case.impl, case.prim, case.operation, inputs, case.params
        )
    except RunnerFailure as exc:
        return results.failed(case, f"runner {exc.kind}: {exc}")
    if check.unverifiable:  # never timed; shown with its reason, not a failure
        return results.skipped(case, check.detail)
    if not check.ok:
        return results.failed(case, f"verification failed: {check.detail}", check.detail)
    detail = check.detail
    msg = bench_inputs.get("msg")
    generated = isinstance(msg, Generated) and not once  # once: the reference was the opinion
    ref = reference(case.prim.id, msg, case.params) if generated else None
    if ref is not None:
        if ref[0] != expected:
            why = f"differs from {ref[1]} over the same generated message"
            return results.failed(case, f"verification failed: {why}", why)
        detail = f"{detail}; matches {ref[1]}"
    return Prepared(seq, case, bench_inputs, expected, detail, call_ns)


# A password hash's or KDF's own call the verifier asks with the case's inputs (its `verify` is
# asked with another's hash): timed in verification, so the plan and the sampler know it (the
# prior, rounds.SLOW_CALL_S, had put java/bc's 310–660 ms scrypt at 40 ms: "about 16 s" for 46 s)
SLOW_OWN_CALLS = ("hash", "derive")


def slow_own_call(case: Case) -> bool:
    """A slow family's hash or derive (SLOW_OWN_CALLS): its verification times its call."""
    return case.prim.is_slow and case.operation in SLOW_OWN_CALLS


def own_call_ns(verifier: Verifier, case: Case, inputs: dict) -> float | dict | None:
    """How long the implementation's own call takes, a generated message's or a slow family's
    (slow_own_call; the verifier keeps its output for agreement, so it is asked once), so the
    slow-operation policy and the plan know a long call before timing it. None where there is
    nothing to time or the call failed (check_case says why); the skipped result where the
    runtime cannot hold the message."""
    if not (slow_own_call(case) or isinstance(inputs.get("msg"), Generated)):
        return None
    if not verifier.known_answers(case.impl, case.prim.id, case.operation).ok:
        return None
    try:
        return _timed(verifier.output_for, case, inputs)
    except RemoteError as exc:
        if slowop.cannot_hold(exc):
            return results.skipped(case, exc.message)
        return None
    except VerifyError:
        return None


def own_call_again(verifier: Verifier, p: Prepared) -> float | None:
    """A verified case's own call asked once more and timed (measure/verified.retime_slow);
    None where it failed this time (its rounds will say why)."""
    try:
        return _timed(verifier.compute, p.case, p.inputs)
    except (RemoteError, RunnerFailure, VerifyError):
        return None


def _timed(ask, case: Case, inputs: dict) -> int:
    """Nanoseconds ``ask`` (the verifier's output_for or compute) took for the case's call."""
    t0 = time.perf_counter_ns()
    ask(case.impl, case.prim.id, case.operation, inputs, case.params)
    return time.perf_counter_ns() - t0


def bench_request(
    rt: Runtime, p: Prepared, iterations: int, batches: int, timeout: float, **extra
) -> dict:
    """One `bench` request for a prepared case; its output must be the verified one."""
    res = rt.request(
        "bench",
        timeout,
        impl=p.case.impl.library,
        primitive=p.case.prim.id,
        operation=p.case.operation,
        inputs=p.inputs,
        params=p.case.params,
        iterations=iterations,
        batches=batches,
        **extra,
    )
    out = res.get("output")
    if p.expected is not None and out != p.expected:
        raise VerifyError(f"bench output {str(out)[:40]} differs from the verified output")
    return res


def bench_for(rt: Runtime, p: Prepared, outputs: list, check_first=None) -> sampling.Bench:
    """The sampler's bench(iterations, batches, timeout) for a prepared case; each answer's
    output is appended to ``outputs``. ``check_first(output)``: a check of the first answer's
    output before any of its batches is used (randomised public-key outputs, by use)."""

    def bench(iterations: int, batches: int, timeout: float) -> list[dict]:
        res = bench_request(rt, p, iterations, batches, timeout)
        if check_first is not None and not outputs:
            check_first(res.get("output"))
        outputs.append(res.get("output"))
        alloc.note(p.allocs, check_alloc(res))
        return check_samples(res.get("samples"), iterations, batches)

    return bench


def warm_bench(rt: Runtime, p: Prepared) -> sampling.Bench:
    """The bench of a group's warm-up (measure.warmup): each answer's output is still the
    verified one; nothing of it is kept."""

    def bench(iterations: int, batches: int, timeout: float) -> list[dict]:
        res = bench_request(rt, p, iterations, batches, timeout)
        return check_samples(res.get("samples"), iterations, batches)

    return bench


def measure_round(
    rt: Runtime,
    p: Prepared,
    policy: sampling.Policy,
    verifier: Verifier,
    first_round: bool,
    known_ns: float | None = None,
    give_up_ns: float | None = None,
) -> sampling.Measurement:
    """One round of one case. Raises RunnerFailure, RemoteError or VerifyError. On a runtime
    that reports JIT compilation, every case warms up for at least ``policy.jit_warmup_s``:
    a JIT can sit flat in slower code with nothing compiling, so quiet alone proves nothing.
    ``give_up_ns``: a password hash's call above which its round ends after calibration
    (rounds.Cut)."""
    outputs: list = []
    case = p.case
    check_first = None
    if first_round and p.expected is None and case.prim.is_pubkey:
        # a fresh key pair or a randomised signature: the timed path's output, used elsewhere
        def check_first(out) -> None:
            verifier.check_bench_output(case.impl, case.prim, case.operation, p.inputs, out)

    m = sampling.measure(
        bench_for(rt, p, outputs, check_first),
        policy,
        p.case.prim.is_slow,
        min_warmup_s=policy.jit_warmup_s,
        expected_ns=p.call_ns,
        min_calls=sampling.call_floor(p.case.prim, p.case.operation),
        known_ns=known_ns,
        give_up_ns=give_up_ns,
    )
    if first_round and p.expected is None and p.case.operation == "hash":
        # a salted hash differs each call: the timed path's output must verify elsewhere
        password, made = p.inputs["password"], str(outputs[0])
        verifier.verify_elsewhere(p.case.prim, password, made, p.case.params, prefer=p.case.impl)
    return m


def round_error(exc: Exception) -> str:
    """What a failed round says about why."""
    if isinstance(exc, RunnerFailure):
        return f"runner {exc.kind}: {exc}"
    if isinstance(exc, RemoteError):
        return f"{exc.kind}: {exc.message}"
    return f"verification failed: {exc}"

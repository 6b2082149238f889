"""One run: verify each case, measure it, store it, one case at a time."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from . import results, sampling
from .inputs import case_inputs
from .machine import cpu_times, steal_fraction
from .plan import Case
from .protocol import RemoteError, RunnerFailure
from .session import Runtime
from .store import Store
from .verify import Verifier, VerifyError

NOOP_SIZE = 16


@dataclass
class RunContext:
    runtimes: dict[str, Runtime]
    verifier: Verifier
    store: Store
    run: dict
    policy: sampling.Policy
    seed: int
    on_case: Callable[[Case | None, dict], None] = lambda case, result: None


def _bench_fn(ctx: RunContext, case: Case, inputs: dict, expected: str | None):
    rt = ctx.runtimes[case.impl.runtime_id]

    first = [True]

    def bench(iterations: int, batches: int, timeout: float) -> list[dict]:
        res = rt.request(
            "bench",
            timeout,
            impl=case.impl.library,
            primitive=case.prim.id,
            operation=case.operation,
            inputs=inputs,
            params=case.params,
            iterations=iterations,
            batches=batches,
        )
        _check_bench(ctx, case, inputs, res, expected, iterations, batches, first[0])
        first[0] = False
        return res["samples"]

    return bench


def _check_bench(ctx, case, inputs, res, expected, iterations, batches, first) -> None:
    """The timed code path's own output must be the verified one; samples well formed."""
    out = res.get("output")
    if expected is not None and out != expected:
        raise VerifyError(f"bench output {str(out)[:40]} differs from the verified output")
    if first and expected is None and case.operation == "hash":
        ctx.verifier.verify_elsewhere(case.prim, inputs["password"], str(out), case.params)
    samples = res.get("samples")
    if (
        not isinstance(samples, list)
        or len(samples) != batches
        or not all(
            isinstance(s, dict)
            and s.get("iterations") == iterations
            and isinstance(s.get("ns"), int)
            and s["ns"] >= 0
            for s in samples
        )
    ):
        raise RunnerFailure("protocol", f"bench returned malformed samples: {str(samples)[:80]}")


def measure_case(ctx: RunContext, case: Case) -> dict:
    rt = ctx.runtimes[case.impl.runtime_id]
    if rt.failed:
        return results.failed(case, f"runtime {rt.id} {rt.failed}")
    inputs = case_inputs(case.prim, case.operation, case.size, case.params, ctx.seed)
    try:
        check, bench_inputs, expected = ctx.verifier.check_case(
            case.impl, case.prim, case.operation, inputs, case.params
        )
        if not check.ok:
            return results.failed(case, f"verification failed: {check.detail}", check.detail)
        m = sampling.measure(
            _bench_fn(ctx, case, bench_inputs, expected), ctx.policy, case.prim.is_slow
        )
    except RunnerFailure as exc:
        return results.failed(case, f"runner {exc.kind}: {exc}")
    except RemoteError as exc:
        if exc.kind == "unsupported":
            return results.skipped(case, f"not offered: {exc.message}")
        return results.failed(case, f"{exc.kind}: {exc.message}")
    except VerifyError as exc:
        return results.failed(case, f"verification failed: {exc}")
    return results.measured(case, m, check.detail, ctx.run["machine"].get("tsc_hz"))


def noop_cases(cases: list[Case]) -> list[Case]:
    """One noop case per runtime that has fast cases: its loop and call overhead."""
    from .catalog import Primitive

    noop = Primitive(
        "noop",
        "noop",
        "noop (loop and call overhead)",
        ("digest",),
        "bytes",
        "non-cryptographic",
        "measures the runner, not a primitive",
        "",
        8,
    )
    seen, out = set(), []
    for c in cases:
        if not c.prim.is_slow and c.impl.runtime_id not in seen:
            seen.add(c.impl.runtime_id)
            out.append(Case(c.impl, noop, "digest", NOOP_SIZE, {}))
    return out


def measure_noop(ctx: RunContext, case: Case) -> dict:
    expected = NOOP_SIZE.to_bytes(8, "big").hex()
    inputs = {"msg": "00" * NOOP_SIZE}
    try:
        m = sampling.measure(_bench_fn(ctx, case, inputs, expected), ctx.policy, False)
    except (RunnerFailure, RemoteError, VerifyError) as exc:
        res = results.failed(case, f"noop: {exc}")
    else:
        res = results.measured(case, m, "returns its input length", None)
    res.update(
        implementation=f"{case.impl.runtime_id}/noop",
        library="noop",
        library_version="",
        backend="",
        family="noop",
        throughput_mb_s=None,  # the loop's overhead per call, not a throughput
        cycles_per_byte=None,
    )
    return res


def execute(ctx: RunContext, cases: list[Case], not_offered: list) -> tuple[int, bool]:
    """Measure every case, storing each at once. Returns (failures, interrupted)."""
    seq, failures = 0, 0
    before, load0 = cpu_times(), os.getloadavg()[0]
    interrupted = False
    try:
        for case, reason in not_offered:
            ctx.store.add_case(ctx.run["id"], seq, results.skipped(case, reason))
            seq += 1
        for case in noop_cases(cases) + cases:
            ctx.on_case(case, {})
            res = measure_noop(ctx, case) if case.prim.id == "noop" else measure_case(ctx, case)
            ctx.store.add_case(ctx.run["id"], seq, res)
            seq += 1
            failures += res["status"] == "failed"
            ctx.on_case(None, res)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for rt in ctx.runtimes.values():
            rt.stop()
        ctx.run["ended"] = results.now()
        ctx.run["status"] = "interrupted" if interrupted else "complete"
        ctx.run["machine"]["steal_fraction"] = steal_fraction(before, cpu_times())
        ctx.run["machine"]["load_avg_start"] = load0
        ctx.run["machine"]["load_avg_end"] = os.getloadavg()[0]
        ctx.store.update_run(ctx.run)
    return failures, interrupted

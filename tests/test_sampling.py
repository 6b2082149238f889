"""sampling.measure driven by scripted benches and a fake clock: exact, no real timing."""

from __future__ import annotations

import pytest

from cryptobench.measure import sampling


class Script:
    """A bench whose ns/op follows ``profile(batch_index)``; the clock advances by the work."""

    def __init__(self, profile):
        self.profile, self.calls, self.t, self.index = profile, [], 0.0, 0

    def clock(self) -> float:
        return self.t

    def __call__(self, iterations, batches, timeout):
        self.calls.append((iterations, batches, timeout))
        out = []
        for _ in range(batches):
            ns = int(self.profile(self.index) * iterations)
            self.index += 1
            self.t += ns / 1e9
            out.append({"iterations": iterations, "ns": ns})
        return out


def test_fast_op_is_calibrated_to_3ms_batches_and_stops_at_precision():
    bench = Script(lambda i: 100.0)  # 100 ns/op, perfectly steady
    m = sampling.measure(bench, sampling.Policy(budget_s=1.0), False, clock=bench.clock)
    assert m.iterations == sampling.TARGET_BATCH_NS // 100  # ~3 ms / 100 ns
    assert m.ci.median == 100.0 and m.ci.precision == 0.0
    chunk = int(sampling.CHUNK_NS / (100.0 * m.iterations))  # a 1 s budget: a whole chunk
    assert m.stop_reason == "precision" and len(m.samples) == chunk == 33
    assert not m.slow and m.flags == []


def test_warmup_batches_are_discarded_and_recorded():
    def jit(i):  # calibration batches, then a JIT-like decay from 500 to 100 ns/op
        return 100.0 + 400.0 * 0.5 ** max(0, i - 8)

    bench = Script(jit)
    m = sampling.measure(bench, sampling.Policy(budget_s=5), False, clock=bench.clock)
    kept = [s["ns"] / s["iterations"] for s in m.samples]
    assert max(kept) < 110 and m.ci.median == pytest.approx(100.0, rel=0.01)
    assert m.warmup_ns > 0 and len(m.warmup) > 3


def test_slow_op_runs_one_iteration_per_batch_with_at_least_ten_samples():
    bench = Script(lambda i: 50e6 * (1 + 0.05 * (i % 4)))  # 50 ms/op, ±10% noise
    m = sampling.measure(bench, sampling.Policy(budget_s=0.1), True, clock=bench.clock)
    assert m.slow and m.iterations == 1 and m.target == 0.03
    assert len(m.samples) >= 10  # the floor holds past the 0.1 s budget
    assert all(c[0] == 1 for c in bench.calls)


def test_timeouts_scale_with_the_operation_time():
    bench = Script(lambda i: 2e9)  # a 2-second operation
    sampling.measure(
        bench, sampling.Policy(base_timeout_s=1, budget_s=0.1), True, clock=bench.clock
    )
    assert all(timeout >= 20 for _, _, timeout in bench.calls[1:])


def test_budget_stops_a_noisy_case_and_flags_it():
    bench = Script(lambda i: 100.0 * (1 + (i * 7919 % 13) / 13))  # ±50% scatter
    m = sampling.measure(bench, sampling.Policy(budget_s=0.5), False, clock=bench.clock)
    assert m.stop_reason == "budget"
    assert any("precision" in f for f in m.flags)


def test_one_cold_first_call_does_not_make_a_fast_op_slow():
    bench = Script(lambda i: 20e6 if i == 0 else 1000.0)  # first call 20 ms (cold), then 1 µs
    m = sampling.measure(bench, sampling.Policy(), False, clock=bench.clock)
    assert not m.slow and m.iterations == sampling.TARGET_BATCH_NS // 1000
    assert m.ci.median == 1000.0


class JitScript(Script):
    """Batches report ``compiles`` > 0 until batch ``quiet_from``, and run at ``slow`` ns/op while
    compiling: a JVM that sits flat in C1 code, then compiles — no trend to see."""

    def __init__(self, quiet_from: int, slow: float = 300.0, fast: float = 100.0):
        super().__init__(lambda i: slow if i < quiet_from else fast)
        self.quiet_from = quiet_from

    def __call__(self, iterations, batches, timeout):
        start = self.index
        out = super().__call__(iterations, batches, timeout)
        for k, s in enumerate(out):
            s["compiles"] = 2 if start + k < self.quiet_from else 0
        return out


def test_batches_that_overlapped_compilation_are_warmup():
    bench = JitScript(quiet_from=40)
    m = sampling.measure(bench, sampling.Policy(budget_s=0.2), False, clock=bench.clock)
    assert m.ci.median == 100.0 and all(s["compiles"] == 0 for s in m.samples)
    assert len(m.warmup) >= 40 and "3× faster after" in m.warmup_reason
    assert m.iterations == sampling.TARGET_BATCH_NS // 100  # re-sized to ~3 ms when compiled


def test_compilation_without_a_speed_up_still_ends_warmup_only_when_quiet():
    bench = JitScript(quiet_from=40, slow=120.0)
    m = sampling.measure(bench, sampling.Policy(budget_s=0.2), False, clock=bench.clock)
    assert m.ci.median == 100.0 and all(s["compiles"] == 0 for s in m.samples)
    assert "no compilation in the last" in m.warmup_reason


def test_a_fresh_jvm_warms_up_at_least_min_warmup():
    bench = JitScript(quiet_from=3, slow=100.0)  # quiet almost at once
    m = sampling.measure(bench, sampling.Policy(budget_s=0.1), False, bench.clock, None, 0.5)
    assert sum(s["ns"] for s in m.warmup) >= 0.5e9


def test_a_runtime_still_compiling_is_flagged_not_trusted():
    bench = JitScript(quiet_from=10**9)  # compiles forever
    policy = sampling.Policy(budget_s=0.1, max_warmup_s=1.0)
    m = sampling.measure(bench, policy, False, clock=bench.clock)
    assert m.stop_reason == "no steady state" and "still compiling" in m.flags[0]


def test_a_later_round_whose_process_stays_slow_says_so():
    # round 1 read 10 ns per call; this process reads 20 ns in every batch (2026-11-29
    # `default`: cpp/cryptopp CRC32C 16 B, 17.7 ns against 8.3-10.2): never back within 1.5x
    bench = Script(lambda i: 20.0)
    m = sampling.measure(bench, sampling.Policy(budget_s=0.02), False, bench.clock, known_ns=10.0)
    assert m.stop_reason == "no steady state"
    assert "within 1.5× the earlier rounds' 10 ns per call: this process ran slow" in m.flags[0]
    assert "compiling" not in m.flags[0]


def test_rounds_split_the_budget_and_the_sample_floors():
    p = sampling.for_rounds(sampling.Policy(budget_s=0.9), 3)
    assert p.budget_s == pytest.approx(0.3) and p.min_samples == 5 and p.slow_min_samples == 4
    one = sampling.for_rounds(sampling.Policy(), 1)
    assert one.min_samples == 10 and one.slow_min_samples == 10


def test_a_round_asks_only_for_the_batches_it_still_needs():
    """One of 8 rounds of a 0.3 s budget (37.5 ms): what fits in it, 12 batches of 3 ms, not a
    100 ms chunk (docs/methodology.md, "How many rounds": rounds overshot their share)."""
    noisy = [100.0, 103.0, 98.0, 101.0, 99.0, 102.0]  # never within the 1% target
    bench = Script(lambda i: noisy[i % len(noisy)])
    policy = sampling.for_rounds(sampling.Policy(budget_s=0.3), 8)
    m = sampling.measure(bench, policy, False, clock=bench.clock)
    measured = [c for c in bench.calls if c[0] == m.iterations]
    fits = int(policy.budget_s / (sampling.TARGET_BATCH_NS / 1e9))  # 12 of 3 ms in 37.5 ms
    assert policy.min_samples == 5 and measured[0][1] <= fits == 12
    assert sum(c[1] for c in measured) == len(m.samples) <= fits
    assert m.stop_reason == "budget"


def test_a_round_with_budget_left_asks_for_what_fits_in_it():
    bench = Script(lambda i: 100.0 + (i % 3))
    m = sampling.measure(bench, sampling.Policy(budget_s=0.08), False, clock=bench.clock)
    measured = [c for c in bench.calls if c[0] == m.iterations]
    left = 0.08 - sum(i * 100.0 for i, _, _ in bench.calls[: -len(measured)]) / 1e9
    assert measured[0][1] == int(left * 1e9 / (100.0 * m.iterations))  # what fits, not a chunk
    assert (
        sum(c[1] for c in measured) * m.iterations * 100.0 / 1e9
        < 0.08 + 2 * sampling.TARGET_BATCH_NS / 1e9
    )


def test_a_later_round_sizes_batches_from_the_first_and_skips_calibration():
    bench = Script(lambda i: 100.0)
    m = sampling.measure(
        bench, sampling.Policy(budget_s=0.05), False, clock=bench.clock, known_ns=100.0
    )
    assert {c[0] for c in bench.calls} == {sampling.TARGET_BATCH_NS // 100} and m.warmup == []


def test_a_later_round_drops_its_leading_batches_below_the_first_rounds_speed():
    """A fresh JIT process, batches sized from round 1: its first batches run in slower tiers
    (measured: node/noble 6× slower) and are warm-up; a slow batch later stays (a collection
    is part of the cost)."""
    speeds = [600.0, 600.0, 400.0] + [100.0] * 6 + [180.0] + [100.0] * 20
    bench = Script(lambda i: speeds[min(i, len(speeds) - 1)])
    policy = sampling.for_rounds(sampling.Policy(budget_s=0.3), 8)
    m = sampling.measure(bench, policy, False, clock=bench.clock, known_ns=100.0)
    kept = [s["ns"] / s["iterations"] for s in m.samples]
    assert len(m.warmup) == 3 and max(kept) <= 180.0 and m.ci.median == 100.0
    assert m.warmup_reason.startswith("3 batches slower than round 1's speed")


def test_a_jit_still_compiling_asks_a_chunk():
    bench = JitScript(quiet_from=40)
    sampling.measure(bench, sampling.Policy(budget_s=0.2), False, clock=bench.clock)
    assert max(c[1] for c in bench.calls) == int(sampling.CHUNK_NS / sampling.TARGET_BATCH_NS)


def test_a_jit_s_slow_operation_owes_its_least_warm_up_in_one_request_not_one_each():
    """35 ms calls on a runtime that reports its compilations, held to 1 s of warm-up: after
    the first request (calibration), the calls that cover the rest of the second come in one
    request; then one kept call a request, as before."""
    bench = JitScript(quiet_from=0, slow=35e6, fast=35e6)
    m = sampling.measure(bench, sampling.Policy(budget_s=0.1), True, bench.clock, None, 1.0)
    warmed = sum(s["ns"] for s in m.warmup)
    assert 1e9 <= warmed < 1e9 + 2 * 35e6 and m.ci.median == 35e6  # the least, to a call or two
    asked = [batches for _, batches, _ in bench.calls]
    assert max(asked) > 1 and len(bench.calls) < len(m.warmup)  # not one request per call
    assert asked[-len(m.samples) :] == [1] * len(m.samples)  # kept calls: one a request


def test_without_a_least_warm_up_a_slow_operation_asks_one_call_at_a_time():
    bench = JitScript(quiet_from=0, slow=35e6, fast=35e6)
    sampling.measure(bench, sampling.Policy(budget_s=0.1), True, bench.clock, None, 0.0)
    assert all(batches == 1 for _, batches, _ in bench.calls)


def test_a_password_hash_slower_than_the_cut_stops_after_calibration():
    bench = Script(lambda i: 400e6)  # a 400 ms Argon2id call, against a 100 ms cut
    m = sampling.measure(
        bench, sampling.Policy(budget_s=0.1), True, clock=bench.clock, give_up_ns=100e6
    )
    assert m.stop_reason == sampling.RULED_OUT
    assert len(bench.calls) == 2 and len(m.samples) == 2  # the cold call and its confirmation
    assert m.ci.median == 400e6 and m.warmup == []
    assert m.flags[0].startswith("ruled out after calibration: its call (400 ms)")


def test_a_password_hash_within_the_cut_is_measured_as_usual():
    bench = Script(lambda i: 50e6)
    m = sampling.measure(
        bench, sampling.Policy(budget_s=0.1), True, clock=bench.clock, give_up_ns=100e6
    )
    assert m.stop_reason != sampling.RULED_OUT and len(m.samples) >= 10


def test_the_cut_leaves_a_fast_operation_alone():
    bench = Script(lambda i: 100.0)
    m = sampling.measure(
        bench, sampling.Policy(budget_s=0.1), False, clock=bench.clock, give_up_ns=10.0
    )
    assert m.stop_reason != sampling.RULED_OUT and len(m.samples) > 2

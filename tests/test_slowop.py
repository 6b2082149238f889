"""The slow-operation policy on fixed inputs: sampling driven by a scripted bench and a fake
clock, agreement through a fake verifier, and the noop rule. No real timing."""

from __future__ import annotations

import hashlib

import pytest

from cryptobench.catalog import primitives as catalog
from cryptobench.measure import sampling, slowop
from cryptobench.measure.case import noop_cases
from cryptobench.plan.cases import Case
from cryptobench.runtimes.msggen import Generated
from cryptobench.runtimes.protocol import Implementation, Offer, RemoteError, RunnerFailure
from cryptobench.verify.verifier import Check

from .test_sampling import Script

HALF_S = 500e6  # ns: one call of SHA-256 over 1 GiB, roughly


# -- sampling ------------------------------------------------------------------------------
def test_a_long_verified_call_skips_calibration_and_asks_its_floor_in_one_request():
    bench = Script(lambda i: HALF_S * (1 + 0.01 * (i % 3)))
    policy = sampling.Policy(budget_s=1.0)
    m = sampling.measure(bench, policy, False, clock=bench.clock, expected_ns=0.8e9)
    assert bench.calls[0][:2] == (1, 3)  # no calibration: 3 one-call batches at once
    assert len(bench.calls) == 1 and m.warmup == []
    assert m.slow and m.iterations == 1 and len(m.samples) == 3
    assert m.ci.confidence == pytest.approx(0.75)  # [min, max] of 3: said, not widened
    (flag,) = [f for f in m.flags if f.startswith("slow operation")]
    assert "a floor of 3 samples per round, not 10" in flag and "coverage 75%" in flag


def test_a_cold_verified_call_does_not_make_a_fast_operation_long():
    bench = Script(lambda i: 1000.0)  # 1 µs per call; the verified call took 0.6 s (cold)
    m = sampling.measure(bench, sampling.Policy(), False, clock=bench.clock, expected_ns=0.6e9)
    assert bench.calls[0][:2] == (1, 3)  # the floor's one-call batches, then calibration
    assert not m.slow and m.iterations == sampling.TARGET_BATCH_NS // 1000
    assert m.ci.median == 1000.0
    assert len(m.warmup) > 3 and not any("slow-operation" in f for f in m.flags)


def test_a_long_call_found_by_calibration_gets_the_same_floor():
    bench = Script(lambda i: HALF_S)
    m = sampling.measure(bench, sampling.Policy(budget_s=1.0), False, clock=bench.clock)
    assert [c[:2] for c in bench.calls] == [(1, 1), (1, 1), (1, 3)]  # cold call confirmed
    assert len(m.samples) == 3 and any("slow-operation policy" in f for f in m.flags)


def test_password_hashes_and_kdfs_keep_their_floor_and_one_batch_per_request():
    bench = Script(lambda i: HALF_S)
    m = sampling.measure(bench, sampling.Policy(budget_s=1.0), True, clock=bench.clock)
    assert len(m.samples) >= 10 and all(c[1] == 1 for c in bench.calls)
    assert not any("slow-operation" in f for f in m.flags)


def test_a_slow_operations_target_is_its_relaxed_one_or_the_runs_where_wider():
    bench = Script(lambda i: 30e6 * (1 + 0.001 * (i % 3)))  # 30 ms, steady
    for run_target, want in ((0.01, 0.03), (0.05, 0.05)):
        policy = sampling.Policy(precision=run_target)
        m = sampling.measure(bench, policy, True, clock=bench.clock)
        assert m.slow and m.target == want == sampling.slow_target(policy)


def test_a_password_hash_of_known_duration_asks_its_floor_at_once():
    # calibrate knows the call's duration from its probes (sampling.known_slow): no
    # calibration requests, the floor in the first request, the floor kept
    bench = Script(lambda i: HALF_S)
    m = sampling.measure(
        bench, sampling.Policy(budget_s=1.0), True, clock=bench.clock, expected_ns=HALF_S
    )
    assert bench.calls[0][:2] == (1, 14) and len(bench.calls) == 1
    assert len(m.samples) == 10 and not any("slow-operation" in f for f in m.flags)
    assert len(m.warmup) == sampling.SLOW_WARM_CALLS == 4  # what a first round spends first


def test_a_password_hashs_later_round_asks_its_floor_at_once_after_four_warm_calls():
    # its first round measured the call (known_ns): one request, no calibration; its first four
    # calls are warm-up (a fresh process's first calls ran slow), then the round's floor
    calls = [75e6, 70e6, 65e6, 60e6] + [50e6] * 10
    bench = Script(lambda i: calls[i])
    policy = sampling.for_rounds(sampling.Policy(), 8)
    m = sampling.measure(bench, policy, True, clock=bench.clock, known_ns=48e6)
    assert [c[:2] for c in bench.calls] == [(1, 7)] and len(m.warmup) == 4
    assert m.ci.median == 50e6 and len(m.samples) == 3


def test_a_later_round_that_finds_the_call_fast_calibrates_as_usual():
    # a first round's median under 10 ms is no known duration: calibration as in round 1
    bench = Script(lambda i: 2e6)
    policy = sampling.for_rounds(sampling.Policy(), 8)
    m = sampling.measure(bench, policy, True, clock=bench.clock, known_ns=2e6)
    assert bench.calls[0][:2] == (1, 1) and len(m.warmup) >= 1


@pytest.mark.parametrize(
    ("per_op", "budget", "slow_family", "floor"),
    [
        (50e6, 1.0, False, 10),  # 50 ms: slow, not long; the usual floor
        (200e6, 1.0, False, 5),  # as many as fit in the budget
        (2e9, 1.0, False, 3),  # never fewer than 3
        (2e9, 1.0, True, 10),  # KDFs keep theirs
        (150e6, 100.0, False, 10),  # never more than the usual floor
    ],
)
def test_sample_floor(per_op, budget, slow_family, floor):
    policy = sampling.Policy(budget_s=budget)
    slow = slow_family or per_op >= sampling.SLOW_OP_NS
    assert sampling.sample_floor(policy, slow, slow_family, per_op) == floor


def test_sample_floor_in_one_of_three_rounds():
    policy = sampling.for_rounds(sampling.Policy(budget_s=1.0), 3)  # 1/3 s, floor 4
    assert sampling.sample_floor(policy, True, False, 200e6) == 3


def test_batches_per_request():
    assert sampling.batches_per_request(True, False, 500e6, 3) == 3
    assert sampling.batches_per_request(True, True, 500e6, 10) == 1  # a KDF
    assert sampling.batches_per_request(True, False, 20e6, 10) == 1  # slow, not long
    assert sampling.batches_per_request(False, False, 10e6, 10) == 10  # ~100 ms


# -- when agreement takes one opinion ------------------------------------------------------
@pytest.mark.parametrize(
    ("size", "call_ns", "once"),
    [
        (1 << 30, None, True),
        (1 << 28, 1e6, True),
        (1024, 150e6, True),
        (64 << 20, 30e6, False),
        (1024, None, False),
    ],  # fmt: skip
)
def test_one_opinion(size, call_ns, once):
    assert slowop.one_opinion(size, call_ns) is once


def test_cannot_hold_is_invalid_params_about_the_message():
    assert slowop.cannot_hold(RemoteError("invalid_params", "cannot hold a 9-byte message: x"))
    assert slowop.cannot_hold(
        RemoteError(
            "invalid_params", "a 9-byte message is too large to send as hex: r has no generator"
        )
    )
    assert not slowop.cannot_hold(RemoteError("invalid_params", "out_len must be 32"))
    assert not slowop.cannot_hold(RemoteError("unsupported", "cannot hold"))


# -- one second opinion, through a fake verifier ------------------------------------------
def impl(rid: str, prim: str, backend: str = "b") -> Implementation:
    return Implementation(
        f"{rid}/lib", rid, "lib", "1", {"name": f"{backend}-{rid}"}, {prim: Offer(("digest",))}
    )


class FakeVerifier:
    """Known answers and outputs on demand; records who was asked what."""

    def __init__(self, impls, outputs, vectors=3):
        self.impls = {i.id: i for i in impls}
        self.outputs, self.vectors, self.asked, self.kat_for = outputs, vectors, [], []

    def known_answers(self, i, prim, op):
        self.kat_for.append(i.id)
        return Check(True, f"{self.vectors} known answers", self.vectors)

    def output_for(self, i, prim, op, inputs, params):
        self.asked.append(i.id)
        out = self.outputs[i.id]
        if isinstance(out, Exception):
            raise out
        return out


MSG = Generated(7, 100_000)
SHA = hashlib.sha256(MSG.bytes()).hexdigest()


def test_the_reference_is_the_one_opinion_where_python_has_the_primitive():
    me, peer = impl("a", "sha256"), impl("b", "sha256")
    v = FakeVerifier([me, peer], {"a/lib": SHA, "b/lib": SHA})
    prim = catalog.load().get("sha256")
    check, _, expected = slowop.check_once(v, me, prim, "digest", {"msg": MSG}, {})
    assert check.ok and expected == SHA and v.asked == ["a/lib"]  # no peer asked
    assert "matches hashlib.sha256 (slow-operation policy: one second opinion)" in check.detail


def test_a_wrong_output_differs_from_the_reference():
    me = impl("a", "sha256")
    v = FakeVerifier([me], {"a/lib": "00" * 32})
    check, _, _ = slowop.check_once(v, me, catalog.load().get("sha256"), "digest", {"msg": MSG}, {})
    assert not check.ok and "differs from hashlib.sha256" in check.detail


def test_without_a_reference_the_first_peer_that_answers_is_the_one_opinion():
    prim = catalog.load().get("blake3")  # Python's hashlib has no BLAKE3
    me, crashed, agrees, never = (impl(r, "blake3") for r in ("a", "b", "c", "d"))
    out = {"a/lib": "ab" * 32, "b/lib": RunnerFailure("crashed", "x"), "c/lib": "ab" * 32}
    v = FakeVerifier([me, crashed, agrees, never], {**out, "d/lib": "ab" * 32})
    check, _, _ = slowop.check_once(v, me, prim, "digest", {"msg": MSG}, {"out_len": 32})
    assert check.ok and "agrees with c/lib (slow-operation policy" in check.detail
    assert v.asked == ["a/lib", "b/lib", "c/lib"] and "d/lib" not in v.kat_for


def test_a_disagreement_asks_one_more_then_fails():
    prim = catalog.load().get("blake3")
    me, p1, p2, p3 = (impl(r, "blake3") for r in ("a", "b", "c", "d"))
    out = {"a/lib": "ab" * 32, "b/lib": "cd" * 32, "c/lib": "ef" * 32, "d/lib": "ab" * 32}
    check, _, _ = slowop.check_once(
        FakeVerifier([me, p1, p2, p3], out), me, prim, "digest", {"msg": MSG}, {"out_len": 32}
    )
    assert not check.ok and check.detail == "cross-check: disagrees with b/lib, c/lib"


def test_no_vector_and_no_peer_is_unverifiable():
    prim = catalog.load().get("blake3")
    me = impl("a", "blake3")
    v = FakeVerifier([me], {"a/lib": "ab" * 32}, vectors=0)
    check, _, _ = slowop.check_once(v, me, prim, "digest", {"msg": MSG}, {"out_len": 32})
    assert check.unverifiable and not check.ok


# -- noop ----------------------------------------------------------------------------------
def test_no_noop_beside_huge_messages_only():
    prim = catalog.load().get("sha256")
    a, b = impl("a", "sha256"), impl("b", "sha256")
    cases = [Case(a, prim, "digest", 1 << 30, {}), Case(b, prim, "digest", 1 << 30, {}),
             Case(b, prim, "digest", 1024, {})]  # fmt: skip
    assert [c.impl.runtime_id for c in noop_cases(cases)] == ["b"]

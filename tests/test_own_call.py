"""A slow family's own call timed in verification (measure/case.own_call_ns) and once more
after it (measure/verified.retime_slow), so the plan and the slow-operation policy know it:
through a fake verifier and a scripted clock. No real timing."""

from __future__ import annotations

from types import SimpleNamespace

from cryptobench.catalog import primitives as catalog
from cryptobench.measure import case as measure_case
from cryptobench.measure import verified
from cryptobench.measure.case import Prepared, own_call_ns
from cryptobench.plan.cases import Case
from cryptobench.runtimes.protocol import Implementation, Offer, RemoteError
from cryptobench.verify.verifier import Check

PARAMS = {"t": 2, "m": 19456, "p": 1, "out_len": 32}


def impl(rid: str) -> Implementation:
    offer = Offer(("hash", "verify", "derive"))
    return Implementation(f"{rid}/lib", rid, "lib", "1", {"name": "b"}, {"argon2id": offer})


class FakeVerifier:
    """Known answers pass; `output_for` (memoised in the real one) and `compute` recorded."""

    def __init__(self, fails: bool = False):
        self.asked: list[str] = []
        self.fails = fails

    def known_answers(self, i, prim, op):
        return Check(True, "2 known answers", 2)

    def output_for(self, i, prim, op, inputs, params):
        self.asked.append("output_for")
        if self.fails:
            raise RemoteError("invalid_params", "no such cost")
        return "ab" * 32

    def compute(self, i, prim, op, inputs, params):
        self.asked.append("compute")
        return "ab" * 32


def clock(monkeypatch, *readings: int) -> None:
    it = iter(readings)
    monkeypatch.setattr(measure_case.time, "perf_counter_ns", lambda: next(it))


def argon2(rid: str, op: str) -> Case:
    return Case(impl(rid), catalog.load().get("argon2id"), op, 8, PARAMS)


INPUTS = {"password": "70" * 8, "salt": "73" * 16}


def test_a_password_hash_call_is_timed_once_in_verification(monkeypatch):
    v = FakeVerifier()
    clock(monkeypatch, 1_000, 51_001_000)
    assert own_call_ns(v, argon2("go", "derive"), INPUTS) == 51_000_000
    assert v.asked == ["output_for"]  # the call agreement asks anyway: none more


def test_verify_is_not_timed_its_inputs_are_another_implementations_hash():
    v = FakeVerifier()
    assert own_call_ns(v, argon2("go", "verify"), INPUTS) is None and v.asked == []


def test_a_failed_call_times_nothing_and_leaves_the_reason_to_verification(monkeypatch):
    v = FakeVerifier(fails=True)
    clock(monkeypatch, 0)
    assert own_call_ns(v, argon2("go", "derive"), INPUTS) is None


class Cache(dict):
    def put(self, key, value):
        self[key] = value


def test_a_cached_answer_without_the_slow_call_is_verified_again(monkeypatch):
    case = argon2("go", "derive")
    fps = SimpleNamespace(key=lambda *what: "k")
    old = {"inputs": INPUTS, "expected": "ab" * 32, "verification": "v", "when": "2026-12-01"}
    cache = Cache(k={**old, "call_ns": None})
    fresh = Prepared(0, case, INPUTS, "ab" * 32, "verified", 5e7)
    monkeypatch.setattr(verified, "prepare", lambda *a: fresh)
    assert verified.prepare_cached(None, case, 0, 1, cache, fps) is fresh
    assert cache["k"]["call_ns"] == 5e7
    kept = verified.prepare_cached(None, case, 0, 1, cache, fps)  # now it holds the call
    assert kept is not fresh and kept.call_ns == 5e7 and "cached" in kept.verification


def prepared(op: str, call_ns: float, cached: bool = False) -> Prepared:
    return Prepared(0, argon2("java", op), INPUTS, "ab" * 32, "v", call_ns, cached=cached)


def test_after_verification_each_fresh_slow_call_is_asked_again_and_the_shorter_kept(monkeypatch):
    cold, warm = prepared("derive", 300e6), prepared("hash", 40e6)
    was_cached, verify = prepared("derive", 90e6, cached=True), prepared("verify", 50e6)
    clock(monkeypatch, 0, 52_000_000, 0, 45_000_000)  # cold's second call, then warm's
    v, cache = FakeVerifier(), Cache()
    fps = SimpleNamespace(key=lambda *what: "k")
    verified.retime_slow(v, [cold, {"status": "failed"}, warm, was_cached, verify], cache, fps)
    assert v.asked == ["compute", "compute"]  # neither the cached answer nor verify
    assert (cold.call_ns, warm.call_ns, was_cached.call_ns) == (52e6, 40e6, 90e6)
    assert cache["k"]["call_ns"] == 52e6  # the cache keeps the shorter

"""How `calibrate` and the rounds plan their time (calibrate/budget.py, measure/rounds.estimate):
the estimate against the sampler's own arithmetic (a fake bench on a fake clock: nothing is
timed), the splitter on fixed inputs, and the command on the fake KDF runner
(tests/fakes/fake_kdf_runner.py): every implementation searched before any rounds, and a
budget too small said per implementation."""

from __future__ import annotations

import json

import pytest

from cryptobench.calibrate import budget
from cryptobench.catalog import primitives as catalog
from cryptobench.measure import rounds, sampling
from cryptobench.plan.cases import Case
from cryptobench.runtimes.protocol import Implementation, Offer
from tests.conftest import cli
from tests.test_answers import kdf_runner  # noqa: F401 (the fixture)

CALL_S = 0.25


class FakeRunner:
    """A bench that costs ``call_s`` per call, the untimed one of each request included, on
    a fake clock."""

    def __init__(self, call_s: float):
        self.call_s, self.now, self.requests = call_s, 0.0, 0

    def clock(self) -> float:
        return self.now

    def bench(self, iterations: int, batches: int, timeout: float) -> list[dict]:
        self.requests += 1
        self.now += (iterations * batches + 1) * self.call_s
        return [{"iterations": iterations, "ns": int(self.call_s * 1e9) * iterations}] * batches


def argon2_case() -> Case:
    cat = catalog.load()
    prim = cat.get("argon2id")
    impl = Implementation("x/y", "x", "y", "1", {}, {"argon2id": Offer(("verify",))})
    return Case(impl, prim, "verify", 8, cat.resolve_params(prim, {}, "verify"))


@pytest.mark.parametrize("known", [True, False])
@pytest.mark.parametrize("n_rounds", [3, 5])
@pytest.mark.parametrize("call_s", [CALL_S, 0.005])  # 5 ms: below SLOW_OP_NS, calibrated
def test_a_slow_round_takes_what_the_estimate_says(known, n_rounds, call_s):
    fake = FakeRunner(call_s)
    floor = budget.slow_floor(n_rounds)
    whole = sampling.Policy(budget_s=0.0, slow_min_samples=floor)
    policy = sampling.for_rounds(whole, n_rounds)
    m = sampling.measure(
        fake.bench,
        policy,
        True,
        clock=fake.clock,
        expected_ns=call_s * 1e9 if known else None,
    )
    assert len(m.samples) == budget.MIN_PER_ROUND
    planned = rounds.case_round_s(argon2_case(), 0.0, n_rounds, call_s if known else None, floor)
    if not known:  # the estimate's prior, not this call's duration
        planned *= call_s / rounds.SLOW_CALL_S
    assert fake.now == pytest.approx(planned)
    at_once = known and call_s * 1e9 >= sampling.SLOW_OP_NS
    assert fake.requests == (1 if at_once else 2 + budget.MIN_PER_ROUND)


def test_the_estimate_adds_a_process_start_per_round_and_the_drift_probe():
    case = argon2_case()
    starts = {"x": 0.4}
    got = budget.rounds_s(case, CALL_S, 3, starts)
    one_round = rounds.case_round_s(case, budget.MIN_PER_ROUND * CALL_S, 3, CALL_S, 9)
    assert got == pytest.approx(3 * (0.4 + one_round) + 3 * rounds.PROBE_S)
    assert one_round == pytest.approx((budget.MIN_PER_ROUND + 1) * CALL_S)


def test_the_splitter_takes_what_fits_in_order_and_names_the_rest():
    taken, rest = budget.fit([("a", 2.0), ("b", 5.0), ("c", 1.0), ("d", 1.5)], 4.0)
    assert taken == ["a", "c"]
    assert [(u.impl, u.need_s) for u in rest] == [("b", 5.0), ("d", 1.5)]
    assert "its rounds would need about 5.0 s more" in rest[0].text()


def test_a_search_is_planned_from_the_target():
    # start, a first probe of two calls at a quarter of the target (the policy's start steers),
    # and two of three at the target, each with its verification and the untimed call
    got = budget.search_s(0.25, 0.5)
    assert got == pytest.approx(0.5 + (2 + 1 + 2) * 0.25 / 4 + 2 * (2 + 1 + 3) * 0.25)


def impl_case(impl_id: str) -> Case:
    case = argon2_case()
    rid = impl_id.split("/")[0]
    impl = Implementation(impl_id, rid, impl_id.split("/")[1], "1", {}, case.impl.primitives)
    return Case(impl, case.prim, case.operation, case.size, case.params)


def test_the_plan_reserves_each_admitted_implementations_rounds():
    plan = budget.Plan(60.0, CALL_S, 3, {"x": 0.1})
    search, need = plan.need(impl_case("x/a"))
    rounds_s = budget.rounds_s(impl_case("x/a"), CALL_S * 1.15, 3, plan.starts)
    assert need == pytest.approx(rounds_s - 3 * rounds.PROBE_S)  # the drift probe: once a round
    usable = 60.0 * (1 - budget.MARGIN) - 3 * rounds.PROBE_S
    admitted, left = [], 60.0
    for i in range(20):
        got = plan.admit(impl_case(f"x/i{i}"), left)
        if isinstance(got, budget.Unanswered):
            assert got.need_s == pytest.approx(search + need)
            assert "its search and rounds would need" in got.text()
            continue
        assert got == pytest.approx(search)  # the search's share
        admitted.append(i)
        left -= got  # each search took its whole share: the worst case
    n = len(admitted)
    assert admitted == list(range(n))  # all alike: the first n, the rest not started
    assert n == int(usable // (search + need)) and n >= 1
    # what the admitted searches and their reserved rounds take fits the budget
    assert n * search + sum(plan.reserved.values()) <= usable
    assert plan.total_s([impl_case(f"x/i{i}") for i in admitted]) <= 60.0 * (1 - budget.MARGIN)


def test_a_search_that_ends_early_leaves_room_for_another():
    plan = budget.Plan(60.0, CALL_S, 3, {"x": 0.1})
    search, need = plan.need(impl_case("x/a"))

    def count(spent_share: float) -> int:
        plan.reserved.clear()
        left, n = 60.0, 0
        for i in range(40):
            got = plan.admit(impl_case(f"x/i{i}"), left)
            if not isinstance(got, budget.Unanswered):
                n, left = n + 1, left - spent_share * got
        return n

    assert count(0.5) > count(1.0)


def test_the_order_takes_every_runtime_once_before_any_twice():
    items = ["c/a", "c/b", "c/c", "go/a", "java/a", "java/b", "java@25/a", "rust@native/a"]
    got = budget.interleave(items, lambda x: x.split("/")[0])
    # runtime variants (the same libraries again) after every other implementation
    assert got == ["c/a", "go/a", "java/a", "c/b", "java/b", "c/c", "java@25/a", "rust@native/a"]
    assert sorted(got) == sorted(items)


def test_every_implementation_is_searched_before_any_rounds(kdf_runner):  # noqa: F811
    res = cli(
        "calibrate", "pbkdf2-sha256", "--target", "5ms", "--time-budget", "30s", "--rounds", "2"
    )
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    searched = [i for i, x in enumerate(lines) if x.startswith("calibrating ")]
    measured = [i for i, x in enumerate(lines) if x.startswith("measuring the chosen")]
    assert len(searched) == 3 and measured and max(searched) < measured[0]
    assert "of the time budget left" in lines[measured[0]]


def test_a_budget_too_small_names_every_implementation_without_an_answer(kdf_runner):  # noqa: F811
    res = cli(
        "calibrate",
        "pbkdf2-sha256",
        "--target",
        "5ms",
        "--time-budget",
        "0.001s",
        "--format",
        "json",
    )
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)["results"]
    assert {r["implementation"] for r in rows} == {
        "fake-kdf/fakekdf",
        "fake-kdf/fixedkdf",
        "fake-kdf/skewkdf",
    }
    for r in rows:
        assert r["status"] == "skipped" and r["error"].startswith("no answer within the time")
        assert f"{r['implementation']}: no answer within the time budget" in res.stderr

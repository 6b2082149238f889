"""How `calibrate` plans its time (calibrate/budget.py, calibrate/answer.py): a first answer
(search and round 1, the probe at the chosen value) and the later rounds (one process without a
JIT, a fresh one per round with) against the plan's arithmetic, on a fake runner with a fake
clock (nothing is timed); the estimate on fixed inputs; answer-first ordering and what a budget
that runs out says; and the command on the fake KDF runner (tests/fakes/fake_kdf_runner.py):
every implementation answered before any later round, a budget too small said per
implementation."""

from __future__ import annotations

import json
import time
from collections import defaultdict

import pytest

from cryptobench.calibrate import answer, budget
from cryptobench.calibrate.search import FIRST_PROBE_CALLS, PROBE_CALLS, Search, Searcher
from cryptobench.catalog import policy
from cryptobench.catalog import primitives as catalog
from cryptobench.measure import rounds
from cryptobench.runtimes.protocol import Implementation
from tests.conftest import cli
from tests.test_answers import kdf_runner  # noqa: F401 (the fixture)
from tests.test_calibrate_search import FakePrepared

CALL_S = 0.25


class Clocked:
    """A runner on a fake clock, ``law(value)`` seconds a call: a probe's verification costs
    VERIFY_CALLS calls, every bench request its untimed call besides its timed ones, a fresh
    process ``start_s``; each request and process start is logged."""

    def __init__(self, law, start_s: float = 0.0):
        self.law, self.start_s, self.now, self.log = law, start_s, 0.0, []

    def clock(self) -> float:
        return self.now

    def prepare(self, s, value):
        self.now += budget.VERIFY_CALLS * self.law(value)
        return FakePrepared(value)

    def bench_at(self, value):
        def bench(iterations: int, batches: int, timeout: float) -> list[dict]:
            self.log.append(("bench", value, batches))
            call = self.law(value)
            self.now += (iterations * batches + 1) * call
            return [{"iterations": iterations, "ns": call * 1e9 * iterations}] * batches

        return bench

    def fresh(self) -> None:
        self.log.append(("start",))
        self.now += self.start_s


def pbkdf2_searcher(fake: Clocked) -> Searcher:
    cat = catalog.load()
    spec = policy.load(cat).search("pbkdf2-sha256")
    return Searcher(
        spec,
        cat.get("pbkdf2-sha256"),
        CALL_S * 1e9,
        None,
        fake.prepare,
        lambda p: fake.bench_at(p.value),
        clock=fake.clock,
    )


def law(iterations: int) -> float:
    """The policy's start (10 000) at a quarter of the target, 40 000 on it."""
    return CALL_S * iterations / 40_000


def test_a_first_answer_takes_what_the_plan_says_and_its_probe_is_round_1():
    fake = Clocked(law)
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "verify")
    pbkdf2_searcher(fake).run(s, share_s=budget.first_s(CALL_S, 0.0, CALL_S / 4))
    assert [p["value"] for p in s.probes] == [10_000, 40_000]
    assert fake.now == pytest.approx(
        budget.first_s(CALL_S, 0.0, CALL_S / 4)
    )  # the plan's arithmetic
    first = answer.from_probe(s, 40_000)  # the probe at the chosen value is round 1 …
    assert first["round"] == 1 and first["n_samples"] == budget.MIN_PER_ROUND
    assert first["median_ns"] == pytest.approx(CALL_S * 1e9)
    assert first["samples"] == [{**x, "round": 1} for x in s.samples[40_000]]
    # the short probe, three calls since 2026-11-29 (FIRST_PROBE_CALLS), is one at its value too
    assert answer.from_probe(s, 10_000)["n_samples"] == FIRST_PROBE_CALLS == budget.MIN_PER_ROUND


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_later_rounds_take_what_the_plan_says(jit, n):
    fake = Clocked(lambda v: CALL_S, start_s=0.3)
    why = answer.FRESH_JIT if jit else answer.FRESH
    got = answer.measure(fake.bench_at(1), fake.fresh, 2, n, CALL_S * 1e9, why)
    assert fake.now == pytest.approx(budget.rounds_s(n, CALL_S, 0.3))
    assert [r["round"] for r in got] == list(range(2, 2 + n))
    assert all(r["n_samples"] == budget.LATER_CALLS for r in got)
    # a fresh process per round, its first timed call dropped, with a JIT or without
    starts = [x for x in fake.log if x[0] == "start"]
    assert len(starts) == n and all(r["warmup_batches"] == budget.DROP for r in got)
    assert all(r["stop_reason"] == why for r in got)  # the reason as the caller gave it
    benches = [x for x in fake.log if x[0] == "bench"]
    assert benches == [("bench", 1, budget.DROP + budget.LATER_CALLS)] * n


def test_the_estimate_is_the_plans_arithmetic():
    starts = {"c": 0.01, "java": 0.4}
    plan = budget.Plan(60.0, CALL_S, 3, starts)
    items = [("c/a", "c"), ("java/b", "java"), ("c/c", "c")]
    got = plan.schedule(items, 60.0)
    firsts = 2 * budget.first_s(CALL_S, 0.01, CALL_S / 4) + budget.first_s(CALL_S, 0.4, CALL_S / 4)
    later = 2 * budget.rounds_s(2, CALL_S, 0.01) + budget.rounds_s(2, CALL_S, 0.4)
    assert got.first == ["c/a", "java/b", "c/c"]
    assert got.refined == ["c/a", "c/c", "java/b"]  # cheapest first: the JIT's rounds cost more
    assert got.seconds == pytest.approx(firsts + later + budget.DRIFT_PROBES * rounds.PROBE_S)
    # by hand: a first answer at 250 ms is the short probe (6 calls of 62.5 ms) and the probe
    # at the target (6 calls); two more rounds are two processes of 3 calls each (the untimed
    # one, the one dropped, the one kept), with a JIT or without
    assert budget.first_s(CALL_S, 0.0, CALL_S / 4) == pytest.approx(6 * CALL_S / 4 + 6 * CALL_S)
    assert budget.rounds_s(2, CALL_S, 0.0) == pytest.approx(6 * CALL_S)


@pytest.mark.parametrize("n", [25, 40])  # all answered, some refined; not all answered
def test_every_first_answer_comes_before_any_later_round(n):
    plan = budget.Plan(60.0, CALL_S, 3, {"c": 0.01})
    items = [(f"c/i{i}", "c") for i in range(n)]
    got = plan.schedule(items, 60.0)
    free = 60.0 - plan.kept_s()
    n_first = min(n, int(free // plan.first("c")))
    assert got.first == [f"c/i{i}" for i in range(n_first)]  # first answers, in order
    left = free - n_first * plan.first("c")
    assert len(got.refined) == int(left // plan.later("c", CALL_S))  # only what is left over
    assert got.seconds <= 60.0 - budget.MARGIN * 60.0
    texts = [u.text() for u in got.unanswered]
    assert sum(t.startswith("no answer within the time budget") for t in texts) == n - n_first
    fewer = [t for t in texts if t.startswith("1 round, not more")]
    assert len(fewer) == n_first - len(got.refined)
    assert all("rounds 2–3 would need about" in t for t in fewer)


def test_the_splitter_takes_what_fits_in_order_and_names_the_rest():
    taken, rest = budget.fit([("a", 2.0), ("b", 5.0), ("c", 1.0), ("d", 1.5)], 4.0)
    assert taken == ["a", "c"]
    assert [(u.impl, u.need_s) for u in rest] == [("b", 5.0), ("d", 1.5)]
    assert "1 round, not more" in rest[0].text() and "about 5.0 s more" in rest[0].text()


def test_the_order_takes_every_runtime_once_before_any_twice():
    items = ["c/a", "c/b", "c/c", "go/a", "java/a", "java/b", "java@25/a", "rust@native/a"]
    got = budget.interleave(items, lambda x: x.split("/")[0])
    # runtime variants (the same libraries again) after every other implementation
    assert got == ["c/a", "go/a", "java/a", "c/b", "java/b", "c/c", "java@25/a", "rust@native/a"]
    assert sorted(got) == sorted(items)


def test_every_implementation_is_searched_before_any_rounds(kdf_runner):  # noqa: F811
    res = cli(
        "calibrate",
        "pbkdf2-sha256",
        "--target",
        "5ms",
        "--time-budget",
        "30s",
        "--rounds",
        "2",
        "--format",
        "json",
    )
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    searched = [i for i, x in enumerate(lines) if x.startswith("calibrating ")]
    measured = [i for i, x in enumerate(lines) if x.startswith("measuring round 2 of 2 of 2 ")]
    assert len(searched) == 3 and measured and max(searched) < measured[0]
    assert "cheapest first" in lines[measured[0]]
    assert "of the time budget left" in lines[measured[0]]
    plan = [x for x in lines if x.startswith("about ") and "in all" in x]
    assert plan and lines.index(plan[0]) < min(searched)  # the estimate, before any timing
    stored = json.loads(res.stdout)["run"]["calibration"]
    printed = float(plan[0].split()[1])  # "about N s in all": N rounded to whole seconds
    assert abs(printed - stored["estimate_s"]) <= 0.55  # stored to a tenth
    assert stored["wall_s"] > 0
    rows = [r for r in _rows(res) if r["status"] == "ok"]
    # the 2 planned rounds: the fake's calls agree exactly, so nothing is narrowed (skewkdf's
    # later rounds disagree with its probes by design: the second look's test, test_answers)
    exact = [r for r in rows if r["implementation"] == "fake-kdf/fakekdf"]
    assert exact and all(len(r["rounds"]) == 2 for r in exact)


def _rows(res) -> list[dict]:
    return json.loads(res.stdout)["results"]


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


def test_the_budget_counts_from_the_command_s_start(kdf_runner, tmp_path):  # noqa: F811
    """What the command spent before its run opened (imports, runner handshakes) is the
    budget's: a call whose command started 10 s ago has nothing left of a 5 s budget."""
    from rich.console import Console

    from cryptobench.calibrate.command import Calibration, Request

    req = Request(
        algorithm="pbkdf2-sha256",
        target_s=0.005,
        command="cryptobench calibrate pbkdf2-sha256",
        db=tmp_path / "r.sqlite",
        time_budget_s=5.0,
        rounds=2,
        started=time.monotonic() - 10.0,
    )
    run_doc, rows = Calibration(req, Console(stderr=True)).run()
    assert rows and all(r["error"].startswith("no answer within the time") for r in rows)
    assert run_doc["calibration"]["wall_s"] >= 10.0


def test_the_short_probe_is_planned_from_the_policys_start():
    pol = policy.load(catalog.load())
    argon2 = budget.short_call_s(pol.search("argon2id"), {"m": 65536}, CALL_S)
    assert argon2 == pytest.approx(64 * budget.ARGON2_S_PER_MIB_PASS * 1.5)  # t=1 and the fixed
    assert argon2 == pytest.approx(CALL_S / 4, rel=0.05)  # about a quarter at 64 MiB, 250 ms
    assert budget.short_call_s(pol.search("argon2id"), {"m": 65536}, 0.02) == 0.02  # ≤ target
    assert budget.short_call_s(pol.search("bcrypt"), {}, CALL_S) == budget.SMALL_START_S
    plan = budget.Plan(60.0, CALL_S, 3, {}, short_s=budget.SMALL_START_S)
    assert plan.first("c") == pytest.approx(rounds.START_S + 6 * budget.SMALL_START_S + 6 * CALL_S)


def test_a_warm_cache_plans_no_verification_calls():
    warm = budget.Plan(60.0, CALL_S, 3, {"c": 0.0}, short_s=0.005, verify=0)
    # the short probe: its untimed call and 3 timed; the probe at the target: 1 and 3
    assert warm.first("c") == pytest.approx(4 * 0.005 + 4 * CALL_S)
    cold = budget.Plan(60.0, CALL_S, 3, {"c": 0.0}, short_s=0.005)
    assert cold.first("c") - warm.first("c") == pytest.approx(
        budget.VERIFY_CALLS * (0.005 + CALL_S)
    )


def _answer(impl: str, per_round: list[list[float]]) -> answer.Answer:
    """An answered implementation whose rounds took these calls (seconds)."""
    s = Search(Implementation(impl, impl.split("/")[0], impl.split("/")[1], "1", {}, {}), "verify")
    a = answer.Answer(0, s, FakePrepared(1), impl.split("/")[0], False)
    for r, calls in enumerate(per_round, start=1):
        a.rounds.append(
            answer.as_round(r, [{"iterations": 1, "ns": c * 1e9} for c in calls], [], "")
        )
    return a


class _Narrowing:
    """What Calibration._narrow uses of its instance: the budget left on a fake clock, and
    rounds that come out at ``next_call(impl)`` seconds a call (None: the round fails)."""

    def __init__(self, left_s: float, next_call):
        self.req = type("Req", (), {"rounds": 3})()
        self.looked, self.left, self.next_call, self.log = set(), left_s, next_call, []
        self.console = type("Console", (), {"print": lambda *a, **k: None})()
        self.runtime_of = defaultdict(lambda: None)  # _rounds_of below needs no runtime

    def free_s(self) -> float:
        return self.left

    def _rounds_of(self, a, rt, first, n):
        self.log.append((a.impl, first))
        call = self.next_call(a.impl)
        self.left -= 1 + 4 * CALL_S
        if call is not None:
            calls = [{"iterations": 1, "ns": call * 1e9}] * budget.MIN_PER_ROUND
            a.rounds.append(answer.as_round(first, calls, [], ""))


def test_the_budget_left_narrows_the_widest_rows_fewest_rounds_first():
    from cryptobench.calibrate.command import Calibration

    steady = _answer("c/steady", [[0.250] * 3] * 3)  # ±0: no more rounds
    wide = _answer("c/wide", [[0.230] * 3, [0.270] * 3, [0.250] * 3])
    wider = _answer("c/wider", [[0.200] * 3, [0.300] * 3, [0.250] * 3])
    assert steady.half_width() <= budget.NARROW < wide.half_width() < wider.half_width()
    plan = budget.Plan(60.0, CALL_S, 3, {"c": 0.0})
    fake = _Narrowing(6.0, lambda impl: 0.250)
    Calibration._narrow(fake, plan, [steady, wide, wider])
    # the widest first, then the other (now fewer rounds), alternating while the budget lasts
    assert fake.log[:2] == [("c/wider", 4), ("c/wide", 4)]
    assert "c/steady" not in {i for i, _ in fake.log}
    assert fake.left >= 0 and all(len(a.rounds) <= budget.MAX_ROUNDS for a in (wide, wider))
    assert plan.one_more("c", CALL_S) == pytest.approx(budget.rounds_s(1, CALL_S, 0.0))


def test_narrowing_stops_at_max_rounds_and_after_a_failed_round():
    from cryptobench.calibrate.command import Calibration

    noisy = _answer("c/noisy", [[0.200] * 3, [0.300] * 3, [0.250] * 3])
    calls = iter([0.18, 0.32] * 10)
    fake = _Narrowing(1000.0, lambda impl: next(calls))
    Calibration._narrow(fake, budget.Plan(2000.0, CALL_S, 3, {"c": 0.0}), [noisy])
    assert len(noisy.rounds) == budget.MAX_ROUNDS  # still wide, but no more than a run's rounds
    failing = _answer("c/failing", [[0.200] * 3, [0.300] * 3, [0.250] * 3])
    fake = _Narrowing(1000.0, lambda impl: None)
    Calibration._narrow(fake, budget.Plan(2000.0, CALL_S, 3, {"c": 0.0}), [failing])
    assert fake.log == [("c/failing", 4)]  # one failed round: not asked again


def test_the_plan_says_how_much_narrowing_the_budget_leaves():
    plan = budget.Plan(60.0, CALL_S, 3, {"c": 0.01})
    got = plan.schedule([("c/a", "c"), ("c/b", "c")], 60.0)
    allowance = (budget.MAX_ROUNDS - 3) * 2 * plan.one_more("c", CALL_S)
    room = 60.0 - plan.kept_s() - got.seconds
    assert got.narrowing == pytest.approx(min(allowance, room))
    assert "more rounds for rows wider than ±5%" in got.text(2, 3)
    # a search may take a third probe from the later rounds: the count is an upper bound
    assert f"all 3 rounds for up to {len(got.refined)}:" in got.text(2, 3)


def test_the_plan_counts_the_neighbour_probes_a_linear_law_s_searches_take():
    """Argon2's linear law leaves a search off by more than ±15% often, and its neighbour probe
    spends what the later rounds would have had: the schedule counts them (REFINE_SHARE) where
    it fits the later rounds, so it promises fewer; a doubling law's plan is unchanged, and a
    search that begins at an earlier answer takes none."""
    items = [(f"c/lib{i}", "c") for i in range(16)]
    doubling = budget.Plan(60.0, 0.25, 4, {"c": 0.01}, 0.06, scale="pow2")
    linear = budget.Plan(60.0, 0.25, 4, {"c": 0.01}, 0.06, scale="linear")
    a, b = doubling.schedule(items, 52.0), linear.schedule(items, 52.0)
    assert a.first == b.first == [i for i, _ in items]  # every first answer still planned
    probe = budget.probe_s(0.25, PROBE_CALLS)
    assert linear.refine_s(a.first) == pytest.approx(0.6 * 16 * probe)
    assert len(b.refined) < len(a.refined)
    assert doubling.refine_s(a.first) == 0.0
    linear.warm = {"c/lib0", "c/lib1"}
    assert linear.refine_s(a.first) == pytest.approx(0.6 * 14 * probe)

"""`calibrate`'s rounds after the first answers (calibrate/command.py, calibrate/answer.py) on
fake runtimes and an in-memory store: the other rounds go cheapest first while they fit, in one
process without a JIT and a fresh one per round with; an implementation the budget leaves with
its round 1 only is said, with what the rest would need. Nothing is timed: the fake runtimes
answer at once, and what fits is decided by the plan's arithmetic."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from rich.console import Console

from cryptobench.calibrate import budget, command
from cryptobench.calibrate.answer import FROM_PROBE, IN_SEARCH, Answer, as_round
from cryptobench.calibrate.search import Search
from cryptobench.catalog import primitives as catalog
from cryptobench.measure.case import Prepared
from cryptobench.plan.cases import Case
from cryptobench.runtimes.protocol import Implementation, Offer

from .conftest import MemoryStore

OUT = "ab" * 16
STARTS = {"c": 0.01, "java": 0.4}


class FakeRuntime:
    """Answers bench requests with ``call_s`` per call; logs process stops and requests."""

    def __init__(self, rid: str, call_s: float, jit: bool):
        self.id, self.call_s, self.compiles, self.log = rid, call_s, jit, []

    def stop(self, only=None, wait=True) -> None:
        self.log.append("stop")

    def request(self, op, timeout, **f):
        self.log.append(("bench", f["batches"]))
        ns = round(self.call_s * 1e9)
        return {"output": OUT, "samples": [{"iterations": 1, "ns": ns}] * f["batches"]}


def answer_of(seq: int, impl_id: str, rt: FakeRuntime) -> Answer:
    cat = catalog.load()
    prim = cat.get("pbkdf2-sha256")
    offer = {"pbkdf2-sha256": Offer(("derive",))}
    impl = Implementation(impl_id, rt.id, impl_id.split("/")[1], "1", {}, offer)
    params = cat.resolve_params(prim, {"iterations": 40_000}, "derive")
    case = Case(impl, prim, "derive", 8, params)
    p = Prepared(seq, case, {}, OUT, "fake", rt.call_s * 1e9)
    a = Answer(seq, Search(impl, "derive"), p, rt.id, rt.compiles)
    calls = [{"iterations": 1, "ns": rt.call_s * 1e9}] * budget.MIN_PER_ROUND
    a.rounds.append(as_round(1, calls, [], FROM_PROBE))
    return a


def calibration(left_s: float, monkeypatch) -> command.Calibration:
    monkeypatch.setattr(command.probe, "measure", lambda cpu: {"median_ns": 1.0})
    req = command.Request(
        "pbkdf2-sha256", 0.25, "test", Path("unused"), time_budget_s=60.0, rounds=3
    )
    cal = command.Calibration(req, Console(file=io.StringIO(), width=200))
    cal.store, cal.run_doc = MemoryStore(), {"id": "r", "machine": {}, "probes": []}
    cal.clock0 = time.monotonic() - (60.0 - left_s)
    cal.left_s = lambda: left_s  # the fakes take no time: a slow test machine's clock neither
    return cal


def scene(left_s: float, monkeypatch):
    cal = calibration(left_s, monkeypatch)
    rts = {"c/a": FakeRuntime("c", 0.25, False), "java/b": FakeRuntime("java", 0.25, True)}
    rts["c/c"] = FakeRuntime("c", 0.3, False)
    answers = [answer_of(i, name, rt) for i, (name, rt) in enumerate(rts.items())]
    cal.runtime_of = rts
    plan = budget.Plan(60.0, 0.25, 3, STARTS)
    cal._later_rounds(plan, answers)
    return cal, rts, answers, plan


def test_every_answer_gets_its_other_rounds_when_they_fit(monkeypatch):
    cal, rts, answers, _ = scene(60.0, monkeypatch)
    assert all(len(a.rounds) == 3 for a in answers) and not cal.unanswered
    # with a JIT or without: a fresh process per round, its first timed call dropped
    per_round = ["stop", ("bench", budget.DROP + budget.LATER_CALLS)]
    assert rts["c/a"].log == per_round * 2 + ["stop"]
    assert rts["java/b"].log == per_round * 2 + ["stop"]
    row = cal.store.rows[1]
    assert [r["round"] for r in row["rounds"]] == [1, 2, 3]
    assert row["rounds"][0]["stop_reason"] == FROM_PROBE  # round 1: the search's probe


def test_a_budget_that_runs_out_keeps_round_1_and_says_what_the_rest_needs(monkeypatch):
    plan = budget.Plan(60.0, 0.25, 3, STARTS)
    cheapest = plan.later("c", 0.25)
    cal, rts, answers, _ = scene(budget.MARGIN * 60.0 + cheapest + 0.2, monkeypatch)
    got = {a.impl: len(a.rounds) for a in answers}
    assert got == {"c/a": 3, "java/b": 1, "c/c": 1}  # the cheapest first, then none fits
    texts = {u.impl: u.text() for u in cal.unanswered}
    assert set(texts) == {"java/b", "c/c"}
    need = plan.later("java", 0.25)
    assert texts["java/b"].startswith("1 round, not more: the time budget ran out")
    assert f"its rounds 2–3 would need about {need:.1f} s more" in texts["java/b"]
    assert rts["java/b"].log == [] and rts["c/c"].log == []  # never started
    assert list(cal.store.rows) == [0]  # their rows stay as their first answers stored them
    row = answers[1].row(3, None)
    assert "measured in 1 of 3 rounds" in row["flags"]  # its interval: round 1's own


@pytest.mark.parametrize("jit", [False, True])
def test_rounds_that_fail_keep_what_was_measured(monkeypatch, jit):
    cal = calibration(60.0, monkeypatch)
    rt = FakeRuntime("java" if jit else "c", 0.25, jit)
    a = answer_of(0, "x/y", rt)

    def broken(op, timeout, **f):
        raise command.RunnerFailure("crashed", "the runner exited")

    rt.request = broken
    cal._rounds_of(a, rt, 2, 2)
    row = cal.store.rows[0]
    assert row["status"] == "ok" and len(row["rounds"]) == 1
    assert any("round 2" in f for f in row["flags"])


def test_a_value_chosen_unprobed_gets_round_1_of_a_probes_calls_in_the_searchs_process(
    monkeypatch,
):
    """Round 1 of a value the search chose unprobed is measured in the search's warm process
    (no process stopped, nothing dropped) with a probe's MIN_PER_ROUND calls: its interval is
    their range, not one call's zero width claiming ±0%."""
    cal = calibration(60.0, monkeypatch)
    rt = FakeRuntime("c", 0.25, False)
    calls = iter([0.24, 0.26, 0.25])

    def request(op, timeout, **f):
        rt.log.append(("bench", f["batches"]))
        samples = [{"iterations": 1, "ns": round(next(calls) * 1e9)} for _ in range(f["batches"])]
        return {"output": OUT, "samples": samples}

    rt.request = request
    a = answer_of(0, "c/a", rt)
    a.rounds.clear()  # no probe at the chosen value
    cal._round_in_search(a, rt)
    assert rt.log == [("bench", budget.MIN_PER_ROUND)]  # no stop: the search's process
    (r1,) = a.rounds
    assert r1["round"] == 1 and r1["n_samples"] == budget.MIN_PER_ROUND
    assert r1["warmup_batches"] == 0 and r1["stop_reason"] == IN_SEARCH
    assert (r1["ci_low_ns"], r1["median_ns"], r1["ci_high_ns"]) == (0.24e9, 0.25e9, 0.26e9)
    assert 0.03 < a.half_width() < 0.05  # [min, max] of three calls

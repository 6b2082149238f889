"""`calibrate` beginning at this machine's earlier answer (calibrate/earlier.py): which earlier
rows count, where the search begins, what the plan counts, and a refused start. On the fake
KDF runner end to end, and on fakes for the rest."""

from __future__ import annotations

import json

import pytest

from cryptobench.calibrate import budget, earlier
from cryptobench.calibrate.search import Refused, Search
from cryptobench.catalog import policy
from cryptobench.catalog import primitives as catalog
from cryptobench.measure import rounds
from cryptobench.runtimes.protocol import Implementation
from tests.conftest import cli
from tests.test_answers import CALIBRATE_KDF, kdf_runner  # noqa: F401 (the fixture)
from tests.test_calibrate_search import TARGET, FakePrepared, searcher

ARGS = (*CALIBRATE_KDF, "--impl", "fake-kdf/fakekdf")
CAL = {"algorithm": "argon2id", "param": "t", "fixed_params": {"m": 65536, "p": 1}}
MACHINE = {"cpu_model": "Xeon"}


def test_a_second_calibrate_begins_at_the_first_ones_answer(kdf_runner):  # noqa: F811
    first = cli(*ARGS)
    assert first.returncode == 0, first.stderr
    doc = json.loads(first.stdout)
    (row,) = doc["results"]
    assert "started_from" not in row["calibration"]
    assert row["calibration"]["probes"][0]["value"] == 10000  # the policy's start
    second = cli(*ARGS)
    assert second.returncode == 0, second.stderr
    (again,) = json.loads(second.stdout)["results"]
    began = again["calibration"]["started_from"]
    assert began["value"] == 50000 and began["from"]["run"] == doc["run"]["id"]
    assert began["from"]["value"] == 50000
    assert began["from"]["ms"] == pytest.approx(row["median_ns"] / 1e6)
    assert [p["value"] for p in again["calibration"]["probes"]] == [50000]  # on target at once
    assert again["status"] == "ok" and again["params"]["iterations"] == 50000
    assert "from iterations=50000 (iterations=50000 took" in second.stderr


class FakeStore:
    def __init__(self, rows: dict[str, list[dict]]):
        self.rows, self.loaded = rows, []

    def load(self, run_id: str, raw: bool = True):
        self.loaded.append(run_id)
        return {"id": run_id}, self.rows[run_id]


def _run(rid: str, **over) -> dict:
    cal = {**CAL, **over.pop("calibration", {})}
    return {"id": rid, "operation": "calibrate", "calibration": cal, "machine": MACHINE, **over}


def _row(impl: str, t: int, ms: float, status: str = "ok") -> dict:
    return {"implementation": impl, "status": status, "params": {"t": t}, "median_ns": ms * 1e6}


def test_only_this_algorithms_measured_rows_at_the_same_fixed_parameters_count():
    runs = [
        _run("new", calibration={"fixed_params": {"m": 19456, "p": 1}}),  # another --memory
        _run("b"),
        _run("other-cpu", machine={"cpu_model": "EPYC"}),
        {"id": "plain-run", "machine": MACHINE},  # a `run`, not a calibrate
        _run("a"),
    ]
    store = FakeStore(
        {
            "new": [_row("c/x", 9, 250)],
            "b": [_row("c/x", 3, 240), _row("c/y", 2, 0, status="failed")],
            "other-cpu": [_row("c/y", 7, 250)],
            "a": [_row("c/x", 4, 300), _row("c/y", 5, 260)],
        }
    )
    got = earlier.answers(store, runs, CAL, MACHINE)
    assert got == {  # the newest measured row of each, from runs of the same kind only
        "c/x": {"value": 3, "ms": 240, "run": "b"},
        "c/y": {"value": 5, "ms": 260, "run": "a"},
    }
    assert store.loaded == ["b", "a"]


def test_no_more_than_look_back_runs_are_read():
    runs = [_run(str(i)) for i in range(earlier.LOOK_BACK + 3)]
    store = FakeStore({r["id"]: [] for r in runs})
    assert earlier.answers(store, runs, CAL, MACHINE) == {}
    assert len(store.loaded) == earlier.LOOK_BACK


def test_the_search_begins_where_the_law_puts_the_target_from_the_earlier_answer():
    cat = catalog.load()
    spec = policy.load(cat).search("argon2id")
    seen = {"value": 3, "ms": 200.0, "run": "r1"}  # t=3 took 200 ms: t=4 for 250 ms
    began = earlier.start(spec, cat.get("argon2id"), TARGET, None, seen)
    assert began == {"value": 4, "from": seen}
    assert earlier.start(spec, cat.get("argon2id"), TARGET, None, None) is None


def test_a_search_from_an_earlier_answer_probes_there_first():
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "verify")
    s.started_from = {"value": 4, "from": {"value": 3, "ms": 200.0, "run": "r1"}}
    searcher("argon2id", lambda t: 62e6 * t).run(s, share_s=1e9)
    assert [p["value"] for p in s.probes] == [4] and s.prepared.value == 4


def test_a_start_the_implementation_refuses_sends_the_search_to_the_policys_start():
    sr = searcher("argon2id", lambda t: 40e6 + 70e6 * t)

    def prepare(s, value):
        if value == 9:
            raise Refused("refuses t=9: invalid_params")
        return FakePrepared(value)

    sr.prepare = prepare
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "verify")
    s.started_from = {"value": 9, "from": {"value": 9, "ms": 250.0, "run": "r1"}}
    sr.run(s, share_s=1e9)
    assert s.refused is None and s.started_from is None
    assert [p["value"] for p in s.probes] == [1, 3] and s.prepared.value == 3
    assert "t=9, where it began, was refused" in s.stopped


def test_a_first_answer_from_an_earlier_one_is_planned_as_one_probe():
    plan = budget.Plan(60, 0.25, 3, {"c": 0.05}, 0.04)
    plan.warm = {"c/x"}
    one = 0.05 + (budget.VERIFY_CALLS + 1 + 3) * 0.25
    assert plan.first("c", "c/x") == pytest.approx(one)
    assert plan.first("c", "c/y") > one + 0.04 * 3  # the short probe besides
    sched = plan.schedule([("c/x", "c"), ("c/y", "c")], 60)
    assert sched.seconds == pytest.approx(
        plan.first("c", "c/x")
        + plan.first("c", "c/y")
        + 2 * plan.later("c", 0.25)
        + budget.DRIFT_PROBES * rounds.PROBE_S
    )

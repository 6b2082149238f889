"""The rounds, in process, with a fake runtime (no runner process, no clock: the fake's
batches say how long they took): groups, fresh processes, the JIT warm-up of a group."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cryptobench.catalog import primitives as catalog
from cryptobench.catalog.primitives import NOOP, NOOP_SIZE
from cryptobench.cli.run import lost_rounds
from cryptobench.measure import sampling, warmup
from cryptobench.measure.case import Prepared
from cryptobench.measure.rounds import Rounds
from cryptobench.plan.cases import Case
from cryptobench.runtimes.protocol import Implementation, Offer, RemoteError

from .conftest import MemoryStore

OUT = "ab" * 32


class FakeRuntime:
    """Answers bench requests at 100 ns per call; with ``jit``, reports no compilation;
    ``warm_up_s``: its runner.toml's group warm-up."""

    def __init__(self, rid: str, isolate: bool, jit: bool, warm_up_s: float = 0.0):
        self.id = self.key = rid
        self.isolate, self.jit, self.cpu = isolate, jit, None
        self.compiles, self.warm_up_s = jit, warm_up_s
        self.stops, self.log = 0, []

    def stop(self, only=None, wait=True) -> None:
        self.stops += 1
        self.log.append("stop")

    def request(self, op, timeout, **f):
        self.log.append((f["primitive"], f["inputs"]["msg"]))
        extra = {"compiles": 0} if self.jit else {}
        n = f["iterations"]
        return {
            "output": OUT,
            "samples": [{"iterations": n, "ns": 100 * n, **extra}] * f["batches"],
        }


def _prepared(rid: str, sizes=(16, 64, 1024)) -> list[Prepared]:
    cat = catalog.load()
    prim = cat.get("sha256")
    impl = Implementation(f"{rid}/lib", rid, "lib", "1", {}, {"sha256": Offer(("digest",))})
    return [
        Prepared(i, Case(impl, prim, "digest", n, {}), {"msg": f"{n:02x}"}, OUT, "fake")
        for i, n in enumerate(sizes)
    ]


def _rounds(rt: FakeRuntime, rounds: int = 2) -> tuple[Rounds, MemoryStore]:
    store = MemoryStore()
    run = {"id": "r", "seed": 1, "probes": [], "machine": {}}
    policy = sampling.Policy(budget_s=0.2, jit_warmup_s=1.0)
    return Rounds({rt.key: rt}, None, store, run, policy, rounds=rounds), store


def _processes(log: list) -> list[list]:
    """The requests of each process, in order (a process ends at each stop)."""
    out, cur = [], []
    for x in log:
        if x == "stop":
            out, cur = out + [cur] if cur else out, []
        else:
            cur.append(x)
    return out + [cur] if cur else out


def test_a_group_warms_up_once_with_its_sizes_in_turn_then_each_size_proves_its_own():
    rt = FakeRuntime("jvm", isolate=True, jit=True, warm_up_s=1.0)
    r, store = _rounds(rt)
    r.measure(_prepared("jvm"))
    procs = _processes(rt.log)
    assert len(procs) == 2  # one group, one fresh process a round
    for proc in procs:
        # the warm-up's turns go round every size before any size is measured alone
        first_turns = [msg for _, msg in proc[: 3 * 8]]
        assert {"10", "40", "400"} <= set(first_turns[-6:])
    for row in store.rows.values():
        assert row["status"] == "ok" and len(row["rounds"]) == 2
        for rnd in row["rounds"]:
            assert rnd["warmup_reason"].startswith("after the group's warm-up (1.0")
            assert "3 sizes in turn" in rnd["warmup_reason"]
            assert rnd["warmup_ns"] < 0.5e9  # no size is held to the JIT's 1 s of its own


def test_without_a_group_warm_up_each_jit_case_is_held_to_its_own_least_warm_up():
    rt = FakeRuntime("jvm", isolate=True, jit=True)
    r, store = _rounds(rt, rounds=1)
    r.measure(_prepared("jvm"))
    for row in store.rows.values():
        (rnd,) = row["rounds"]
        assert rnd["warmup_ns"] >= 1e9 and "group's warm-up" not in rnd["warmup_reason"]


def test_warm_group_calibrates_what_it_does_not_know_and_takes_turns_until_its_time():
    calls: list[tuple[str, int, int]] = []

    def fake(name: str, ns_per_call: int):
        def bench(iterations, batches, timeout):
            calls.append((name, iterations, batches))
            return [{"iterations": iterations, "ns": ns_per_call * iterations}] * batches

        return bench

    benches = [(fake("a", 100), None), (fake("b", 1000), 1000.0)]
    spent, speeds, _ = warmup.warm_group(benches, 0.2, POLICY)
    assert spent >= 0.2 and spent < 0.2 + 2 * warmup.TURN_NS / 1e9
    assert speeds == [100.0, 1000.0]  # each one's ns per call in its last turn
    turns = [n for n, _, batches in calls if batches > 1 or n == "b"]
    assert turns[:4] == ["a", "b", "a", "b"]  # in turn, each sized to ~3 ms batches
    per_turn = round(warmup.TURN_NS / sampling.TARGET_BATCH_NS)  # ~20 ms of them: 7
    b_calls, a_calls = sampling.TARGET_BATCH_NS // 1000, sampling.TARGET_BATCH_NS // 100
    assert ("b", b_calls, per_turn) in calls and ("a", a_calls, per_turn) in calls
    assert [n for n, _, _ in calls[:3]] == ["a", "a", "a"]  # only `a` calibrated, first


def test_warm_group_ends_when_its_batches_read_no_time():
    def still(iterations, batches, timeout):
        return [{"iterations": iterations, "ns": 0}] * batches

    spent, _, _ = warmup.warm_group([(still, 100.0)], 1.0, POLICY)
    assert spent == 0.0


POLICY = sampling.Policy()


def test_every_group_gets_a_fresh_process_that_ends_with_it():
    rt = FakeRuntime("c", isolate=False, jit=False)
    r, _ = _rounds(rt, rounds=1)
    (one,) = _prepared("c", sizes=(32,))
    other = replace(one, seq=9, case=replace(one.case, prim=catalog.load().get("sha512")))
    r.measure([*_prepared("c"), other])
    assert rt.log[-1] == "stop"  # not left alive beside the next group
    runs, cur = [], []
    for x in rt.log:
        if x == "stop":
            runs.append(cur) if cur else None
            cur = []
        else:
            cur.append(x[0])
    assert sorted(map(frozenset, runs)) == sorted([frozenset({"sha256"}), frozenset({"sha512"})])


def test_a_runtime_without_jit_is_not_held_to_any_warmup():
    rt = FakeRuntime("c", isolate=False, jit=False)
    r, store = _rounds(rt, rounds=1)
    r.measure(_prepared("c"))
    assert all(row["rounds"][0]["warmup_ns"] < 0.5e9 for row in store.rows.values())


class SlowProcess(FakeRuntime):
    """Every call of its ``slow``-th processes takes 3x as long (a whole round gone slow)."""

    def __init__(self, *slow: int):
        super().__init__("c", isolate=False, jit=False)
        self.process, self.slow, self.fresh = 0, set(slow), True

    def stop(self, only=None, wait=True):
        super().stop()
        self.fresh = True

    def request(self, op, timeout, **f):
        if self.fresh:  # the first request of a new process (one process per round here)
            self.process, self.fresh = self.process + 1, False
        got = super().request(op, timeout, **f)
        k = 3 if self.process in self.slow else 1
        return {**got, "samples": [{**x, "ns": x["ns"] * k} for x in got["samples"]]}


def test_a_round_that_disagrees_is_measured_again_and_kept_beside_its_replacement():
    rt = SlowProcess(2)  # round 2's process
    r, store = _rounds(rt, rounds=3)
    steps, more = [], []
    r.on_step = lambda p, n, res: steps.append((n, res and [x["median_ns"] for x in res["rounds"]]))
    r.on_again = more.append
    r.measure(_prepared("c", sizes=(64,)))
    row = store.rows[0]
    # progress is told of the round measured again before it starts, then sees it as one
    assert more == [1]
    assert steps[-3:] == [(3, [100.0, 300.0, 100.0]), ("2 again", None), ("2 again", [100.0] * 3)]
    assert [x["median_ns"] for x in row["rounds"]] == [100.0, 100.0, 100.0]
    (old,) = row["replaced_rounds"]
    assert old["round"] == 2 and old["median_ns"] == 300.0
    assert "measured again in a fresh process" in row["rounds"][1]["remeasured"]
    assert any("round 2 (300 ns) disagreed" in f for f in row["flags"])


def test_two_rounds_of_eight_that_disagree_are_each_measured_again():
    rt = SlowProcess(2, 5)  # rounds 2 and 5's processes
    r, store = _rounds(rt, rounds=8)
    r.measure(_prepared("c", sizes=(64,)))
    row = store.rows[0]
    assert [x["median_ns"] for x in row["rounds"]] == [100.0] * 8
    assert [(x["round"], x["median_ns"]) for x in row["replaced_rounds"]] == [
        (2, 300.0),
        (5, 300.0),
    ]
    assert rt.process == 10  # 8 rounds, then one fresh process for each of the two
    assert all(f"round {n} (300 ns) disagreed" in row["flags"][-1] for n in (2, 5))


def test_rounds_that_agree_are_left_alone():
    rt = SlowProcess(99)
    r, store = _rounds(rt, rounds=3)
    more = []
    r.on_again = more.append
    r.measure(_prepared("c", sizes=(64,)))
    assert "replaced_rounds" not in store.rows[0]
    assert more == [0]


def test_the_estimate_is_the_plans_own_arithmetic():
    from cryptobench.measure import rounds as r

    c = [p.case for p in _prepared("c", sizes=(16, 64))]
    (one,) = _prepared("c", sizes=(32,))
    c.append(replace(one.case, prim=catalog.load().get("sha512")))
    starts = {"c": 0.03, "jvm": 2.0}
    got = r.estimate(c, 0.5, 5, set(), starts)
    # a round asks for its share in ~3 ms batches (never fewer than its floor of 5); the
    # calibration is the first round's only
    per_round = (0.5 / 5 / r.BATCH_S + r.LEAD_BATCHES) * (r.BATCH_S + r.BATCH_EXTRA_DEFAULT_S)
    want = 5 * (2 * 0.03 + 3 * per_round) + 3 * r.CALIBRATE_S + 5 * r.PROBE_S
    assert got == pytest.approx(want)
    jvm = [p.case for p in _prepared("jvm", sizes=(16, 64))]
    got = r.estimate(jvm, 0.5, 5, {"jvm"}, starts, 3, {"jvm": 1.0})
    per_round = (0.5 / 3 / r.BATCH_S + r.LEAD_BATCHES) * (r.BATCH_S + r.BATCH_EXTRA_DEFAULT_S)
    # one warm-up a group a round, both sizes in turn: 1 s of calls in ~3 ms batches; then
    # each size proves its own steady state on the JIT
    warm = 1.0 + 1.0 / r.BATCH_S * r.BATCH_EXTRA_DEFAULT_S
    want = 3 * (2.0 + warm + 2 * (per_round + r.JIT_PROOF_S))
    assert got == pytest.approx(want + 2 * r.CALIBRATE_S + 5 * r.PROBE_S)
    # a password hash's group on the JIT: no turns to take, its case's own least warm-up
    (one,) = _prepared("jvm", sizes=(64,))
    argon = replace(one.case, prim=catalog.load().get("argon2id"), operation="hash", size=8)
    got = r.estimate([argon], 0.5, 5, {"jvm"}, starts, 3, {"jvm": 0.3}, {argon.key: 0.05})
    least = sampling.Policy().jit_warmup_s
    per_round = 2.0 + least + least / r.BATCH_S * r.BATCH_EXTRA_DEFAULT_S
    # each of its 3 rounds: 4 timed calls (a floor of 10 over 3 rounds), 4 of warm-up, 1 untimed
    assert got == pytest.approx(3 * (per_round + 9 * 0.05) + 5 * r.PROBE_S)


def test_the_estimate_on_fixed_inputs():
    """The `default` preset's arithmetic for one C case and one Python case (0.12 s a case,
    8 rounds, 3 ms batches), a preset's longer time, and a floor that outweighs a tiny share;
    numbers worked by hand."""
    from cryptobench.measure import rounds as r

    (c,) = [p.case for p in _prepared("c", sizes=(64,))]
    py = replace(c, impl=replace(c.impl, id="python/x", runtime_id="python"))
    starts = {"c": 0.01, "python": 0.08}
    # C: 0.12 / 8 = 15 ms a round: 5 batches + 0.25 leading, 3.7 ms each = 19.425 ms
    got = r.estimate([c], 0.12, 8, set(), starts)
    assert got == pytest.approx(8 * (0.01 + 0.019425) + 0.02 + 8 * 0.1)
    # Python: the same batches at 5 ms each (3 ms of calls, 2 ms besides) = 26.25 ms
    got = r.estimate([py], 0.12, 8, set(), starts)
    assert got == pytest.approx(8 * (0.08 + 0.02625) + 0.02 + 8 * 0.1)
    # 0.3 s: 37.5 ms a round, 12.5 batches + 0.25 = 47.175 ms
    got = r.estimate([c], 0.3, 8, set(), starts)
    assert got == pytest.approx(8 * (0.01 + 0.047175) + 0.02 + 8 * 0.1)
    # a 1 ms share: the round's floor of 5 batches (+0.25) decides
    got = r.estimate([c], 0.008, 8, set(), starts)
    assert got == pytest.approx(8 * (0.01 + 5.25 * 0.0037) + 0.02 + 8 * 0.1)


def test_the_estimate_of_a_password_hash_calibrates_its_first_round_only():
    """A password hash's first round calibrates (a call, the call confirmed, then its floor one
    call a request, each request with its untimed call); later rounds know the call from it and
    ask the floor at once: 3 timed calls and the untimed one. Numbers worked by hand."""
    from cryptobench.measure import rounds as r

    (c,) = [p.case for p in _prepared("c", sizes=(64,))]
    argon = replace(c, prim=catalog.load().get("argon2id"), operation="hash", size=8)
    starts = {"c": 0.01}
    # unknown call: the 40 ms prior; round 1 (2·2 + 2·3) calls, rounds 2–8 (3 + 4 + 1) calls
    got = r.estimate([argon], 0.3, 8, set(), starts)
    assert got == pytest.approx(8 * 0.01 + 10 * 0.04 + 7 * 8 * 0.04 + 8 * 0.1)
    # a call known beforehand (a probe, a stored result): every round asks its floor at once
    got = r.estimate([argon], 0.3, 8, set(), starts, calls={argon.key: 0.05})
    assert got == pytest.approx(8 * 0.01 + 8 * 8 * 0.05 + 8 * 0.1)


def test_each_runtime_s_group_start_is_timed_once_with_its_group_s_library():
    """runtimes/session.group_starts: one fresh process per runtime, serving its first
    library (a brief hello), then stopped again; a runtime that cannot start keeps the prior."""
    from cryptobench.runtimes.protocol import RunnerFailure
    from cryptobench.runtimes.session import group_starts

    class Starting(FakeRuntime):
        def __init__(self, rid, fails=False):
            super().__init__(rid, isolate=False, jit=False)
            self.fails, self.only, self.started = fails, None, []

        def stop(self, only=None, wait=True):
            super().stop(only)
            self.only = only

        def ensure(self):
            if self.fails:
                raise RunnerFailure("start", "no such runner")
            self.started.append(self.only)

    c, py = Starting("c"), Starting("python", fails=True)
    prepared = _prepared("c", sizes=(16, 64)) + _prepared("python", sizes=(16,))
    for rt in (c, py):
        rt.implementations = [p.case.impl for p in prepared if p.case.impl.runtime_id == rt.id]
    starts = group_starts([c, py])
    assert set(starts) == {"c"} and starts["c"] >= 0
    assert c.started == [("lib",)] and c.only is None  # stopped again, serving every library


def test_runner_toml_says_which_runtimes_warm_a_group_up_and_for_how_long(tmp_path):
    from cryptobench.runtimes import discovery

    specs = {s.runtime_id: s for s in discovery.discover()}
    assert specs["java"].warm_up_s == specs["java@25"].warm_up_s == 0.3
    # 0.3 s holds only with the heap touched at start (docs/methodology.md, "JIT runtimes")
    assert all("-XX:+AlwaysPreTouch" in specs[j].command for j in ("java", "java@25"))
    assert specs["node"].warm_up_s > 0 and specs["c"].warm_up_s == 0.0
    for bad in ('"1"', "-1", "true", "60"):
        (tmp_path / "runner.toml").write_text(
            f'schema = 1\nruntime = "x"\n[run]\ncommand = ["bin/x"]\nwarm_up_s = {bad}\n'
        )
        with pytest.raises(discovery.RunnerTomlError, match="run.warm_up_s"):
            discovery.load_toml(tmp_path)


class AlternatingProcess(FakeRuntime):
    """Every other process runs its calls 10% slower: rounds that never agree within 3%."""

    def __init__(self):
        super().__init__("c", isolate=False, jit=False)
        self.process, self.fresh = 0, True

    def stop(self, only=None, wait=True):
        super().stop()
        self.fresh = True

    def request(self, op, timeout, **f):
        if self.fresh:
            self.process, self.fresh = self.process + 1, False
        got = super().request(op, timeout, **f)
        k = 11 if self.process % 2 else 10
        return {**got, "samples": [{**x, "ns": x["ns"] * k // 10} for x in got["samples"]]}


def test_a_case_whose_rounds_agree_is_decided_after_its_least_rounds():
    rt = FakeRuntime("c", isolate=False, jit=False)
    r, store = _rounds(rt, rounds=8)
    r.least, skipped = 4, []
    r.on_decided = skipped.append
    r.measure(_prepared("c", sizes=(16, 64)))
    for row in store.rows.values():
        assert len(row["rounds"]) == 4 and row["decided_after"] == 4
        assert row["rounds_planned"] == 8 and row["precision"] <= row["target_precision"]
        assert not any("measured in" in f for f in row["flags"])
    assert skipped == [4, 4] and lost_rounds(list(store.rows.values())) == 0
    assert len(_processes(rt.log)) == 4  # a group whose every case is decided starts no process


def test_a_case_whose_rounds_disagree_gets_every_round():
    rt = AlternatingProcess()
    r, store = _rounds(rt, rounds=8)
    r.least = 4
    r.measure(_prepared("c", sizes=(64,)))
    row = store.rows[0]
    assert len(row["rounds"]) == 8 and "decided_after" not in row
    assert row["precision"] > row["target_precision"]


class NoopProcesses(AlternatingProcess):
    """A runner's noop whose batches alternate 2.0 and 2.4 ns per call: 20% apart, so never
    within 5%, but within a fraction of a ns."""

    def request(self, op, timeout, **f):
        got = FakeRuntime.request(self, op, timeout, **f)
        n = f["iterations"]
        batches = [
            {"iterations": n, "ns": (24 if i % 2 else 20) * n // 10} for i in range(f["batches"])
        ]
        return {**got, "output": NOOP_OUT, "samples": batches}


NOOP_OUT = NOOP_SIZE.to_bytes(8, "big").hex()


def test_a_noop_within_half_a_ns_is_decided_though_wider_than_its_target():
    """measure/rounds.noop_resolved: the runner overhead is printed in whole ns; nothing is
    ranked on it, so from its first round on (rounds.NOOP_LEAST), where a case waits 4."""
    from cryptobench.measure.rounds import noop_resolved

    impl = Implementation("c/lib", "c", "lib", "1", {}, {"sha256": Offer(("digest",))})
    noop = Prepared(0, Case(impl, NOOP, "digest", NOOP_SIZE, {}), {"msg": "00"}, NOOP_OUT, "")
    rt = NoopProcesses()
    r, store = _rounds(rt, rounds=8)
    r.least = 4
    r.measure([noop])
    row = store.rows[0]
    assert row["family"] == "noop" and row["precision"] > row["target_precision"]
    assert row["decided_after"] == 1 and len(row["rounds"]) == 1
    assert row["ci_high_ns"] - row["ci_low_ns"] <= 1.0
    # a case of the same batches is not decided before its least rounds
    sha = catalog.load().get("sha256")
    case = Prepared(1, Case(impl, sha, "digest", NOOP_SIZE, {}), {"msg": "00"}, NOOP_OUT, "")
    r, store = _rounds(NoopProcesses(), rounds=8)
    r.least = 4
    r.measure([case])
    assert len(store.rows[1]["rounds"]) == 8 and not store.rows[1].get("decided_after")
    # on fixed rows: the half-width in ns decides, and only for a noop
    row = {"family": "noop", "median_ns": 1.5, "ci_low_ns": 1.4, "ci_high_ns": 1.65}
    assert noop_resolved(row)
    assert not noop_resolved({**row, "family": "hash"})
    assert not noop_resolved({**row, "median_ns": 32.0, "ci_low_ns": 31.0, "ci_high_ns": 33.0})
    assert not noop_resolved({**row, "ci_low_ns": 0.9})  # 0.6 ns below: not within 0.5


def test_a_jit_case_may_be_decided_after_three_rounds_and_rounds_n_means_all_n():
    rt = FakeRuntime("jvm", isolate=True, jit=True)
    r, store = _rounds(rt, rounds=8)
    r.jit_rounds, r.least = 5, 4
    r.measure(_prepared("jvm", sizes=(64,)))
    assert store.rows[0]["decided_after"] == 3 and len(store.rows[0]["rounds"]) == 3
    rt = FakeRuntime("c", isolate=False, jit=False)
    r, store = _rounds(rt, rounds=6)
    r.least = None  # --rounds 6
    r.measure(_prepared("c", sizes=(64,)))
    assert len(store.rows[0]["rounds"]) == 6 and "decided_after" not in store.rows[0]


def test_the_estimate_counts_the_rounds_a_case_is_expected_to_take():
    from cryptobench.measure import rounds as r

    (c,) = [p.case for p in _prepared("c", sizes=(64,))]
    starts = {"c": 0.01}
    # least 4 of 8: a group of one size starts its process as often as its case goes on,
    # 4 + 0.06 * 4 rounds
    assert r.GO_ON_DEFAULT == 0.06
    got = r.estimate([c], 0.3, 8, set(), starts, least=4)
    assert got == pytest.approx(4.24 * (0.01 + 0.047175) + 0.02 + 8 * 0.1)
    # two sizes: the group's process goes on while either does, 1 - 0.94² = 0.1164 of the rest
    two = [p.case for p in _prepared("c", sizes=(64, 1024))]
    got = r.estimate(two, 0.3, 8, set(), starts, least=4)
    assert got == pytest.approx(
        (4 + 0.1164 * 4) * 0.01 + 2 * (4.24 * 0.047175 + 0.02) + 8 * 0.1, rel=1e-4
    )
    assert r.expected_rounds(5, 3, 0.5) == pytest.approx(4.0)
    assert r.expected_rounds(3, 4, 0.5) == 3 and r.expected_rounds(8, None, 0.5) == 8


def _row(runtime: str, taken: int, planned: int = 8, status: str = "ok") -> dict:
    rounds = [{"round": i + 1} for i in range(taken)]
    return {"runtime": runtime, "status": status, "rounds": rounds, "rounds_planned": planned}


def test_the_rounds_a_noisy_machine_forced_are_read_from_its_last_run():
    from cryptobench.measure import rounds as r

    rows = [_row("c", 8), _row("c", 8), _row("c", 4), _row("c", 6)]  # past the least 4 of 8
    rows += [_row("go", 8), _row("go", 5)]  # two cases: too few for go's own share
    rows += [_row("java", 5, 5), _row("java", 3, 5), _row("java", 4, 5)]  # least 3 of 5
    rows += [_row("c", 1, status="failed"), _row("c", 4, 4)]  # neither could tell
    got = r.go_on_seen(rows, 4, {"java"})
    assert got["c"] == pytest.approx((1 + 1 + 0 + 0.5) / 4)
    assert got["java"] == pytest.approx(0.5) and "go" not in got
    # every case off the JVM: go's two with c's four
    assert got["*"] == pytest.approx((1 + 1 + 0 + 0.5 + 1 + 0.25) / 6)
    assert r.go_on_seen(rows, None, {"java"}) == {}  # --rounds N: every round, nothing to learn


def test_a_finished_run_s_pace_is_its_rounds_time_over_the_plan_of_the_rounds_it_took():
    from cryptobench.measure import rounds as r

    assert r.pace_seen({"estimate_s": 100.0, "took_s": 150.0, "as_taken_s": 120.0}) == 1.25
    assert r.pace_seen({"took_s": 30.0, "as_taken_s": 60.0}) == 0.5
    assert r.pace_seen({"took_s": 900.0, "as_taken_s": 60.0}) == r.PACE_RANGE[1]  # believed up to
    assert r.pace_seen({"took_s": 1.0, "as_taken_s": 60.0}) == r.PACE_RANGE[0]
    assert r.pace_seen(None) == r.pace_seen({}) == r.pace_seen({"took_s": 5, "as_taken_s": 0}) == 1
    # several runs (advise's first pass: one run a runtime) are one pace, their sums' ratio
    two = ({"took_s": 30.0, "as_taken_s": 20.0}, {"took_s": 10.0, "as_taken_s": 20.0}, None)
    assert r.pace_seen(*two) == 1.0
    assert r.pace_seen(*two[:1], {"took_s": 15.0}) == (30 + 15) / 20


def test_the_estimate_takes_the_rounds_seen_here_over_the_quiet_machine_s():
    from cryptobench.measure import rounds as r

    (c,) = [p.case for p in _prepared("c", sizes=(64,))]
    starts = {"c": 0.01}
    seen = r.estimate([c], 0.3, 8, set(), starts, least=4, go_on={"c": 1.0})
    assert seen == pytest.approx(r.estimate([c], 0.3, 8, set(), starts, least=None))
    # a runtime without a share of its own takes every non-compiling runtime's
    pooled = r.estimate([c], 0.3, 8, set(), starts, least=4, go_on={"*": 0.5})
    assert pooled == pytest.approx(6 * (0.01 + 0.047175) + 0.02 + 8 * 0.1)
    # a JIT runtime never takes the pooled share: its cases decide on their own
    quiet = r.estimate([c], 0.3, 8, {"c"}, starts, least=4)
    assert r.estimate([c], 0.3, 8, {"c"}, starts, least=4, go_on={"*": 1.0}) == quiet


class Refusing(FakeRuntime):
    """Refuses every bench request, as a library that does not offer the operation."""

    def request(self, op, timeout, **f):
        self.log.append((f["primitive"], f["inputs"]["msg"]))
        raise RemoteError("unsupported", "not offered here")


def test_a_group_with_nothing_left_to_measure_starts_no_process():
    rt = Refusing("c", isolate=False, jit=False)
    r, store = _rounds(rt, rounds=8)
    r.measure(_prepared("c", sizes=(16, 64)))
    assert all(row["status"] == "skipped" for row in store.rows.values())
    # every round stops what is left of the last one; only round 1 starts (and ends) the
    # group's process: its refusals end both cases, and no later round starts one for them
    assert rt.stops == 8 + 2 and len(_processes(rt.log)) == 1


def test_processes_a_group_s_verification_started_end_with_the_group():
    # a first round's salted hash is verified by other implementations: their processes
    # (other runtimes) started for it end with the group, none lives on beside the next one
    rt = FakeRuntime("py", isolate=True, jit=False)
    rt.process = None
    other, idle = FakeRuntime("node", True, False), FakeRuntime("go", True, False)
    other.process, idle.process = object(), None  # node's verifying process is alive

    def stop(only=None, wait=True):
        other.log.append(("stop", wait))
        other.process = None

    other.stop = stop

    class Verifier:
        runtimes = {"py": rt, "node": other, "go": idle}

    store = MemoryStore()
    run = {"id": "r", "seed": 1, "probes": [], "machine": {}}
    policy = sampling.Policy(budget_s=0.2)
    Rounds({rt.key: rt}, Verifier(), store, run, policy, rounds=1).measure(_prepared("py"))
    assert other.log == [("stop", False)] and other.process is None  # exits while py goes on
    assert idle.stops == 0  # a runtime with no process is left alone


class CollectingRuntime(FakeRuntime):
    """Every fourth batch of a size carries a collection (4× its 100 ns per call): the warm-up's
    batches average 1.75× their median. ``sizes_collecting``: the message lengths whose calls
    collect (the others' batches all read 100 ns per call)."""

    def __init__(self, sizes_collecting: set[str]):
        super().__init__("v8", isolate=True, jit=False, warm_up_s=0.2)
        self.collecting, self.count, self.asked = sizes_collecting, {}, []

    def request(self, op, timeout, **f):
        msg, n = f["inputs"]["msg"], f["iterations"]
        self.log.append((f["primitive"], msg))
        self.asked.append((msg, n))
        samples = []
        for _ in range(f["batches"]):
            self.count[msg] = self.count.get(msg, 0) + 1
            slow = msg in self.collecting and self.count[msg] % 4 == 0
            samples.append({"iterations": n, "ns": (400 if slow else 100) * n})
        return {"output": OUT, "samples": samples}


def test_a_group_whose_warm_up_shows_collections_longer_apart_than_a_batch_gets_long_batches():
    """sampling.batch_for (docs/methodology.md, "Batches that hold the collections"): where a
    size's warm-up batches average well above their median, every size of its group is
    measured in ~30 ms batches in every round, and the rounds say why and at which size; a
    group whose sizes are all steady keeps ~3 ms."""
    long_n = sampling.LONG_BATCH_NS // 100
    short_n = sampling.TARGET_BATCH_NS // 100
    rt = CollectingRuntime({"40"})
    r, store = _rounds(rt, rounds=2)
    r.measure(_prepared("v8", sizes=(16, 64)))
    assert {n for _, n in rt.asked} >= {short_n, long_n}  # warm-up turns ~3 ms, rounds ~30 ms
    by_size = {row["size"]: row for row in store.rows.values() if row.get("size") in (16, 64)}
    for size in (16, 64):
        for rnd in by_size[size]["rounds"]:
            assert rnd["iterations"] == long_n
            why = rnd["warmup_reason"]
            assert "batches of ~30 ms: the group's warm-up's ~3 ms batches averaged 1." in why
            assert "× their median at 64 B (collections further apart than a batch)" in why
    steady = CollectingRuntime(set())
    r, store = _rounds(steady, rounds=2)
    r.measure(_prepared("v8", sizes=(16, 64)))
    assert long_n not in {n for _, n in steady.asked}
    for row in store.rows.values():
        for rnd in row["rounds"]:
            assert "batches of ~30 ms" not in rnd["warmup_reason"]


def test_collection_share_and_the_batch_it_gives():
    from cryptobench.measure.sampling import batch_for
    from cryptobench.stats.batches import collection_share

    steady = [100.0 + (i % 3) for i in range(40)]
    assert collection_share(steady) == pytest.approx(1.0, abs=0.01)
    periodic = [400.0 if i % 4 == 3 else 100.0 for i in range(40)]  # a collection every 4th
    assert collection_share(periodic) == pytest.approx(1.75)
    assert collection_share(periodic[:14]) is None  # its later half: 8 batches at least
    # only the later half counts: a warm-up's early, slower batches are not collections
    assert collection_share([1000.0] * 20 + steady[:20]) == pytest.approx(1.0, abs=0.01)
    assert batch_for(None) == batch_for(1.1) == sampling.TARGET_BATCH_NS
    assert batch_for(1.75) == sampling.LONG_BATCH_NS


def test_each_round_hands_its_probe_and_the_earlier_ones_to_on_probe():
    rt = FakeRuntime("c", isolate=False, jit=False)
    r, _ = _rounds(rt, rounds=3)
    seen = []
    r.on_probe = lambda round_no, probes: seen.append((round_no, [p["round"] for p in probes]))
    r.measure(_prepared("c", sizes=(16,)))
    assert seen == [(1, [1]), (2, [1, 2]), (3, [1, 2, 3])]


class Argon(FakeRuntime):
    """Argon2id at a fixed ms per call for each implementation (by library name)."""

    def __init__(self, ms: dict[str, float]):
        super().__init__("c", isolate=False, jit=False)
        self.ms = ms

    def request(self, op, timeout, **f):
        self.log.append((f["impl"], f["batches"]))
        ns = int(self.ms[f["impl"]] * 1e6)
        return {"output": OUT, "samples": [{"iterations": 1, "ns": ns}] * f["batches"]}


def _argon(libs: list[str]) -> list[Prepared]:
    prim = catalog.load().get("argon2id")
    out = []
    for i, lib in enumerate(libs):
        impl = Implementation(f"c/{lib}", "c", lib, "1", {}, {"argon2id": Offer(("derive",))})
        case = Case(impl, prim, "derive", 8, {})
        out.append(Prepared(i, case, {"password": "00" * 8, "salt": "11" * 16}, OUT, "fake"))
    return out


def _seed_with(prepared: list[Prepared], where: int, lib: str) -> int:
    """A seed whose round 1 measures ``lib`` at position ``where`` (rounds.order)."""
    from cryptobench.measure.rounds import order

    for seed in range(1000):
        groups = order(prepared, seed, 1)
        if groups[where][0].case.impl.library == lib:
            return seed
    raise AssertionError("no such seed")


@pytest.mark.parametrize("where", [0, -1])
def test_a_cut_stops_a_password_hash_that_cannot_be_among_the_top_few(where):
    from cryptobench.measure.rounds import Cut

    ms = {"a": 20.0, "b": 22.0, "c": 25.0, "near": 45.0, "slow": 240.0}
    rt = Argon(ms)
    r, store = _rounds(rt, rounds=1)
    r.cut = Cut(keep=3, ratio=2.0)  # above 2 × the third fastest, once three are measured
    prepared = _argon(list(ms))
    r.run["seed"] = _seed_with(prepared, where, "slow")
    r.measure(prepared)
    rows = {row["implementation"]: row for row in store.rows.values()}
    asks = {lib: [n for x in rt.log if x != "stop" and x[0] == lib for n in [x[1]]] for lib in ms}
    if where == 0:  # measured first: nothing to cut it by
        assert rows["c/slow"]["stop_reason"] != "ruled out" and rows["c/slow"]["n_samples"] >= 3
    else:  # measured last: 240 ms > 2 × 25 ms
        assert rows["c/slow"]["stop_reason"] == "ruled out"
        assert asks["slow"] == [1, 1] and rows["c/slow"]["n_samples"] == 2
        assert any(f.startswith("round 1: ruled out") for f in rows["c/slow"]["flags"])
    for lib in ("a", "b", "c", "near"):  # 45 ms < 2 × 25 ms: measured as usual
        assert rows[f"c/{lib}"]["stop_reason"] != "ruled out"
        assert rows[f"c/{lib}"]["n_samples"] >= 3

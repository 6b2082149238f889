"""What `advise` measures when the store lacks cases (advise/passes.py, cli/advising.py), on
fixed inputs: only the candidates that could still win, a first pass of one short round, then
full rounds for the top few only, planned by the one estimate. The runs themselves are replaced
by the fixture's rows (tests/fixtures/advise-run.json): nothing is measured or timed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cryptobench.advise import missing as advise_missing
from cryptobench.advise import passes
from cryptobench.advise import rank as advise
from cryptobench.catalog import policy
from cryptobench.catalog import primitives as catalog
from cryptobench.cli import advising
from cryptobench.results import compare
from cryptobench.runtimes.session import Opened

FIXTURE = Path(__file__).parent / "fixtures" / "advise-run.json"


@pytest.fixture(scope="module")
def cat():
    return catalog.load()


def doc() -> dict:
    return json.loads(FIXTURE.read_text())


def key(impl: str, prim: str, op: str = "verify") -> tuple:
    return (impl, prim, op, 8, "{}")


def test_an_order_ranked_use_measures_only_the_first_algorithm_offered(cat):
    use = policy.load(cat).use("password")
    keys = [key("a/x", "bcrypt"), key("b/y", "argon2id"), key("c/z", "argon2id")]
    keys += [key("d/w", "pbkdf2-sha256", "derive")]
    assert passes.could_win(use, keys, []) == keys[1:3]


def test_the_next_algorithm_is_measured_while_the_first_has_one_choice(cat):
    use = policy.load(cat).use("password")
    keys = [key("a/x", "bcrypt"), key("b/y", "argon2id"), key("d/w", "pbkdf2-sha256", "derive")]
    assert passes.could_win(use, keys, []) == keys[:2]  # argon2id, then bcrypt (scrypt: none)
    stored = [{"implementation": "e/v", "primitive": "argon2id"}]
    assert passes.could_win(use, keys, stored) == [keys[1]]  # the store has a second argon2id


def test_a_time_ranked_use_keeps_every_missing_key_for_the_first_pass(cat):
    use = policy.load(cat).use("checksum")
    keys = [("a/x", "crc32", "digest", 5000, "{}"), ("b/y", "crc32c", "digest", 5000, "{}")]
    assert passes.could_win(use, keys, []) == keys


def test_contenders_are_the_top_few_the_first_pass_measured(cat):
    d = doc()
    a = advise.rank([d], cat, policy.load(cat), "checksum", 5000, [])
    rows = [e.row for e in a.ranking]
    measured = {compare.case_key(r) for r in rows[1:]}  # the first came from the store
    got = passes.contenders(rows, measured, keep=3)
    assert got == [compare.case_key(r) for r in rows[1:3]]


def test_a_use_of_several_operations_names_each_operation_s_case():
    rows = [
        {
            "part_keys": [
                ["a/x", "ed25519", "sign", 32, "{}"],
                ["a/x", "ed25519", "verify", 32, "{}"],
            ]
        }
    ]
    measured = {("a/x", "ed25519", "sign", 32, "{}"), ("a/x", "ed25519", "verify", 32, "{}")}
    assert len(passes.contenders(rows, measured)) == 2


def test_a_password_hash_call_is_known_from_what_is_stored(cat):
    known = passes.call_seconds(doc()["results"], cat)
    assert known[("argon2id", "verify")] == pytest.approx(31e-3, rel=0.02)
    assert ("sha256", "digest") not in known  # fast families need no call duration


def _plan(cat, keys) -> advising.Plan:
    d = doc()
    starts = {"c": 0.1, "go": 0.2, "python": 0.3}
    found = advising.Here(d["run"]["implementations"], opened=Opened([], [], starts))
    return advising.Plan(keys, 3, 60.0, found, passes.call_seconds(d["results"], cat))


def test_two_passes_measure_everything_once_then_only_the_top_few(cat, monkeypatch):
    d = doc()
    rows = {compare.case_key(r): r for r in d["results"]}
    keys = advise_missing.needed(d, cat, policy.load(cat), "checksum", 5000, [])
    asked, runtimes, told, cuts, paces = [], [], [], [], []

    def fake_measure(
        ks,
        opts,
        per_case,
        rounds,
        slow_floor=advising.SLOW_FLOOR,
        opened=None,
        calls=None,
        cut=None,
        pace=None,
    ):
        asked.append((sorted(ks), rounds, slow_floor))
        runtimes.append(opened)
        told.append(calls)
        cuts.append(cut)
        paces.append(pace)
        run = {**d["run"], "id": f"pass-{len(asked)}"}
        return [{"run": run, "results": [rows[k] for k in ks if k in rows]}]

    monkeypatch.setattr(advising, "measure", fake_measure)

    def rank(docs):
        return advise.rank(docs, cat, policy.load(cat), "checksum", 5000, [])

    opts = {"time_per_case": None, "command": "test", "db": None}
    plan = _plan(cat, keys)  # plan.here.opened: the runtimes `here` started
    top = [compare.case_key(e.row) for e in rank([d]).ranking[: passes.KEEP]]
    plan.measured[top[0]] = 0.5  # a call the estimate knows: each pass's run is told it
    advising.two_passes(plan, cat, rank, opts)
    (first, r1, floor1), (second, r3, floor3) = asked
    assert runtimes[0] is runtimes[1] is plan.here.opened  # both passes: not discovered again
    assert first == sorted(keys) and r1 == passes.FIRST_PASS_ROUNDS and r3 == 3
    # the first pass keeps 3 calls of a password hash; the full rounds the run's floor
    assert floor1 == passes.FIRST_PASS_SLOW_FLOOR == 3 and floor3 == advising.SLOW_FLOOR == 10
    assert second == sorted(top) and len(second) < len(first)
    # each pass's run is told the calls measured here, so it says what advise said
    assert told == [plan.measured_calls(first), plan.measured_calls(second)]
    assert told[0] == told[1] == {top[0]: 0.5}
    # only the first pass rules out a password hash that cannot be among the top few
    from cryptobench.measure.rounds import Cut

    assert cuts == [Cut(passes.KEEP, passes.CUT_RATIO), None]
    # each pass's run is told the pace advise planned it at, so it says what advise said:
    # the first at the plan's (no run here), the full rounds at the first pass's
    assert paces == [1.0, plan.pace]


def test_the_plan_s_estimate_is_the_run_estimate_of_its_cases(cat):
    from cryptobench.measure.rounds import estimate

    d = doc()
    keys = [
        (
            "go/x-crypto",
            "argon2id",
            "verify",
            8,
            json.dumps(cat.resolve_params(cat.get("argon2id"), {}, "verify"), sort_keys=True),
        )
    ]
    plan = _plan(cat, keys)
    cases = passes.cases_of(d, keys, cat)
    calls = {cases[0].key: plan.known[("argon2id", "verify")]}
    want = estimate(cases, 1.0, 3, set(), plan.here.starts, 3, {}, calls)
    assert plan.seconds(cat, keys, 1.0, 3) == pytest.approx(want)
    assert want > 3 * plan.here.starts["go"]  # a process start per round, and the calls
    # the first pass's three calls of a password hash: its estimate counts three, not ten
    screen = estimate(cases, 0.1, 1, set(), plan.here.starts, 1, {}, calls, 3)
    assert plan.seconds(cat, keys, 0.1, 1, 3) == pytest.approx(screen)
    assert screen < estimate(cases, 0.1, 1, set(), plan.here.starts, 1, {}, calls)


def test_the_full_rounds_estimate_takes_each_case_s_call_from_the_first_pass(cat):
    from cryptobench.measure.rounds import estimate

    d = doc()
    params = json.dumps(cat.resolve_params(cat.get("argon2id"), {}, "verify"), sort_keys=True)
    keys = [("go/x-crypto", "argon2id", "verify", 8, params)]
    plan = _plan(cat, keys)
    (case,) = passes.cases_of(d, keys, cat)
    family = plan.seconds(cat, keys, 1.0, 3)  # the stored family's call
    row = {"status": "ok", "median_ns": 300e6, **compare.key_dict(keys[0])}
    plan.measured |= passes.case_seconds([row, {**row, "status": "failed"}], cat)
    assert plan.measured == {keys[0]: 0.3}
    want = estimate([case], 1.0, 3, set(), plan.here.starts, 3, {}, {case.key: 0.3})
    assert plan.seconds(cat, keys, 1.0, 3) == pytest.approx(want) and want > family
    fast = {**row, "primitive": "sha256", "operation": "digest"}
    assert passes.case_seconds([fast], cat) == {}  # a fast case's call is its rounds' own


def test_the_full_rounds_estimate_runs_at_the_first_pass_s_pace(cat, monkeypatch, capsys):
    d = doc()
    rows = {compare.case_key(r): r for r in d["results"]}
    keys = advise_missing.needed(d, cat, policy.load(cat), "checksum", 5000, [])
    # the first pass's two runs took 1.5x their plans' arithmetic between them: 9 s for 6 s
    spent = iter([{"took_s": 4.0, "as_taken_s": 3.0}, {"took_s": 5.0, "as_taken_s": 3.0}])

    def fake_measure(ks, opts, per_case, rounds, *args, **kw):
        runs = 2 if rounds == passes.FIRST_PASS_ROUNDS else 1  # one run per fresh_context
        return [
            {
                "run": {**d["run"], "measuring": next(spent, {})},
                "results": [rows[k] for k in ks if k in rows],
            }
            for _ in range(runs)
        ]

    monkeypatch.setattr(advising, "measure", fake_measure)

    def rank(docs):
        return advise.rank(docs, cat, policy.load(cat), "checksum", 5000, [])

    plan = _plan(cat, keys)
    plain = plan.seconds(cat, keys, 0.12, 3)  # before any pass: the plan's own arithmetic
    advising.two_passes(plan, cat, rank, {"time_per_case": None, "command": "t", "db": None})
    assert plan.pace == pytest.approx(1.5)
    assert "at the first pass's pace (1.50× the plan's)" in capsys.readouterr().err
    assert plan.seconds(cat, keys, 0.12, 3) == pytest.approx(1.5 * plain)


def test_the_first_pass_runs_at_the_pace_of_the_last_run_here(tmp_path):
    from cryptobench.results.identity import machine_id
    from cryptobench.store.sqlite import open_store

    store = open_store(tmp_path / "s.db", create=True)
    assert advising.pace_here(store) == 1.0  # an empty store: the plan's arithmetic
    here, other = machine_id()[0], "0" * 16

    def put(rid, mid, started, measuring):
        run = {"id": rid, "started": started, "status": "complete", "command": "t"}
        run |= {"machine": {"machine_id": mid}, "measuring": measuring}
        store.begin_run(run)
        store.update_run(run)

    put("a", here, "2026-12-07T10:00:00+00:00", {"took_s": 60.0, "as_taken_s": 40.0})
    put("b", other, "2026-12-07T11:00:00+00:00", {"took_s": 90.0, "as_taken_s": 30.0})
    put("c", here, "2026-12-07T12:00:00+00:00", {})  # stored no pace (a calibrate run)
    assert advising.pace_here(store) == pytest.approx(1.5)  # run a: this machine's newest


def test_the_pace_of_a_pass_with_nothing_stored_of_its_rounds_is_one():
    assert advising.pass_pace([{"run": {}}]) == 1.0
    assert advising.pass_pace([{"run": {"measuring": {"took_s": 10.0, "as_taken_s": 0}}}]) == 1.0


def test_the_plan_says_how_many_calls_it_took_at_the_family_prior(cat):
    from cryptobench.measure.rounds import SLOW_CALL_S

    params = json.dumps(cat.resolve_params(cat.get("argon2id"), {}, "verify"), sort_keys=True)
    keys = [(i, "argon2id", "verify", 8, params) for i in ("go/x-crypto", "c/libsodium")]
    plan = _plan(cat, keys)
    plan.known = {}  # an empty store: no call of the family known here

    def said(ks):
        return advising.guessed(plan.estimate(cat, ks, 0.1, 1, 3)[1])

    assert f"2 of its calls not known here, each taken at {1000 * SLOW_CALL_S:.0f} ms" in said(keys)
    plan.measured[keys[0]] = 0.3  # one measured by the first pass
    assert "1 of its calls not known here" in said(keys)
    plan.known = passes.call_seconds(doc()["results"], cat)  # the family's call as stored
    assert said(keys) == ""
    fast = [("go/stdlib", "sha256", "digest", 64, "{}")]
    assert said(fast) == ""  # a fast case's call is its rounds' own
    assert plan.estimate(cat, keys, 0.1, 1, 3)[0] == plan.seconds(cat, keys, 0.1, 1, 3)


def test_a_call_verified_here_is_the_estimates_call_for_its_case(cat, tmp_path, monkeypatch):
    from cryptobench.measure.rounds import estimate
    from cryptobench.measure.verified import case_key
    from cryptobench.verify.cache import Cache, Fingerprints

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    d = doc()
    params = json.dumps(cat.resolve_params(cat.get("argon2id"), {}, "verify"), sort_keys=True)
    keys = [("go/x-crypto", "argon2id", "verify", 8, params)]
    plan = _plan(cat, keys)
    (case,) = passes.cases_of(d, keys, cat)
    fps = Fingerprints("data", {"go/x-crypto": "g"}, {"argon2id": {"go/x-crypto"}})
    plan.here.fingerprints = fps
    stored = plan.seconds(cat, keys, 1.0, 3)  # nothing verified yet: the stored family's call
    Cache().put(case_key(fps, case), {"call_ns": 7e6, "inputs": {}, "expected": {}})
    want = estimate([case], 1.0, 3, set(), plan.here.starts, 3, {}, {case.key: 7e-3})
    assert plan.seconds(cat, keys, 1.0, 3) == pytest.approx(want)
    assert want < stored  # 7 ms verified here against the stored family's 31 ms
    other = Fingerprints("data", {"go/x-crypto": "changed"}, {"argon2id": {"go/x-crypto"}})
    plan.here.fingerprints = other  # the runner changed: that call is no longer known
    assert plan.seconds(cat, keys, 1.0, 3) == pytest.approx(stored)


def test_advise_reads_its_own_runs_back_with_the_run_they_completed(tmp_path):
    from tests.conftest import cli

    db = str(tmp_path / "store.sqlite")
    base = doc()
    assert cli("import", str(FIXTURE), "--db", db).returncode == 0
    extra = json.loads(json.dumps(base))
    extra["run"]["id"] = "0a0a0a0a-0000-4000-8000-00000000ad09"
    extra["run"]["started"] = "2026-11-22T13:00:00+00:00"
    extra["run"]["ended"] = "2026-11-22T13:01:00+00:00"
    extra["run"]["command"] = "cryptobench advise --use small-digest --size 16"
    row = next(
        r
        for r in base["results"]
        if (r["implementation"], r["primitive"], r["size"]) == ("python/hashlib", "md5", 16)
    )
    extra["results"] = [{**row, "implementation": "go/stdlib", "runtime": "go"}]
    path = tmp_path / "advise-run.json"
    path.write_text(json.dumps(extra))
    assert cli("import", str(path), "--db", db).returncode == 0
    res = cli(
        "advise",
        "--use",
        "small-digest",
        "--size",
        "16",
        "--no-measure",
        "--format",
        "json",
        "--db",
        db,
    )
    assert res.returncode == 0, res.stderr
    assert "lacks" not in res.stderr  # the advise run holds the case the first run lacked
    ranked = {(e["implementation"], e["primitive"]) for e in json.loads(res.stdout)["ranking"]}
    assert ("go/stdlib", "md5") in ranked and ("python/hashlib", "sha1") in ranked


def test_an_answer_from_the_store_starts_no_runner_and_imports_no_measuring_stack(tmp_path):
    """advise on a store that has the cases (module counts, never timings): no runner, no
    measuring stack, no scipy.stats (its t quantile is scipy.special's)."""
    from tests.conftest import cli
    from tests.test_startup import loaded

    db = str(tmp_path / "store.sqlite")
    assert cli("import", str(FIXTURE), "--db", db).returncode == 0
    mods = set(loaded("advise", "--use", "password", "--size", "8", "--db", db))
    assert "cryptobench.advise.rank" in mods  # it did answer
    heavy = {"scipy.stats", "cryptobench.measure.rounds", "cryptobench.runtimes.session"}
    assert not heavy & mods, heavy & mods


def test_an_answer_from_one_round_rows_imports_no_scipy_stats(tmp_path):
    """A first pass's rows have one round each: the margin's ratio comes from their batches
    (stats.ratio_ci), with no Mann–Whitney test, and the median's interval from
    scipy.special's binomial, so scipy.stats (half a second of imports) stays out."""
    from tests.conftest import cli
    from tests.test_startup import loaded

    d = doc()
    for r in d["results"]:
        r["rounds"] = (r.get("rounds") or [])[:1]
    one = tmp_path / "one-round.json"
    one.write_text(json.dumps(d))
    db = str(tmp_path / "store.sqlite")
    assert cli("import", str(one), "--db", db).returncode == 0
    mods = set(loaded("advise", "--use", "password", "--size", "8", "--db", db))
    assert "cryptobench.advise.rank" in mods
    assert "scipy.stats" not in mods


def test_the_plan_counts_the_noop_the_run_measures_beside_fast_cases(cat):
    """The pipeline measures each runtime's noop beside fast cases (measure/case.noop_cases):
    a process per round of its own, so the plan's estimate counts it as the run's does."""
    from cryptobench.measure.case import noop_cases
    from cryptobench.measure.rounds import estimate

    d = doc()
    keys = advise_missing.needed(d, cat, policy.load(cat), "checksum", 5000, [])
    plan = _plan(cat, keys)
    cases = passes.cases_of(d, keys, cat)
    noops = noop_cases(cases)
    assert {c.impl.runtime_id for c in noops} == {c.impl.runtime_id for c in cases}
    args = (1.0, 3, set(), plan.here.starts, 3, {}, {})
    assert plan.seconds(cat, keys, 1.0, 3) == pytest.approx(estimate(cases + noops, *args))
    assert plan.seconds(cat, keys, 1.0, 3) > estimate(cases, *args)


def test_the_run_s_estimate_takes_the_calls_its_caller_measured(cat):
    """A pass's run prints its own estimate ("measuring: about …"): from the calls advise
    measured (RunRequest.calls) over one timed by verification, the plan's figure (advise
    printed "about 2 s" for full rounds its run then called "about 4 s", 2026-12-04)."""
    from types import SimpleNamespace

    from cryptobench.measure import sampling
    from cryptobench.measure.rounds import estimate
    from cryptobench.run import pipeline

    params = json.dumps(cat.resolve_params(cat.get("argon2id"), {}, "verify"), sort_keys=True)
    keys = [("go/x-crypto", "argon2id", "verify", 8, params)]
    (case,) = passes.cases_of(doc(), keys, cat)
    rt = SimpleNamespace(id="go", compiles=False, spec=SimpleNamespace(warm_up_s=0.0))
    policy = sampling.Policy(budget_s=1.0)
    opened = SimpleNamespace(starts={"go": 0.01})

    def planned(call_ns, calls):
        req = pipeline.RunRequest(
            "advise", "db", rounds=3, jit_rounds=3, opened=opened, calls=calls
        )
        prepared = [SimpleNamespace(case=case, call_ns=call_ns)]
        by_key = {case.runtime_key: rt}
        starts = pipeline._starts(prepared, req, by_key)  # as the caller timed them
        return pipeline._planned(prepared, policy, req, by_key, {}, starts)

    def want(call_s):
        return estimate([case], 1.0, 3, set(), opened.starts, 3, {"go": 0.0}, {case.key: call_s})

    assert planned(7e6, None) == pytest.approx(want(7e-3))  # verification's one call
    assert planned(7e6, {case.key: 0.3}) == pytest.approx(want(0.3))  # what advise measured
    assert planned(None, {case.key: 0.3}) == pytest.approx(want(0.3))
    assert want(0.3) > want(7e-3)


def test_a_run_request_s_slow_floor_is_its_policy_s_and_the_default_is_the_policy_s():
    from cryptobench.measure import sampling
    from cryptobench.run import pipeline

    screen = pipeline._policy(pipeline.RunRequest("advise", "db", slow_floor=3), None)
    assert screen.slow_min_samples == 3
    assert sampling.for_rounds(screen, 1).slow_min_samples == 3  # one round keeps three calls
    usual = pipeline._policy(pipeline.RunRequest("run", "db"), None)
    assert usual.slow_min_samples == sampling.Policy().slow_min_samples == 10


def test_advise_s_first_pass_cut_reaches_its_run_request():
    from cryptobench.measure.rounds import Cut

    opts = {"command": "advise", "db": "x.sqlite"}
    keys = [("c/libsodium", "argon2id", "verify", 8, "{}")]
    (req,) = advising._requests(keys, opts, 0.1, 1, 3, cut=Cut(3, 4.0))
    assert req.cut == Cut(3, 4.0)
    (plain,) = advising._requests(keys, opts, 0.1, 1, 3)
    assert plain.cut is None


def test_what_runs_here_widens_the_run_an_answer_is_measured_from(cat):
    """A run lists only the runtimes it started: the implementations found here join its
    own (its own first, its results kept), so what could win among them is measured too."""
    base = doc()
    own = base["run"]["implementations"]
    native = {**next(i for i in own if i["id"] == "go/x-crypto"), "id": "go@1.26/x-crypto"}
    native["runtime"] = "go@1.26"
    wide = advise_missing.widened(base, [own[1], native])
    assert [i["id"] for i in wide["run"]["implementations"]] == [i["id"] for i in own] + [
        "go@1.26/x-crypto"
    ]
    assert wide["results"] is base["results"] and base["run"]["implementations"] is own
    keys = advise_missing.needed(wide, cat, policy.load(cat), "password", 8, ())
    assert ("go@1.26/x-crypto", "argon2id") in {k[:2] for k in keys}
    assert ("go@1.26/x-crypto", "argon2id") not in {
        k[:2] for k in advise_missing.needed(base, cat, policy.load(cat), "password", 8, ())
    }
    empty = advise_missing.widened(None, [native])
    assert empty["run"]["implementations"] == [native] and empty["results"] == []

"""calibrate's search, verdict and second look on fakes: a fake bench whose per-call times
follow a given law (no clock is read; no timing is asserted), the catalog's real search specs
(catalog/policy.toml), and a fake store."""

from __future__ import annotations

import pytest

from cryptobench.calibrate.remeasure import Remeasure
from cryptobench.calibrate.search import (
    FIRST_PROBE_CALLS,
    PROBE_CALLS,
    Search,
    Searcher,
    predict,
)
from cryptobench.calibrate.verdict import Verdict
from cryptobench.catalog import policy
from cryptobench.catalog import primitives as catalog
from cryptobench.measure.case import Prepared
from cryptobench.plan.cases import Case
from cryptobench.runtimes.protocol import Implementation, Offer

TARGET = 250e6


class FakePrepared:
    """What the searcher needs of a Prepared: the value it was verified at."""

    def __init__(self, value: int):
        self.value, self.verification = value, "fake"


def searcher(pid: str, law, calls: list | None = None, cap=None) -> Searcher:
    """A searcher on ``pid``'s real spec whose bench times each call by ``law(value)``; every
    bench request is recorded in ``calls`` as (value, iterations, batches)."""
    cat = catalog.load()
    spec = policy.load(cat).search(pid)
    calls = [] if calls is None else calls

    def bench(p):
        def run(iterations, batches, timeout):
            calls.append((p.value, iterations, batches))
            return [{"iterations": iterations, "ns": law(p.value) * iterations}] * batches

        return run

    return Searcher(spec, cat.get(pid), TARGET, cap, lambda s, v: FakePrepared(v), bench)


def search(pid: str, law, calls=None) -> Search:
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "verify")
    searcher(pid, law, calls).run(s, share_s=1e9)
    assert s.failed is None and s.refused is None
    return s


def values(s: Search) -> list[int]:
    return [p["value"] for p in s.probes]


# -- the probe ---------------------------------------------------------------------------------
def probe_of(times: list[float], seen: list | None = None) -> tuple[dict, Search]:
    """A second probe (bcrypt cost 6) whose bench returns ``times``, one call each."""
    seen = [] if seen is None else seen

    def bench(p):
        def run(iterations, batches, timeout):
            seen.append((iterations, batches))
            return [{"iterations": 1, "ns": ns} for ns in times]

        return run

    cat = catalog.load()
    spec = policy.load(cat).search("bcrypt")
    sr = Searcher(spec, cat.get("bcrypt"), TARGET, None, lambda s, v: FakePrepared(v), bench)
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "verify")
    s.probes = [{"value": 5, "ns": 1.4e6, "calls": FIRST_PROBE_CALLS}]  # the search's first
    return sr.probe(s, 6), s


def test_a_probe_is_the_median_of_several_calls():
    seen = []
    p, s = probe_of([2.9e6, 2e6, 3e6, 2.5e6, 2.8e6], seen)
    assert seen == [(1, PROBE_CALLS)] and PROBE_CALLS >= 3  # one request, several single calls
    assert p["ns"] == 2.8e6 and p["calls"] == 5  # the median, not the first or fastest call
    assert p["by"] == "median" and p["spread"] == [2e6, 3e6]
    assert 6 in s.tried


def test_a_probe_whose_calls_disagree_steers_by_the_fastest():
    # java/bc's first probe of Argon2id at t=1 (2026-11-29): compiling, steady, the heap growing
    p, _ = probe_of([221.6e6, 64.9e6, 938.7e6])
    assert p["ns"] == 64.9e6 and p["by"] == "fastest"
    # … within 1.5× of each other they are one speed: the median
    assert probe_of([100e6, 149e6, 120e6])[0]["ns"] == 120e6


def test_the_search_is_not_stopped_by_a_first_probe_whose_calls_disagree():
    # a JIT's first calls at t=1 (~60 ms steady) read 221.6 / 64.9 / 938.7 ms: by their median
    # the law pointed back at t=1 and the search ended there; by the fastest it goes on
    calls = iter([[221.6e6, 64.9e6, 938.7e6]])

    def bench(p):
        def run(iterations, batches, timeout):
            law = [{"iterations": 1, "ns": 60e6 * (p.value + 0.5) / 1.5}] * batches
            return [{"iterations": 1, "ns": ns} for ns in next(calls, [])] or law

        return run

    cat = catalog.load()
    spec = policy.load(cat).search("argon2id")
    sr = Searcher(spec, cat.get("argon2id"), TARGET, None, lambda s, v: FakePrepared(v), bench)
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "derive")
    sr.run(s, share_s=1e9)
    assert values(s)[0] == 1 and s.prepared.value > 1
    assert abs(s.probes[-1]["ns"] / TARGET - 1) <= 0.15


# -- the neighbour probe -------------------------------------------------------------------------
def test_the_neighbour_is_probed_and_the_nearer_cost_chosen():
    # 170 ms at cost 11: cost 12 is +36%, the law points back at 12, and cost 11 would be −32%
    # by it: probed too, nearer, and chosen
    calls = []
    s = search("bcrypt", lambda cost: 170e6 * 2.0 ** (cost - 11), calls)
    assert values(s) == [6, 12, 11] and s.prepared.value == 11
    assert "cost=12 was +36%: probed cost=11 too" in s.stopped
    assert [c[2] for c in calls] == [FIRST_PROBE_CALLS, PROBE_CALLS, PROBE_CALLS]


def test_a_doubling_step_the_law_puts_farther_off_is_not_probed():
    # bcrypt cost 12 takes 300 ms (+20%): cost 11 would be −40% by the law, far worse: no probe
    # (the verdict names it); Argon2's linear law is not trusted that far (below)
    s = search("bcrypt", lambda cost: 150e6 * 2.0 ** (cost - 11))
    assert values(s) == [6, 12] and s.prepared.value == 12
    assert "cost=11 would be -40% by the law: not probed" in s.stopped


def test_no_neighbour_probe_when_on_target():
    s = search("bcrypt", lambda cost: 240e6 * 2.0 ** (cost - 12))
    assert values(s) == [6, 12] and s.prepared.value == 12


def test_argon2_first_prediction_counts_the_fixed_cost():
    # a fixed cost of 40 ms plus 70 ms a pass: t=1 110 ms; the ratio law alone would say t=2
    # (180 ms, −28%); with the fixed cost's prior (FIXED_PASSES) it says t=3 (250 ms) at once
    s = search("argon2id", lambda t: 40e6 + 70e6 * t)
    assert values(s) == [1, 3] and s.prepared.value == 3


def test_argon2_linear_search_uses_the_line_through_two_probes():
    # no fixed cost: t=1 25 ms, the prior says t=14 (350 ms, +40%), the line through both
    # probes t=10 (250 ms)
    s = search("argon2id", lambda t: 25e6 * t)
    assert values(s) == [1, 14, 10] and s.prepared.value == 10


def _argon2_predict(probe: tuple[int, float], prev: tuple[int, float]) -> int:
    cat = catalog.load()
    spec = policy.load(cat).search("argon2id")
    return predict(spec, cat.get("argon2id"), *probe, TARGET, None, prev)


def test_argon2_line_with_a_plausible_fixed_cost_is_followed():
    # 60 ms a pass and a fixed cost of 1.4 passes (the most read in 12 searches): t=1 144 ms,
    # t=2 204 ms; the line says t=3 (264 ms)
    assert _argon2_predict((2, 204e6), (1, 144e6)) == 3


@pytest.mark.parametrize(
    "probe, prev, want, line_said",
    [
        # 2026-12-03 05:49, the Xeon VM busy: python/pynacl t=5 215.8 ms, t=6 222.4 ms (6.6 ms a
        # pass, a fixed cost of 28 passes): the line said t=10 (366 ms, +46%)
        ((6, 222.4e6), (5, 215.8e6), 7, 10),
        # python/cryptography t=1 143.8, t=2 163.2 ms (6.4 passes): the line said t=6 (588 ms)
        ((2, 163.2e6), (1, 143.8e6), 4, 6),
        # a line steeper than proportional (a negative fixed cost): the ratio law, no fixed cost
        ((2, 100e6), (1, 20e6), 5, 4),
    ],
)
def test_argon2_line_past_the_fixed_costs_bounds_is_held_to_them(probe, prev, want, line_said):
    value, ns = probe
    slope = (ns - prev[1]) / (value - prev[0])
    assert round(value + (TARGET - ns) / slope) == line_said  # what the line alone says
    assert _argon2_predict(probe, prev) == want


def test_a_probe_within_ten_percent_ends_the_search():
    # bcrypt cost 12 at 270 ms (+8%): no neighbour probe, the rounds decide
    s = search("bcrypt", lambda cost: 270e6 * 2.0 ** (cost - 12))
    assert values(s) == [6, 12] and "within 10% of the target" in s.stopped


def test_no_probe_past_the_searchs_share():
    # 25 ms a pass: the second probe is off by +40%; a share spent by then allows no third
    calls = []
    sr = searcher("argon2id", lambda t: 25e6 * t, calls)
    now = [0.0]
    sr.clock = lambda: now[0]
    real = sr.bench

    def bench(p):
        run = real(p)

        def timed(iterations, batches, timeout):
            now[0] += 1.0  # each probe: a second of the fake clock
            return run(iterations, batches, timeout)

        return timed

    sr.bench = bench
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "verify")
    sr.run(s, share_s=2.5)  # a third probe at the target (6 calls, 1.5 s) would end at 3.5 s
    assert values(s) == [1, 14] and "share of the time budget was spent" in s.stopped
    # t=14 is +40%: the line through both probes says t=10 (250 ms), chosen unprobed (verified,
    # untimed) for the rounds to measure, not the probe 1.4x the target (Searcher.unprobed)
    assert s.prepared.value == 10 and s.predicted == {10: 250e6}
    assert "t=10 chosen unprobed (+0% by the line through t=1 and t=14)" in s.stopped
    assert [c[0] for c in calls] == [1, 14]  # no third timed request


def test_no_unprobed_choice_from_a_line_that_does_not_rise():
    # PBKDF2's probes at 10 000 and 40 000 iterations read the same 400 ms (a noisy first probe):
    # no line to follow, the nearest probe stays the answer
    sr = searcher("pbkdf2-sha256", lambda n: 400e6)
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "derive")
    s.probes = [
        {"value": 10_000, "ns": 400e6, "calls": 3, "by": "median"},
        {"value": 40_000, "ns": 400e6, "calls": 3, "by": "median"},
    ]
    s.tried = {10_000: FakePrepared(10_000), 40_000: FakePrepared(40_000)}
    sr.unprobed(s)
    assert s.predicted == {} and "unprobed" not in s.stopped


def test_no_unprobed_choice_where_the_line_expects_no_better():
    # bcrypt: cost 12 at 184 ms (-26%) and cost 13 at 368 ms (+47%): the law points back at 12
    s = search("bcrypt", lambda cost: 184e6 * 2.0 ** (cost - 12))
    assert s.prepared.value == 12 and s.predicted == {} and "unprobed" not in s.stopped


def test_the_least_value_too_slow_is_kept_and_its_neighbour_probed():
    s = search("argon2id", lambda t: 200e6 * t)  # t=1 −20%, t=2 +60%
    assert values(s) == [1, 2] and s.prepared.value == 1


# -- the verdict ---------------------------------------------------------------------------------
def verdict(pid: str, cap=None) -> Verdict:
    cat = catalog.load()
    pol = policy.load(cat)
    return Verdict(pol.search(pid), cat.get(pid), pol, TARGET, cap)


def probed(*pairs) -> Search:
    s = Search(Implementation("x/y", "x", "y", "1", {}, {}), "verify")
    s.probes = [{"value": v, "ns": ns, "calls": PROBE_CALLS, "by": "median"} for v, ns in pairs]
    return s


def test_no_integer_cost_within_the_band_is_said_with_both_neighbours():
    s = probed((1, 100e6), (3, 210e6), (4, 280e6))
    text = verdict("argon2id").text(s, 3, 195e6)  # the rounds: −22%
    # t=4's probe scaled by the rounds/probe ratio of t=3: 195 × 280 / 210 = 260 ms (+4%)
    assert "t=4 would be within ±15% (+4%, its probe, scaled to the rounds)" in text
    s = probed((11, 180e6), (12, 360e6))
    text = verdict("bcrypt").text(s, 11, 180e6)
    assert text == (
        "no cost within ±15%: cost=11 is 180 ms, -28% (re-measured), "
        "cost=12 is 360 ms, +44% (its probe, scaled to the rounds); "
        "cost=11 is nearer (the answer given)"
    )
    assert verdict("bcrypt").text(probed(), 12, 240e6) == ""  # on target: nothing to say


def test_the_other_step_by_the_scaling_law_and_at_the_bounds():
    text = verdict("bcrypt").text(probed(), 12, 360e6)
    assert text.startswith(
        "no cost within ±15%: cost=11 is 180 ms, -28% (scaling law), cost=12 is 360 ms, +44%"
    )
    assert text.endswith("cost=11 is nearer (cost=12 is the answer given)")
    least = verdict("argon2id").text(probed(), 1, 500e6)
    assert least == "t=1 is the least t and is +100%: a smaller --memory makes it faster"
    capped = verdict("scrypt", cap=65536).text(probed(), 65536, 100e6)
    assert capped == "n=65536 is the largest n --memory allows and is -60%"


def test_rounds_that_disagree_with_the_probes_ask_for_a_second_look():
    v = verdict("argon2id")
    s = probed((1, 85e6), (3, 240e6))
    assert v.worth_remeasuring(s, 3, 240e6) is None  # on target
    assert v.worth_remeasuring(s, 3, 190e6) == 4  # rounds −24%: t=4 ≈ 253 ms by the law
    assert v.worth_remeasuring(probed(), 1, 500e6) is None  # nothing below t=1
    # PBKDF2's steps are fine: the law's value, not the adjacent iteration count
    assert verdict("pbkdf2-sha256").worth_remeasuring(probed(), 600000, 325e6) == 462000


# -- the second look -----------------------------------------------------------------------------
class FakeStore:
    def __init__(self):
        self.put = []

    def put_case(self, run_id, seq, row):
        self.put.append((seq, row))


def row(t: int, ns: float) -> dict:
    return {"status": "ok", "median_ns": ns, "params": {"m": 65536, "t": t, "p": 1}}


@pytest.mark.parametrize(("second_ns", "kept"), [(260e6, 4), (330e6, 3)])
def test_the_second_look_keeps_the_nearer_row(second_ns, kept):
    cat = catalog.load()
    prim = cat.get("argon2id")
    impl = Implementation("x/y", "x", "y", "1", {}, {"argon2id": Offer(("verify",))})
    s = probed((3, 240e6))
    first = row(3, 195e6)  # −22%
    q = Prepared(7, Case(impl, prim, "verify", 8, {"m": 65536, "t": 4, "p": 1}), {}, None, "")
    store = FakeStore()
    fix = Remeasure(verdict("argon2id"), lambda s, v: None, console=None)
    fix.keep_nearer(store, {"id": "r"}, {"x/y": row(4, second_ns)}, [(s, q, first)])
    assert [r["value"] for r in s.remeasured] == [3, 4]
    assert s.stopped.endswith(f"both values measured in rounds, kept t={kept}")
    assert store.put == ([] if kept == 4 else [(7, first)])  # the first row is put back


def test_the_table_says_which_value_is_nearer_and_by_how_much():
    from cryptobench.report import calibration

    s = probed((6, 5.6e6), (11, 180e6), (12, 360e6))
    r = {"status": "ok", "median_ns": 180e6, "ci_low_ns": 175e6, "ci_high_ns": 185e6}
    r |= {"implementation": "x/y", "library_version": "1", "operation": "verify"}
    r |= {"params": {"cost": 11}, "flags": []}
    r["calibration"] = verdict("bcrypt").describe(s, r["params"], r)
    run = {"calibration": {"param": "cost", "tolerance": 0.15}, "settings": {"rounds": 3}}
    v = calibration.view({"run": run, "results": [r]})
    assert v.rows[0][5] == "-28% !"
    assert (
        "x/y off target: no cost within ±15%: cost=11 is 180 ms, -28% (re-measured)"
        in (v.notes[-1])
    )
    assert v.notes[-1].endswith("cost=11 is nearer (the answer given)")


def test_the_table_says_how_many_rounds_its_times_are_of():
    from cryptobench.report import calibration

    run = {"calibration": {"param": "t", "tolerance": 0.15}, "settings": {"rounds": 3}}
    rows = []
    for n in (3, 8):  # narrowing gave the second row five more rounds
        r = {"status": "ok", "median_ns": 250e6, "ci_low_ns": 240e6, "ci_high_ns": 260e6}
        r |= {"implementation": f"x/{n}", "library_version": "1", "operation": "verify"}
        r |= {"params": {"m": 65536, "t": 3, "p": 1}, "flags": [], "rounds": [{}] * n}
        r["calibration"] = verdict("argon2id").describe(probed((3, 250e6)), r["params"], r)
        rows.append(r)
    notes = calibration.view({"run": run, "results": rows}).notes
    assert any(n.startswith("ms: geometric mean of 3–8 rounds' medians") for n in notes)
    notes = calibration.view({"run": run, "results": rows[:1]}).notes
    assert any(n.startswith("ms: geometric mean of 3 rounds' medians") for n in notes)


def test_the_table_says_when_the_machine_was_slower_than_its_fastest_earlier_run():
    from cryptobench.report import calibration

    fastest = {"ns": 800.0, "run": "0123456789abcdef", "started": "2026-12-02T04:21:00+00:00"}
    run = {"calibration": {"param": "t", "tolerance": 0.15, "fastest_probe": fastest}}
    run |= {"settings": {"rounds": 3}, "probes": [{"median_ns": 1900.0}, {"median_ns": 1950.0}]}
    notes = calibration.view({"run": run, "results": []}).notes
    (said,) = [n for n in notes if "slower than it has been" in n]
    assert said.startswith("the drift probe read 2.41x as long as in this machine's fastest")
    run["probes"] = [{"median_ns": 850.0}, {"median_ns": 900.0}]  # 1.09x: as fast as it has been
    assert not any("slower" in n for n in calibration.view({"run": run, "results": []}).notes)

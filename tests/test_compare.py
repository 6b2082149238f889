"""results/compare.py on fixed documents (seeded samples, no timing); `compare` end to end."""

from __future__ import annotations

import json
import re

import pytest

from cryptobench import stats
from cryptobench.report import comparison
from cryptobench.results import compare

from .fakes.results_docs import make_doc

ID_B = "0b1b2c3d-0000-4000-8000-000000000002"


def no_traceback(proc):
    assert "Traceback" not in proc.stderr + proc.stdout
    return proc


def write(tmp_path, name, doc):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_bh_adjust_matches_hand_worked_q_values():
    # sorted p: .01 .03 .04 .5 -> p·m/rank: .04 .06 .0533 .5 -> running min from the top
    got = compare.bh_adjust([0.01, 0.04, 0.03, 0.5])
    assert got == pytest.approx([0.04, 0.16 / 3, 0.16 / 3, 0.5])
    assert compare.bh_adjust([]) == []


def test_mann_whitney_is_one_for_identical_data_and_small_for_separated():
    assert compare.mann_whitney_p([5.0] * 10, [5.0] * 10) == 1.0
    assert compare.mann_whitney_p([], [1.0]) == 1.0
    assert compare.mann_whitney_p(range(10), range(100, 110)) < 1e-3


def test_geomean():
    assert compare.geomean([2.0, 0.5]) == pytest.approx(1.0)
    assert compare.geomean([]) is None


def test_a_run_against_itself_calls_nothing():
    doc = make_doc()
    cmp = compare.compare(doc, doc)
    assert len(cmp.cases) == 16  # 12 fast + 4 slow; the noop is not compared
    assert all(c.ratio == 1.0 and not c.significant and c.verdict == "~" for c in cmp.cases)
    assert cmp.geomean() == pytest.approx(1.0)
    assert not cmp.only_a and not cmp.only_b and not cmp.not_comparable


def test_same_distribution_other_seed_calls_nothing():
    cmp = compare.compare(make_doc(seed=1), make_doc(seed=2, run_id=ID_B))
    assert cmp.cases and not cmp.significant


def test_a_ten_percent_slowdown_is_called_with_its_ratio():
    slower = {("go/stdlib", "sha256"): 1.10}
    cmp = compare.compare(make_doc(seed=1), make_doc(seed=2, run_id=ID_B, speed=slower))
    called = {(c.key[0], c.key[1], c.key[3]) for c in cmp.significant}
    assert called == {("go/stdlib", "sha256", s) for s in (64, 1024, 8192)}
    for c in cmp.significant:
        assert c.verdict == "slower" and c.ratio == pytest.approx(1.10, abs=0.01)
        assert c.ratio_low <= c.ratio <= c.ratio_high and c.q_value < 0.05
    assert cmp.geomean() > 1.0
    assert [c.key[3] for c in cmp.slowdowns_above(5)] == [64, 1024, 8192]
    assert cmp.slowdowns_above(15) == []


def test_a_tiny_but_certain_change_is_below_the_minimum_effect():
    faster = {("rust/ring", "aes-128-gcm"): 0.99}  # 1% faster, noise 0.05%: p is tiny
    a = make_doc(seed=1, noise=0.0005)
    b = make_doc(seed=2, run_id=ID_B, speed=faster, noise=0.0005)
    cmp = compare.compare(a, b)
    ring = [c for c in cmp.cases if c.key[:2] == ("rust/ring", "aes-128-gcm")]
    assert ring and all(c.q_value < 0.05 and not c.significant for c in ring)
    looser = compare.compare(a, b, min_effect=0.005)
    assert {c.key for c in looser.significant} == {c.key for c in ring}


def test_no_change_is_called_while_its_ci_includes_one():
    # uniform spread of ±10% shifted by 10%: the rank test is sure (p = 0.001), but the
    # ratio's CI from the two medians' CIs is [0.96, 1.26]
    a, b = make_doc(slow=False, impls=("go/stdlib",)), make_doc(slow=False, impls=("go/stdlib",))
    spread = [1000 + 10 * i for i in range(200)]
    a["results"][0]["samples"] = [{"iterations": 1, "ns": x} for x in spread]
    b["results"][0]["samples"] = [{"iterations": 1, "ns": x + 200} for x in spread]
    cmp = compare.compare(a, b)
    case = next(c for c in cmp.cases if c.key[1:4] == ("sha256", "digest", 64))
    assert case.p_value < 0.002 and case.ratio == pytest.approx(1.1, abs=0.01)
    assert case.ratio_low < 1 < case.ratio_high and not case.significant


def test_unmatched_and_not_comparable_cases_are_listed():
    a = make_doc(slow=False)
    b = make_doc(run_id=ID_B, impls=("go/stdlib", "c/openssl"), slow=False)
    b["results"][0].update(status="failed", error="disagrees", samples=[])
    cmp = compare.compare(a, b)
    assert {k[0] for k in cmp.only_a} == {"rust/ring"}
    assert {k[0] for k in cmp.only_b} == {"c/openssl"}
    ((key, why),) = cmp.not_comparable
    assert key[0] == "go/stdlib" and why == "B: failed"
    text = comparison.render("table", cmp, "A", "B")
    assert "only in A (6)" in text and "only in B (6)" in text
    assert "not compared: go/stdlib sha256 digest 64 B: B: failed" in text


def test_json_and_markdown_outputs():
    slower = {("go/stdlib", "sha256"): 1.10}
    cmp = compare.compare(make_doc(), make_doc(seed=2, run_id=ID_B, speed=slower))
    doc = json.loads(comparison.render("json", cmp, "a|x", "b", fail_above=5))
    assert doc["schema"] == "cryptobench/compare/v1"
    assert doc["summary"]["significant"] == doc["summary"]["slower"] == 3
    assert doc["method"]["alpha"] == 0.05 and doc["method"]["min_effect"] == 0.02
    assert len(doc["failing"]) == 3 and doc["cases"][0]["params"] == {"aad_len": 0}
    md = comparison.render("markdown", cmp, "a|x", "<b>", fail_above=5)
    assert "a\\|x" in md and "&lt;b&gt;" in md
    rows = [ln for ln in md.splitlines() if ln.startswith("| go/") or ln.startswith("| rust/")]
    assert len(rows) == 16 and all(ln.count(" | ") == 4 for ln in rows)
    assert sum(bool(re.search(r"\| \+(9\.\d|10\.\d)% \(p=", ln)) for ln in rows) == 3
    assert sum("| ~ (p=" in ln for ln in rows) == 13


def test_cli_compare_files_exit_codes(tmp_path, run_cli):
    a = write(tmp_path, "a.json", make_doc())
    b = write(
        tmp_path, "b.json", make_doc(seed=2, run_id=ID_B, speed={("rust/ring", "scrypt"): 1.3})
    )
    proc = no_traceback(run_cli("compare", a, b))
    assert proc.returncode == 0, proc.stderr
    assert "~ (p=" in proc.stdout and "+30" in proc.stdout
    assert "geometric mean of B/A" in proc.stdout
    assert no_traceback(run_cli("compare", a, b, "--fail-above", "10")).returncode == 3
    assert no_traceback(run_cli("compare", a, b, "--fail-above", "50")).returncode == 0
    proc = no_traceback(run_cli("compare", a, b, "--format", "json", "--fail-above", "10"))
    assert proc.returncode == 3 and json.loads(proc.stdout)["failing"][0]["primitive"] == "scrypt"


def test_cli_compare_nothing_in_common_and_bad_input(tmp_path, run_cli):
    a = write(tmp_path, "a.json", make_doc(impls=("go/stdlib",)))
    b = write(tmp_path, "b.json", make_doc(run_id=ID_B, impls=("rust/ring",)))
    proc = no_traceback(run_cli("compare", a, b))
    assert proc.returncode == 1 and "no case was measured in both runs" in proc.stderr
    assert "only in A (8)" in proc.stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "cryptobench/results/v1"}')
    proc = no_traceback(run_cli("compare", a, str(bad)))
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "not a valid cryptobench results file" in proc.stderr
    proc = no_traceback(run_cli("compare", a, "nosuchrun"))
    assert proc.returncode == 2 and "no store at" in proc.stderr  # nothing stored yet


def test_cli_compare_stored_runs(fakes, run_cli):
    fakes("fixed")
    args = ["run", "--primitive", "sha256", "--size", "64", "--time-per-case", "0.05"]
    for _ in range(2):
        assert no_traceback(run_cli(*args)).returncode == 0
    runs = json.loads(run_cli("runs", "--format", "json").stdout)["runs"]
    first, second = runs[0]["id"], runs[1]["id"]
    # the fake runner answers fixed samples that the machine's level never moves, while the
    # drift probe is measured: compare the raw times (--machine-level none)
    proc = no_traceback(
        run_cli("compare", first[:8], "last", "--fail-above", "1", "--machine-level", "none")
    )
    assert proc.returncode == 0, proc.stderr
    assert "1 cases compared; 0 significant" in proc.stdout
    assert first[:8] in proc.stdout and second[:8] in proc.stdout


def _with_rounds(doc: dict, factors: list[float]) -> dict:
    """The document measured in rounds: each result's rounds at median × factor (±0.5%)."""
    out = json.loads(json.dumps(doc))
    out["schema"] = "cryptobench/results/v2"
    for r in out["results"]:
        m = r["median_ns"]
        r["rounds"] = [
            {
                "round": i + 1,
                "median_ns": m * f,
                "ci_low_ns": m * f * 0.995,
                "ci_high_ns": m * f * 1.005,
                "n_samples": 5,
            }
            for i, f in enumerate(factors)
        ]
    return out


def test_runs_in_rounds_are_compared_on_their_round_medians():
    base = make_doc()
    a = _with_rounds(base, [1.0, 1.03, 0.98])
    b = _with_rounds(base, [1.01, 0.97, 1.02])  # the same code, other processes: no change
    same = compare.compare(a, b)
    assert all(c.method == "rounds" for c in same.cases) and not same.significant
    slower = _with_rounds(base, [1.20, 1.22, 1.19])
    cmp = compare.compare(a, slower)
    assert all(c.verdict == "slower" for c in cmp.cases)
    assert all(c.ratio_low > 1.1 for c in cmp.cases)
    assert not any("batch by batch" in w for w in cmp.warnings)


def test_a_moved_drift_probe_is_a_warning():
    a, b = make_doc(), make_doc()
    a["run"]["probes"] = [{"round": 1, "median_ns": 2000.0}]
    b["run"]["probes"] = [{"round": 1, "median_ns": 2200.0}, {"round": 2, "median_ns": 2210.0}]
    warns = compare.compare(a, b).warnings
    assert any("drift probe moved +10" in w for w in warns)


def test_a_run_whose_probe_spread_past_the_busy_bound_is_warned_of_once():
    a, b = make_doc(), make_doc()
    a["run"]["probes"] = [{"round": 1, "median_ns": 2000.0}, {"round": 2, "median_ns": 2100.0}]
    b["run"]["probes"] = [{"round": 1, "median_ns": 2000.0}, {"round": 2, "median_ns": 2800.0}]
    warns = compare.compare(a, b).warnings
    assert "the drift probe moved 5.0% across run A's rounds" in warns
    (busy,) = [w for w in warns if "run B" in w]
    assert busy.startswith("run B was measured on a busy machine (the drift probe 1.40x as long")


def _probed(doc: dict, level: float, machine_id: str = "m1") -> dict:
    """The document with four drift probes at ``level`` × 2000 ns (±1% apart, ±0.5% each)."""
    out = json.loads(json.dumps(doc))
    out["machine"]["machine_id"] = machine_id
    out["run"]["probes"] = [
        {"round": i + 1, "median_ns": m, "ci_low_ns": m * 0.995, "ci_high_ns": m * 1.005}
        for i, m in enumerate(2000.0 * level * f for f in (1.0, 1.01, 0.99, 1.005))
    ]
    return out


def test_the_machines_shift_is_taken_out_of_every_ratio_on_one_machine():
    base = make_doc()
    a = _probed(_with_rounds(base, [1.0, 1.01, 0.99]), 1.0)
    # the machine ran 6% slower in B: every case and the probe alike, one case 20% more
    b = _probed(_with_rounds(base, [1.06, 1.07, 1.05]), 1.06)
    b["results"][0]["rounds"] = [
        {**x, **{k: x[k] * 1.2 for k in ("median_ns", "ci_low_ns", "ci_high_ns")}}
        for x in b["results"][0]["rounds"]
    ]
    raw = compare.compare(a, b, machine="none")
    assert raw.level is None and len(raw.significant) == len(raw.cases)
    assert any("drift probe moved +6" in w for w in raw.warnings)
    cmp = compare.compare(a, b)  # auto: one machine id, so the probe's shift comes out
    assert cmp.level.ratio == pytest.approx(1.06) and cmp.level.low < 1.06 < cmp.level.high
    slowed = compare.case_key(b["results"][0])
    assert [c.key for c in cmp.significant] == [slowed]
    assert cmp.significant[0].ratio == pytest.approx(1.2, rel=1e-4)
    assert not any("drift probe moved +6" in w for w in cmp.warnings)
    text = comparison.render("table", cmp, "a", "b")
    assert "machine level: the drift probe took 1.060× as long in B" in text
    assert json.loads(comparison.render("json", cmp, "a", "b"))["machine_level"]["probe_ratio"] == (
        pytest.approx(1.06)
    )


def test_between_machines_only_an_explicit_probe_level_adjusts():
    a = _probed(_with_rounds(make_doc(), [1.0, 1.01, 0.99]), 1.0, "m1")
    b = _probed(_with_rounds(make_doc(), [1.5, 1.51, 1.49]), 1.5, "m2")
    assert compare.compare(a, b).level is None  # the difference between machines is the point
    assert compare.compare(a, b, machine="probe").level.ratio == pytest.approx(1.5)
    unprobed = {**b, "run": {**b["run"], "probes": []}}
    warns = compare.compare(a, unprobed, machine="probe").warnings
    assert any("no drift probe in both runs" in w for w in warns)


def test_the_probes_uncertainty_widens_the_adjusted_ratio():
    a = compare.rounds_estimate(
        {"rounds": _with_rounds(make_doc(), [1.0, 1.01, 0.99])["results"][0]["rounds"]}
    )
    pa, pb = (compare.probe_estimate(_probed(make_doc(), lv)) for lv in (1.0, 1.0))
    plain = stats.rounds_diff(a, a)
    adjusted = stats.rounds_diff(a, a, level=(pa, pb))
    assert adjusted.ratio == pytest.approx(1.0)
    assert adjusted.high / adjusted.low > plain.high / plain.low

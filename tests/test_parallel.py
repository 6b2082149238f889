"""--parallel / --threads: the scaling arithmetic on fixed samples (stats.scaling,
stats.overlap), the plan of batches, the CPUs chosen, and the CLI's answer to a bad N."""

from __future__ import annotations

import pytest

from cryptobench.measure import parallel
from cryptobench.stats.scaling import overlap, scaling


def batches(ns_per_op: float, n: int = 5, it: int = 100) -> list[dict]:
    return [{"iterations": it, "ns": int(ns_per_op * it)}] * n


def test_two_workers_at_full_speed_scale_perfectly():
    # one worker alone: 1000 ns/op = 1e6 ops/s; two at once, each still 1000 ns/op
    sc = scaling([[batches(1000), batches(1000)]] * 3, single_ns=1000.0)
    assert sc.workers == 2
    assert sc.per_worker_ns == (1000.0, 1000.0)
    assert sc.median_ns == 1000.0
    assert sc.aggregate_ops_per_s == pytest.approx(2e6)
    assert sc.single_ops_per_s == pytest.approx(1e6)
    assert sc.efficiency == pytest.approx(1.0)
    assert sc.per_op.median == pytest.approx(1000.0)


def test_a_shared_lock_halves_each_worker_and_efficiency_is_half():
    # a global lock (Python's GIL, say): each of 2 workers gets half the single rate
    sc = scaling([[batches(2000), batches(2000)]], single_ns=1000.0)
    assert sc.aggregate_ops_per_s == pytest.approx(1e6)
    assert sc.efficiency == pytest.approx(0.5)


def test_unequal_workers_sum_their_own_rates():
    sc = scaling([[batches(1000), batches(1250)]], single_ns=1000.0)
    assert sc.per_worker_ns == (1000.0, 1250.0)
    assert sc.aggregate_ops_per_s == pytest.approx(1e6 + 8e5)
    assert sc.efficiency == pytest.approx(0.9)
    assert sc.median_ns == pytest.approx(1125.0)


def test_rounds_give_the_median_aggregate_and_the_range():
    rounds = [
        [batches(1000), batches(1000)],  # 2.0e6
        [batches(2000), batches(2000)],  # 1.0e6
        [batches(1250), batches(1250)],  # 1.6e6
    ]
    sc = scaling(rounds, single_ns=1000.0)
    assert sc.aggregate_ops_per_s == pytest.approx(1.6e6)
    assert (sc.aggregate_low, sc.aggregate_high) == (pytest.approx(1e6), pytest.approx(2e6))
    assert sc.efficiency == pytest.approx(0.8)
    assert sc.per_op.low < sc.per_op.median < sc.per_op.high  # rounds differ: an interval


def test_without_a_single_figure_there_is_no_efficiency():
    sc = scaling([[batches(500)]])
    assert sc.single_ops_per_s is None and sc.efficiency is None
    assert sc.aggregate_ops_per_s == pytest.approx(2e6)


def test_scaling_refuses_rounds_of_different_widths():
    with pytest.raises(ValueError):
        scaling([[batches(1)], [batches(1), batches(1)]])


def test_overlap_of_timed_windows():
    assert overlap([(0, 100), (0, 100)]) == 1.0
    assert overlap([(0, 100), (10, 110)]) == pytest.approx(90 / 110)
    assert overlap([(0, 10), (20, 30)]) < 0


def test_cpus_are_the_first_n_usable_and_all_is_every_one():
    assert parallel.cpus_for(2, [3, 1, 2]) == [1, 2]
    assert parallel.cpus_for("all", [0, 1]) == [0, 1]
    with pytest.raises(ValueError):
        parallel.cpus_for(3, [0, 1])


def test_plan_fills_the_round_budget_with_the_single_rounds_batches():
    single = {"iterations": 1000, "median_ns": 10_000.0, "family": "hash"}  # 10 ms batches
    plan = parallel.plan_for(single, round_budget_s=0.5, jit_warmup_s=1.0)
    assert (plan.iterations, plan.batches, plan.warmup_batches) == (1000, 50, 100)
    slow = {"iterations": 1, "median_ns": 1e9, "family": "password-hash"}  # 1 s per hash
    plan = parallel.plan_for(slow, round_budget_s=0.5, jit_warmup_s=0.1)
    assert (plan.batches, plan.warmup_batches) == (3, 1)
    assert plan.timeout > 40  # 4 one-second hashes, with room


def test_a_bad_parallel_value_exits_2(run_cli):
    proc = run_cli("run", "--primitive", "sha256", "--parallel", "999")
    assert proc.returncode == 2 and "valid: all, or 1.." in proc.stderr
    assert "Traceback" not in proc.stderr


def test_parallel_2_with_a_fixed_fake_runner_gives_exact_figures(fakes, run_cli):
    import json
    import os

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 usable CPUs")
    fakes("fixed")  # every batch: exactly 1000 ns per iteration
    args = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05", "--rounds", "2"]
    proc = run_cli("run", *args, "--parallel", "2", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["run"]["settings"]["parallel"] == sorted(os.sched_getaffinity(0))[:2]
    rows = [r for r in doc["results"] if r["family"] != "noop"]
    single = next(r for r in rows if "processes" not in r["params"])
    par = next(r for r in rows if r["params"].get("processes") == 2)
    assert single["median_ns"] == 1000.0
    assert par["status"] == "ok" and par["verified"] is True
    assert par["median_ns"] == 1000.0
    p = par["parallel"]
    assert p["workers"] == 2 and p["per_worker_median_ns"] == [1000.0, 1000.0]
    assert p["aggregate_ops_per_s"] == pytest.approx(2e6)
    assert p["aggregate_mb_s"] == pytest.approx(128.0)  # 2 × 64 B per µs
    assert p["efficiency"] == pytest.approx(1.0)
    assert len(p["overlap"]) == 2 and len(p["samples"]) == 2
    assert "2 processes" in run_cli("show", doc["run"]["id"]).stdout


def test_a_runner_without_threads_reports_threads_not_offered(fakes, run_cli):
    import json
    import os

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 usable CPUs")
    fakes("fixed")  # ignores the "threads" field: answers with one thread's samples
    args = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05", "--rounds", "1"]
    proc = run_cli("run", *args, "--threads", "2", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["results"]
    row = next(r for r in rows if r["params"].get("threads") == 2)
    assert row["status"] == "skipped" and row["samples"] == []
    assert row["error"].startswith("not offered:") and "threads" in row["error"]


THREADED = {
    "python": "hashlib",
    "go": "stdlib",
    "java": "jdk",
    "c": "openssl",
    "cpp": "botan",
    "rust": "rustcrypto",
    "node": "crypto",
}


def _ask(runner: str, req: dict) -> dict:
    """One request to a real runner (skipped when it is not built); its last answer."""
    import json
    import subprocess

    from cryptobench.runtimes.discovery import discover

    spec = next((s for s in discover() if s.runtime_id == runner), None)
    if spec is None or spec.skipped:
        pytest.skip(f"{runner} runner not available")
    out = subprocess.run(
        spec.command,
        input=json.dumps(req) + "\n",
        capture_output=True,
        text=True,
        cwd=spec.folder,
        timeout=60,
        check=True,
    ).stdout
    return json.loads(out.splitlines()[-1])


@pytest.mark.parametrize("runner", sorted(THREADED))
def test_real_runners_answer_a_threaded_bench(runner):
    """Every runner with threads runs N of them and returns each one's batches (no timing
    asserted: only the shape and the verified output)."""
    lib = THREADED[runner]
    req = {
        "id": 1,
        "op": "bench",
        "impl": lib,
        "primitive": "sha256",
        "operation": "digest",
        "inputs": {"msg": "616263"},
        "params": {},
        "iterations": 3,
        "batches": 2,
        "threads": 3,
    }
    res = _ask(runner, req)["result"]
    # FIPS 180-2 B.1: SHA-256("abc")
    assert res["output"] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert len(res["thread_samples"]) == 3
    assert all(len(t) == 2 and t[0]["iterations"] == 3 for t in res["thread_samples"])


@pytest.mark.parametrize("runner", ["cpp", "rust", "node"])
def test_a_threaded_aead_seal_gives_the_verified_output_and_every_threads_batches(runner):
    """AES-128-GCM seal in 2 threads, each with its own context and nonce counter: the output
    is the verified call's (NIST GCM spec test case 2: zero key, zero IV, 16 zero bytes)."""
    lib = {"cpp": "botan", "rust": "rustcrypto", "node": "crypto"}[runner]
    zero = "00" * 16
    req = {
        "id": 1,
        "op": "bench",
        "impl": lib,
        "primitive": "aes-128-gcm",
        "operation": "seal",
        "inputs": {"key": zero, "nonce": "00" * 12, "aad": "", "msg": zero},
        # node:crypto's GCM cannot reuse a key (reuses_key: false): its case is the fresh one
        "params": {"aad_len": 0, "fresh_context": runner == "node"},
        "iterations": 2,
        "batches": 3,
        "threads": 2,
    }
    res = _ask(runner, req)["result"]
    assert res["output"] == "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf"
    assert [len(t) for t in res["thread_samples"]] == [3, 3]
    assert res["samples"] == res["thread_samples"][0]


@pytest.mark.parametrize("runner", ["cpp", "rust", "node"])
@pytest.mark.parametrize("threads", [0, 257, "2"])
def test_a_bad_thread_count_is_a_bad_request(runner, threads):
    req = {
        "id": 7,
        "op": "bench",
        "impl": THREADED[runner],
        "primitive": "sha256",
        "operation": "digest",
        "inputs": {"msg": "616263"},
        "params": {},
        "iterations": 1,
        "batches": 1,
        "threads": threads,
    }
    answer = _ask(runner, req)
    assert answer["ok"] is False and answer["error"]["kind"] == "bad_request"
    assert "threads" in answer["error"]["message"]


def test_threads_end_to_end_time_one_thread_as_the_reference(run_cli):
    """--threads with a real runner: every round times one thread alone under the same plan
    (the efficiency's reference, stored in single_samples), then N threads."""
    import json
    import os

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 usable CPUs")
    args = ["--impl", "python/hashlib", "--primitive", "sha256", "--size", "64"]
    args += ["--time-per-case", "0.05", "--rounds", "2", "--threads", "2", "--format", "json"]
    proc = run_cli("run", *args)
    assert proc.returncode == 0, proc.stderr
    row = next(r for r in json.loads(proc.stdout)["results"] if r["params"].get("threads") == 2)
    assert row["status"] == "ok", row.get("error")
    par = row["parallel"]
    assert len(par["single_samples"]) == 2  # one per round
    assert all(s["iterations"] >= 1 and s["ns"] > 0 for w in par["single_samples"] for s in w)
    assert par["efficiency"] > 0 and par["single_ops_per_s"] > 0

"""bench/vs-go-test-bench's parsing and pairing on fixed text (nothing is timed): go test's
lines, crypto/mlkem's own benchmarks among them, become the cases the table pairs with
cryptobench's rows, and an ML-KEM row is only taken with the fresh_context it is held to."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "vs-go-test-bench"

# go test -bench output as `go test -count 2` prints it (GOMAXPROCS 2: the -2 suffix).
GO_OUT = """goos: linux
goarch: amd64
pkg: crypto/mlkem
BenchmarkKeyGen-2    	   10000	     30000 ns/op
BenchmarkKeyGen-2    	   10000	     32000 ns/op
BenchmarkEncaps-2    	   10000	     40000 ns/op
BenchmarkEncaps-2    	   10000	     42000 ns/op
BenchmarkDecaps-2    	   10000	     35000 ns/op
BenchmarkFidelityMLKEM768/keygen-2         	   10000	     33000 ns/op
BenchmarkFidelity/sha256/1000-2            	  300000	       400.5 ns/op	2496.88 MB/s
BenchmarkFidelityEd25519/sign/32           	   50000	     20000 ns/op
PASS
"""


@pytest.fixture(scope="module")
def vsgo():
    return load_script(SCRIPT, "bench_vs_go_test_bench")


def test_go_test_lines_give_the_median_of_the_counts_per_case(vsgo):
    found = vsgo.parse_go_bench(GO_OUT)
    assert found == {
        ("BenchmarkKeyGen", 0): 31000.0,
        ("BenchmarkEncaps", 0): 41000.0,
        ("BenchmarkDecaps", 0): 35000.0,
        ("BenchmarkFidelityMLKEM768/keygen", 0): 33000.0,
        ("sha256", 1000): 400.5,
        ("sign", 32): 20000.0,  # GOMAXPROCS 1 prints no -N suffix
    }


def test_every_mlkem_row_has_a_benchmark_the_go_side_parses(vsgo):
    found = vsgo.parse_go_bench(GO_OUT)
    rows = vsgo.rows_for("mlkem")
    assert [r.go for r in rows if r.go not in found] == []
    assert {r.cb for r in rows} == {
        ("ml-kem-768 keygen", 0),
        ("ml-kem-768 encaps", 0),
        ("ml-kem-768 decaps", 0),
    }
    assert set(vsgo.rows_for("all")) >= set(rows) | set(vsgo.rows_for("ed25519"))


def result(op: str, fresh: bool, status: str = "ok") -> dict:
    params = {"fresh_context": fresh}
    return {
        "implementation": "go/stdlib",
        "primitive": "ml-kem-768",
        "operation": op,
        "size": 0,
        "params": params,
        "status": status,
        "median_ns": 1.0,
    }


def test_mlkem_results_count_only_with_the_fresh_context_their_benchmark_matches(vsgo):
    # crypto/mlkem's BenchmarkEncaps parses the key in every call; Decaps parses it once.
    assert vsgo.result_key(result("encaps", True)) == ("ml-kem-768 encaps", 0)
    assert vsgo.result_key(result("encaps", False)) is None
    assert vsgo.result_key(result("decaps", False)) == ("ml-kem-768 decaps", 0)
    assert vsgo.result_key(result("decaps", True)) is None
    assert vsgo.result_key(result("keygen", False, status="failed")) is None


def test_the_mlkem_requests_ask_for_that_fresh_context(vsgo, monkeypatch):
    monkeypatch.setattr(vsgo, "cryptobench", lambda: ["cryptobench"])
    cmds = vsgo.cryptobench_cmds("mlkem", Path("db"), 1.0)
    fresh = [c for c in cmds if "fresh_context=true" in c]
    assert len(cmds) == 2 and len(fresh) == 1
    assert "encaps" in fresh[0] and "decaps" not in fresh[0] and "keygen" not in fresh[0]


def test_the_table_pairs_rounds_and_judges_each_row_by_its_target(vsgo):
    rows = vsgo.rows_for("mlkem")
    go = {r.go: [100.0, 100.0] for r in rows}
    cb = {r.cb: [104.0, 104.0] for r in rows}
    cb[("ml-kem-768 decaps", 0)] = [110.0, None]  # a round that lacks the case is left out
    text = vsgo.table(rows, go, cb)
    assert "| ml-kem-768 keygen vs BenchmarkKeyGen | 100.0 | 104.0 | 1.040 |" in text
    assert "| ml-kem-768 decaps vs BenchmarkDecaps | 100.0 | 110.0 | 1.100 | 1.100-1.100 | no" in (
        text
    )
    assert text.count("| yes (5%) |") == 3

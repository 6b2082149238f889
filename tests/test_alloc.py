"""Allocation per operation (docs/methodology.md, "Memory"; docs/protocol.md, bench step 6):
the Python runner's bench answer carries what its untimed call allocated and never traces a
timed batch; the orchestrator keeps the median of the answers' readings on the row, leaves the
field out where the runner does not offer it, stores and exports it; the pq-migration view
shows it where any row has it. (Every runner's answer: tests/test_conformance.py.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

import cryptobench
from cryptobench.catalog import primitives as catalog
from cryptobench.measure import sampling
from cryptobench.measure.case import Prepared
from cryptobench.measure.rounds import Rounds
from cryptobench.plan.cases import Case
from cryptobench.report import migration, sections
from cryptobench.runtimes.protocol import Implementation, Offer, RunnerFailure, check_alloc

from .conftest import QUICK_RUN, MemoryStore
from .test_migration_view import result  # a measured pubkey row with its rounds

PY_RUNNER = Path(__file__).resolve().parents[1] / "runners" / "python" / "runner.py"
SCHEMA = json.loads(
    (Path(cryptobench.__file__).parent / "results" / "results.schema.json").read_text()
)
ABC = "616263"
SHA256_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def _request(rid: int, op: str, **extra) -> str:
    req = {"id": rid, "op": op, "impl": "hashlib", "primitive": "sha256", "operation": "digest"}
    return json.dumps({**req, "inputs": {"msg": ABC}, "params": {}, **extra}) + "\n"


def _python_runner(lines: list[str], wrapper: str | None = None) -> subprocess.CompletedProcess:
    args = ["-c", wrapper, str(PY_RUNNER)] if wrapper else [str(PY_RUNNER)]
    return subprocess.run(
        [sys.executable, *args], input="".join(lines), capture_output=True, text=True, timeout=60
    )


def test_the_python_runner_answers_a_digest_bench_with_its_untimed_calls_allocation():
    bench = _request(1, "bench", iterations=5, batches=2)
    proc = _python_runner([bench, _request(2, "compute"), bench.replace('"id": 1', '"id": 3')])
    assert proc.returncode == 0, proc.stderr
    first, computed, again = (json.loads(line)["result"] for line in proc.stdout.splitlines())
    for got in (first, again):
        assert got["output"] == SHA256_ABC
        reading = check_alloc(got)
        assert reading["bytes"] > 0  # at least the digest's bytes object
        assert reading["counter"].startswith("tracemalloc") and reading["allocs"] is None
    assert "alloc_bytes" not in computed  # compute is verification: nothing read


# runner.py under a spy: every timed batch records whether tracemalloc was tracing then
SPY = """
import runpy, sys, tracemalloc
sys.path.insert(0, str(__import__("pathlib").Path(sys.argv[1]).parent))
from cbrunner import dispatch
real = dispatch.time_batches
def spy(*args):
    print("tracing during timed batches:", tracemalloc.is_tracing(), file=sys.stderr)
    return real(*args)
dispatch.time_batches = spy
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_no_timed_batch_of_the_python_runner_runs_under_tracemalloc():
    proc = _python_runner([_request(1, "bench", iterations=3, batches=2)], wrapper=SPY)
    assert proc.returncode == 0, proc.stderr
    assert "alloc_bytes" in json.loads(proc.stdout)["result"]
    seen = [ln for ln in proc.stderr.splitlines() if ln.startswith("tracing during")]
    assert seen == ["tracing during timed batches: False"]


def test_an_answer_without_the_field_reads_as_not_offered_and_a_malformed_one_fails():
    assert check_alloc({"output": "00", "samples": []}) is None
    got = check_alloc({"alloc_bytes": 48, "allocs": 2, "alloc_counter": "c"})
    assert got == {"bytes": 48, "allocs": 2, "counter": "c"}
    for bad in ({"alloc_bytes": -1}, {"alloc_bytes": 1.5}, {"alloc_bytes": 8, "allocs": "x"}):
        with pytest.raises(RunnerFailure, match="alloc_bytes"):
            check_alloc(bad)


class AllocRuntime:
    """A fake runtime, no process and no clock: 100 ns per call; each bench answer carries
    ``readings[i]`` (the last one repeated), or nothing when ``readings`` is empty."""

    def __init__(self, readings: list[int]):
        self.id = self.key = "fake"
        self.isolate = self.compiles = False
        self.warm_up_s = 0.0
        self.cpu, self.readings, self.answers = None, list(readings), 0

    def stop(self, only=None, wait=True) -> None:
        pass

    def request(self, op, timeout, **f):
        n = f["iterations"]
        res = {"output": "ab" * 32, "samples": [{"iterations": n, "ns": 100 * n}] * f["batches"]}
        if self.readings:
            res["alloc_bytes"] = self.readings[min(self.answers, len(self.readings) - 1)]
            res.update(allocs=3, alloc_counter="fake counter")
        self.answers += 1
        return res


def _measure(rt: AllocRuntime) -> dict:
    prim = catalog.load().get("sha256")
    impl = Implementation("fake/lib", "fake", "lib", "1", {}, {"sha256": Offer(("digest",))})
    p = Prepared(0, Case(impl, prim, "digest", 64, {}), {"msg": "40"}, "ab" * 32, "fake")
    store, run = MemoryStore(), {"id": "r", "seed": 1, "probes": [], "machine": {}}
    policy = sampling.Policy(budget_s=0.2, jit_warmup_s=0.0)
    Rounds({rt.key: rt}, None, store, run, policy, rounds=2).measure([p])
    return store.rows[0]


def test_the_row_keeps_the_median_of_the_answers_readings():
    rt = AllocRuntime([5000, 120])  # a process's first call pays lazy initialisation
    row = _measure(rt)
    assert row["status"] == "ok" and rt.answers >= 3
    assert row["alloc_bytes_per_op"] == 120
    assert row["alloc"] == {"counter": "fake counter", "allocs_per_op": 3, "answers": rt.answers}


def test_a_runner_that_offers_no_counter_leaves_the_row_without_the_fields():
    row = _measure(AllocRuntime([]))
    assert row["status"] == "ok"
    assert "alloc_bytes_per_op" not in row and "alloc" not in row


def test_a_python_run_stores_and_exports_the_figure_in_a_valid_document(run_cli):
    proc = run_cli(*QUICK_RUN, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.validate(doc, SCHEMA)
    rows = {r["implementation"]: r for r in doc["results"] if r["primitive"] == "md5"}
    assert rows and all(r["status"] == "ok" for r in rows.values())
    for r in rows.values():
        assert r["alloc_bytes_per_op"] > 0 and r["alloc"]["counter"].startswith("tracemalloc")
    shown = run_cli("show", "last", "--format", "json")  # read back from the store
    assert shown.returncode == 0, shown.stderr
    again = {r["implementation"]: r for r in json.loads(shown.stdout)["results"]}
    assert {i: again[i]["alloc"] for i in rows} == {i: r["alloc"] for i, r in rows.items()}


def _result(impl: str, pid: str, op: str, median: float, alloc: int | None) -> dict:
    row = result(impl, pid, op, [median, median * 1.02, median * 0.98])
    return row if alloc is None else {**row, "alloc_bytes_per_op": alloc}


def _kex(runtime: str, alloc: bool) -> list[dict]:
    a = (lambda n: n) if alloc else (lambda n: None)  # noqa: E731
    impl = f"{runtime}/lib"
    return [
        _result(impl, "x25519", "keygen", 20_000, a(100)),
        _result(impl, "x25519", "agree", 60_000, a(50)),
        _result(impl, "ml-kem-768", "keygen", 30_000, a(4000)),
        _result(impl, "ml-kem-768", "encaps", 40_000, a(2000)),
        _result(impl, "ml-kem-768", "decaps", 50_000, a(1000)),
    ]


def test_the_migration_view_adds_alloc_per_use_where_any_row_has_it():
    (sec,) = sections.pq_migration(_kex("go", True) + _kex("node", False))
    assert sec.columns[-1] == migration.ALLOC_COLUMN and migration.ALLOC_NOTE in sec.notes
    cells = {(r[0], r[3]): r[-1] for r in sec.rows}
    assert cells["go", "x25519"].value == 2 * 100 + 2 * 50  # 2 keygen + 2 agree
    assert cells["go", "ml-kem-768"].value == 4000 + 2000 + 1000
    assert cells["node", "ml-kem-768"].value is None and str(cells["node", "ml-kem-768"]) == "—"


def test_the_migration_view_has_no_alloc_column_when_no_row_has_it():
    (sec,) = sections.pq_migration(_kex("node", False))
    assert tuple(sec.columns) == migration.COLUMNS and migration.ALLOC_NOTE not in sec.notes

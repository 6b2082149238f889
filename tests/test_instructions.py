"""--metric instructions on fixed inputs (no valgrind run here: tests/test_instructions_valgrind.py
counts for real): callgrind's files, the N/2N arithmetic, runner.toml's [instructions], the
"not offered" path, the exact compare threshold, presets and the report section."""

from __future__ import annotations

import copy

import pytest

from cryptobench.measure import instructions as measure
from cryptobench.plan import cases as plan
from cryptobench.plan.presetfile import PresetError
from cryptobench.report import comparison, sections
from cryptobench.results import instructions as compare_counts
from cryptobench.runtimes import discovery, valgrind
from cryptobench.runtimes.session import Runtime

from .fakes.results_docs import make_doc

DUMP = """# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 5419
cmd:  bin/runner
part: 1
thread: {thread}

events: Ir
summary: {total}

fn=(1) main
0 {total}

totals: {total}
"""


def write_dumps(tmp_path, name, counts: dict[int, int]):
    d = tmp_path / name
    d.mkdir()
    (d / "callgrind.out.77").write_text("")  # the process's own file, empty with threads apart
    for t, n in counts.items():
        (d / f"callgrind.out.77-{t:02d}").write_text(DUMP.format(thread=t, total=n))
    return d


def test_parse_dump_reads_thread_and_totals():
    assert valgrind.parse_dump(DUMP.format(thread=3, total=55651662)) == (3, 55651662)
    assert valgrind.parse_dump("events: Ir\nsummary: 12\n") == (1, 12)  # no thread line
    with pytest.raises(ValueError):
        valgrind.parse_dump("events: Ir\n")


def test_thread_totals_skip_the_empty_process_file(tmp_path):
    d = write_dumps(tmp_path, "n", {1: 38526171, 2: 7890, 3: 15838})
    assert valgrind.read_thread_totals(d) == {1: 38526171, 2: 7890, 3: 15838}


def test_thread_totals_of_one_dump(tmp_path):
    d = tmp_path / "parts"
    d.mkdir()
    for part, counts in ((1, {1: 23_000_000}), (2, {1: 45_000, 2: 900}), (3, {1: 90_000})):
        for t, n in counts.items():
            (d / f"callgrind.out.77.{part}-{t:02d}").write_text(DUMP.format(thread=t, total=n))
    assert valgrind.read_thread_totals(d, 2) == {1: 45_000, 2: 900}
    assert valgrind.read_thread_totals(d, 3) == {1: 90_000}
    assert valgrind.read_thread_totals(d, 4) == {}


def test_per_op_is_the_growth_of_the_loop_thread_over_n():
    # Go's counts seen at 1000 and 2000 iterations: the GC/sysmon threads barely move
    n = {1: 38526171, 2: 7890, 3: 15838, 4: 5882, 5: 3070}
    two_n = {1: 72768459, 2: 10107, 3: 8719, 4: 9501, 5: 3070}
    per_op, thread = valgrind.per_op(n, two_n, 1000)
    assert thread == 1
    assert per_op == pytest.approx((72768459 - 38526171) / 1000)
    # the loop ran on another thread in the longer request: each request's busiest thread
    per_op, thread = valgrind.per_op({1: 5_000, 2: 40}, {1: 60, 2: 10_000}, 10)
    assert (per_op, thread) == (500.0, 2)


def test_per_op_refuses_what_did_not_grow():
    with pytest.raises(ValueError):
        valgrind.per_op({1: 500}, {1: 500}, 10)
    with pytest.raises(ValueError):
        valgrind.per_op({1: 5}, {1: 9}, 0)
    with pytest.raises(ValueError):
        valgrind.per_op({}, {1: 9}, 1)


def test_wrap_puts_the_tool_before_the_runner(tmp_path):
    if not valgrind.find():
        with pytest.raises(FileNotFoundError):
            valgrind.wrap(["bin/runner"], "callgrind")
        return
    argv = valgrind.wrap(["bin/runner", "-x"], "callgrind", valgrind.callgrind_options(tmp_path))
    assert argv[1] == "--tool=callgrind" and argv[-2:] == ["bin/runner", "-x"]
    assert "--separate-threads=yes" in argv
    assert f"--callgrind-out-file={tmp_path}/callgrind.out.%p" in argv


def test_iterations_hold_about_two_ms_of_native_work():
    assert measure.iterations_for(1431.7) == 1397  # sha256 1 KiB at 1.43 µs
    assert measure.iterations_for(1e9) == 2  # a slow operation: at least 2
    assert measure.iterations_for(0.001) == measure.MAX_ITERATIONS
    assert measure.iterations_for(None) == 1000


def test_fields_carry_count_per_byte_and_path():
    path = {"code_path": "OPENSSL_ia32cap=0x1:0x2", "cpu_features": ["aes", "avx2"]}
    got = measure.fields(32114.64, 1024, 1397, 1, path)
    assert got["instructions_per_op"] == 32114.6
    assert got["instructions_per_byte"] == pytest.approx(31.362, abs=1e-3)
    assert got["instructions"]["iterations"] == [1397, 2794]
    assert got["instructions"]["code_path"] == path["code_path"]
    assert measure.fields(88.0, 0, 10, 1, path)["instructions_per_byte"] is None


def specs() -> dict[str, discovery.RuntimeSpec]:
    return {s.runtime_id: s for s in discovery.discover()}


def test_runner_toml_says_who_is_offered():
    got = specs()
    for rid in ("java", "node"):
        assert got[rid].instructions_refused == "compiled at run time, counts depend on timing"
    for rid in ("c", "cpp", "go", "rust", "pascal", "php", "python"):
        assert got[rid].instructions_refused is None, rid
    assert got["python"].instructions_env == {"PYTHONHASHSEED": "0"}


@pytest.mark.parametrize(
    "table",
    [{"env": {"A": 1}}, {"not_offered": 3}, {"other": "x"}, {"env": "A=1"}],
)
def test_instructions_table_is_validated(table):
    with pytest.raises(discovery.RunnerTomlError):
        discovery._validate_instructions(table)


def test_a_jit_runtime_is_not_offered_without_starting_anything():
    rt = Runtime(specs()["java"])
    assert measure.refused(rt) == "not offered: compiled at run time, counts depend on timing"
    seen = []
    measure.count_all([(rt, "p", {"status": "ok"})], 10.0, lambda p, f: seen.append((p, f)))
    assert seen == [
        (
            "p",
            {
                "instructions_per_op": None,
                "instructions": {
                    "status": "not offered",
                    "detail": "not offered: compiled at run time, counts depend on timing",
                },
            },
        )
    ]
    assert rt.process is None  # nothing was started


def counted_doc(per_op: dict, path="OPENSSL_ia32cap=0x1:0x2", off=(), run_id=None):
    doc = make_doc(**({"run_id": run_id} if run_id else {}))
    for r in doc["results"]:
        key = (r["implementation"], r["primitive"], r["size"])
        r["cpu_features_off"] = list(off)
        if key in per_op:
            r.update(measure.fields(per_op[key], r["size"], 10, 1, {"code_path": path}))
    return doc


KEY = ("go/stdlib", "sha256", 1024)
ID_B = "0b1b2c3d-0000-4000-8000-000000000002"


def test_same_counts_compare_to_no_change_and_the_metric_is_named():
    a = counted_doc({KEY: 32115.0})
    cmp = compare_counts.compare(a, copy.deepcopy(a))
    assert cmp.metric == "instructions" and len(cmp.cases) == 1
    assert cmp.significant == [] and cmp.slowdowns_above(0.5) == []
    text = comparison.render("table", cmp, "A", "B", fail_above=0.5)
    assert "metric: instructions per operation" in text and "ok: no rise in instructions" in text


def test_threshold_is_exact():
    a = counted_doc({KEY: 10000.0})
    small = compare_counts.compare(a, counted_doc({KEY: 10040.0}))  # +0.4%
    assert small.significant == []
    big = compare_counts.compare(a, counted_doc({KEY: 10060.0}))  # +0.6%
    assert [c.change for c in big.slowdowns_above(0.5)] == [pytest.approx(0.006)]
    assert compare_counts.compare(a, counted_doc({KEY: 10060.0}), threshold=0.01).significant == []


def test_counts_of_different_paths_are_not_compared():
    a = counted_doc({KEY: 10000.0})
    b = counted_doc({KEY: 20000.0}, path="OPENSSL_ia32cap=0x1:0x0")
    cmp = compare_counts.compare(a, b)
    assert cmp.cases == []
    assert any("code paths under instrumentation differ" in w for _, w in cmp.not_comparable)


def test_a_path_switched_off_on_purpose_is_compared_with_a_note():
    a = counted_doc({KEY: 10000.0})
    b = counted_doc({KEY: 20000.0}, path="OPENSSL_ia32cap=0x1:0x0", off=("avx2",))
    cmp = compare_counts.compare(a, b)
    assert [c.change for c in cmp.significant] == [pytest.approx(1.0)]
    assert "avx2" in cmp.cases[0].note


def test_a_row_without_a_count_says_why():
    a = counted_doc({KEY: 10000.0})
    b = counted_doc({})
    cmp = compare_counts.compare(a, b)
    assert any("B: no instruction count" in why for _, why in cmp.not_comparable)


def test_auto_metric_picks_counts_only_when_both_runs_have_them():
    counted, plain = counted_doc({KEY: 1.0}), make_doc()
    assert compare_counts.choose_metric(counted, counted) == "instructions"
    assert compare_counts.choose_metric(counted, plain) == "time"
    assert compare_counts.choose_metric(counted, counted, "time") == "time"
    cmp = comparison.compare_pair(counted, counted, 0.05, None, "auto", fail_above=1.0)
    assert cmp.metric == "instructions" and cmp.min_effect == pytest.approx(0.01)
    assert comparison.compare_pair(plain, plain, 0.05, None).metric == "time"


def test_ci_preset_asks_for_counts_and_others_do_not():
    assert plan.load_preset("ci").metric == "instructions"
    for name in ("quick", "default"):
        assert plan.load_preset(name).metric == "time"


def test_a_preset_with_an_unknown_metric_is_refused(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('metric = "cycles"\n[[group]]\nprimitives = ["sha256"]\n')
    with pytest.raises(PresetError, match="p.toml:1: metric must be one of"):
        plan.load_preset(str(f))


def test_report_shows_the_count_beside_its_path():
    doc = counted_doc({KEY: 32115.0})
    got = [s for s in sections.build(doc) if s.id == "instructions"]
    assert len(got) == 1
    (row,) = got[0].rows
    assert row[0] == "sha256 digest 1024 B" and row[1] == "go/stdlib"
    assert str(row[2]) == "32,115" and row[4] == "OPENSSL_ia32cap=0x1:0x2"
    assert not [s for s in sections.build(make_doc()) if s.id == "instructions"]


def test_compare_command_gates_on_counts(tmp_path, run_cli):
    import json

    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(counted_doc({KEY: 10000.0})))
    b.write_text(json.dumps(counted_doc({KEY: 10100.0}, run_id=ID_B)))
    risen = run_cli("compare", str(a), str(b), "--fail-above", "0.5")
    assert risen.returncode == 3, risen.stderr
    assert "metric: instructions per operation" in risen.stdout and "+1.00%" in risen.stdout
    same = run_cli("compare", str(a), str(a), "--fail-above", "0.5")
    assert same.returncode == 0, same.stderr
    by_time = run_cli("compare", str(a), str(b), "--metric", "time", "--format", "json")
    assert json.loads(by_time.stdout)["metric"] == "time"


def test_runs_without_the_metric_do_not_load_the_counting_code():
    import subprocess
    import sys

    code = (
        "import sys, cryptobench.run.pipeline, cryptobench.cli.run; "
        "print('cryptobench.measure.instructions' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr

"""Every export read by the tool it is for (docs/exports.md).

benchstat and pyperf are run for real: from two runs of 6 rounds, one with a case planted 2×
slower, both must flag that case, and neither may flag anything between two copies of one
run. BMF, github-action-benchmark and Google Benchmark JSON have no consumer installable from a
registry: they are checked field by field against their published formats. OpenMetrics is
read by prometheus_client's strict OpenMetrics parser.
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import sys

import jsonschema
import pytest

from cryptobench.cli.common import FORMATS
from cryptobench.report.exports import EXPORTS, cases

from .conftest import QUICK_RUN, ROOT, cli
from .fakes import export_docs
from .fakes.results_docs import HOSTILE, SCRIPT_BREAK, hostile_doc

BASE = export_docs.make_doc(rounds=6)
SLOW = export_docs.make_doc(rounds=6, seed=2, slow={export_docs.PLANTED: 2.0})
PLANTED = "go/stdlib sha256 digest 1024B"
V1 = json.loads((ROOT / "tests" / "golden" / "results-v1.json").read_text())


def write(tmp_path, fmt: str, **docs) -> dict:
    paths = {}
    for tag, doc in docs.items():
        paths[tag] = tmp_path / f"{tag}.{fmt}"
        paths[tag].write_text(EXPORTS[fmt](doc))
    return paths


def run(*args) -> str:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


# --- every format --------------------------------------------------------------------------


def test_every_export_is_a_format_of_show_and_run():
    assert set(EXPORTS) <= set(FORMATS)
    for command in ("show", "run"):
        assert all(name in cli(command, "--help").stdout for name in EXPORTS)


@pytest.mark.parametrize("fmt", sorted(EXPORTS))
@pytest.mark.parametrize("doc", [BASE, V1, hostile_doc()], ids=["v2", "v1", "hostile"])
def test_every_export_renders_every_document(fmt, doc):
    text = EXPORTS[fmt](doc)
    if fmt in ("bmf", "github-action-benchmark", "pyperf", "gbench"):
        json.loads(text)
    names = [cases.label(r) for r in cases.measured(doc)]
    assert len(set(names)) == len(names)  # one name per case: tools key on it


def test_a_v1_case_is_one_round():
    r = cases.measured(V1)[0]
    assert [rd.median_ns for rd in cases.rounds(r)] == [r["median_ns"]]


# --- benchstat -----------------------------------------------------------------------------


def benchstat() -> str:
    """benchstat on PATH, or where `make setup-variants` builds it (.venv/bin)."""
    local = ROOT / ".venv" / "bin" / "benchstat"
    found = shutil.which("benchstat") or (str(local) if local.exists() else None)
    if found is None:  # a failure in CI (conftest.STRICT_SUITES)
        pytest.skip("benchstat not built: `make setup-variants` (scripts/setup.py --test-tools)")
    return found


ROW = re.compile(r"^(\S+)\s.*\s(~|[+-]\d+\.\d+%)\s+\(p=([\d.]+) n=(\d+)\)$")


def sec_per_op_rows(text: str) -> dict[str, tuple[str, float, int]]:
    """benchstat's sec/op table: name → (change or ~, p, n)."""
    table = next(t for t in text.split("\n\n") if "sec/op" in t)
    return {
        m[1]: (m[2], float(m[3]), int(m[4]))
        for m in (ROW.match(ln.strip()) for ln in table.splitlines())
        if m
    }


def test_gobench_has_one_line_per_round_and_the_config():
    text = EXPORTS["gobench"](BASE)
    lines = [ln for ln in text.splitlines() if ln.startswith("Benchmark")]
    assert len(lines) == 6 * len(cases.measured(BASE))
    planted = [
        ln
        for ln in lines
        if ln.startswith("BenchmarkSha256/impl=go:stdlib/op=digest/size=1024-1\t")
    ]
    assert len(planted) == 6 and all("MB/s" in ln and "cycles/B" in ln for ln in planted)
    argon = [ln for ln in lines if ln.startswith("BenchmarkArgon2id/")]
    assert argon and not any("MB/s" in ln for ln in argon)  # a password length is no throughput
    for key in (
        "goos: linux",
        "goarch: amd64",
        "pkg: cryptobench",
        "cpu: synthetic",
        "go-version: go1.26.8",
    ):
        assert any(ln.startswith(key) for ln in text.splitlines()), key


def test_benchstat_flags_the_planted_slowdown_and_nothing_between_copies(tmp_path):
    exe = benchstat()
    files = write(tmp_path, "gobench", base=BASE, copy=BASE, slow=SLOW)
    same = sec_per_op_rows(run(exe, files["base"], files["copy"]))
    assert len(same) == len(cases.measured(BASE))
    assert all(change == "~" and n == 6 for change, _, n in same.values()), same
    diff = sec_per_op_rows(run(exe, files["base"], files["slow"]))
    change, p, n = diff["Sha256/impl=go:stdlib/op=digest/size=1024-1"]
    assert change != "~" and 90 < float(change.rstrip("%")) < 110 and p < 0.05 and n == 6


# --- pyperf --------------------------------------------------------------------------------


def pyperf(*args) -> str:
    return run(sys.executable, "-m", "pyperf", *args)


def test_pyperf_reads_one_value_per_round(tmp_path):
    import pyperf as pyperf_mod

    files = write(tmp_path, "pyperf", base=BASE)
    suite = pyperf_mod.BenchmarkSuite.load(str(files["base"]))
    by_name = {b.get_name(): b for b in suite.get_benchmarks()}
    for r in cases.measured(BASE):
        bench = by_name[cases.label(r)]
        assert bench.get_unit() == "second" and bench.get_nrun() == 6
        assert bench.get_values() == pytest.approx([x["median_ns"] / 1e9 for x in r["rounds"]])
    assert suite.get_metadata()["cpu_model_name"] == BASE["machine"]["cpu_model"]
    shown = pyperf("show", files["base"])
    assert all(cases.label(r) in shown for r in cases.measured(BASE))


def test_pyperf_compare_to_flags_the_planted_slowdown_and_nothing_between_copies(tmp_path):
    files = write(tmp_path, "pyperf", base=BASE, copy=BASE, slow=SLOW)
    same = pyperf("compare_to", files["base"], files["copy"])
    n = len(cases.measured(BASE))
    assert f"Benchmark hidden because not significant ({n})" in same
    assert "slower" not in same and "faster" not in same
    diff = pyperf("compare_to", files["base"], files["slow"])
    planted = next(ln for ln in diff.splitlines() if ln.startswith(PLANTED + ":"))
    ratio = float(re.search(r"(\d+\.\d+)x slower", planted)[1])
    assert 1.9 < ratio < 2.1


# --- OpenMetrics ---------------------------------------------------------------------------


def test_openmetrics_is_read_by_the_openmetrics_parser():
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    doc = export_docs.make_doc(rounds=3)
    doc["results"][0]["implementation"] = f'{HOSTILE}"\\\n{SCRIPT_BREAK}'
    families = {f.name: f for f in text_string_to_metric_families(EXPORTS["openmetrics"](doc))}
    seconds = families["cryptobench_op_seconds"]
    assert seconds.type == "gauge" and seconds.unit == "seconds"
    measured = cases.measured(doc)
    assert [s.value for s in seconds.samples] == pytest.approx(
        [r["median_ns"] / 1e9 for r in measured]
    )
    assert seconds.samples[0].labels["implementation"] == doc["results"][0]["implementation"]
    low = [s.value for s in families["cryptobench_op_low_seconds"].samples]
    assert low == pytest.approx([r["ci_low_ns"] / 1e9 for r in measured])
    assert families["cryptobench_run"].samples[0].labels["run_id"] == doc["run"]["id"]
    assert {s.labels["runtime"] for s in families["cryptobench_runtime"].samples} == {"go", "rust"}


# --- formats with no installable consumer: checked field by field --------------------------

# https://bencher.dev/docs/reference/bencher-metric-format/ ("BMF JSON Schema")
BMF_SCHEMA = {
    "type": "object",
    "patternProperties": {
        ".+": {
            "type": "object",
            "patternProperties": {
                ".+": {
                    "type": "object",
                    "properties": {
                        "value": {"type": "number"},
                        "lower_value": {"type": "number"},
                        "upper_value": {"type": "number"},
                    },
                    "required": ["value"],
                }
            },
        }
    },
}


def test_bmf_follows_the_published_schema_with_our_interval():
    bmf = json.loads(EXPORTS["bmf"](BASE))
    jsonschema.validate(bmf, BMF_SCHEMA)
    measured = cases.measured(BASE)
    assert list(bmf) == [cases.label(r) for r in measured]
    for r in measured:
        measures = bmf[cases.label(r)]
        assert set(measures) == {"latency", "throughput"}  # Bencher's built-in measure slugs
        lat, thr = measures["latency"], measures["throughput"]
        assert (lat["lower_value"], lat["value"], lat["upper_value"]) == (
            r["ci_low_ns"],
            r["median_ns"],
            r["ci_high_ns"],
        )  # ns, Bencher's latency unit
        assert thr["value"] == pytest.approx(1e9 / r["median_ns"])  # operations / second
        assert thr["lower_value"] < thr["value"] < thr["upper_value"]


# github-action-benchmark src/extract.ts: BenchmarkResult = {name: string, value: number,
# range?: string, unit: string, extra?: string}; customSmallerIsBetter reads an array of them.
GAB_FIELDS = {"name": str, "value": (int, float), "unit": str, "range": str, "extra": str}


def test_github_action_benchmark_is_an_array_of_benchmark_results():
    entries = json.loads(EXPORTS["github-action-benchmark"](BASE))
    measured = cases.measured(BASE)
    assert isinstance(entries, list) and len(entries) == len(measured)
    for e, r in zip(entries, measured, strict=True):
        assert {"name", "value", "unit"} <= set(e) <= set(GAB_FIELDS)
        assert all(isinstance(e[k], GAB_FIELDS[k]) for k in e)
        assert (e["name"], e["unit"], e["value"]) == (cases.label(r), "ns/op", r["median_ns"])
        half = float(e["range"].removeprefix("± "))
        assert half == pytest.approx((r["ci_high_ns"] - r["ci_low_ns"]) / 2, rel=1e-3)


# google/benchmark src/json_reporter.cc (JSONReporter::ReportContext / PrintRunData) and
# docs/user_guide.md ("Output Formats"), json_schema_version 1.
GBENCH_CONTEXT = {
    "date": str,
    "host_name": str,
    "executable": str,
    "num_cpus": int,
    "mhz_per_cpu": int,
    "caches": list,
    "load_avg": list,
    "library_version": str,
    "library_build_type": str,
    "json_schema_version": int,
}
GBENCH_ITERATION = {
    "name",
    "family_index",
    "per_family_instance_index",
    "run_name",
    "run_type",
    "repetitions",
    "repetition_index",
    "threads",
    "iterations",
    "real_time",
    "cpu_time",
    "time_unit",
}
GBENCH_AGGREGATE = GBENCH_ITERATION - {"repetition_index"} | {"aggregate_name", "aggregate_unit"}


def test_gbench_follows_the_json_reporter():
    out = json.loads(EXPORTS["gbench"](BASE))
    assert set(out) == {"context", "benchmarks"}
    ctx = out["context"]
    assert all(isinstance(ctx[k], t) for k, t in GBENCH_CONTEXT.items())
    assert ctx["json_schema_version"] == 1 and ctx["library_build_type"] in ("release", "debug")
    assert all(isinstance(v, str) for k, v in ctx.items() if k not in GBENCH_CONTEXT)  # custom
    for family, r in enumerate(cases.measured(BASE)):
        mine = [b for b in out["benchmarks"] if b["family_index"] == family]
        reps = [b for b in mine if b["run_type"] == "iteration"]
        aggs = {b["aggregate_name"]: b for b in mine if b["run_type"] == "aggregate"}
        extra = {"bytes_per_second"} if cases.per_byte(r) else set()
        assert all(set(b) == GBENCH_ITERATION | extra for b in reps)
        assert [b["repetition_index"] for b in reps] == list(range(6))
        assert [b["real_time"] for b in reps] == [x["median_ns"] for x in r["rounds"]]
        assert all(
            b["run_name"] == b["name"] == cases.label(r) and b["time_unit"] == "ns" for b in reps
        )
        assert set(aggs) == {"mean", "median", "stddev", "cv"}
        for name, b in aggs.items():
            assert set(b) == GBENCH_AGGREGATE | extra
            assert (
                b["name"] == f"{cases.label(r)}_{name}" and b["iterations"] == b["repetitions"] == 6
            )
            assert b["aggregate_unit"] == ("percentage" if name == "cv" else "time")
        assert aggs["median"]["real_time"] == statistics.median(b["real_time"] for b in reps)


# --- the CLI -------------------------------------------------------------------------------


def test_show_prints_an_export_of_a_stored_run(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(BASE))
    assert cli("import", str(path)).returncode == 0
    shown = cli("show", "last", "--format", "gobench")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == EXPORTS["gobench"](BASE)


def test_run_writes_several_exports_at_once(tmp_path):
    gobench, pyperf_file = tmp_path / "run.txt", tmp_path / "run.json"
    proc = cli(
        *QUICK_RUN,
        "--rounds",
        "2",
        "--format",
        "json",
        "--export",
        f"gobench={gobench}",
        "--export",
        f"pyperf={pyperf_file}",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert gobench.read_text() == EXPORTS["gobench"](doc)
    assert pyperf_file.read_text() == EXPORTS["pyperf"](doc)
    assert f"wrote {gobench}" in proc.stderr


@pytest.mark.parametrize("bad", ["nope=x.txt", "gobench", "gobench="])
def test_a_bad_export_is_a_usage_error_before_measuring(bad):
    proc = cli("run", "--runtime", "python", "--primitive", "md5", "--export", bad)
    assert proc.returncode == 2
    assert "FORMAT=FILE" in proc.stderr and "gobench" in proc.stderr


# --- docs/exports.md -----------------------------------------------------------------------

EXAMPLE = re.compile(r"<!-- export: ([\w-]+) -->\n```\w+\n(.*?)```", re.S)


def test_the_documented_examples_are_what_cryptobench_prints():
    """Each example in docs/exports.md, cut where it shows `…`, appears in that order in the
    export of the docs' example run (one case, 3 rounds)."""
    examples = dict(EXAMPLE.findall((ROOT / "docs" / "exports.md").read_text()))
    assert set(examples) == set(EXPORTS)
    doc = export_docs.make_doc(rounds=3, cases=export_docs.EXAMPLE)
    for fmt, text in examples.items():
        real, at = EXPORTS[fmt](doc), 0
        for chunk in re.split(r"^…\n", text, flags=re.M):
            found = real.find(chunk, at)
            assert found >= 0, f"{fmt}: not in the real export:\n{chunk}"
            at = found + len(chunk)

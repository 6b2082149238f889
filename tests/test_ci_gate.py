"""The CI gate recipe (docs/ci.md, scripts/ci_gate.py) on fixture runs: a planted regression
fails it, an unchanged build passes, a slowdown below the threshold passes; `measure`
alternates the two builds. Runs are synthetic (tests/fakes/export_docs.py), one round each,
as `measure` writes them: no timing here."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid

from cryptobench import stats

from .conftest import ROOT
from .fakes import export_docs

SCRIPT = ROOT / "scripts" / "ci_gate.py"
PASSES = 6


def write_passes(out, side: str, seed0: int, slow: dict | None = None) -> None:
    out.mkdir(exist_ok=True)
    for p in range(1, PASSES + 1):
        doc = export_docs.make_doc(rounds=1, seed=seed0 + p, slow=slow, run_id=str(uuid.uuid4()))
        (out / f"{side}-{p}.json").write_text(json.dumps(doc))


def gate(out, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "gate", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={"GITHUB_STEP_SUMMARY": str(out / "summary.md"), "PATH": "/usr/bin:/bin"},
    )


def test_an_unchanged_build_passes(tmp_path):
    write_passes(tmp_path, "base", 0)
    write_passes(tmp_path, "head", 100)  # the same speeds, other noise
    proc = gate(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[ci-gate] passed" in proc.stderr
    assert "sha256" in (tmp_path / "summary.md").read_text()


def test_a_planted_regression_fails(tmp_path):
    write_passes(tmp_path, "base", 0)
    write_passes(tmp_path, "head", 100, slow={export_docs.PLANTED: 2.0})
    proc = gate(tmp_path, "--fail-above", "5")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "FAILED" in proc.stderr
    assert "sha256" in proc.stdout


def test_a_slowdown_below_the_threshold_passes(tmp_path):
    write_passes(tmp_path, "base", 0)
    write_passes(tmp_path, "head", 100, slow={export_docs.PLANTED: 1.03})
    assert gate(tmp_path, "--fail-above", "10").returncode == 0


def test_the_passes_become_the_rounds_of_one_run(tmp_path):
    write_passes(tmp_path, "base", 0)
    write_passes(tmp_path, "head", 100)
    gate(tmp_path)
    merged = json.loads((tmp_path / "base.json").read_text())
    assert merged["run"]["name"] == "base" and merged["run"]["settings"]["rounds"] == PASSES
    passes = [json.loads((tmp_path / f"base-{p}.json").read_text()) for p in range(1, 7)]
    for i, r in enumerate(merged["results"]):
        if r["status"] != "ok":
            assert r["status"] == passes[0]["results"][i]["status"]
            continue
        medians = [p["results"][i]["rounds"][0]["median_ns"] for p in passes]
        assert [x["median_ns"] for x in r["rounds"]] == medians
        assert [x["round"] for x in r["rounds"]] == list(range(1, PASSES + 1))
        assert {s["round"] for s in r["samples"]} == set(range(1, PASSES + 1))
        ci = stats.rounds_ci(medians, [x["ci_low_ns"] for x in r["rounds"]],
                             [x["ci_high_ns"] for x in r["rounds"]])  # fmt: skip
        assert (r["median_ns"], r["ci_low_ns"], r["ci_high_ns"]) == (ci.median, ci.low, ci.high)
        assert not any(f.startswith("one round") for f in r["flags"])


def test_measure_alternates_base_and_head_with_their_own_cryptobench(tmp_path):
    args = ["measure", "b", "h", str(tmp_path), "--passes", "4", "--seed", "7", "--dry-run"]
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--", "--runtime", "python"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("[ci-gate] pass")]
    sides = [ln.split(", ")[1].split(":")[0] for ln in lines]
    assert sides == ["base", "head", "head", "base", "base", "head", "head", "base"]
    for ln in lines:
        side, p = ln.split(", ")[1].split(":")[0], int(ln.split()[2].split("/")[0])
        folder = "b" if side == "base" else "h"
        assert f"/{folder}/.venv/bin/cryptobench run --preset quick --rounds 1" in ln
        assert f"--seed {7 + p} " in ln and ln.endswith("--runtime python")
        assert f"{side}-{p}.json" in ln


def test_the_documented_workflow_calls_the_gate_as_tested(tmp_path):
    """docs/examples/ci-gate.yml: its `measure` and `gate` lines parse, with the options the
    docs promise (quick preset, 6 passes, --fail-above 5)."""
    workflow = (ROOT / "docs" / "examples" / "ci-gate.yml").read_text()
    calls = [
        ln.split("ci_gate.py ", 1)[1].split() for ln in workflow.splitlines() if "ci_gate.py " in ln
    ]
    measure = next(c for c in calls if c[0] == "measure")
    gate_call = next(c for c in calls if c[0] == "gate")
    assert measure[1:4] == ["base", "head", "gate-out"] and "--passes" in measure
    assert measure[measure.index("--preset") + 1] == "quick"
    assert gate_call[gate_call.index("--fail-above") + 1] == "5"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), *measure, "--dry-run"], capture_output=True, text=True,
        cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("[ci-gate] pass") == 2 * int(measure[measure.index("--passes") + 1])
    assert "ci_gate.py" in (ROOT / "docs" / "ci.md").read_text()

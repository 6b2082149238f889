"""Wrong parameters are never measured as if right (issue 33, item 4): parameters parsed by their
declared type, NaN and infinities refused wherever a number is taken, seeds in range, labels
and names checked on every path, files read with a size limit, and `import` refusing rows
the tool would never write (saying which)."""

from __future__ import annotations

import json
import os

import pytest

from cryptobench.catalog import primitives as catalog
from cryptobench.errors import UsageError
from cryptobench.plan import cases as plan
from cryptobench.results.identity import check_label

from .conftest import ROOT

FAST = ["--primitive", "sha256", "--size", "64", "--time-per-case", "0.05", "--rounds", "1"]


@pytest.fixture(scope="module")
def cat():
    return catalog.load()


@pytest.mark.parametrize("value", ["no", "maybe", "✓", "yes", "2", "nan", "0.5", ""])
def test_a_boolean_takes_only_true_false_1_0(cat, value):
    prim = cat.get("hmac-sha256")
    with pytest.raises(UsageError, match="fresh_context"):
        cat.resolve_params(prim, dict([plan.parse_param(f"fresh_context={value}")]), "mac")


@pytest.mark.parametrize(("value", "want"), [("true", True), ("FALSE", False), ("1", True)])
def test_true_false_and_1_0_are_booleans(cat, value, want):
    prim = cat.get("hmac-sha256")
    got = cat.resolve_params(prim, dict([plan.parse_param(f"fresh_context={value}")]), "mac")
    assert got["fresh_context"] is want


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "1e999"])
def test_nan_and_infinities_are_refused_as_params(value):
    with pytest.raises(UsageError, match="finite"):
        plan.parse_param(f"out_len={value}")


@pytest.mark.parametrize("value", ["1.5", "32.0", "true", "abc"])
def test_an_integer_param_takes_only_an_integer(cat, value):
    prim = cat.get("shake128")
    with pytest.raises(UsageError, match="out_len"):
        cat.resolve_params(prim, dict([plan.parse_param(f"out_len={value}")]), "digest")


@pytest.mark.parametrize(
    "args",
    [
        ["--param", "fresh_context=no"],
        ["--param", "out_len=nan"],
        ["--time-per-case", "nan"],
        ["--time-per-case", "inf"],
        ["--precision", "nan"],
        ["--timeout", "nan"],
        ["--seed", "-1"],
        ["--seed", str(2**70)],
        ["--machine-label", "fake\nrow"],
        ["--machine-label", ""],
    ],
)
def test_the_run_command_refuses_with_exit_2(run_cli, fakes, args):
    fakes("ok")
    proc = run_cli("run", *FAST, *args)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "a.json", "b.json", "--alpha", "nan"],
        ["compare", "a.json", "b.json", "--min-effect", "inf"],
        ["compare", "a.json", "b.json", "--fail-above", "nan"],
    ],
)
def test_other_commands_refuse_nan_with_exit_2(run_cli, args):
    proc = run_cli(*args)
    assert proc.returncode == 2 and "finite" in proc.stderr


def test_a_label_from_the_environment_is_checked(run_cli, fakes):
    fakes("ok")
    proc = run_cli("run", *FAST, env={"CRYPTOBENCH_MACHINE_LABEL": "x\ny"})
    assert proc.returncode == 2 and "CRYPTOBENCH_MACHINE_LABEL" in proc.stderr


@pytest.mark.parametrize("label", ["c7i.large", "build host 2", "β-box"])
def test_ordinary_labels_pass(label):
    assert check_label(label) == label


@pytest.mark.parametrize("label", ["a\nb", "tab\there", " lead", "x" * 65, "nul\0"])
def test_labels_that_would_break_a_listing_are_refused(label):
    with pytest.raises(UsageError):
        check_label(label)


def test_a_preset_with_a_wrong_typed_param_is_refused(run_cli, fakes, tmp_path):
    fakes("ok")
    preset = tmp_path / "p.toml"
    preset.write_text('[[group]]\nprimitives = ["hmac-sha256"]\nparams = {fresh_context = "no"}\n')
    proc = run_cli("run", "--preset", str(preset))
    assert proc.returncode == 2 and "fresh_context" in proc.stderr


# -- files read with a limit ---------------------------------------------------------------


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_preset_is_refused_at_once(run_cli, path):
    proc = run_cli("run", "--preset", path, timeout=30)
    assert proc.returncode == 2 and "not a regular file" in proc.stderr


def test_a_fifo_as_results_file_is_refused_at_once(run_cli, tmp_path):
    fifo = tmp_path / "in.json"
    os.mkfifo(fifo)
    proc = run_cli("import", str(fifo), timeout=30)
    assert proc.returncode == 1 and "not a regular file" in proc.stderr


def test_a_huge_preset_is_refused(run_cli, tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (2 << 20) + "\n")
    proc = run_cli("run", "--preset", str(big))
    assert proc.returncode == 2 and "larger than" in proc.stderr


# -- import checks rows against the catalog and the naming rules ---------------------------


def _doc() -> dict:
    return json.loads((ROOT / "tests" / "fixtures" / "advise-run.json").read_text())


def _import(run_cli, tmp_path, doc: dict):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(doc))
    return run_cli("import", str(path))


def test_import_refuses_rows_no_command_writes_and_says_which(run_cli, tmp_path):
    doc = _doc()
    doc["results"][1]["primitive"] = "rot13"
    doc["results"][2]["library"] = "<script>alert(1)</script>"
    doc["results"][3]["operation"] = "encrypt" if doc["results"][3]["family"] == "hash" else "x"
    proc = _import(run_cli, tmp_path, doc)
    assert proc.returncode == 1, proc.stderr
    assert "refused row 1" in proc.stderr and "not in the catalog" in proc.stderr
    assert "refused row 2" in proc.stderr and "markup" in proc.stderr
    assert "refused row 3" in proc.stderr
    shown = json.loads(run_cli("show", "last", "--format", "json").stdout)
    assert len(shown["results"]) == len(doc["results"]) - 3
    assert "<script>" not in json.dumps(shown)


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", "bad name!"), ("name", "last"), ("label", "evil\nrow"), ("name", "deadbeef")],
)
def test_import_refuses_a_run_with_a_bad_name_or_label(run_cli, tmp_path, field, value):
    doc = _doc()
    if field == "label":
        doc["machine"]["label"] = value
    else:
        doc["run"]["name"] = value
    proc = _import(run_cli, tmp_path, doc)
    assert proc.returncode == 1 and "refused run" in proc.stderr
    assert "imported 0 runs" in proc.stderr


def test_a_clean_import_still_exits_0(run_cli, tmp_path):
    proc = _import(run_cli, tmp_path, _doc())
    assert proc.returncode == 0, proc.stderr
    assert "refused" not in proc.stderr

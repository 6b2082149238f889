"""User presets (--preset FILE.toml, docs/presets.md) and sizes with units, through the CLI."""

from __future__ import annotations

import json

import pytest

from cryptobench.catalog.sizes import parse_size
from cryptobench.errors import UsageError

from .conftest import cli

GOOD = """description = "mine"
time_per_case = 0.05

[[group]]
primitives = ["sha256"]
operations = ["digest"]
sizes = [16, "1KiB"]
"""


@pytest.mark.parametrize(
    "text,want",
    [("1024", 1024), ("64KiB", 65536), ("1GiB", 1 << 30), ("1.5MiB", 1572864), ("2kB", 2000),
     ("7 B", 7), (12, 12)],
)  # fmt: skip
def test_sizes_take_units(text, want):
    assert parse_size(text) == want


@pytest.mark.parametrize("text", ["", "-5", "1PiB", "1.3B", "ten", "1e3"])
def test_bad_sizes_are_refused_with_the_valid_forms(text):
    with pytest.raises(UsageError, match="KiB"):
        parse_size(text)


def test_a_user_preset_file_runs(fakes, tmp_path):
    fakes("ok")
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    proc = cli("run", "--preset", str(path), "--rounds", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["run"]["preset"] == "mine"
    got = {(r["primitive"], r["size"]) for r in doc["results"] if r["primitive"] != "noop"}
    assert got == {("sha256", 16), ("sha256", 1024)}


def test_size_with_a_unit_on_the_command_line(fakes):
    fakes("ok")
    proc = cli("run", "--primitive", "sha256", "--size", "2KiB", "--time-per-case", "0.05",
               "--rounds", "1", "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    sizes = {r["size"] for r in json.loads(proc.stdout)["results"] if r["primitive"] == "sha256"}
    assert sizes == {2048}
    bad = cli("run", "--primitive", "sha256", "--size", "2QiB")
    assert bad.returncode == 2 and "KiB" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize(
    "text,where",
    [
        (GOOD + '\n[[group]]\nprimitives = ["sha256"]\nsizez = [1]\n', ":11: unknown key 'sizez'"),
        (GOOD.replace('"sha256"', '"nosuch"'), ":5: unknown primitive 'nosuch'"),
        (GOOD.replace('"1KiB"', '"1QiB"'), ":7: invalid size '1QiB'"),
        (GOOD.replace("0.05", "'fast'"), ":2: time_per_case must be a number"),
        (GOOD.replace('"digest"', '"digets"'), ":6: unknown operation 'digets'"),
        (GOOD.replace("sizes = [16,", "sizes = [16"), ":7: not valid TOML"),
        ('description = "x"\n', ":1: a preset needs at least one [[group]]"),
    ],
)
def test_a_bad_preset_file_says_which_line(fakes, tmp_path, text, where):
    fakes("ok")
    path = tmp_path / "bad.toml"
    path.write_text(text)
    proc = cli("run", "--preset", str(path))
    assert proc.returncode == 2, proc.stderr
    assert f"{path}{where}" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_missing_preset_file_is_a_usage_error(tmp_path):
    proc = cli("run", "--preset", str(tmp_path / "none.toml"))
    assert proc.returncode == 2 and "cannot read preset" in proc.stderr


def test_what_a_preset_leaves_out_is_named(fakes, tmp_path):
    fakes("ok", "other")
    path = tmp_path / "mine.toml"
    path.write_text('exclude = ["fake-other/*"]\n' + GOOD)
    proc = cli("run", "--preset", str(path), "--rounds", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    # every implementation of fake-other is excluded: that runtime is not even started
    said = "left out as `mine` leaves them: fake-other/* (not started) (--impl ID names one back)"
    assert said in " ".join(proc.stderr.split())  # the console wraps it at its width
    doc = json.loads(proc.stdout)
    got = {r["implementation"] for r in doc["results"]}
    assert "fake-other/fakelib" not in got and "fake-ok/fakelib" in got
    assert [r["id"] for r in doc["run"]["runtimes"]] == ["fake-ok"]
    # --impl names it back, and then it is started
    proc = cli(
        "run",
        "--preset",
        str(path),
        "--rounds",
        "1",
        "--format",
        "json",
        "--impl",
        "fake-other/fakelib",
    )
    assert proc.returncode == 0, proc.stderr
    got = {r["implementation"] for r in json.loads(proc.stdout)["results"]}
    assert "fake-other/fakelib" in got


def test_a_preset_that_excludes_some_of_a_runtime_names_them_and_starts_it(fakes, tmp_path):
    fakes("ok", "other")
    path = tmp_path / "mine.toml"
    path.write_text('exclude = ["fake-other/fakelib"]\n' + GOOD)
    proc = cli("run", "--preset", str(path), "--rounds", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    said = "left out as `mine` leaves them: fake-other/fakelib (--impl ID names one back)"
    assert said in " ".join(proc.stderr.split())
    assert "fake-other" in [r["id"] for r in json.loads(proc.stdout)["run"]["runtimes"]]


@pytest.mark.parametrize(
    "exclude,impls,whole",
    [
        (["java@25/*"], [], True),
        (["java@25*"], [], True),
        (["*/*"], [], True),
        (["java@25/b*"], [], False),
        (["java@25/jdk"], [], False),
        (["java/*"], [], False),  # another runtime's
        (["java@25/*"], ["java@25/jdk"], False),  # named back
        ([], [], False),
    ],
)
def test_which_exclusions_leave_a_whole_runtime_out(exclude, impls, whole):
    from cryptobench.plan.cases import Filters, excludes_runtime

    assert excludes_runtime("java@25", Filters(impls=impls, exclude=exclude)) is whole

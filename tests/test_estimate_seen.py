"""A run's estimate takes the rounds its cases went on to from the last complete run on this
machine with the same settings (run/pipeline._go_on_seen), in a real SQLite store."""

from __future__ import annotations

import json
import re

from cryptobench.measure import rounds
from cryptobench.run import lifecycle, pipeline
from cryptobench.store.sqlite import open_store
from tests.conftest import cli

SETTINGS = {"rounds": 8, "jit_rounds": 5, "least_rounds": 4, "precision": 0.05}


def _run(store, run_id: str, started: str, taken: int, machine="m1", status="complete", **s):
    measuring = s.pop("measuring", None)
    asked = {k: s.pop(k) for k in ("command", "preset") if k in s}
    run = {
        **asked,
        "id": run_id,
        "started": started,
        "ended": started,
        "status": status,
        "settings": {**SETTINGS, **s},
        "machine": {"machine_id": machine, "hostname": "vm"},
        **({"measuring": measuring} if measuring else {}),
    }
    store.begin_run(run)
    for seq in range(3):
        row = {"runtime": "c", "implementation": f"c/lib{seq}", "primitive": "sha256"}
        rounds = [{"round": i + 1} for i in range(taken)]
        row |= {"operation": "digest", "size": 64, "status": "ok", "rounds": rounds}
        store.put_case(run_id, seq, {**row, "rounds_planned": 8})
    return run


def test_the_last_complete_run_here_with_the_same_settings_is_read(tmp_path):
    store = open_store(tmp_path / "r.sqlite")
    _run(store, "old", "2026-12-01T10:00:00+00:00", taken=8)  # all 8: share 1.0
    pace = {"estimate_s": 50.0, "took_s": 90.0, "as_taken_s": 60.0}  # 1.5× its rounds' plan
    _run(store, "new", "2026-12-01T11:00:00+00:00", taken=6, measuring=pace)  # 2 of 4 past
    _run(store, "there", "2026-12-01T12:00:00+00:00", taken=4, machine="m2")
    _run(store, "other", "2026-12-01T13:00:00+00:00", taken=4, precision=0.03)
    _run(store, "stopped", "2026-12-01T14:00:00+00:00", taken=4, status="interrupted")
    now = _run(store, "now", "2026-12-01T15:00:00+00:00", taken=4, status="running")
    assert pipeline._go_on_seen(store, lifecycle.earlier_runs(store, now), now, set()) == (
        {"c": 0.5, "*": 0.5},
        1.5,
        "the last run here",
    )


def test_the_shares_a_run_stored_are_taken_over_its_cases(tmp_path):
    store = open_store(tmp_path / "r.sqlite")
    stored = {"took_s": 30.0, "as_taken_s": 30.0, "go_on": {"c": 0.25, "*": 0.25}}
    _run(store, "new", "2026-12-01T11:00:00+00:00", taken=8, measuring=stored)  # cases: 1.0
    now = _run(store, "now", "2026-12-01T15:00:00+00:00", taken=4, status="running")
    assert pipeline._go_on_seen(store, lifecycle.earlier_runs(store, now), now, set()) == (
        {"c": 0.25, "*": 0.25},
        1.0,
        "the last run here",
    )


def test_a_first_run_here_keeps_the_quiet_machine_s_shares(tmp_path):
    store = open_store(tmp_path / "r.sqlite")
    now = _run(store, "now", "2026-12-01T15:00:00+00:00", taken=4, status="running")
    assert pipeline._go_on_seen(store, lifecycle.earlier_runs(store, now), now, set()) == (
        {},
        1.0,
        None,
    )


def test_the_run_that_asked_the_same_question_is_read_before_a_newer_other_one(tmp_path):
    """`make bench` after `run --primitive sha256 --size 1KiB` had read that run's quiet 1 KiB
    cases (0.09 of the rounds past the least, pace 1.00) and said "about 3.2 min" for 6.3 min;
    the `default` run before it had gone on 0.49–0.59 at 1.36–1.40× (2026-12-04)."""
    store = open_store(tmp_path / "r.sqlite")
    default = "cryptobench run --preset default"
    paced = {"took_s": 90.0, "as_taken_s": 60.0}
    _run(store, "d1", "2026-12-01T09:00:00+00:00", 8, command=default, preset="default")
    _run(
        store,
        "d2",
        "2026-12-01T10:00:00+00:00",
        6,
        command=default,
        preset="default",
        measuring=paced,
    )
    seeded = f"{default} --seed 7"
    _run(store, "seed", "2026-12-01T11:00:00+00:00", 5, command=seeded, preset="default")
    _run(store, "sha", "2026-12-01T12:00:00+00:00", 4, command="cryptobench run --size 1KiB")
    now = _run(
        store,
        "now",
        "2026-12-01T15:00:00+00:00",
        4,
        status="running",
        command=default,
        preset="default",
    )

    def earlier(now):
        return lifecycle.earlier_runs(store, now)

    assert pipeline._go_on_seen(store, earlier(now), now, set()) == (
        {"c": 0.5, "*": 0.5},  # d2, the newest of the same command: 2 of its 4 rounds past
        1.5,
        "this command's last run here",
    )
    seeded = {**now, "command": f"{default} --seed 9"}  # another seed: the preset's last run
    assert pipeline._go_on_seen(store, earlier(now), seeded, set()) == (
        {"c": 0.25, "*": 0.25},
        1.0,
        "the preset's last run here",
    )
    other = {**now, "command": "cryptobench run --size 64", "preset": None}
    assert pipeline._go_on_seen(store, earlier(now), other, set())[2] == "the last run here"


def test_a_run_stores_its_pace_and_the_next_one_here_plans_with_it(fakes, tmp_path):
    fakes("ok")
    db = str(tmp_path / "r.sqlite")
    args = ("run", "--primitive", "sha256", "--size", "16", "--size", "64", "--size", "1KiB")
    args += ("--time-per-case", "0.05", "--db", db, "--format", "json")
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    took = json.loads(first.stdout)["run"]["measuring"]
    assert took["estimate_s"] > 0 and took["took_s"] > 0 and took["as_taken_s"] > 0
    assert set(took["go_on"]) == {"fake-ok", "*"}  # 3 cases of one runtime without a JIT
    second = cli(*args)
    assert second.returncode == 0, second.stderr
    said = " ".join(second.stderr.split())  # the console wraps at its width
    assert "its rounds as this command's last run here took them" in said
    pace = rounds.pace_seen(took)
    assert pace == 1.0 or f"at its pace ({pace:.2f}× the plan's)" in said
    # a short estimate in seconds (under 90 s), as its figure: not "about 0.1 min" for 2 s
    again = json.loads(second.stdout)["run"]
    assert again["measuring"]["fastest_probe"]["run"] == json.loads(first.stdout)["run"]["id"]
    estimate = again["measuring"]["estimate_s"]
    shown = re.search(r"measuring: about (\d+) s", said)
    assert estimate < 90 and shown and abs(int(shown[1]) - estimate) <= 1


def test_the_fastest_probe_here_is_taken_from_this_machine_s_complete_runs(tmp_path):
    store = open_store(tmp_path / "r.sqlite")
    for run_id, started, probes, machine, status in (
        ("slow", "2026-12-01T10:00:00+00:00", [1900.0, 2000.0], "m1", "complete"),
        ("fast", "2026-12-01T11:00:00+00:00", [790.0, 810.0], "m1", "complete"),
        ("there", "2026-12-01T12:00:00+00:00", [400.0], "m2", "complete"),  # another machine
        ("cut", "2026-12-01T13:00:00+00:00", [500.0], "m1", "interrupted"),
        ("none", "2026-12-01T14:00:00+00:00", [], "m1", "complete"),  # no probe stored
    ):
        run = _run(store, run_id, started, taken=4, machine=machine, status=status)
        store.update_run({**run, "probes": [{"median_ns": ns} for ns in probes]})
    now = _run(store, "now", "2026-12-01T15:00:00+00:00", taken=4, status="running")
    earlier = lifecycle.earlier_runs(store, now)
    got = lifecycle.fastest_probe(earlier, now["machine"])
    assert got == {"ns": 799.9, "run": "fast", "started": "2026-12-01T11:00:00+00:00"}
    assert lifecycle.fastest_probe([]) is None
    # another Python's hashlib (or another CPU model under the same machine id) is no reference
    assert lifecycle.fastest_probe(earlier, {**now["machine"], "python": "3.13.0"}) is None

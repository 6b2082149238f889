"""The time left that progress lines print (run/progress.time_left), on fixed inputs."""

from __future__ import annotations

import io

import pytest

from cryptobench.run.progress import time_left


def test_before_any_step_the_plan_is_the_time_left():
    assert time_left(600.0, 0.0, 0, 100) == 600.0


def test_the_last_step_leaves_nothing_whichever_was_right():
    assert time_left(600.0, 410.0, 100, 100) == 0.0
    assert time_left(300.0, 410.0, 100, 100) == 0.0


def test_halfway_the_plan_and_the_pace_weigh_alike():
    # half the steps in 150 s: the pace says 150 s more, the plan's half says 300 s
    assert time_left(600.0, 150.0, 50, 100) == pytest.approx(0.5 * 300.0 + 0.5 * 150.0)


def test_near_the_end_the_pace_decides():
    # a plan 1.5x too long: 90% done in 270 s, 30 s more at that pace
    got = time_left(450.0, 270.0, 90, 100)
    assert got == pytest.approx(0.1 * 45.0 + 0.9 * 30.0) and got < 45.0


def test_steps_a_decided_case_will_not_take_leave_the_total():
    from rich.console import Console

    from cryptobench.run.progress import Progress

    bar = Progress(Console(file=io.StringIO()), 10, 60.0)
    bar.done = 3
    bar.skip(4)
    assert bar.total == 6
    bar.skip(10)  # never below what is done
    assert bar.total == 3


def test_rounds_measured_again_are_counted_and_said_as_such():
    from types import SimpleNamespace

    from rich.console import Console

    from cryptobench.run.progress import Progress

    out = io.StringIO()
    bar = Progress(Console(file=out, width=200), 2, 60.0)
    row = {
        "implementation": "c/lib",
        "primitive": "sha256",
        "operation": "digest",
        "size": 64,
        "status": "ok",
        "family": "hash",
        "median_ns": 100.0,
        "throughput_mb_s": 640.0,
        "precision": 0.01,
        "n_samples": 15,
    }
    case = SimpleNamespace(case=None)
    bar.update(case, 1, row)
    bar.update(case, 2, row)
    bar.more(1)  # the second look: one round measured again
    assert bar.total == 3
    bar.update(case, "2 again", row)
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("[3/3] c/lib sha256 digest 64 (round 2 again): 640.0 MB/s")
    assert last.endswith("about 0 s left")


def _probes(*us: float) -> list[dict]:
    return [{"round": i, "median_ns": v * 1e3} for i, v in enumerate(us, 1)]


def test_a_busy_machine_is_said_once_as_soon_as_the_probes_spread_past_the_bound():
    from rich.console import Console

    from cryptobench.run.progress import Progress
    from cryptobench.stats import BUSY_SPREAD

    out = io.StringIO()
    bar = Progress(Console(file=out, width=400), 40, 60.0)
    bar.probe(1, _probes(1.00))  # one probe: nothing to compare yet
    bar.probe(2, _probes(1.00, 1.00 + BUSY_SPREAD))  # at the bound: a quiet machine's
    assert out.getvalue() == ""
    bar.probe(3, _probes(1.00, 1.20, 1.38))
    said = out.getvalue()
    assert said.startswith("round 3: the drift probe") and "1.38x" in said
    assert "the machine is busy" in said and '"A busy machine"' in said
    bar.probe(4, _probes(1.00, 1.20, 1.38, 1.50))
    assert out.getvalue() == said  # said once


FASTEST = {"ns": 800.0, "run": "0123456789abcdef", "started": "2026-12-02T04:03:00+00:00"}


def test_a_machine_slower_than_its_fastest_earlier_run_is_said_once():
    from rich.console import Console

    from cryptobench.run.progress import Progress

    out = io.StringIO()
    bar = Progress(Console(file=out, width=400), 40, 60.0, FASTEST)
    bar.probe(1, _probes(0.95))  # 1.19x the fastest earlier run: within a quiet machine's
    assert out.getvalue() == ""
    bar.probe(2, _probes(0.95, 1.40))  # geometric mean 1.153 µs: 1.44x
    said = out.getvalue()
    assert said.startswith("round 2: the drift probe reads 1.44x as long as in this machine")
    assert "(0.80 µs, run 01234567 on 2026-12-02)" in said and "slower than it has been" in said
    bar.probe(3, _probes(0.95, 1.40, 1.50))
    assert out.getvalue().count("slower than it has been") == 1  # said once


def test_without_an_earlier_run_here_no_slowdown_is_said():
    from rich.console import Console

    from cryptobench.run.progress import Progress

    out = io.StringIO()
    bar = Progress(Console(file=out, width=400), 40, 60.0)
    bar.probe(1, _probes(5.0))
    assert out.getvalue() == ""

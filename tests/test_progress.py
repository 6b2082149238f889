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

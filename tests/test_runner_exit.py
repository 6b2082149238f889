"""How the orchestrator waits for a runner process to end (runtimes/protocol._exits and
RunnerProcess.close): woken when it ends, not polled; a process that lingers is killed."""

from __future__ import annotations

import subprocess
import sys

from cryptobench.runtimes import protocol


def test_a_process_that_ends_is_reaped():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    assert protocol._exits(proc, 30) and proc.returncode == 0


def test_a_process_that_lingers_is_not_waited_past_the_timeout():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert not protocol._exits(proc, 0.05) and proc.poll() is None
    finally:
        proc.kill()
        assert protocol._exits(proc, 30) and proc.returncode == -9


def test_an_already_reaped_process_counts_as_ended():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert protocol._exits(proc, 1)


def test_close_ends_a_runner_that_ignores_eof():
    # reads nothing: EOF on stdin does not end it, so close kills its group after the grace
    code = "import time; print('ready', flush=True); time.sleep(60)"
    runner = protocol.RunnerProcess([sys.executable, "-c", code], ".")
    runner.proc = subprocess.Popen(
        runner.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
    )
    runner.proc.stdout.readline()
    runner.close(grace=0.05)
    assert runner.proc.returncode == -9

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


def _runner(code: str) -> protocol.RunnerProcess:
    runner = protocol.RunnerProcess([sys.executable, "-c", code], ".")
    runner.proc = subprocess.Popen(
        runner.argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    return runner


def test_a_process_told_to_end_without_waiting_is_reaped_before_anything_else():
    """close(wait=False) returns while the process still runs (it ends while the next group's
    starts); reap_exiting waits for it, and kills one that lingers past its grace."""
    ends = _runner("import sys, time; sys.stdin.read(); time.sleep(0.3)")
    lingers = _runner("import time; time.sleep(60)")
    ends.close(grace=30, wait=False)
    lingers.close(grace=0.05, wait=False)
    assert ends.proc.poll() is None and lingers.proc.poll() is None
    protocol.reap_exiting()
    assert ends.proc.returncode == 0 and lingers.proc.returncode == -9
    protocol.reap_exiting()  # nothing left: returns at once


def test_every_request_but_a_hello_waits_for_ending_processes(monkeypatch):
    """A hello (a process starting) goes on while an earlier group's process ends; any other
    request may be timed, so it waits until none is ending."""
    import threading

    echo = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    print(json.dumps({'id': m['id'], 'ok': True, 'result': {}}), flush=True)\n"
    )
    reaped = []
    monkeypatch.setattr(protocol, "reap_exiting", lambda: reaped.append(True))
    runner = _runner(echo)
    threading.Thread(target=runner._pump_stdout, daemon=True).start()
    try:
        runner.request("hello", timeout=30)
        assert reaped == []
        runner.request("bench", timeout=30)
        assert reaped == [True]
    finally:
        runner.close()


def test_an_answer_line_is_read_through_a_buffer_whole_and_in_order():
    """The runner's pipes are unbuffered (a request reaches it the moment it is written); the
    pump reads its answers through a buffer of its own (readline on an unbuffered pipe reads
    one byte per system call: 18–20 ms for an answer carrying 8 KiB of ciphertext as hex).
    An answer far longer than the buffer, and one after it, still arrive whole."""
    import io
    import threading

    n = 3 * protocol.PIPE_READ
    big = "ab" * n
    echo = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        f"    out = 'ab' * {n} if m['op'] == 'bench' else 'x'\n"
        "    answer = {'id': m['id'], 'ok': True, 'result': {'output': out}}\n"
        "    print(json.dumps(answer), flush=True)\n"
    )
    runner = protocol.RunnerProcess([sys.executable, "-c", echo], ".")
    runner.proc = subprocess.Popen(
        runner.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert not isinstance(runner.proc.stdout, io.BufferedIOBase)  # as RunnerProcess.start's
    threading.Thread(target=runner._pump_stdout, daemon=True).start()
    try:
        assert runner.request("bench", timeout=30)["output"] == big
        assert runner.request("compute", timeout=30)["output"] == "x"
    finally:
        runner.close()

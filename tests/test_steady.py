"""measure/steady.py: a CPU's slow share and how long its slow stretches last, on fixed batches;
and `cryptobench doctor --machine` saying steady or busy for every CPU (no figure asserted: the
machine's state is whatever it is)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cryptobench.cli import main
from cryptobench.measure import steady

STEP = 0.001  # a batch every millisecond


def batches(ns_per_call: list[float]) -> list[tuple[float, float]]:
    return [(i * STEP, ns) for i, ns in enumerate(ns_per_call)]


def test_a_cpu_at_one_speed_is_steady():
    got = steady.summarize(0, batches([500.0 + (i % 7) for i in range(1000)]))
    assert got.slow_share == 0 and got.long_share == 0
    assert got.fast_ns == pytest.approx(500, abs=7) and got.batches == 1000
    assert steady.steady([got]) and steady.verdict([got]).startswith("steady:")


def test_a_long_slow_stretch_and_short_ones_are_told_apart():
    ns = [500.0] * 1000
    ns[100:400] = [1000.0] * 300  # 0.3 s slow: longer than a fast case's round
    for i in range(600, 1000, 100):
        ns[i : i + 5] = [1000.0] * 5  # four blips of 5 ms
    got = steady.summarize(1, batches(ns))
    assert got.slow_share == pytest.approx(0.32)
    # 0.300 s of 0.320 s slow lies in the one stretch longer than LONG_S
    assert got.long_share == pytest.approx(0.300 / 0.320)
    assert not steady.steady([got])
    assert steady.verdict([got]).startswith("busy: 32% of a CPU's batches slow")


def test_a_stretch_still_slow_at_the_end_counts_to_its_last_batch():
    got = steady.summarize(0, batches([500.0] * 800 + [1000.0] * 200))
    assert got.slow_share == pytest.approx(0.2)
    assert got.long_share == 1.0  # 0.2 s, through the last batch's end


def test_the_busiest_cpu_decides():
    calm = steady.summarize(0, batches([500.0] * 1000))
    busy = steady.summarize(1, batches([500.0] * 900 + [900.0] * 100))
    assert steady.steady([calm]) and not steady.steady([calm, busy])


def test_no_batch_is_an_error_not_a_verdict():
    with pytest.raises(ValueError, match="no batch"):
        steady.summarize(0, [])


def test_doctor_machine_reports_every_cpu_and_a_verdict():
    res = CliRunner().invoke(main, ["doctor", "--machine", "--seconds", "0.2"])
    assert res.exit_code == 0, res.output
    cpu_lines = [line for line in res.output.splitlines() if line.startswith("CPU ")]
    assert len(cpu_lines) >= 1 and all("ns a call at its fastest" in x for x in cpu_lines)
    assert res.output.splitlines()[-1].startswith(("steady:", "busy:"))


def test_doctor_machine_waits_for_no_run_it_would_spoil():
    from cryptobench.run.lock import RunLock

    with RunLock():  # a run measuring: keeping every CPU busy now would spoil its figures
        res = CliRunner().invoke(main, ["doctor", "--machine", "--seconds", "0.2"])
    assert res.exit_code == 1
    assert "another cryptobench run holds" in res.output
    assert "CPU " not in res.output  # nothing was sampled

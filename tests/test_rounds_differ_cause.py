"""The cause a "rounds differ" flag names (results/document._why_apart), on fixed rounds: the
calls' own noise, the machine (the run's drift probe moved as much in those rounds), or each
process settling at its own speed."""

from __future__ import annotations

from cryptobench.results.document import _why_apart


def _rounds(*medians: float, half: float = 0.01) -> list[dict]:
    return [
        {"round": i, "median_ns": m, "ci_low_ns": m * (1 - half), "ci_high_ns": m * (1 + half)}
        for i, m in enumerate(medians, 1)
    ]


def _probes(*us: float) -> list[dict]:
    return [{"round": i, "median_ns": v * 1e3} for i, v in enumerate(us, 1)]


def test_steady_rounds_while_the_probe_stayed_put_are_the_process_s():
    why = _why_apart(_rounds(100.0, 200.0, 100.0), _probes(2.0, 2.1, 2.0))
    assert why == "each round steady (±1.0%): each process settles at its own speed"


def test_steady_rounds_while_the_probe_moved_as_much_are_the_machine_s():
    why = _why_apart(_rounds(100.0, 200.0, 100.0), _probes(2.0, 3.0, 2.0))
    assert why.startswith("each round steady (±1.0%), and the drift probe took 1.50x as long")
    assert why.endswith("the machine's speed moved between them")


def test_only_the_probes_of_the_case_s_own_rounds_count():
    # the probe moved in round 4, which this case (decided after 3) was not measured in
    assert "settles" in _why_apart(_rounds(100.0, 200.0, 100.0), _probes(2.0, 2.0, 2.0, 4.0))
    # a round measured again after the last one: its round's probe is not its time's
    again = _rounds(100.0, 200.0, 100.0)
    again[1]["remeasured"] = "round 2 (300 ns) disagreed …: measured again in a fresh process"
    assert "settles" in _why_apart(again, _probes(2.0, 4.0, 2.0))


def test_calls_that_scatter_within_each_round_are_their_own_noise_whatever_the_probe():
    why = _why_apart(_rounds(100.0, 200.0, 100.0, half=0.2), _probes(2.0, 3.0, 2.0))
    assert why == "the calls scatter within each round too (±20%): the call's own noise"


def test_without_probes_the_cause_is_the_process_s():
    assert "settles" in _why_apart(_rounds(100.0, 200.0, 100.0))

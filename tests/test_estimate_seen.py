"""A run's estimate takes the rounds its cases went on to from the last complete run on this
machine with the same settings (run/pipeline._go_on_seen), in a real SQLite store."""

from __future__ import annotations

from cryptobench.run import pipeline
from cryptobench.store.sqlite import open_store

SETTINGS = {"rounds": 8, "jit_rounds": 5, "least_rounds": 4, "precision": 0.05}


def _run(store, run_id: str, started: str, taken: int, machine="m1", status="complete", **s):
    run = {
        "id": run_id,
        "started": started,
        "ended": started,
        "status": status,
        "settings": {**SETTINGS, **s},
        "machine": {"machine_id": machine, "hostname": "vm"},
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
    _run(store, "new", "2026-12-01T11:00:00+00:00", taken=6)  # 2 of the 4 past the least
    _run(store, "there", "2026-12-01T12:00:00+00:00", taken=4, machine="m2")
    _run(store, "other", "2026-12-01T13:00:00+00:00", taken=4, precision=0.03)
    _run(store, "stopped", "2026-12-01T14:00:00+00:00", taken=4, status="interrupted")
    now = _run(store, "now", "2026-12-01T15:00:00+00:00", taken=4, status="running")
    assert pipeline._go_on_seen(store, now, set()) == {"c": 0.5, "*": 0.5}


def test_a_first_run_here_keeps_the_quiet_machine_s_shares(tmp_path):
    store = open_store(tmp_path / "r.sqlite")
    now = _run(store, "now", "2026-12-01T15:00:00+00:00", taken=4, status="running")
    assert pipeline._go_on_seen(store, now, set()) == {}

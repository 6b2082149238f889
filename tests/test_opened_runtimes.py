"""Runtimes started once for more than one run (runtimes/session.Opened: `advise`'s passes),
on the fake runners, end to end."""

from __future__ import annotations

import io

from rich.console import Console

from cryptobench.plan import cases as plan
from cryptobench.run import pipeline
from cryptobench.runtimes import session


def _sha256_64(tmp_path, opened=None) -> pipeline.RunRequest:
    """A two-round run of SHA-256 at 64 B into a store of its own."""
    return pipeline.RunRequest(
        "test",
        tmp_path / "r.db",
        filters=plan.Filters(primitives=["sha256"], sizes=[64]),
        time_per_case=0.05,
        rounds=2,
        opened=opened,
    )


def test_a_run_on_opened_runtimes_neither_discovers_nor_times_their_starts_again(
    fakes, tmp_path, monkeypatch
):
    fakes("fixed")
    live, skipped = session.open_runtimes()
    opened = session.Opened(live, skipped, {"fake-fixed": 0.01})

    def again(*args, **kw):
        raise AssertionError("discovered or timed again")

    monkeypatch.setattr(pipeline, "runtime_specs", again)
    monkeypatch.setattr(pipeline, "start_all", again)
    monkeypatch.setattr(pipeline, "group_starts", again)
    req = _sha256_64(tmp_path, opened)
    done = pipeline.run(req, Console(file=io.StringIO()))
    ok = [r for r in done.results if r["primitive"] == "sha256"]
    assert [r["status"] for r in ok] == ["ok"] and done.failures == 0
    assert ok[0]["implementation"] == "fake-fixed/fakelib"
    assert all(rt.process is None for rt in live)  # stopped as the run ended, as its own
    second = pipeline.run(req, Console(file=io.StringIO()))  # a next pass: started again
    assert second.failures == 0 and len(second.results) == len(done.results)


def test_a_run_times_its_group_starts_once_for_both_of_its_estimates(fakes, tmp_path, monkeypatch):
    fakes("fixed")
    timed = []

    def starts(runtimes):
        timed.append(sorted(rt.id for rt in runtimes))
        return {rt.id: 0.01 for rt in runtimes}

    monkeypatch.setattr(pipeline, "group_starts", starts)
    req = _sha256_64(tmp_path)
    done = pipeline.run(req, Console(file=io.StringIO()))
    assert done.failures == 0
    # the estimate printed before the rounds and the one redone after them (run.measuring)
    assert timed == [["fake-fixed"]]
    assert done.run["measuring"]["as_taken_s"] > 0

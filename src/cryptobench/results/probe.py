"""What a run's drift probe says of the machine, in words (docs/methodology.md, "A busy
machine"): the line during the run (``during``) and the note under the tables say the same."""

from __future__ import annotations

from .. import stats

HOW = '(docs/methodology.md, "A busy machine")'


def fastest(run: dict) -> dict | None:
    """The fastest earlier run's probe on this machine a run document compares with
    (run/lifecycle.fastest_probe, stored by `run` and `calibrate`), or None."""
    for part in ("measuring", "calibration"):
        got = (run.get(part) or {}).get("fastest_probe")
        if got:
            return got
    return None


def slowed_by(run: dict) -> float | None:
    """How many times slower than that run the probes of ``run`` read, past the bound
    (stats.slowed), else None."""
    return stats.slowed(run.get("probes") or [], (fastest(run) or {}).get("ns"))


def busy(spread: float, during: bool) -> str:
    """The probes spread more than stats.BUSY_SPREAD over the rounds (stats.drift)."""
    took, was, are = ("has taken", "is", "will be") if during else ("took", "was", "are")
    return (
        f"the drift probe, the same work every round, {took} {1 + spread:.2f}x as long in one "
        f"round as in another (more than {1 + stats.BUSY_SPREAD:.2f}x): the machine {was} busy, "
        f"so intervals {are} wide and medians can move from run to run; measure on a quiet "
        f"machine to decide (`cryptobench doctor --machine` says when it is steady) {HOW}"
    )


def slowed(times: float, fastest: dict, during: bool) -> str:
    """The probes read ``times`` the fastest earlier run's on this machine, more than
    1 + stats.BUSY_SPREAD (stats.slowed; ``fastest``: run/lifecycle.fastest_probe): a host
    slow in every round spreads no probe, and would go unsaid by ``busy``."""
    reads, was = ("reads", "is") if during else ("read", "was")
    when = (fastest.get("started") or "")[:10]
    run = f"run {fastest['run'][:8]}" + (f" on {when}" if when else "")
    return (
        f"the drift probe {reads} {times:.2f}x as long as in this machine's fastest earlier run "
        f"({fastest['ns'] / 1e3:.2f} µs, {run}): the machine {was} slower than it has been "
        "(another tenant, a power or frequency setting), so medians are not comparable with "
        f"that run's; measure again when it is back to speed {HOW}"
    )

"""Progress on stderr: a rich bar with time left on a terminal, one line per case otherwise."""

from __future__ import annotations

import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress

from .. import stats
from ..results import probe


def summary(res: dict, round_no: int | str | None = None) -> str:
    name = f"{res['implementation']} {res['primitive']} {res['operation']} {res['size']}"
    if round_no is not None:
        name += f" (round {round_no})"
    if res["status"] != "ok":
        return f"{name}: {res['status'].upper()} {res.get('error') or ''}"
    if res["family"] in ("password-hash", "kdf"):
        value = f"{res['median_ns'] / 1e6:.2f} ms"
    elif res.get("throughput_mb_s"):
        value = f"{res['throughput_mb_s']:.1f} MB/s"
    else:
        value = f"{res['median_ns']:.1f} ns"
    return f"{name}: {value} ±{res['precision']:.1%} (n={res['n_samples']})"


class Progress:
    def __init__(
        self,
        console: Console,
        total: int,
        planned_s: float | None = None,
        fastest: dict | None = None,
    ):
        """``planned_s``: the plan's estimate (measure/rounds.estimate): lines say the time
        left by it, or by the pace so far once the plan is overrun. ``fastest``: the fastest
        drift probe of this machine's earlier runs (run/lifecycle.fastest_probe)."""
        self.console, self.total, self.done = console, total, 0
        self.planned_s, self.t0 = planned_s, time.monotonic()
        self.live = console.is_terminal
        self.bar = (
            RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            if self.live
            else None
        )
        self.task = None
        self.fastest = fastest
        self.warned = self.warned_slow = False  # that the machine is busy, or slowed (probe)

    def __enter__(self):
        if self.bar:
            self.bar.__enter__()
            self.task = self.bar.add_task("measuring", total=self.total)
        return self

    def __exit__(self, *exc):
        if self.bar:
            self.bar.__exit__(*exc)

    def update(self, prepared, round_no: int | str, result: dict | None) -> None:
        """Called with no result when a case's round starts, with it when the round ends
        (``round_no`` "N again": round N measured once more, after the last round)."""
        if result is None:
            if self.bar:
                c = prepared.case
                what = f"round {round_no}: {c.impl.id} {c.prim.id} {c.operation} {c.size}"
                self.bar.update(self.task, description=what)
            return
        self.done += 1
        if self.bar:
            self.bar.advance(self.task)
            if result["status"] == "failed":
                self.bar.console.print(summary(result, round_no), markup=False)
        else:
            self.console.print(
                f"[{self.done}/{self.total}] {summary(result, round_no)}{self.left()}",
                markup=False,
            )

    def probe(self, round_no: int, probes: list[dict]) -> None:
        """After each round's drift probe: the first time the probes so far spread more than
        a quiet machine's (stats.BUSY_SPREAD, as the note under the tables reads it), one line
        says the machine is busy, so nobody waits for the end of a long run to learn it."""
        self._slowed(round_no, probes)
        spread = stats.drift(probes)
        if self.warned or spread is None or spread <= stats.BUSY_SPREAD:
            return
        self.warned = True
        self._say(f"round {round_no}: " + probe.busy(spread, during=True))

    def _slowed(self, round_no: int, probes: list[dict]) -> None:
        """The first time the probes so far read more than 1 + stats.BUSY_SPREAD times the
        fastest earlier run's on this machine, one line says the machine is slower than it
        has been: a uniformly slow host spreads no probe, and would go unsaid otherwise."""
        times = stats.slowed(probes, (self.fastest or {}).get("ns"))
        if self.warned_slow or times is None:
            return
        self.warned_slow = True
        self._say(f"round {round_no}: " + probe.slowed(times, self.fastest, during=True))

    def _say(self, text: str) -> None:
        (self.bar.console if self.bar else self.console).print(text, markup=False)

    def skip(self, steps: int) -> None:
        """``steps`` planned rounds of cases will not be measured (a case decided early, or
        ended: refused, wrong or timed out)."""
        self.total = max(self.done, self.total - steps)
        if self.bar:
            self.bar.update(self.task, total=self.total)

    def more(self, steps: int) -> None:
        """``steps`` rounds more than planned: the rounds measured again after the last one
        (measure/rounds.Rounds._second_look), so the time left counts them."""
        self.total += steps
        if self.bar:
            self.bar.update(self.task, total=self.total)

    def left(self) -> str:
        """' · about N s left' (nothing without a plan)."""
        if self.planned_s is None:
            return ""
        spent = time.monotonic() - self.t0
        return f" · about {time_left(self.planned_s, spent, self.done, self.total):.0f} s left"


def time_left(planned_s: float, spent_s: float, done: int, total: int) -> float:
    """Seconds left: the plan's share of the steps not done, trusted less and the pace so far
    more as steps are done, so the last step says 0 whichever was right (a plan that
    overestimated by 200 s used to say "about 226 s left" on the last line)."""
    if total <= 0 or done >= total:
        return 0.0
    w = done / total
    planned = planned_s * (1 - w)
    pace = spent_s / done * (total - done) if done else planned
    return max(0.0, (1 - w) * planned + w * pace)

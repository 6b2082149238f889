"""Progress on stderr: a rich bar with time left on a terminal, one line per case otherwise."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress


def summary(res: dict) -> str:
    name = f"{res['implementation']} {res['primitive']} {res['operation']} {res['size']}"
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
    def __init__(self, console: Console, total: int, budget_s: float):
        self.console, self.total, self.done = console, total, 0
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

    def __enter__(self):
        if self.bar:
            self.bar.__enter__()
            self.task = self.bar.add_task("measuring", total=self.total)
        return self

    def __exit__(self, *exc):
        if self.bar:
            self.bar.__exit__(*exc)

    def update(self, case, result: dict) -> None:
        """Called with (case, {}) when a case starts and (None, result) when it ends."""
        if case is not None:
            if self.bar:
                self.bar.update(
                    self.task,
                    description=f"{case.impl.id} {case.prim.id} {case.operation} {case.size}",
                )
            return
        self.done += 1
        if self.bar:
            self.bar.advance(self.task)
            if result["status"] == "failed":
                self.bar.console.print(summary(result), markup=False)
        else:
            self.console.print(f"[{self.done}/{self.total}] {summary(result)}", markup=False)

"""The second look of `calibrate`: where the rounds put an implementation's chosen value more
than ±15% off the target and the value the scaling law predicts from the rounds' median (where
steps are coarse: the adjacent step on the target's side) is expected nearer
(calibrate_verdict.Verdict.worth_remeasuring), that value is measured in rounds too, into the
same row, and of the two the one nearer the target stays (docs/methodology.md, "calibrate").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console

from ..measure.case import Prepared
from ..runtimes.protocol import RemoteError, RunnerFailure
from ..store.sqlite import RunStore
from ..verify.verifier import VerifyError
from .search import Refused, Search, off
from .verdict import Verdict


def _measured(row: dict) -> bool:
    return row.get("status") == "ok" and bool(row.get("median_ns"))


@dataclass
class Remeasure:
    verdict: Verdict
    prepare: Callable[[Search, int], Prepared]  # verified; raises Refused or VerifyError
    console: Console

    def candidates(self, rows: dict, finals) -> list[tuple[Search, Prepared, dict]]:
        """(search, the other value's case under the same row number, the row it may
        replace) for each implementation worth a second look."""
        param, out = self.verdict.spec.param, []
        for s, p in finals:
            row = rows.get(s.impl.id) or {}
            if not _measured(row):
                continue
            other = self.verdict.worth_remeasuring(s, p.case.params[param], row["median_ns"])
            if other is None:
                continue
            try:
                q = s.tried.get(other) or self.prepare(s, other)
            except (Refused, VerifyError, RemoteError, RunnerFailure) as exc:
                self.console.print(f"  {s.impl.id}: cannot re-measure: {exc}", markup=False)
                continue
            out.append((s, Prepared(p.seq, q.case, q.inputs, q.expected, q.verification), row))
        return out

    def keep_nearer(self, store: RunStore, run_doc: dict, rows: dict, again) -> None:
        """Of the two values measured in rounds, the row nearer the target stays; both are
        recorded on the search (``remeasured``)."""
        param, target = self.verdict.spec.param, self.verdict.target_ns
        for s, q, first in again:
            both = [r for r in (first, rows.get(s.impl.id) or {}) if _measured(r)]
            s.remeasured = [
                {
                    "value": r["params"][param],
                    "ms": r["median_ns"] / 1e6,
                    "off": off(r["median_ns"], target),
                }
                for r in both
            ]
            kept = min(both, key=lambda r: abs(off(r["median_ns"], target)))
            if kept is first:
                store.put_case(run_doc["id"], q.seq, first)
            s.stopped += f"; both values measured in rounds, kept {param}={kept['params'][param]}"

"""Allocation per operation (docs/methodology.md, "Memory"): what the bench request's untimed,
verified call allocated, where the runner reads a precise counter (docs/protocol.md). Every
bench answer of a case carries one reading; a process's first call also pays one-time lazy
initialisation (tables, class loading), so the row keeps the median over the answers."""

from __future__ import annotations

import statistics

KEEP = 64  # readings kept per case: the median settles long before


def note(kept: list[dict], reading: dict | None) -> None:
    """Keeps one answer's reading (runtimes.protocol.check_alloc), up to KEEP."""
    if reading is not None and len(kept) < KEEP:
        kept.append(reading)


def fields(kept: list[dict]) -> dict:
    """The result's optional fields (docs/results.md): ``alloc_bytes_per_op`` and ``alloc``
    (counter, allocations per operation where counted, answers read); {} without readings."""
    if not kept:
        return {}
    allocs = [k["allocs"] for k in kept if k["allocs"] is not None]
    return {
        "alloc_bytes_per_op": statistics.median(k["bytes"] for k in kept),
        "alloc": {
            "counter": kept[0]["counter"],
            "allocs_per_op": statistics.median(allocs) if allocs else None,
            "answers": len(kept),
        },
    }

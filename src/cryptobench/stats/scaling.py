"""N processes (or threads) timing one case at once: aggregate throughput and scaling
(docs/methodology.md, "All cores"). Pure: no I/O, no clocks."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import RoundsCI, median_ci, per_op, rounds_ci


@dataclass(frozen=True)
class Scaling:
    """N processes (or threads) timing the same case at once (docs/methodology.md, "All
    cores"): what each sustained and what the machine did in total."""

    workers: int
    per_worker_ns: tuple[float, ...]  # each worker's median ns/op, pooled over its rounds
    median_ns: float  # the median worker's ns/op
    aggregate_ops_per_s: float  # Σ over workers of 1e9 / ns, per round; median over rounds
    aggregate_low: float  # lowest and highest round's aggregate
    aggregate_high: float
    single_ops_per_s: float | None  # one worker alone (the case's ordinary result)
    efficiency: float | None  # aggregate / (workers × single)
    per_op: RoundsCI  # ns/op of all workers' batches, round by round (rounds_ci)


def scaling(rounds, single_ns: float | None = None) -> Scaling:
    """``rounds[r][w]`` = worker w's samples in round r (``[{"iterations", "ns"}]``). Each
    worker's rate is 1e9 / its median ns/op; a round's aggregate is the sum over workers (all
    timed at once); the result is the median round's aggregate, with the range over rounds.
    Efficiency compares it with ``workers`` × the single-worker rate (``single_ns``/op)."""
    if not rounds or not all(rounds) or len({len(r) for r in rounds}) != 1:
        raise ValueError("scaling needs every round to have the same workers")
    workers = len(rounds[0])
    per_round = [[float(np.median(per_op(w))) for w in r] for r in rounds]
    aggregates = [sum(1e9 / ns for ns in r) for r in per_round]
    per_worker = tuple(
        float(np.median(np.concatenate([per_op(rounds[r][w]) for r in range(len(rounds))])))
        for w in range(workers)
    )
    agg = float(np.median(aggregates))
    single = 1e9 / single_ns if single_ns else None
    cis = [median_ci(np.concatenate([per_op(w) for w in r])) for r in rounds]
    return Scaling(
        workers,
        per_worker,
        float(np.median(per_worker)),
        agg,
        float(min(aggregates)),
        float(max(aggregates)),
        single,
        agg / (workers * single) if single else None,
        rounds_ci([c.median for c in cis], [c.low for c in cis], [c.high for c in cis]),
    )


def overlap(spans) -> float:
    """How much of N timed windows ran together: (latest start .. earliest end) over
    (earliest start .. latest end); 1 = all at once, ≤ 0 = never all at once."""
    starts, ends = [s for s, _ in spans], [e for _, e in spans]
    whole = max(ends) - min(starts)
    return (min(ends) - max(starts)) / whole if whole > 0 else 1.0

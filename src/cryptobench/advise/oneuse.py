"""The cost of one use when a use is several operations (policy `cost = "sum"`): key exchange is
a fresh key pair and one agreement (keygen + agree), a signature one `sign` and its `verify`.
Per implementation and primitive, the operations' times are added round by round (a run's
round r of both operations) by stats.round_sum, as report/handshake.py adds a handshake's:
their variances add, never their intervals; the rounds are then combined as any case's
(stats.rounds_ci) (docs/methodology.md, "advise")."""

from __future__ import annotations

from .. import stats
from ..catalog.primitives import UNSIZED_OPERATIONS
from ..results.compare import case_key


def size_of(operation: str, size: int) -> int:
    """The stored size of an operation at the use's size: keygen and agree have none (0)."""
    return 0 if operation in UNSIZED_OPERATIONS else size


def _round(parts: list[dict]) -> dict:
    """One round of one use: its operations' round medians summed, each once, with the
    sum's interval (stats.round_sum)."""
    med, low, high = stats.round_sum(
        *([p[k] for p in parts] for k in ("median_ns", "ci_low_ns", "ci_high_ns"))
    )
    return {"median_ns": med, "ci_low_ns": low, "ci_high_ns": high}


def _rounds(rows: list[dict]) -> list[dict]:
    """The rounds every operation has, summed (rounds are matched by their number)."""
    by = [{x["round"]: x for x in r.get("rounds") or []} for r in rows]
    common = sorted(set.intersection(*(set(b) for b in by))) if by else []
    return [{"round": n, **_round([b[n] for b in by])} for n in common]


def combined(rows: list[dict], operations: tuple[str, ...]) -> dict:
    """One row for one use from one row per operation (in ``operations``' order)."""
    first = rows[0]
    rounds = _rounds(rows)
    if len(rounds) >= 2:
        ci = stats.rounds_ci(
            *([x[k] for x in rounds] for k in ("median_ns", "ci_low_ns", "ci_high_ns"))
        )
        med, low, high = ci.median, ci.low, ci.high
    else:
        one = _round(rows)
        med, low, high = one["median_ns"], one["ci_low_ns"], one["ci_high_ns"]
    keyed = next((r for r in rows if "fresh_context" in (r.get("params") or {})), first)
    return {
        **{k: first.get(k) for k in ("implementation", "runtime", "library_version", "family")},
        "primitive": first["primitive"],
        "operation": "+".join(operations),
        "size": max(r["size"] for r in rows),
        "params": keyed.get("params") or {},
        "status": "ok",
        "security_status": first.get("security_status"),
        "median_ns": med,
        "ci_low_ns": low,
        "ci_high_ns": high,
        "rounds": rounds,
        "samples": [],
        "code_path": first.get("code_path"),
        "flags": sorted({f for r in rows for f in r.get("flags") or []}),
        "parts": {r["operation"]: r["median_ns"] for r in rows},
        "part_keys": [case_key(r) for r in rows],
    }


def one_use(rows: list[dict], operations: tuple[str, ...]) -> list[dict]:
    """Combined rows of every implementation and primitive that has all ``operations``
    (one row each; a reused key is preferred over a fresh one per call where both exist)."""
    per: dict[tuple, dict[str, dict]] = {}
    for r in sorted(rows, key=lambda r: bool((r.get("params") or {}).get("fresh_context"))):
        per.setdefault((r["implementation"], r["primitive"]), {}).setdefault(r["operation"], r)
    return [
        combined([ops[o] for o in operations], operations)
        for ops in per.values()
        if all(o in ops for o in operations)
    ]


def lacking(rows: list[dict], operations: tuple[str, ...]) -> list[str]:
    """'implementation primitive (no op)' for each choice missing one of ``operations``."""
    have: dict[tuple, set[str]] = {}
    for r in rows:
        have.setdefault((r["implementation"], r["primitive"]), set()).add(r["operation"])
    return [
        f"{i} {p} (no {', '.join(o for o in operations if o not in ops)})"
        for (i, p), ops in sorted(have.items())
        if not all(o in ops for o in operations)
    ]

"""What `advise` measures when the store lacks cases (docs/methodology.md, "advise"): only the
candidates that could still win the use. For a use ranked by the policy's algorithm order
(passwords), only the first algorithm any implementation offers, and the next one while the
first has fewer than two choices (the runner-up). For a use ranked by time, a first pass of
one short round of every missing case, then the full rounds only for the top few of the
ranking (KEEP: the recommendation, the runner-up and the one after). The time each pass should
take is the one estimate of `run`, `calibrate` and `advise` (measure/rounds.estimate), with the
duration of a slow family's call taken from what is stored where it is known.
"""

from __future__ import annotations

import json
import statistics

from ..catalog.policy import Use
from ..catalog.primitives import Catalog
from ..plan.cases import Case
from ..results import compare
from ..runtimes.protocol import Implementation, Offer

KEEP = 3  # full rounds for the top few of the first pass
FIRST_PASS_S = 0.1  # the first pass: one round of this budget per case
FIRST_PASS_ROUNDS = 1
# … in which a password hash or KDF keeps 3 calls, not a run's 10: the pass only chooses the
# top few, which its full rounds measure again (measured 2026-11-28, `advise --use password
# --size 8` on an empty store: 10 calls each made the pass 26 s, node/noble's 243 ms Argon2id
# 6 s of it, against the winner's 14 ms)
FIRST_PASS_SLOW_FLOOR = 3
# … and a password hash whose calibration (its cold call, confirmed) is more than CUT_RATIO times
# the KEEP-th fastest of its algorithm measured so far in the pass is measured no further: it
# cannot be among the top few (measure/rounds.Cut; docs/methodology.md, "advise"). Measured on
# a busy 2-core VM (2026-12-07): one library's requests in the pass scattered up to 1.65×
# (node/noble 0.46–0.76 s), the library to stop read 9–15× the third-fastest (node/noble's
# Argon2id 240–406 ms against 24–28 ms), node/hash-wasm 3–4× (kept)
CUT_RATIO = 4.0


def _position(use: Use, pid: str) -> int:
    return use.order.index(pid) if pid in use.order else len(use.order)


def could_win(use: Use, keys: list[tuple], ranked: list[dict]) -> list[tuple]:
    """The missing case keys that can still change the answer. ``ranked``: the rows already
    stored that the use ranks. For an order-ranked use, the keys of the best algorithm present
    (stored or missing), and of the next while the best has fewer than two choices; for a
    use ranked by time, all of them (the first pass decides)."""
    if use.rank != "order" or not keys:
        return list(keys)
    choices: dict[int, set] = {}
    for k in keys:
        choices.setdefault(_position(use, k[1]), set()).add((k[0], k[1]))
    for r in ranked:
        choices.setdefault(_position(use, r["primitive"]), set()).add(
            (r["implementation"], r["primitive"])
        )
    keep, found = set(), 0
    for pos in sorted(choices):
        keep.add(pos)
        found += len(choices[pos])
        if found >= 2:
            break
    return [k for k in keys if _position(use, k[1]) in keep]


def contenders(ranking: list[dict], measured: set[tuple], keep: int = KEEP) -> list[tuple]:
    """Case keys of the top ``keep`` rows of a ranking that the first pass measured (a row of
    several operations, advise/oneuse.py, names its parts' keys)."""
    out = []
    for row in ranking[:keep]:
        for key in row.get("part_keys") or [compare.case_key(row)]:
            key = tuple(key)
            if key in measured and key not in out:
                out.append(key)
    return out


def call_seconds(rows: list[dict], cat: Catalog) -> dict[tuple, float]:
    """A slow family's call duration per primitive and operation, from stored rows (the
    median of their medians): the estimate's knowledge of what a password hash costs here."""
    by: dict[tuple, list[float]] = {}
    slow = {p.id for p in cat if p.is_slow}
    for r in rows:
        if r.get("status") == "ok" and r.get("median_ns") and r["primitive"] in slow:
            by.setdefault((r["primitive"], r["operation"]), []).append(r["median_ns"] / 1e9)
    return {k: statistics.median(v) for k, v in by.items()}


def case_seconds(rows: list[dict], cat: Catalog) -> dict[tuple, float]:
    """A slow family's call duration per case key (compare.case_key), from its measured rows:
    the full rounds' estimate of the top few, which the family's median (call_seconds) puts
    too high where the fastest are measured and too low where a slow one is (node/noble's
    Argon2id 308–493 ms against a median of ~45 ms, 2026-12-03)."""
    slow = {p.id for p in cat if p.is_slow}
    return {
        compare.case_key(r): r["median_ns"] / 1e9
        for r in rows
        if r.get("status") == "ok" and r.get("median_ns") and r["primitive"] in slow
    }


def cases_of(doc: dict, keys: list[tuple], cat: Catalog) -> list[Case]:
    """The keys as cases, from the run's implementation list (for the estimate)."""
    impls = {
        i["id"]: Implementation(i["id"], i["runtime"], i["library"], i.get("version", ""), {}, {})
        for i in (doc.get("run") or {}).get("implementations", [])
    }
    cases = []
    for impl_id, pid, op, size, params in keys:
        impl = impls.get(impl_id) or Implementation(impl_id, impl_id.split("/")[0], "", "", {}, {})
        impl.primitives.setdefault(pid, Offer((op,)))
        cases.append(Case(impl, cat.get(pid), op, size, json.loads(params)))
    return cases

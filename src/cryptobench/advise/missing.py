"""What a stored run lacks for an `advise` answer: the case keys a use needs from the
implementations the run describes, and which of them no run has (docs/methodology.md,
"advise"); how long measuring them should take is the plan's (cli/advising.Plan.seconds)."""

from __future__ import annotations

import json

from ..catalog.policy import Policy
from ..catalog.primitives import Catalog
from ..results import compare
from ..runtimes.discovery import runtime_matches
from .oneuse import size_of
from .rank import allowed, default_size


def _ops(use, offer: dict) -> list[str]:
    """The operations of ``use`` an offer needs measured: all of them for a use of several
    (``cost = "sum"``), else the first the implementation offers."""
    offered = [o for o in use.operations if o in offer["operations"]]
    return offered if use.cost == "sum" else offered[:1]


def needed(
    doc: dict, cat: Catalog, policy: Policy, use_name: str, size, runtimes, bits=None
) -> list[tuple]:
    """Case keys (implementation, primitive, operation, size, params JSON) the use needs from
    the implementations the run describes; keyed operations at the reused key where the API
    can reuse it, else with a fresh object per message."""
    use = policy.use(use_name)
    size = default_size(use) if size is None else size
    keys = []
    for impl in (doc.get("run") or {}).get("implementations", []):
        if runtimes and not any(runtime_matches(impl["runtime"], x) for x in runtimes):
            continue
        for pid, offer in (impl.get("primitives") or {}).items():
            if pid not in cat or allowed(use, cat, pid, bits):
                continue
            for op in _ops(use, offer):
                user = {}
                if cat.get(pid).keyed(op):
                    user["fresh_context"] = not offer.get("reuses_key", True)
                params = cat.resolve_params(cat.get(pid), user, op)
                keys.append(
                    (impl["id"], pid, op, size_of(op, size), json.dumps(params, sort_keys=True))
                )
    return keys


def missing(docs: list[dict], keys: list[tuple], operations=()) -> list[tuple]:
    """The keys no run has; a case stored under another of the use's ``operations`` (argon2id
    `hash` where `verify` comes first) counts as present."""
    have = {compare.case_key(r) for d in docs for r in d.get("results", [])}
    loose = {(k[0], k[1], k[3], k[4]) for k in have if k[2] in operations}
    return [k for k in keys if k not in have and (k[0], k[1], k[3], k[4]) not in loose]


def widened(base: dict | None, found: list[dict]) -> dict:
    """``base`` (its results; an empty run where None) describing the implementations found
    here besides its own: a run's list holds only the runtimes it started (a `default` run none
    of java@25's or rust@native's), so an answer measured from it alone had left out what could
    win (measured: `advise --use password --size 8` after two `default` runs measured
    python/pynacl and recommended it, and the next call measured rust@native/rustcrypto, 9.4
    against 13.6 ms, and recommended that)."""
    base = base or {"run": {}, "results": []}
    impls = {i["id"]: i for i in (base["run"].get("implementations") or [])}
    impls.update({i["id"]: i for i in found if i["id"] not in impls})
    return {**base, "run": {**base["run"], "implementations": list(impls.values())}}

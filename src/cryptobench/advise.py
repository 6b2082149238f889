"""`cryptobench advise`: the fastest choice the security policy allows for a use, from stored
results (docs/methodology.md, "advise"). Pure functions over results documents; measuring the
cases a run lacks is the command's (cli/answers.py) through the pipeline.

Ranking: only primitives whose catalog status the use allows (catalog/policy.toml), at the
catalog's default parameters, at one size; fastest first (``rank = "time"``) or the use's
algorithm order first (passwords: OWASP's order), then fastest. The margin between the first
two is compare.compare_case's ratio with its interval (Welch on the round medians' logs, or the
batches' median CIs for one-round results); it is "not distinguishable" when the two cases'
intervals overlap or the ratio's interval contains 1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import compare, stats
from .catalog import KEYED_OPERATIONS, Catalog
from .plan import runtime_matches
from .policy import Policy, Use

FAST_DEFAULT_SIZE = 1024
SLOW_DEFAULT_SIZE = 8  # password length, as plan.PASSWORD_SIZES


@dataclass
class Entry:
    row: dict
    rank_key: tuple

    @property
    def label(self) -> str:
        fresh = " (fresh object per message)" if self.row["params"].get("fresh_context") else ""
        return f"{self.row['primitive']} · {self.row['implementation']}{fresh}"


@dataclass
class Margin:
    ratio: float  # runner-up time / recommendation time (> 1: the recommendation is faster)
    low: float
    high: float
    method: str  # "rounds" (Welch on round medians) or "batches" (one-round results)
    distinguishable: bool
    comparable: bool = True
    why: str = ""


@dataclass
class Advice:
    use: Use
    size: int
    runtimes: list[str]
    ranking: list[Entry] = field(default_factory=list)
    margin: Margin | None = None
    reasons: list[str] = field(default_factory=list)
    excluded: list[tuple[str, str]] = field(default_factory=list)  # (primitive, why)
    ignored_params: int = 0  # rows at other parameters than the catalog's defaults
    sources: list[str] = field(default_factory=list)  # run ids

    @property
    def recommendation(self) -> Entry | None:
        return self.ranking[0] if self.ranking else None

    @property
    def runner_up(self) -> Entry | None:
        return self.ranking[1] if len(self.ranking) > 1 else None


def default_size(use: Use) -> int:
    return SLOW_DEFAULT_SIZE if set(use.families) & {"password-hash", "kdf"} else FAST_DEFAULT_SIZE


def allowed(use: Use, cat: Catalog, pid: str) -> str | None:
    """Why the policy keeps primitive ``pid`` out of ``use``, or None if it may be ranked."""
    if pid not in cat:
        return "not in the catalog"
    prim = cat.get(pid)
    if prim.family not in use.families:
        return f"a {prim.family}, not {' or '.join(use.families)}"
    if prim.status not in use.statuses:
        return f"status {prim.status}: {prim.status_reason} ({prim.status_date})"
    if pid in use.exclude:
        return use.exclude[pid]
    return None


def _default_params(cat: Catalog, row: dict) -> bool:
    prim = cat.get(row["primitive"])
    want = cat.resolve_params(prim, {}, row["operation"])
    got = {k: v for k, v in (row.get("params") or {}).items() if k != "fresh_context"}
    return got == {k: v for k, v in want.items() if k != "fresh_context"}


def merge(docs: list[dict]) -> list[dict]:
    """The results of several runs, later runs replacing earlier ones case by case."""
    out: dict = {}
    for doc in docs:
        for r in doc.get("results", []):
            out[compare.case_key(r)] = r
    return list(out.values())


def _pick_operation(use: Use, rows: list[dict]) -> list[dict]:
    """Per implementation and primitive, the rows of the first operation the use lists."""
    best: dict[tuple, int] = {}
    for r in rows:
        k = (r["implementation"], r["primitive"])
        best[k] = min(best.get(k, 99), use.operations.index(r["operation"]))
    return [
        r
        for r in rows
        if use.operations.index(r["operation"]) == best[(r["implementation"], r["primitive"])]
    ]


def _reused_first(rows: list[dict]) -> list[dict]:
    """A fresh object per message is how to use a library, not another choice: ranked only
    where the library offers nothing else (single-use objects)."""
    reused = {
        (r["implementation"], r["primitive"], r["operation"])
        for r in rows
        if not r["params"].get("fresh_context")
    }
    return [
        r
        for r in rows
        if not r["params"].get("fresh_context")
        or (r["implementation"], r["primitive"], r["operation"]) not in reused
    ]


def _rank_key(use: Use, r: dict) -> tuple:
    if use.rank == "order":
        order = list(use.order)
        pos = order.index(r["primitive"]) if r["primitive"] in order else len(order)
        return (pos, r["median_ns"])
    return (r["median_ns"],)


def rank(docs: list[dict], cat: Catalog, policy: Policy, use_name: str, size, runtimes) -> Advice:
    use = policy.use(use_name)
    size = default_size(use) if size is None else size
    advice = Advice(use, size, list(runtimes), sources=[d["run"]["id"] for d in docs])
    rows, excluded = [], {}
    for r in merge(docs):
        if r.get("family") == "noop" or r["operation"] not in use.operations:
            continue
        if r["size"] != size or r.get("family") not in use.families:
            continue
        if runtimes and not any(runtime_matches(r["runtime"], x) for x in runtimes):
            continue
        why = allowed(use, cat, r["primitive"])
        if why:
            excluded[r["primitive"]] = why
            continue
        if r.get("status") != "ok" or not r.get("median_ns"):
            continue
        if not _default_params(cat, r):
            advice.ignored_params += 1
            continue
        rows.append(r)
    advice.excluded = sorted(excluded.items())
    advice.ranking = sorted(
        (Entry(r, _rank_key(use, r)) for r in _reused_first(_pick_operation(use, rows))),
        key=lambda e: (e.rank_key, e.label),
    )
    if advice.runner_up:
        advice.margin = margin(advice.recommendation.row, advice.runner_up.row)
    advice.reasons = reasons(advice, cat, policy, merge(docs))
    return advice


def margin(best: dict, other: dict) -> Margin:
    """The runner-up against the recommendation, with its interval (module docstring)."""
    same = best["primitive"] == other["primitive"] and best["params"] == other["params"]
    c = compare.compare_case(compare.case_key(other), best, other)
    overlap = best["ci_high_ns"] >= other["ci_low_ns"] and other["ci_high_ns"] >= best["ci_low_ns"]
    apart = not overlap and not c.ratio_low <= 1.0 <= c.ratio_high
    m = Margin(c.ratio, c.ratio_low, c.ratio_high, c.method, apart)
    if best["family"] in ("password-hash", "kdf") and not same:
        m.comparable = False
        m.why = "different algorithms or parameters: their times buy different security"
    return m


def reasons(advice: Advice, cat: Catalog, policy: Policy, rows: list[dict]) -> list[str]:
    best = advice.recommendation
    if best is None:
        return []
    r = best.row
    prim = cat.get(r["primitive"])
    out = [f"status {prim.status}: {prim.status_reason} ({prim.status_date})"]
    if advice.use.rank == "order":
        out.append(f"preferred order for {advice.use.name}: {', '.join(advice.use.order)}")
    ok, why = policy.owasp(prim.id, r.get("params") or {})
    if ok is not None:
        out.append(f"parameters {_params(r)}: {why}")
    if r.get("code_path"):
        out.append(f"code path: {r['code_path']}")
    out += _overhead(r, rows)
    out += _fresh(r, rows, advice)
    return out


def _params(r: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in (r.get("params") or {}).items() if k != "out_len")


def _same_case(a: dict, b: dict, **ignore) -> bool:
    keys = ("implementation", "primitive", "operation")
    return all(a[k] == b[k] for k in keys) and all(
        a.get(k) == b.get(k) for k in ("size",) if k not in ignore
    )


def _overhead(r: dict, rows: list[dict]) -> list[str]:
    """Per-call overhead at this size: the fit over the run's sizes, and the runner's noop."""
    out = []
    group = [
        x
        for x in rows
        if x.get("status") == "ok"
        and _same_case(x, r, size=True)
        and json.dumps(x["params"], sort_keys=True) == json.dumps(r["params"], sort_keys=True)
    ]
    fit = stats.fit_overhead([x["size"] for x in group], [x["median_ns"] for x in group])
    if fit is not None and fit.per_call_ns > r["median_ns"]:
        out.append(
            f"per-call overhead: the fit over {len(group)} sizes gives a ≈ {fit.per_call_ns:.0f}"
            " ns, more than the whole time at this size: the sizes' times are too noisy to split"
        )
    elif fit is not None and fit.per_call_ns > 0:
        share = fit.per_call_ns / r["median_ns"]
        out.append(
            f"per-call overhead ≈ {fit.per_call_ns:.0f} ns (t(n) = a + b·n over "
            f"{len(group)} sizes): {share:.0%} of the time at {r['size']} B"
        )
    noop = [x for x in rows if x.get("family") == "noop" and x["runtime"] == r["runtime"]]
    if noop and noop[0].get("median_ns") and r.get("family") not in ("password-hash", "kdf"):
        ns = noop[0]["median_ns"]
        out.append(f"the {r['runtime']} runner's own call overhead (noop) is {ns:.0f} ns")
    return out


def _fresh(r: dict, rows: list[dict], advice: Advice) -> list[str]:
    """Keyed operations: what a fresh cipher/MAC object per message costs at this size."""
    if r["operation"] not in KEYED_OPERATIONS:
        return []
    fresh = bool(r["params"].get("fresh_context"))
    out = (
        [] if fresh else ["reused key: the cipher/MAC object is set up once (fresh_context=false)"]
    )
    twin = [
        x
        for x in rows
        if x.get("status") == "ok"
        and _same_case(x, r)
        and bool(x["params"].get("fresh_context")) != fresh
    ]
    if twin:
        f, k = (r, twin[0]) if fresh else (twin[0], r)
        extra = f["median_ns"] - k["median_ns"]
        out.append(
            f"a fresh object per message (key schedule and setup every time, fresh_context=true)"
            f" costs {extra:+.0f} ns per message here: {f['median_ns'] / k['median_ns']:.1f}× "
            f"the reused-key time at {r['size']} B"
        )
    single = sorted(
        {
            e.row["implementation"]
            for e in advice.ranking
            if e.row["params"].get("fresh_context")
            and not any(
                x["implementation"] == e.row["implementation"]
                and not x["params"].get("fresh_context")
                for x in (y.row for y in advice.ranking)
            )
        }
    )
    if single:
        out.append(
            f"{', '.join(single)}: single-use objects (a fresh object per message): "
            "at small sizes their setup, not the cipher, sets the time"
        )
    return out


# -- what a run lacks -------------------------------------------------------------------------
def needed(doc: dict, cat: Catalog, policy: Policy, use_name: str, size, runtimes) -> list[tuple]:
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
            if pid not in cat or allowed(use, cat, pid):
                continue
            op = next((o for o in use.operations if o in offer["operations"]), None)
            if op is None:
                continue
            user = {}
            if op in KEYED_OPERATIONS:
                user["fresh_context"] = not offer.get("reuses_key", True)
            params = cat.resolve_params(cat.get(pid), user, op)
            keys.append((impl["id"], pid, op, size, json.dumps(params, sort_keys=True)))
    return keys


def missing(docs: list[dict], keys: list[tuple], operations=()) -> list[tuple]:
    """The keys no run has; a case stored under another of the use's ``operations`` (argon2id
    `hash` where `verify` comes first) counts as present."""
    have = {compare.case_key(r) for d in docs for r in d.get("results", [])}
    loose = {(k[0], k[1], k[3], k[4]) for k in have if k[2] in operations}
    return [k for k in keys if k not in have and (k[0], k[1], k[3], k[4]) not in loose]


def estimate_s(doc: dict, keys: list[tuple], cat: Catalog, budget_s: float, rounds: int) -> float:
    """Seconds measuring ``keys`` should take (rounds.estimate), from the run's
    implementation list."""
    from .plan import Case
    from .protocol import Implementation, Offer
    from .rounds import estimate

    impls = {
        i["id"]: Implementation(i["id"], i["runtime"], i["library"], i.get("version", ""), {}, {})
        for i in (doc.get("run") or {}).get("implementations", [])
    }
    cases = []
    for impl_id, pid, op, size, params in keys:
        impl = impls.get(impl_id) or Implementation(impl_id, impl_id.split("/")[0], "", "", {}, {})
        impl.primitives.setdefault(pid, Offer((op,)))
        cases.append(Case(impl, cat.get(pid), op, size, json.loads(params)))
    return estimate(cases, budget_s, rounds, set())

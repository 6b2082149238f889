"""`cryptobench advise`: the fastest choice the security policy allows for a use, from stored
results (docs/methodology.md, "advise"). Pure functions over results documents; measuring the
cases a run lacks is the command's (cli/answers.py) through the pipeline; what a run lacks is
advise/missing.py, the reasons given advise/reasons.py.

Ranking: only primitives whose catalog status the use allows (catalog/policy.toml), at the
catalog's default parameters, at one size; fastest first (``rank = "time"``) or the use's
algorithm order first (passwords: OWASP's order), then fastest. Uses of several operations
(`cost = "sum"`: key exchange, signature) rank the cost of one use (advise/oneuse.py), and
compare only choices of one security level (the catalog's `security_bits`); a status is read
on the day, its dated transitions applied (catalog `transitions`). The margin between the first
two is compare.compare_case's ratio with its interval (Welch on the round medians' logs, or the
batches' median CIs for one-round results); it is "not distinguishable" when the two cases'
intervals overlap or the ratio's interval contains 1.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from ..catalog.policy import Policy, Use
from ..catalog.primitives import Catalog
from ..results import compare
from ..runtimes.discovery import runtime_matches
from .oneuse import lacking, one_use, size_of
from .reasons import reasons

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
    security_bits: int | None = None  # the level compared (use's, or --security-bits)
    day: str = ""  # the date the statuses and transitions are read at (YYYY-MM-DD)
    incomplete: list[str] = field(default_factory=list)  # choices lacking one of the operations

    @property
    def recommendation(self) -> Entry | None:
        return self.ranking[0] if self.ranking else None

    @property
    def runner_up(self) -> Entry | None:
        return self.ranking[1] if len(self.ranking) > 1 else None


def default_size(use: Use) -> int:
    if use.size is not None:
        return use.size
    return SLOW_DEFAULT_SIZE if set(use.families) & {"password-hash", "kdf"} else FAST_DEFAULT_SIZE


def today() -> str:
    return datetime.date.today().isoformat()


def allowed(use: Use, cat: Catalog, pid: str, bits: int | None = None, day: str = "") -> str | None:
    """Why the policy keeps primitive ``pid`` out of ``use``, or None if it may be ranked: its
    family, its status on ``day`` (its dated transitions applied), the use's exclusions, and
    its security level where the use compares one level (``bits``, else the use's)."""
    if pid not in cat:
        return "not in the catalog"
    prim = cat.get(pid)
    if prim.family not in use.families:
        return f"a {prim.family}, not {' or '.join(use.families)}"
    status = prim.status_on(day or today())
    if status != prim.status:
        passed = [t for t in prim.transitions if t.after < (day or today())][-1]
        return f"{passed.text()}: not allowed for {use.name} on {day or today()}"
    if status not in use.statuses:
        return f"status {prim.status}: {prim.status_reason} ({prim.status_date})"
    if pid in use.exclude:
        return use.exclude[pid]
    if use.only and pid not in use.only:
        return f"not one of {use.name}'s choices ({', '.join(use.only)})"
    level = (bits or use.security_bits) if use.security_bits else None  # only where compared
    if level and prim.security_bits != level:
        return (
            f"{prim.security_bits}-bit security: compared only with {level}-bit choices "
            f"(--security-bits {prim.security_bits} ranks those)"
        )
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


def _candidates(advice: Advice, cat: Catalog, docs: list[dict]) -> list[dict]:
    """The rows the use may rank (module docstring); what the policy keeps out is noted."""
    use, size, rows, excluded = advice.use, advice.size, [], {}
    for r in merge(docs):
        if r.get("family") == "noop" or r["operation"] not in use.operations:
            continue
        if r["size"] != size_of(r["operation"], size) or r.get("family") not in use.families:
            continue
        if advice.runtimes and not any(runtime_matches(r["runtime"], x) for x in advice.runtimes):
            continue
        why = allowed(use, cat, r["primitive"], advice.security_bits, advice.day)
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
    if use.cost == "sum":
        rows = _reused_first(rows)
        advice.incomplete = lacking(rows, use.operations)
        return one_use(rows, use.operations)
    return _reused_first(_pick_operation(use, rows))


def rank(
    docs: list[dict],
    cat: Catalog,
    policy: Policy,
    use_name: str,
    size,
    runtimes,
    security_bits: int | None = None,
    day: str = "",
) -> Advice:
    use = policy.use(use_name)
    size = default_size(use) if size is None else size
    advice = Advice(use, size, list(runtimes), sources=[d["run"]["id"] for d in docs])
    advice.security_bits = (security_bits or use.security_bits) if use.security_bits else None
    advice.day = day or today()
    advice.ranking = sorted(
        (Entry(r, _rank_key(use, r)) for r in _candidates(advice, cat, docs)),
        key=lambda e: (e.rank_key, e.label),
    )
    if advice.runner_up:
        advice.margin = margin(advice.recommendation.row, advice.runner_up.row)
    advice.reasons = reasons(advice, cat, policy, merge(docs))
    return advice


def margin(best: dict, other: dict) -> Margin:
    """The runner-up against the recommendation, with its interval (module docstring)."""
    same = best["primitive"] == other["primitive"] and best["params"] == other["params"]
    if "parts" in best and min(len(best["rounds"]), len(other["rounds"])) < 2:
        ratio = other["median_ns"] / best["median_ns"]
        why = "fewer than two rounds in common: no interval for the ratio"
        return Margin(ratio, 0.0, float("inf"), "rounds", False, False, why)
    c = compare.compare_case(compare.case_key(other), best, other, test=False)
    overlap = best["ci_high_ns"] >= other["ci_low_ns"] and other["ci_high_ns"] >= best["ci_low_ns"]
    apart = not overlap and not c.ratio_low <= 1.0 <= c.ratio_high
    m = Margin(c.ratio, c.ratio_low, c.ratio_high, c.method, apart)
    if best["family"] in ("password-hash", "kdf") and not same:
        m.comparable = False
        m.why = "different algorithms or parameters: their times buy different security"
    return m

"""Why `advise` recommends what it does (docs/methodology.md, "advise"): the catalog status,
the use's preferred order, OWASP's minimum, the hardware code path, the per-call overhead at the
size (the fit t(n) = a + b·n over the run's sizes, and the runner's noop), and for keyed
operations what a fresh cipher/MAC object per message costs."""

from __future__ import annotations

import json

from .. import stats
from ..catalog.policy import Policy
from ..catalog.primitives import KEYED_OPERATIONS, Catalog


def reasons(advice, cat: Catalog, policy: Policy, rows: list[dict]) -> list[str]:
    """The reasons shown under ``advice`` (an advise.Advice; not imported: advise imports
    this module)."""
    best = advice.recommendation
    if best is None:
        return []
    r = best.row
    prim = cat.get(r["primitive"])
    out = [f"status {prim.status}: {prim.status_reason} ({prim.status_date})"]
    out += _one_use(r, prim, advice)
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


def _one_use(r: dict, prim, advice) -> list[str]:
    """A use of several operations: what one use costs, the level compared, the dates."""
    out = []
    if r.get("parts"):
        parts = " + ".join(f"{op} {ns / 1e3:.4g} µs" for op, ns in r["parts"].items())
        out.append(f"one use = {parts} (medians; the interval is per round, then over rounds)")
    if advice.security_bits:
        out.append(
            f"{prim.security_bits}-bit security: compared only with choices of the same level"
        )
    if prim.transitions:
        dated = "; ".join(t.text() for t in prim.transitions)
        out.append(f"dated transitions (read on {advice.day}): {dated}")
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


def _fresh(r: dict, rows: list[dict], advice) -> list[str]:
    """Keyed operations: what a fresh cipher/MAC object per message costs at this size."""
    mac = r.get("family") == "mac"  # a MAC's verify keys a MAC object too
    if r["operation"] not in KEYED_OPERATIONS and not mac:
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

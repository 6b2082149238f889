"""What `calibrate`'s chosen parameters buy and how near the target they came: the attacker's
view, OWASP's minimum, and, when the re-measured time is more than ±15% off, the adjacent step
on the target's side, said plainly ("no t within ±15%: t=3 is −22% (re-measured), t=4 is +4%
…") (docs/methodology.md, "calibrate")."""

from __future__ import annotations

from dataclasses import dataclass

from ..catalog import policy as policy_mod
from ..catalog import primitives as catalog
from .search import TOLERANCE, Search, off, predict, scale, step, toward

KEYSPACE = 36**8  # 8 characters from a-z and 0-9
KEYSPACE_TEXT = "8 random characters from a-z0-9: 36^8 passwords"
YEAR_S = 365.25 * 86400


def attacker(median_ns: float, low_ns: float, high_ns: float) -> dict:
    """Guesses per second one core sustains, and core-years for the keyspace (docs)."""

    def years(ns: float, share: float) -> float:
        return KEYSPACE * share * ns / 1e9 / YEAR_S

    return {
        "guesses_per_s": 1e9 / median_ns,
        "guesses_per_s_low": 1e9 / high_ns,
        "guesses_per_s_high": 1e9 / low_ns,
        "keyspace": KEYSPACE,
        "keyspace_text": KEYSPACE_TEXT,
        "core_years_average": years(median_ns, 0.5),
        "core_years_average_low": years(low_ns, 0.5),
        "core_years_average_high": years(high_ns, 0.5),
        "core_years_all": years(median_ns, 1.0),
    }


@dataclass
class Verdict:
    spec: policy_mod.Search
    prim: catalog.Primitive
    policy: policy_mod.Policy
    target_ns: float
    cap: int | None

    def other_step(self, s: Search, value: int, ns: float) -> dict | None:
        """The value the scaling law predicts from the re-measured ``ns`` at ``value`` (where
        steps are coarse: the adjacent step on the target's side), with its time: re-measured
        in rounds, else its probe scaled by the chosen value's probe to the rounds' median (the
        probes' bias cancels), else the scaling law; None past the bounds."""
        other = predict(self.spec, self.prim, value, ns, self.target_ns, self.cap)
        if other == value:
            other = toward(self.spec, self.prim, self.cap, value, ns, self.target_ns)
        if other is None:
            return None
        again = {r["value"]: r["ms"] * 1e6 for r in s.remeasured}
        probed = {p["value"]: p["ns"] for p in s.probes}
        if other in again:
            est, source = again[other], "re-measured"
        elif other in probed and value in probed:
            est, source = ns * probed[other] / probed[value], "its probe, scaled to the rounds"
        else:
            est, source = ns * scale(self.spec, value, other), "scaling law"
        return {"value": other, "ms": est / 1e6, "off": off(est, self.target_ns), "source": source}

    def worth_remeasuring(self, s: Search, value: int, ns: float) -> int | None:
        """The other value (other_step) when the chosen one re-measured more than ±15% off
        and the other is expected nearer."""
        if abs(off(ns, self.target_ns)) <= TOLERANCE or s.remeasured:
            return None
        other = self.other_step(s, value, ns)
        if other is None or abs(other["off"]) >= abs(off(ns, self.target_ns)):
            return None
        return other["value"]

    def text(self, s: Search, value: int, ns: float) -> str:
        """One honest line when the re-measured time is off by more than ±15%; else ""."""
        p, gap = self.spec.param, off(ns, self.target_ns)
        if abs(gap) <= TOLERANCE:
            return ""
        other = self.other_step(s, value, ns)
        if other is None and gap > 0:
            hint = ": a smaller --memory makes it faster" if self.spec.memory_param else ""
            return f"{p}={value} is the least {p} and is {gap:+.0%}{hint}"
        if other is None:
            by = " --memory allows" if self.cap is not None else ""
            return f"{p}={value} is the largest {p}{by} and is {gap:+.0%}"
        o = other["off"]
        if abs(o) <= TOLERANCE:
            return (
                f"{p}={other['value']} would be within ±{TOLERANCE:.0%} ({o:+.0%}, "
                f"{other['source']}) but was not re-measured; {p}={value} re-measured {gap:+.0%}"
            )
        shown = sorted(
            [
                (value, ns / 1e6, gap, "re-measured"),
                (other["value"], other["ms"], o, other["source"]),
            ],
            key=lambda x: x[0],
        )
        listed = ", ".join(f"{p}={v} is {ms:.4g} ms, {g:+.0%} ({src})" for v, ms, g, src in shown)
        nearer = value if abs(gap) <= abs(o) else other["value"]
        # the row's answer is ``value``: said so, where the steps leave none within the band
        kept = " (the answer given)" if nearer == value else f" ({p}={value} is the answer given)"
        adjacent = other["value"] in (step(self.spec, value, -1), step(self.spec, value, 1))
        if (gap > 0) == (o > 0) or not adjacent:  # another value may do better
            return f"{listed}; {p}={nearer} is nearer (no other value measured in rounds)"
        return f"no {p} within ±{TOLERANCE:.0%}: {listed}; {p}={nearer} is nearer{kept}"

    def describe(self, s: Search, params: dict, row: dict) -> dict:
        """The result's `calibration`: the search, the parameters, OWASP, the attacker's view,
        how far off the target and the other step."""
        value = params[self.spec.param]
        ok, why = self.policy.owasp(self.prim.id, params)
        info = search_info(s)
        info.update(
            value=value,
            memory_bytes=self.spec.memory_bytes(params),
            owasp_ok=ok,
            owasp=why,
        )
        if row.get("status") == "ok" and row.get("median_ns"):
            ns = row["median_ns"]
            info.update(
                off_target=off(ns, self.target_ns),
                on_target=abs(off(ns, self.target_ns)) <= TOLERANCE,
                attacker=attacker(ns, row["ci_low_ns"], row["ci_high_ns"]),
                other_step=self.other_step(s, value, ns),
                verdict=self.text(s, value, ns),
            )
        return info


def search_info(s: Search) -> dict:
    info = {
        "operation": s.operation,
        "probes": [
            {"value": p["value"], "ms": p["ns"] / 1e6, "calls": p["calls"], "by": p["by"]}
            for p in s.probes
        ],
        "search_stopped": s.stopped,
    }
    if s.started_from:
        info["started_from"] = s.started_from
    if s.remeasured:
        info["remeasured"] = s.remeasured
    return info

"""Run-to-run comparison: pure functions over two results documents (docs/reports.md).

For every case key (implementation, primitive, operation, size, params) measured in both runs:

- runs measured in rounds (results v2, ≥ 2 rounds each): the ratio B/A of the two round
  estimates with Welch's t-test on the logs of the round medians, whose variances include the
  between-round variation (:func:`cryptobench.stats.rounds_diff`), so two identical runs do
  not differ "significantly" because each process had its own luck;
- otherwise (results v1, or one round): the ratio of medians with a conservative CI from the
  two median CIs (:func:`cryptobench.stats.ratio_ci`) and a Mann–Whitney U test on the kept
  batches (as benchstat does), with a warning that batches of one process overstate
  significance;
- Benjamini–Hochberg adjustment of those p-values over every matched case (false discovery
  rate ``alpha``), because a suite has hundreds of cases;
- a change is called only when the adjusted p-value is below ``alpha``, the ratio differs
  from 1 by at least ``min_effect`` (2%) (batches are correlated and run-to-run shifts of a
  fraction of a percent are the rule, not news), and the ratio's CI excludes 1 (so a called
  change never comes with an interval that says "maybe no change").

The geometric mean of all ratios summarises the comparison. Cases that did not match (present
in one run only, or not measured in one of them) are listed, never silently dropped.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np

from .. import stats
from . import probe

ALPHA = 0.05
MIN_EFFECT = 0.02

Key = tuple  # (implementation, primitive, operation, size, params as sorted JSON)


def case_key(r: dict) -> Key:
    params = json.dumps(r.get("params") or {}, sort_keys=True)
    return (r["implementation"], r["primitive"], r["operation"], r["size"], params)


def key_dict(key: Key) -> dict:
    impl, prim, op, size, params = key
    return {
        "implementation": impl,
        "primitive": prim,
        "operation": op,
        "size": size,
        "params": json.loads(params),
    }


@dataclass(frozen=True)
class Side:
    median_ns: float
    ci_low_ns: float
    ci_high_ns: float
    n: int


@dataclass
class CaseComparison:
    key: Key
    family: str
    a: Side
    b: Side
    ratio: float  # median(B) / median(A): > 1 means B is slower
    ratio_low: float
    ratio_high: float
    p_value: float
    q_value: float = 1.0  # Benjamini–Hochberg adjusted p-value
    significant: bool = False
    method: str = "batches"  # "rounds": Welch t on round medians; "batches": Mann–Whitney;
    # "instructions": two exact counts (results/instructions.py)
    note: str | None = None  # what the reader must know about this pair (instructions: paths)

    @property
    def change(self) -> float:
        """Relative change of the time per operation (+0.05 = 5% slower)."""
        return self.ratio - 1.0

    @property
    def verdict(self) -> str:
        if not self.significant:
            return "~"
        return "slower" if self.ratio > 1 else "faster"


@dataclass
class Comparison:
    cases: list[CaseComparison]
    only_a: list[Key] = field(default_factory=list)
    only_b: list[Key] = field(default_factory=list)
    not_comparable: list[tuple[Key, str]] = field(default_factory=list)
    skipped_both: list[Key] = field(default_factory=list)  # not offered in either run
    warnings: list[str] = field(default_factory=list)
    alpha: float = ALPHA
    min_effect: float = MIN_EFFECT
    metric: str = "time"  # "instructions": instructions per operation (results/instructions.py)
    # the drift probe's B/A when every ratio was divided by it (--machine-level), else None
    level: stats.Diff | None = None

    @property
    def significant(self) -> list[CaseComparison]:
        return [c for c in self.cases if c.significant]

    def geomean(self, family: str | None = None) -> float | None:
        ratios = [c.ratio for c in self.cases if family is None or c.family == family]
        return geomean(ratios)

    def families(self) -> list[str]:
        return sorted({c.family for c in self.cases})

    def slowdowns_above(self, pct: float) -> list[CaseComparison]:
        """Significant slowdowns of more than ``pct`` percent (for --fail-above)."""
        return [c for c in self.significant if c.change * 100 > pct]


def run_labels(docs: list[dict]) -> list[str]:
    """Short labels that tell runs apart: the run id prefix, and the CPU model where the runs
    come from more than one."""
    cpus = [(d.get("machine") or {}).get("cpu_model") or "unknown CPU" for d in docs]
    labels: list[str] = []
    for doc, cpu in zip(docs, cpus, strict=True):
        label = str((doc.get("run") or {}).get("id", "?"))[:8]
        if len(set(cpus)) > 1:
            label += f" on {cpu}"
        while label in labels:
            label += " (again)"
        labels.append(label)
    return labels


def busy(doc: dict) -> str | None:
    """Why a run's machine was too busy for its timings to be compared, or None: more
    runnable tasks than cores (load average), more than 2% of CPU time stolen, its drift probe
    spread over the rounds past stats.BUSY_SPREAD, or reading slower than this machine's
    fastest earlier run past the same bound (results/probe.py)."""
    m, run = doc.get("machine") or {}, doc.get("run") or {}
    cores = m.get("cores") or 0
    loads = [x for x in (m.get("load_avg_start"), m.get("load_avg_end")) if x is not None]
    steal = m.get("steal_fraction") or 0.0
    why = []
    if (cores and loads and max(loads) > cores) or steal > 0.02:
        load = "–".join(f"{x:.1f}" for x in loads) if loads else "?"
        why.append(f"load average {load} on {cores or '?'} cores, {steal:.1%} steal")
    spread = stats.drift(run.get("probes") or [])
    if spread is not None and spread > stats.BUSY_SPREAD:
        why.append(f"the drift probe {1 + spread:.2f}x as long in one round as in another")
    times = probe.slowed_by(run)
    if times:
        why.append(f"the drift probe {times:.2f}x as long as in this machine's fastest earlier run")
    return "; ".join(why) or None


PROBE_MOVED = 0.03  # the drift probe moving more than this says the machine changed


def probe_median(doc: dict) -> float | None:
    """The geometric mean of a run's drift probes (None for runs without any)."""
    return stats.probe_level((doc.get("run") or {}).get("probes") or [])


def probe_estimate(doc: dict) -> stats.RoundsCI | None:
    """The machine's level in a run: its drift probe's round estimate (None with fewer than
    two probed rounds)."""
    probes = [
        p
        for p in (doc.get("run") or {}).get("probes") or []
        if p.get("median_ns") and p.get("ci_low_ns") and p.get("ci_high_ns")
    ]
    if len(probes) < 2:
        return None
    return stats.rounds_ci(
        *([p[k] for p in probes] for k in ("median_ns", "ci_low_ns", "ci_high_ns"))
    )


LEVELS = ("auto", "probe", "none")


def machine_level(doc_a: dict, doc_b: dict, mode: str = "auto"):
    """(A's and B's machine level, or None; why not, or None) for --machine-level: ``probe``
    divides every ratio by the drift probe's B/A; ``auto`` does so only when both runs come
    from one machine (its machine id), since between machines the difference is the point;
    ``none`` never (docs/reports.md, "Comparing runs")."""
    if mode == "none":
        return None, None
    ids = [(d.get("machine") or {}).get("machine_id") for d in (doc_a, doc_b)]
    if mode == "auto" and (ids[0] is None or ids[0] != ids[1]):
        return None, None
    pa, pb = probe_estimate(doc_a), probe_estimate(doc_b)
    if pa is None or pb is None:
        return None, "no drift probe in both runs: the machine's level is not taken out"
    return (pa, pb), None


def _probe_warnings(doc_a: dict, doc_b: dict, adjusted: bool = False) -> list[str]:
    out = []
    pa, pb = probe_median(doc_a), probe_median(doc_b)
    if not adjusted and pa and pb and abs(pb / pa - 1) > PROBE_MOVED:
        out.append(
            f"the drift probe moved {pb / pa - 1:+.1%} between A and B: the machine changed, "
            "so part of every ratio is the machine's"
        )
    for side, doc in (("A", doc_a), ("B", doc_b)):
        spread = stats.drift((doc.get("run") or {}).get("probes") or [])
        if spread is not None and PROBE_MOVED < spread <= stats.BUSY_SPREAD:  # past it: busy()
            out.append(f"the drift probe moved {spread:.1%} across run {side}'s rounds")
    return out


def warnings(doc_a: dict, doc_b: dict, adjusted: bool = False) -> list[str]:
    """What makes a comparison of these two runs less trustworthy than its p-values say."""
    out = _probe_warnings(doc_a, doc_b, adjusted)
    for side, doc in (("A", doc_a), ("B", doc_b)):
        why = busy(doc)
        if why:
            out.append(
                f"run {side} was measured on a busy machine ({why}): between-run changes may "
                "be the machine's, not the code's"
            )
    cpus = [(d.get("machine") or {}).get("cpu_model") for d in (doc_a, doc_b)]
    if cpus[0] != cpus[1]:
        out.append(f"A and B ran on different CPUs ({cpus[0]} vs {cpus[1]})")
    return out


def geomean(ratios) -> float | None:
    r = [x for x in ratios if x > 0 and math.isfinite(x)]
    return float(math.exp(sum(math.log(x) for x in r) / len(r))) if r else None


def mann_whitney_p(a, b) -> float:
    """Two-sided Mann–Whitney U p-value; 1.0 where the test is undefined (identical data)."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(x) == 0 or len(y) == 0:
        return 1.0
    if np.all(x == x[0]) and np.all(y == x[0]):
        return 1.0
    from scipy import stats as sps  # here, not at import: `advise` reads this module

    p = sps.mannwhitneyu(x, y, alternative="two-sided").pvalue
    return 1.0 if math.isnan(p) else float(p)


def bh_adjust(p_values) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values), in the input order."""
    if len(p_values) == 0:
        return []
    from scipy import stats as sps

    return [float(q) for q in sps.false_discovery_control(np.asarray(p_values), method="bh")]


def _usable(r: dict) -> str | None:
    """Why a result cannot be compared, or None."""
    if r.get("status") != "ok":
        return str(r.get("status"))
    if not r.get("samples"):
        return "no raw samples"
    if not r.get("median_ns"):
        return "no median"
    return None


def _side(values) -> Side:
    ci = stats.median_ci(values)
    return Side(ci.median, ci.low, ci.high, ci.n)


def rounds_estimate(r: dict) -> stats.RoundsCI | None:
    """A result's round estimate, recomputed from its rounds; None with fewer than two."""
    rounds = r.get("rounds") or []
    if len(rounds) < 2:
        return None
    return stats.rounds_ci(
        [x["median_ns"] for x in rounds],
        [x["ci_low_ns"] for x in rounds],
        [x["ci_high_ns"] for x in rounds],
    )


def compare_case(key: Key, ra: dict, rb: dict, level=None, test: bool = True) -> CaseComparison:
    """B against A; ``level`` (A's and B's machine level) divides the ratio by the machine's
    shift where both have rounds. ``test=False``: where the batches decide (fewer than two
    rounds), no Mann–Whitney p-value (nan): a reader of the ratio alone (advise's margin)
    imports no scipy.stats, half a second of an answer from the store."""
    ea, eb = rounds_estimate(ra), rounds_estimate(rb)
    if ea and eb:
        d = stats.rounds_diff(ea, eb, level=level)
        return CaseComparison(
            key=key,
            family=rb.get("family") or ra.get("family") or "?",
            a=Side(ea.median, ea.low, ea.high, ea.rounds),
            b=Side(eb.median, eb.low, eb.high, eb.rounds),
            ratio=d.ratio,
            ratio_low=d.low,
            ratio_high=d.high,
            p_value=d.p_value,
            method="rounds",
        )
    a, b = stats.per_op(ra["samples"]), stats.per_op(rb["samples"])
    ratio, low, high = stats.ratio_ci(b, a)
    return CaseComparison(
        key=key,
        family=rb.get("family") or ra.get("family") or "?",
        a=_side(a),
        b=_side(b),
        ratio=ratio,
        ratio_low=low,
        ratio_high=high,
        p_value=mann_whitney_p(a, b) if test else math.nan,
    )


def _by_key(doc: dict) -> dict[Key, dict]:
    out: dict[Key, dict] = {}
    for r in doc.get("results", []):
        if r.get("family") != "noop":  # runner overhead, shown in reports, not compared
            out[case_key(r)] = r
    return out


def compare(
    doc_a: dict,
    doc_b: dict,
    alpha: float = ALPHA,
    min_effect: float = MIN_EFFECT,
    machine: str = "auto",
) -> Comparison:
    """Compare run B against run A (the baseline); ``machine``: --machine-level."""
    a, b = _by_key(doc_a), _by_key(doc_b)
    level, why_not = machine_level(doc_a, doc_b, machine)
    result = Comparison(
        [], alpha=alpha, min_effect=min_effect, warnings=warnings(doc_a, doc_b, bool(level))
    )
    if level:
        result.level = stats.rounds_diff(*level)
    elif why_not and machine == "probe":
        result.warnings.append(why_not)
    result.only_a = sorted(k for k in a if k not in b)
    result.only_b = sorted(k for k in b if k not in a)
    for key in sorted(k for k in a if k in b):
        why_a, why_b = _usable(a[key]), _usable(b[key])
        if why_a == why_b == "skipped":
            result.skipped_both.append(key)
            continue
        if why_a or why_b:
            reason = "; ".join(f"{side}: {w}" for side, w in (("A", why_a), ("B", why_b)) if w)
            result.not_comparable.append((key, reason))
            continue
        result.cases.append(compare_case(key, a[key], b[key], level))
    by_batches = sum(c.method == "batches" for c in result.cases)
    if by_batches:
        result.warnings.append(
            f"{by_batches} of {len(result.cases)} cases have fewer than 2 rounds in A or B "
            "(results v1, or --rounds 1): compared batch by batch, whose p-values leave out "
            "run-to-run variation and overstate significance"
        )
    for case, q in zip(result.cases, bh_adjust([c.p_value for c in result.cases]), strict=True):
        case.q_value = q
        excludes_one = not case.ratio_low <= 1.0 <= case.ratio_high
        case.significant = q < alpha and abs(case.change) >= min_effect and excludes_one
    return result

"""Timing leakage, dudect-style (docs/methodology.md, "Timing leakage"). Pure: no I/O.

The measurements come in blocks: one runner request each, with its own freshly prepared
call per class (key schedule, buffers, their addresses). Where a block's two calls sit in
memory changes its class difference by a few nanoseconds in some runtimes — more than a
leak — and a t test over pooled measurements would call that a leak (it did: a
constant-time compare gave |t| = 104 and identical classes |t| = 95 in Rust). So the unit
of the test is the block: each block gives the class difference of its means (after each
percentile crop, its own thresholds), and the test is a one-sample t over the blocks'
differences — the placement noise is then in the standard error, where it belongs.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np


class _LazyStats:
    """scipy.stats on first use: `advise` and `show` import this module through the report
    stack without testing anything (scipy.stats is half a second of imports)."""

    def __getattr__(self, name: str):
        from scipy import stats

        return getattr(stats, name)


scipy_stats = _LazyStats()

LEAK_T = 4.5  # dudect's threshold on |t| (Reparaz, Balasch, Verbauwhede, DATE 2017)
LEAK_CROPS = 100  # dudect's number of percentile crops
LEAK_MIN_PER_CLASS = 400  # fewer measurements in a class: inconclusive
LEAK_MIN_BLOCKS = 8  # fewer blocks: inconclusive (the t over blocks has too few degrees)
_KEPT = np.concatenate(([1.0], 1.0 - 0.5 ** (10.0 * (np.arange(LEAK_CROPS) + 1) / LEAK_CROPS)))
LABELS = ["all"] + [f"crop p{100 * k:.1f}" for k in _KEPT[1:]]


def leak_thresholds(ns) -> np.ndarray:
    """dudect's crop thresholds: the percentiles 1 − 0.5^(10·(i+1)/100), i = 0…99."""
    return np.quantile(np.asarray(ns, dtype=float), _KEPT[1:])


def block_ids(n: int, blocks: int) -> np.ndarray:
    """Which of ``blocks`` contiguous, nearly equal requests each of n measurements is in."""
    cuts = np.linspace(0, n, blocks + 1).astype(int)
    return np.searchsorted(cuts[1:], np.arange(n), side="right")


def block_differences(ns, classes) -> np.ndarray:
    """One block's class-B-minus-A difference of means, for "all" then each crop (a crop
    keeps the block's measurements at or below its own threshold); NaN where a class is
    empty."""
    x = np.asarray(ns, dtype=float)
    c = np.asarray(classes, dtype=int)
    nb = LEAK_CROPS + 1
    bucket = np.searchsorted(leak_thresholds(x), x, side="left")  # crop k keeps bucket ≤ k
    y = x - np.median(x)
    cell = c * nb + bucket
    n = np.bincount(cell, minlength=2 * nb).reshape(2, nb).cumsum(axis=1)
    s = np.bincount(cell, weights=y, minlength=2 * nb).reshape(2, nb).cumsum(axis=1)
    tests = [LEAK_CROPS, *range(LEAK_CROPS)]  # "all" (every bucket) first, then the crops
    n, s = n[:, tests], s[:, tests]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((n[0] > 0) & (n[1] > 0), s[1] / n[1] - s[0] / n[0], np.nan)


def _t_over_blocks(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One-sample t (and its standard error) of each column of ``d`` (blocks × tests)."""
    seen = ~np.isnan(d)
    m = seen.sum(axis=0)
    x = np.where(seen, d, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = x.sum(axis=0) / m
        var = (np.where(seen, d - mean, 0.0) ** 2).sum(axis=0) / (m - 1)
        se = np.sqrt(var / m)
        t = mean / se
    ok = (m >= 3) & (se > 0)
    return np.where(ok, t, 0.0), np.where(ok, se, np.inf)


@dataclass(frozen=True)
class LeakTest:
    """The dudect tests of one leak case: all measurements, then each percentile crop."""

    t: float  # the t of largest magnitude over the tests (class B minus class A)
    test: str  # which test gave it: "all" or "crop p<q>"
    n: int  # measurements (both classes)
    n_a: int
    n_b: int
    blocks: int  # requests, each with its own prepared calls: the test's unit
    detectable_ns: float  # smallest mean shift giving |t| = LEAK_T in a test on ≥ half the data
    distinct: int  # distinct time values: a clock too coarse shows few
    curve: list  # [(measurements so far, max |t| so far)], at growing numbers of blocks
    median_a: float
    median_b: float
    p_holm: float = 1.0  # the smallest Holm-adjusted p of the 101 tests (= 101 × the least p)


def leak_test(ns, classes, blocks, points: int = 20) -> LeakTest:
    """Per block (``blocks``: each measurement's block id, blocks in the order taken), the
    class difference of means on all its measurements and after each of dudect's 100
    percentile crops; per test, the one-sample t of those differences over the blocks.
    Reported: the t of largest magnitude, the counts, and the smallest shift the most
    sensitive test keeping at least half the measurements would have flagged (|t| = 4.5 at
    its standard error). ``curve``: max |t| over the tests at growing prefixes of the blocks
    (a real leak grows like √n, noise does not). Second-order (variance) tests are left out."""
    x = np.asarray(ns, dtype=float)
    c = np.asarray(classes, dtype=int)
    b = np.asarray(blocks, dtype=int)
    if x.shape != c.shape or x.shape != b.shape or len(x) < 2:
        raise ValueError("leak_test needs a class and a block for every measurement")
    ids, starts = np.unique(b, return_index=True)
    ids = ids[np.argsort(starts)]
    d = np.array([block_differences(x[b == i], c[b == i]) for i in ids])
    t, se = _t_over_blocks(d)
    best = int(np.argmax(np.abs(t)))
    ses = se[np.isfinite(se) & (_KEPT >= 0.5)]
    ends = np.array([int(np.max(np.nonzero(b == i))) + 1 for i in ids])
    cuts = np.unique(np.linspace(0, len(ids), points + 1).astype(int)[1:])
    cuts = cuts[cuts >= LEAK_MIN_BLOCKS]
    curve = [(int(ends[k - 1]), float(np.max(np.abs(_t_over_blocks(d[:k])[0])))) for k in cuts]
    p_min = float(np.min(2 * scipy_stats.t.sf(np.abs(t), max(len(ids) - 1, 1))))
    return LeakTest(
        t=float(t[best]),
        test=LABELS[best],
        n=len(x),
        n_a=int(np.count_nonzero(c == 0)),
        n_b=int(np.count_nonzero(c == 1)),
        blocks=len(ids),
        detectable_ns=float(LEAK_T * ses.min()) if len(ses) else math.inf,
        distinct=len(np.unique(x)),
        curve=curve,
        median_a=float(np.median(x[c == 0])) if (c == 0).any() else math.nan,
        median_b=float(np.median(x[c == 1])) if (c == 1).any() else math.nan,
        p_holm=min(1.0, len(t) * p_min),
    )


def leak_verdict(test: LeakTest) -> str:
    """``leak`` (|t| > 4.5), ``no leak detected (N measurements, detectable ≥ X ns)``, or
    ``inconclusive`` (too few measurements or blocks, or a clock too coarse to tell)."""
    too_few = min(test.n_a, test.n_b) < LEAK_MIN_PER_CLASS or test.blocks < LEAK_MIN_BLOCKS
    if too_few or test.distinct < 3:
        return "inconclusive"
    if abs(test.t) > LEAK_T:
        return "leak"
    return f"no leak detected ({test.n} measurements, detectable ≥ {test.detectable_ns:.3g} ns)"


# -- the published verdict: replicated, calibrated by an A/A test, sized with an interval ------
#
# Fixed in advance, no crop search: per block (the unit, as above) the difference of the two
# classes' 10% trimmed means; per measurement the mean of those over the blocks with Student's
# t 95% interval over the blocks (tlsfuzzer's paired t, paired here by block). Not a
# bootstrap: on the A/A pairs of two full runs (2026-11-25) the BCa bootstrap's intervals
# missed 0 in 11.5% of them, Student's t in 5.3% (nominal 5%); docs/methodology.md, "Verdict".
# Not the median, as before 2026-11-26: with a clock that ticks in 10 ns a class sits on one
# or two ticks and its median cannot move by less than a tick (Go's early-exit control, ~6 ns,
# read 0 in most processes); a trimmed mean averages over the tick's phase and still drops
# the interrupted calls of each tail.

CONFIDENCE = 0.95
TRIM = 0.1  # of each class's times in a block, cut at each end
METHOD = (
    f"difference of the classes' {TRIM:.0%} trimmed means per block, mean over blocks; 95% "
    "interval: "
    "Student's t over the blocks, widened by the variance between processes "
    "(DerSimonian-Laird, t with k-1 degrees)"
)


@dataclass(frozen=True)
class Effect:
    """One measurement's class difference, oriented (class B − class A of the target, whatever
    roles the measurement gave them): ``diff_ns`` in [``low_ns``, ``high_ns``]."""

    diff_ns: float
    low_ns: float
    high_ns: float
    p: float  # Wilcoxon signed-rank over the blocks' differences, two-sided (1.0: all zero)
    n_a: int
    n_b: int
    blocks: int
    distinct: int
    median_ns: float  # class A's median: what the difference is a fraction of
    diffs: tuple = field(default=(), repr=False, compare=False)  # the blocks' differences

    @property
    def conclusive(self) -> bool:
        enough = min(self.n_a, self.n_b) >= LEAK_MIN_PER_CLASS and self.blocks >= LEAK_MIN_BLOCKS
        return enough and self.distinct >= 3 and math.isfinite(self.low_ns)

    @property
    def half_width(self) -> float:
        return (self.high_ns - self.low_ns) / 2

    @property
    def se(self) -> float:
        """The standard error behind the interval (its half-width over Student's t)."""
        return self.half_width / float(scipy_stats.t.ppf(0.5 + CONFIDENCE / 2, self.blocks - 1))

    def beyond(self, floor: float) -> int:
        """+1 / −1 when the whole interval lies above ``floor`` / below −``floor``, else 0."""
        return 1 if self.low_ns > floor else -1 if self.high_ns < -floor else 0


def block_trimmed_differences(ns, classes, blocks) -> np.ndarray:
    """Per block (in the order taken), class 1's TRIM-trimmed mean minus class 0's; NaN-free:
    a block missing a class is left out."""
    x, c, b = (np.asarray(v) for v in (ns, classes, blocks))
    if not len(b):
        return np.array([], dtype=float)
    by_block = np.argsort(b, kind="stable")  # each block's measurements together, in order
    _, starts = np.unique(b[by_block], return_index=True)
    groups = np.split(by_block, starts[1:])
    groups.sort(key=lambda g: g[0])  # the argsort is stable: g[0] is where its block began
    out = []
    for g in groups:
        xb, cb = x[g], c[g]
        if (cb == 0).any() and (cb == 1).any():
            one, zero = (scipy_stats.trim_mean(xb[cb == k], TRIM) for k in (1, 0))
            out.append(float(one - zero))
    return np.array(out, dtype=float)


def interval(d: np.ndarray) -> tuple[float, float]:
    """Student's t 95% interval of the mean of ``d`` (the blocks' differences: independent
    requests, each a difference of trimmed means); (NaN, NaN) with fewer than 3 values."""
    if len(d) < 3:
        return math.nan, math.nan
    if np.ptp(d) == 0:
        return float(d[0]), float(d[0])
    res = scipy_stats.ttest_1samp(d, 0.0)
    ci = res.confidence_interval(CONFIDENCE)
    return float(ci.low), float(ci.high)


def _wilcoxon(d: np.ndarray) -> float:
    if len(d) < 3 or not np.any(d):
        return 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(scipy_stats.wilcoxon(d).pvalue)


def effect(ns, classes, blocks, sign: int = 1) -> Effect:
    """The measurement's effect; ``sign`` −1 when it gave the target's class B the role of
    class 0 (the roles swapped), so every effect is oriented alike."""
    x, c = np.asarray(ns, dtype=float), np.asarray(classes, dtype=int)
    if x.shape != c.shape or x.shape != np.shape(blocks):
        raise ValueError("effect needs a class and a block for every measurement")
    return _effect_of(sign * block_trimmed_differences(x, c, blocks), x, c, sign)


def _effect_of(d: np.ndarray, x: np.ndarray, c: np.ndarray, sign: int) -> Effect:
    low, high = interval(d)
    n0, n1 = int(np.count_nonzero(c == 0)), int(np.count_nonzero(c == 1))
    return Effect(
        diff_ns=float(np.mean(d)) if len(d) else math.nan,
        low_ns=low,
        high_ns=high,
        p=_wilcoxon(d),
        n_a=n0 if sign > 0 else n1,
        n_b=n1 if sign > 0 else n0,
        blocks=len(d),
        distinct=len(np.unique(x)),
        median_ns=_reference_median(x, c, sign),
        diffs=tuple(d.tolist()),
    )


def _reference_median(x: np.ndarray, c: np.ndarray, sign: int) -> float:
    """Class A's median (the runner's class 0, or 1 where the roles were swapped): what a
    difference is a fraction of. Not both classes' together: where the classes differ by
    more than their spread (an early-exit control: 31 against 297 ns), that median falls on
    either class's times by chance, and Free Pascal's control read 857% of the call in one
    run and 102% in the next (2026-11-29)."""
    a = x[c == (0 if sign > 0 else 1)]
    return float(np.median(a)) if len(a) else math.nan


def across(effects: list[Effect], mean: float, low: float, high: float) -> tuple[float, float]:
    """``low``…``high`` (the blocks' interval around ``mean``) widened by the variance between
    the processes, when their means differ by more than their own intervals allow. The blocks
    hold only the variation within a process; where a process's compilation or placement moves
    the difference (a JIT's compare loop), their interval would not cover the next process.
    The between-process variance τ² is DerSimonian and Laird's (Controlled Clinical Trials 7,
    1986: from Cochran's Q over the measurements, each weighted by its blocks' standard
    error); its share of the mean's variance, τ²/k, is taken at Student's t with k − 1
    degrees, as Hartung and Knapp (Statistics in Medicine 20, 2001) do for few studies, and
    added in quadrature to the blocks' half-width (docs/methodology.md, "Verdict"). A
    measurement whose blocks all gave the same difference (a clock too coarse to resolve it)
    has no standard error to weigh by: τ² is then the unweighted moment estimator (Hedges,
    Psychological Bulletin 92, 1982), the means' variance less their mean squared error."""
    ok = [e for e in effects if math.isfinite(e.diff_ns) and e.blocks > 1]
    if len(ok) < 2 or not (math.isfinite(low) and math.isfinite(high)):
        return low, high
    q = 0.5 + CONFIDENCE / 2
    m = np.array([e.diff_ns for e in ok])
    se = np.array([e.se for e in ok])
    k = len(ok)
    if np.all(se > 0):
        w = 1 / se**2
        spread = float(np.sum(w * (m - np.sum(w * m) / np.sum(w)) ** 2))  # Cochran's Q
        tau2 = max(0.0, (spread - (k - 1)) / float(np.sum(w) - np.sum(w**2) / np.sum(w)))
    else:
        tau2 = max(0.0, float(np.var(m, ddof=1) - np.mean(se**2)))
    between = float(scipy_stats.t.ppf(q, k - 1)) ** 2 * tau2 / k
    half = math.sqrt(((high - low) / 2) ** 2 + between)
    return mean - half, mean + half


def pooled(effects: list[Effect]) -> Effect:
    """The measurements' blocks together (already oriented alike): one effect, its interval
    over the blocks widened by the variance between the processes (``across``; none when
    they agree)."""
    d = np.concatenate([np.asarray(e.diffs, dtype=float) for e in effects])
    low, high = interval(d)
    if len(d):
        low, high = across(effects, float(np.mean(d)), low, high)
    return Effect(
        diff_ns=float(np.mean(d)) if len(d) else math.nan,
        low_ns=low,
        high_ns=high,
        p=_wilcoxon(d),
        n_a=sum(e.n_a for e in effects),
        n_b=sum(e.n_b for e in effects),
        blocks=len(d),
        distinct=min(e.distinct for e in effects),
        median_ns=float(np.median([e.median_ns for e in effects])),
        diffs=tuple(d.tolist()),
    )


def fmt_ns(v: float) -> str:
    a = abs(v)
    return f"{v:.0f}" if a >= 100 else f"{v:.1f}" if a >= 10 else f"{v:.2f}"


@dataclass(frozen=True)
class Verdict:
    """What a target's row says. ``verdict``: ``leak``, ``not replicated``, ``no leak
    detected`` or ``inconclusive``; ``summary`` the sentence; the headline effect (every
    measurement's blocks pooled, ``pooled``), its share of
    the call, the A/A floor and the smallest difference the rule would have flagged."""

    verdict: str
    summary: str
    effect: Effect
    fraction: float
    floor_ns: float
    detectable_ns: float
    aa_flagged: bool


def aa_floor(aas: list[Effect]) -> float:
    """The A/A floor: a difference the target's own inputs can make with no secret involved.
    With REPLICATES A/A measurements, the largest end (in magnitude) of their intervals (two
    processes cannot estimate the variance between them: pooled, t with one degree would
    widen the floor 12.7-fold whenever they differ by chance); with more (a case measured
    again), the far end of their pooled interval (``pooled``), which one noisy A/A process
    does not set alone."""
    if len(aas) > REPLICATES:
        e = pooled(aas)
        return max(abs(e.low_ns), abs(e.high_ns))
    return max((max(abs(e.low_ns), abs(e.high_ns)) for e in aas), default=0.0)


def aa_flagged(aas: list[Effect]) -> bool:
    """The A/A pair would have been called a leak: every A/A interval excludes 0, all on the
    same side (the rule with a floor of 0)."""
    sides = {e.beyond(0.0) for e in aas}
    return len(aas) >= REPLICATES and len(sides) == 1 and 0 not in sides


REPLICATES = 2
# the controls' processes: an early-exit compare's size moves between processes (a JIT's loop,
# placement) by more than one process's interval, and two processes cannot show by how much
CONTROL_REPLICATES = 6
# a target whose first REPLICATES measurements leave it undecided (``undecided``) is measured
# in fresh processes up to this many, and decided on the pooled interval
EDGE_REPLICATES = 6


# a process whose blocks scatter this many times more than the other processes' (its
# standard error over their median's) is measured again (``unsteady``: rule 7)
UNSTEADY = 5.0


def _apart(a: Effect, b: Effect) -> bool:
    return a.high_ns < b.low_ns or b.high_ns < a.low_ns


def _scatter(e: Effect) -> float:
    """A measurement's standard error over its blocks; NaN without one (too few blocks)."""
    return e.se if e.blocks > 2 and math.isfinite(e.half_width) else math.nan


def unsteady(reps: list[Effect], aas: list[Effect]) -> dict[int, tuple[float, str]]:
    """The processes (by replicate index) whose target or A/A measurement scattered far beyond
    the other processes': its blocks' standard error more than UNSTEADY times the median of
    the others' (three processes at least, so the others can say what steady is), with that
    ratio and which measurement ("target" or "A/A"; the larger). Such a process (a collection
    or a neighbour over some of its blocks: node/crypto's ECDSA signing had one process whose
    blocks spread ±8-11 µs, the other five ±0.2-0.5 µs) weighs in the pooled mean like every
    other, and moved a verdict between two identical runs. It is chosen by its spread, never
    by its difference (docs/methodology.md, "Verdict", rule 7)."""
    out: dict[int, tuple[float, str]] = {}
    for series, name in ((reps, "target"), (aas, "A/A")):
        se = [_scatter(e) for e in series]
        if len(se) < 3:
            continue
        for i, x in enumerate(se):
            others = [y for j, y in enumerate(se) if j != i and math.isfinite(y)]
            steady = float(np.median(others)) if len(others) >= 2 else math.nan
            if math.isfinite(x) and steady > 0 and x > UNSTEADY * steady:
                out[i] = max(out.get(i, (0.0, "")), (x / steady, name))
    return dict(sorted(out.items()))


def undecided(reps: list[Effect], v: Verdict) -> bool:
    """The first measurements (``reps``, their verdict ``v``: ``replicated_verdict``) cannot
    settle the verdict: it is ``not replicated`` (one
    beyond the floor, not the other; or only their pooled interval), or every one shows a
    difference from zero on the same side that does not clear the floor (too little power to
    say which), or two processes' intervals are apart, so the variance between processes
    (which two cannot estimate: t with one degree is 12.7) decides the size. More processes
    settle each (docs/methodology.md, "Verdict", rule 6)."""
    if v.verdict == "inconclusive":
        return False
    het = any(_apart(a, b) for i, a in enumerate(reps) for b in reps[i + 1 :])
    signs = {e.beyond(0.0) for e in reps}
    below_floor = v.verdict != "leak" and len(signs) == 1 and 0 not in signs
    return v.verdict == "not replicated" or het or below_floor


def replicated_verdict(reps: list[Effect], aas: list[Effect]) -> Verdict:
    """``leak`` only when the difference replicates beyond the A/A floor, on one side: with
    REPLICATES measurements (fresh processes and inputs, roles swapped in one), each one's
    whole interval beyond it; with more (``undecided`` ones are measured again), the pooled
    interval beyond it (``pooled``: it holds the variance between the processes) and in each
    of the two role orientations at least one measurement beyond it, none on the other side.
    Otherwise ``not replicated`` when any measurement or the pooled interval lies beyond the
    floor; else ``no leak detected ≥ Y`` with Y = floor + the widest half-interval (a
    difference that large would have shown). The effect is always every measurement's blocks
    pooled."""
    floor = aa_floor(aas)
    both = pooled(reps)
    flagged = aa_flagged(aas)
    if len(reps) < REPLICATES or not all(e.conclusive for e in (*reps, *aas)):
        return Verdict("inconclusive", INCONCLUSIVE, both, math.nan, floor, math.inf, flagged)
    sides = [e.beyond(floor) for e in reps]
    detectable = floor + max(e.half_width for e in reps)
    frac = both.diff_ns / both.median_ns if both.median_ns else math.nan
    beyond = sum(1 for s in sides if s)
    if _replicated(sides, both.beyond(floor)):
        text = (
            f"leak: difference of {_sized(both)}, {abs(frac):.2%} of the call, replicated in "
            f"{beyond} of {len(reps)}, beyond the A/A floor of {fmt_ns(floor)} ns"
        )
        return Verdict("leak", text, both, frac, floor, detectable, flagged)
    if beyond or both.beyond(floor):
        text = (
            f"difference of {_sized(both)}, not replicated ({beyond} of {len(reps)} "
            "measurements beyond the A/A floor)"
        )
        return Verdict("not replicated", text, both, frac, floor, detectable, flagged)
    text = f"no leak detected ≥ {fmt_ns(detectable)} ns"
    return Verdict("no leak detected", text, both, frac, floor, detectable, flagged)


def _replicated(sides: list[int], pooled_side: int) -> bool:
    """``sides``: each measurement beyond the floor (+1 / −1) or not (0), the roles swapped in
    the odd ones."""
    if len(sides) <= REPLICATES:
        return len(set(sides)) == 1 and sides[0] != 0
    s = pooled_side
    oriented = {i % 2 for i, x in enumerate(sides) if s and x == s}
    return bool(s) and oriented == {0, 1} and -s not in sides


INCONCLUSIVE = "inconclusive: too few measurements or blocks, or a clock too coarse to tell"


def _sized(e: Effect) -> str:
    return f"{fmt_ns(e.diff_ns)} ns (95% interval {fmt_ns(e.low_ns)}…{fmt_ns(e.high_ns)} ns)"

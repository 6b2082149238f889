"""Pure statistics for cryptobench: no I/O, no printing, no clocks.

Every number a user sees is computed here (docs/methodology.md explains each):

- per-operation times of batches                      :func:`per_op`
- the distribution-free 95% CI of the median           :func:`median_ci`
- the interval over independent rounds                 :func:`rounds_ci`
- one round of several operations added up            :func:`round_sum`
- two runs' round estimates compared (Welch t on logs) :func:`rounds_diff`
- JIT compilation in a series of batches               :func:`compiled_until`
- a smaller size slower per op than a larger one       :func:`size_inversions`
- precision (CI half-width / median)                   :func:`precision`
- the per-call / per-byte fit t(n) = a + b·n           :func:`fit_overhead`
- unit conversions        :func:`throughput_mb_s`, :func:`cycles_per_byte`

Three topics live beside it: :mod:`.batches` (the batch loop's warm-up, calibration, stop
rule and noise flags), :mod:`.scaling` (N processes or threads at once) and :mod:`.leak`
(timing leakage, dudect-style).
"""

from __future__ import annotations

import itertools
import math
import threading
from dataclasses import dataclass

import numpy as np
from scipy import special  # t and binomial: scipy.stats costs half a second of imports

CONFIDENCE = 0.95


def _sps():
    """scipy.stats, imported where it is needed (a measurement, a fit), not by every reader of
    stored results (`advise` answers from the store in under a second)."""
    from scipy import stats as sps

    return sps


_LOADING: list[threading.Thread] = []


def prefetch() -> None:
    """scipy.stats imported in a thread of its own while the caller waits for its runners'
    first hellos (a JVM's takes a second or more), instead of a run's start waiting for its
    half a second to a second of imports first; ``prefetched`` waits for it."""
    thread = threading.Thread(target=_sps, name="import scipy.stats", daemon=True)
    thread.start()
    _LOADING.append(thread)


def prefetched() -> None:
    """Returns once a prefetch's imports are done: called before anything is timed, so no
    import runs beside a measurement."""
    while _LOADING:
        _LOADING.pop().join()


def t_ppf(q: float, df: float) -> float:
    """Student's t quantile (scipy.stats.t.ppf computes exactly this ufunc)."""
    return float(special.stdtrit(df, q))


def t_sf(t: float, df: float) -> float:
    """Student's t survival function (scipy.stats.t.sf's ufunc)."""
    return float(special.stdtr(df, -t))


def per_op(samples: list[dict]) -> np.ndarray:
    """ns per operation of each batch ``{"iterations", "ns"}``."""
    return np.array([s["ns"] / s["iterations"] for s in samples], dtype=float)


@dataclass(frozen=True)
class MedianCI:
    median: float
    low: float
    high: float
    n: int
    confidence: float  # the coverage actually reached (order statistics are discrete)

    @property
    def precision(self) -> float:
        return precision(self.median, self.low, self.high)


def median_ci(values, confidence: float = CONFIDENCE) -> MedianCI:
    """Distribution-free confidence interval of the median from order statistics.

    The number of samples below the true median is Binomial(n, 1/2), so
    ``[X_(j), X_(n+1-j)]`` (1-based order statistics) covers it with probability
    ``1 - 2·P(B ≤ j-1)``.  We take the largest j whose coverage is still ≥ ``confidence``
    (Hollander & Wolfe, *Nonparametric Statistical Methods*, §3.6; as in pyperf/benchstat).
    With fewer than 6 samples no j reaches 95%: the interval is [min, max] and the
    reached coverage is reported.
    """
    x = np.sort(np.asarray(values, dtype=float))
    n = len(x)
    if n == 0:
        raise ValueError("median_ci needs at least one value")
    med = float(np.median(x))
    alpha = 1.0 - confidence
    # largest j >= 1 with P(B <= j-1) <= alpha/2 (cdf is increasing); special.bdtr is the
    # binomial CDF (scipy.stats.binom.cdf's, within 5e-12 for n ≤ 3000, the same j every
    # time), without scipy.stats's half a second of imports in a reader of stored results
    j = max(1, int(np.count_nonzero(special.bdtr(np.arange(n), n, 0.5) <= alpha / 2)))
    coverage = 1.0 - 2.0 * float(special.bdtr(j - 1, n, 0.5))
    return MedianCI(med, float(x[j - 1]), float(x[n - j]), n, coverage)


def precision(median: float, low: float, high: float) -> float:
    """Half-width of the CI relative to the median (0.01 = ±1%)."""
    if median <= 0:
        return math.inf
    return (high - low) / 2.0 / median


Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


@dataclass(frozen=True)
class RoundsCI:
    """The estimate of a case over R independent rounds (docs/methodology.md, "Rounds")."""

    median: float  # geometric mean of the round medians
    low: float
    high: float
    rounds: int
    log_var: float  # variance of the estimate's log: max(between-round, within-round)
    between: float  # standard deviation of the round medians' logs (0 with one round)

    @property
    def precision(self) -> float:
        return precision(self.median, self.low, self.high)


def _within_var(lows, highs) -> np.ndarray:
    """Each round's variance of log(median), read off its 95% median CI on the log scale."""
    lo = np.log(np.maximum(np.asarray(lows, dtype=float), 1e-300))
    hi = np.log(np.maximum(np.asarray(highs, dtype=float), 1e-300))
    return ((hi - lo) / (2 * Z95)) ** 2


def rounds_ci(medians, lows, highs, confidence: float = CONFIDENCE) -> RoundsCI:
    """Combine per-round medians and their CIs into one estimate with a t interval.

    On the log scale, round r's median is m_r = μ + u_r + e_r: u_r the round's own offset
    (process, memory layout, JIT decisions, machine state; variance τ²) and e_r its sampling
    error (variance s_r², from the round's distribution-free CI). The estimate is the mean
    μ̂ = mean(m_r), whose variance (τ² + mean s_r²)/R is estimated without bias by the sample
    variance of the m_r over R (the one-way random-effects model; DerSimonian & Laird 1986).
    With 3 rounds that variance is itself uncertain, so it is floored at mean(s_r²)/R, the
    part the batches alone prove. The interval is exp(μ̂ ± t_{R−1} · √v): Student's t with
    R−1 degrees of freedom. One round: its own median CI, unchanged.
    """
    m = np.asarray(medians, dtype=float)
    r = len(m)
    if r == 0:
        raise ValueError("rounds_ci needs at least one round")
    if r == 1:
        return RoundsCI(float(m[0]), float(lows[0]), float(highs[0]), 1, 0.0, 0.0)
    logs = np.log(m)
    mu = float(np.mean(logs))
    var = max(float(np.var(logs, ddof=1)) / r, float(np.mean(_within_var(lows, highs))) / r)
    half = t_ppf(0.5 + confidence / 2, r - 1) * math.sqrt(var)
    sd = float(np.std(logs, ddof=1))
    centre = math.exp(mu) if np.ptp(m) > 0 else float(m[0])  # exact when all rounds agree
    return RoundsCI(centre, math.exp(mu - half), math.exp(mu + half), r, var, sd)


def round_sum(medians, lows, highs, weights=None) -> tuple[float, float, float]:
    """One round of a use made of several operations (a handshake: keygen + agree + sign):
    the sum of their medians, each times its weight (how often the use runs it: an ECDH
    exchange is two keygens and two agrees), and a within-round 95% interval for it. The
    operations are measured independently, so their variances add (each read off its CI as
    in :func:`rounds_ci`; a weight w scales one operation's variance by w²), never their
    intervals. The sums of each round then go to :func:`rounds_ci` like any case's round
    medians."""
    w = np.ones(len(medians)) if weights is None else np.asarray(weights, dtype=float)
    m = w * np.asarray(medians, dtype=float)
    total = float(m.sum())
    if total <= 0:
        return total, total, total
    sd = float(np.sqrt(np.sum(m**2 * _within_var(lows, highs))))  # ns, by the delta method
    half = Z95 * sd / total  # on the log scale, like every interval here
    return total, total * math.exp(-half), total * math.exp(half)


OUTLIER_RATIO = 1.2  # a round this far from the others' centre …
AGREE_RATIO = 1.1  # … while the others agree this well among themselves


def outlier_rounds(medians, lows, highs) -> list[int]:
    """The indices of the rounds that disagree with all the others beyond their spread, or []
    (docs/methodology.md, "A round that disagrees"). With R ≥ 3 rounds, a set of k rounds, k at
    most R // 4 (one for R < 8, two of eight): the other rounds' medians agree (the standard
    deviation of their logs at most that of two rounds AGREE_RATIO apart, so with three rounds:
    the other two within AGREE_RATIO of each other; with eight, six or seven rounds a few percent
    apart, not a range that grows with their number); each of the k is more than OUTLIER_RATIO
    from their geometric centre, and its own 95% interval does not reach their range. The
    smallest k that names any set names it when it is the only one; two sets, or more rounds
    than R // 4, are no outliers: no majority is clear."""
    m = np.asarray(medians, dtype=float)
    if len(m) < 3 or np.any(m <= 0):
        return []
    agree = math.log(AGREE_RATIO) / math.sqrt(2)
    for k in range(1, max(1, len(m) // 4) + 1):
        found = [
            list(out)
            for out in itertools.combinations(range(len(m)), k)
            if _outliers(m, lows, highs, out, agree)
        ]
        if found:
            return found[0] if len(found) == 1 else []
    return []


def _outliers(m: np.ndarray, lows, highs, out: tuple[int, ...], agree: float) -> bool:
    others = np.delete(m, out)
    logs = np.log(others)
    if float(np.std(logs, ddof=1)) > agree + 1e-12:
        return False
    centre = math.exp(float(np.mean(logs)))
    for i in out:
        far = m[i] > OUTLIER_RATIO * centre or m[i] * OUTLIER_RATIO < centre
        apart = lows[i] > others.max() or highs[i] < others.min()
        if not (far and apart):
            return False
    return True


@dataclass(frozen=True)
class Diff:
    ratio: float  # estimate(B) / estimate(A)
    low: float
    high: float
    p_value: float


def rounds_diff(
    a: RoundsCI,
    b: RoundsCI,
    confidence: float = CONFIDENCE,
    level: tuple[RoundsCI, RoundsCI] | None = None,
) -> Diff:
    """B against A from their round estimates: Welch's t on the logs, with the
    Welch–Satterthwaite degrees of freedom; both variances are :func:`rounds_ci`'s.

    ``level``: the machine's level in A and in B (the drift probe's round estimates). B/A is
    then divided by the probe's B/A — the part of every ratio that is the machine's — and the
    probe's two variances join the sum (and the degrees of freedom), so the interval also
    carries how well the machine's shift is known."""
    parts = [a, b, *(level or ())]
    d = math.log(b.median) - math.log(a.median)
    if level:
        d -= math.log(level[1].median) - math.log(level[0].median)
    var = sum(x.log_var for x in parts)
    if var <= 0:
        same = d == 0
        return Diff(math.exp(d), math.exp(d), math.exp(d), 1.0 if same else 0.0)
    dfs = [(x.log_var, max(1, x.rounds - 1)) for x in parts]
    df = var**2 / sum(v**2 / k for v, k in dfs if v > 0)
    t = abs(d) / math.sqrt(var)
    half = t_ppf(0.5 + confidence / 2, df) * math.sqrt(var)
    return Diff(math.exp(d), math.exp(d - half), math.exp(d + half), 2 * t_sf(t, df))


def compiled_until(compiles) -> int:
    """Index of the first batch after the last one that overlapped JIT compilation (0 when
    none did; ``None`` entries, from runtimes that do not report it, count as quiet)."""
    last = -1
    for i, n in enumerate(compiles):
        if n:
            last = i
    return last + 1


def size_inversions(points) -> dict[int, int]:
    """Sizes slower per operation than a larger size of the same case: {smaller: larger}.

    ``points`` are (size, median, low, high); a pair counts only when the intervals do not
    overlap (the smaller size's low above the larger size's high): hashing fewer bytes cannot
    cost more, so such a result is a measurement to distrust, not a finding.
    """
    out: dict[int, int] = {}
    pts = sorted(points)
    for i, (size, _, low, _) in enumerate(pts):
        for big, _, _, high in pts[i + 1 :]:
            if big > size and low > high:
                out[size] = big
                break
    return out


@dataclass(frozen=True)
class Fit:
    per_call_ns: float  # a: fixed cost of one call
    per_byte_ns: float  # b: marginal cost of one byte
    per_byte_low: float = -math.inf  # b's 95% interval (Theil–Sen's, over the pairwise slopes)
    per_byte_high: float = math.inf

    @property
    def significant(self) -> bool:
        """True when the per-byte cost is shown to be above zero (its interval excludes 0)."""
        return self.per_byte_low > 0

    @property
    def asymptotic_mb_s(self) -> float | None:
        """1/b in MB/s; None when b is not shown to be above zero (never inf or negative)."""
        return 1e3 / self.per_byte_ns if self.significant else None

    def cells(self) -> tuple[str, str, str]:
        """a, b and 1/b as a table shows them."""
        if not self.significant:
            return f"{self.per_call_ns:.0f}", "not significant", "—"
        return f"{self.per_call_ns:.0f}", f"{self.per_byte_ns:.3f}", f"{self.asymptotic_mb_s:.0f}"


def fit_overhead(sizes, median_ns) -> Fit | None:
    """Robust fit t(n) = a + b·n over a case's sizes (Theil–Sen: median of pairwise slopes).

    Robust to one disturbed size, unlike least squares. Needs two distinct sizes.
    """
    x = np.asarray(sizes, dtype=float)
    y = np.asarray(median_ns, dtype=float)
    if len(np.unique(x)) < 2:
        return None
    res = _sps().theilslopes(y, x, alpha=0.95)
    return Fit(float(res.intercept), float(res.slope), float(res.low_slope), float(res.high_slope))


def throughput_mb_s(size: int, ns_per_op: float) -> float | None:
    """Throughput in MB/s (10^6 bytes per second)."""
    if size <= 0 or ns_per_op <= 0:
        return None
    return size / ns_per_op * 1e3


def cycles_per_byte(size: int, ns_per_op: float, tsc_hz: float | None) -> float | None:
    """TSC cycles per byte (the TSC ticks at a fixed rate; the core clock may differ)."""
    if not tsc_hz or size <= 0:
        return None
    return ns_per_op * tsc_hz / 1e9 / size


def ratio_ci(a, b, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """Ratio of medians median(a)/median(b) with a distribution-free CI from the two
    median CIs (conservative: low/high and high/low)."""
    ca, cb = median_ci(a, confidence), median_ci(b, confidence)
    return ca.median / cb.median, ca.low / cb.high, ca.high / cb.low


# A quiet machine's drift probe stays within this spread over a run's rounds (max/min − 1):
# quiet sessions' runs up to 21%, the busy AMD VM's 30–61% (docs/methodology.md, "A busy
# machine"); the note under the tables and the line during a run both read it, and the same
# bound for a run's probe against the fastest earlier run's on the machine (``slower``).
BUSY_SPREAD = 0.25


def drift(probes: list[dict]) -> float | None:
    """Largest relative spread of a run's probes (max/min − 1), None with fewer than two."""
    values = [p["median_ns"] for p in probes if p.get("median_ns")]
    if len(values) < 2:
        return None
    return max(values) / min(values) - 1


def probe_level(probes: list[dict]) -> float | None:
    """A run's drift probe as one figure: the geometric mean of its rounds' medians."""
    values = [p["median_ns"] for p in probes if (p.get("median_ns") or 0) > 0]
    return float(np.exp(np.mean(np.log(values)))) if values else None


def slowed(probes: list[dict], fastest_ns: float | None) -> float | None:
    """How many times the fastest earlier run's probe level on this machine (``fastest_ns``)
    this run's probes read so far (probe_level), where that is more than 1 + BUSY_SPREAD: a
    machine slower than it has been; None otherwise, or without either."""
    level = probe_level(probes)
    if level is None or not fastest_ns or level <= (1 + BUSY_SPREAD) * fastest_ns:
        return None
    return level / fastest_ns

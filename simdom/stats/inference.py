"""The statistical primitives: interval estimates, tests and multiplicity, on numpy arrays (vectorised
over table rows); run/ and analyze/ import this module alone (it loads no reader).

Conventions: ``level`` is the confidence level (0.95); every function returns plain numpy arrays
or floats; ``df = inf`` gives the normal approximation.
"""
from __future__ import annotations

import numpy as np


class _LazyScipyStats:
    """scipy.stats, imported on first use (it takes seconds; the CLI should start fast)."""

    def __getattr__(self, name: str):
        from scipy import stats

        return getattr(stats, name)


st = _LazyScipyStats()

LEVEL = 0.95


#: from this many degrees of freedom on, the t quantile comes from its expansion around the normal one
#: (accurate to 1e-9 there), so that a command whose intervals all rest on many clusters (simdom run's
#: summary) does not import scipy (0.7 s)
T_EXPANSION_DF = 100


def _t_expansion(z: float, df: np.ndarray) -> np.ndarray:
    """The t quantile from the normal quantile z (Abramowitz & Stegun 26.7.5, four terms)."""
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    with np.errstate(divide="ignore"):
        v = 1.0 / df
    return z + v * (g1 + v * (g2 + v * (g3 + v * g4)))


def t_quantile(df, level: float = LEVEL):
    """The two-sided ``level`` quantile of Student's t with ``df`` degrees of freedom (``inf``, or a
    df that is not positive: the normal quantile)."""
    df = np.asarray(df, float)
    df = np.where(np.isfinite(df) & (df > 0), df, np.inf)
    if np.all(df >= T_EXPANSION_DF):
        from statistics import NormalDist
        return _t_expansion(NormalDist().inv_cdf(0.5 + level / 2), df)
    from scipy.special import stdtrit  # what scipy.stats.t.ppf calls, without importing scipy.stats (0.4-1 s)
    return stdtrit(df, 0.5 + level / 2)


def t_interval(est, se, df, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """est -/+ t_{df} * se."""
    q = t_quantile(df, level)
    return np.asarray(est) - q * np.asarray(se), np.asarray(est) + q * np.asarray(se)


def mean_ci(x, level: float = LEVEL) -> tuple[float, float, float]:
    """Mean of independent observations with a Student t interval: (mean, lo, hi) (scipy's one-sample t)."""
    x = np.asarray(x, float)
    ci = st.ttest_1samp(x, 0.0).confidence_interval(level)
    return float(x.mean()), float(ci.low), float(ci.high)


# Written here, not scipy's binomtest(k, n).proportion_ci("wilson"): that takes integer counts, one cell per
# call and the normal quantile; this takes effective (non-integer) n and t quantiles, vectorised (1,000 cells:
# 8 ms here, 302 ms with scipy, equal to 1e-16 where both apply).
def wilson(p, n, level: float = LEVEL, df=np.inf) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a proportion ``p`` observed on ``n`` (possibly effective) trials.

    ``n = inf`` gives the degenerate interval [p, p]; ``n = 0`` gives [0, 1]. A finite ``df`` uses the
    Student t quantile instead of the normal one (the variance was estimated from df + 1 clusters).
    """
    p, n = np.asarray(p, float), np.asarray(n, float)
    z = t_quantile(df, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(np.isinf(n), 0.0, z * z / n)
        centre = (p + a / 2) / (1 + a)
        half = np.sqrt(np.where(np.isinf(n), 0.0, p * (1 - p) / n + a / (4 * n))) * z / (1 + a)
    lo, hi = np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
    lo, hi = np.where(p <= 0, 0.0, lo), np.where(p >= 1, 1.0, hi)  # exact ends, no rounding residue
    empty = ~(n > 0)
    return np.where(empty, 0.0, lo), np.where(empty, 1.0, hi)


def clopper_pearson_none(units, level: float = LEVEL) -> np.ndarray:
    """The exact (Clopper-Pearson) upper bound of a share with no event in ``units`` independent units:
    1 - ((1 - level) / 2) ** (1 / units) (about 3.7 / units at 95%; 1 without units)."""
    units = np.asarray(units, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(units > 0, 1.0 - ((1 - level) / 2) ** (1.0 / units), 1.0)


#: A share with fewer effective events (or non-events) than this gets the exact interval on its effective
#: counts (:func:`wilson_clustered`) instead of the clustered Wilson one.
EXACT_BELOW = 5


def clopper_pearson(k, n, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """The exact (Clopper-Pearson) interval of ``k`` events in ``n`` independent trials, from the beta
    quantiles; ``k`` may be fractional (events counted in units: a unit whose rows differ counts its
    share of rows), the beta form extends it continuously and monotonically. ``n = 0`` gives [0, 1]."""
    k, n = np.broadcast_arrays(np.asarray(k, float), np.asarray(n, float))
    a = (1 - level) / 2
    lo, hi = np.zeros(k.shape), np.ones(k.shape)
    ok = n > 0
    k = np.clip(k, 0, np.where(ok, n, 0))
    lo_m, hi_m = ok & (k > 0), ok & (k < n)
    if lo_m.any():
        lo[lo_m] = st.beta.ppf(a, k[lo_m], n[lo_m] - k[lo_m] + 1)
    if hi_m.any():
        hi[hi_m] = st.beta.ppf(1 - a, k[hi_m] + 1, n[hi_m] - k[hi_m])
    none = ok & (k <= 0)  # closed forms at the ends (no rounding residue): 1 - (a)^(1/n)
    hi[none] = clopper_pearson_none(n[none], level)
    lo[ok & (k >= n)] = 1 - clopper_pearson_none(n[ok & (k >= n)], level)
    return lo, hi


def one_sided_none(units, level: float = LEVEL) -> np.ndarray:
    """The exact one-sided ``level`` upper bound of a share with no event in ``units`` independent units,
    1 - (1 - level) ** (1 / units) (the rule of three: about 3 / units at 95%); 1 - it bounds a share
    seen in every unit from below."""
    units = np.asarray(units, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(units > 0, 1.0 - (1 - level) ** (1.0 / units), 1.0)


def wilson_clustered(p, se, clusters, level: float = LEVEL, units=None) -> tuple[np.ndarray, np.ndarray]:
    """Wilson interval on the effective sample size n_eff = p(1-p)/se^2 (design-effect adjusted), with
    the t quantile on clusters - 1 degrees of freedom (as the t interval of a mean: the variance comes
    from the clusters, and few clusters make it uncertain).

    ``se`` is the cluster-robust standard error of ``p``. With ``units`` (the independent deals, or
    matches, behind the share):

    * a share of 0 (or 1) gets the exact Clopper-Pearson bound of no event (or no non-event) in
      ``units`` trials, as if every row of a unit were the same, which is what rotations of one deal can
      be (with no event the data cannot tell how alike a unit's rows are);
    * a share with few effective events, k = p * n_eff below :data:`EXACT_BELOW` (or as few
      non-events), gets the exact interval of k events in n_eff trials (the design effect counts copies
      of one event once: events repeated in the 4 identical rotations of a deal are one event in
      as many deals), its upper bound never below the zero's;
    * every bound stays on its side of the zero's (and of the one's), so bounds grow with the count: no
      event is bounded below one event.

    Without ``units``, a share of 0 or 1 gets the Wilson interval on the number of ``clusters``. A zero
    ``se`` with 0 < p < 1 (a proportion fixed by the design, e.g. the win rate of a whole arm,
    1/players) gives [p, p]; an undefined ``se`` (one cluster) gives [0, 1].
    """
    p, se, clusters = (np.asarray(v, float) for v in (p, se, clusters))
    with np.errstate(divide="ignore", invalid="ignore"):
        n_eff = np.where(se > 0, p * (1 - p) / se**2, np.where(np.isnan(se), 0.0, np.inf))
    n_eff = np.where((p <= 0) | (p >= 1) | ~np.isfinite(p), clusters, n_eff)
    lo, hi = wilson(p, n_eff, level, df=clusters - 1)
    if units is not None:
        u = np.broadcast_to(np.asarray(units, float), p.shape)
        u = np.where(np.isfinite(u) & (u > 0), u, 0.0)
        zero = clopper_pearson_none(u, level)  # the bound of no event in the units
        lo, hi = lo.copy(), hi.copy()
        fin = np.isfinite(p) & (se > 0) & np.isfinite(n_eff)
        k = np.where(fin, p, 0.0) * np.where(fin, n_eff, 0.0)
        small = fin & (np.minimum(k, np.where(fin, n_eff, 0.0) - k) < EXACT_BELOW)
        if np.any(small):
            lo[small], hi[small] = clopper_pearson(k[small], n_eff[small], level)
        ok = np.isfinite(p) & (u > 0) & ~((se == 0) & (p > 0) & (p < 1))
        hi = np.where(ok & (p > 0), np.maximum(hi, zero), hi)
        lo = np.where(ok & (p < 1), np.minimum(lo, 1 - zero), lo)
        hi, lo = np.where(ok & (p <= 0), zero, hi), np.where(ok & (p >= 1), 1 - zero, lo)
    return lo, hi


def diff_test(diff, se, df=np.inf, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Interval and two-sided p-value for a difference with standard error ``se``: (lo, hi, p).

    A difference without variance (``se`` 0 or nan: an arm against itself, a share fixed by
    construction) has no test: its p-value is nan, shown as n/a."""
    diff, se = np.asarray(diff, float), np.asarray(se, float)
    lo, hi = t_interval(diff, se, df, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 0, diff / se, np.nan)
    dfv = np.where(np.isfinite(np.asarray(df, float)), df, np.inf)
    p = 2 * st.t.sf(np.abs(t), dfv)  # nan where the difference has no variance: no test
    return lo, hi, p


def paired_diff_ci(a, b, level: float = LEVEL) -> tuple[float, float, float, float]:
    """Mean of a - b over pairs, its t interval and p-value: (diff, lo, hi, p) (scipy's paired t)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    r = st.ttest_rel(a, b)
    ci = r.confidence_interval(level)
    return float((a - b).mean()), float(ci.low), float(ci.high), float(r.pvalue)


def welch(a, b, level: float = LEVEL) -> tuple[float, float, float, float]:
    """Unpaired difference of means mean(a) - mean(b), Welch interval and p-value (scipy's Welch t)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    r = st.ttest_ind(a, b, equal_var=False)
    ci = r.confidence_interval(level)
    return float(a.mean() - b.mean()), float(ci.low), float(ci.high), float(r.pvalue)


def wald_equal(est, z) -> tuple[float, int, float]:
    """Cluster-robust Wald test that all ``k`` estimates are equal: (statistic, df, p-value).

    ``est`` holds k estimates (e.g. win shares by position), ``z`` the clusters' influences on them
    (G x k, see simdom.stats.estimate.moments.influence). The k - 1 contrasts est_j - est_last carry the whole
    hypothesis (win shares sum to 1, so their covariance is singular; the contrasts' is not). The
    statistic W = c' V^-1 c is chi-square with df = k - 1 for many clusters; the p-value uses Hotelling's
    F form, F = W / df * (G - df) / (G - 1) on (df, G - df) degrees of freedom, which holds its level
    better with few clusters. Undefined (nan) when the contrasts have no variance.
    """
    est, z = np.asarray(est, float), np.asarray(z, float)
    k, G = est.shape[0], z.shape[0]
    if k < 2 or G < k + 1 or not np.all(np.isfinite(est)):
        return float("nan"), max(k - 1, 0), float("nan")
    c = est[:-1] - est[-1]
    zc = z[:, :-1] - z[:, [-1]]
    zc = zc - zc.mean(axis=0)
    V = G / (G - 1) * zc.T @ zc
    q = int(np.linalg.matrix_rank(V))
    if q == 0:
        return float("nan"), k - 1, float("nan")
    W = float(c @ np.linalg.pinv(V) @ c)
    F = W / q * (G - q) / (G - 1)
    return W, q, float(st.f.sf(F, q, G - q))


# Written here: scipy has no Holm (stats.false_discovery_control is Benjamini-Hochberg/Yekutieli only) and
# statsmodels' multipletests, which has it, is not a dependency.
def holm(p) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (nan entries are left out and stay nan)."""
    p = np.asarray(p, float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    if ok.size == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out[order] = adj
    return out

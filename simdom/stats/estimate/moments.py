"""Cluster moments: the one aggregation every estimate is built from.

Deals are the independent units of a run: the rows of one deal (its seats, its rotations and its
arms, which replay the same shuffle) are correlated, different deals are independent. We therefore
treat *blocks of consecutive deal numbers* as clusters. For each group and each quantity ``q``
(a per-row expression) we collect, over the clusters ``d`` of the group::

    G        number of clusters
    S_q      sum_d q_d              (q_d = sum of q over the cluster's rows)
    C_q__r   sum_d q_d * r_d        (only for the pairs asked for)

From these, any smooth function of the totals (a mean is ``S_points / S_rows``, a paired
difference is a difference of two such ratios, ...) gets a linearisation ("delta method")
variance that is robust to any dependence inside a cluster: rotations of a deal, seats competing
in a deal, and arms sharing deals (which is what makes the arm comparisons *paired*).

Grouping deals into blocks of n // 4096 deals (4,096 to 8,191 blocks, or one deal a block below 8,192) keeps the hash tables small: ``simdom stats`` over
40 million rows is one streaming pass with a few thousand groups. Blocks of independent deals are
still independent, so the variance stays valid; with ~4000 clusters its own relative error is ~1%.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import polars as pl

ROWS = "_rows"


def _cname(a: str, b: str) -> str:
    a, b = sorted((a, b))
    return f"C_{a}__{b}"


def ratio_pairs(y: str, x: str) -> list[tuple[str, str]]:
    """The cross moments a ratio ``y / x`` needs."""
    return [(y, y), (x, x), (x, y)]


def cluster_moments(lf: pl.LazyFrame, keys: Sequence[str], quantities: Mapping[str, pl.Expr],
                    pairs: Iterable[tuple[str, str]], block: int, *, count_deals: bool = False,
                    engine: str = "streaming") -> pl.DataFrame:
    """Aggregate ``lf`` to one row per group: keys, G, S_<q> and C_<a>__<b> (see module doc).

    ``quantities`` maps names to per-row expressions; a row count ``_rows`` is always added.
    With ``count_deals`` a column ``deals`` (distinct deal numbers in the group) is added.
    """
    keys = list(keys)
    quantities = {ROWS: pl.len(), **quantities}
    first = [(expr if name == ROWS else expr.sum()).cast(pl.Float64).alias(name) for name, expr in quantities.items()]
    stage1 = lf.group_by(*keys, (pl.col("deal") // block).alias("_blk")).agg(first)
    seen: set[str] = set()
    second = [pl.len().alias("G")]
    second += [pl.col(n).sum().alias(f"S_{n}") for n in quantities]
    for a, b in pairs:
        name = _cname(a, b)
        if name not in seen:
            seen.add(name)
            second.append((pl.col(a) * pl.col(b)).sum().alias(name))
    stage2 = stage1.group_by(*keys).agg(second) if keys else stage1.select(second)
    out = stage2.collect(engine=engine)
    if count_deals:
        deals = distinct_deals(lf, keys, engine)
        out = out.join(deals, on=keys, how="left", nulls_equal=True) if keys else out.with_columns(deals)
    return out.sort(keys, nulls_last=True) if keys else out


def distinct_deals(lf: pl.LazyFrame, keys: Sequence[str], engine: str = "streaming") -> pl.DataFrame:
    """Distinct deal numbers per group, exactly and in bounded memory: deals are taken 64 at a time,
    each group's presence in a 64-deal word is a bitmask (OR of 2^(deal % 64)), and the set bits are
    counted. (polars' n_unique per group is not streamed: 3 GB for 10 million deals.)"""
    d = pl.col("deal")
    bit = pl.lit(2, pl.UInt64).pow((d % 64).cast(pl.UInt32))
    words = lf.select(*keys, "deal").group_by(*keys, (d // 64).alias("_w")).agg(bit.bitwise_or().alias("_m"))
    count = pl.col("_m").bitwise_count_ones().cast(pl.Int64).sum().alias("deals")
    return (words.group_by(*keys).agg(count) if keys else words.select(count)).collect(engine=engine)


class Moments:
    """Estimates (point and standard error) from a :func:`cluster_moments` table, vectorised over rows."""

    def __init__(self, df: pl.DataFrame):
        self.df = df
        self.G = df["G"].to_numpy().astype(float)

    def S(self, q: str) -> np.ndarray:
        return self.df[f"S_{q}"].to_numpy().astype(float)

    def cov(self, a: str, b: str) -> np.ndarray:
        """Estimated covariance of the totals S_a and S_b (cluster-robust, G/(G-1) corrected)."""
        G = self.G
        c = self.df[_cname(a, b)].to_numpy().astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = G / (G - 1) * (c - self.S(a) * self.S(b) / G)
        return np.where(G > 1, v, np.nan)

    def var(self, grads: Mapping[str, np.ndarray]) -> np.ndarray:
        """Delta-method variance of f(S) given the gradient of f with respect to each total."""
        names = list(grads)
        total = np.zeros(len(self.df))
        for i, a in enumerate(names):
            for b in names[i:]:
                term = grads[a] * grads[b] * self.cov(a, b)
                total = total + (term if a == b else 2 * term)
        return np.maximum(total, 0.0)

    def ratio(self, y: str, x: str = ROWS) -> tuple[np.ndarray, np.ndarray]:
        """Estimate and standard error of S_y / S_x (a mean when x counts rows)."""
        sy, sx = self.S(y), self.S(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = sy / sx
            se = np.sqrt(self.var({y: 1 / sx, x: -r / sx}))
        return r, se

    def ratio_diff(self, y1: str, x1: str, y0: str, x0: str) -> tuple[np.ndarray, np.ndarray]:
        """Estimate and standard error of S_y1/S_x1 - S_y0/S_x0, covariance included (paired)."""
        r1, r0 = self.S(y1) / self.S(x1), self.S(y0) / self.S(x0)
        g = {y1: 1 / self.S(x1), x1: -r1 / self.S(x1), y0: -1 / self.S(x0), x0: r0 / self.S(x0)}
        return r1 - r0, np.sqrt(self.var(g))

    def sd(self, y: str, y2: str, x: str = ROWS) -> tuple[np.ndarray, np.ndarray]:
        """Row standard deviation sqrt(S_y2/S_x - (S_y/S_x)^2) and its standard error."""
        sx, m, m2 = self.S(x), self.S(y) / self.S(x), self.S(y2) / self.S(x)
        s = np.sqrt(np.maximum(m2 - m * m, 0.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            g = {y2: 1 / (2 * s * sx), y: -m / (s * sx), x: (2 * m * m - m2) / (2 * s * sx)}
            return s, np.sqrt(self.var(g))


def cluster_sums(lf: pl.LazyFrame, keys: Sequence[str], quantities: Mapping[str, pl.Expr], block: int,
                 engine: str = "streaming") -> pl.DataFrame:
    """Per-cluster sums (one row per group and block ``_blk``): the input of paired analyses."""
    aggs = [pl.len().cast(pl.Float64).alias(ROWS)]
    aggs += [expr.cast(pl.Float64).sum().alias(name) for name, expr in quantities.items()]
    return lf.group_by(*keys, (pl.col("deal") // block).alias("_blk")).agg(aggs).collect(engine=engine)


def wide(sums: pl.DataFrame, key: str, value: str, levels: Sequence) -> np.ndarray:
    """Cluster sums as a (clusters, levels) matrix: column j holds ``value`` for ``key == levels[j]``."""
    blks = np.unique(sums["_blk"].to_numpy())
    pos = {b: i for i, b in enumerate(blks)}
    out = np.zeros((len(blks), len(levels)))
    col = {lv: j for j, lv in enumerate(levels)}
    for k, b, v in zip(sums[key].to_list(), sums["_blk"].to_list(), sums[value].to_list()):
        if k in col:
            out[pos[b], col[k]] += v
    return out


def influence(y: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ratio sum(y)/sum(n) per column and each cluster's linearised influence on it.

    The variance of a linear combination of ratios is ``G/(G-1) * sum_d (combination of influences)^2``:
    a paired difference uses ``z_a - z_b`` (covariance included), an unpaired one ``var_a + var_b``.
    """
    tot_y, tot_n = y.sum(axis=0), n.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = tot_y / tot_n
        z = (y - r * n) / tot_n
    return r, z


def se_of(z: np.ndarray) -> np.ndarray:
    """Standard error from cluster influences (one column per estimate)."""
    G = z.shape[0]
    if G < 2:  # one cluster: no variance can be estimated
        return np.full(z.shape[1:], np.nan)
    zc = z - z.mean(axis=0)
    return np.sqrt(G / (G - 1) * (zc**2).sum(axis=0))


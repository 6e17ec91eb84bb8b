"""Cluster matrices for match-level inference: per-cluster sums laid out as (clusters x levels) arrays.

The cluster is a block of consecutive match ids (``match // ResultFrames.match_block``): every arm,
rotation, seat and deal of a match falls in one cluster, so estimates that combine levels (a paired
difference of two arms, a match-level edge against a deal-level edge measured on the same matches)
get their covariance from the cluster sums (:func:`simdom.stats.estimate.moments.influence`).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from simdom.stats.inference import diff_test, t_interval, wilson_clustered
from simdom.stats.estimate.moments import influence, se_of

BLK = "_blk"
#: a row count as a summable quantity (a literal would be summed once per group, not once per row)
ONE = pl.col(BLK).is_not_null()


def with_cluster(lf: pl.LazyFrame, block: int) -> pl.LazyFrame:
    """Add the cluster id ``_blk`` = match // block."""
    return lf.with_columns((pl.col("match") // block).alias(BLK))


def sums(lf: pl.LazyFrame, keys: Sequence[str], quantities: Mapping[str, pl.Expr]) -> pl.DataFrame:
    """Per group and cluster: the sum of each quantity (one streaming pass)."""
    aggs = [e.cast(pl.Float64).sum().alias(n) for n, e in quantities.items()]
    return lf.group_by(*keys, BLK).agg(aggs).collect(engine="streaming")


@dataclass
class Matrix:
    """Sums laid out as ``{name: float64[clusters, levels]}``; ``levels`` are tuples of the key values."""

    levels: list[tuple]
    data: dict[str, np.ndarray]

    @classmethod
    def of(cls, frames: Sequence[pl.DataFrame], keys: Sequence[str]) -> "Matrix":
        """Join the cluster sums of several frames (each: keys, _blk and quantity columns)."""
        keys = list(keys)
        blks = np.unique(np.concatenate([f[BLK].to_numpy() for f in frames]))
        levels = sorted({tuple(r) for f in frames for r in f.select(keys).iter_rows()}, key=str)
        col = {lv: j for j, lv in enumerate(levels)}
        data: dict[str, np.ndarray] = {}
        for f in frames:
            rows = np.searchsorted(blks, f[BLK].to_numpy())
            cols = np.array([col[tuple(r)] for r in f.select(keys).iter_rows()], dtype=np.int64)
            for name in f.columns:
                if name in keys or name == BLK:
                    continue
                m = np.zeros((len(blks), len(levels)))
                np.add.at(m, (rows, cols), f[name].to_numpy().astype(float))
                data[name] = m
        return cls(levels, data)

    @property
    def G(self) -> int:
        return next(iter(self.data.values())).shape[0]

    def pick(self, name: str, where) -> np.ndarray:
        """The cluster sums of ``name`` over the levels where ``where(level)`` holds: float64[clusters]."""
        idx = [j for j, lv in enumerate(self.levels) if where(lv)]
        return self.data[name][:, idx].sum(axis=1)


@dataclass
class Est:
    """An estimate with its cluster influences (for combining) and standard error."""

    value: float
    z: np.ndarray

    @property
    def se(self) -> float:
        return float(se_of(self.z[:, None])[0])

    def __sub__(self, other: "Est") -> "Est":
        return Est(self.value - other.value, self.z - other.z)

    def shift(self, c: float) -> "Est":
        return Est(self.value - c, self.z)


def ratio(y: np.ndarray, n: np.ndarray) -> Est:
    """sum(y) / sum(n) over clusters, with each cluster's linearised influence."""
    r, z = influence(y[:, None], n[:, None])
    return Est(float(r[0]), np.nan_to_num(z[:, 0]))


def share_cols(name: str, e: Est, n_rows: float) -> dict[str, float]:
    """A share with its clustered Wilson interval: name, name_lo, name_hi."""
    lo, hi = wilson_clustered(e.value, e.se, n_rows)
    return {name: e.value, f"{name}_lo": float(lo), f"{name}_hi": float(hi)}


def mean_cols(name: str, e: Est, G: int) -> dict[str, float]:
    """A mean or difference with its t interval (G - 1 degrees of freedom)."""
    lo, hi = t_interval(e.value, e.se, G - 1)
    return {name: e.value, f"{name}_lo": float(lo), f"{name}_hi": float(hi)}


def diff_cols(name: str, e: Est, G: int) -> dict[str, float]:
    """A difference with its t interval and two-sided p-value: name, name_lo, name_hi, name_p."""
    lo, hi, p = diff_test(e.value, e.se, G - 1)
    return {name: e.value, f"{name}_lo": float(lo), f"{name}_hi": float(hi), f"{name}_p": float(p)}

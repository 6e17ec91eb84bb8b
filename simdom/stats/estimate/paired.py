"""The library's paired difference (``simdom.paired_difference``, issue 58.6): two measurements of the same
units (the same deals played under two rule variants, or two policies' points in the same deals), their
means and the mean difference, each with a 95% interval clustered by the units' clusters (deals, or blocks
of deals), by the estimator every paired comparison of simdom uses (the cluster influences of
:func:`simdom.stats.estimate.moments.influence`, subtracted cluster by cluster; a t interval on G - 1
degrees of freedom, as ``simdom compare`` and ``simdom balance``)."""
from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simdom.stats.estimate.moments import influence, se_of
from simdom.stats.inference import LEVEL, diff_test, t_interval


def _values(x: Any, name: str) -> np.ndarray:
    try:
        v = np.asarray(x.to_numpy() if hasattr(x, "to_numpy") else x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} holds values that are not numbers; allowed: a sequence, numpy array or polars "
                         "Series of numbers") from None
    if v.ndim != 1 or not len(v):
        raise ValueError(f"{name} has shape {v.shape}; allowed: a non-empty one-dimensional sequence of numbers")
    bad = np.flatnonzero(~np.isfinite(v))
    if len(bad):
        raise ValueError(f"{name}[{bad[0]}] is {v[bad[0]]}; allowed: finite numbers (drop or fill the missing rows "
                         "of both sides first)")
    return v


def paired_difference(a: Any, b: Any, cluster: Any = None, level: float = LEVEL) -> pl.DataFrame:
    """Mean of ``a``, mean of ``b`` and the mean difference ``a - b`` of paired measurements (row i of ``a``
    and row i of ``b`` measure the same unit), each with its ``level`` interval, clustered by ``cluster``.

    ``a``, ``b``: sequences, numpy arrays or polars Series of numbers, of one length. ``cluster``: each row's
    cluster, of the same length (e.g. the deal, when a deal is played in several rotations and its rows
    are not independent); None: each row its own cluster. One row: ``mean_a``, ``mean_a_low``,
    ``mean_a_high``, ``mean_b`` (and its bounds), ``diff``, ``diff_low``, ``diff_high``, ``se``, ``p`` (two-sided,
    t on clusters - 1 degrees of freedom), ``rows`` and ``clusters``.

    >>> import simdom
    >>> d = simdom.paired_difference([3, 5, 4, 6], [1, 2, 2, 4], cluster=[0, 0, 1, 1])
    >>> d.select("diff", "clusters").row(0)
    (2.25, 2)
    >>> simdom.paired_difference([1, 2], [1])
    Traceback (most recent call last):
    ...
    ValueError: a has 2 rows but b has 1; allowed: paired measurements, one row of each per unit
    """
    va, vb = _values(a, "a"), _values(b, "b")
    if len(va) != len(vb):
        raise ValueError(f"a has {len(va)} rows but b has {len(vb)}; allowed: paired measurements, one row of "
                         "each per unit")
    if not 0 < level < 1:
        raise ValueError(f"level = {level!r}; allowed: a number between 0 and 1 (0.95: a 95% interval)")
    if cluster is None:
        ids = np.arange(len(va))
    else:
        c = cluster.to_numpy() if hasattr(cluster, "to_numpy") else np.asarray(cluster)
        if c.shape != va.shape:
            raise ValueError(f"cluster has {len(c)} rows but a and b have {len(va)}; allowed: one cluster per row, "
                             "or None (each row its own)")
        ids = np.unique(c, return_inverse=True)[1].ravel()
    G = int(ids.max()) + 1
    y = np.zeros((G, 2))
    np.add.at(y, (ids, 0), va)
    np.add.at(y, (ids, 1), vb)
    n = np.bincount(ids, minlength=G).astype(float)[:, None] * np.ones((1, 2))
    r, z = influence(y, n)
    lo, hi = t_interval(r, se_of(z), G - 1, level)
    se = se_of(z[:, [0]] - z[:, [1]])
    d = r[:1] - r[1:]
    dlo, dhi, p = diff_test(d, se, G - 1, level)
    return pl.DataFrame({"mean_a": r[0], "mean_a_low": lo[0], "mean_a_high": hi[0], "mean_b": r[1],
                         "mean_b_low": lo[1], "mean_b_high": hi[1], "diff": d[0], "diff_low": dlo[0],
                         "diff_high": dhi[0], "se": se[0], "p": p[0], "rows": len(va), "clusters": G},
                        schema_overrides={"rows": pl.Int64, "clusters": pl.Int64})

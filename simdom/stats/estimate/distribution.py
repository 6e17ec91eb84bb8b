"""Shares of the values of a column (a histogram), each with a 95% interval clustered by deal.

The share of value ``v`` in a group is ``sum_d y_dv / sum_d n_d`` over the clusters ``d`` (blocks of
deal numbers), ``y_dv`` counting the cluster's rows with value ``v`` and ``n_d`` all its rows; its
variance is ``G/(G-1) * sum_d (y_dv - r n_d)^2 / (sum_d n_d)^2``, robust to any dependence inside a
deal (rotations replaying one shuffle, seats of one deal). Clusters with no row of value ``v`` count,
with ``y_dv = 0``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from simdom.stats.inference import wilson_clustered
from simdom.stats.read.folder import ResultFrames


def value_shares(lf: pl.LazyFrame, keys: Sequence[str], value: str, block: int, step: int | None = None,
                 engine: str = "streaming", common_span: bool = False) -> pl.DataFrame:
    """One row per group and value: ``rows`` (with that value), ``share`` of the group's rows and its
    clustered Wilson interval ``share_lo``/``share_hi``. Null values are a value of their own.

    With ``step`` (an integer value column), every value from a group's smallest to its largest in steps
    of ``step`` gets a row, those never seen with share 0 and the interval [0, upper bound] (the exact
    bound of no event in the group's distinct deals, simdom.stats.inference.wilson_clustered; a share
    with few events gets the exact interval on its effective counts, never above the zero's bound, so
    bounds grow with the count): a bin's
    interval then covers its true share whether or not the bin was seen. ``common_span``: every group
    gets the values from the smallest to the largest seen in any group (tables that set groups side by
    side then have no empty cells)."""
    keys = list(keys)
    cl = lf.group_by(*keys, (pl.col("deal") // block).alias("_blk"), value).agg(y=pl.len().cast(pl.Float64)) \
        .collect(engine=engine)
    tot = cl.group_by(*keys, "_blk").agg(n=pl.col("y").sum())
    grp = tot.group_by(*keys).agg(G=pl.len(), S_n=pl.col("n").sum(), C_nn=(pl.col("n") ** 2).sum()) if keys else \
        tot.select(G=pl.len(), S_n=pl.col("n").sum(), C_nn=(pl.col("n") ** 2).sum())
    joined = cl.join(tot, on=[*keys, "_blk"])
    per = joined.group_by(*keys, value).agg(S_y=pl.col("y").sum(), C_yy=(pl.col("y") ** 2).sum(),
                                            C_yn=(pl.col("y") * pl.col("n")).sum())
    if step is not None and keys:
        seen = per.filter(pl.col(value).is_not_null())
        span = seen.group_by(*keys).agg(_a=pl.col(value).min(), _b=pl.col(value).max())
        if common_span:
            span = span.with_columns(_a=pl.col("_a").min(), _b=pl.col("_b").max())
        grid = span.select(*keys, pl.int_ranges("_a", pl.col("_b") + 1, step).alias(value)).explode(value)
        grid = grid.with_columns(pl.col(value).cast(per.schema[value]))
        per = grid.join(per, on=[*keys, value], how="left").with_columns(
            pl.col("S_y", "C_yy", "C_yn").fill_null(0.0))
    df = per.join(grp, on=keys) if keys else per.join(grp, how="cross")
    df = df.sort([*keys, value], nulls_last=True)
    G, S_y, S_n = (df[c].to_numpy().astype(float) for c in ("G", "S_y", "S_n"))
    r = S_y / S_n
    # sum_d (y_d - r n_d)^2 over every cluster of the group (those without the value have y_d = 0)
    ss = df["C_yy"].to_numpy() - 2 * r * df["C_yn"].to_numpy() + r * r * df["C_nn"].to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(np.maximum(np.where(G > 1, G / (G - 1) * ss, np.nan), 0)) / S_n
    # a share with no event is bounded on the group's distinct deals, and no bound falls below it
    from simdom.stats.estimate.moments import distinct_deals
    deals = distinct_deals(lf, keys, engine)
    units = (df.select(keys).join(deals, on=keys, how="left", nulls_equal=True, maintain_order="left")["deals"]
             if keys else deals["deals"]).fill_null(0).to_numpy().astype(float)
    lo, hi = wilson_clustered(r, se, G, units=units)
    return df.select(*keys, value).with_columns(rows=pl.Series(S_y.astype(np.int64)), share=pl.Series(r),
                                                share_lo=pl.Series(lo), share_hi=pl.Series(hi))


def points_distribution(res: ResultFrames, keys: Sequence[str] = ("arm", "policy")) -> pl.DataFrame:
    """The share of player-deals with each points total, per arm and policy (never pooled over games
    or policies), with clustered 95% intervals."""
    return value_shares(res.deals, keys, "points", res.block, step=1)


WIDTHS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30)


def _turns(v: np.ndarray, s: np.ndarray, w: int, top: float) -> int:
    """Changes of direction of the binned shares up to ``top``: 0 or 1 for a smooth hump."""
    b = (v // w) * w
    keep = b <= top
    sums = np.bincount((b[keep] // w).astype(np.int64), weights=s[keep])
    d = np.sign(np.diff(sums))
    d = d[d != 0]
    return int((d[1:] != d[:-1]).sum())


def points_lattice(rules: dict) -> tuple[int, int]:
    """(step, lattice) of an arm's points per deal, from its rules (docs/rules.md 4 and 7): every total is
    a multiple of ``lattice``; the placements score in multiples of ``step`` (a multiple of ``lattice``),
    which is where most of the mass lies. Threes (fixed:6, first-double bonuses 2, 4, 8): (6, 2); Fives
    (sum of ends by 5; bonuses rounded to 5 then divided by 5): (5, 1)."""
    pts = str(rules.get("points", "sum"))
    mode, _, n = pts.partition(":")
    if mode == "fixed":
        step = int(n)
    elif mode == "sum":
        step = math.gcd(*[int(d) for d in rules.get("divisors") or [1]])
    else:  # quotient: the sum of S / d, any integer
        step = 1
    q, d = int(rules.get("bonus_round_to", 1)), int(rules.get("bonus_divisor", 1))
    bonus_step = q // d if q % d == 0 else 1  # floor(q m / d): multiples of q / d when d divides q
    bonuses = [int(b) for _, b in rules.get("first_double_bonus") or [] if int(b)]
    out = str(rules.get("out_bonus", "none"))
    if out.startswith("fixed:"):
        bonuses.append(int(out.partition(":")[2]))
    elif out != "none":
        bonuses.append(bonus_step)
    if str(rules.get("block_bonus", "none")) != "none":
        bonuses.append(bonus_step)
    step = max(abs(step), 1)
    return step, math.gcd(step, *bonuses)


def seen_lattice(dist: pl.DataFrame, lattice: tuple[int, int]) -> tuple[int, int]:
    """An arm's :func:`points_lattice` as its totals keep it (those of ``dist``, one arm of
    :func:`points_distribution`): a lattice the totals seen do not keep gives way to theirs."""
    step, grain = lattice
    seen = dist.filter(pl.col("rows") > 0)["points"].to_list()
    grain = math.gcd(grain, *[abs(int(v)) for v in seen]) or 1
    return (step if step % grain == 0 else grain), grain


def bin_widths(dist: pl.DataFrame, min_bins: int = 5, lattice: dict[str, tuple[int, int]] | None = None
               ) -> dict[str, int]:
    """A display bin width per arm of :func:`points_distribution`: the smallest width that keeps at least
    ``min_bins`` bins over 99.5% of the player-deals and turns the lattice of possible totals (multiples of 5
    in Fives, 6k plus a bonus in Threes) into a readable curve (at most 2 changes of direction per policy).

    The width follows the game's points lattice (``lattice``: arm -> :func:`points_lattice`, checked
    against the totals seen): a multiple of the placements' step (5 in Fives, 6 in Threes), else the
    lattice's own step, so that every bin, starting at a multiple of its width, holds as many possible
    totals as the next (bins of 5 in Threes would hold 0, 2, 4 and then 6, 8: a sawtooth of the binning)."""
    out = {}
    for (arm,), d in dist.group_by("arm", maintain_order=True):
        per = [(g["points"].to_numpy(), g["share"].to_numpy()) for _, g in d.group_by("policy")]
        top = max(v[min(np.searchsorted(np.cumsum(s) / s.sum(), 0.995), len(v) - 1)] for v, s in per)
        step, grain = seen_lattice(d, (lattice or {}).get(arm, (1, 1)))
        widths = list(dict.fromkeys([step * w for w in WIDTHS] + ([grain] if grain != step else [])))
        ok = [w for w in widths if top // w + 1 >= min_bins] or [grain]
        score = {w: max(_turns(v, s, w, top) for v, s in per) for w in ok}
        out[arm] = next((w for w in ok if score[w] <= 2), min(ok, key=lambda w: (score[w], w)))
    return out


def binned_distribution(res: ResultFrames, widths: dict[str, int]) -> pl.DataFrame:
    """Shares of binned points totals (``bin`` = the bin's first total, ``width`` per arm) per arm and
    policy, with clustered intervals: what the report plots."""
    w = pl.col("arm").replace_strict(widths, return_dtype=pl.Int64)
    lf = res.deals.filter(pl.col("arm").is_in(list(widths))).with_columns(bin=(pl.col("points") // w) * w)
    out = [value_shares(lf.filter(pl.col("arm") == a), ["arm", "policy"], "bin", res.block, step=wd)
           for a, wd in widths.items()]
    return pl.concat(out)


def quantiles(dist: pl.DataFrame, keys: Sequence[str], probs=(0.1, 0.25, 0.5, 0.75, 0.9)) -> pl.DataFrame:
    """Quantiles of points per group from :func:`points_distribution` (p10, p25, median, ...)."""
    rows = []
    for grp, d in dist.group_by(list(keys), maintain_order=True):
        v, s = d["points"].to_numpy(), d["share"].to_numpy()
        cum = np.cumsum(s) / s.sum()
        rows.append({**dict(zip(keys, grp)), **{f"p{int(100 * q)}": int(v[np.searchsorted(cum, q - 1e-12)])
                                                for q in probs}, "share_zero": float(s[v == 0].sum())})
    return pl.DataFrame(rows)

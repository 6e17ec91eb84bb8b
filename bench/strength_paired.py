"""Player 0's paired difference between two arms of a results folder, the figures of docs/policies.md
("How strong is search").

    .venv/bin/python bench/strength_paired.py results/strength-threes-2p search rollout128
    .venv/bin/python bench/strength_paired.py results/strength-threes-2p search-vs-rollout128

Player 0's points and win share (simdom.open_results(...).players()) are averaged over each deal's
rotations in each arm; the deal is the cluster: the difference A - B per deal, its mean and a Student
t 95% interval over the deals both arms played. Prints one line per measure.

With one arm (a head-to-head arm of two players, its rotations both seatings): player 0's margin over
player 1 and player 0's win share, each averaged over the deal's seatings, then the same interval.
"""
from __future__ import annotations

import sys

import numpy as np
import polars as pl
from scipy import stats

import simdom


def main(folder: str, a: str, b: str) -> None:
    p = simdom.open_results(folder).players().filter(pl.col("player") == 0).collect()
    g = p.group_by("arm", "deal").agg(pl.col("points").mean(), pl.col("win").cast(pl.Float64).mean())
    w = g.pivot(on="arm", index="deal", values=["points", "win"]).drop_nulls()
    for m, scale, unit in (("points", 1, "points"), ("win", 100, "pp of wins")):
        d = (w[f"{m}_{a}"] - w[f"{m}_{b}"]).to_numpy()
        n = len(d)
        se = d.std(ddof=1) / np.sqrt(n)
        t = stats.t.ppf(0.975, n - 1)
        p_ = 2 * stats.t.sf(abs(d.mean() / se), n - 1)
        print(f"{a} - {b}: {scale * d.mean():+.2f} {unit} (95% CI {scale * (d.mean() - t * se):+.2f} to "
              f"{scale * (d.mean() + t * se):+.2f}), p = {p_:.2g}, {n} deals")


def head_to_head(folder: str, arm: str) -> None:
    p = simdom.open_results(folder).players().filter(pl.col("arm") == arm).collect()
    g = p.group_by("deal", "player").agg(pl.col("points").mean(), pl.col("win").cast(pl.Float64).mean())
    w = g.pivot(on="player", index="deal", values=["points", "win"]).drop_nulls()
    for name, d, scale, unit, sign in (("margin", (w["points_0"] - w["points_1"]).to_numpy(), 1, " points", "+"),
                                       ("win share", w["win_0"].to_numpy(), 100, "%", "")):
        n = len(d)
        se = d.std(ddof=1) / np.sqrt(n)
        t = stats.t.ppf(0.975, n - 1)
        print(f"{arm}, player 0's {name}: {scale * d.mean():{sign}.2f}{unit} (95% CI "
              f"{scale * (d.mean() - t * se):{sign}.2f} to {scale * (d.mean() + t * se):{sign}.2f}), {n} deals")


if __name__ == "__main__":
    if len(sys.argv) == 3:
        head_to_head(*sys.argv[1:])
    elif len(sys.argv) == 4:
        main(*sys.argv[1:])
    else:
        sys.exit("usage: strength_paired.py FOLDER ARM_A ARM_B, or strength_paired.py FOLDER HEAD_TO_HEAD_ARM")

"""`simdom seats`: win rate and mean points by absolute seat and by turn order, and tests of equality.

Per arm, two ways to name a position: ``seat`` (the absolute seat 0..n-1) and ``turn`` (0 = the deal's
leader, 1 = the next to act, ...). Each position's win rate and mean points get a 95% interval
clustered by deal (the rotations and arms of one deal are one cluster: with the same policy in every
seat, rotations replay identical games, so seat-rows are far from independent). A cluster-robust
Wald test (:func:`simdom.stats.inference.wald_equal`) asks whether all positions have the same win
share; the tests of several arms form a family and get Holm-adjusted p-values.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from simdom.results.seating import balanced

from simdom.stats.inference import holm, t_interval, wald_equal, wilson_clustered
from simdom.stats.read.folder import ResultFrames
from simdom.stats.estimate.moments import ROWS, cluster_sums, influence, se_of, wide

BYS = ("turn", "seat")


def position_tables(res: ResultFrames, bys=BYS) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(positions, tests): one row per (arm, by, position) and one test per (arm, by)."""
    P = res.players
    q = {"win": pl.col("win"), "points": pl.col("points"), "first": pl.col("rotation") == 0}
    positions, tests = [], []
    for by in bys:
        sums = cluster_sums(res.deals, ["arm", by], q, res.block)
        for arm in res.arm_names:
            s = sums.filter(pl.col("arm") == arm)
            if s.is_empty():
                continue
            n = wide(s, by, ROWS, list(range(P)))
            G = n.shape[0]
            rw, zw = influence(wide(s, by, "win", list(range(P))), n)
            rp, zp = influence(wide(s, by, "points", list(range(P))), n)
            deals = wide(s, by, "first", list(range(P))).sum(axis=0)
            wlo, whi = wilson_clustered(rw, se_of(zw), G, units=deals)
            plo, phi = t_interval(rp, se_of(zp), G - 1)
            for j in range(P):
                positions.append({"arm": arm, "by": by, "position": j, "deals": int(deals[j]),
                                  "win_rate": float(rw[j]), "win_rate_lo": float(wlo[j]),
                                  "win_rate_hi": float(whi[j]), "mean_points": float(rp[j]),
                                  "mean_points_lo": float(plo[j]), "mean_points_hi": float(phi[j])})
            stat, df, p = wald_equal(rw, zw)
            tests.append({"arm": arm, "by": by, "statistic": stat, "df": df, "p_value": p, "clusters": G})
    tests_df = pl.DataFrame(tests, schema={"arm": pl.String, "by": pl.String, "statistic": pl.Float64,
                                           "df": pl.Int64, "p_value": pl.Float64, "clusters": pl.Int64})
    holm_p = np.concatenate([holm(tests_df.filter(pl.col("by") == b)["p_value"].to_numpy()) for b in bys]) \
        if tests else np.array([])
    order = pl.concat([tests_df.filter(pl.col("by") == b) for b in bys]) if tests else tests_df
    return pl.DataFrame(positions), order.with_columns(p_holm=pl.Series(holm_p, dtype=pl.Float64))


def seats_json(positions: pl.DataFrame, tests: pl.DataFrame) -> dict:
    """The machine form: ``{"positions": [...], "tests": [{arm, by, statistic, df, p_value}, ...]}``."""
    return {"positions": positions.to_dicts(),
            "tests": tests.select("arm", "by", "statistic", "df", "p_value").to_dicts()}


def seats_equal_by_construction(res: ResultFrames) -> bool:
    """Seats are exchangeable when every seat holds every policy equally often (rotation on, every
    arrangement, or one policy everywhere); the leader is drawn by lot or by the cards, so no seat is
    favoured by the rules."""
    seating = res.manifest.seat_players()
    return all(balanced(seating, a["policies"]) for a in res.arms)

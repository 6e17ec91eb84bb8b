"""`simdom compare A B`: two results folders side by side (Threes against Fives, or any two).

Both folders are read as one frame with a ``side`` column and clustered by blocks of deal numbers,
so when the two runs share deals (same seed and deal numbers) the comparison is paired, and when
they do not the cross-covariance is ~0 and it reduces to an unpaired (Welch-type) comparison.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from simdom.stats.estimators import chi2_equal, diff_test, t_interval, wilson_clustered
from simdom.stats.io import Results
from simdom.stats.moments import ROWS, cluster_sums, influence, se_of, wide

SIDES = ("A", "B")
#: metric -> (description, kind): kind "share" gets a Wilson interval, "mean" a t interval
METRICS = {
    "scoring_rate": ("share of placements that score", "share"),
    "points_per_placement": ("placement points per tile placed", "mean"),
    "mean_points": ("points per player per deal", "mean"),
    "points_sd": ("spread: standard deviation of a player's deal points", "mean"),
    "seat_advantage": ("leader's win rate minus 1/players (first-player advantage)", "mean"),
    "blocked_share": ("share of deals that end blocked", "share"),
    "tiles_placed": ("deal length: tiles on the layout at the end", "mean"),
    "skill_gap": ("win rate of the stronger policy minus that of random, in arms where both play", "mean"),
}


def _skill_policy(res: Results, strong: str | None) -> str | None:
    """The policy whose edge over random is measured: ``strong`` or greedy, if it plays random somewhere."""
    cands = {p for a in res.arms if "random" in a["policies"] for p in a["policies"] if p != "random"}
    want = strong or "greedy"
    if want in cands:
        return want
    return None if strong or not cands else sorted(cands)[0]


def compare_table(a: Results, b: Results, strong: str | None = None) -> tuple[pl.DataFrame, list[str]]:
    """Metric rows with each side's estimate and interval, the difference A - B, its interval and p-value."""
    block = max(a.block, b.block)
    skill = [_skill_policy(r, strong) for r in (a, b)]
    frames = []
    for side, res, sp in zip(SIDES, (a, b), skill):
        with_random = [x["name"] for x in res.arms if "random" in x["policies"]]
        lf = res.deals.with_columns(
            side=pl.lit(side), leader=(pl.col("seat") == pl.col("first_seat")).cast(pl.Float64),
            fair=pl.lit(1.0 / res.players), in_skill=pl.col("arm").is_in(with_random))
        strong_row = (pl.col("policy") == (sp or "")) & pl.col("in_skill")
        random_row = (pl.col("policy") == "random") & pl.col("in_skill") & pl.lit(sp is not None)
        frames.append(lf.select(
            "side", "deal", "plays", "scoring_plays", "play_points", "points", "leader", "tiles_placed",
            pts2=pl.col("points").cast(pl.Float64) ** 2, blocked=pl.col("end") == "blocked",
            lead_win=pl.col("win") * pl.col("leader"), lead_fair=pl.col("fair") * pl.col("leader"),
            s_win=pl.col("win") * strong_row, s_n=strong_row, r_win=pl.col("win") * random_row, r_n=random_row))
    lf = pl.concat(frames)
    names = ["plays", "scoring_plays", "play_points", "points", "pts2", "blocked", "tiles_placed", "leader",
             "lead_win", "lead_fair", "s_win", "s_n", "r_win", "r_n"]
    sums = cluster_sums(lf, ["side"], {n: pl.col(n) for n in names}, block)
    W = {n: wide(sums, "side", n, SIDES) for n in names + [ROWS]}
    G = W[ROWS].shape[0]
    est: dict[str, tuple[np.ndarray, np.ndarray]] = {
        "scoring_rate": influence(W["scoring_plays"], W["plays"]),
        "points_per_placement": influence(W["play_points"], W["plays"]),
        "mean_points": influence(W["points"], W[ROWS]),
        "blocked_share": influence(W["blocked"], W[ROWS]),
        "tiles_placed": influence(W["tiles_placed"], W[ROWS]),
    }
    m, zm = est["mean_points"]
    m2, zm2 = influence(W["pts2"], W[ROWS])
    sd = np.sqrt(np.maximum(m2 - m * m, 0))
    est["points_sd"] = (sd, (zm2 - 2 * m * zm) / (2 * sd))
    lw, zlw = influence(W["lead_win"], W["leader"])
    lf_, zlf = influence(W["lead_fair"], W["leader"])
    est["seat_advantage"] = (lw - lf_, zlw - zlf)
    sw, zsw = influence(W["s_win"], W["s_n"])
    rw, zrw = influence(W["r_win"], W["r_n"])
    est["skill_gap"] = (sw - rw, np.nan_to_num(zsw) - np.nan_to_num(zrw))
    rows = []
    for metric, (desc, kind) in METRICS.items():
        r, z = est[metric]
        se = se_of(z)
        if kind == "share":
            lo, hi = wilson_clustered(r, se, W[ROWS].sum(axis=0))
        else:
            lo, hi = t_interval(r, se, G - 1)
        d = r[0] - r[1]
        dlo, dhi, p = diff_test(d, se_of(z[:, [0]] - z[:, [1]]), G - 1)
        rows.append({"metric": metric, "a": r[0], "a_lo": lo[0], "a_hi": hi[0], "b": r[1], "b_lo": lo[1],
                     "b_hi": hi[1], "diff": d, "diff_lo": float(dlo[0]), "diff_hi": float(dhi[0]),
                     "p_value": float(p[0]), "meaning": desc})
    table = pl.DataFrame(rows).with_columns(pl.col(pl.Float64).fill_nan(None))
    notes = [f"A = {a.name} ({a.path}), B = {b.name} ({b.path}); diff = A - B, paired by deal where the runs "
             "share deals, 95% intervals, two-sided p-values"]
    for side, res, sp in zip(SIDES, (a, b), skill):
        notes.append(f"{side}: skill gap policy: {sp or 'none (no arm plays random against another policy)'}; "
                     f"equal seats: {seat_chi2_text(res)}")
    return table, notes


def seat_wins(res: Results) -> pl.DataFrame:
    """Total win credit (ties shared) per seat, over every arm."""
    return res.deals.group_by("seat").agg(wins=pl.col("win").sum(), rows=pl.len()).sort("seat").collect(
        engine="streaming")


def seat_chi2_text(res: Results) -> str:
    w = seat_wins(res)
    stat, df, p = chi2_equal(w["wins"].to_numpy())
    return f"chi2 = {stat:.2f}, df = {df}, p = {p:.3g}"

"""The match-equity table and the comparison of two match-mode folders (docs/rules.md 12, issue 11.4).

* :func:`equity_table`: P(win the match | own side's score, opponent's score) before a deal, estimated
  from the deal rows (every deal of every match is one observation per side: the scores before it and
  whether that side went on to win), with scores binned in ``bins`` equal steps of the target; per arm
  and policy, each cell with a 95% Wilson interval clustered by match (the deals of a match, its sides
  and rotations are one cluster). With more than two sides the opponent's score is the highest other
  side's (docs/decisions.md).
* :func:`compare_matches`: two match-mode folders (or arms) side by side at the match level: deals per
  match, unfinished share, the first lead's value, the skill gap in match wins; paired by match when the
  two runs share their matches (same seed), unpaired (cross-covariance ~0) otherwise.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from simdom.stats.estimate.clusters import ONE, Matrix, diff_cols, mean_cols, ratio, share_cols, sums, with_cluster
from simdom.stats.inference import wilson_clustered
from simdom.stats.read.folder import ResultFrames
from simdom.stats.matches.tables import check_matches
from simdom.stats.estimate.moments import ROWS, Moments, cluster_moments, ratio_pairs
from simdom.stats.tables.stats import InputError

DEFAULT_BINS = 10


def _step(target: int, bins: int) -> int:
    return max(1, -(-int(target) // bins))


def equity_table(res: ResultFrames, bins: int = DEFAULT_BINS) -> pl.DataFrame:
    """One row per arm, policy and cell (own score bin, opponent score bin): the cell's scores, the
    matches and deal rows it holds, and P(win the match) with its 95% interval."""
    res = check_matches(res)[0]
    if not isinstance(bins, int) or isinstance(bins, bool) or not 2 <= bins <= 50:
        raise InputError(f"bad --bins {bins!r}; allowed: an integer from 2 to 50")
    targets = {a["name"]: int(a["rules"]["target"]) for a in res.arms}
    step = {a: _step(t, bins) for a, t in targets.items()}
    expr = pl.lit(None, pl.Int64)
    for a, s in step.items():
        expr = pl.when(pl.col("arm") == a).then(pl.lit(s)).otherwise(expr)
    lf = res.deals.with_columns(_step=expr, deal=pl.col("match")).with_columns(
        own=pl.min_horizontal(pl.col("before") // pl.col("_step"), pl.lit(bins - 1)).cast(pl.Int32),
        opp=pl.min_horizontal(pl.col("opp_before") // pl.col("_step"), pl.lit(bins - 1)).cast(pl.Int32))
    keys = ["arm", "policy", "own", "opp"]
    df = cluster_moments(lf, keys, {"won": pl.col("match_won")}, ratio_pairs("won", ROWS), res.match_block,
                         count_deals=True)
    m = Moments(df)
    p, se = m.ratio("won")
    lo, hi = wilson_clustered(p, se, df["deals"].to_numpy())
    s = np.array([step[a] for a in df["arm"]])
    own, opp = df["own"].to_numpy(), df["opp"].to_numpy()
    return df.select("arm", "policy").with_columns(
        own_from=pl.Series(own * s), own_to=pl.Series(np.where(own == bins - 1, -1, (own + 1) * s - 1)),
        opp_from=pl.Series(opp * s), opp_to=pl.Series(np.where(opp == bins - 1, -1, (opp + 1) * s - 1)),
        matches=df["deals"], rows=pl.Series(m.S(ROWS).astype(np.int64)), p_win=p, p_win_lo=lo, p_win_hi=hi,
    ).with_columns(pl.col("own_to", "opp_to").replace(-1, None)).sort("arm", "policy", "own_from", "opp_from")


def equity_grid(table: pl.DataFrame, arm: str, policy: str) -> tuple[list[int], list[int], np.ndarray, np.ndarray]:
    """(own bin starts, opponent bin starts, P(win) [own, opp], interval half-widths) of one arm and
    policy, NaN where a cell holds no deal."""
    t = table.filter((pl.col("arm") == arm) & (pl.col("policy") == policy))
    own = sorted(set(t["own_from"].to_list()))
    opp = sorted(set(t["opp_from"].to_list()))
    grid, half = np.full((len(own), len(opp)), np.nan), np.full((len(own), len(opp)), np.nan)
    for r in t.iter_rows(named=True):
        i, j = own.index(r["own_from"]), opp.index(r["opp_from"])
        grid[i, j] = r["p_win"]
        half[i, j] = (r["p_win_hi"] - r["p_win_lo"]) / 2
    return own, opp, grid, half


# ---- two folders at the match level -------------------------------------------------------------------
METRICS = {
    "deals_per_match": ("deals in a match", "mean"),
    "unfinished_share": ("share of matches unfinished after max_deals", "share"),
    "match_lead_value": ("P(win | own side led the first deal) - P(win | it did not)", "mean"),
    "deal_lead_value": ("P(win the deal | own side led it) - P(win | it did not)", "mean"),
    "skill_gap_match": ("match win rate of the stronger policy minus random's, in arms where both play", "mean"),
}


def compare_matches(a: ResultFrames, b: ResultFrames, strong: str | None = None) -> pl.DataFrame:
    """Match-level metrics of A and B with the difference A - B, its interval and p-value."""
    from simdom.stats.tables.compare import _skill_policy
    check_matches([a, b])
    block = max(a.match_block, b.match_block)
    frames_m, frames_d = [], []
    for side, res in (("A", a), ("B", b)):
        sp = _skill_policy(res, strong)
        with_random = [x["name"] for x in res.arms if "random" in x["policies"]]
        strong_row = (pl.col("policy") == (sp or "")) & pl.col("arm").is_in(with_random)
        random_row = (pl.col("policy") == "random") & pl.col("arm").is_in(with_random) & pl.lit(sp is not None)
        won, led = pl.col("won"), pl.col("side_led_first")
        first = pl.col("seat") == 0
        frames_m.append(sums(with_cluster(res.matches, block).with_columns(side=pl.lit(side)), ["side"], {
            "n": first, "deals": pl.col("deals") * first, "unf": pl.col("unfinished") & first,
            "lw": won * led, "l": led, "ow": won * ~led, "o": ~led,
            "sw": won * strong_row, "sn": strong_row, "rw": won * random_row, "rn": random_row}))
        dl, w = pl.col("side_led"), pl.col("win")
        frames_d.append(sums(with_cluster(res.deals, block).with_columns(side=pl.lit(side)), ["side"], {
            "dlw": w * dl, "dl": dl, "dow": w * ~dl, "do": ~dl, "dn": ONE}))
    M = Matrix.of([pl.concat(frames_m), pl.concat(frames_d)], ["side"])
    rows = []
    for metric, (desc, kind) in METRICS.items():
        est = {}
        for side in ("A", "B"):
            at = lambda n: M.pick(n, lambda x: x == (side,))  # noqa: E731,B023
            est[side] = {
                "deals_per_match": lambda: ratio(at("deals"), at("n")),
                "unfinished_share": lambda: ratio(at("unf"), at("n")),
                "match_lead_value": lambda: ratio(at("lw"), at("l")) - ratio(at("ow"), at("o")),
                "deal_lead_value": lambda: ratio(at("dlw"), at("dl")) - ratio(at("dow"), at("do")),
                "skill_gap_match": lambda: ratio(at("sw"), at("sn")) - ratio(at("rw"), at("rn")),
            }[metric]()
        cols = {}
        for side in ("A", "B"):
            c = (share_cols if kind == "share" else mean_cols)("x", est[side], M.G if kind == "mean" else M.G)
            cols |= {k.replace("x", side.lower(), 1): v for k, v in c.items()}
        d = diff_cols("diff", est["A"] - est["B"], M.G)
        rows.append({"metric": metric, **cols, **{k.replace("diff_p", "p_value"): v for k, v in d.items()},
                     "meaning": desc})
    return pl.DataFrame(rows).with_columns(pl.col(pl.Float64).fill_nan(None))

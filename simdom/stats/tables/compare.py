"""`simdom compare A B`: two results side by side (Threes against Fives, or any two), never pooled.

A side is a results folder or one arm of one (``FOLDER:ARM``). Arms are compared in pairs: one arm
against one arm, or, when both sides hold several arms, the arms of the same name. Nothing is pooled
across rule sets: a side whose arms cannot be paired is refused. Within an arm pair, the measures of
players (scoring rate, points, ...) are given for all players together *and per policy*; when the
pooled difference and a policy's difference disagree in sign (Simpson's paradox), a note says so.

Both sides are read as one frame with a ``side`` column and clustered by blocks of deal numbers, so
when the two share deals (two arms of one run, or two runs with the same seed) the comparison is
paired, and otherwise the cross-covariance is ~0 and it reduces to an unpaired comparison. The
p-values of one comparison form a family: each row also has its Holm-adjusted p-value.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from simdom import present as P
from simdom.safeio import shown

from simdom.stats.inference import diff_test, holm, t_interval, wilson_clustered
from simdom.stats.read.folder import ResultFrames, ResultsError
from simdom.stats.estimate.moments import ROWS, cluster_sums, influence, se_of, wide
from simdom.stats.tables.stats import InputError

SIDES = ("A", "B")
ALL = "all players"
#: metric -> (description, kind, per policy): kind "share" gets a Wilson interval, "mean" a t interval
METRICS = {
    "scoring_rate": ("share of placements that score", "share", True),
    "points_per_placement": ("placement points per tile placed", "mean", True),
    "mean_points": ("points per player per deal", "mean", True),
    "points_sd": ("spread: standard deviation of a player's deal points", "mean", True),
    "win_rate": ("share of deals won (ties shared)", "share", True),
    "seat_advantage": ("leader's win rate minus 1/players (first-player advantage)", "mean", False),
    "blocked_share": ("share of deals that end blocked", "share", False),
    "tiles_placed": ("deal length: tiles on the layout at the end", "mean", False),
    "skill_gap": ("win rate of the stronger policy minus that of random, in arms where both play", "mean", False),
    "points_ratio": ("points per deal of the stronger policy over those of random, in arms where both play "
                     "(scale-free: a ratio within each game)", "mean", False),
    "points_cv": ("spread relative to the mean: standard deviation of a player's deal points over their mean "
                  "(scale-free)", "mean", True),
}
#: the measures that are shares or differences of shares: shown in percent (percentage points)
PERCENT = ("scoring_rate", "win_rate", "seat_advantage", "blocked_share", "skill_gap")
#: the measures in points: compared between two arms only when both score on one scale (the same
#: scoring rules); across games each side keeps its estimate, and no difference is tested
POINT_METRICS = ("points_per_placement", "mean_points", "points_sd")
#: the scale-free forms of the points, compared instead across games (each a ratio within one game)
RATIO_METRICS = ("points_ratio", "points_cv")
#: the rules that set the points' scale (docs/rules.md 4 and 7)
SCALE_RULES = ("max_pip", "points", "divisors", "first_double_bonus", "out_bonus", "block_bonus", "bonus_round_to",
               "bonus_divisor")


def points_scale(arm: dict) -> dict:
    """What fixes an arm's points scale: its scoring rules (SCALE_RULES), as the manifest records them."""
    rules = arm.get("rules") or {}
    return {k: rules.get(k) for k in SCALE_RULES}


def scale_difference(arm_a: dict, arm_b: dict) -> tuple[str, object, object] | None:
    """The first scoring rule in which two arms differ, with both values (the manifests' own comparison,
    results.first_difference, that a refused resume names); None: their points are on one scale."""
    from simdom.results import first_difference
    return first_difference(points_scale(arm_a), points_scale(arm_b))

NAMES = ["plays", "scoring_plays", "play_points", "points", "pts2", "win", "blocked", "tiles_placed", "leader",
         "lead_win", "lead_fair", "s_win", "s_n", "r_win", "r_n", "s_pts", "r_pts"]


def _skill_policy(res: ResultFrames, strong: str | None) -> str | None:
    """The policy whose edge over random is measured: ``strong`` or greedy, if it plays random somewhere."""
    cands = {p for a in res.arms if "random" in a["policies"] for p in a["policies"] if p != "random"}
    want = strong or "greedy"
    if want in cands:
        return want
    if strong:
        raise InputError(f"--strong {strong}: {res.name} ({res.path}) has no arm where {strong} plays beside random, "
                         f"so it has no skill gap; allowed: " + (", ".join(sorted(cands)) if cands else
                                                                "none (no arm of it plays random): leave --strong out"))
    return None if not cands else sorted(cands)[0]


def side_names(a: ResultFrames, b: ResultFrames) -> tuple[str, str]:
    """How to name the two sides: their names, or their folders when the names are the same."""
    return (a.name, b.name) if a.name != b.name else (f"{a.name} ({a.path})", f"{b.name} ({b.path})")


def arm_pairs(a: ResultFrames, b: ResultFrames) -> list[tuple[str, str]]:
    """The arms compared: one against one, or the arms of the same name; otherwise refused."""
    na, nb = a.arm_names, b.arm_names
    if len(na) == 1 and len(nb) == 1:
        return [(na[0], nb[0])]
    if set(na) == set(nb):
        return [(x, x) for x in na]
    raise ResultsError(f"cannot pair the arms of {a.name} ({', '.join(na)}) with those of {b.name} "
                       f"({', '.join(nb)}) without pooling different rules or policies; compare one arm of "
                       f"each: FOLDER:ARM (e.g. {a.path}:{na[0]} {b.path}:{nb[0]})")


def _frame(side: str, res: ResultFrames, arms: dict[str, str], sp: str | None) -> pl.LazyFrame:
    with_random = [x["name"] for x in res.arms if "random" in x["policies"]]
    lf = res.deals.filter(pl.col("arm").is_in(list(arms))).with_columns(
        side=pl.lit(side), pair=pl.col("arm").replace_strict(arms, return_dtype=pl.String),
        leader=(pl.col("turn") == 0).cast(pl.Float64), fair=pl.lit(1.0 / res.players),
        in_skill=pl.col("arm").is_in(with_random))
    strong_row = (pl.col("policy") == (sp or "")) & pl.col("in_skill")
    random_row = (pl.col("policy") == "random") & pl.col("in_skill") & pl.lit(sp is not None)
    return lf.select(
        "side", "pair", "policy", "deal", "plays", "scoring_plays", "play_points", "points", "win", "leader",
        "tiles_placed", pts2=pl.col("points").cast(pl.Float64) ** 2, blocked=pl.col("end") == "blocked",
        lead_win=pl.col("win") * pl.col("leader"), lead_fair=pl.col("fair") * pl.col("leader"),
        s_win=pl.col("win") * strong_row, s_n=strong_row, r_win=pl.col("win") * random_row, r_n=random_row,
        s_pts=pl.col("points") * strong_row, r_pts=pl.col("points") * random_row)


def _estimates(W: dict[str, np.ndarray]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    est = {"scoring_rate": influence(W["scoring_plays"], W["plays"]),
           "points_per_placement": influence(W["play_points"], W["plays"]),
           "mean_points": influence(W["points"], W[ROWS]), "win_rate": influence(W["win"], W[ROWS]),
           "blocked_share": influence(W["blocked"], W[ROWS]),
           "tiles_placed": influence(W["tiles_placed"], W[ROWS])}
    m, zm = est["mean_points"]
    m2, zm2 = influence(W["pts2"], W[ROWS])
    sd = np.sqrt(np.maximum(m2 - m * m, 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        est["points_sd"] = (sd, (zm2 - 2 * m * zm) / (2 * sd))
    lw, zlw = influence(W["lead_win"], W["leader"])
    lf_, zlf = influence(W["lead_fair"], W["leader"])
    est["seat_advantage"] = (lw - lf_, zlw - zlf)
    sw, zsw = influence(W["s_win"], W["s_n"])
    rw, zrw = influence(W["r_win"], W["r_n"])
    est["skill_gap"] = (sw - rw, np.nan_to_num(zsw) - np.nan_to_num(zrw))
    sp, zsp = influence(W["s_pts"], W["s_n"])
    rp, zrp = influence(W["r_pts"], W["r_n"])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = sp / rp
        est["points_ratio"] = (ratio, (np.nan_to_num(zsp) - ratio * np.nan_to_num(zrp)) / rp)
        z_sd = est["points_sd"][1]
        est["points_cv"] = (sd / m, z_sd / m - sd * zm / (m * m))
    return est


def _row(metric: str, pair: str, stratum: str, r, z, n_rows, G: int) -> dict:
    desc, kind, _ = METRICS[metric]
    se = se_of(z)
    lo, hi = wilson_clustered(r, se, G) if kind == "share" else t_interval(r, se, G - 1)
    d = r[0] - r[1]
    dlo, dhi, p = diff_test(d, se_of(z[:, [0]] - z[:, [1]]), G - 1)
    if not np.isfinite(d):
        p = np.array([np.nan])
    return {"pair": pair, "stratum": stratum, "metric": metric, "a": r[0], "a_lo": lo[0], "a_hi": hi[0],
            "b": r[1], "b_lo": lo[1], "b_hi": hi[1], "diff": d, "diff_lo": float(dlo[0]),
            "diff_hi": float(dhi[0]), "p_value": float(p[0]), "meaning": desc}


def compare_table(a: ResultFrames, b: ResultFrames, strong: str | None = None) -> tuple[pl.DataFrame, list[str]]:
    """Rows per (arm pair, stratum, metric): each side's estimate and interval, the difference A - B,
    its interval, p-value and Holm-adjusted p-value over the table; and notes (Simpson reversals)."""
    pairs = arm_pairs(a, b)
    label = {pa_: pa_ if pa_ == pb else f"{pa_} vs {pb}" for pa_, pb in pairs}
    differ = {label[pa_]: scale_difference(a.arm(pa_), b.arm(pb)) for pa_, pb in pairs}
    skill = [_skill_policy(r, strong) for r in (a, b)]
    maps = [{pa_: label[pa_] for pa_, _ in pairs}, {pb: label[pa_] for pa_, pb in pairs}]
    lf = pl.concat([_frame(s, r, m, sp) for s, r, m, sp in zip(SIDES, (a, b), maps, skill)])
    sums = cluster_sums(lf, ["side", "pair", "policy"], {n: pl.col(n) for n in NAMES}, max(a.block, b.block))
    rows, notes = [], []
    for pair in label.values():
        s_pair = sums.filter(pl.col("pair") == pair)
        pols = [p for p in dict.fromkeys(s_pair["policy"].to_list())
                if s_pair.filter(pl.col("policy") == p)["side"].n_unique() == 2]
        mixed = len(s_pair["policy"].unique()) > 1
        strata = [(ALL, s_pair)] + ([(p, s_pair.filter(pl.col("policy") == p)) for p in sorted(pols)] if mixed else [])
        for stratum, s in strata:
            W = {n: wide(s, "side", n, SIDES) for n in NAMES + [ROWS]}
            G = W[ROWS].shape[0]
            est = _estimates(W)
            for metric, (_, _, per_policy) in METRICS.items():
                if stratum != ALL and not per_policy:
                    continue
                if metric == "win_rate" and stratum == ALL:
                    continue  # all players together win 1/players of the deals, by construction
                # two scales: raw points are not comparable, and neither shown nor tested; their scale-free
                # forms (ratios within each game) take their place; one scale: the points as they are
                if metric in (POINT_METRICS if differ[pair] else RATIO_METRICS):
                    continue
                n_rows = W["plays"].sum(axis=0) if metric == "scoring_rate" else W[ROWS].sum(axis=0)
                rows.append(_row(metric, pair, stratum, *est[metric], n_rows, G))
    table = pl.DataFrame(rows).with_columns(pl.col(pl.Float64).fill_nan(None))
    table = table.filter(pl.col("a").is_not_null() | pl.col("b").is_not_null())  # undefined on both sides
    table = table.with_columns(p_holm=pl.Series(holm(table["p_value"].fill_null(np.nan).to_numpy())).fill_nan(None))
    for (pair, metric), g in table.group_by(["pair", "metric"], maintain_order=True):
        pooled = g.filter(pl.col("stratum") == ALL)
        if pooled.is_empty() or pooled["diff"][0] is None or g.height < 2:
            continue
        d0 = pooled["diff"][0]
        p0 = pooled.row(0, named=True)
        clear = (pl.col("diff_lo") > 0) | (pl.col("diff_hi") < 0)
        flip = g.filter((pl.col("stratum") != ALL) & (pl.col("diff").sign() == -np.sign(d0)) & (pl.col("diff") != 0))
        pooled_clear = p0["diff_lo"] is not None and (p0["diff_lo"] > 0 or p0["diff_hi"] < 0)
        if not pooled_clear:
            flip = flip.filter(clear)  # both within noise: no reversal to report
        if d0 != 0 and flip.height:
            pct = metric in PERCENT
            each = ", ".join(f"{r['stratum']} {P.est(r['diff'], r['diff_lo'], r['diff_hi'], pct=pct, signed=True)}"
                             for r in flip.iter_rows(named=True))
            notes.append(f"Simpson's paradox in {pair}, {metric}: pooled over the policies, A - B = "
                         f"{P.est(d0, p0['diff_lo'], p0['diff_hi'], pct=pct, signed=True)}"
                         f"{' percentage points' if pct else ''}, but for {each} the sign is the "
                         "opposite: the pooled figure mixes policies; read the per-policy rows.")
    na, nb = side_names(a, b)
    strong_name = skill[0] if skill[0] == skill[1] and skill[0] else "the stronger policy"
    for pair, d in differ.items():
        if d:
            notes.append(f"{pair}: raw points not compared, the games score on different scales ({d[0]} "
                         f"{shown(d[1])} against {shown(d[2])}); instead, within each game: points ratio "
                         f"({strong_name}'s points over random's) and points cv (sd over mean)")
    notes.insert(0, f"A = {na}, B = {nb}; diff = A - B, paired by deal where the sides share deals; "
                    f"95% intervals clustered by deal; p-values two-sided, Holm-adjusted over the "
                    f"{int(table['p_value'].is_not_null().sum())} comparisons (p_holm)")
    for side, res, sp in zip(SIDES, (a, b), skill):
        if sp is None:
            notes.append(f"{side}: no skill gap (no arm plays random against another policy)")
    return table, notes

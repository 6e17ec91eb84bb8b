"""`simdom stats`: per-group scoring rates, points, win rates, first-double bonus, blocked share."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from simdom.stats.inference import t_interval, wilson_clustered
from simdom.stats.read.folder import ResultFrames
from simdom.stats.estimate.moments import ROWS, Moments, cluster_moments, ratio_pairs

#: --by columns that select rows by what happened in the deal: group differences are associations
CONDITIONAL = ("end", "went_out", "doubles_dealt", "lost_first_double", "first_double_seat")
RESULTS_KEY = "results"


class InputError(ValueError):
    """A bad option value; the message names the allowed values."""


def parse_by(text: str | Sequence[str] | None, allowed: Sequence[str], default: Sequence[str] = ("arm",)) -> list[str]:
    if text is None:
        return list(default)
    items = text.split(",") if isinstance(text, str) else list(text)
    keys = [k.strip() for k in items if k.strip()]
    bad = [k for k in keys if k not in allowed]
    if bad or not keys:
        raise InputError(f"bad --by column {', '.join(bad) or repr(text)}; allowed: {', '.join(allowed)}")
    twice = next((k for k in keys if keys.count(k) > 1), None)
    if twice:
        raise InputError(f"--by {text}: {twice} is given twice; allowed: each column once")
    return keys


def default_by(results: Sequence[ResultFrames]) -> list[str]:
    """Per arm, and per policy where the players of an arm play different policies."""
    mixed = any(len(set(a["policies"])) > 1 for r in results for a in r.arms)
    return ["arm", "policy"] if mixed else ["arm"]


def deal_frame(results: Sequence[ResultFrames]) -> tuple[pl.LazyFrame, int]:
    """All deal rows of one or more folders (with ``results`` and ``leader`` columns) and the block size."""
    frames = [r.deals.with_columns(pl.lit(r.name).alias(RESULTS_KEY)) for r in results]
    lf = frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical")
    return lf.with_columns((pl.col("turn") == 0).alias("leader")), max(r.block for r in results)


def _interval_cols(name: str, est, se, df) -> dict[str, np.ndarray]:
    """A mean of counts or points (never negative) with its t interval, cut at 0: the cut interval covers
    whatever the whole one covers."""
    lo, hi = t_interval(est, se, df)
    return {name: est, f"{name}_lo": np.maximum(lo, 0.0), f"{name}_hi": hi}


def _share_cols(name: str, est, se, clusters, units=None, fixed=None) -> dict[str, np.ndarray]:
    """A share with its clustered Wilson interval (no event: the exact bound on the group's ``units``, its
    distinct deals; few events: the exact interval on the effective counts); where ``fixed`` (a share
    the rules decide), the share alone: no interval (nan, null in JSON) and ``{name}_fixed`` true."""
    lo, hi = wilson_clustered(est, se, clusters, units=units)
    return _fix({name: est, f"{name}_lo": lo, f"{name}_hi": hi}, name, fixed)


def _fix(cols: dict[str, np.ndarray], name: str, fixed=None) -> dict[str, np.ndarray]:
    """Where ``fixed`` (decided by the rules or the policies), the estimate has no interval: its bounds
    are nan (null in JSON) and the column ``{name}_fixed`` says so (printed "100 fixed")."""
    if fixed is None:
        return cols
    fixed = np.asarray(fixed, bool)
    cols[f"{name}_lo"] = np.where(fixed, np.nan, cols[f"{name}_lo"])
    cols[f"{name}_hi"] = np.where(fixed, np.nan, cols[f"{name}_hi"])
    cols[f"{name}_fixed"] = fixed
    return cols


def _rule_tiers(out: pl.DataFrame, results: Sequence[ResultFrames]) -> list[set[int] | None]:
    """Per row of ``out``: the first-double bonus tiers its arm's rules have (None: the row mixes arms)."""
    if "arm" not in out.columns:
        return [None] * out.height
    tiers = {(r.name, a["name"]): {int(p) for _, p in a["rules"].get("first_double_bonus", []) if int(p) > 0}
             for r in results for a in r.arms}
    names = out[RESULTS_KEY].to_list() if RESULTS_KEY in out.columns else [results[0].name] * out.height
    return [tiers.get((n, a)) for n, a in zip(names, out["arm"].to_list())]


def stats_table(results: ResultFrames | Sequence[ResultFrames], by: Sequence[str] | None = None) -> pl.DataFrame:
    """One row per group: deals, rows and every estimate of `simdom stats` with its 95% interval.

    ``by`` defaults to :func:`default_by`; rows come in the scenario's arm order."""
    results = [results] if isinstance(results, ResultFrames) else list(results)
    by = default_by(results) if by is None else list(by)
    lf, block = deal_frame(results)
    keys = ([RESULTS_KEY] if len(results) > 1 else []) + list(by)
    tiers = sorted({t for r in results for t in r.bonus_tiers()})
    q = {
        "points": pl.col("points"), "points2": pl.col("points").cast(pl.Float64) ** 2, "win": pl.col("win"),
        "sp": pl.col("scoring_plays"), "plays": pl.col("plays"), "pp": pl.col("play_points"),
        "bonus": pl.col("bonus"), "blocked": pl.col("end") == "blocked", "tiles": pl.col("tiles_placed"),
        "tier_0": pl.col("bonus") == 0, **{f"tier_{t}": pl.col("bonus") == t for t in tiers},
    }
    pairs = [p for y, x in [("points", ROWS), ("win", ROWS), ("sp", "plays"), ("pp", "plays"), ("bonus", ROWS),
                            ("blocked", ROWS), ("tiles", ROWS)] + [(t, ROWS) for t in q if t.startswith("tier_")]
             for p in ratio_pairs(y, x)] + [("points2", "points2"), ("points2", "points"), ("points2", ROWS)]
    df = cluster_moments(lf, keys, q, pairs, block, count_deals=True)
    m = Moments(df)
    dof, rows = m.G - 1, m.S(ROWS)
    cols: dict[str, np.ndarray] = {"deals": df["deals"].to_numpy(), "rows": rows.astype(np.int64)}
    cols |= _interval_cols("mean_points", *m.ratio("points"), dof)
    cols["points_sd"] = m.sd("points", "points2")[0]
    deals = df["deals"].to_numpy().astype(float)
    cols |= _share_cols("win_rate", *m.ratio("win"), m.G, deals)
    cols |= _share_cols("scoring_rate", *m.ratio("sp", "plays"), m.G, deals)
    cols |= _interval_cols("points_per_placement", *m.ratio("pp", "plays"), dof)
    cols |= _interval_cols("bonus_mean", *m.ratio("bonus"), dof)
    if tiers:  # an arm whose rules have no tier t earns it never: fixed at 0, printed without an interval
        has = _rule_tiers(df.select(keys), results)
        cols |= _share_cols("bonus_share_none", *m.ratio("tier_0"), m.G, deals,
                            fixed=np.array([h is not None and not h for h in has], bool))
        for t in tiers:
            cols |= _share_cols(f"bonus_share_{t}", *m.ratio(f"tier_{t}"), m.G, deals,
                                fixed=np.array([h is not None and t not in h for h in has], bool))
    cols |= _share_cols("blocked_share", *m.ratio("blocked"), m.G, deals)
    cols |= _interval_cols("tiles_placed", *m.ratio("tiles"), dof)
    out = df.select(keys).with_columns(**{k: pl.Series(k, v) for k, v in cols.items()})
    return arm_sorted(out, results)


def arm_sorted(df: pl.DataFrame, results: Sequence[ResultFrames]) -> pl.DataFrame:
    """Rows in the scenario's arm order (then the other keys as they were sorted)."""
    if "arm" not in df.columns:
        return df
    from simdom.present import order
    names = order(df["arm"].to_list(), [a for r in results for a in r.arm_names])
    rank = {a: i for i, a in enumerate(names)}
    first = [RESULTS_KEY] if RESULTS_KEY in df.columns else []
    return df.with_columns(_o=pl.col("arm").replace_strict(rank, return_dtype=pl.Int64)).sort(
        [*first, "_o"], maintain_order=True).drop("_o")


def _moves_fixed(keys: pl.DataFrame, results: Sequence[ResultFrames]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of a moves table, what the rules decide: (the placement is the lead of rules that fix the
    lead tile: Fives' 5-5 scores 10, in a match only while every deal is led by the rules; it is move 1
    or 2 of rules that need 3 or more counted ends: Threes' first two tiles show at most 2 ends, so
    they never score; its arm's rules have no first-double bonus: Fives, whose bonus is 0)."""
    def fixes_lead(a: dict) -> bool:
        r = a["rules"]
        return str(r.get("lead", "any")).startswith("tile:") and r.get("next_lead", "rules") == "rules"

    def per_arm(f) -> np.ndarray:
        by_arm = {(res.name, a["name"]): f(a) for res in results for a in res.arms}
        if "arm" not in keys.columns:
            return np.full(keys.height, all(by_arm.values()), bool)
        names = keys[RESULTS_KEY].to_list() if RESULTS_KEY in keys.columns else [results[0].name] * keys.height
        return np.array([by_arm.get((n, a), False) for n, a in zip(names, keys["arm"].to_list())], bool)

    move = keys["move"].to_numpy()
    lead = (move == 1) & per_arm(fixes_lead)
    few_ends = (move <= 2) & per_arm(lambda a: int(a["rules"].get("min_ends", 0)) >= 3)
    no_bonus = per_arm(lambda a: not any(int(p) > 0 for _, p in a["rules"].get("first_double_bonus", [])))
    return lead, few_ends, no_bonus


def moves_table(results: ResultFrames | Sequence[ResultFrames], by: Sequence[str] = ("arm",)) -> pl.DataFrame:
    """Scoring rate (share of placements that score) and points per placement by move number."""
    results = [results] if isinstance(results, ResultFrames) else list(results)
    missing = [str(r.path) for r in results if r.moves is None]
    if missing:
        from simdom.stats.read.folder import ResultsError
        raise ResultsError(f"{', '.join(missing)}: no move data; run the scenario with `simdom run --moves`")
    frames = [r.moves.with_columns(pl.lit(r.name).alias(RESULTS_KEY)) for r in results]
    lf = frames[0] if len(frames) == 1 else pl.concat(frames)
    keys = ([RESULTS_KEY] if len(results) > 1 else []) + list(by) + ["move"]
    q = {"scored": pl.col("points") > 0, "pts": pl.col("points"), "fdb": pl.col("bonus")}
    pairs = [p for y in q for p in ratio_pairs(y, ROWS)]
    df = cluster_moments(lf, keys, q, pairs, max(r.block for r in results), count_deals=True)
    m = Moments(df)
    rows = m.S(ROWS)
    cols: dict[str, np.ndarray] = {"placements": rows.astype(np.int64)}
    lead, few_ends, no_bonus = _moves_fixed(df.select(keys), results)
    # a 0 that the rules give is printed fixed only where the data agree (a synthetic folder need not
    # follow its rules); the lead tile's score is whatever the rules make it
    fixed = lead | (few_ends & (m.ratio("scored")[0] == 0))
    bonus_fixed = lead | (no_bonus & (m.ratio("fdb")[0] == 0))
    cols |= _share_cols("scoring_rate", *m.ratio("scored"), m.G, df["deals"].to_numpy().astype(float), fixed=fixed)
    for name, q_, f in (("points_per_placement", "pts", fixed), ("bonus_per_placement", "fdb", bonus_fixed)):
        cols |= _fix(_interval_cols(name, *m.ratio(q_), m.G - 1), name, f)
    return arm_sorted(df.select(keys).with_columns(**{k: pl.Series(k, v) for k, v in cols.items()}), results)

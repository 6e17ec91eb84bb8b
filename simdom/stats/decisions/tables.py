"""The conditional hold table: what holding the first double is worth, by situation (`simdom doubles
--decisions`), from the decisions table of `simdom run --decisions`.

*The value of holding* at a decision is the mover's final points after its best other move minus after
its best double now. Two estimates, and the output says which one it uses:

* ``rollouts`` (the run had ``--decision-rollouts N``): the mean of the decisions' ``hold_gain``, each
  the paired difference of the two candidates played out by greedy in the same N re-deals of what the
  mover cannot see. A causal per-position estimate (what one deviation from the playing policy is worth
  when greedy plays on); a situation's mean is over the positions the arm's policies reach there.
* ``observed`` (no rollouts): the mean final points of the movers that held minus of those that placed
  the double, in the deals as played. An association: the policy chose by the situation, and whatever
  made it hold (or reached the position) also shapes the outcome.

Every interval is clustered by deal (a deal's decisions, rotations and arms are one cluster); arms are
never pooled.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import polars as pl

from simdom.stats.inference import diff_test, holm, wilson_clustered
from simdom.stats.read.folder import ResultFrames, ResultsError
from simdom.stats.estimate.moments import ROWS, Moments, cluster_moments

#: The situations of the table: name, what the reader sees, and the level of a decision (a polars expression).
SITUATIONS: dict[str, tuple[str, pl.Expr]] = {
    "tier": ("bonus now -> if delayed one round", pl.format("{}->{}", "tier_now", "tier_later")),
    "double_support": ("other tiles of the double's suit in hand",
                       pl.when(pl.col("double_support") >= 3).then(pl.lit("3+"))
                       .otherwise(pl.col("double_support").cast(pl.String))),
    "doubles_held": ("doubles held", pl.when(pl.col("doubles_held") >= 4).then(pl.lit("4+"))
                     .otherwise(pl.col("doubles_held").cast(pl.String))),
    "unseen_doubles": ("doubles an opponent may hold", pl.col("unseen_doubles").cast(pl.String)),
    "turn": ("turn order (0 = the leader)", pl.col("turn").cast(pl.String)),
    "lead": ("the decision is the lead", pl.when(pl.col("move") == 1).then(pl.lit("lead")).otherwise(pl.lit("later"))),
}
#: The heatmap's rows and columns.
GRID = ("tier", "double_support")


@dataclass(frozen=True)
class Method:
    name: str      #: rollouts or observed
    text: str      #: one sentence for the notes
    then: str = "greedy"  #: with rollouts: the policy that played on after the move (simdom run --then)


def continuation_of(manifest) -> str:
    """The policy that played on in a run's decision rollouts (``simdom run --then``; greedy unless written)."""
    return manifest.decision_then or "greedy"


def method_of(res: ResultFrames) -> Method:
    n = res.manifest.decision_rollouts or 0
    then = continuation_of(res.manifest)
    if n > 0:
        return Method("rollouts", f"The value of holding is the rollout difference: each decision's best other move "
                                  f"and best double now played out by {then} in the same {n} re-deals of what the "
                                  "mover cannot see (common random numbers), a causal estimate for that position "
                                  f"under {then} continuation; a situation's mean is over the positions the arm's "
                                  "policies reach there.", then)
    return Method("observed", "No rollouts in this run (simdom run --decision-rollouts N adds them): the value of "
                              "holding is the mean final points of the movers that held minus of those that placed "
                              "the double, as played: a conditional association, not the effect of the choice (the "
                              "policy chose by the situation, and what led it there also shapes the outcome).")


def _frame(res: ResultFrames) -> pl.LazyFrame:
    if res.decisions is None:
        raise ResultsError(f"{res.path}: no decisions table; write one with `simdom run SCENARIO --decisions` "
                           "(add --decision-rollouts N for causal per-position values)")
    lf = res.decisions.with_columns(**{k: e for k, (_, e) in SITUATIONS.items()}).with_columns(
        held=(~pl.col("chose_double")).cast(pl.Float64), played=pl.col("chose_double").cast(pl.Float64))
    if method_of(res).name == "observed":
        outcome = res.deals.select("arm", "deal", "rotation", "seat", pl.col("points").alias("final_points"),
                                   pl.col("win").alias("final_win"))
        lf = lf.join(outcome, on=["arm", "deal", "rotation", "seat"], how="left")
    return lf


#: policies that play greedy's move at every first-double decision
GREEDY_LIKE = ("greedy", "hold:until=1")


def greedy_always_places(rules: dict) -> bool:
    """Greedy places the first double at every first-double decision under these rules: before the first
    double there is no spinner, so only the line ends L and R count (k <= 2), fewer than ``min_ends``,
    and no other move scores; the first double earns a positive bonus at every move number (the last
    tier without limit); no block bonus. The double then outscores every other move. (Threes: spinner
    first_double, min_ends 3, bonus 2/4/8.) A move cannot go out: the mover holds a double and another
    tile."""
    tiers = rules.get("first_double_bonus") or []
    return (rules.get("spinner") == "first_double" and int(rules.get("min_ends", 0)) >= 3 and bool(tiers)
            and tiers[-1][0] is None and all(int(pts) > 0 for _, pts in tiers)
            and rules.get("block_bonus", "none") == "none")


def fixed_double_share(res: ResultFrames, arm: str) -> float | None:
    """The share of first-double decisions at which the players of ``arm`` place the double, where their
    policies and the rules decide it: 0 when every player plays ``hold:until=never`` (it sets the double
    aside whenever another move exists), 1 when every player plays greedy and
    :func:`greedy_always_places`; otherwise None (an estimate: the deal decides)."""
    a = res.arm(arm)
    pols = a["policies"]
    if all(p == "hold:until=never" for p in pols):
        return 0.0
    if all(p in GREEDY_LIKE for p in pols) and greedy_always_places(a.get("rules") or {}):
        return 1.0
    return None


def _estimates(res: ResultFrames, lf: pl.LazyFrame, keys: list[str]) -> pl.DataFrame:
    """One row per group of ``keys``: decisions, share placing the double, the value of holding in points
    and in win share (each with a 95% interval clustered by deal)."""
    method = method_of(res).name
    if method == "rollouts":
        q = {"played": pl.col("played"), "gain": pl.col("hold_gain"), "gain_win": pl.col("hold_gain_win")}
        pairs = [(a, b) for a in (ROWS, *q) for b in (ROWS, *q)]
    else:
        q = {"held": pl.col("held"), "played": pl.col("played"),
             "ph": pl.col("final_points") * pl.col("held"), "pp": pl.col("final_points") * pl.col("played"),
             "wh": pl.col("final_win") * pl.col("held"), "wp": pl.col("final_win") * pl.col("played")}
        pairs = [(a, b) for a in (ROWS, *q) for b in (ROWS, *q)]
    df = cluster_moments(lf, keys, q, pairs, res.block, count_deals=True)
    if df.is_empty():
        return df
    m = Moments(df)
    n = m.S(ROWS)
    share, sse = m.ratio("played")
    deals = df["deals"].to_numpy().astype(float)
    slo, shi = wilson_clustered(share, sse, m.G, units=deals)
    by_arm = {a: fixed_double_share(res, a) for a in set(df["arm"].to_list())}
    value = np.array([by_arm[a] if by_arm[a] is not None else np.nan for a in df["arm"].to_list()], float)
    fixed = value == share  # what the policies decide (and the data agree, as they must)
    slo, shi = np.where(fixed, np.nan, slo), np.where(fixed, np.nan, shi)
    cols = {"decisions": n.astype(np.int64), "deals": deals.astype(np.int64), "double_share": share,
            "double_share_lo": slo, "double_share_hi": shi, "double_share_fixed": fixed}
    for name, (y1, x1, y0, x0) in {"hold_value": ("ph", "held", "pp", "played"),
                                   "hold_value_win": ("wh", "held", "wp", "played")}.items():
        if method == "rollouts":
            est, se = m.ratio("gain" if name == "hold_value" else "gain_win")
        else:
            s1, n1, s0, n0 = m.S(y1), m.S(x1), m.S(y0), m.S(x0)
            with np.errstate(divide="ignore", invalid="ignore"):
                est = s1 / n1 - s0 / n0
                se = np.sqrt(m.var({y1: 1 / n1, x1: -s1 / n1**2, y0: -1 / n0, x0: s0 / n0**2}))
        lo, hi, p = diff_test(est, se, m.G - 1)
        cols |= {name: est, f"{name}_lo": lo, f"{name}_hi": hi, f"{name}_p": p}
    return df.select(keys).with_columns(**{k: pl.Series(v) for k, v in cols.items()})


def hold_table(res: ResultFrames, situations: list[str] | None = None) -> pl.DataFrame:
    """The conditional hold table: one row per arm, situation and level (and one ``all`` row per arm)."""
    lf = _frame(res)
    parts = [_estimates(res, lf, ["arm"]).with_columns(situation=pl.lit("all"), level=pl.lit("all"))]
    for s in situations or list(SITUATIONS):
        if s not in SITUATIONS:
            raise ResultsError(f"unknown situation {s!r}; allowed: {', '.join(SITUATIONS)}")
        d = _estimates(res, lf, ["arm", s])
        parts.append(d.rename({s: "level"}).with_columns(situation=pl.lit(s)))
    out = pl.concat([p for p in parts if p.height], how="diagonal_relaxed")
    order = {a: i for i, a in enumerate(res.arm_names)}
    sit = {s: i for i, s in enumerate(["all", *SITUATIONS])}
    out = out.with_columns(method=pl.lit(method_of(res).name), _a=pl.col("arm").replace_strict(order, default=99),
                           _s=pl.col("situation").replace_strict(sit, default=99))
    return out.sort("_a", "_s", "level").drop("_a", "_s").select(
        "arm", "situation", "level", pl.exclude("arm", "situation", "level"))


def grid_table(res: ResultFrames, keys: tuple[str, ...] | list[str] = GRID) -> pl.DataFrame:
    """The value of holding by the situations ``keys`` crossed (default: the heatmap's bonus tier, now ->
    later, by the double's support)."""
    bad = [k for k in keys if k not in SITUATIONS]
    if bad or not keys:
        raise ResultsError(f"unknown situation {', '.join(bad) or '(none)'}; allowed: {', '.join(SITUATIONS)}")
    lf = _frame(res)
    return _estimates(res, lf, ["arm", *keys]).with_columns(method=pl.lit(method_of(res).name)).sort(
        "arm", *keys)


def candidate_groupings() -> list[tuple[str, ...]]:
    """The groupings `simdom doubles --decisions` searches when no --by is given, a fixed list: every
    situation alone, every pair, and every triple with the lead (6 + 15 + 10 = 31)."""
    names = list(SITUATIONS)
    others = [n for n in names if n != "lead"]
    return ([(n,) for n in names] + list(itertools.combinations(names, 2))
            + [("lead", a, b) for a, b in itertools.combinations(others, 2)])


def search_table(res: ResultFrames, min_decisions: int = 100) -> pl.DataFrame:
    """Every cell of every :func:`candidate_groupings` grouping with at least ``min_decisions`` decisions and
    a tested value of holding: one row per arm and cell (``grouping``, ``cell``: the levels, ``words``),
    its value with interval and two-sided p, and ``p_holm``: Holm-adjusted across every cell tried in the
    arm (the family: what a user searching the groupings by hand would have tried), so a cell found by the
    search is as trustworthy as one named in advance. Sorted by arm, then p."""
    lf = _frame(res).collect().lazy()
    rows = []
    for keys in candidate_groupings():
        d = _estimates(res, lf, ["arm", *keys])
        if d.is_empty():
            continue
        d = d.filter(pl.col("decisions") >= min_decisions, pl.col("hold_value").is_finite(),
                     pl.col("hold_value_p").is_finite())
        for r in d.iter_rows(named=True):
            rows.append({"arm": r["arm"], "grouping": ",".join(keys),
                         "cell": ", ".join(f"{k}={r[k]}" for k in keys), "words": cell_words(r, keys),
                         **{c: r[c] for c in ("decisions", "deals", "double_share", "hold_value", "hold_value_lo",
                                              "hold_value_hi", "hold_value_p", "hold_value_win")}})
    schema = {"arm": pl.String, "grouping": pl.String, "cell": pl.String, "words": pl.String,
              "decisions": pl.Int64, "deals": pl.Int64, "double_share": pl.Float64, "hold_value": pl.Float64,
              "hold_value_lo": pl.Float64, "hold_value_hi": pl.Float64, "hold_value_p": pl.Float64,
              "hold_value_win": pl.Float64}
    df = pl.DataFrame(rows, schema=schema)
    parts = []
    for arm in res.arm_names:
        a = df.filter(pl.col("arm") == arm)
        if a.height:
            parts.append(a.with_columns(p_holm=pl.Series(holm(a["hold_value_p"].to_numpy())),
                                        cells_tried=pl.lit(a.height, pl.Int64)).sort("hold_value_p"))
    if not parts:
        return df.with_columns(p_holm=pl.lit(None, pl.Float64), cells_tried=pl.lit(0, pl.Int64))
    return pl.concat(parts)


# ---- words --------------------------------------------------------------------------------------
def level_words(situation: str, level: str) -> str:
    """A situation's level in plain words."""
    if situation == "tier":
        now, later = level.split("->")
        return f"bonus {now} now" + (f", {later} a round later" if later != now else " and a round later")
    if situation == "double_support":
        return {"0": "no other tile of the double's suit in hand", "1": "one other tile of its suit"}.get(
            level, f"{level} other tiles of its suit")
    if situation == "doubles_held":
        return f"{level} double{'s' if level != '1' else ''} in hand"
    if situation == "unseen_doubles":
        return f"{level} double{'s' if level != '1' else ''} an opponent may hold"
    if situation == "turn":
        return "the leader" if level == "0" else f"{int(level) + 1}{'nd' if level == '1' else 'rd' if level == '2' else 'th'} to act"
    if situation == "lead":
        return "at the lead" if level == "lead" else "after the lead"
    return f"{situation} {level}"


def cell_words(row: dict, keys=GRID) -> str:
    """A cell of a crossed table in plain words."""
    return ", ".join(level_words(k, row[k]) for k in keys)

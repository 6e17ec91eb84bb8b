"""Match statistics (docs/rules.md 12, issue 11.4) over match-mode results folders.

Every estimate has a 95% interval clustered by match: the cluster is a block of consecutive match ids,
holding every arm, rotation, seat and deal of its matches (simdom.stats.estimate.clusters). Nothing is pooled
across arms (rule sets or policies): every table is per arm, and per policy where seats differ.

* :func:`wins_table`: match win probability per group (arm, policy, side, seat, player, ...), the fair
  share 1/sides, the side's mean final score and the deals per match.
* :func:`length_table`: deals per match (mean, spread, quantiles) and the share of unfinished matches.
* :func:`lead_table`: the value of the first lead: P(win the match | one's side led the first deal)
  minus P(win | it did not), beside the same difference for the first deal alone and for every deal.
* :func:`edges_table`: within an arm, a policy's edge per deal (deal win rate by side minus the fair
  share) against its edge per match (match win rate minus the fair share), on the same matches.
* :func:`arms_table`: arms against their baseline (the first arm with the same rules), paired by match:
  the change per deal (win rate, points) and per match (win rate) of the players whose policy changed.
* :func:`answer`: the answer in sentences. The match-equity table is simdom.stats.matches.equity.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from simdom import present as P

from simdom.results import sides_of
from simdom.stats.estimate.clusters import ONE, Matrix, diff_cols, ratio, share_cols, sums, with_cluster
from simdom.stats.inference import t_interval, wilson_clustered
from simdom.stats.read.folder import ResultFrames
from simdom.stats.estimate.moments import ROWS, Moments, cluster_moments, ratio_pairs
from simdom.stats.tables.stats import InputError, arm_sorted



def check_matches(results: ResultFrames | Sequence[ResultFrames]) -> list[ResultFrames]:
    """The results, all match-mode; InputError naming a folder of single deals."""
    results = [results] if isinstance(results, ResultFrames) else list(results)
    for r in results:
        if not r.unit.is_match:
            raise InputError(f"{r.path}: single deals, not matches (its rules have target = 0); match statistics "
                             "need a run whose rules have target > 0")
    return results


def fair_share(res: ResultFrames, arm: str) -> float:
    """1/sides: a side's match win probability when sides are equal."""
    return 1.0 / sides_of(res.arm(arm)["rules"], res.players)


def _matches(res: ResultFrames) -> pl.LazyFrame:
    return with_cluster(res.matches, res.match_block)


def _deals(res: ResultFrames) -> pl.LazyFrame:
    return with_cluster(res.deals, res.match_block)


def wins_table(res: ResultFrames, by: Sequence[str] = ("arm", "policy")) -> pl.DataFrame:
    """Match win probability, mean final score of the side and deals per match, per group."""
    res = check_matches(res)[0]
    keys = list(by)
    lf = res.matches.with_columns(deal=pl.col("match"))
    q = {"won": pl.col("won"), "score": pl.col("score"), "deals": pl.col("deals")}
    pairs = [p for y in q for p in ratio_pairs(y, ROWS)]
    df = cluster_moments(lf, keys, q, pairs, res.match_block, count_deals=True)
    m = Moments(df)
    rows = m.S(ROWS)
    win, wse = m.ratio("won")
    wlo, whi = wilson_clustered(win, wse, m.G)
    score, sse = m.ratio("score")
    slo, shi = t_interval(score, sse, m.G - 1)
    deals, dse = m.ratio("deals")
    dlo, dhi = t_interval(deals, dse, m.G - 1)
    fair = [fair_share(res, a) for a in df["arm"]] if "arm" in keys else \
        [fair_share(res, res.arms[0]["name"])] * df.height
    return arm_sorted(df.select(keys).with_columns(
        matches=df["deals"], win_rate=win, win_rate_lo=wlo, win_rate_hi=whi, fair_share=pl.Series(fair),
        final_score=score, final_score_lo=slo, final_score_hi=shi, deals_per_match=deals,
        deals_per_match_lo=dlo, deals_per_match_hi=dhi).with_columns(rows=pl.Series(rows.astype(np.int64))), [res])


def length_table(res: ResultFrames) -> pl.DataFrame:
    """Per arm: deals per match (mean with interval, sd, quantiles, most) and unfinished matches."""
    res = check_matches(res)[0]
    lf = res.matches.filter(pl.col("seat") == 0).with_columns(deal=pl.col("match"))
    q = {"deals": pl.col("deals"), "deals2": pl.col("deals").cast(pl.Float64) ** 2, "unfinished": pl.col("unfinished")}
    pairs = [*ratio_pairs("deals", ROWS), *ratio_pairs("unfinished", ROWS), ("deals2", "deals2"), ("deals2", "deals"),
             ("deals2", ROWS)]
    df = cluster_moments(lf, ["arm"], q, pairs, res.match_block)
    m = Moments(df)
    mean, se = m.ratio("deals")
    lo, hi = t_interval(mean, se, m.G - 1)
    un, use = m.ratio("unfinished")
    ulo, uhi = wilson_clustered(un, use, m.G)
    quant = lf.group_by("arm").agg(
        *[pl.col("deals").quantile(x, "nearest").alias(f"p{int(100 * x)}") for x in (0.1, 0.5, 0.9)],
        most=pl.col("deals").max()).collect()
    out = df.select("arm").with_columns(
        matches=pl.Series([res.n_matches] * df.height), deals_per_match=mean, deals_per_match_lo=lo,
        deals_per_match_hi=hi, sd=m.sd("deals", "deals2")[0], unfinished=un, unfinished_lo=ulo, unfinished_hi=uhi)
    return arm_sorted(out.join(quant, on="arm", how="left").select(
        "arm", "matches", "deals_per_match", "deals_per_match_lo", "deals_per_match_hi", "sd", "p10", "p50", "p90",
        "most", "unfinished", "unfinished_lo", "unfinished_hi"), [res])


def _led_sums(res: ResultFrames) -> Matrix:
    """Cluster sums per (arm, policy): match wins of the sides that led the first deal and of the others,
    and deal wins of the sides that led the deal (the first deal; every deal) and of the others."""
    led, won = pl.col("side_led_first"), pl.col("won")
    m = sums(_matches(res), ["arm", "policy"], {"m_lw": won * led, "m_l": led, "m_ow": won * ~led, "m_o": ~led})
    dl, w, first = pl.col("side_led"), pl.col("win"), pl.col("hand") == 0
    d = sums(_deals(res), ["arm", "policy"], {
        "f_lw": w * (dl & first), "f_l": dl & first, "f_ow": w * (~dl & first), "f_o": ~dl & first,
        "d_lw": w * dl, "d_l": dl, "d_ow": w * ~dl, "d_o": ~dl})
    return Matrix.of([m, d], ["arm", "policy"])


def lead_table(res: ResultFrames) -> pl.DataFrame:
    """The value of the first lead over a match, per arm and policy (see the module doc)."""
    res = check_matches(res)[0]
    M = _led_sums(res)
    rows = []
    for lv in M.levels:
        at = lambda n: M.pick(n, lambda x: x == lv)  # noqa: E731
        led_m, oth_m = ratio(at("m_lw"), at("m_l")), ratio(at("m_ow"), at("m_o"))
        row = {"arm": lv[0], "policy": lv[1], "matches": res.n_matches}
        row |= share_cols("win_if_led", led_m, M.G) | share_cols("win_if_not", oth_m, M.G)
        row |= diff_cols("match_lead_value", led_m - oth_m, M.G)
        row |= diff_cols("first_deal_lead_value", ratio(at("f_lw"), at("f_l")) - ratio(at("f_ow"), at("f_o")), M.G)
        row |= diff_cols("deal_lead_value", ratio(at("d_lw"), at("d_l")) - ratio(at("d_ow"), at("d_o")), M.G)
        rows.append(row)
    return _frame(res, rows)


def _edge_sums(res: ResultFrames, keys: list[str]) -> Matrix:
    m = sums(_matches(res), keys, {"m_won": pl.col("won"), "m_n": ONE})
    d = sums(_deals(res), keys, {"d_win": pl.col("win"), "d_pts": pl.col("points"), "d_n": ONE})
    return Matrix.of([m, d], keys)


def edges_table(res: ResultFrames) -> pl.DataFrame:
    """Within each arm whose seats play different policies: each policy's edge per deal and per match
    over the fair share, and the difference of the two (paired: the same matches)."""
    res = check_matches(res)[0]
    mixed = [a["name"] for a in res.arms if len(set(a["policies"])) > 1]
    if not mixed:
        return pl.DataFrame()
    M = _edge_sums(res, ["arm", "policy"])
    rows = []
    for lv in M.levels:
        if lv[0] not in mixed:
            continue
        at = lambda n: M.pick(n, lambda x: x == lv)  # noqa: E731
        fair = fair_share(res, lv[0])
        deal, match = ratio(at("d_win"), at("d_n")).shift(fair), ratio(at("m_won"), at("m_n")).shift(fair)
        row = {"arm": lv[0], "policy": lv[1], "fair_share": fair}
        row |= diff_cols("deal_edge", deal, M.G) | diff_cols("match_edge", match, M.G)
        row |= diff_cols("match_minus_deal", match - deal, M.G)
        rows.append(row)
    return _frame(res, rows)


def baseline(res: ResultFrames, arm: str) -> str:
    """The arm that ``arm`` is compared with: the first arm with the same rules."""
    rules = res.arm(arm)["rules"]
    return next(a["name"] for a in res.arms if a["rules"] == rules)


def arms_table(res: ResultFrames) -> pl.DataFrame:
    """Each arm against its baseline, paired by match, for the players whose policy differs: the change in
    deal win rate, points per deal and match win rate."""
    res = check_matches(res)[0]
    pairs = [(a["name"], baseline(res, a["name"])) for a in res.arms if baseline(res, a["name"]) != a["name"]]
    if not pairs:
        return pl.DataFrame()
    M = _edge_sums(res, ["arm", "player"])
    rows = []
    for arm, base in pairs:
        pa_, pb = res.arm(arm)["policies"], res.arm(base)["policies"]
        for pol in dict.fromkeys(pa_):
            who = [p for p, q in enumerate(pa_) if q == pol and pb[p] != q]
            if not who:
                continue
            def est(name: str, n: str, a: str) -> "object":
                return ratio(M.pick(name, lambda x: x[0] == a and x[1] in who),
                             M.pick(n, lambda x: x[0] == a and x[1] in who))
            row = {"arm": arm, "baseline": base, "players": ",".join(map(str, who)), "policy": pol,
                   "baseline_policy": "/".join(dict.fromkeys(pb[p] for p in who))}
            row |= diff_cols("d_deal_win", est("d_win", "d_n", arm) - est("d_win", "d_n", base), M.G)
            row |= diff_cols("d_points", est("d_pts", "d_n", arm) - est("d_pts", "d_n", base), M.G)
            row |= diff_cols("d_match_win", est("m_won", "m_n", arm) - est("m_won", "m_n", base), M.G)
            rows.append(row)
    return _frame(res, rows)


def _frame(res: ResultFrames, rows: list[dict]) -> pl.DataFrame:
    """Rows in the manifest's arm order."""
    return arm_sorted(pl.DataFrame(rows).with_columns(pl.col(pl.Float64).fill_nan(None)), [res]) if rows \
        else pl.DataFrame()


# ---- the answer in words ------------------------------------------------------------------------------
def pct(row: dict, name: str, signed: bool = False) -> str:
    """``61.2% (95% CI 59.8-62.6%)`` (simdom.present: rounded to what the interval supports)."""
    return P.ci(row.get(name), row.get(f"{name}_lo"), row.get(f"{name}_hi"), pct=True, signed=signed)


def pp(row: dict, name: str) -> str:
    """A difference of shares: ``+9.3 percentage points (95% CI 8.6-9.9)``."""
    k = [None if row.get(n) is None else 100 * row[n] for n in (name, f"{name}_lo", f"{name}_hi")]
    return P.ci(*k, unit="percentage points", signed=True)


def num(row: dict, name: str, signed: bool = False, unit: str = "") -> str:
    return P.ci(row.get(name), row.get(f"{name}_lo"), row.get(f"{name}_hi"), unit=unit, signed=signed)


def answer(res: ResultFrames, wins: pl.DataFrame | None = None, length: pl.DataFrame | None = None,
           lead: pl.DataFrame | None = None) -> list[str]:
    """The headline of a match-mode folder in sentences: how long a match lasts, who wins it and what the
    first lead is worth. ``wins`` (by arm and policy), ``length``, ``lead``: the tables if computed."""
    res = check_matches(res)[0]
    out = []
    length = {r["arm"]: r for r in (length if length is not None else length_table(res)).iter_rows(named=True)}
    wins = wins if wins is not None else wins_table(res, ["arm", "policy"])
    lead = {(r["arm"], r["policy"]): r for r in (lead if lead is not None else lead_table(res)).iter_rows(named=True)}
    for arm in [a["name"] for a in res.arms]:
        rules = res.arm(arm)["rules"]
        ln = length[arm]
        head = (f"{arm}: a match to {rules['target']} ({rules['match_end']}, next lead {rules['next_lead']}"
                f"{', partners' if rules.get('teams') == 'partners' else ''}) lasts "
                f"{num(ln, 'deals_per_match', unit='deals')}")
        if ln["unfinished"]:
            head += f", {pct(ln, 'unfinished')} unfinished after {rules['max_deals']} deals"
        pols = wins.filter(pl.col("arm") == arm)
        if pols.height > 1:
            head += "; " + ", ".join(f"{r['policy']} wins {pct(r, 'win_rate')} of its matches"
                                     for r in pols.iter_rows(named=True))
        out.append(head + ".")
        for (a, pol), r in lead.items():
            if a != arm:
                continue
            who = f" for {pol}" if pols.height > 1 else ""
            out.append(f"  Leading the first deal is worth {pp(r, 'match_lead_value')} of match win "
                       f"rate{who} ({pct(r, 'win_if_led')} won when its side led, {pct(r, 'win_if_not')} when not); "
                       f"leading a deal is worth {pp(r, 'deal_lead_value')} of deal win rate.")
    return out

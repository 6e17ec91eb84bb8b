"""`simdom doubles`: the value of holding the first double in Threes.

* Sweep: arms that differ only in the focal player's ``hold:until=K`` policy, on the same deals.
  Each K is compared with the baseline arm (K=1, or plain greedy) deal by deal (paired).
* Any Threes results: the first-double bonus by move number, and the deal's outcome by who took it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import polars as pl

from simdom.stats.estimate.distribution import value_shares
from simdom.stats.inference import diff_test, holm, t_interval, wilson_clustered
from simdom.stats.read.folder import ResultFrames, ResultsError
from simdom.stats.estimate.moments import ROWS, Moments, cluster_moments, cluster_sums, influence, ratio_pairs, se_of, wide
from simdom.stats.tables.stats import arm_sorted

_HOLD = re.compile(r"^hold:until=(\d+|never)$")


@dataclass(frozen=True)
class Sweep:
    focal: int                 # policy-list index of the focal player
    arms: list[str]            # ordered by K, baseline first
    ks: list[str]              # "1", "5", ..., "never" ("greedy" for a plain greedy baseline)
    baseline: str


def _k_of(policy: str) -> str | None:
    if policy == "greedy":
        return "greedy"
    m = _HOLD.match(policy)
    return m.group(1) if m else None


def _k_order(k: str) -> float:
    return {"greedy": 0.5, "never": np.inf}.get(k, float(k) if k.isdigit() else np.nan)


def detect_sweep(res: ResultFrames) -> Sweep | None:
    """The double-timing sweep in ``res``, or None if its arms are not one."""
    arms = res.arms
    if len(arms) < 2 or len({len(a["policies"]) for a in arms}) != 1:
        return None
    rules = [{k: v for k, v in (a.get("rules") or {}).items()} for a in arms]
    if any(r != rules[0] for r in rules):
        return None
    n = len(arms[0]["policies"])
    differ = [i for i in range(n) if len({a["policies"][i] for a in arms}) > 1]
    if len(differ) != 1:
        return None
    f = differ[0]
    ks = [_k_of(a["policies"][f]) for a in arms]
    if None in ks or len(set(ks)) != len(ks):
        return None
    base = "1" if "1" in ks else "greedy" if "greedy" in ks else None
    if base is None:
        return None
    order = sorted(range(len(arms)), key=lambda i: (ks[i] != base, _k_order(ks[i])))
    return Sweep(f, [arms[i]["name"] for i in order], [ks[i] for i in order], arms[ks.index(base)]["name"])


def detect_families(res: ResultFrames) -> list[tuple[str, list[str]]]:
    """The double-timing sweeps of a study that varies the rules too (a [sweep] over a rule and a seat's
    hold:until=K): the arms grouped by their rules, each group a sweep of its own (:func:`detect_sweep`
    on it), labelled by the rule parameters in which the groups differ (``first_double_bonus=[[4, 4],
    ...]``); [] when there are fewer than two such groups, or any group of two or more arms is not one."""
    groups: dict[str, list[dict]] = {}
    for a in res.arms:
        groups.setdefault(repr(sorted((a.get("rules") or {}).items())), []).append(a)
    if len(groups) < 2:
        return []
    rules = [g[0].get("rules") or {} for g in groups.values()]
    keys = [k for k in rules[0] if len({repr(r.get(k)) for r in rules}) > 1]
    out = []
    for g, r in zip(groups.values(), rules):
        names = [a["name"] for a in g]
        if len(names) < 2 or detect_sweep(res.select(names)) is None:
            return []
        out.append((", ".join(f"{k}={_compact(r.get(k))}" for k in keys), names))
    return out


def _compact(v) -> str:
    import json
    return json.dumps(v, separators=(",", ":")) if isinstance(v, (list, dict)) else str(v)


def _require_threes(res: ResultFrames) -> list[int]:
    tiers = res.bonus_tiers()
    if not tiers:
        raise ResultsError(f"{res.path}: the rules of these results have no first-double bonus "
                           f"(presets: {', '.join(res.presets())}); `simdom doubles` needs Threes results")
    return tiers


def sweep_tables(res: ResultFrames, sweep: Sweep) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(per-K table, best-K table) for a double-timing sweep; differences are paired by deal."""
    tiers = _require_threes(res)
    lf = res.deals.filter(pl.col("player") == sweep.focal, pl.col("arm").is_in(sweep.arms))
    q = {"points": pl.col("points"), "win": pl.col("win"), "lost": pl.col("lost_first_double"),
         "bonus": pl.col("bonus"), "tier_0": pl.col("bonus") == 0, **{f"tier_{t}": pl.col("bonus") == t for t in tiers}}
    sums = cluster_sums(lf, ["arm"], q, res.block)
    if sums.is_empty():
        raise ResultsError(f"{res.path}: no rows for the focal player {sweep.focal}")
    n = wide(sums, "arm", ROWS, sweep.arms)
    G = n.shape[0]
    cols: dict[str, object] = {"arm": sweep.arms, "K": sweep.ks, "focal_player": [sweep.focal] * len(sweep.arms),
                               "policy": [res.arm(a)["policies"][sweep.focal] for a in sweep.arms],
                               "rows": n.sum(axis=0).astype(np.int64)}
    est = {}
    for name in ("points", "win"):
        r, z = influence(wide(sums, "arm", name, sweep.arms), n)
        se = se_of(z)
        est[name] = (r, z)
        label = "mean_points" if name == "points" else "win_rate"
        if name == "points":
            lo, hi = t_interval(r, se, G - 1)
        else:
            lo, hi = wilson_clustered(r, se, G, units=res.n_deals)
        cols |= {label: r, f"{label}_lo": lo, f"{label}_hi": hi}
        paired = z - z[:, [0]]
        d = r - r[0]
        dlo, dhi, p = diff_test(d, se_of(paired), G - 1)
        ulo, uhi = t_interval(d, np.sqrt(se**2 + se[0] ** 2), G - 1)
        for v in (dlo, dhi, p, ulo, uhi):
            v[0] = np.nan  # the baseline against itself: no comparison
        short = "points" if name == "points" else "win"
        cols |= {f"{short}_diff": d, f"{short}_diff_lo": dlo, f"{short}_diff_hi": dhi, f"{short}_diff_p": p,
                 f"{short}_diff_p_holm": holm(p), f"{short}_diff_unpaired_lo": ulo,
                 f"{short}_diff_unpaired_hi": uhi}
    for name, label in [("lost", "bonus_lost_share")] + [(f"tier_{t}", f"bonus_share_{t}") for t in [0] + tiers]:
        r, z = influence(wide(sums, "arm", name, sweep.arms), n)
        lo, hi = wilson_clustered(r, se_of(z), G, units=res.n_deals)  # every arm plays every deal
        label = label.replace("bonus_share_0", "bonus_share_none")
        cols |= {label: r, f"{label}_lo": lo, f"{label}_hi": hi}
    r, z = influence(wide(sums, "arm", "bonus", sweep.arms), n)
    cols["bonus_mean"] = r
    table = pl.DataFrame(cols, strict=False)
    # best K by the deals won (a deal is won, not averaged; then by points), against the runner-up, paired
    r, z = est["points"]
    rw, zw = est["win"]
    order = np.lexsort((-r, -rw))
    b, s = int(order[0]), int(order[1])
    d = r[b] - r[s]
    lo, hi, p = diff_test(d, se_of(z[:, [b]] - z[:, [s]]), G - 1)
    wlo, whi, wp = diff_test(rw[b] - rw[s], se_of(zw[:, [b]] - zw[:, [s]]), G - 1)
    best = pl.DataFrame({
        "best_arm": [sweep.arms[b]], "best_K": [sweep.ks[b]], "runner_up_arm": [sweep.arms[s]],
        "runner_up_K": [sweep.ks[s]], "points_diff": [d], "points_diff_lo": [float(lo[0])],
        "points_diff_hi": [float(hi[0])], "points_diff_p": [float(p[0])],
        "win_diff": [rw[b] - rw[s]], "win_diff_lo": [float(wlo[0])], "win_diff_hi": [float(whi[0])],
        "win_diff_p": [float(wp[0])], "significant": [bool(wlo[0] > 0)],
    })
    return table.with_columns(best=pl.col("arm") == sweep.arms[b]), best


def by_move_table(res: ResultFrames) -> pl.DataFrame:
    """Deal-plays by the move number of their first double: share (clustered by deal), bonus earned,
    taker's win rate. Rows in the scenario's arm order, then by move."""
    _require_threes(res)
    bonus_arms = [a["name"] for a in res.arms if (a.get("rules") or {}).get("first_double_bonus")]
    lf = res.deals.filter(pl.col("arm").is_in(bonus_arms))
    shares = value_shares(lf.filter(pl.col("turn") == 0), ["arm"], "first_double_move", res.block, step=1,
                          common_span=True) \
        .filter(pl.col("first_double_move").is_not_null())
    lf = lf.filter(pl.col("seat") == pl.col("first_double_seat"))
    q = {"bonus": pl.col("bonus"), "win": pl.col("win"), "points": pl.col("points")}
    pairs = [p for y in q for p in ratio_pairs(y, ROWS)]
    df = cluster_moments(lf, ["arm", "first_double_move"], q, pairs, res.block)
    m = Moments(df)
    win, wse = m.ratio("win")
    wlo, whi = wilson_clustered(win, wse, m.G)
    taker = df.select("arm", "first_double_move").with_columns(
        bonus=m.ratio("bonus")[0], taker_win_rate=win, taker_win_rate_lo=wlo, taker_win_rate_hi=whi)
    out = shares.join(taker, on=["arm", "first_double_move"], how="left").rename(
        {"first_double_move": "move", "rows": "deal_plays"})
    return arm_sorted(out.select("arm", "move", "deal_plays", "share", "share_lo", "share_hi", "bonus",
                                 "taker_win_rate", "taker_win_rate_lo", "taker_win_rate_hi"), [res])


def taker_table(res: ResultFrames) -> pl.DataFrame:
    """The deal's outcome by who took the first double (policy) and its bonus tier (arms with the bonus)."""
    _require_threes(res)
    bonus_arms = [a["name"] for a in res.arms if (a.get("rules") or {}).get("first_double_bonus")]
    lf = res.deals.filter(pl.col("arm").is_in(bonus_arms), pl.col("seat") == pl.col("first_double_seat")).with_columns(
        tier=pl.col("bonus").cast(pl.String))
    q = {"win": pl.col("win"), "points": pl.col("points")}
    pairs = [p for y in q for p in ratio_pairs(y, ROWS)]
    df = cluster_moments(lf, ["arm", "policy", "tier"], q, pairs, res.block)
    m = Moments(df)
    count = m.S(ROWS)
    win, wse = m.ratio("win")
    wlo, whi = wilson_clustered(win, wse, m.G)
    pts, pse = m.ratio("points")
    plo, phi = t_interval(pts, pse, m.G - 1)
    fair = 1.0 / res.players
    return df.select("arm", pl.col("policy").alias("taker_policy"), pl.col("tier").alias("bonus_tier")).with_columns(
        deal_plays=pl.Series(count.astype(np.int64)), taker_win_rate=win, taker_win_rate_lo=wlo,
        taker_win_rate_hi=whi, taker_edge=win - fair, taker_mean_points=pts, taker_mean_points_lo=plo,
        taker_mean_points_hi=phi)

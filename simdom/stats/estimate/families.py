"""Families of paired comparisons between the arms of one run, with Holm-adjusted p-values.

A run's arms play the same deals, so two arms compare deal by deal (paired). Two kinds of family:

* a **policy family** (a K sweep, a policy ladder): arms with the same rules that differ only in one
  player's policy (the focal player). Each arm is compared with the family's first arm (the
  scenario's baseline), for the focal player: mean points and win rate.
* a **rules family** (a preset sweep): arms with the same policies that differ in their rules. Each
  arm is compared with the first, separately for each policy (never pooled over policies).

Each family's p-values (per measure) are adjusted together by Holm's method.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import polars as pl

from simdom.stats.inference import diff_test, holm, t_interval, wilson_clustered
from simdom.stats.read.folder import ResultFrames
from simdom.stats.estimate.moments import ROWS, cluster_sums, influence, se_of, wide

ADJUSTMENT = "Holm"


@dataclass(frozen=True)
class Family:
    kind: str                  # "policy" or "rules"
    arms: list[str]            # baseline first, then the others in the scenario's order
    strata: list[tuple[str, str]]  # (label, key) the rows compared: ("player 0", "0") or ("greedy", "greedy")
    focal: int | None = None   # policy family: the focal player

    @property
    def baseline(self) -> str:
        return self.arms[0]


def _rules_key(arm: dict) -> str:
    return json.dumps(arm.get("rules") or {}, sort_keys=True)


def families(res: ResultFrames) -> list[Family]:
    """The policy families (same rules, one player's policy varies) and rules families (same
    policies, rules vary) among the arms, in the scenario's order."""
    out: list[Family] = []
    by_rules: dict[str, list[dict]] = {}
    for a in res.arms:
        by_rules.setdefault(_rules_key(a), []).append(a)
    for arms in by_rules.values():
        if len(arms) < 2:
            continue
        n = len(arms[0]["policies"])
        differ = [i for i in range(n) if len({a["policies"][i] for a in arms}) > 1]
        if len(differ) == 1:
            f = differ[0]
            out.append(Family("policy", [a["name"] for a in arms], [(f"player {f}", str(f))], f))
    by_pol: dict[tuple, list[dict]] = {}
    for a in res.arms:
        by_pol.setdefault(tuple(a["policies"]), []).append(a)
    for pols, arms in by_pol.items():
        if len(arms) >= 2 and len({_rules_key(a) for a in arms}) == len(arms):
            strata = [(p, p) for p in dict.fromkeys(pols)]
            out.append(Family("rules", [a["name"] for a in arms], strata))
    return out


def family_sums(res: ResultFrames) -> pl.DataFrame:
    """Per-cluster sums of points and wins by arm, player and policy: one pass over the rows serves every
    family of the folder."""
    return cluster_sums(res.deals, ["arm", "player", "policy"], {"points": pl.col("points"), "win": pl.col("win")},
                        res.block)


def paired_table(res: ResultFrames, fam: Family, sums: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per (stratum, arm): mean points and win rate with intervals, and the paired differences
    against the baseline arm with interval, p-value and the family's Holm-adjusted p-value.
    ``sums``: :func:`family_sums` of ``res``, when several families share it."""
    sums = family_sums(res) if sums is None else sums
    sums = sums.filter(pl.col("arm").is_in(fam.arms)).with_columns(
        _stratum=pl.col("player").cast(pl.String) if fam.kind == "policy" else pl.col("policy"))
    rows = []
    for label, key in fam.strata:
        s = sums.filter(pl.col("_stratum") == key)
        n = wide(s, "arm", ROWS, fam.arms)
        G = n.shape[0]
        cols: dict[str, object] = {}
        for name in ("points", "win"):
            r, z = influence(wide(s, "arm", name, fam.arms), n)
            se = se_of(z)
            lo, hi = t_interval(r, se, G - 1) if name == "points" else wilson_clustered(r, se, G)
            d = r - r[0]
            dlo, dhi, p = diff_test(d, se_of(z - z[:, [0]]), G - 1)
            p[0], dlo[0], dhi[0] = np.nan, np.nan, np.nan  # the baseline against itself: undefined
            short = "mean_points" if name == "points" else "win_rate"
            dname = "points_diff" if name == "points" else "win_diff"
            cols |= {short: r, f"{short}_lo": lo, f"{short}_hi": hi, dname: d, f"{dname}_lo": dlo,
                     f"{dname}_hi": dhi, f"{dname}_p": p}
        for j, arm in enumerate(fam.arms):
            pol = res.arm(arm)["policies"][fam.focal] if fam.kind == "policy" else key
            rows.append({"family": fam.kind, "baseline": fam.baseline, "stratum": label, "arm": arm,
                         "policy": pol, "rows": int(n[:, j].sum()),
                         **{k: float(v[j]) for k, v in cols.items()}})
    df = pl.DataFrame(rows)
    return df.with_columns(points_diff_p_holm=pl.Series(holm(df["points_diff_p"].to_numpy())),
                           win_diff_p_holm=pl.Series(holm(df["win_diff_p"].to_numpy())))

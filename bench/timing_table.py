"""The table of the `timing` policy in docs/doubles.md (issue 10), from the results of the shipped scenarios
scenarios/timing-{2,3,4}p-vs-{greedy,random,rollout}.toml:

    for f in scenarios/timing-*p-vs-*.toml; do simdom run $f; done
    .venv/bin/python bench/timing_table.py            # markdown, from results/timing-*

Per results folder, player 0 (greedy, timing or hold:until=K against the same opponents, every deal in
every rotation, the same deals in every arm): the paired differences in points per deal and in win rate
of timing against greedy, of the best hold:until=K (the K arm with the most points) against greedy, and
of timing against that K, with 95% intervals clustered by deal (the estimators of `simdom stats`).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import polars as pl

from simdom import present as P
from simdom.stats.inference import diff_test
from simdom.stats.estimate.families import family_sums
from simdom.stats.read.folder import open_frames
from simdom.stats.estimate.moments import ROWS, influence, se_of, wide

ROOT = Path(__file__).resolve().parent.parent


def folder_rows(path: Path) -> dict:
    res = open_frames(path)
    sums = family_sums(res).filter(pl.col("player") == 0)
    arms = res.arm_names
    n = wide(sums, "arm", ROWS, arms)
    G = n.shape[0]
    est = {m: influence(wide(sums, "arm", m, arms), n) for m in ("points", "win")}
    ks = [a for a in arms if a.startswith("K=")]
    best = max(ks, key=lambda a: est["points"][0][arms.index(a)])

    def diff(a: str, b: str, m: str) -> tuple[float, float, float]:
        r, z = est[m]
        i, j = arms.index(a), arms.index(b)
        d = r[i] - r[j]
        lo, hi, _ = diff_test(np.array([d]), se_of(z[:, [i]] - z[:, [j]]), G - 1)
        return float(d), float(lo[0]), float(hi[0])

    opp = res.arm("greedy")["policies"][1]
    return {"players": res.players, "opponents": opp, "deals": res.n_deals, "rotations": res.rotations,
            "best_k": best, "timing_vs_greedy": diff("timing", "greedy", "points"),
            "timing_vs_greedy_win": diff("timing", "greedy", "win"),
            "k_vs_greedy": diff(best, "greedy", "points"), "timing_vs_k": diff("timing", best, "points"),
            "timing_vs_k_win": diff("timing", best, "win")}


def bounds(path: Path) -> dict:
    """From a decisions folder's greedy arm (every seat greedy, rollouts on): per player and deal, the
    one-step gain timing's rule predicts (the hold_gain of the decisions where it holds) in points and
    win share, and an upper bound for any hold rule: the mean of max(0, hold_gain) (by Jensen's
    inequality no smaller, in expectation, than what an oracle knowing each position's exact value could
    gain by deviating once from greedy; the rollouts' noise only inflates it). 95% t intervals over deals."""
    from simdom.policies import parse_policy
    from simdom.stats.inference import t_interval

    res = open_frames(path)
    P, nd = res.players, res.n_deals
    support, lead, wait, upto = parse_policy("timing").values
    d = res.decisions.filter(pl.col("arm") == "greedy").collect()
    jump = pl.col("tier_later") - pl.col("tier_now")
    rule = (pl.col("double_support") <= support) & (
        ((pl.col("move") == 1) & (pl.col("doubles_held") + P <= lead)) | ((pl.col("move") > 1) & (P <= upto) & (jump >= wait)))
    per = d.with_columns(ub=pl.col("hold_gain").clip(lower_bound=0), rg=pl.when(rule).then(pl.col("hold_gain")).otherwise(0.0),
                         rw=pl.when(rule).then(pl.col("hold_gain_win")).otherwise(0.0)).group_by("deal").agg(
        pl.col("ub", "rg", "rw").sum())
    out = {"players": P, "deals": nd}
    for c in ("ub", "rg", "rw"):
        x = np.zeros(nd)
        x[per["deal"].to_numpy()] = per[c].to_numpy() / P
        m, se = x.mean(), x.std(ddof=1) / np.sqrt(nd)
        lo, hi = t_interval(np.array([m]), np.array([se]), nd - 1)
        out[c] = (float(m), float(lo[0]), float(hi[0]))
    return out


def cell(t: tuple[float, float, float], pct: bool = False) -> str:
    if t[0] == 0 and not (t[2] - t[1] > 1e-9):
        return "0 (the same moves)"
    k = 100 if pct else 1
    return P.est(t[0] * k, t[1] * k, t[2] * k, signed=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path, help="results folders (default: results/timing-*)")
    args = ap.parse_args()
    decisions = sorted((ROOT / "results").glob("decisions-*p"))
    if decisions and not args.folders:
        print("| players | decisions run | timing's rule, predicted: points | win rate, pp | any hold rule: at most |")
        print("| --- | --- | --- | --- | --- |")
        for b in sorted((bounds(f) for f in decisions), key=lambda b: b["players"]):
            print(f"| {b['players']} | {b['deals']:,} deals | {cell(b['rg'])} | {cell(b['rw'], True)} | "
                  f"{P.est(*b['ub'])} |")
        print()
    folders = args.folders or sorted((ROOT / "results").glob("timing-*p-vs-*"))
    print("| players | opponents | deals x rotations | timing vs greedy: points | win rate, pp | best K | "
          "best K vs greedy: points | timing vs best K: points | win rate, pp |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = [folder_rows(f) for f in folders]
    order = {"greedy": 0, "random": 1}
    for r in sorted(rows, key=lambda r: (r["players"], order.get(r["opponents"], 2))):
        print(f"| {r['players']} | {r['opponents']} | {r['deals']:,} x {r['rotations']} | "
              f"{cell(r['timing_vs_greedy'])} | {cell(r['timing_vs_greedy_win'], True)} | "
              f"{r['best_k'].replace('K=', '')} | {cell(r['k_vs_greedy'])} | {cell(r['timing_vs_k'])} | "
              f"{cell(r['timing_vs_k_win'], True)} |")


if __name__ == "__main__":
    main()

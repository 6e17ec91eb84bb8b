"""One policy against another in balanced tables: per results folder and arm, each policy's mean points per
deal, their paired difference and the strong policy's win share minus the fair share (docs/policies.md,
"How strong is expert").

    simdom run scenarios/expert-vs-search-3p.toml && simdom run scenarios/expert-vs-search-4p.toml
    .venv/bin/python bench/expert_tables.py results/expert-vs-search-3p results/expert-vs-search-4p

Reads folders written by `simdom run` whose arms hold two policies (the strong one: the first policy whose
text starts with ``--strong``, default ``expert``). Per deal, each policy's points and win share are
averaged over its seats and the rotations (with ``rotation = "all"``: every arrangement of the seats), so
the deal is the cluster; the difference strong minus other is paired on the same deals and seatings. Means
with Student t 95% intervals over deals; p-values two-sided, Holm-adjusted across every test printed (the
points difference and the win share of every folder and arm). ``--json FILE`` writes the numbers.
"""
from __future__ import annotations

import argparse
import json
import sys

import numpy as np
import polars as pl
from scipy import stats

from simdom.stats.inference import holm
from simdom.stats.read.folder import open_frames


def interval(d: np.ndarray) -> dict:
    """Mean, Student t 95% interval and two-sided p-value (against 0) of per-deal values."""
    n = len(d)
    m = float(d.mean())
    se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("inf")
    t = stats.t.ppf(0.975, n - 1) if n > 1 else float("inf")
    p = float(2 * stats.t.sf(abs(m / se), n - 1)) if 0 < se < float("inf") else 1.0
    return {"value": m, "low": m - t * se, "high": m + t * se, "p": p}


def arm_rows(path: str, strong: str) -> list[dict]:
    res = open_frames(path)
    P = res.players
    out = []
    for arm in res.arm_names:
        pols = list(dict.fromkeys(res.arm(arm)["policies"]))
        a = next((p for p in pols if p.startswith(strong)), None)
        others = [p for p in pols if p != a]
        if a is None or len(others) != 1:
            raise SystemExit(f"{path}:{arm}: policies {pols}; allowed: two policies, one starting with {strong!r}")
        b = others[0]
        long = res.deals.filter(pl.col("arm") == arm).select("deal", "policy", "points", "win").collect()
        per = long.group_by("deal", "policy").agg(pl.col("points").mean(), pl.col("win").mean())
        wide = per.pivot(on="policy", index="deal", values=["points", "win"]).sort("deal")
        pa, pb = wide[f"points_{a}"].to_numpy(), wide[f"points_{b}"].to_numpy()
        wa = wide[f"win_{a}"].to_numpy()
        out.append({"folder": path, "arm": arm, "players": P, "rotations": res.rotations, "deals": len(pa),
                    "strong": a, "other": b,
                    "strong_points": interval(pa), "other_points": interval(pb),
                    "points_difference": interval(pa - pb), "strong_win_minus_fair": interval(wa - 1.0 / P)})
    return out


def fmt(e: dict, scale: float = 1.0, digits: int = 2) -> str:
    v, lo, hi = (e[k] * scale for k in ("value", "low", "high"))
    return f"{v:+.{digits}f} ({lo:+.{digits}f} to {hi:+.{digits}f})"


def mean(e: dict) -> str:
    return f"{e['value']:.2f} ({e['low']:.2f}-{e['high']:.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--strong", default="expert", help="the strong policy's text starts with this")
    ap.add_argument("--json", help="write the numbers to this file")
    args = ap.parse_args()
    rows = [r for f in args.folders for r in arm_rows(f, args.strong)]
    p = np.array([r[k]["p"] for r in rows for k in ("points_difference", "strong_win_minus_fair")])
    adj = holm(p)
    for i, r in enumerate(rows):
        r["points_difference"]["p_holm"] = float(adj[2 * i])
        r["strong_win_minus_fair"]["p_holm"] = float(adj[2 * i + 1])
    above = [f"{r['arm']} {r['players']}p" for r in rows
             if r["points_difference"]["p_holm"] < 0.05 and r["points_difference"]["value"] > 0]
    below = [f"{r['arm']} {r['players']}p" for r in rows
             if r["points_difference"]["p_holm"] < 0.05 and r["points_difference"]["value"] < 0]
    print(f"{args.strong} scores significantly more points per deal than the other policy in "
          f"{len(above)} of {len(rows)} settings ({', '.join(above) or 'none'}) and significantly fewer in "
          f"{len(below)} ({', '.join(below) or 'none'}); Holm-adjusted over {len(p)} tests.")
    print()
    print("| setting | deals x seatings | strong: points | other: points | difference (p Holm) "
          "| strong's win share - fair, pp (p Holm) |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        d, w = r["points_difference"], r["strong_win_minus_fair"]
        print(f"| {r['arm']}, {r['players']} players | {r['deals']} x {r['rotations']} "
              f"| {mean(r['strong_points'])} | {mean(r['other_points'])} "
              f"| {fmt(d)} ({d['p_holm']:.2g}) | {fmt(w, 100, 1)} ({w['p_holm']:.2g}) |")
    print(f"\nstrong: {rows[0]['strong']}; other: {rows[0]['other']}" if rows else "")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())

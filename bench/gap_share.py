"""The share of the greedy-to-clairvoyant gap a policy closes (docs/policies.md, "How strong is expert").

    .venv/bin/python bench/gap_share.py -r threes -n 2 --deals 400 --seed 60606 \
        expert search:worlds=256,model=greedy,depth=1,own=defensive,win=40 rollout:samples=128

Each policy P, and the clairvoyant player (the exact best reply to greedy, `clairvoyant`), sits in each
seat in turn against greedy in every other seat, on the same deals. Per deal, P's margin (its points
minus the best other seat's) is averaged over the seatings; greedy against greedy has margin 0 in
expectation, so the gap is the clairvoyant's mean margin C and P closes the share mean(P) / C. Its 95%
interval is the delta method's on the ratio of two means of paired per-deal values (the deal is the
cluster; the covariance of P and C over deals is used).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from scipy import stats

from expert_paired import interval  # the deal as the cluster: mean and Student t 95% interval (bench/)


def chunk(args: tuple) -> np.ndarray:
    """margin[n] of policy p against greedy per deal, averaged over the seatings."""
    rules_name, players, p, seed, d0, n = args
    from simdom.engine.api import simulate_deals as simulate
    from simdom.rules import preset
    rules = preset(rules_name, players=players)
    margin = np.zeros(n)
    for k in range(players):
        pols = ["greedy"] * players
        pols[k] = p
        pts = simulate(rules, pols, seed, d0, n).seats["points"].astype(np.float64)
        margin += (pts[:, k] - np.delete(pts, k, axis=1).max(axis=1)) / players
    return margin


def ratio(p: np.ndarray, c: np.ndarray) -> tuple[float, float, float]:
    """mean(p) / mean(c) and the delta method's 95% interval (paired over deals)."""
    n = len(p)
    mp, mc = p.mean(), c.mean()
    r = mp / mc
    cov = np.cov(p, c, ddof=1) / n
    var = (cov[0, 0] - 2 * r * cov[0, 1] + r * r * cov[1, 1]) / (mc * mc)
    h = stats.t.ppf(0.975, n - 1) * np.sqrt(max(var, 0.0))
    return r, r - h, r + h


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("policies", nargs="+")
    ap.add_argument("-r", "--rules", default="threes")
    ap.add_argument("-n", "--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=60606)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=25)
    ap.add_argument("--json", default=None)
    o = ap.parse_args()
    t0 = time.perf_counter()
    margins = {}
    with ProcessPoolExecutor(o.jobs) as ex:
        for p in ["clairvoyant"] + o.policies:
            tasks = [(o.rules, o.players, p, o.seed, d0, min(o.chunk, o.deals - d0))
                     for d0 in range(0, o.deals, o.chunk)]
            margins[p] = np.concatenate(list(ex.map(chunk, tasks)))
    c = margins["clairvoyant"]
    rows = []
    for p in o.policies:
        r, lo, hi = ratio(margins[p], c)
        rows.append({"policy": p, "margin": list(interval(margins[p])[:3]), "share": [r, lo, hi]})
    best = max(rows, key=lambda x: x["share"][0])
    cm, clo, chi, _ = interval(c)
    print(f"{best['policy']} closes {100 * best['share'][0]:.0f}% ({100 * best['share'][1]:.0f}-"
          f"{100 * best['share'][2]:.0f}%) of the gap between greedy and the clairvoyant player "
          f"({o.rules}, {o.players} players, {len(c)} deals x {o.players} seatings, seed {o.seed}, "
          f"{time.perf_counter() - t0:.0f} s)")
    print(f"  clairvoyant's margin over greedy: {cm:+.2f} ({clo:+.2f} to {chi:+.2f})")
    for x in rows:
        m, s = x["margin"], x["share"]
        print(f"  {x['policy']}: margin {m[0]:+.2f} ({m[1]:+.2f} to {m[2]:+.2f}), share of the gap "
              f"{100 * s[0]:.0f}% ({100 * s[1]:.0f}-{100 * s[2]:.0f}%)")
    if o.json:
        with open(o.json, "w") as f:
            json.dump({"rules": o.rules, "players": o.players, "deals": len(c), "seed": o.seed,
                       "clairvoyant": [cm, clo, chi], "policies": rows}, f)


if __name__ == "__main__":
    sys.exit(main())

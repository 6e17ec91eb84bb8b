"""Policy A against policy B on the same deals, every seat in turn (docs/policies.md, "How strong is expert").

    .venv/bin/python bench/expert_paired.py -r threes -n 2 -a expert -b search:worlds=256,model=greedy,depth=1,own=defensive,win=40 \
        --deals 3000 --seed 404 --jobs 2

Each deal is played once per seating: A in seat k and B in every other seat, k = 0 .. players - 1 (with
2 players: both seatings, head to head; with one A among identical Bs these rotations are every
arrangement of the table). Per deal, A's margin (its points minus the best other seat's), its win share
(1/k of a k-way tie at the top) and, with 3 or 4 players, its points minus the other seats' mean (0 in
expectation when A plays as B) are averaged over the seatings; the deal is the cluster: the mean and a
Student t 95% interval over deals. ``deals_won_share`` in the JSON: the share of deals whose average
win share is above 1/2 (a half for exactly 1/2).
Prints one answer line per measure; ``--json`` writes the numbers.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from scipy import stats


def chunk(args: tuple) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """(margin[n], win[n]) of A per deal averaged over the seatings, seconds spent, and A's points minus
    the other seats' mean (0 in expectation when A plays as B)."""
    rules_name, players, a, b, seed, d0, n = args
    from simdom.engine.api import simulate_deals
    from simdom.rules import preset
    rules = preset(rules_name, players=players)
    t0 = time.perf_counter()
    margin = np.zeros(n)
    win = np.zeros(n)
    diff = np.zeros(n)
    for k in range(players):
        pols = [b] * players
        pols[k] = a
        bt = simulate_deals(rules, pols, seed, d0, n)
        pts = bt.seats["points"].astype(np.float64)
        others = np.delete(pts, k, axis=1).max(axis=1)
        margin += (pts[:, k] - others) / players
        diff += (pts[:, k] - np.delete(pts, k, axis=1).mean(axis=1)) / players
        win += bt.win()[:, k] / players
    return margin, win, time.perf_counter() - t0, diff


def interval(d: np.ndarray) -> tuple[float, float, float, float]:
    n = len(d)
    m = d.mean()
    se = d.std(ddof=1) / np.sqrt(n)
    t = stats.t.ppf(0.975, n - 1)
    p = 2 * stats.t.sf(abs(m / se), n - 1) if se > 0 else 1.0
    return m, m - t * se, m + t * se, p


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-r", "--rules", default="threes")
    ap.add_argument("-n", "--players", type=int, default=2)
    ap.add_argument("-a", required=True)
    ap.add_argument("-b", required=True)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=404)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=25)
    ap.add_argument("--json", default=None)
    o = ap.parse_args()
    tasks = [(o.rules, o.players, o.a, o.b, o.seed, d0, min(o.chunk, o.deals - d0)) for d0 in range(0, o.deals, o.chunk)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(o.jobs) as ex:
        res = list(ex.map(chunk, tasks))
    margin = np.concatenate([r[0] for r in res])
    win = np.concatenate([r[1] for r in res])
    diff = np.concatenate([r[3] for r in res])
    dm, dl, dh, dp = interval(diff)
    mm, ml, mh, mp = interval(margin)
    wm, wl, wh, wp = interval(win)
    won = (win > 0.5).astype(float) + 0.5 * (win == 0.5)
    print(f"{o.a} vs {o.b}, {o.rules} {o.players}p, {len(margin)} deals x {o.players} seatings, seed {o.seed}, "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"  margin (A minus best other): {mm:+.2f} (95% CI {ml:+.2f} to {mh:+.2f}), p = {mp:.2g}")
    if o.players > 2:
        print(f"  points of A minus the others' mean: {dm:+.2f} (95% CI {dl:+.2f} to {dh:+.2f}), p = {dp:.2g}")
    print(f"  win share of A: {100 * wm:.1f}% (95% CI {100 * wl:.1f} to {100 * wh:.1f}), p(= 1/{o.players}) = "
          f"{2 * stats.t.sf(abs((wm - 1 / o.players) / (win.std(ddof=1) / np.sqrt(len(win)))), len(win) - 1):.2g}")
    if o.json:
        with open(o.json, "w") as f:
            json.dump({"a": o.a, "b": o.b, "rules": o.rules, "players": o.players, "deals": len(margin),
                       "seed": o.seed, "margin": [mm, ml, mh, mp], "win": [wm, wl, wh],
                       "points_vs_others": [dm, dl, dh, dp],
                       "deals_won_share": float(won.mean())}, f)


if __name__ == "__main__":
    sys.exit(main())

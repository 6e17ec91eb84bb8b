"""The policy table of docs/policies.md, from the shipped scenario (scenarios/policies.toml) played in one process.

Each arm of the scenario puts one policy (player 0) against greedy players; with rotation, every deal
is played once with player 0 in each seat, exactly as `simdom run` plays it (seat s holds player
(s + r) % n in rotation r), on the same deals for every arm (common random numbers). Per arm: player
0's mean points and win rate (a tie for the top shares the win), the rotations of a deal averaged
into one observation, with 95% intervals (Student t; Wilson on the design-effect sample size for the
win rate, as `simdom stats`), and the paired differences against the all-greedy arm of the same rules
on the same deals. The last column is the speed of the arm's deals (one core, this machine).

    .venv/bin/python bench/policy_table.py                      # the docs table (markdown)
    .venv/bin/python bench/policy_table.py --deals 500          # a quick look
    simdom run scenarios/policies.toml && simdom stats results/policies --by arm,policy   # the same numbers
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from simdom.engine.api import simulate_deals
from simdom.run.scenario import load
from simdom.stats.inference import mean_ci, paired_diff_ci, wilson_clustered

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "policies.toml"


def player0(arm, players: int, rotations: int, seed: int, deals: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Player 0's points and win share per deal (rotations averaged), and the seconds it took."""
    pts, win = np.zeros(deals), np.zeros(deals)
    simulate_deals(arm.rules, list(arm.policies), seed, n_deals=1)  # compile or load the kernel before the clock
    t0 = time.perf_counter()
    for r in range(rotations):
        pols = [arm.policies[(s + r) % players] for s in range(players)]
        b = simulate_deals(arm.rules, pols, seed, n_deals=deals)
        seat = (-r) % players
        pts += b.column("points")[:, seat]
        win += b.win()[:, seat]
    return pts / rotations, win / rotations, time.perf_counter() - t0


def table(scenario_path: Path, deals: int | None = None) -> tuple[list[dict], object]:
    sc = load(scenario_path)
    n = deals or sc.deals
    runs = {a.name: player0(a, sc.players, sc.rotations, sc.seed, n) for a in sc.arms}
    rows = []
    for a in sc.arms:
        base = next(b for b in sc.arms if b.rules == a.rules and set(b.policies) == {"greedy"})
        pts, win, secs = runs[a.name]
        bpts, bwin, _ = runs[base.name]
        m, lo, hi = mean_ci(pts)
        p = float(win.mean())
        wlo, whi = wilson_clustered(p, win.std(ddof=1) / np.sqrt(n), n * sc.rotations)
        row = dict(game=a.preset, arm=a.name, policy=a.policies[0], deals=n * sc.rotations, points=(m, lo, hi),
                   win=(p, float(wlo), float(whi)), rate=n * sc.rotations / secs, base=base.name)
        if a is not base:
            row["d_points"] = paired_diff_ci(pts, bpts)
            row["d_win"] = paired_diff_ci(win, bwin)
        rows.append(row)
    return rows, sc


def markdown(rows: list[dict]) -> str:
    out = ["| game | player 0 (vs 3 greedy) | mean points [95% CI] | win rate [95% CI] "
           "| points vs greedy [95% CI] | win rate vs greedy [95% CI] | deals/s |",
           "| --- | --- | --- | --- | --- | --- | ---: |"]
    for r in rows:
        m, lo, hi = r["points"]
        w, wlo, whi = r["win"]
        if "d_points" in r:
            d, dlo, dhi, _ = r["d_points"]
            e, elo, ehi, _ = r["d_win"]
            vs = f"{d:+.2f} [{dlo:+.2f}, {dhi:+.2f}] | {e:+.3f} [{elo:+.3f}, {ehi:+.3f}]"
        else:
            vs = "(baseline) | (baseline)"
        out.append(f"| {r['game']} | `{r['policy']}` | {m:.2f} [{lo:.2f}, {hi:.2f}] "
                   f"| {w:.3f} [{wlo:.3f}, {whi:.3f}] | {vs} | {r['rate']:,.0f} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?", default=str(SCENARIO), help="scenario file (default: policies.toml)")
    ap.add_argument("--deals", type=int, default=None, help="deals (default: the scenario's)")
    a = ap.parse_args()
    t0 = time.perf_counter()
    rows, sc = table(Path(a.scenario), a.deals)
    print(markdown(rows))
    print(f"\n{sc.players} players, seed {sc.seed}, {rows[0]['deals'] // sc.rotations} deals x {sc.rotations} "
          f"rotations per arm; {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()

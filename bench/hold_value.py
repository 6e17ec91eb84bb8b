"""What the option to hold the first double is worth to a strong player: docs/doubles.md's table, each row
`bench/expert_paired.py -r threes -n P -a POLICY -b POLICY:hold=never`, with Holm-adjusted p-values across
the table (docs/doubles.md, "What the option to hold is worth to a strong player").

    .venv/bin/python bench/hold_value.py --seed 40402 --jobs 2

Rows: expert with 2, 3, 4 players on 600, 240, 160 deals, search on 1,000, 500, 400 (``--deals N``: N
deals in every row instead). Each deal is played in every seating of one POLICY among POLICY:hold=never
players (bench/expert_paired.py: with one such player among identical others the rotations are every
arrangement); the deal is the cluster. The measure is the margin over the other seat with 2 players,
with 3 and 4 the points minus the other seats' mean; the win share is against the fair share 1/players.
p-values: two-sided Student t over deals; p (Holm): adjusted over the family of every test of the table
(the points and the win share of every row, 12 tests).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expert_paired import chunk, interval  # noqa: E402

from simdom.stats.inference import holm  # noqa: E402

SEARCH = "search:worlds=256,model=greedy,depth=1,own=defensive,win=40"
ROWS = [("expert", "expert", 2, 600), ("expert", "expert", 3, 240), ("expert", "expert", 4, 160),
        ("search", SEARCH, 2, 1000), ("search", SEARCH, 3, 500), ("search", SEARCH, 4, 400)]


def row(ex: ProcessPoolExecutor, policy: str, players: int, deals: int, seed: int, size: int) -> dict:
    b = policy + (",hold=never" if ":" in policy else ":hold=never")
    tasks = [("threes", players, policy, b, seed, d0, min(size, deals - d0)) for d0 in range(0, deals, size)]
    res = list(ex.map(chunk, tasks))
    margin, win, diff = (np.concatenate([r[k] for r in res]) for k in (0, 1, 3))
    pts = margin if players == 2 else diff
    m, lo, hi, p = interval(pts)
    fair = 1.0 / players
    wm, wl, wh, _ = interval(win)
    se = win.std(ddof=1) / np.sqrt(len(win))
    wp = float(2 * stats.t.sf(abs((wm - fair) / se), len(win) - 1)) if se > 0 else 1.0
    return {"players": players, "deals": len(pts), "points": [m, lo, hi, p], "win": [wm, wl, wh, wp],
            "fair": fair}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=40402)
    ap.add_argument("--deals", type=int, default=None, help="deals in every row (default: the table's)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=25)
    ap.add_argument("--json", default=None)
    o = ap.parse_args()
    t0 = time.perf_counter()
    out = []
    with ProcessPoolExecutor(o.jobs) as ex:
        for name, policy, players, deals in ROWS:
            out.append({"player": name, "policy": policy,
                        **row(ex, policy, players, o.deals or deals, o.seed, o.chunk)})
    adj = holm(np.array([r[k][3] for r in out for k in ("points", "win")]))
    for i, r in enumerate(out):
        r["points_p_holm"], r["win_p_holm"] = float(adj[2 * i]), float(adj[2 * i + 1])
    sig = [f"{r['player']} {r['players']}p" for r in out if min(r["points_p_holm"], r["win_p_holm"]) < 0.05]
    print(f"The option to hold differs from hold=never after Holm's adjustment over {len(adj)} tests in "
          f"{len(sig)} of {len(out)} rows ({', '.join(sig) or 'none'}); seed {o.seed}, "
          f"{time.perf_counter() - t0:.0f} s.\n")
    print("| player | players | deals | points | p (Holm) | win share (fair share) | p (Holm) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in out:
        m, lo, hi, p = r["points"]
        wm, wl, wh, wp = r["win"]
        print(f"| `{r['player']}` | {r['players']} | {r['deals']:,} | {m:+.2f} ({lo:.2f} to {hi:.2f}) "
              f"| {p:.2g} ({r['points_p_holm']:.2g}) | {100 * wm:.1f}% ({100 * wl:.1f}-{100 * wh:.1f}; "
              f"{100 * r['fair']:.1f}%) | {wp:.2g} ({r['win_p_holm']:.2g}) |")
    if o.json:
        Path(o.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    sys.exit(main())

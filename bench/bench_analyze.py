"""Speed of `simdom analyze`'s rollouts on one core: playouts to the end of the deal per second.

Positions: move 1 (the lead, so every playout is a whole deal: the slowest case) and move 5 of deals
0, 1, 2, ... of threes, 4 players, seed 1 (played by greedy), and the seed game's move 10. Each
position's legal moves are rolled out in fresh re-deals (continuation greedy) for about ``--seconds``
in total after a warm-up (compilation excluded). A *rollout* here is one playout: one move played out
in one world, as the target of issue 10 counts them (>= 100,000 per second per core, threes, 4 players).

    .venv/bin/python bench/bench_analyze.py [--seconds 3]

Prints a readable line and a JSON line.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from simdom.analyze.position import from_script, from_seed
from simdom.engine.analysis import MoveRollouts
from simdom.rules import preset

ROOT = Path(__file__).resolve().parents[1]
CHUNK = 2000


def rate(positions, seconds: float) -> tuple[float, int, float]:
    """(playouts per second, playouts, seconds) over the positions, round-robin."""
    runners = [MoveRollouts(p.state, p.moves, "greedy", seed=1) for p in positions]
    for r in runners:
        r.run(0, 10)  # compiled (or loaded from numba's cache) before the clock starts
    done, start, t0 = 0, 0, time.perf_counter()
    while True:
        for r in runners:
            r.run(start, CHUNK)
            done += CHUNK * len(r.moves)
        start += CHUNK
        el = time.perf_counter() - t0
        if el >= seconds:
            return done / el, done, el


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    rules = preset("threes", players=4)
    deals = [from_seed(rules, ["greedy"], 1, d) for d in range(8)]
    res = {}
    for label, move in (("move 1", 1), ("move 5", 5)):
        ps = [d.position(move) for d in deals]
        per_s, n, el = rate(ps, args.seconds)
        res[f"threes4/{label}"] = {"playouts_per_s": round(per_s), "playouts": n, "seconds": round(el, 2),
                                   "moves_per_position": round(sum(len(p.moves) for p in ps) / len(ps), 2)}
    seed = from_script(ROOT / "scenarios" / "seed-game.deal.toml").position(10)
    per_s, n, el = rate([seed], args.seconds)
    res["seed game/move 10"] = {"playouts_per_s": round(per_s), "playouts": n, "seconds": round(el, 2),
                                "moves_per_position": len(seed.moves)}
    for k, v in res.items():
        print(f"analyze rollouts, {k:18s} {v['playouts_per_s']:>12,} playouts/s (one core; target >= 100,000)")
    print(json.dumps(res))


if __name__ == "__main__":
    main()

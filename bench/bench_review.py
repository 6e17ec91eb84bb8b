"""Speed of `simdom review` at its defaults on one core (issue 19.5: a whole 4-player Threes deal in
under 10 seconds).

Deals 0 .. --deals-1 of threes, 4 players, seed 7, played by greedy (as `simdom trace -r threes -n 4
--seed 7` plays them), and the seed game (scenarios/seed-game.deal.toml), each reviewed with the
defaults of `simdom review` (4,000 rollouts per decision, 1,000 per chance event, greedy
continuation); CPU time of this process (the review is one thread), after a warm-up review that loads
the kernel.

    .venv/bin/python bench/bench_review.py [--deals 10]

Prints a readable line and a JSON line.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from simdom.analyze.commands import LUCK_ROLLOUTS, ROLLOUTS
from simdom.analyze.review import review
from simdom.api import load_deal

ROOT = Path(__file__).resolve().parents[1]


def seconds(deal) -> float:
    t0 = time.process_time()
    review(deal, then="greedy", seed=1, rollouts=ROLLOUTS, luck_rollouts=LUCK_ROLLOUTS)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10)
    args = ap.parse_args()
    seed_game = load_deal(ROOT / "scenarios" / "seed-game.deal.toml")
    review(seed_game, rollouts=4, luck_rollouts=4)  # load the kernel
    deals = [load_deal(rules="threes", players=4, deal=i, seed=7) for i in range(args.deals)]
    times = [seconds(d) for d in deals]
    res = {"seed_game_s": round(seconds(seed_game), 2), "deals": len(times),
           "placements": [len(d.plays) for d in deals], "median_s": round(statistics.median(times), 2),
           "max_s": round(max(times), 2), "rollouts": ROLLOUTS, "luck_rollouts": LUCK_ROLLOUTS}
    print(f"simdom review at the defaults, threes 4 players, one core: whole deals median {res['median_s']} s, "
          f"worst {res['max_s']} s over {res['deals']} deals (target < 10 s); the seed game {res['seed_game_s']} s")
    print(json.dumps(res))


if __name__ == "__main__":
    main()

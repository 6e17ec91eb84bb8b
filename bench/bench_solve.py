"""Speed of the exact solver (`simdom solve`) and of the search policy, one core.

Solver: whole double-six deals solved from the lead (every legal lead's exact margin under minimax),
deals 0 .. N-1 of seed 1, for threes and fives with 2 and 4 players: median and worst time and nodes
(targets: median <= 20 ms with 2 players, <= 200 ms with 4). Search: decisions per second of the
``search`` policy at its default budget (player 0, three greedy opponents; target >= 200), and of
other budgets (the speed side of the strength curve in docs/policies.md).

    .venv/bin/python bench/bench_solve.py [--deals 1000] [--search-deals 40]

Prints readable lines and a JSON line.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from simdom.engine.api import simulate
from simdom.engine.solver import Solver
from simdom.engine.state import DealState
from simdom.rules import preset

CASES = [("threes", 2), ("threes", 4), ("fives", 2), ("fives", 4)]


def solve_lead(name: str, players: int, deals: int) -> dict:
    rules = preset(name, players)
    solver = Solver(rules)
    solver.solve(DealState.dealt(rules, 1, 10**6))  # compile / load before the clock
    ms, nodes = [], []
    for d in range(deals):
        sol = solver.solve(DealState.dealt(rules, 1, d))
        ms.append(sol.seconds * 1000)
        nodes.append(sol.nodes)
    worst = max(range(deals), key=lambda i: ms[i])
    return {"deals": deals, "median_ms": round(statistics.median(ms), 2), "mean_ms": round(statistics.fmean(ms), 2),
            "p99_ms": round(sorted(ms)[int(0.99 * (deals - 1))], 1), "max_ms": round(ms[worst], 1),
            "worst_deal": worst, "median_nodes": int(statistics.median(nodes)), "max_nodes": max(nodes)}


def decisions_per_s(name: str, players: int, policy: str, deals: int) -> dict:
    rules = preset(name, players)
    pols = [policy] + ["greedy"] * (players - 1)
    simulate(rules, pols, 1, 10**6, 1)  # compile / load
    t0 = time.perf_counter()
    b = simulate(rules, pols, 1, 0, deals)
    dt = time.perf_counter() - t0
    # the search player's decisions: its placements (a forced single move costs nothing and is counted too)
    plays = int(b.seats["plays"][0].sum())
    return {"policy": policy, "deals": deals, "decisions": plays, "seconds": round(dt, 2),
            "decisions_per_s": round(plays / dt, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--search-deals", type=int, default=40)
    ap.add_argument("--budgets", default="search:worlds=4,search:worlds=8,search,search:worlds=32")
    args = ap.parse_args()
    res: dict = {"solve": {}, "search": {}}
    for name, n in CASES:
        r = res["solve"][f"{name}/{n}"] = solve_lead(name, n, args.deals)
        print(f"solve {name} {n} players from the lead, {r['deals']} deals: median {r['median_ms']} ms, "
              f"p99 {r['p99_ms']} ms, worst {r['max_ms']} ms (deal {r['worst_deal']}); nodes median "
              f"{r['median_nodes']:,}, worst {r['max_nodes']:,}", flush=True)
    for name, n in CASES:
        for pol in args.budgets.split(","):
            r = decisions_per_s(name, n, pol, args.search_deals)
            res["search"][f"{name}/{n}/{pol}"] = r
            print(f"{pol} {name} {n} players: {r['decisions_per_s']:,} decisions/s ({r['decisions']} in "
                  f"{r['seconds']} s)", flush=True)
    print(json.dumps(res))


if __name__ == "__main__":
    main()

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

from simdom.engine.api import simulate_deals
from simdom.engine.solver import SolveLimit, Solver
from simdom.engine.state import DealState
from simdom.rules import preset

#: the search policy's speed cases; the solver's add the issue's other 4-player games
SEARCH_CASES = [("threes", 2), ("threes", 4), ("fives", 2), ("fives", 4)]
CASES = SEARCH_CASES + [("muggins", 4), ("fives-and-threes", 4)]


def solve_lead(name: str, players: int, deals: int, limit: int, budget: float) -> dict:
    """Deals solved from the lead until ``deals`` or ``budget`` seconds; a deal not solved within
    ``limit`` positions counts as slower than every solved one (its time: the limit's)."""
    rules = preset(name, players)
    solver = Solver(rules)
    ms, nodes, unsolved = [], [], 0
    try:  # load the compiled solver before the clock
        solver.solve(DealState.dealt(rules, 1, 10**6), limit=1000)
    except SolveLimit:
        pass
    t_all = time.perf_counter()
    for d in range(deals):
        try:
            sol = solver.solve(DealState.dealt(rules, 1, d), limit=limit)
            ms.append(sol.seconds * 1000)
            nodes.append(sol.nodes)
        except SolveLimit:
            unsolved += 1
            ms.append(float("inf"))
            nodes.append(limit)
        if time.perf_counter() - t_all > budget:
            break
    n = len(ms)
    order = sorted(ms)
    worst = max(range(n), key=lambda i: ms[i])
    return {"deals": n, "unsolved_within_limit": unsolved, "limit": limit,
            "median_ms": round(order[n // 2], 2) if order[n // 2] != float("inf") else None,
            "p99_ms": round(order[int(0.99 * (n - 1))], 1) if order[int(0.99 * (n - 1))] != float("inf") else None,
            "max_ms": round(ms[worst], 1) if ms[worst] != float("inf") else None, "worst_deal": worst,
            "median_nodes": int(statistics.median(nodes)), "max_nodes": max(nodes)}


def decisions_per_s(name: str, players: int, policy: str, deals: int) -> dict:
    rules = preset(name, players)
    pols = [policy] + ["greedy"] * (players - 1)
    simulate_deals(rules, pols, 1, 10**6, 1)  # compile / load
    t0 = time.perf_counter()
    b = simulate_deals(rules, pols, 1, 0, deals)
    dt = time.perf_counter() - t0
    # the search player's decisions: its placements (a forced single move costs nothing and is counted too)
    plays = int(b.seats["plays"][:, 0].sum())
    return {"policy": policy, "deals": deals, "decisions": plays, "seconds": round(dt, 2),
            "decisions_per_s": round(plays / dt, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000, help="deals with 2 players")
    ap.add_argument("--deals4", type=int, default=40, help="deals with 4 players (issue 44: 40 of seed 1)")
    ap.add_argument("--search-deals", type=int, default=40)
    ap.add_argument("--limit", type=int, default=20_000_000, help="positions per 2-player deal at most")
    ap.add_argument("--limit4", type=int, default=300_000_000, help="positions per 4-player deal at most (about "
                    "70 s: over the issue's 60)")
    ap.add_argument("--budget", type=float, default=120.0, help="seconds per 2-player case at most")
    ap.add_argument("--budget4", type=float, default=1200.0, help="seconds per 4-player case at most")
    ap.add_argument("--budgets", default="search:worlds=64,search:worlds=128,search,rollout:samples=128,expert")
    args = ap.parse_args()
    res: dict = {"solve": {}, "search": {}}
    for name, n in CASES:
        deals, budget, limit = ((args.deals, args.budget, args.limit) if n == 2 else
                                (args.deals4, args.budget4, args.limit4))
        r = res["solve"][f"{name}/{n}"] = solve_lead(name, n, deals, limit, budget)
        print(f"solve {name} {n} players from the lead, {r['deals']} deals ({r['unsolved_within_limit']} not within "
              f"{r['limit']:,} positions): median {r['median_ms']} ms, p99 {r['p99_ms']} ms, worst {r['max_ms']} ms "
              f"(deal {r['worst_deal']}); positions median {r['median_nodes']:,}, worst {r['max_nodes']:,}",
              flush=True)
    for name, n in SEARCH_CASES:
        for pol in args.budgets.split(","):
            r = decisions_per_s(name, n, pol, args.search_deals)
            res["search"][f"{name}/{n}/{pol}"] = r
            print(f"{pol} {name} {n} players: {r['decisions_per_s']:,} decisions/s ({r['decisions']} in "
                  f"{r['seconds']} s)", flush=True)
    print(json.dumps(res))


if __name__ == "__main__":
    main()

"""Playing a ladder in duplicate form: every deal in every seating of the policies, on the same shuffle.

For k policies at a table of n players (k >= n) a seating gives each seat a different policy; the ladder
plays all k! / (k - n)! of them (every ordered choice of n policies), each seating over the same deals
0 .. deals - 1 of the root seed. Deal i's shuffle (hands, boneyard, who leads) depends on (seed, i) alone,
so the seatings of a deal share their tiles and differ only in who holds which hand: the luck of the
tiles is the same for every policy, as in duplicate bridge.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..engine.api import simulate_deals
from ..policies import Policy
from ..rules import Rules


def seatings(k: int, n: int) -> np.ndarray:
    """int64[S, n]: every assignment of n of the k policies (indices) to the n seats, each at most once."""
    if not 2 <= n <= k:
        raise ValueError(f"{k} policies at a table of {n}; allowed: at least {n} policies, one per seat")
    return np.array(list(itertools.permutations(range(k), n)), dtype=np.int64)


@dataclass
class DuplicatePlay:
    seatings: np.ndarray   #: int64[S, n] policy index of each seat
    points: np.ndarray     #: int32[deals, S, n] each seat's deal total
    doubles_dealt: np.ndarray  #: int32[deals, S, n] the doubles in each seat's hand as dealt
    first_seat: np.ndarray     #: int32[deals, S] the seat that led
    seconds: float
    #: matches: bool[matches, S, n] the seats of the side that won the match (None: single deals)
    won: np.ndarray | None = None

    def order_key(self) -> np.ndarray:
        """What the finishing order ranks, highest first: the deal total, or a match's winner first and
        then the final scores (a match cut short at max_deals has no winner)."""
        if self.won is None:
            return self.points
        return self.points.astype(np.int64) + np.where(self.won, 1 << 40, 0)


#: greedy decisions' worth of play per task, about a second on one core (policies.policy_cost): a block
#: of cheap policies holds many deals, a block of searches a few (a hard deal then holds up one block)
BLOCK_COST = 400_000


def block_size(policies: list[Policy], n_units: int, workers: int, unit_cost: float = 20.0) -> int:
    """Deals (or matches: ``unit_cost`` greedy decisions each) per task: about BLOCK_COST of play, and at
    least 4 tasks a worker when there is more than one and enough deals."""
    from ..policies import policy_cost
    cost = unit_cost * max(policy_cost(p) for p in policies)
    size = max(1, int(BLOCK_COST // cost))
    return size if workers <= 1 else max(1, min(size, -(-n_units // (4 * workers))))


def work_of(policies: list[Policy], n_units: int, seatings_n: int, unit_cost: float = 20.0) -> float:
    """The play's cost in greedy decisions, roughly (policies.policy_cost): a deal's decisions are shared by
    its seats, and over the seatings every policy sits in as many seats, so a deal costs the policies' mean."""
    from ..policies import policy_cost
    return n_units * seatings_n * unit_cost * sum(policy_cost(p) for p in policies) / len(policies)


def _seating_block(rules: Rules, lineup: list[Policy], seed: int, d0: int, m: int) -> tuple:
    """One task: deals (or matches) d0 .. d0 + m - 1 of one seating. Deals: (points, doubles dealt, first
    seat); matches: (final scores, won, hands played, first seat), each seat's side's."""
    n = rules.players
    if not rules.is_match:
        b = simulate_deals(rules, lineup, seed, d0, m)
        return (b.seats["points"].astype(np.int32), b.seats["doubles_dealt"].astype(np.int32),
                b.deals["first_seat"].astype(np.int32), None)
    from ..engine.matches import side_of, simulate_matches
    b = simulate_matches(rules, lineup, seed, d0, m)
    side = [side_of(rules, s) for s in range(n)]
    points = np.stack([b.matches[f"score_{side[s]}"] for s in range(n)], axis=1).astype(np.int32)
    won = np.stack([b.matches["winner"] == side[s] for s in range(n)], axis=1)
    hands = np.repeat(b.matches["deals"].astype(np.int32)[:, None], n, axis=1)
    return points, hands, b.deals["first_seat"][b.deals["hand"] == 0].astype(np.int32), won


def play_duplicate(rules: Rules, policies: list[Policy], seed: int, deals: int, *, workers: int | None = 1,
                   backend: str = "local", scheduler: str | None = None,
                   progress: "Callable[[int, int], None] | None" = None) -> DuplicatePlay:
    """Deals 0 .. deals - 1 of root ``seed`` in every seating (:func:`seatings`); with a match target,
    matches 0 .. deals - 1 (docs/rules.md 12: hand h of match m is dealt from (seed, m, h) alone, so the
    seatings of a match share their shuffles hand by hand, and ``points`` are final match scores, a
    seat's side's with partners, ``doubles_dealt`` the hands the match lasted). Every (seating, block)
    is a task on ``workers`` loky processes or a dask cluster (run/parallel.py); the result is the same
    whatever the workers or the backend."""
    from .parallel import n_workers, run_blocks

    seats = seatings(len(policies), rules.players)
    S, n = len(seats), rules.players
    t0 = time.perf_counter()
    per = 20.0 * (max(1.0, rules.target / 15) if rules.is_match else 1.0)  # a match: about target/15 hands
    if workers is None and backend == "local" and work_of(policies, deals, S, per) < 2 * BLOCK_COST:
        workers = 1  # a couple of seconds of play: starting worker processes would cost more
    size = block_size(policies, deals, n_workers(workers) if backend == "local" else 8, per)
    blocks = [(d0, min(size, deals - d0)) for d0 in range(0, deals, size)]
    tasks = [(rules, [policies[i] for i in row], seed, d0, m) for row in seats for d0, m in blocks]
    done = run_blocks(_seating_block, tasks, workers=workers, backend=backend, scheduler=scheduler,
                      progress=progress)
    points = np.empty((deals, S, n), np.int32)
    dealt = np.empty((deals, S, n), np.int32)
    first = np.empty((deals, S), np.int32)
    won = np.empty((deals, S, n), bool) if rules.is_match else None
    for (_, _, _, d0, m), j, (pts, dd, fs, w) in zip(tasks, [j for j in range(S) for _ in blocks], done):
        points[d0:d0 + m, j], dealt[d0:d0 + m, j], first[d0:d0 + m, j] = pts, dd, fs
        if won is not None:
            won[d0:d0 + m, j] = w
    return DuplicatePlay(seats, points, dealt, first, time.perf_counter() - t0, won)

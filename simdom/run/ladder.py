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

import numpy as np

from ..engine.api import output_blocks, row_columns, simulate
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


#: games (deals x seatings) per kernel output block: a block of about 20 MB, reused chunk after chunk
CHUNK_GAMES = 100_000


def play_duplicate(rules: Rules, policies: list[Policy], seed: int, deals: int) -> DuplicatePlay:
    """Deals 0 .. deals - 1 of root ``seed`` in every seating (:func:`seatings`), chunk by chunk of deals,
    the kernel filling one output block in row order (deal, seating)."""
    seats = seatings(len(policies), rules.players)
    S, n = len(seats), rules.players
    t0 = time.perf_counter()
    points = np.empty((deals, S, n), np.int32)
    dealt = np.empty((deals, S, n), np.int32)
    first = np.empty((deals, S), np.int32)
    step = max(1, CHUNK_GAMES // S)
    out = output_blocks(min(step, deals) * S, n)
    for d0 in range(0, deals, step):
        m = min(step, deals - d0)
        for j, row in enumerate(seats):
            simulate(rules, [policies[i] for i in row], seed, d0, m, out=out, row0=j, stride=S)
        seat_cols, deal_cols = row_columns(*out, n=m * S)
        points[d0:d0 + m] = seat_cols["points"].reshape(m, S, n)
        dealt[d0:d0 + m] = seat_cols["doubles_dealt"].reshape(m, S, n)
        first[d0:d0 + m] = deal_cols["first_seat"].reshape(m, S)
    return DuplicatePlay(seats, points, dealt, first, time.perf_counter() - t0)


def play_duplicate_matches(rules: Rules, policies: list[Policy], seed: int, matches: int) -> DuplicatePlay:
    """Matches 0 .. matches - 1 of root ``seed`` (docs/rules.md 12) in every seating: hand h of match m is
    dealt from (seed, m, h) alone, so the seatings of a match share their shuffles hand by hand (a
    seating that plays more hands sees more of them). ``points``: each seat's final match score (its
    side's, with partners); ``doubles_dealt``: the hands the match lasted (every seat alike);
    ``first_seat``: the seat that led the first hand."""
    from ..engine.matches import side_of, simulate_matches

    seats = seatings(len(policies), rules.players)
    S, n = len(seats), rules.players
    t0 = time.perf_counter()
    points = np.empty((matches, S, n), np.int32)
    hands = np.empty((matches, S, n), np.int32)
    first = np.empty((matches, S), np.int32)
    won = np.zeros((matches, S, n), bool)
    side = [side_of(rules, s) for s in range(n)]
    for j, row in enumerate(seats):
        b = simulate_matches(rules, [policies[i] for i in row], seed, 0, matches)
        for s in range(n):
            points[:, j, s] = b.matches[f"score_{side[s]}"]
            won[:, j, s] = b.matches["winner"] == side[s]
        hands[:, j, :] = b.matches["deals"][:, None]
        opening = b.deals["hand"] == 0
        first[:, j] = b.deals["first_seat"][opening]
    return DuplicatePlay(seats, points, hands, first, time.perf_counter() - t0, won)

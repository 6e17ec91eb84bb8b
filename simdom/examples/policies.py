"""Example Python policies (docs/policies.md, "Writing a policy in Python").

Each is a function ``(obs, rng) -> move`` of one seat's :class:`~simdom.engine.pypolicy.Observation`, named
``python:simdom.examples.policies:NAME`` wherever simdom plays deals from Python.
"""
from __future__ import annotations

import random

from ..engine.pypolicy import Move, Observation


def greedy(obs: Observation, rng: random.Random) -> Move:
    """The compiled ``greedy`` written in Python: the most immediate points (first-double bonus
    included), ties to the heavier tile, then to the first legal move listed. It plays exactly as
    ``greedy`` does (tests/test_python_policies.py)."""
    order = {m: i for i, m in enumerate(obs.legal)}
    return max(obs.legal, key=lambda m: (obs.gain(m), obs.pips(m.tile), -order[m]))


def keep_suits(obs: Observation, rng: random.Random) -> Move:
    """Greedy's points first; among the moves that score as much, play the tile whose suits the
    rest of the hand holds least of (keep the suits it can follow); a random one of those."""
    best = max(obs.gain(m) for m in obs.legal)
    top = [m for m in obs.legal if obs.gain(m) == best]

    def kept(m: Move) -> int:
        suits = set(obs.halves(m.tile))
        return sum(1 for t in obs.hand if t != m.tile and suits & set(obs.halves(t)))

    fewest = min(kept(m) for m in top)
    return rng.choice([m for m in top if kept(m) == fewest])


def uniform(obs: Observation, rng: random.Random) -> Move:
    """A uniform choice among the legal moves, from the seat's own generator."""
    return rng.choice(obs.legal)


def shed_doubles(obs: Observation, rng: random.Random) -> Move:
    """Greedy, but a double goes first when one fits and scores as well as the best move."""
    best = max(obs.gain(m) for m in obs.legal)
    doubles = [m for m in obs.legal if obs.gain(m) == best and len(set(obs.halves(m.tile))) == 1]
    return doubles[0] if doubles else greedy(obs, rng)

"""The deals of `simdom skill`: a beginner, an optimal and a fictive player in player 0's place against the
same opponents, on the same deals, every deal played with player 0 in every seat (the rotations).

Deal i's shuffle depends on (seed, i) alone, so every player and rotation sees the same tiles; rotation
r gives seat s the lineup's player (s + r) mod P (player 0 the one measured, then the opponents), as
simdom run's rotations do. The statistics are simdom/stats/estimate/skill.py.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..engine.api import simulate
from ..policies import Policy
from ..rules import Rules
from ..stats.estimate.skill import SkillEstimate, skill_share


def play_player0(rules: Rules, player0: Policy, opponents: Sequence[Policy], seed: int, deals: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Player 0's points and win shares (1/k for a k-way tie on top), float64[deals, rotations]."""
    P = rules.players
    lineup = [player0, *opponents]
    points = np.empty((deals, P))
    wins = np.empty((deals, P))
    for r in range(P):
        b = simulate(rules, [lineup[(s + r) % P] for s in range(P)], seed, 0, deals)
        seat = (P - r) % P  # where player 0 sits in rotation r
        points[:, r] = b.seats["points"][:, seat]
        wins[:, r] = b.win()[:, seat]
    return points, wins


def skill_rows(rules: Rules, beginners: Sequence[Policy], optimal: Policy, fictive: Policy,
               opponents: Sequence[Policy], seed: int, deals: int, label: str) -> list[dict]:
    """One row per measure (points, wins) and beginner: the JSON rows of `simdom skill`."""
    played = {str(p): play_player0(rules, p, opponents, seed, deals)
              for p in dict.fromkeys([*beginners, optimal, fictive])}
    rows = []
    for k, by in enumerate(("points", "wins")):
        for beg in beginners:
            est: SkillEstimate = skill_share(played[str(beg)][k], played[str(optimal)][k], played[str(fictive)][k])
            d = est.as_dict()
            rows.append({"rules": label, "players": rules.players, "by": by, "beginner": str(beg),
                         "beginner_value": d["beginner_value"], "optimal": str(optimal),
                         "optimal_value": d["optimal_value"], "fictive_value": d["fictive_value"],
                         **{key: d[key] for key in ("learning_effect", "learning_effect_lo", "learning_effect_hi",
                                                    "random_effect", "random_effect_lo", "random_effect_hi",
                                                    "skill", "skill_lo", "skill_hi", "deals")},
                         "fictive": str(fictive), "opponents": ",".join(map(str, opponents))})
    return rows

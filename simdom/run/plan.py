"""The plan of a run: everything a worker needs to play a chunk, small and picklable.

A chunk is the deal range ``[c * chunk_size, (c + 1) * chunk_size)`` played for every arm and
rotation; deal i's randomness comes from the root seed and i alone (see simdom.engine._kernel.rng), so the
rows never depend on the chunking, the workers, their order or the backend. In match mode (``unit =
"match"``) ``deals`` counts matches and a chunk is a range of match ids; deal h of match m comes from
the root seed, m and h alone (simdom.engine.matches).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..results import Unit, chunk_range, sides_of
from ..rules import Rules

if TYPE_CHECKING:
    from .scenario import Scenario


@dataclass(frozen=True, kw_only=True)
class Plan:
    rules: tuple[Rules, ...]               #: per arm: the resolved rules (pickled whole to the workers)
    policies: tuple[tuple[str, ...], ...]  #: per arm: one policy text per player
    arm_names: tuple[str, ...]
    players: int
    rotations: int
    seed: int
    deals: int
    chunk_size: int
    tables: tuple[str, ...]                #: the tables written: deals, and seats / moves when asked
    settings_hash: str
    sim_version: int
    unit: Unit = Unit.DEAL                 #: deal, or match: ``deals`` counts matches
    sides: int = 0                         #: match mode: per-side columns (the most sides of any arm)
    decision_rollouts: int = 0             #: with a decisions table: rollouts per first-double decision
    decision_then: str = "greedy"          #: with a decisions table: the rollouts' continuation (a policy)
    #: ``[rotation][seat]``: the player at each seat (simdom.results.seating); empty: cyclic, seat s plays
    #: player (s + r) % players
    seating: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(cls, sc: "Scenario", *, tables: tuple[str, ...], settings_hash: str, sim_version: int,
           decision_rollouts: int = 0, decision_then: str = "greedy") -> "Plan":
        rules = [a.rules.to_dict() for a in sc.arms]
        return cls(rules=tuple(a.rules for a in sc.arms),
                   policies=tuple(a.policies for a in sc.arms), arm_names=tuple(a.name for a in sc.arms),
                   players=sc.players, rotations=sc.rotations, seed=sc.seed, deals=sc.deals,
                   chunk_size=sc.chunk_size, tables=tables, settings_hash=settings_hash, sim_version=sim_version,
                   unit=sc.unit, sides=max(sides_of(r, sc.players) for r in rules) if sc.unit.is_match else 0,
                   decision_rollouts=decision_rollouts, decision_then=decision_then,
                   seating=sc.seating if sc.rotation == "all" else ())

    def lineup(self, a: int, r: int) -> list[str]:
        """Arm ``a``'s policy at each seat in rotation ``r``."""
        P = self.players
        if not self.seating:
            return [self.policies[a][(s + r) % P] for s in range(P)]
        return [self.policies[a][p] for p in self.seating[r]]

    def names(self, table: str) -> list[str]:
        """The columns of ``table`` in this run."""
        return self.unit.tables[table].names(self.players, self.sides)

    @property
    def arms(self) -> int:
        return len(self.arm_names)

    @property
    def n_chunks(self) -> int:
        return -(-self.deals // self.chunk_size)

    def chunk_range(self, c: int) -> tuple[int, int]:
        return chunk_range(self.deals, self.chunk_size, c)

    def chunk_deals(self, c: int) -> int:
        d0, d1 = self.chunk_range(c)
        return d1 - d0

    def baseline(self, a: int) -> int:
        """The arm that arm ``a`` is compared with in the summary: the first arm with the same rules
        (a Fives arm is not compared with a Threes arm)."""
        return self.rules.index(self.rules[a])

    def groups(self) -> list[tuple[int, str, tuple[int, ...]]]:
        """Summary groups: (arm, policy, the players of that arm playing it), in arm order."""
        out = []
        for a, pols in enumerate(self.policies):
            for pol in dict.fromkeys(pols):
                out.append((a, pol, tuple(p for p, q in enumerate(pols) if q == pol)))
        return out

"""The plan of a run: everything a worker needs to play a chunk, small and picklable.

A chunk is the deal range ``[c * chunk_size, (c + 1) * chunk_size)`` played for every arm and
rotation; deal i's randomness comes from the root seed and i alone (see simdom.engine.rng), so the
rows never depend on the chunking, the workers, their order or the backend.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scenario import Scenario


@dataclass(frozen=True, kw_only=True)
class Plan:
    rules: tuple[str, ...]                 #: per arm: the resolved rules as JSON (Rules.to_dict)
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

    @classmethod
    def of(cls, sc: "Scenario", *, tables: tuple[str, ...], settings_hash: str, sim_version: int) -> "Plan":
        return cls(rules=tuple(json.dumps(a.rules.to_dict(), sort_keys=True) for a in sc.arms),
                   policies=tuple(a.policies for a in sc.arms), arm_names=tuple(a.name for a in sc.arms),
                   players=sc.players, rotations=sc.rotations, seed=sc.seed, deals=sc.deals,
                   chunk_size=sc.chunk_size, tables=tables, settings_hash=settings_hash, sim_version=sim_version)

    @property
    def arms(self) -> int:
        return len(self.arm_names)

    @property
    def n_chunks(self) -> int:
        return -(-self.deals // self.chunk_size)

    def chunk_range(self, c: int) -> tuple[int, int]:
        return c * self.chunk_size, min(self.deals, (c + 1) * self.chunk_size)

    def chunk_deals(self, c: int) -> int:
        d0, d1 = self.chunk_range(c)
        return d1 - d0

    def rows(self, table: str, c: int) -> int | None:
        """Rows of chunk ``c``'s part of ``table`` (None: as many as the deals make, e.g. moves)."""
        plays = self.chunk_deals(c) * self.arms * self.rotations
        return {"deals": plays, "seats": plays * self.players}.get(table)

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

"""Who sits where in each rotation of a run: ``seating[r][s]`` is the player (the index into an arm's
policies) at seat s in rotation r.

* ``rotation = false``: one rotation, seat s is player s.
* ``rotation = true``: the cyclic rotations, seat s is player (s + r) % players in rotation r.
* ``rotation = "all"``: every distinct arrangement of the policies over the seats, once each. Players
  that play the same policy in every arm are interchangeable, so an arrangement is a sequence of their
  classes: with 3 players and policies A, B, B that is 3 arrangements, with A, A, B, B (4 players) 6,
  with 4 distinct policies all 24. The cyclic rotations come first (as ``true`` numbers them: rotation
  r < players is ``true``'s rotation r when its arrangement is new), then the others in lexicographic
  order of the classes, each seat given the lowest-numbered free player of its class. Every seat then
  holds every policy equally often, and every policy sits after every other policy equally often.
"""
from __future__ import annotations

import itertools
from collections import Counter
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    import polars as pl

#: the values of a scenario's ``rotation`` field
ROTATION_VALUES = (False, True, "all")
ROTATION_DOC = 'true, false or "all"'


def cyclic(players: int, rotations: int) -> list[list[int]]:
    """Rotation r seats player (s + r) % players at seat s (``rotations`` = players, or 1: no rotation)."""
    return [[(s + r) % players for s in range(players)] for r in range(rotations)]


def classes(players: int, policies: Sequence[Sequence[str]]) -> list[int]:
    """Each player's class: the lowest player that plays the same policy as it in every arm."""
    keys = [tuple(arm[p] for arm in policies) for p in range(players)]
    return [keys.index(k) for k in keys]


def every_arrangement(players: int, policies: Sequence[Sequence[str]]) -> list[list[int]]:
    """``rotation = "all"``: one seating per distinct arrangement of the players' classes (module doc)."""
    label = classes(players, policies)
    out: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for perm in cyclic(players, players):
        key = tuple(label[p] for p in perm)
        if key not in seen:
            seen.add(key)
            out.append(perm)
    for key in sorted(set(itertools.permutations(label))):
        if key in seen:
            continue
        free, perm = list(range(players)), []
        for c in key:
            p = next(q for q in free if label[q] == c)
            free.remove(p)
            perm.append(p)
        seen.add(key)
        out.append(perm)
    return out


def seating_of(rotation: bool | str, players: int, policies: Sequence[Sequence[str]]) -> list[list[int]]:
    """The seating of a run with this ``rotation`` (one of :data:`ROTATION_VALUES`)."""
    if rotation == "all":
        return every_arrangement(players, policies)
    return cyclic(players, players if rotation else 1)


def is_cyclic(seating: Sequence[Sequence[int]]) -> bool:
    """True when rotation r seats player (s + r) % players at seat s (``true`` or ``false``'s seating)."""
    P = len(seating[0])
    return [list(r) for r in seating] == cyclic(P, len(seating))


def balanced(seating: Sequence[Sequence[int]], policies: Sequence[str]) -> bool:
    """Every seat holds every policy equally often over the rotations (seats are then exchangeable)."""
    P = len(policies)
    counts = [Counter(policies[row[s]] for row in seating) for s in range(P)]
    return all(c == counts[0] for c in counts)


def player_expr(manifest) -> "pl.Expr":
    """A polars expression: the player at column ``seat`` in column ``rotation`` of a results folder with
    this manifest: (seat + rotation) % players, or with ``rotation = "all"`` the manifest's seating."""
    import polars as pl
    P = manifest.players
    if manifest.seating is None:
        return ((pl.col("seat") + pl.col("rotation")) % P).cast(pl.Int8)
    flat = [p for row in manifest.seating for p in row]
    at = pl.col("rotation").cast(pl.Int32) * P + pl.col("seat").cast(pl.Int32)
    return at.replace_strict(list(range(len(flat))), flat, return_dtype=pl.Int8)

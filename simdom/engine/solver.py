"""The exact value of an open position, named: :func:`solve` over a :class:`~simdom.engine.state.DealState`.

Every hand and the boneyard order are known (the state holds them), so the deal is a game of perfect
information; the compiled solver (engine/_kernel/solve.py: alpha-beta, a transposition table, move
ordering) gives the exact value of every legal move of the seat to act:

* ``against=None``: minimax under the paranoid assumption: the mover's side maximises, every other
  seat minimises (exact for two sides, partnerships included);
* ``against=POLICY`` (one for every other seat, or one per seat): the other seats play that
  deterministic policy and only the mover chooses: the best a clairvoyant player can do against them.

``by="margin"``: the side's deal total minus the highest other side's total, end bonus included;
``by="points"``: the side's own deal total. Matches are solved by the deal's points (policies judge
moves by the deal's points, docs/rules.md 12), whatever a match would credit.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..policies import DETERMINISTIC, Policy, PolicyError, parse_policy
from ..rules import Rules
from ._kernel import layout as L
from .codes import End, kernel_arrays
from .state import DealState

BY = ("margin", "points")
#: positions searched at most by default (about 5 seconds on one core; a 4-player Fives deal from the
#: lead takes 9M in the median and up to about 31M on seed 1, docs/speed.md)
DEFAULT_LIMIT = 20_000_000


class SolveLimit(ValueError):
    """The search stopped at its limit of positions before the value was exact."""


@dataclass(frozen=True)
class MoveValue:
    """One legal move and its exact value for the mover's side."""
    tile: int
    end: End
    value: int


@dataclass(frozen=True)
class Solution:
    """The exact values of a position's legal moves, best first (ties in the kernel's move order)."""
    seat: int                   #: the seat to act
    move: int                   #: the placement about to be made (1-based move number)
    by: str                     #: margin or points
    against: tuple[str, ...] | None  #: the other seats' policies, or None (minimax)
    moves: tuple[MoveValue, ...]
    nodes: int                  #: positions searched
    seconds: float

    @property
    def value(self) -> int:
        """The position's value: its best move's."""
        return self.moves[0].value


def sides_of(rules: Rules) -> list[int]:
    """Each seat's side: partners (seats 0 and 2, 1 and 3) in a partnership match, else its own."""
    if rules.target > 0 and rules.teams == "partners":
        return [s % 2 for s in range(rules.players)]
    return list(range(rules.players))


def against_policies(against: "str | Policy | Sequence[str | Policy]", players: int) -> list[Policy]:
    """One deterministic policy per seat (the mover's entry is never asked); PolicyError otherwise."""
    items = [against] if isinstance(against, (str, Policy)) else list(against)
    pols = [parse_policy(p) for p in items]
    if len(pols) == 1:
        pols = pols * players
    if len(pols) != players:
        raise PolicyError(f"{len(pols)} --against policies for {players} players; allowed: one for every other "
                          f"seat, or one per seat ({players})")
    for p in pols:
        if p.name not in DETERMINISTIC:
            raise PolicyError(f"--against {p}: a policy with randomness cannot be solved against; allowed: "
                              f"{', '.join(DETERMINISTIC)}")
    return pols


_WARM: set = set()


def _warm(solve_root, work: DealState, V: tuple, out: tuple) -> None:
    """Compile (or load) the solver for these array types before a timed call: a search stopped at its
    first position."""
    key = (work.rules.n_tiles > 64, V[L.V_CTL][L.SV_AGAINST] > 0)
    if key in _WARM:
        return
    ctl = V[L.V_CTL]
    saved = ctl.copy()
    ctl[L.SV_LIMIT] = 1
    solve_root(work._G, work._St, work._bone, V, *out)
    ctl[:] = saved
    _WARM.add(key)


def default_table_bits(rules: Rules) -> int:
    """The transposition table's size, 2^bits entries of 64 bytes: 4M (256 MB) with three or four seats,
    whose deals take millions of positions (4-player Fives from seed 1's leads 0 and 1: 8% and 16% fewer
    than with 1M entries), 1M (64 MB) with two, whose deals take thousands. The pages are touched
    only as entries are written (docs/speed.md)."""
    return 22 if rules.players >= 3 else 20


class Solver:
    """The solver's work arrays for one rule set, reused from problem to problem (its transposition
    table keeps what it learnt of the same deal: consecutive positions of one deal search less)."""

    def __init__(self, rules: Rules, table_bits: int | None = None):
        from ._kernel.work import make_solver
        self.rules = rules
        self.V = make_solver(rules.n_tiles, default_table_bits(rules) if table_bits is None else table_bits)
        self.V[L.V_SIDES][: rules.players] = sides_of(rules)
        m = 4 * rules.n_tiles + 4
        self._t, self._e, self._v = (np.zeros(m, np.int64) for _ in range(3))

    def solve(self, state: DealState, *, by: str = "margin",
              against: "str | Policy | Sequence[str | Policy] | None" = None,
              limit: int | None = DEFAULT_LIMIT) -> Solution:
        from . import jitcache
        jitcache.notice("solve_root")
        from ._kernel.solve import solve_root
        if by not in BY:
            raise ValueError(f"by = {by!r}; allowed: {', '.join(BY)}")
        if state.ended is not None:
            raise ValueError("the deal has ended: there is no move to solve")
        work = state.copy()
        work.advance()
        if work.ended is not None:
            raise ValueError("the deal ends by forced draws and passes: there is no move to solve")
        ctl = self.V[L.V_CTL]
        ctl[:] = 0
        ctl[L.SV_BY] = L.BY_POINTS if by == "points" else L.BY_MARGIN
        if limit is not None and limit < 1:
            raise ValueError(f"limit = {limit}; allowed: a number of positions >= 1, or None (no limit)")
        ctl[L.SV_LIMIT] = 0 if limit is None else limit
        names = None
        if against is not None:
            pols = against_policies(against, self.rules.players)
            ids, par = kernel_arrays(pols)
            self.V[L.V_IDS][: len(ids)] = ids
            self.V[L.V_PAR][: len(ids)] = par
            reads_all = any(p.name in ("timing", "defensive", "plan") for s, p in enumerate(pols) if s != work.turn)
            ctl[L.SV_AGAINST] = L.AGAINST_READS_ALL if reads_all else L.AGAINST_HANDS
            names = tuple(str(p) for p in pols)
        _warm(solve_root, work, self.V, (self._t, self._e, self._v))
        t0 = time.perf_counter()
        n = solve_root(work._G, work._St, work._bone, self.V, self._t, self._e, self._v)
        seconds = time.perf_counter() - t0
        if ctl[L.SV_ABORTED]:
            raise SolveLimit(f"not solved within {limit:,} positions ({seconds:.1f} s); allowed: a larger --limit "
                             f"(a 4-player Fives deal from the lead can need 50 million), or a later --move")
        order = sorted(range(n), key=lambda i: -int(self._v[i]))  # stable: ties keep the move order
        moves = tuple(MoveValue(int(self._t[i]), End(int(self._e[i])), int(self._v[i])) for i in order)
        return Solution(work.turn, work.move_number + 1, by, names, moves, int(ctl[L.SV_NODES]), seconds)


def solve(state: DealState, *, by: str = "margin",
          against: "str | Policy | Sequence[str | Policy] | None" = None, table_bits: int | None = None,
          limit: int | None = DEFAULT_LIMIT) -> Solution:
    """The exact value of every legal move of the seat to act in ``state`` (see the module)."""
    return Solver(state.rules, table_bits).solve(state, by=by, against=against, limit=limit)

"""Position analysis, the engine's named side: rollouts of the legal moves of the seat to act.

:class:`MoveRollouts` plays rollouts of a position held in a :class:`~simdom.engine.state.DealState`
(kernel: kanalyze.py) and returns them as named arrays (:class:`Rollouts`); :func:`sample_hidden`
returns the worlds the rollouts meet, for checks. Nobody outside the engine needs the state's layout.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..policies import Policy
from .api import root_key
from .codes import End, kernel_arrays
from .pyloop import deal_streams, has_python, play_python
from .pypolicy import seat_policies as py_seat_policies
from .state import DealState, _mask_tiles

#: The sampler's result for a world dealt by counting (engine/sampler.py).
DEALT_BY_COUNTING = 8


def _kernel():
    from . import jitcache
    jitcache.notice("rollout_moves")
    from ._kernel import kanalyze
    return kanalyze


@dataclass(frozen=True)
class Rollouts:
    """Rollouts ``start .. start + n - 1`` (rows) of each move (columns, in the order given).

    ``points``: int32[n, moves], the mover's final total for the deal (everything it scored, before
    and after the move); ``margin``: int32, that total minus the best other seat's; ``win``: float64,
    its share of the win (1/k for k seats tied on the top total); ``sampler``: int64[n], how each
    world was found: 0 .. 7 shuffles rejected before a consistent one was kept, 8 dealt by counting
    (engine/sampler.py; either way a uniform draw among the consistent deals), 0 for the true deal."""

    start: int
    points: np.ndarray
    margin: np.ndarray
    win: np.ndarray
    sampler: np.ndarray


@dataclass(frozen=True)
class World:
    """A deal of what the seat to act cannot see: the other seats' hands and the boneyard still to
    draw (top first), and how the sampler found it (see :class:`Rollouts`)."""

    hands: dict[int, tuple[int, ...]]
    boneyard: tuple[int, ...]
    sampler: int


class MoveRollouts:
    """Rollouts of ``moves`` (legal moves of the seat to act in ``state``, whose forced draws are
    done): each rollout is a world consistent with what the seat knows (or, with ``perfect``, the
    true deal) in which every move is placed and the deal is played to its end by ``then`` (one
    policy for every seat, or one per seat). Rollout j depends on (seed, j) alone: common random
    numbers across moves, reproducible in any chunking. ``salt`` (xor-ed into the root key) keeps the
    rollouts' streams apart from those of deal j of the same seed. The state is copied, never changed."""

    def __init__(self, state: DealState, moves: Sequence[tuple[int, int]],
                 then: "str | Policy | Sequence[str | Policy]", seed: int, perfect: bool = False, salt: int = 0):
        legal = state.legal() if not state.ended else []
        if not moves:
            raise ValueError("no move to evaluate")
        for t, e in moves:
            if (t, End(e)) not in legal:
                raise ValueError(f"({t}, {End(e).label}) is not a legal move of seat {state.turn}")
        self.seat = state.turn
        self.moves = [(int(t), End(e)) for t, e in moves]
        self.perfect = bool(perfect)
        self._G = state._G
        self._St = state._St.copy()
        self._bone = state._bone.copy()
        pols = py_seat_policies(then, state.rules.players)
        self._key = root_key(seed) ^ np.uint64(salt)
        self._python = (pols, state.copy(), seed, salt) if has_python(pols) else None
        if self._python:
            return
        self._ids, self._par = kernel_arrays(pols)
        self._mv_t = np.array([t for t, _ in self.moves], dtype=np.int64)
        self._mv_e = np.array([int(e) for _, e in self.moves], dtype=np.int64)
        from ._kernel.work import make_analysis_work
        self._work = make_analysis_work(state.rules.n_tiles)

    def run(self, start: int, count: int) -> Rollouts:
        """Rollouts ``start .. start + count - 1``."""
        if self._python:
            return self._run_python(start, count)
        n = len(self.moves)
        pts = np.zeros((count, n), dtype=np.int32)
        mar = np.zeros((count, n), dtype=np.int32)
        win = np.zeros((count, n), dtype=np.float64)
        tries = np.zeros(count, dtype=np.int64)
        _kernel().rollout_moves(self._G, self._St, self._bone, self.seat, self._mv_t, self._mv_e, n, self._ids,
                                self._par, self._key, int(start), int(count), self.perfect, pts, mar, win, tries,
                                self._work)
        return Rollouts(start, pts, mar, win, tries)

    def _run_python(self, start: int, count: int) -> Rollouts:
        """:meth:`run` with a Python policy among ``then``: the same worlds (:func:`sample_hidden`) and
        the same policy streams as the kernel's rollouts, each move played out from Python (pyloop.py),
        so that a Python policy that plays as a compiled one gives the same rollouts."""
        pols, base, seed, salt = self._python
        n = len(self.moves)
        pts = np.zeros((count, n), dtype=np.int32)
        mar = np.zeros((count, n), dtype=np.int32)
        win = np.zeros((count, n), dtype=np.float64)
        tries = np.zeros(count, dtype=np.int64)
        worlds = [None] * count if self.perfect else sample_hidden(base, seed, start, count, salt)
        for r, world in enumerate(worlds):
            if world is not None:
                tries[r] = world.sampler
            for i, (t, e) in enumerate(self.moves):
                st = base.copy()
                if world is not None:
                    st.set_hidden(world.hands, world.boneyard)
                st.play(t, int(e))
                play_python(st, pols, deal_streams(self._key, start + r))
                st.settle()
                totals = st.totals()
                own = totals[self.seat]
                best = max(x for o, x in enumerate(totals) if o != self.seat)
                pts[r, i], mar[r, i] = own, own - best
                win[r, i] = 0.0 if own < best else 1.0 / sum(1 for x in totals if x == own)
        return Rollouts(start, pts, mar, win, tries)


def sample_hidden(state: DealState, seed: int, start: int, count: int, salt: int = 0) -> list[World]:
    """The worlds of rollouts ``start .. start + count - 1`` of the seat to act in ``state``, as
    :class:`MoveRollouts` meets them (with the same seed and salt)."""
    from ._kernel.work import make_analysis_work
    rules = state.rules
    hands = np.zeros((count, rules.players, 2), dtype=np.int64)
    bones = np.zeros((count, rules.n_tiles), dtype=np.int64)
    tries = np.zeros(count, dtype=np.int64)
    s = state.turn
    _kernel().sample_worlds(state._G, state._St, state._bone, s, root_key(seed) ^ np.uint64(salt), int(start),
                            int(count), hands, bones, tries, make_analysis_work(rules.n_tiles))
    left = state.boneyard_left
    return [World({o: tuple(_mask_tiles(hands[r, o])) for o in range(rules.players) if o != s},
                  tuple(int(t) for t in bones[r, :left]), int(tries[r])) for r in range(count)]

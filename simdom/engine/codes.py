"""The engine's named codes: what the kernel's integers mean, for the code outside the engine.

The kernel speaks integers (layout.py); outside simdom/engine/ nobody needs to know that end 1 is R or
that column 3 of a record is the tile. They use these enums and the named columns that
:mod:`simdom.engine.api` hands out (``batch.seats["points"]``, ``batch.records["tile"]``).
Each enum's values are the kernel's own constants, so a change of the integer layout changes here and
in the kernel only.
"""
from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ._kernel import layout as K

if TYPE_CHECKING:
    from ..policies import Policy


class _Named(IntEnum):
    """An integer code with the text used in traces and tables (``label``) and its parser."""

    @property
    def label(self) -> str:
        return self._labels()[self]

    @classmethod
    def _labels(cls) -> dict:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    @classmethod
    def parse(cls, text: str) -> "_Named":
        """The member whose label is ``text``; ValueError naming the allowed labels otherwise."""
        for m in cls:
            if m.label == text:
                return m
        raise ValueError(f"{text!r} is not a {cls.__name__.lower()}; allowed: {', '.join(cls.labels())}")

    @classmethod
    def labels(cls) -> tuple[str, ...]:
        return tuple(m.label for m in cls)


class End(_Named):
    """Where a tile goes: the line ends L and R, the spinner's arms U and D, or the lead."""

    L = K.E_L  #: the line's left end (the lead's low half shows here)
    R = K.E_R  #: the line's right end
    U = K.E_U  #: the spinner's first arm
    D = K.E_D  #: the spinner's second arm
    LEAD = K.E_LEAD  #: the first tile of the deal

    @classmethod
    def _labels(cls) -> dict:
        return {cls.L: "L", cls.R: "R", cls.U: "U", cls.D: "D", cls.LEAD: "lead"}


class Act(_Named):
    """A turn's action in a record."""

    PLAY = K.ACT_PLAY  #: a tile placed
    DRAW = K.ACT_DRAW  #: a tile drawn from the boneyard
    PASS = K.ACT_PASS  #: the turn passed

    @classmethod
    def _labels(cls) -> dict:
        return {cls.PLAY: "play", cls.DRAW: "draw", cls.PASS: "pass"}


class DealEnd(_Named):
    """How a deal ended (docs/rules.md sections 7 and 12)."""

    PLAYING = K.END_PLAYING  #: not ended yet
    DOMINO = K.END_DOMINO  #: a player placed the last tile of the hand
    BLOCKED = K.END_BLOCKED  #: every player passed in turn
    TARGET = K.END_TARGET  #: a deal of a match, stopped by a placement whose credit won the match

    @classmethod
    def _labels(cls) -> dict:
        return {cls.PLAYING: "playing", cls.DOMINO: "domino", cls.BLOCKED: "blocked", cls.TARGET: "target"}


#: The kernel's id of each policy (simdom.policies declares the names and parameters): the member NAME
#: is the kernel's constant POL_NAME, so a policy added to the kernel and declared there needs nothing here.
PolicyId = IntEnum("PolicyId", {k[len("POL_"):]: v for k, v in vars(K).items() if k.startswith("POL_")})


#: Length of a policy's parameter vector in the kernel.
N_POLICY_PARAMS = K.N_PARAMS


def kernel_arrays(policies: "Sequence[Policy]") -> "tuple[np.ndarray, np.ndarray]":
    """The kernel's policy ids and parameter vectors (one row per seat) of parsed policies: a policy's
    k-th declared parameter is column k (layout.py's PAR_*)."""
    ids = np.array([PolicyId[p.name.upper()] for p in policies], dtype=np.int64)
    par = np.zeros((len(policies), N_POLICY_PARAMS), dtype=np.float64)
    for i, p in enumerate(policies):
        par[i, : len(p.values)] = p.values
    return ids, par
#: Named outputs of a batch (see :class:`simdom.engine.api.Batch`).
#: The deal's course (batch.play_tally; single deals, not matches): kept apart from the result columns
#: (``Batch.course``, the course table of simdom run): each seat's largest deficit; per deal the placements with
#: two or more legal moves, the legal moves summed over the placements, the leader changes, the leader after
#: the last placement (-1: a tie at the top) and the placement from which it has led.
COURSE_SEAT_COLUMNS = ("max_deficit",)
COURSE_DEAL_COLUMNS = ("choice_turns", "choices", "lead_changes", "leader", "lead_from")
SEAT_COLUMNS = tuple(c for c in K.SEAT_COLS if c not in COURSE_SEAT_COLUMNS)
DEAL_COLUMNS = tuple(c for c in K.DEAL_COLS if c not in COURSE_DEAL_COLUMNS)
RECORD_COLUMNS = K.REC_NAMES
#: Named columns of the first-double decisions (see :func:`simdom.engine.api.simulate_deals`, ``decisions``):
#: the situation and the choice (integers), and with rollouts their values (floats).
DECISION_COLUMNS = K.DEC_NAMES
DECISION_VALUE_COLUMNS = K.DEC_VAL_NAMES


class Records(IntEnum):
    """What a batch records of each deal: nothing, every placement (the moves table), or every action
    (traces)."""

    NONE = K.REC_NONE
    PLAYS = K.REC_PLAYS
    ALL = K.REC_ALL

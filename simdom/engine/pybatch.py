"""Batches with Python policies: :func:`simulate_deals_any` as :func:`simdom.engine.api.simulate_deals`, deals stepped
from Python when a seat plays a Python policy (pypolicy.py, pyloop.py).

Each deal is dealt as the batch kernel deals it, played by :func:`~simdom.engine.pyloop.play_python`
(the compiled seats with the batch kernel's streams) and its results copied into the output blocks by
the kernel's own ``collect``, so the rows, the records and the columns are those the batch kernel
writes, and a Python policy that plays as a compiled one gives the compiled run's results bit for bit.
Without a Python policy this is the batch kernel itself. The first-double decision recorder lives in
the kernel and is not available here.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..policies import ACCEPTED, PolicyError
from ..rules import Rules
from ._kernel import layout as L
from .api import Batch, batch_of, output_blocks, root_key
from .api import simulate_deals
from .codes import Records
from .pyloop import deal_streams, has_python, play_python
from .pypolicy import seat_policies
from .state import DealState


def simulate_deals_any(rules: Rules, policies: "str | Sequence[object]", seed: int, deal0: int = 0, n_deals: int = 1,
             records: int = Records.NONE, out: "tuple[np.ndarray, np.ndarray] | None" = None,
             decisions: int | None = None, *, row0: int = 0, stride: int = 1, course: bool = False) -> Batch:
    """:func:`simdom.engine.api.simulate_deals`, Python policies accepted (module doc)."""
    pols = seat_policies(policies, rules.players)
    if not has_python(pols):
        return simulate_deals(rules, pols, seed, deal0, n_deals, records, out, decisions, row0=row0, stride=stride,
                              course=course)
    if decisions is not None:
        raise PolicyError(f"policy {next(p for p in pols if p.name == 'python')}: the decisions table is recorded "
                          f"by the compiled kernel; allowed with python: policies: a run without --decisions "
                          f"(python: policies are accepted by {ACCEPTED})")
    from ._kernel.batch import collect
    seat, deal = out if out is not None else output_blocks(row0 + (n_deals - 1) * stride + 1, rules.players,
                                                           course)
    tally = deal.shape[0] > L.DC_LEAD_FROM
    if row0 < 0 or stride < 1 or row0 + (n_deals - 1) * stride >= deal.shape[-1]:
        raise ValueError(f"rows {row0} + i * {stride} for {n_deals} deals; allowed: rows of the {deal.shape[-1]} "
                         f"in out, row0 >= 0, stride >= 1")
    key = root_key(seed)
    recs = []
    for i in range(n_deals):
        st = DealState.dealt(rules, seed, deal0 + i)
        course = Course(st) if tally else None
        play_python(st, pols, deal_streams(key, deal0 + i), place=course.place if tally else None)
        st.settle()
        collect(st._G, st._St, seat, deal, row0 + i * stride)
        if tally:
            course.write(seat, deal, row0 + i * stride)
        if records:
            r = st._rec[:st._nrec].copy()
            if records == Records.PLAYS:
                r = r[r[:, L.REC_NAMES.index("act")] == L.ACT_PLAY]
            r[:, 0] = i
            recs.append(r)
    rec = None
    if records:
        rec = np.concatenate(recs) if recs else np.zeros((0, L.REC_COLS), np.int32)
    return batch_of(rules, pols, seed, deal0, seat, deal, rec, row0=row0, stride=stride, n=n_deals)


class Course:
    """The deal's course tallied from Python as the batch kernel tallies it (batch.play_tally): before each
    placement the mover's legal moves, after it the leader (the one seat strictly ahead on placement points
    and first-double bonus, -1 on a tie at the top), the placement from which it has been the leader, the
    leader changes and each seat's largest deficit."""

    def __init__(self, st: DealState):
        self.st, n = st, st.rules.players
        self.deficit = [0] * n
        self.choice_turns = self.choices = self.changes = 0
        self.last, self.cur, self.since = -1, -1, 1

    def place(self, tile: int, end: int) -> None:
        st = self.st
        k = len(st.legal())
        self.choices += k
        self.choice_turns += k >= 2
        st.play(tile, end)
        score = [st.seat(o).points + st.seat(o).bonus for o in range(st.rules.players)]
        top = max(score)
        leader = score.index(top) if score.count(top) == 1 else -1
        if leader != self.cur:
            self.cur, self.since = leader, st.move_number
        if leader >= 0:
            self.changes += self.last >= 0 and leader != self.last
            self.last = leader
        for o, v in enumerate(score):
            self.deficit[o] = max(self.deficit[o], max(x for j, x in enumerate(score) if j != o) - v)

    def write(self, seat: np.ndarray, deal: np.ndarray, row: int) -> None:
        for o in range(self.st.rules.players):
            seat[L.SC_MAX_DEFICIT, o, row] = self.deficit[o]
        for col, v in ((L.DC_CHOICE_TURNS, self.choice_turns), (L.DC_CHOICES, self.choices),
                       (L.DC_LEAD_CHANGES, self.changes), (L.DC_LEADER, self.cur), (L.DC_LEAD_FROM, self.since)):
            deal[col, row] = v

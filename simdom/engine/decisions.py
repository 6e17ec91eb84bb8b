"""First-double decisions, the engine's named side: batches played with the decision recorder on.

:func:`play_recording` plays deals with the batch kernel exactly as :func:`simdom.engine.api.simulate_deals`
does (the recorder changes no deal: it reads the state, and its rollouts draw from their own streams)
and returns every first-double decision as named columns (:data:`~simdom.engine.codes.DECISION_COLUMNS`,
and with rollouts :data:`~simdom.engine.codes.DECISION_VALUE_COLUMNS`); see kdecide.py.
"""
from __future__ import annotations

import numpy as np

from ._kernel import layout as L
from ._kernel.work import make_work

#: Deals per kernel call while recording: the rows' room is one per placement of these deals.
BLOCK = 2048


def play_recording(kernel, G, ids, par, root, deal0: int, n_deals: int, seat: np.ndarray, deal: np.ndarray,
                   row0: int, stride: int, rec: np.ndarray, records: int, nt: int,
                   rollouts: int) -> tuple[int, dict[str, np.ndarray]]:
    """Play deals deal0 .. deal0 + n_deals - 1 into rows row0 + i * stride of the output blocks with
    ``kernel`` (run_batch),
    recording the first-double decisions (``rollouts`` worlds per decision, 0 for none). Returns the
    number of action records written (their ``deal`` column: the index in the whole batch) and the
    decisions' columns, in play order (``deal``: the index in the whole batch)."""
    if rollouts < 0:
        raise ValueError(f"decision rollouts = {rollouts}; allowed: an integer >= 0")
    block = min(BLOCK, max(n_deals, 1))
    cap = block * nt
    work = make_work(nt, decisions=cap)
    scratch = work[L.W_SCRATCH]
    ctl, rows, vals = scratch[L.SX_DCTL], scratch[L.SX_DROWS], scratch[L.SX_DVALS]
    ctl[L.DCTL_ON] = 1
    ctl[L.DCTL_ROLLOUTS] = rollouts
    ctl[L.DCTL_CAP] = cap
    scratch[L.SX_DKEY][0] = root
    out_rows, out_vals = [], []
    nrec = 0
    for off in range(0, n_deals, block):
        nb = min(block, n_deals - off)
        ctl[L.DCTL_ROWS] = 0
        ctl[L.DCTL_LOST] = 0
        ctl[L.DCTL_DEAL0] = deal0 + off
        got = int(kernel(G, ids, par, root, deal0 + off, nb, seat, deal, row0 + off * stride, stride,
                         rec[nrec:] if records else rec, records, work, True))
        if records:
            rec[nrec:nrec + got, 0] += off  # the records' first column: the deal's index in the batch
            nrec += got
        if ctl[L.DCTL_LOST]:  # pragma: no cover - the room is one row per placement
            raise RuntimeError(f"{ctl[L.DCTL_LOST]} first-double decisions found no room")
        k = int(ctl[L.DCTL_ROWS])
        r = rows[:k].copy()
        r[:, L.DEC_DEAL] += off
        out_rows.append(r)
        out_vals.append(vals[:k].copy())
    r = np.concatenate(out_rows) if out_rows else np.zeros((0, L.DEC_COLS), np.int32)
    v = np.concatenate(out_vals) if out_vals else np.zeros((0, L.DEC_VALS), np.float64)
    cols = {name: r[:, i] for i, name in enumerate(L.DEC_NAMES)}
    if rollouts:
        cols.update({name: v[:, i] for i, name in enumerate(L.DEC_VAL_NAMES)})
    return nrec, cols

"""The deal loop and the batch kernel: whole deals from a root key and deal numbers."""
from __future__ import annotations

import numpy as np
from .jit import entry, kernel

from .core import (advance, counted_ends, deal_random, finish, give, legal_moves, place, record, reset,
                   seat_base, start)
from .kdecide import record_decision
from .kpolicies import choose
from .layout import (ACT_PLAY, BN, BON, BTOP, DDEALT, DRAWS, EB, ENDED, FD_MOVE, FD_SEAT, FIRST, HCNT,
                     HPIPS, LOSTFD, NPL, PASSES, PLAYS, PTS, R_PLAYERS, REC_NONE, SP_MOVE, SP_SEAT,
                     SPLAYS, ST_SIZE, SX_DCTL, DCTL_ON, TURN, WINNER)
from .rng import seed_deal
from .work import make_work  # noqa: F401


@kernel
def play(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, rec, nrec, rec_mode, deal):
    """Play the deal in St to its end with the seats' policies; settle it. Returns the new nrec."""
    while True:
        n, nrec = advance(G, St, bone, mv_t, mv_e, rec, nrec, rec_mode, deal)
        if n == 0:
            break
        s = St[TURN] & 3  # the masks tell LLVM the ranges: no negative-index checks
        i = choose(G, St, s, pol_ids[s], pol_params[s], rng, mv_t, mv_e, n, scratch)
        if scratch[SX_DCTL][DCTL_ON]:  # simdom run --decisions (kdecide.py)
            record_decision(G, St, s, n, i, mv_t, mv_e, deal, scratch)
        t = mv_t[i] & 127
        e = mv_e[i] & 7
        pts, bonus, k, ssum = place(G, St, s, t, e)
        if rec_mode != REC_NONE:
            nrec = record(rec, nrec, deal, s, ACT_PLAY, t, e, pts, bonus, k, ssum)
    finish(G, St)
    return nrec


@kernel
def collect(G, St, seat_row, deal_row):
    """Copy a finished deal's results into its output rows (layout.SEAT_COLS / DEAL_COLS order)."""
    for s in range(G[0][R_PLAYERS]):
        b = seat_base(s)
        r = seat_row[s]
        r[0] = St[b + PTS] + St[b + BON] + St[b + EB]
        r[1] = St[b + PTS]
        r[2] = St[b + BON]
        r[3] = St[b + EB]
        r[4] = St[b + SPLAYS]
        r[5] = St[b + PLAYS]
        r[6] = St[b + DRAWS]
        r[7] = St[b + PASSES]
        r[8] = St[b + HPIPS]
        r[9] = 1 if St[b + HCNT] == 0 else 0
        r[10] = St[b + DDEALT]
        r[11] = St[b + LOSTFD]
    deal_row[0] = St[FIRST]
    deal_row[1] = St[FD_MOVE]
    deal_row[2] = St[FD_SEAT]
    deal_row[3] = St[SP_MOVE]
    deal_row[4] = St[SP_SEAT]
    deal_row[5] = St[ENDED]
    deal_row[6] = St[NPL]
    deal_row[7] = St[WINNER]


@entry
def run_batch(G, pol_ids, pol_params, root, deal0, ndeals, seat_out, deal_out, rec, rec_mode, work, fresh):
    """Play deals deal0 .. deal0 + ndeals - 1 under root key ``root`` (uint64).

    seat_out: int32[ndeals, players, len(SEAT_COLS)]; deal_out: int32[ndeals, len(DEAL_COLS)];
    rec: int32[cap, REC_COLS] action records (rec_mode REC_NONE / REC_PLAYS / REC_ALL), whose first
    column is the deal's index in the batch. ``work``: arrays from :func:`make_work`. With
    ``fresh`` False, the deal already set up in work's St/bone is continued instead of dealt
    (ndeals = 1): a scripted deal, or any mid-deal state.
    Returns the number of records written.
    """
    St, bone, perm, rng, mv_t, mv_e, scratch = work
    nrec = 0
    for i in range(ndeals):
        seed_deal(rng, root, deal0 + i)
        if fresh:
            deal_random(G, St, bone, perm, rng)
        nrec = play(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, rec, nrec, rec_mode, i)
        collect(G, St, seat_out[i], deal_out[i])
    return nrec


@entry
def new_deal(G, St, bone, perm, rng, root, deal):
    """Seed deal ``deal`` and set it up in St/bone (traces read the hands before playing)."""
    seed_deal(rng, root, deal)
    deal_random(G, St, bone, perm, rng)


@entry
def setup_hands(G, St, bone, tiles, seats, nb, first):
    """Lay out a given deal: tile tiles[i] to seat seats[i] (seat -1: the boneyard, in order)."""
    reset(St)
    k = 0
    for i in range(tiles.shape[0]):
        if seats[i] >= 0:
            give(G, St, seats[i], tiles[i])
        else:
            bone[k] = tiles[i]
            k += 1
    St[BN] = nb
    St[BTOP] = 0
    start(G, St, first)


step_advance = entry(advance.py_func)
step_place = entry(place.py_func)
step_finish = entry(finish.py_func)
step_counted = entry(counted_ends.py_func)
step_legal = entry(legal_moves.py_func)

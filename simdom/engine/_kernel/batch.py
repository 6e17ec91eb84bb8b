"""The deal loop and the batch kernel: whole deals from a root key and deal numbers."""
from __future__ import annotations

import numpy as np

from .jit import entry, kernel

from .core import advance, deal_random, finish, forced, give, place, record, reset, seat_total, start
from .ends import counted_ends
from .moves import legal_moves, n_moves, seat_base
from .greedy import list_index
from .kdecide import record_decision
from .kchoose import choose
from .layout import (ACT_PLAY, BN, BON, BTOP, DCTL_ON, DC_CHOICES, DC_CHOICE_TURNS, DC_END, DC_FD_MOVE, DC_FD_SEAT,
                     DC_FIRST_SEAT, DC_LEADER, DC_LEAD_CHANGES, DC_LEAD_FROM, DC_SP_MOVE, DC_SP_SEAT,
                     DC_TILES_PLACED, DC_WINNER, DDEALT, DRAWS, EB, EMASK, ENDED, FD_MOVE, FD_SEAT, FIRST, HCNT,
                     HPIPS, LOSTFD, NPL, PASSES, PLAYS, PTS, REC_NONE, R_PLAYERS, SC_BONUS, SC_DOUBLES_DEALT,
                     SC_DRAWS, SC_END_BONUS, SC_LOST_FD, SC_MAX_DEFICIT, SC_PASSES, SC_PIPS_LEFT, SC_PLAYS,
                     SC_PLAY_POINTS, SC_POINTS, SC_SCORING_PLAYS, SC_WENT_OUT, SMASK, SPLAYS, SP_MOVE, SP_SEAT,
                     SX_DCTL, TMASK, TURN, WINNER)
from .rng import seed_deal


@kernel
def play(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, V, rec, nrec, rec_mode, deal):
    """Play the deal in St to its end with the seats' policies; settle it. Returns the new nrec."""
    while True:
        mover, nrec = forced(G, St, bone, rec, nrec, rec_mode, deal)
        if not mover:
            break
        s = St[TURN] & SMASK  # the masks tell LLVM the ranges: no negative-index checks
        t, e = choose(G, St, bone, s, pol_ids, pol_params, rng, mv_t, mv_e, scratch, V)
        t &= TMASK
        e &= EMASK
        if scratch[SX_DCTL][DCTL_ON]:  # simdom run --decisions (kdecide.py): the list of moves and the choice
            n = legal_moves(G, St, s, mv_t, mv_e)
            record_decision(G, St, s, n, list_index(mv_t, mv_e, n, t, e), mv_t, mv_e, np.int64(deal), scratch)
        pts, bonus, k, ssum = place(G, St, s, t, e)
        if rec_mode != REC_NONE:
            nrec = record(rec, nrec, deal, s, ACT_PLAY, t, e, pts, bonus, k, ssum)
    finish(G, St)
    return nrec


@kernel
def play_tally(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, V, rec, nrec, rec_mode, deal, seat_out,
               deal_out, row):
    """:func:`play`, the same moves and streams, and the deal's course tallied into row ``row`` of the output
    blocks (layout.SC_MAX_DEFICIT, DC_CHOICE_TURNS, DC_CHOICES, DC_LEAD_CHANGES, DC_LEADER, DC_LEAD_FROM): before
    each placement the mover's legal moves are counted; after it each seat's score is its placement points and
    first-double bonus so far, the leader the one seat strictly ahead (-1: a tie at the top). Scores, and so
    the leader and the deficits, change only with a placement that scores: only then are they recomputed."""
    n = G[R_PLAYERS]
    for o in range(n):
        seat_out[SC_MAX_DEFICIT, o, row] = 0
    cturns = 0
    choices = 0
    changes = 0
    last = -1       # the last seat that was the leader
    cur = -1        # the leader after the latest placement (-1: none)
    since = 1       # the placement from which ``cur`` has been the leader
    while True:
        mover, nrec = forced(G, St, bone, rec, nrec, rec_mode, deal)
        if not mover:
            break
        s = St[TURN] & SMASK
        nm = n_moves(G, St, s)
        choices += nm
        if nm >= 2:
            cturns += 1
        t, e = choose(G, St, bone, s, pol_ids, pol_params, rng, mv_t, mv_e, scratch, V)
        t &= TMASK
        e &= EMASK
        if scratch[SX_DCTL][DCTL_ON]:
            m = legal_moves(G, St, s, mv_t, mv_e)
            record_decision(G, St, s, m, list_index(mv_t, mv_e, m, t, e), mv_t, mv_e, np.int64(deal), scratch)
        pts, bonus, k, ssum = place(G, St, s, t, e)
        if rec_mode != REC_NONE:
            nrec = record(rec, nrec, deal, s, ACT_PLAY, t, e, pts, bonus, k, ssum)
        if pts + bonus > 0:
            top = -(1 << 30)
            top2 = -(1 << 30)
            arg = -1
            ntop = 0
            for o in range(n):
                b = seat_base(o)
                v = St[b + PTS] + St[b + BON]
                if v > top:
                    top2 = top
                    top = v
                    arg = o
                    ntop = 1
                elif v == top:
                    top2 = v
                    ntop += 1
                elif v > top2:
                    top2 = v
            leader = arg if ntop == 1 else -1
            if leader != cur:
                cur = leader
                since = St[NPL]
            if leader >= 0:
                if last >= 0 and leader != last:
                    changes += 1
                last = leader
            for o in range(n):
                b = seat_base(o)
                d = (top2 if o == arg else top) - (St[b + PTS] + St[b + BON])
                if d > seat_out[SC_MAX_DEFICIT, o, row]:
                    seat_out[SC_MAX_DEFICIT, o, row] = d
    finish(G, St)
    deal_out[DC_CHOICE_TURNS, row] = cturns
    deal_out[DC_CHOICES, row] = choices
    deal_out[DC_LEAD_CHANGES, row] = changes
    deal_out[DC_LEADER, row] = cur
    deal_out[DC_LEAD_FROM, row] = since
    return nrec


@kernel
def collect(G, St, seat_out, deal_out, row):
    """Copy a finished deal's results into row ``row`` of the output blocks, one block per column:
    seat_out[SC_*, s, row] and deal_out[DC_*, row] (layout.py)."""
    for s in range(G[R_PLAYERS]):
        b = seat_base(s)
        seat_out[SC_POINTS, s, row] = seat_total(St, s)
        seat_out[SC_PLAY_POINTS, s, row] = St[b + PTS]
        seat_out[SC_BONUS, s, row] = St[b + BON]
        seat_out[SC_END_BONUS, s, row] = St[b + EB]
        seat_out[SC_SCORING_PLAYS, s, row] = St[b + SPLAYS]
        seat_out[SC_PLAYS, s, row] = St[b + PLAYS]
        seat_out[SC_DRAWS, s, row] = St[b + DRAWS]
        seat_out[SC_PASSES, s, row] = St[b + PASSES]
        seat_out[SC_PIPS_LEFT, s, row] = St[b + HPIPS]
        seat_out[SC_WENT_OUT, s, row] = 1 if St[b + HCNT] == 0 else 0
        seat_out[SC_DOUBLES_DEALT, s, row] = St[b + DDEALT]
        seat_out[SC_LOST_FD, s, row] = St[b + LOSTFD]
    deal_out[DC_FIRST_SEAT, row] = St[FIRST]
    deal_out[DC_FD_MOVE, row] = St[FD_MOVE]
    deal_out[DC_FD_SEAT, row] = St[FD_SEAT]
    deal_out[DC_SP_MOVE, row] = St[SP_MOVE]
    deal_out[DC_SP_SEAT, row] = St[SP_SEAT]
    deal_out[DC_END, row] = St[ENDED]
    deal_out[DC_TILES_PLACED, row] = St[NPL]
    deal_out[DC_WINNER, row] = St[WINNER]


@entry
def run_batch(G, pol_ids, pol_params, root, deal0, ndeals, seat_out, deal_out, row0, stride, rec, rec_mode, work,
              fresh):
    """Play deals deal0 .. deal0 + ndeals - 1 under root key ``root`` (uint64).

    seat_out: int32[len(SEAT_COLS), players, rows]; deal_out: int32[len(DEAL_COLS), rows] (or without the
    course's trailing rows, SC_MAX_DEFICIT and DC_CHOICE_TURNS on: the course is then not tallied): deal i's
    results go to row row0 + i * stride (:func:`collect`), so that a caller playing several batches
    can interleave them in the row order its results need; rec: int32[cap, REC_COLS] action records (rec_mode REC_NONE / REC_PLAYS / REC_ALL), whose first
    column is the deal's index in the batch. ``work``: arrays from :func:`make_work`. With
    ``fresh`` False, the deal already set up in work's St/bone is continued instead of dealt
    (ndeals = 1): a scripted deal, or any mid-deal state.
    Returns the number of records written.
    """
    St, bone, perm, rng, mv_t, mv_e, scratch, V = work
    tally = deal_out.shape[0] > DC_LEAD_FROM  # blocks with the course's rows: the deals' course tallied too
    nrec = 0
    for i in range(ndeals):
        seed_deal(rng, root, deal0 + i)
        if fresh:
            deal_random(G, St, bone, perm, rng)
        row = row0 + i * stride
        if tally:
            nrec = play_tally(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, V, rec, nrec, rec_mode, i,
                              seat_out, deal_out, row)
        else:
            nrec = play(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, V, rec, nrec, rec_mode, i)
        collect(G, St, seat_out, deal_out, row)
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

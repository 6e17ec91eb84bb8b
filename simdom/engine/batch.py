"""The deal loop and the batch kernel: whole deals from a root key and deal numbers."""
from __future__ import annotations

from .jit import entry, kernel

from .core import advance, deal_random, finish, forced, give, place, record, reset, start
from .ends import counted_ends
from .moves import legal_moves, seat_base
from .greedy import list_index
from .kdecide import record_decision
from .kpolicies import choose
from .layout import (ACT_PLAY, BN, BON, BTOP, DCTL_ON, DC_END, DC_FD_MOVE, DC_FD_SEAT, DC_FIRST_SEAT, DC_SP_MOVE,
                     DC_SP_SEAT, DC_TILES_PLACED, DC_WINNER, DDEALT, DRAWS, EB, EMASK, ENDED, FD_MOVE, FD_SEAT,
                     FIRST, HCNT, HPIPS, LOSTFD, NPL, PASSES, PLAYS, PTS, REC_NONE, R_PLAYERS, SC_BONUS,
                     SC_DOUBLES_DEALT, SC_DRAWS, SC_END_BONUS, SC_LOST_FD, SC_PASSES, SC_PIPS_LEFT, SC_PLAYS,
                     SC_PLAY_POINTS, SC_POINTS, SC_SCORING_PLAYS, SC_WENT_OUT, SMASK, SPLAYS, SP_MOVE, SP_SEAT,
                     SX_DCTL, TMASK, TURN, WINNER)
from .rng import seed_deal


@kernel
def play(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, rec, nrec, rec_mode, deal):
    """Play the deal in St to its end with the seats' policies; settle it. Returns the new nrec."""
    while True:
        mover, nrec = forced(G, St, bone, rec, nrec, rec_mode, deal)
        if not mover:
            break
        s = St[TURN] & SMASK  # the masks tell LLVM the ranges: no negative-index checks
        t, e = choose(G, St, s, pol_ids[s], pol_params[s], rng, mv_t, mv_e, scratch)
        t &= TMASK
        e &= EMASK
        if scratch[SX_DCTL][DCTL_ON]:  # simdom run --decisions (kdecide.py): the list of moves and the choice
            n = legal_moves(G, St, s, mv_t, mv_e)
            record_decision(G, St, s, n, list_index(mv_t, mv_e, n, t, e), mv_t, mv_e, deal, scratch)
        pts, bonus, k, ssum = place(G, St, s, t, e)
        if rec_mode != REC_NONE:
            nrec = record(rec, nrec, deal, s, ACT_PLAY, t, e, pts, bonus, k, ssum)
    finish(G, St)
    return nrec


@kernel
def collect(G, St, seat_row, deal_row):
    """Copy a finished deal's results into its output rows (layout.SEAT_COLS / DEAL_COLS order)."""
    for s in range(G[R_PLAYERS]):
        b = seat_base(s)
        r = seat_row[s]
        r[SC_POINTS] = St[b + PTS] + St[b + BON] + St[b + EB]
        r[SC_PLAY_POINTS] = St[b + PTS]
        r[SC_BONUS] = St[b + BON]
        r[SC_END_BONUS] = St[b + EB]
        r[SC_SCORING_PLAYS] = St[b + SPLAYS]
        r[SC_PLAYS] = St[b + PLAYS]
        r[SC_DRAWS] = St[b + DRAWS]
        r[SC_PASSES] = St[b + PASSES]
        r[SC_PIPS_LEFT] = St[b + HPIPS]
        r[SC_WENT_OUT] = 1 if St[b + HCNT] == 0 else 0
        r[SC_DOUBLES_DEALT] = St[b + DDEALT]
        r[SC_LOST_FD] = St[b + LOSTFD]
    deal_row[DC_FIRST_SEAT] = St[FIRST]
    deal_row[DC_FD_MOVE] = St[FD_MOVE]
    deal_row[DC_FD_SEAT] = St[FD_SEAT]
    deal_row[DC_SP_MOVE] = St[SP_MOVE]
    deal_row[DC_SP_SEAT] = St[SP_SEAT]
    deal_row[DC_END] = St[ENDED]
    deal_row[DC_TILES_PLACED] = St[NPL]
    deal_row[DC_WINNER] = St[WINNER]


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

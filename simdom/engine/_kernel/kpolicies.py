"""Policies inside the kernel: each chooses one of the seat's legal moves (:func:`choose`). Random and
greedy (greedy.py) pick from the hand's masks; heavy, defensive and rollout from the list in (mv_t, mv_e).

A policy reads only what its seat may know: its own hand (``St`` seat block of ``s``), the layout,
the tiles played (``St[PLAYED]``), hand counts (``HCNT``), the boneyard size (``BN - BTOP``), scores
(``PTS``, ``BON``) and the values each seat was seen unable to play (``VOID``). It never reads another
seat's ``HAND`` nor ``bone``. Its randomness is its own stream ``1 + s``.

Policy ids and their parameters (``par``: float64[4]) are assigned in :mod:`simdom.policies`. The
policies that search with the solver (clairvoyant, search) are dispatched in kchoose.py, above these.
"""
from __future__ import annotations

import numpy as np
from .jit import called, entry, kernel

from .core import finish, forced, next_seat, place, standing
from .ends import end_bases, end_count, move_value, n_open_ends, score_at
from .greedy import greedy_move, greedy_pick
from .moves import legal_moves, n_moves, nth_move, seat_base
from .bits import popcount
from .layout import (AUX_PREP, BONUS, ENDED, END_PLAYING, EV, FD_MOVE, HCNT, NPL, OWN_ALL_DEFENSIVE, OWN_PLAN,
                     OWN_PLAN_ALL_DEFENSIVE, PAR_PL_KEEP, PAR_PL_NEXT, PAR_PL_PIPS, PAR_PL_REPLY, PAR_SAMPLES,
                     PAR_UNTIL, PIPS, POL_DEFENSIVE, POL_GREEDY, POL_HEAVY, POL_HOLD, POL_PLAN, POL_RANDOM,
                     POL_ROLLOUT, POL_TIMING, SV_PLAN,
                     REC_NONE, RNG_SEAT, SMASK, ST_SIZE, SX_ACC, SX_AUX, SX_BONE, SX_DECK, SX_DP,
                     SX_KB, SX_LOC, SX_P, SX_PE, SX_POOL, SX_PT, SX_REC, SX_SB, SX_W, TA, TB, TMASK, TURN, VOID)
from .ktiming import timing_pick
from .rng import GAMMA, below, mix64, next64
from .sampler import copy_known, may_hold, sample_world, unseen_tiles


@called
def heavy_pick(G, St, mv_t, mv_e, n):
    """The heaviest tile; ties by immediate points, then the first listed."""
    best = -1
    bv = -1
    bp = -1
    for i in range(n):
        t = mv_t[i]
        p = G[PIPS + t]
        if p < bp:
            continue
        v = move_value(G, St, t, mv_e[i])
        if p > bp or v > bv:
            best = i
            bv = v
            bp = p
    return best



# ---- defensive -----------------------------------------------------------------------------------


@kernel
def expected_reply(G, P, cand, c, h, vals, kb, sb):
    """E[best immediate points of a hand of h tiles drawn uniformly from cand[0:c]] in state P
    (0 for a hand with no scoring move): the best reply's points sorted, weighted by the
    probability that each is the best tile the hand holds, C(c - i, h - 1) / C(c, h)."""
    nend = n_open_ends(G, P)
    end_bases(G, P, kb, sb)
    fd = G[BONUS + ((P[NPL] + 1) & TMASK)] if P[FD_MOVE] == 0 else 0
    z = 0
    for i in range(c):
        t = cand[i]
        a = G[TA + t]
        b = G[TB + t]
        best = 0
        for e in range(nend):
            ev = P[EV + e]
            if a == ev or b == ev:
                if a == b:
                    v = score_at(G, kb[e], sb[e] + end_count(G, a, True)) + fd
                else:
                    v = score_at(G, kb[e], sb[e] + (b if a == ev else a))
                if v > best:
                    best = v
        if best > 0:
            j = z
            while j > 0 and vals[j - 1] < best:
                vals[j] = vals[j - 1]
                j -= 1
            vals[j] = best
            z += 1
    if h <= 0 or c == 0:
        return 0.0
    q = h / c
    out = 0.0
    for i in range(z):
        out += q * vals[i]
        if c - i - 1 <= 0:
            break
        q *= (c - i - h) / (c - i - 1)
    return out


@kernel
def reply_pool(G, St, s, cand):
    """(c, h): the unseen tiles the next seat may hold, in cand[0:c] (none carrying a value it was seen
    unable to play, unless that leaves fewer than its hand count), and its hand count h."""
    nxt = next_seat(G, s)
    void = St[seat_base(nxt) + VOID]
    h = St[seat_base(nxt) + HCNT]
    u = unseen_tiles(G, St, s, cand)
    allowed = 0
    for i in range(u):
        if may_hold(G, void, cand[i]):
            allowed += 1
    c = u
    if allowed >= h:
        c = 0
        for i in range(u):
            if may_hold(G, void, cand[i]):
                cand[c] = cand[i]
                c += 1
    return c, h


@kernel
def own_outlook(G, P, s, ot, oe):
    """(best, fit): the most immediate points seat s could score with its own tiles on P's ends as they
    stand, and how many of its tiles fit an end there."""
    n = legal_moves(G, P, s, ot, oe)
    best = 0
    m0 = 0
    m1 = 0
    for i in range(n):
        v = move_value(G, P, ot[i], oe[i])
        if v > best:
            best = v
        t = ot[i]
        if t < 64:
            m0 |= np.int64(1) << t
        else:
            m1 |= np.int64(1) << (t - 64)
    return best, popcount(m0) + popcount(m1)


@entry
def plan_pick(G, St, s, mv_t, mv_e, n, scratch, w_reply, w_next, w_keep, w_pips):
    """defensive with a plan for the seat's next turn: each move's immediate points, less w_reply times
    the next seat's expected best reply (as defensive), plus w_next times the most the seat's own tiles
    could score on the ends it leaves, w_keep times how many of its tiles still fit an end there, and
    w_pips times the placed tile's pips; ties to the heavier tile, then the first listed. With weights
    (1, 0, 0, 0) it is defensive."""
    P, vals, cand, kb, sb = scratch[SX_P], scratch[SX_PT], scratch[SX_POOL], scratch[SX_KB], scratch[SX_SB]
    ot, oe = scratch[SX_PT], scratch[SX_PE]  # the seat's own moves (listed before vals is used)
    c, h = reply_pool(G, St, s, cand)
    best = -1
    bv = 0.0
    bp = -1
    for i in range(n):
        copy_known(G, St, s, P)
        pts, bonus, _, _ = place(G, P, s, mv_t[i], mv_e[i])
        p = G[PIPS + mv_t[i]]
        v = float(pts + bonus) + w_pips * p
        if P[ENDED] == END_PLAYING:
            if w_next != 0.0 or w_keep != 0.0:
                nb, fit = own_outlook(G, P, s, ot, oe)
                v += w_next * nb + w_keep * fit
            if w_reply != 0.0:
                v -= w_reply * expected_reply(G, P, cand, c, h, vals, kb, sb)
        if best < 0 or v > bv or (v == bv and p > bp):
            best = i
            bv = v
            bp = p
    return best


# ---- rollout -------------------------------------------------------------------------------------

@called
def greedy_to_end(G, P, bone, rec):
    """Every seat plays greedy from P (a seat to move, its forced draws done) to the end of the deal:
    a rollout's playout, and the search policy's horizon (solve.py). Compiled once and called."""
    mover = True
    while mover:
        q = P[TURN] & SMASK
        t, e = greedy_move(G, P, q, False)
        place(G, P, q, t & TMASK, e)
        mover, _ = forced(G, P, bone, rec, 0, REC_NONE, 0)


@entry
def defensive_pick(G, St, s, mv_t, mv_e, n, scratch):
    """Greedy's immediate points minus the next seat's expected best reply (:func:`expected_reply`)
    over the unseen tiles it may hold (:func:`reply_pool`); ties to the heavier tile, then the first listed:
    :func:`plan_pick` with the weights (1, 0, 0, 0), move for move (the same sums, exactly).
    Not inlined (as rollout_pick): it keeps the batch kernel's compile time down."""
    return plan_pick(G, St, s, mv_t, mv_e, n, scratch, 1.0, 0.0, 0.0, 0.0)


@called
def defensive_to_end(G, P, bone, rec, r, mode, ctl, scratch2, ot, oe):
    """As :func:`greedy_to_end`, but seat r plays defensive, or with ``mode`` OWN_PLAN or
    OWN_PLAN_ALL_DEFENSIVE plan with the weights ctl[SV_PLAN:SV_PLAN + 4] (thousandths; its scratch ``scratch2``, its move list in
    ot/oe): the search policy's own=defensive beyond its horizon (solve.py), expert's own plan. The other
    seats play greedy, or defensive with mode OWN_ALL_DEFENSIVE or OWN_PLAN_ALL_DEFENSIVE (the expert's
    model=defensive)."""
    others = mode == OWN_ALL_DEFENSIVE or mode == OWN_PLAN_ALL_DEFENSIVE
    plan = mode == OWN_PLAN or mode == OWN_PLAN_ALL_DEFENSIVE
    mover = True
    while mover:
        q = P[TURN] & SMASK
        if q == r or others:
            n = legal_moves(G, P, q, ot, oe)
            if n == 1:
                i = 0
            elif q == r and plan:
                i = plan_pick(G, P, q, ot, oe, n, scratch2, ctl[SV_PLAN] / 1000.0, ctl[SV_PLAN + 1] / 1000.0,
                              ctl[SV_PLAN + 2] / 1000.0, ctl[SV_PLAN + 3] / 1000.0)
            else:
                i = defensive_pick(G, P, q, ot, oe, n, scratch2)
            t, e = ot[i], oe[i]
        else:
            t, e = greedy_move(G, P, q, False)
            t &= TMASK
        place(G, P, q, t, e)
        mover, _ = forced(G, P, bone, rec, 0, REC_NONE, 0)


@called
def playout(G, P, bone2, s, t, e, pt, pe, rec, scratch):
    """Seat s places tile t on end e in P, then every seat plays greedy to the end; settle it."""
    place(G, P, s, t, e)
    mover, _ = forced(G, P, bone2, rec, 0, REC_NONE, 0)
    if mover:
        greedy_to_end(G, P, bone2, rec)
    finish(G, P)


@kernel
def margin(G, P, s):
    """Seat s's total minus the best other seat's total."""
    return standing(G, P, s)[1]


@entry
def rollout_pick(G, St, s, nsamp, key, mv_t, mv_e, n, scratch):
    """Monte Carlo: for each of ``nsamp`` worlds (:func:`~simdom.engine._kernel.sampler.sample_world`; world j
    from its own stream seeded by ``key`` and j, so every move meets the same worlds), place each legal
    move and play to the end with greedy for every seat; the move with the best summed margin wins,
    ties to greedy's choice, then the first listed. Not inlined: compiled once, called once per decision."""
    P, bone2, pt, pe, pool, acc = (scratch[SX_P], scratch[SX_BONE], scratch[SX_PT], scratch[SX_PE], scratch[SX_POOL],
                                   scratch[SX_ACC])
    W, deck, loc, rec, aux, dp = (scratch[SX_W], scratch[SX_DECK], scratch[SX_LOC], scratch[SX_REC], scratch[SX_AUX],
                                  scratch[SX_DP])
    aux[AUX_PREP] = 0  # a new position: the sampler's counting tables are built again if needed
    for i in range(n):
        acc[i] = 0.0
    u = unseen_tiles(G, St, s, pool)
    for j in range(nsamp):
        loc[0] = mix64(key + np.uint64(j + 1) * GAMMA)
        sample_world(G, St, s, W, bone2, pool, np.int64(u), deck, loc, aux, dp)
        for i in range(n):
            for k in range(ST_SIZE):
                P[k] = W[k]
            playout(G, P, bone2, s, mv_t[i], mv_e[i], pt, pe, rec, scratch)
            acc[i] += margin(G, P, s)
    best = greedy_pick(G, St, mv_t, mv_e, n, False, scratch)
    for i in range(n):
        if acc[i] > acc[best]:
            best = i
    return best


# ---- dispatch ------------------------------------------------------------------------------------


@kernel
def choose(G, St, s, pid, par, rng, mv_t, mv_e, scratch):
    """(tile, end): the move seat s's policy ``pid`` chooses (seat s holds a legal move). Random and
    greedy work on the hand's masks; the other policies get the list of moves in mv_t/mv_e. A policy
    is asked only when there is a choice: a single legal move is played without it."""
    if pid == POL_RANDOM:
        n = n_moves(G, St, s)
        return nth_move(G, St, s, 0 if n == 1 else below(rng, RNG_SEAT + s, n))
    # hold:until=K = greedy that keeps the first double back before move K
    hold = pid == POL_HOLD and St[FD_MOVE] == 0 and St[NPL] + 1 < par[PAR_UNTIL]
    i = -1  # greedy's move (one inlined copy of greedy_move for every branch that falls back to it)
    if pid != POL_GREEDY and pid != POL_HOLD:
        n = legal_moves(G, St, s, mv_t, mv_e)
        if n == 1:
            i = 0
        elif pid == POL_TIMING:  # at a first-double decision, its rule (ktiming.py); elsewhere greedy
            i = timing_pick(G, St, s, par, mv_t, mv_e, n)
        elif pid == POL_HEAVY:
            i = heavy_pick(G, St, mv_t, mv_e, n)
        elif pid == POL_DEFENSIVE:
            i = defensive_pick(G, St, s, mv_t, mv_e, n, scratch)
        elif pid == POL_PLAN:
            i = plan_pick(G, St, s, mv_t, mv_e, n, scratch, par[PAR_PL_REPLY], par[PAR_PL_NEXT], par[PAR_PL_KEEP],
                          par[PAR_PL_PIPS])
        elif pid == POL_ROLLOUT:
            i = rollout_pick(G, St, s, np.int64(par[PAR_SAMPLES]), next64(rng, RNG_SEAT + s), mv_t, mv_e, n,
                             scratch)
        else:
            i = 0
    if i < 0:
        return greedy_move(G, St, s, hold)
    return mv_t[i], mv_e[i]


@called
def policy_move(G, St, s, pid, par, rng, mv_t, mv_e, scratch):
    """:func:`choose` compiled once and called: the solver's against mode asks it for every other
    seat's move (one call per such node, instead of the whole policy set inlined into the solver)."""
    return choose(G, St, s, pid, par, rng, mv_t, mv_e, scratch)

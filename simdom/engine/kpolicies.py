"""Policies inside the kernel: each chooses one of the legal moves listed in (mv_t, mv_e).

A policy reads only what its seat may know: its own hand (``St`` seat block of ``s``), the layout,
the tiles played (``St[PLAYED]``), hand counts (``HCNT``), the boneyard size (``BN - BTOP``), scores
(``PTS``, ``BON``) and the values each seat was seen unable to play (``VOID``). It never reads another
seat's ``HAND`` nor ``bone``. Its randomness is its own stream ``1 + s``.

Policy ids and their parameters (``par``: float64[4]) are assigned in :mod:`simdom.policies`.
"""
from __future__ import annotations

import numpy as np
from .jit import entry, kernel

from .core import advance, end_bases, end_count, finish, move_value, n_open_ends, next_seat, place, seat_base
from .layout import (AUX_PREP, POL_DEFENSIVE, POL_GREEDY, POL_HEAVY, POL_HOLD, POL_RANDOM, POL_ROLLOUT,  # noqa: F401
                     BON, E_LEAD, EB, ENDED, EV, FD_MOVE, HCNT, NPL, PTS, R_DBL_BOTH, R_PLAYERS, REC_NONE,
                     ST_SIZE, TURN, VOID)
from .rng import GAMMA, below, mix64, next64
from .sampler import copy_known, may_hold, sample_world, unseen_tiles
from .work import make_scratch  # noqa: F401  (the policies' work arrays)



@kernel
def greedy_pick(G, St, mv_t, mv_e, n, hold, scratch):
    """The move with the most immediate points; ties to the heavier tile, then the first listed.

    With ``hold``, a move placing the deal's first double is chosen only if no other move exists.
    Each move's rank is one integer, points * 32 + pips (pips <= 24), and the first move with the
    highest rank wins: one comparison per move, so the loop has few unpredictable branches.
    """
    TA, TB, PIPS, SCORE = G[1], G[2], G[3], G[5]
    best = -1
    brank = -1
    held = -1  # the best first-double move, kept aside while holding
    hrank = -1
    no_double_yet = St[FD_MOVE] == 0
    keep_back = hold and no_double_yet
    if St[NPL] == 0:  # the lead
        for i in range(n):
            t = mv_t[i] & 127
            rank = move_value(G, St, t, E_LEAD) * 32 + PIPS[t]
            if keep_back and TA[t] == TB[t]:
                if rank > hrank:
                    held = i
                    hrank = rank
            elif rank > brank:
                best = i
                brank = rank
        return best if best >= 0 else held
    fd_bonus = G[6][(St[NPL] + 1) & 127] if no_double_yet else 0
    both = G[0][R_DBL_BOTH]
    kb = scratch[6]
    sb = scratch[7]
    end_bases(G, St, kb, sb)
    for i in range(n):
        t = mv_t[i] & 127  # the masks tell LLVM the index ranges: no negative-index checks
        e = mv_e[i] & 3
        a = TA[t]
        d = np.int64(a == TB[t])
        # the end shows a + b - v afterwards; a double there counts twice its face if both
        c = PIPS[t] - St[EV + e] + a * (d & both)
        rank = (SCORE[kb[e] & 7, (sb[e] + c) & 127] + fd_bonus * d) * 32 + PIPS[t]
        if keep_back and d:
            if rank > hrank:
                held = i
                hrank = rank
            continue
        better = rank > brank  # a select, not a jump: which move ranks higher is unpredictable
        best = i if better else best
        brank = rank if better else brank
    return best if best >= 0 else held


@kernel
def heavy_pick(G, St, mv_t, mv_e, n):
    """The heaviest tile; ties by immediate points, then the first listed."""
    PIPS = G[3]
    best = -1
    bv = -1
    bp = -1
    for i in range(n):
        t = mv_t[i]
        p = PIPS[t]
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
    TA, TB, SCORE = G[1], G[2], G[5]
    nend = n_open_ends(G, P)
    end_bases(G, P, kb, sb)
    fd = G[6][P[NPL] + 1] if P[FD_MOVE] == 0 else 0
    z = 0
    for i in range(c):
        t = cand[i]
        a = TA[t]
        b = TB[t]
        best = 0
        for e in range(nend):
            ev = P[EV + e]
            if a == ev or b == ev:
                if a == b:
                    v = SCORE[kb[e], sb[e] + end_count(G, a, True)] + fd
                else:
                    v = SCORE[kb[e], sb[e] + (b if a == ev else a)]
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


@entry
def defensive_pick(G, St, s, mv_t, mv_e, n, scratch):
    """Greedy's immediate points minus the next seat's expected best reply (:func:`expected_reply`)
    over the unseen tiles it may hold (none carrying a value it was seen unable to play, unless that
    leaves fewer than its hand count); ties to the heavier tile, then the first listed.
    Not inlined (as rollout_pick): it keeps the batch kernel's compile time down."""
    PIPS = G[3]
    P, vals, cand, kb, sb = scratch[0], scratch[2], scratch[4], scratch[6], scratch[7]
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
    best = -1
    bv = 0.0
    bp = -1
    for i in range(n):
        copy_known(G, St, s, P)
        pts, bonus, _, _ = place(G, P, s, mv_t[i], mv_e[i])
        v = float(pts + bonus)
        if P[ENDED] == 0:
            v -= expected_reply(G, P, cand, c, h, vals, kb, sb)
        p = PIPS[mv_t[i]]
        if best < 0 or v > bv or (v == bv and p > bp):
            best = i
            bv = v
            bp = p
    return best


# ---- rollout -------------------------------------------------------------------------------------

@kernel
def playout(G, P, bone2, s, t, e, pt, pe, rec, scratch):
    """Seat s places tile t on end e in P, then every seat plays greedy to the end; settle it."""
    q = s
    while True:
        place(G, P, q, t, e)
        m, _ = advance(G, P, bone2, pt, pe, rec, 0, REC_NONE, 0)
        if m == 0:
            break
        q = P[TURN]
        i = greedy_pick(G, P, pt, pe, m, False, scratch)
        t = pt[i]
        e = pe[i]
    finish(G, P)


@kernel
def margin(G, P, s):
    """Seat s's total minus the best other seat's total."""
    best = -(1 << 30)
    own = 0
    for o in range(G[0][R_PLAYERS]):
        b = seat_base(o)
        tot = P[b + PTS] + P[b + BON] + P[b + EB]
        if o == s:
            own = tot
        elif tot > best:
            best = tot
    return own - best


@entry
def rollout_pick(G, St, s, nsamp, key, mv_t, mv_e, n, scratch):
    """Monte Carlo: for each of ``nsamp`` worlds (:func:`~simdom.engine.sampler.sample_world`; world j
    from its own stream seeded by ``key`` and j, so every move meets the same worlds), place each legal
    move and play to
    the end with greedy for every seat; the move with the best summed margin wins, ties to greedy's
    choice, then the first listed. Not inlined: compiled once, called once per decision."""
    P, bone2, pt, pe, pool, acc = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4], scratch[5]
    W, deck, loc, rec, aux, dp = scratch[8], scratch[9], scratch[10], scratch[11], scratch[12], scratch[13]
    aux[AUX_PREP] = 0  # a new position: the sampler's counting tables are built again if needed
    for i in range(n):
        acc[i] = 0.0
    u = unseen_tiles(G, St, s, pool)
    for j in range(nsamp):
        loc[0] = mix64(key + np.uint64(j + 1) * GAMMA)
        sample_world(G, St, s, W, bone2, pool, u, deck, loc, aux, dp)
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
def choose(G, St, s, pid, par, rng, mv_t, mv_e, n, scratch):
    """Index into the n legal moves of the move seat s's policy ``pid`` chooses."""
    if n == 1:
        return 0
    if pid == POL_RANDOM:
        return below(rng, 1 + s, n)
    if pid == POL_HEAVY:
        return heavy_pick(G, St, mv_t, mv_e, n)
    if pid == POL_DEFENSIVE:
        return defensive_pick(G, St, s, mv_t, mv_e, n, scratch)
    if pid == POL_ROLLOUT:
        return rollout_pick(G, St, s, np.int64(par[0]), next64(rng, 1 + s), mv_t, mv_e, n, scratch)
    # greedy, and hold:until=K = greedy that keeps the first double back before move K
    hold = pid == POL_HOLD and St[FD_MOVE] == 0 and St[NPL] + 1 < par[0]
    return greedy_pick(G, St, mv_t, mv_e, n, hold, scratch)


@entry
def choose_entry(G, St, s, pid, par, rng, mv_t, mv_e, n, scratch):
    """:func:`choose` called from Python (tests)."""
    return choose(G, St, s, pid, par, rng, mv_t, mv_e, n, scratch)

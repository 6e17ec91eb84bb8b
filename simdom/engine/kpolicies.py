"""Policies inside the kernel: each chooses one of the legal moves listed in (mv_t, mv_e).

A policy reads only what its seat may know: its own hand (``St`` seat block of ``s``), the layout,
the tiles played (``St[PLAYED]``), hand counts (``HCNT``), the boneyard size (``BN - BTOP``), scores
(``PTS``, ``BON``) and the values each seat was seen unable to play (``VOID``). It never reads another
seat's ``HAND`` nor ``bone``. Its randomness is its own stream ``1 + s``.

Policy ids and their parameters (``par``: float64[4]) are assigned in :mod:`simdom.policies`.
"""
from __future__ import annotations

import numpy as np
from .jit import kernel

from .core import end_bases, end_count, move_value
from .layout import EV, FD_MOVE, NPL, ST_SIZE
from .rng import below

POL_RANDOM, POL_GREEDY, POL_HEAVY, POL_HOLD, POL_DEFENSIVE, POL_ROLLOUT = range(6)
N_PARAMS = 4


@kernel
def greedy_pick(G, St, mv_t, mv_e, n, hold, scratch):
    """The move with the most immediate points; ties to the heavier tile, then the first listed.

    With ``hold``, a move placing the deal's first double is chosen only if no other move exists.
    """
    TA, TB, PIPS, SCORE = G[1], G[2], G[3], G[5]
    best = -1
    bv = -1
    bp = -1
    held = -1  # the best first-double move, kept aside while holding
    hv = -1
    hp = -1
    no_double_yet = St[FD_MOVE] == 0
    fd_bonus = G[6][St[NPL] + 1] if no_double_yet else 0
    lead = St[NPL] == 0
    kb = scratch[6]
    sb = scratch[7]
    if not lead:
        end_bases(G, St, kb, sb)
    for i in range(n):
        t = mv_t[i]
        e = mv_e[i]
        a = TA[t]
        b = TB[t]
        dbl = a == b
        if lead:
            v = move_value(G, St, t, e)
        elif dbl:
            v = SCORE[kb[e], sb[e] + end_count(G, a, True)] + fd_bonus
        else:
            v = SCORE[kb[e], sb[e] + (b if a == St[EV + e] else a)]
        p = PIPS[t]
        if hold and dbl and no_double_yet:
            if v > hv or (v == hv and p > hp):
                held = i
                hv = v
                hp = p
        elif v > bv or (v == bv and p > bp):
            best = i
            bv = v
            bp = p
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


def make_scratch(nt):
    """Work arrays of the policies: (state copy, boneyard copy, move lists, tiles, values, end bases k, S)."""
    m = 4 * nt + 4
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64),
            np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64),
            np.zeros(nt, dtype=np.int64), np.zeros(m, dtype=np.float64),
            np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64))


@kernel
def choose(G, St, s, pid, par, rng, mv_t, mv_e, n, scratch):
    """Index into the n legal moves of the move seat s's policy ``pid`` chooses."""
    if n == 1:
        return 0
    if pid == POL_RANDOM:
        return below(rng, 1 + s, n)
    if pid == POL_HEAVY:
        return heavy_pick(G, St, mv_t, mv_e, n)
    # greedy, and hold:until=K = greedy that keeps the first double back before move K
    hold = pid == POL_HOLD and St[FD_MOVE] == 0 and St[NPL] + 1 < par[0]
    return greedy_pick(G, St, mv_t, mv_e, n, hold, scratch)

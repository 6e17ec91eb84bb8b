"""The open ends of the layout: which ends are open, what they count, and what a placement scores
(docs/rules.md 3 'Counting the ends' and 4), as numba functions over the state of ``layout.py``.

An end's *base* is what the other counted ends make once a tile lies on it: a placement that leaves
count c on end e makes k ends summing to S + c, with (k, S) = :func:`end_base` (G, St, e).
"""
from __future__ import annotations

import numpy as np
from .jit import kernel

from .layout import (ARMS, BONUS, ED, EV, E_LEAD, FD_MOVE, LONE, NPL, R_DBL_BOTH, SCORE, SCORE_KS, SCORE_ROW,
                     SCORE_SHIFT, SPIN, TA, TB, TMASK, USED)


@kernel
def score_at(G, k, s):
    """Points of a placement that leaves k counted ends summing to s (docs/rules.md 4): G's SCORE table."""
    return G[SCORE + ((k & SCORE_KS - 1) << SCORE_SHIFT) + (s & SCORE_ROW - 1)]


@kernel
def end_count(G, v, dbl):
    """What an end showing ``v`` counts: 2v for a double when double_counts = both.
    (Arithmetic, not a branch: whether an end's tile is a double is data the CPU cannot predict.)"""
    return v + v * (np.int64(dbl) & G[R_DBL_BOTH])


@kernel
def line_part(G, St):
    """(k, S) of the line ends L and R: one counted end while a double lead stands alone."""
    c0 = end_count(G, St[EV], St[ED])
    if St[LONE]:
        return 1, c0
    return 2, c0 + end_count(G, St[EV + 1], St[ED + 1])


@kernel
def arm_count(G, St, j):
    """What arm j (0 = U, 1 = D) adds: (1, its end's count) once it has a tile, else (0, 0)."""
    u = St[USED + j]
    return u, u * end_count(G, St[EV + 2 + j], St[ED + 2 + j])


@kernel
def counted_ends(G, St):
    """(k, S): the number of counted ends of the layout and their sum (docs/rules.md 3, 'Counting the ends')."""
    if St[NPL] == 0:
        return 0, 0
    k, s = line_part(G, St)
    ku, su = arm_count(G, St, 0)
    kd, sd = arm_count(G, St, 1)
    return k + ku + kd, s + su + sd


@kernel
def base_of(G, St, e, lk, ls, ku, su, kd, sd):
    """end_base from the parts: line (lk, ls), arm U (ku, su), arm D (kd, sd)."""
    if e < 2:  # the other line end (the lead double, if it stood alone) and the arms
        o = 1 - e
        return 2 + ku + kd, end_count(G, St[EV + o], St[ED + o]) + su + sd
    if e == 2:
        return lk + 1 + kd, ls + sd
    return lk + 1 + ku, ls + su


@kernel
def end_base(G, St, e):
    """(k, S) of the counted ends once a tile lies on open end e, apart from end e's own count:
    a placement on e leaving count c there makes k ends summing to S + c."""
    lk, ls = line_part(G, St)
    ku, su = arm_count(G, St, 0)
    kd, sd = arm_count(G, St, 1)
    return base_of(G, St, e, lk, ls, ku, su, kd, sd)


@kernel
def end_bases(G, St, kb, sb):
    """kb[e], sb[e] = end_base(e) for the four ends (layout not empty)."""
    lk, ls = line_part(G, St)
    ku, su = arm_count(G, St, 0)
    kd, sd = arm_count(G, St, 1)
    for e in range(4):
        kb[e], sb[e] = base_of(G, St, e, lk, ls, ku, su, kd, sd)


@kernel
def ends_after(G, St, t, e):
    """(k, S) after placing tile ``t`` on end ``e``, without changing the state."""
    a = G[TA + t]
    b = G[TB + t]
    dbl = a == b
    if e == E_LEAD:
        if dbl:
            return 1, end_count(G, a, True)
        return 2, a + b
    k, s = end_base(G, St, e)
    return k, s + end_count(G, b if a == St[EV + e] else a, dbl)


@kernel
def first_double_bonus(G, St, t):
    """The bonus placing ``t`` now would earn: non-zero only for the deal's first double."""
    if St[FD_MOVE] == 0 and G[TA + t] == G[TB + t]:
        return G[BONUS + ((St[NPL] + 1) & TMASK)]
    return 0


@kernel
def move_value(G, St, t, e):
    """Immediate points of a placement: what it scores plus its first-double bonus."""
    k, s = ends_after(G, St, t, e)
    return score_at(G, k, s) + first_double_bonus(G, St, t)


@kernel
def n_open_ends(G, St):
    """Open ends, in the order L, R, U, D (0 before the lead: the lead is the only move)."""
    if St[NPL] == 0:
        return 0
    if St[SPIN] >= 0 and St[ARMS]:
        return 4
    return 2


@kernel
def ends_value_mask(G, St):
    """Bit v set for each value v shown by an open end."""
    m = 0
    for e in range(n_open_ends(G, St)):
        m |= 1 << St[EV + e]
    return m


@kernel
def tile_fits(G, St, t):
    """Tile t fits an open end (never before the lead)."""
    a = G[TA + t]
    b = G[TB + t]
    for e in range(n_open_ends(G, St)):
        v = St[EV + e]
        if v == a or v == b:
            return True
    return False

"""The exact solver's values (solve.py): what a settled deal is worth to the root side, what the scores
so far already hold of it, and bounds of what is still to score.

The value is ``by`` margin (the side's deal total minus the highest other side's total, end bonus
included) or points (the side's own deal total): :func:`side_totals_value`. Where it is additive (points,
or the margin between two sides) the table holds the value of the future, the value less what is already
scored (:func:`offset`).

Every position is first bounded by what is left to score (:func:`value_bounds`, as DDS's quick
tricks): the root side gains at most, for each tile in its hands, the most a placement of that tile can
score (its own end beside the largest other ends: :func:`tiles_max`; nothing for a tile that can never be
placed: :func:`dead_tiles`), the boneyard it may draw times the most any placement scores, the
first-double bonus while no double is down, and the largest end bonus; every other side likewise. A
position whose bounds fall outside the window is not searched (in exact solves: below a horizon the
search policy's trees are small, and the bounds cost it more than they save). With several sides by
margin, :func:`margins_now` and :func:`bounds_vec` give the root's margin over each seat and its quick
lower bound seat by seat (solvetable.py keeps them in the table).

The solver's arrays V are read by name (layout.V_*), its controls ctl = V[V_CTL] by layout.SV_*.
"""
from __future__ import annotations

import numpy as np

from .bits import popcount
from .core import round_bonus, seat_total
from .ends import end_count
from .jit import kernel
from .layout import (AGAINST_READS_ALL, BLOCK_NONE, BN, BON, BTOP, HAND, BY_POINTS, EB, ED, EV, EXPC, EXPM, FD_MOVE, HPIPS,
                     LONE, NPL, OUT_FIXED, OUT_OPP_PIPS, PIPS, PLAYED, PMX, POINTS_FIXED, PTS, R_BLOCK_MODE, R_BMAX, R_DBL_BOTH, TA, TB,
                     R_DRAW, R_MAXPIP, R_OUT_MODE, R_OUT_N, R_PLAYERS, R_PMAX, R_POINTS_MODE, R_RESERVE, R_SPINNER,
                     R_W, SCORE_ROW, SPIN, SV_AGAINST, SV_BY, SV_MULTI, SV_ROOT, SV_SIDE, TMASK, USED, V_CTL, V_SIDES, VM,
                     VMASK)
from .moves import seat_base

#: a value beyond every deal's (the bounds' "none")
INF = 1 << 40


@kernel
def dead_tiles(G, P):
    """(d0, d1): the mask words of the tiles not yet placed that can never be placed. A number that no
    end shows and that only one tile not yet placed holds can show later only when that tile is placed;
    a tile whose numbers are all such (a double: its one number) therefore never fits: it is in no
    number's tiles but these. Before the lead every tile fits. The spinner's arms show its number (its
    line end showed it when it was placed)."""
    if P[NPL] == 0:
        return np.int64(0), np.int64(0)
    shown = (np.int64(1) << (P[EV] & VMASK)) | (np.int64(1) << (P[EV + 1] & VMASK))
    if P[SPIN] >= 0:
        shown |= (np.int64(1) << (P[EV + 2] & VMASK)) | (np.int64(1) << (P[EV + 3] & VMASK))
    u0 = ~P[PLAYED]
    u1 = ~P[PLAYED + 1]
    l0 = np.int64(0)  # the tiles holding a number that can still show
    l1 = np.int64(0)
    for v in range(G[R_MAXPIP] + 1):
        c = popcount(u0 & G[VM + 2 * v]) + popcount(u1 & G[VM + 2 * v + 1])
        live = -(((shown >> v) & 1) | np.int64(c != 1))
        l0 |= G[VM + 2 * v] & live
        l1 |= G[VM + 2 * v + 1] & live
    d0 = u0 & ~l0
    d1 = u1 & ~l1
    return d0, d1


@kernel
def placement_max(G, P, d0, d1):
    """(pm, s3): the most any one placement can still score (at most G[R_PMAX]), and the most the
    counted ends beside the one a tile is placed on can sum to (-1: no such bound). The counted ends at
    any later time are at most four (two without a spinner), each either an end as it stands now or an
    end with a tile not yet placed outermost (not one of the dead tiles d0, d1: :func:`dead_tiles`); so
    their sum is at most the largest such counts added (a tile: the most an end counts with it outermost,
    G's EXPM rows), and a placement scores at most the
    best of the sums up to that (G's PMX). The tile placed is outermost on one of them, so the others
    sum to at most the largest counts but one (s3; not at the lead, whose tile shows on both ends).
    Fixed points score the same whatever the sum."""
    if G[R_POINTS_MODE] == POINTS_FIXED:
        return G[R_PMAX], np.int64(-1)
    c0 = c1 = c2 = c3 = -1
    if P[NPL] > 0:
        c0 = end_count(G, P[EV], P[ED])
        if P[LONE] == 0:
            c1 = end_count(G, P[EV + 1], P[ED + 1])
        if P[USED]:
            c2 = end_count(G, P[EV + 2], P[ED + 2])
        if P[USED + 1]:
            c3 = end_count(G, P[EV + 3], P[ED + 3])
    need = 4 if G[R_SPINNER] else 2
    w2 = G[R_W] > 1
    s = 0
    s3 = np.int64(-1)
    e = 2 * G[R_MAXPIP]
    while e >= 0 and need > 0:
        c = np.int64(c0 == e) + np.int64(c1 == e) + np.int64(c2 == e) + np.int64(c3 == e)
        c += popcount(~(P[PLAYED] | d0) & G[EXPM + 2 * e])
        if w2:
            c += popcount(~(P[PLAYED + 1] | d1) & G[EXPM + 2 * e + 1])
        take = min(c, need)
        if take == need:  # the largest counts but one: those so far and all but one of this count's
            s3 = s + (take - 1) * e
        s += take * e
        need -= take
        e -= 1
    if s3 < 0:
        s3 = s
    if P[NPL] == 0:
        s3 = -1
    return G[PMX + (s & (SCORE_ROW - 1))], s3


@kernel
def tiles_max(G, pm, s3, a0, a1, a2, a3, b0, b1, b2, b3):
    """The most the tiles of four hands (tile masks, words a and b) can score when placed, each at most
    pm, and a tile whose end counts at most e (G's EXPM) at most PMX at e + s3 (placement_max): the
    hands' tiles times the most, less each step of that bound over the counts times the tiles below it
    (G's EXPC, the tiles counting at most e)."""
    g0 = (popcount(a0) + popcount(b0)) * pm
    g1 = (popcount(a1) + popcount(b1)) * pm
    g2 = (popcount(a2) + popcount(b2)) * pm
    g3 = (popcount(a3) + popcount(b3)) * pm
    if s3 < 0:
        return g0, g1, g2, g3
    prev = pm
    w2 = G[R_W] > 1
    e = 2 * G[R_MAXPIP]
    while e >= 0 and prev > 0:
        w = min(pm, G[PMX + ((e + s3) & (SCORE_ROW - 1))])
        if w < prev:  # the tiles counting at most e score at most w
            d = prev - w
            m0 = G[EXPC + 2 * e]
            g0 -= d * popcount(a0 & m0)
            g1 -= d * popcount(a1 & m0)
            g2 -= d * popcount(a2 & m0)
            g3 -= d * popcount(a3 & m0)
            if w2:  # tiles past the 64th (double-nine and up)
                m1 = G[EXPC + 2 * e + 1]
                g0 -= d * popcount(b0 & m1)
                g1 -= d * popcount(b1 & m1)
                g2 -= d * popcount(b2 & m1)
                g3 -= d * popcount(b3 & m1)
            prev = w
        e -= 1
    return g0, g1, g2, g3


@kernel
def mover_less(G, P, n, mt, mk, pm, s3, low):
    """How much less the mover's side can gain than its bound says: it places one of its n moves now
    (tiles mt, immediate points in its order keys mk: bits ``low`` over 8), which scores what it scores
    where the bound counted that tile's most (tiles_max), so the least over its moves of that tile's
    most less the move's points (0 at the least)."""
    dl = np.int64(INF)
    for i in range(n):
        t = mt[i] & TMASK
        a = G[TA + t]
        b = G[TB + t]
        e = 2 * a if (a == b and G[R_DBL_BOTH]) else max(a, b)
        w = pm if s3 < 0 else min(pm, G[PMX + ((e + s3) & (SCORE_ROW - 1))])
        dl = min(dl, w - ((mk[i] & low) >> 8))
    return max(dl, np.int64(0))


@kernel
def gain_max(G, P, tg, pips_in, pips_all):
    """The most points a side can still add to its total: its placements (``tg``: tiles_max of its
    hands, and the boneyard it may draw at the most a placement scores), the first-double bonus if no
    double is down, and the end bonus (at most the pips outside its hands, ``pips_all - pips_in``, or
    the fixed out bonus)."""
    g = tg
    if P[FD_MOVE] == 0:
        g += G[R_BMAX]
    eb = 0
    if G[R_OUT_MODE] == OUT_FIXED:
        eb = G[R_OUT_N]
    if G[R_OUT_MODE] == OUT_OPP_PIPS or G[R_BLOCK_MODE] != BLOCK_NONE:
        eb = max(eb, round_bonus(G, pips_all - pips_in))
    return g + eb


@kernel
def value_bounds(G, P, bone, V, kd, dl):
    """(lo, hi, pm, s3, d0, d1): bounds of the root side's final value from P on, whatever anyone plays
    (and placement_max's two figures and the dead tiles, which they used: a tile that can never be placed
    scores nothing); side ``kd``'s
    gain taken ``dl`` lower (-1, 0: none; :func:`mover_less`). One pass over the seats gathers each side's
    total, tiles and pips in hand (sides 0-3 in locals: this runs at every position)."""
    ctl, sides = V[V_CTL], V[V_SIDES]
    root = ctl[SV_SIDE]
    n = G[R_PLAYERS]
    nb = 0
    if G[R_DRAW]:
        nb = max(0, P[BN] - G[R_RESERVE] - P[BTOP])
    pips_all = 0
    t0 = t1 = t2 = t3 = 0
    a0 = a1 = a2 = a3 = np.int64(0)  # each side's hands: the tile masks' two words
    b0 = b1 = b2 = b3 = np.int64(0)
    p0 = p1 = p2 = p3 = 0
    nsides = 0
    for s in range(n):
        b = seat_base(s)
        hp = P[b + HPIPS]
        x0 = P[b + HAND]
        x1 = P[b + HAND + 1]
        v = P[b + PTS] + P[b + BON] + P[b + EB]
        pips_all += hp
        k = sides[s]
        nsides = max(nsides, k + 1)
        if k == 0:
            t0 += v
            a0 |= x0
            b0 |= x1
            p0 += hp
        elif k == 1:
            t1 += v
            a1 |= x0
            b1 |= x1
            p1 += hp
        elif k == 2:
            t2 += v
            a2 |= x0
            b2 |= x1
            p2 += hp
        else:
            t3 += v
            a3 |= x0
            b3 |= x1
            p3 += hp
    if G[R_OUT_MODE] == OUT_OPP_PIPS or G[R_BLOCK_MODE] != BLOCK_NONE:  # the end bonus counts pips
        for i in range(P[BTOP], P[BN]):
            pips_all += G[PIPS + (bone[i & TMASK] & TMASK)]
    own = t0 if root == 0 else t1 if root == 1 else t2 if root == 2 else t3
    d0, d1 = dead_tiles(G, P)  # tiles that can never be placed score nothing
    pm, s3 = placement_max(G, P, d0, d1)
    g0, g1, g2, g3 = tiles_max(G, pm, s3, a0 & ~d0, a1 & ~d0, a2 & ~d0, a3 & ~d0, b0 & ~d1, b1 & ~d1, b2 & ~d1,
                               b3 & ~d1)
    nbm = nb * pm
    up = gain_max(G, P, nbm + (g0 if root == 0 else g1 if root == 1 else g2 if root == 2 else g3),
                  p0 if root == 0 else p1 if root == 1 else p2 if root == 2 else p3, pips_all)
    if ctl[SV_BY] == BY_POINTS:
        return own, own + up, pm, s3, d0, d1
    top = -INF
    topup = -INF
    for k in range(nsides):
        if k != root:
            t = t0 if k == 0 else t1 if k == 1 else t2 if k == 2 else t3
            top = max(top, t)
            topup = max(topup, t - (dl if k == kd else 0)
                        + gain_max(G, P, nbm + (g0 if k == 0 else g1 if k == 1 else g2 if k == 2 else g3),
                                   p0 if k == 0 else p1 if k == 1 else p2 if k == 2 else p3, pips_all))
    return own - topup, own + up - top, pm, s3, d0, d1


@kernel
def side_totals_value(G, P, V):
    """The root side's final value of the settled deal P (by margin or by points)."""
    ctl, sides = V[V_CTL], V[V_SIDES]
    root = ctl[SV_SIDE]
    own = 0
    t0 = 0
    t1 = 0
    t2 = 0
    t3 = 0
    for s in range(G[R_PLAYERS]):
        v = seat_total(P, s)
        k = sides[s]
        if k == root:
            own += v
        if k == 0:
            t0 += v
        elif k == 1:
            t1 += v
        elif k == 2:
            t2 += v
        else:
            t3 += v
    if ctl[SV_BY] == BY_POINTS:
        return own
    best = -INF
    nsides = 0
    for s in range(G[R_PLAYERS]):
        nsides = max(nsides, sides[s] + 1)
    for k in range(nsides):
        if k != root:
            tk = t0 if k == 0 else t1 if k == 1 else t2 if k == 2 else t3
            best = max(best, tk)
    return own - best


@kernel
def offset(G, P, V):
    """What the root side's value already holds of the scores so far, when the value is additive
    (points; the margin between two sides), else 0 (the scores then enter the key)."""
    ctl, sides = V[V_CTL], V[V_SIDES]
    if ctl[SV_MULTI] or ctl[SV_AGAINST] == AGAINST_READS_ALL:
        return 0
    root = ctl[SV_SIDE]
    own = 0
    other = 0
    for s in range(G[R_PLAYERS]):
        v = seat_total(P, s)
        if sides[s] == root:
            own += v
        else:
            other += v
    if ctl[SV_BY] == BY_POINTS:
        return own
    return own - other


@kernel
def margins_now(G, P, V):
    """The root's margin over each seat in P (seats 0-3; INF for the root and absent seats)."""
    r = V[V_CTL][SV_ROOT]
    own = seat_total(P, r)
    m0 = own - seat_total(P, 0) if r != 0 else INF
    m1 = own - seat_total(P, 1) if r != 1 else INF
    m2 = own - seat_total(P, 2) if r != 2 and G[R_PLAYERS] > 2 else INF
    m3 = own - seat_total(P, 3) if r != 3 and G[R_PLAYERS] > 3 else INF
    return m0, m1, m2, m3


@kernel
def bounds_vec(G, P, bone, V, kd, dl, pm, s3, d0, d1):
    """The quick lower bounds of value_bounds seat by seat (several sides by margin: a side is a seat):
    the root's total now less each other seat's total and the most it can still add (seat kd's ``dl``
    less; pm, s3 and the dead tiles d0, d1: as value_bounds returned them)."""
    r = V[V_CTL][SV_ROOT]
    n = G[R_PLAYERS]
    nb = 0
    if G[R_DRAW]:
        nb = max(0, P[BN] - G[R_RESERVE] - P[BTOP])
    pips_all = 0
    for s in range(n):
        pips_all += P[seat_base(s) + HPIPS]
    if G[R_OUT_MODE] == OUT_OPP_PIPS or G[R_BLOCK_MODE] != BLOCK_NONE:
        for i in range(P[BTOP], P[BN]):
            pips_all += G[PIPS + (bone[i & TMASK] & TMASK)]
    own = seat_total(P, r)
    z = np.int64(0)
    h = seat_base(0) + HAND
    j = seat_base(1) + HAND
    g0, g1, g2, g3 = tiles_max(G, pm, s3, P[h] & ~d0, P[j] & ~d0, (P[seat_base(2) + HAND] if n > 2 else z) & ~d0,
                               (P[seat_base(3) + HAND] if n > 3 else z) & ~d0, P[h + 1] & ~d1, P[j + 1] & ~d1,
                               (P[seat_base(2) + HAND + 1] if n > 2 else z) & ~d1,
                               (P[seat_base(3) + HAND + 1] if n > 3 else z) & ~d1)
    nbm = nb * pm
    m0 = INF
    m1 = INF
    m2 = INF
    m3 = INF
    for s in range(n):
        if s != r:
            b = seat_base(s)
            tg = nbm + (g0 if s == 0 else g1 if s == 1 else g2 if s == 2 else g3)
            m = own - seat_total(P, s) - gain_max(G, P, tg, P[b + HPIPS], pips_all) + (dl if s == kd else 0)
            if s == 0:
                m0 = m
            elif s == 1:
                m1 = m
            elif s == 2:
                m2 = m
            else:
                m3 = m
    return m0, m1, m2, m3

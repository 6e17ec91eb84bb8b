"""A seat's legal moves (docs/rules.md 5): the tiles of its hand that fit each open end, as masks.

A hand is two 64-bit mask words (tile t is bit ``t % 64`` of word ``t // 64``); the tiles that show
value v are ``G[VM + 2 v + w]``. The moves are always taken in one order: by end L, R, U, D, and
within an end by tile index (before the lead: the tiles of the hand, or the forced lead tile, on
end ``E_LEAD``). :func:`legal_moves` lists them; :func:`n_moves` counts them and :func:`nth_move`
picks one by its place in that order without listing them (random and greedy need no list).
"""
from __future__ import annotations

from .jit import kernel

from .bits import ctz, popcount
from .ends import n_open_ends
from .layout import (EV, E_LEAD, FORCED, HAND, NPL, R_W, SB, SEAT0, VM, VMASK)


@kernel
def seat_base(s):
    return SEAT0 + s * SB


@kernel
def hand_words(St, s):
    hb = seat_base(s) + HAND
    return St[hb], St[hb + 1]


@kernel
def hand_has(St, s, t):
    return (St[seat_base(s) + HAND + (t >> 6)] >> (t & 63)) & 1


@kernel
def has_move(G, St, s):
    """Seat s holds a legal move: before the lead any tile (the leader holds the forced one, if any),
    then a tile that shows the value of an open end."""
    h0, h1 = hand_words(St, s)
    if St[NPL] == 0:
        return St[FORCED] >= 0 or (h0 | h1) != 0
    f0 = 0
    f1 = 0
    for e in range(n_open_ends(G, St)):
        v = St[EV + e] & VMASK
        f0 |= G[VM + 2 * v]
        f1 |= G[VM + 2 * v + 1]
    return ((h0 & f0) | (h1 & f1)) != 0


@kernel
def push_moves(m, base, e, mv_t, mv_e, n):
    """Append tile base + b on end e for every set bit b of mask word m; returns the new count."""
    while m != 0:
        mv_t[n] = base + ctz(m)
        mv_e[n] = e
        n += 1
        m &= m - 1
    return n


@kernel
def legal_moves(G, St, s, mv_t, mv_e):
    """Fill mv_t/mv_e with seat s's legal (tile, end) moves, in the order of this module; returns how many."""
    hb = seat_base(s) + HAND
    two = G[R_W] > 1
    if St[NPL] == 0:
        if St[FORCED] >= 0:
            mv_t[0] = St[FORCED]
            mv_e[0] = E_LEAD
            return 1
        n = push_moves(St[hb], 0, E_LEAD, mv_t, mv_e, 0)
        if two:
            n = push_moves(St[hb + 1], 64, E_LEAD, mv_t, mv_e, n)
        return n
    n = 0
    for e in range(n_open_ends(G, St)):
        v = St[EV + e] & VMASK  # masks state index ranges: no negative-index checks
        n = push_moves(St[hb] & G[VM + 2 * v], 0, e, mv_t, mv_e, n)
        if two:
            n = push_moves(St[hb + 1] & G[VM + 2 * v + 1], 64, e, mv_t, mv_e, n)
    return n


@kernel
def n_moves(G, St, s):
    """How many legal moves seat s has: the length of :func:`legal_moves`' list, by popcounts."""
    h0, h1 = hand_words(St, s)
    if St[NPL] == 0:
        if St[FORCED] >= 0:
            return 1
        return popcount(h0) + popcount(h1)
    n = 0
    for e in range(n_open_ends(G, St)):
        v = St[EV + e] & VMASK
        n += popcount(h0 & G[VM + 2 * v]) + popcount(h1 & G[VM + 2 * v + 1])
    return n


@kernel
def nth_bit(m0, m1, i):
    """Index of the i-th (0-based) set bit of the two-word mask (m0, m1)."""
    c0 = popcount(m0)
    base = 0
    m = m0
    if i >= c0:
        i -= c0
        m = m1
        base = 64
    for _ in range(i):
        m &= m - 1
    return base + ctz(m)


@kernel
def nth_move(G, St, s, i):
    """(tile, end): the i-th move of :func:`legal_moves`' list, without listing them."""
    h0, h1 = hand_words(St, s)
    if St[NPL] == 0:
        if St[FORCED] >= 0:
            return St[FORCED], E_LEAD
        return nth_bit(h0, h1, i), E_LEAD
    for e in range(n_open_ends(G, St)):
        v = St[EV + e] & VMASK
        m0 = h0 & G[VM + 2 * v]
        m1 = h1 & G[VM + 2 * v + 1]
        c = popcount(m0) + popcount(m1)
        if i < c:
            return nth_bit(m0, m1, i), e
        i -= c
    return -1, -1

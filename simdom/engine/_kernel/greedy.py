"""The greedy policy in the kernel (and hold, greedy keeping the first double back): the move with the
most immediate points, found from the hand's masks without listing the moves (moves.py).
"""
from __future__ import annotations

import numpy as np
from .jit import kernel

from .bits import ctz
from .ends import arm_count, end_count, line_part, move_value, n_open_ends, score_at
from .layout import (BONUS, ED, EV, E_LEAD, FD_MOVE, FORCED, NPL, PIPS, R_DBL_BOTH, R_W, SMASK, TA, TB, TMASK,
                     TURN, VM, VMASK)
from .moves import hand_words


#: A move's rank: points * PIP_SLOTS + the tile's pips (pips <= 24 < PIP_SLOTS).
PIP_SLOTS = 32
#: A move's place in the order moves are listed (moves.py): (e << TILE_BITS) | t < 2^ORDER_BITS.
TILE_BITS = 7
ORDER_BITS = TILE_BITS + 2
LAST = (1 << ORDER_BITS) - 1


@kernel
def move_key(rank, e, t):
    """One integer per move: the higher rank first, then the earlier move in the listed order."""
    return (rank << ORDER_BITS) | (LAST - ((e << TILE_BITS) | t))


@kernel
def end_key(G, fits, p, t, e, v, k, sbase, both, d, fd):
    """The key of tile t (pips p, double d) on end e showing v with base (k, sbase), or -1 if it does
    not fit there: computed either way and selected, no jump (which ends a tile fits is unpredictable).
    The end shows the other half afterwards, x = p - v (v again for a double, which counts twice
    its face when both)."""
    x = p - v
    c = x + x * (d & both)
    key = move_key((score_at(G, k, sbase + c) + fd * d) * PIP_SLOTS + p, e, t)
    return key if fits else -1


@kernel
def greedy_move(G, St, s, hold):
    """Seat s's move with the most immediate points; ties to the heavier tile, then the first in the
    order moves are listed (moves.py: by end L, R, U, D, then by tile index).

    With ``hold``, a move placing the deal's first double is chosen only if no other move exists.
    Each move's rank is points * PIP_SLOTS + pips; its key (:func:`move_key`) adds its place in
    the order, so the best move is the highest key whatever order the moves are met in. The moves are
    met tile by tile (each tile of the hand that fits some end), each tile valued on all four ends at
    once: one loop, no branch on which ends a tile fits. Returns (tile, end).
    """
    no_double_yet = St[FD_MOVE] == 0
    keep_back = hold and no_double_yet
    best = -1
    held = -1  # the best first-double move, kept aside while holding
    h0, h1 = hand_words(St, s)
    if St[NPL] == 0:  # the lead
        if St[FORCED] >= 0:
            return St[FORCED], E_LEAD
        for w in range(2):
            m = h0 if w == 0 else h1
            while m != 0:
                t = (w * 64 + ctz(m)) & TMASK
                m &= m - 1
                key = move_key(move_value(G, St, t, E_LEAD) * PIP_SLOTS + G[PIPS + t], 0, t)
                if keep_back and G[TA + t] == G[TB + t]:
                    held = max(held, key)
                else:
                    best = max(best, key)
        if best < 0:
            best = held
        return (LAST - (best & LAST)) & TMASK, E_LEAD
    fd = G[BONUS + ((St[NPL] + 1) & TMASK)] if no_double_yet else 0
    both = G[R_DBL_BOTH]
    lk, ls = line_part(G, St)
    ku, su = arm_count(G, St, 0)
    kd, sd = arm_count(G, St, 1)
    v0 = St[EV] & VMASK
    v1 = St[EV + 1] & VMASK
    v2 = St[EV + 2] & VMASK
    v3 = St[EV + 3] & VMASK
    k01 = 2 + ku + kd
    s0 = end_count(G, St[EV + 1], St[ED + 1]) + su + sd
    s1 = end_count(G, St[EV], St[ED]) + su + sd
    arms = -1 if n_open_ends(G, St) == 4 else 0
    for w in range(G[R_W]):
        h = h0 if w == 0 else h1
        m0 = h & G[VM + 2 * v0 + w]
        m1 = h & G[VM + 2 * v1 + w]
        m2 = h & G[VM + 2 * v2 + w] & arms
        m3 = h & G[VM + 2 * v3 + w] & arms
        m = m0 | m1 | m2 | m3
        while m != 0:
            b = ctz(m)
            m &= m - 1
            t = (w * 64 + b) & TMASK  # the masks tell LLVM the index ranges: no negative-index checks
            p = G[PIPS + t]
            d = np.int64(G[TA + t] == G[TB + t])
            key = max(max(end_key(G, (m0 >> b) & 1, p, t, 0, v0, k01, s0, both, d, fd),
                          end_key(G, (m1 >> b) & 1, p, t, 1, v1, k01, s1, both, d, fd)),
                      max(end_key(G, (m2 >> b) & 1, p, t, 2, v2, lk + 1 + kd, ls + sd, both, d, fd),
                          end_key(G, (m3 >> b) & 1, p, t, 3, v3, lk + 1 + ku, ls + su, both, d, fd)))
            aside = keep_back and d == 1
            held = max(held, key if aside else -1)
            best = max(best, -1 if aside else key)
    if best < 0:
        best = held
    order = LAST - (best & LAST)
    return order & TMASK, order >> TILE_BITS


@kernel
def list_index(mv_t, mv_e, n, t, e):
    """Where the move (t, e) is in the list of n moves."""
    for i in range(n):
        if mv_t[i] == t and mv_e[i] == e:
            return i
    return -1


@kernel
def greedy_pick(G, St, mv_t, mv_e, n, hold, scratch):
    """:func:`greedy_move` of the seat to act, as an index into its list of legal moves."""
    t, e = greedy_move(G, St, St[TURN] & SMASK, hold)
    return list_index(mv_t, mv_e, n, t, e)

"""The first-double decision in the kernel: what a seat knows of it, and the situational `timing` policy.

A *first-double decision* (docs/rules.md 4, the first-double bonus) is a turn where the deal's first double
is not yet placed and the seat to act has a legal move placing a double and a legal move placing a
tile that is not a double. Its two candidates are greedy's ranking restricted to each class
(:func:`class_best`): the best double now, and the best other move (what ``hold`` plays).

Everything here reads only what the seat to act may know: its own hand, the layout (``PLAYED``,
``NPL``), the hand counts, the boneyard's size, the scores and the values each seat showed void.
kdecide.py records the decisions; ``timing_pick`` is the policy (dispatched in kpolicies.choose).
"""
from __future__ import annotations

from .bits import ctz, popcount
from .jit import called, kernel

from .ends import move_value
from .moves import seat_base
from .layout import (BN, BON, BONUS, BTOP, DBLM, FD_MOVE, FIRST, HAND, HCNT, NPL, PAR_LEAD, PAR_PLAYERS,
                     PAR_SUPPORT, PAR_WAIT, PIPS, PLAYED, PTS, R_MAXPIP, R_NT, R_PLAYERS, TA, TB, VOID)


@kernel
def class_best(G, St, mv_t, mv_e, n, doubles):
    """Index of greedy's choice among the legal moves that place a double (``doubles``) or that do not:
    the most immediate points (first-double bonus included), ties to the heavier tile, then the first
    listed; -1 if the class is empty."""
    best = -1
    brank = -1
    for i in range(n):
        t = mv_t[i]
        if (G[TA + t] == G[TB + t]) != doubles:
            continue
        rank = move_value(G, St, t, mv_e[i]) * 32 + G[PIPS + t]
        if rank > brank:
            best = i
            brank = rank
    return best


@kernel
def tier_at(G, move):
    """The first-double bonus of a first double placed at ``move`` (past the table's end: its last entry)."""
    return G[BONUS + min(move, G[R_NT] + 1)]


@kernel
def doubles_held(G, St, s):
    """Doubles in seat s's hand."""
    hb = seat_base(s) + HAND
    return popcount(St[hb] & G[DBLM]) + popcount(St[hb + 1] & G[DBLM + 1])


@kernel
def unseen_doubles(G, St, s):
    """Doubles seat s cannot see (in no hand of its own, not on the layout) that some other seat may hold:
    one it was not seen unable to play (a seat that drew or passed on a value cannot hold its double)."""
    hb = seat_base(s) + HAND
    m = G[R_MAXPIP]
    c = 0
    for v in range(m + 1):
        t = v * (m + 1) - v * (v - 1) // 2  # the tile v-v (simdom.tiles index order)
        w = t >> 6
        if ((St[hb + w] | St[PLAYED + w]) >> (t & 63)) & 1:
            continue
        for o in range(G[R_PLAYERS]):
            if o != s and (St[seat_base(o) + VOID] >> v) & 1 == 0:
                c += 1
                break
    return c


@kernel
def suit_count(G, St, s, v):
    """Tiles in seat s's hand, doubles apart, that carry the value v (the support of the double v-v)."""
    hb = seat_base(s) + HAND
    c = 0
    for w in range(2):
        m = St[hb + w]
        while m != 0:
            t = w * 64 + ctz(m)
            m &= m - 1
            if G[TA + t] != G[TB + t] and (G[TA + t] == v or G[TB + t] == v):
                c += 1
    return c


@kernel
def suits_held(G, St, s):
    """Distinct values on the tiles of seat s's hand, doubles apart."""
    hb = seat_base(s) + HAND
    seen = 0
    for w in range(2):
        m = St[hb + w]
        while m != 0:
            t = w * 64 + ctz(m)
            m &= m - 1
            if G[TA + t] != G[TB + t]:
                seen |= (1 << G[TA + t]) | (1 << G[TB + t])
    return popcount(seen)


@kernel
def turn_of(G, St, s):
    """Seat s's order of play counted from the leader (0 = the leader)."""
    p = G[R_PLAYERS]
    return (s - St[FIRST] + p) % p


@kernel
def opponent_tiles(G, St, s):
    c = 0
    for o in range(G[R_PLAYERS]):
        if o != s:
            c += St[seat_base(o) + HCNT]
    return c


@kernel
def best_opponent_points(G, St, s):
    best = 0
    for o in range(G[R_PLAYERS]):
        if o != s:
            b = seat_base(o)
            best = max(best, St[b + PTS] + St[b + BON])
    return best


@kernel
def boneyard_left(St):
    return St[BN] - St[BTOP]


# ---- the timing policy ---------------------------------------------------------------------------


@called
def timing_pick(G, St, s, par, mv_t, mv_e, n):
    """At a first-double decision where the rule documented in simdom.policies (``timing``) holds the
    double: the best other move; -1 everywhere else (the caller then plays greedy)."""
    if St[FD_MOVE] != 0:
        return -1
    bd = class_best(G, St, mv_t, mv_e, n, True)
    if bd < 0:
        return -1
    bo = class_best(G, St, mv_t, mv_e, n, False)
    if bo < 0:
        return -1
    return bo if hold_now(G, St, s, par, mv_t, mv_e, bd, bo) else -1


@kernel
def hold_now(G, St, s, par, mv_t, mv_e, bd, bo):
    """The timing rule (simdom.policies documents it), with par = (support, lead, wait, players): hold
    the first double, i.e. play the best other move, when the best double's suit has at most
    ``support`` other tiles in the mover's hand, and either this is the lead and the mover's doubles
    plus the players number at most ``lead``, or it is a later move, the game has at most ``players``
    players and waiting one round (move + players) raises the bonus by at least ``wait``; never without
    a first-double bonus now or a round later."""
    p = G[R_PLAYERS]
    move = St[NPL] + 1
    if tier_at(G, move) == 0 and tier_at(G, move + p) == 0:
        return False  # no first-double bonus now or a round later: nothing to wait for
    if suit_count(G, St, s, G[TA + mv_t[bd]]) > par[PAR_SUPPORT]:
        return False
    if move == 1:
        return doubles_held(G, St, s) + p <= par[PAR_LEAD]
    return p <= par[PAR_PLAYERS] and tier_at(G, move + p) - tier_at(G, move) >= par[PAR_WAIT]

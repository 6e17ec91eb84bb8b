"""What a seat knows, and worlds consistent with it: the tiles a seat cannot see, dealt anew.

A seat sees its own hand, the layout, every hand's count, the boneyard's size and, per seat, the
values that seat was seen unable to play (``VOID``). A *world* for seat s is a deal of the unseen
tiles (in no hand of s, not on the layout) to the other seats, with their exact hand counts and none
of their void values, the rest becoming the boneyard still to draw, in a uniformly random order.
Such a deal always exists (the true one). :func:`sample_world` draws one uniformly among all of them,
without reading any other seat's hand:

1. Rejection: shuffle the unseen tiles, deal them in seat order, keep the deal if every seat may hold
   what it got (up to ``REJECT_TRIES`` shuffles). A kept deal is a uniform draw among the consistent
   deals. Without void values the first shuffle is always kept.
2. Otherwise, by counting. A tile's *type* is the set of other seats that may hold it (at most 3
   seats, so at most 8 types). The number of consistent deals that give seat i ``a[m, i]`` tiles of
   type m is a product of multinomial coefficients; summed over the allocations that fill every hand
   (a small dynamic programme over the types, ``F[m](r)``: the ways to fill the needs r with the types
   m, m+1, ...), it is the number of consistent deals. Each type's allocation is then drawn with
   probability proportional to the deals it leaves, and the tiles of a type are shuffled and handed
   out by that allocation: again a uniform draw among the consistent deals, and one that cannot
   fail. The table depends on the position only: it is built once per position (``aux[AUX_PREP]``).

The policies (rollout, defensive) and the position analysis (kanalyze.py) use these functions; there
is one sampler.
"""
from __future__ import annotations

from .jit import called, kernel

from .moves import seat_base
from .layout import (AUX_BAD, AUX_CNT, AUX_DIM, AUX_NEED, AUX_OPP, AUX_PREP, AUX_TYP, BTOP, HAND, HCNT, HPIPS,
                     PIPS, PLAYED, R_NT, R_PLAYERS, ST_SIZE, TA, TB, VOID)
import numpy as np

from .rng import below, next64

#: Shuffles tried (uniform draws, kept if consistent) before dealing by counting.
REJECT_TRIES = 8
#: sample_world's return value when the world was dealt by counting.
DEALT_BY_COUNTING = REJECT_TRIES


@kernel
def unseen_tiles(G, St, s, out):
    """Fill ``out`` with the tiles seat s cannot see (in no hand of its own, not on the layout), in
    index order; returns how many: the other hands and the boneyard hold exactly these."""
    hb = seat_base(s) + HAND
    u = 0
    for t in range(G[R_NT]):
        w = t >> 6
        if ((St[hb + w] | St[PLAYED + w]) >> (t & 63)) & 1 == 0:
            out[u] = t
            u += 1
    return u


@kernel
def may_hold(G, void, t):
    """A seat seen unable to play the values of ``void`` (bit v) may hold tile t."""
    return ((void >> G[TA + t]) | (void >> G[TB + t])) & 1 == 0


@kernel
def copy_known(G, St, s, W):
    """W = St as seat s sees it: the other seats' hands emptied (their counts kept)."""
    for k in range(ST_SIZE):
        W[k] = St[k]
    for o in range(G[R_PLAYERS]):
        if o != s:
            b = seat_base(o)
            W[b + HAND] = 0
            W[b + HAND + 1] = 0
            W[b + HPIPS] = 0


@kernel
def shuffle(deck, m, loc):
    for i in range(m - 1, 0, -1):
        j = below(loc, 0, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp


@kernel
def give_hidden(G, W, o, t):
    """Tile t joins seat o's hand in a world (its count is already the known one)."""
    b = seat_base(o)
    W[b + HAND + (t >> 6)] |= 1 << (t & 63)
    W[b + HPIPS] += G[PIPS + t]


@kernel
def unit(loc):
    """A float in [0, 1) with 53 random bits from the stream ``loc``."""
    return np.float64(next64(loc, 0) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def multinomial(dp, c, a0, a1, a2):
    """c! / (a0! a1! a2! (c - a0 - a1 - a2)!), from the factorials in dp[0:nt + 1]."""
    return dp[c] / (dp[a0] * dp[a1] * dp[a2] * dp[c - a0 - a1 - a2])


@kernel
def layer(G, m, S):
    """Offset in dp of the table F[m] (m = 1 .. 2^k; F[2^k] is the empty rest: 1 for no needs)."""
    return G[R_NT] + 1 + (m - 1) * S


@kernel
def prepare_counts(G, aux, dp, k):
    """Fill dp with the factorials and the tables F[m](r) for the needs and type counts in aux."""
    nt = G[R_NT]
    dp[0] = 1.0
    for i in range(1, nt + 1):
        dp[i] = dp[i - 1] * i
    d0 = aux[AUX_NEED] + 1 if k > 0 else 1
    d1 = aux[AUX_NEED + 1] + 1 if k > 1 else 1
    d2 = aux[AUX_NEED + 2] + 1 if k > 2 else 1
    aux[AUX_DIM] = d0
    aux[AUX_DIM + 1] = d1
    S = d0 * d1 * d2
    aux[AUX_DIM + 2] = S
    top = 1 << k
    base = layer(G, top, S)
    for x in range(S):
        dp[base + x] = 0.0
    dp[base] = 1.0
    for m in range(top - 1, 0, -1):
        c = aux[AUX_CNT + m]
        here = layer(G, m, S)
        nxt = layer(G, m + 1, S)
        for x in range(S):
            r0 = x % d0
            r1 = (x // d0) % d1
            r2 = x // (d0 * d1)
            tot = 0.0
            for a0 in range((min(r0, c) if m & 1 else 0) + 1):
                for a1 in range((min(r1, c - a0) if m & 2 else 0) + 1):
                    for a2 in range((min(r2, c - a0 - a1) if m & 4 else 0) + 1):
                        y = (r0 - a0) + d0 * ((r1 - a1) + d1 * (r2 - a2))
                        tot += multinomial(dp, c, a0, a1, a2) * dp[nxt + y]
            dp[here + x] = tot


@kernel
def deal_by_counting(G, W, pool, u, deck, k, aux, dp, loc):
    """Deal the k other seats (aux[AUX_OPP + i]) their needs from pool[0:u] (types aux[AUX_TYP + j]),
    uniformly among the consistent deals (module doc); the tiles left go to deck[0:], which is
    returned shuffled with its length. Sets aux[AUX_BAD] if no consistent deal exists (never, for a
    state reached by play; the tiles are then dealt ignoring the voids)."""
    d0, d1, S = aux[AUX_DIM], aux[AUX_DIM + 1], aux[AUX_DIM + 2]
    nt = G[R_NT]
    tmp = AUX_TYP + nt  # aux[tmp:tmp + nt]: the tiles of one type
    r0 = aux[AUX_NEED] if k > 0 else 0
    r1 = aux[AUX_NEED + 1] if k > 1 else 0
    r2 = aux[AUX_NEED + 2] if k > 2 else 0
    aux[AUX_BAD] = 1 if dp[layer(G, 1, S) + r0 + d0 * (r1 + d1 * r2)] <= 0.0 else 0
    rem = 0
    for m in range(1 << k):
        c = 0
        for j in range(u):
            if aux[AUX_TYP + j] == m or (aux[AUX_BAD] and m == 0):
                aux[tmp + c] = pool[j]
                c += 1
        shuffle(aux[tmp:], c, loc)
        g0, g1, g2 = 0, 0, 0
        if aux[AUX_BAD]:
            if m == 0:  # every tile: the needs in seat order, whatever the voids
                g0, g1, g2 = r0, r1, r2
        elif m > 0:
            nxt = layer(G, m + 1, S)
            x = unit(loc) * dp[layer(G, m, S) + r0 + d0 * (r1 + d1 * r2)]
            done = False
            for a0 in range((min(r0, c) if m & 1 else 0) + 1):
                for a1 in range((min(r1, c - a0) if m & 2 else 0) + 1):
                    for a2 in range((min(r2, c - a0 - a1) if m & 4 else 0) + 1):
                        w = multinomial(dp, c, a0, a1, a2) * dp[nxt + (r0 - a0) + d0 * ((r1 - a1) + d1 * (r2 - a2))]
                        if w > 0.0:
                            g0, g1, g2 = a0, a1, a2
                            x -= w
                            if x < 0.0:
                                done = True
                                break
                    if done:
                        break
                if done:
                    break
        i = 0
        for q in range(k):
            g = g0 if q == 0 else g1 if q == 1 else g2
            for _ in range(g):
                give_hidden(G, W, aux[AUX_OPP + q], aux[tmp + i])
                i += 1
        for j in range(i, c):
            deck[rem] = aux[tmp + j]
            rem += 1
        r0 -= g0
        r1 -= g1
        r2 -= g2
        if aux[AUX_BAD] and m == 0:
            break
    shuffle(deck, rem, loc)
    return rem


@called
def sample_world(G, St, s, W, bone2, pool, u, deck, loc, aux, dp):
    """W, bone2: a deal consistent with what seat s knows (module doc). The unseen tiles pool[0:u] go
    to the other seats with their exact hand counts and none of their void values; the rest, shuffled,
    is the boneyard still to draw (bone2 from St[BTOP] on). Randomness: the stream ``loc``. ``aux``,
    ``dp``: work arrays (layout.py); the caller sets aux[AUX_PREP] = 0 for each new position.
    Returns the shuffles that were rejected (0 .. REJECT_TRIES - 1), DEALT_BY_COUNTING when the deal
    was drawn by counting, or -1 if no consistent deal existed (never, for a state reached by play)."""
    npl = G[R_PLAYERS]
    copy_known(G, St, s, W)
    k = 0
    full = 0
    for o in range(npl):
        if o != s:
            aux[AUX_OPP + k] = o
            aux[AUX_NEED + k] = W[seat_base(o) + HCNT]
            full |= 1 << k
            k += 1
    for m in range(1 << k):
        aux[AUX_CNT + m] = 0
    anyvoid = False
    for j in range(u):
        t = pool[j]
        m = 0
        for i in range(k):
            if may_hold(G, W[seat_base(aux[AUX_OPP + i]) + VOID], t):
                m |= 1 << i
        aux[AUX_TYP + j] = m
        aux[AUX_CNT + m] += 1
        anyvoid |= m != full
    rem = -2
    result = DEALT_BY_COUNTING
    for attempt in range(REJECT_TRIES):
        for j in range(u):
            deck[j] = j  # positions in pool, so that a tile's type is at hand
        shuffle(deck, u, loc)
        pos = 0
        ok = True
        if anyvoid:
            for i in range(k):
                for c in range(aux[AUX_NEED + i]):
                    if (aux[AUX_TYP + deck[pos + c]] >> i) & 1 == 0:
                        ok = False
                        break
                if not ok:
                    break
                pos += aux[AUX_NEED + i]
        if ok:
            pos = 0
            for i in range(k):
                o = aux[AUX_OPP + i]
                for c in range(aux[AUX_NEED + i]):
                    give_hidden(G, W, o, pool[deck[pos]])
                    pos += 1
            rem = u - pos
            for j in range(rem):
                deck[j] = pool[deck[pos + j]]
            result = attempt
            break
    if rem == -2:
        if aux[AUX_PREP] == 0:
            prepare_counts(G, aux, dp, k)
            aux[AUX_PREP] = 1
        rem = deal_by_counting(G, W, pool, u, deck, k, aux, dp, loc)
        if aux[AUX_BAD]:
            result = -1
    top = W[BTOP]
    for i in range(rem):
        bone2[top + i] = deck[i]
    return result

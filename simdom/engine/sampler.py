"""What a seat knows, and worlds consistent with it: the tiles a seat cannot see, dealt anew.

A seat sees its own hand, the layout, every hand's count, the boneyard's size and, per seat, the
values that seat was seen unable to play (``VOID``). A *world* for seat s is a deal of the unseen
tiles (in no hand of s, not on the layout) to the other seats, with their exact hand counts and none
of their void values, the rest becoming the boneyard still to draw. Such a deal always exists (the
true one); :func:`sample_world` always finds one, without reading any other seat's hand:

1. Rejection: shuffle the unseen tiles, deal them in seat order, keep the deal if every seat may hold
   what it got (up to ``REJECT_TRIES`` shuffles). A kept deal is an exactly uniform draw among the
   consistent deals. Without void values the first shuffle is always kept.
2. Otherwise, tile by tile: a seat gets a uniformly random tile among those it may hold whose
   removal leaves the rest of the deal completable. Completable is Hall's condition for the
   remaining seats: every set Q of them may hold, between them, at least as many remaining tiles as
   they still need. With at most 3 other seats that is 7 sums over 8 tile *types* (the set of seats
   that may hold a tile), so the check is cheap and the dealing can never get stuck.

The policies (rollout, defensive) and the position analysis (kanalyze.py) use these functions; there
is one sampler.
"""
from __future__ import annotations

from .jit import kernel

from .core import seat_base
from .layout import (AUX_BAD, AUX_CNT, AUX_NEED, AUX_OPP, AUX_TYP, BTOP, HAND, HCNT, HPIPS, PLAYED, R_NT,
                     R_PLAYERS, ST_SIZE, VOID)
from .rng import below

#: Shuffles tried (exact uniform draws) before dealing tile by tile under Hall's condition.
REJECT_TRIES = 8
#: sample_world's return value when the tile-by-tile dealer was used.
DEALT_BY_HALL = REJECT_TRIES


@kernel
def unseen_tiles(G, St, s, out):
    """Fill ``out`` with the tiles seat s cannot see (in no hand of its own, not on the layout), in
    index order; returns how many: the other hands and the boneyard hold exactly these."""
    hb = seat_base(s) + HAND
    u = 0
    for t in range(G[0][R_NT]):
        w = t >> 6
        if ((St[hb + w] | St[PLAYED + w]) >> (t & 63)) & 1 == 0:
            out[u] = t
            u += 1
    return u


@kernel
def may_hold(G, void, t):
    """A seat seen unable to play the values of ``void`` (bit v) may hold tile t."""
    return ((void >> G[1][t]) | (void >> G[2][t])) & 1 == 0


@kernel
def copy_known(G, St, s, W):
    """W = St as seat s sees it: the other seats' hands emptied (their counts kept)."""
    for k in range(ST_SIZE):
        W[k] = St[k]
    for o in range(G[0][R_PLAYERS]):
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
    W[b + HPIPS] += G[3][t]


@kernel
def hall_ok(aux, k):
    """Hall's condition for the k other seats: for every non-empty set Q of them, the remaining tiles
    that some seat of Q may hold are at least the tiles Q still needs."""
    for q in range(1, 1 << k):
        supply = 0
        for m in range(1, 1 << k):
            if m & q:
                supply += aux[AUX_CNT + m]
        demand = 0
        for i in range(k):
            if (q >> i) & 1:
                demand += aux[AUX_NEED + i]
        if supply < demand:
            return False
    return True


@kernel
def deal_by_hall(G, W, deck, u, k, aux, loc):
    """Deal the k other seats (aux[AUX_OPP + i]) their needs (aux[AUX_NEED + i]) from deck[0:u], whose
    types are aux[AUX_TYP + j]: each tile uniformly among those keeping Hall's condition. Returns the
    tiles left in deck[0:]; sets aux[AUX_BAD] if no consistent deal existed (never, for a state
    reached by play: then some tiles went where they may not)."""
    rem = u
    aux[AUX_BAD] = 0
    for i in range(k):
        o = aux[AUX_OPP + i]
        while aux[AUX_NEED + i] > 0:
            valid = 0
            total = 0
            aux[AUX_NEED + i] -= 1
            for m in range(1 << k):
                if (m >> i) & 1 and aux[AUX_CNT + m] > 0:
                    aux[AUX_CNT + m] -= 1
                    if hall_ok(aux, k):
                        valid |= 1 << m
                        total += aux[AUX_CNT + m] + 1
                    aux[AUX_CNT + m] += 1
            if total == 0:  # no consistent deal: give any tile (reported to the caller)
                aux[AUX_BAD] = 1
                if rem == 0:
                    break
                valid = (1 << (1 << k)) - 1
                total = rem
            r = below(loc, 0, total)
            for j in range(rem):
                m = aux[AUX_TYP + j]
                if (valid >> m) & 1:
                    if r == 0:
                        give_hidden(G, W, o, deck[j])
                        aux[AUX_CNT + m] -= 1
                        rem -= 1
                        deck[j] = deck[rem]
                        aux[AUX_TYP + j] = aux[AUX_TYP + rem]
                        break
                    r -= 1
    return rem


@kernel
def sample_world(G, St, s, W, bone2, pool, u, deck, loc, aux):
    """W, bone2: a deal consistent with what seat s knows (module doc). The unseen tiles pool[0:u] go
    to the other seats with their exact hand counts and none of their void values; the rest, shuffled,
    is the boneyard still to draw (bone2 from St[BTOP] on). Randomness: the stream ``loc``.
    Returns the shuffles that were rejected (0 .. REJECT_TRIES - 1), DEALT_BY_HALL when the tiles
    were dealt one by one, or -1 if no consistent deal existed (never, for a state reached by play)."""
    npl = G[0][R_PLAYERS]
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
    result = DEALT_BY_HALL
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
        for j in range(u):
            deck[j] = pool[j]
        rem = deal_by_hall(G, W, deck, u, k, aux, loc)
        if aux[AUX_BAD]:
            result = -1
        shuffle(deck, rem, loc)
    top = W[BTOP]
    for i in range(rem):
        bone2[top + i] = deck[i]
    return result

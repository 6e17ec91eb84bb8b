"""The exact solver's transposition table (solve.py): the key of a position, its mirror images and
interchangeable ends, and what an entry holds.

A deal state fully determines its future, so the table holds the value of the future: the value minus
what is already scored, when the value is additive (points, or the margin between two sides:
solvebounds.offset). With more than two sides by margin it is not: an entry then holds the root's margin
over each seat when it was stored, and a position reached with other margins reads its bounds shifted
(the value is nondecreasing in every margin and moves by c when all of them move by c: :func:`shift_of`).
In exact solves the lower bound is kept seat by seat too: a search proving "at least v" returns, for
each other seat, a lower bound of the root's final margin over it (the least over the other seats'
replies, the chosen move's where the root side chooses), and the entry keeps how much each margin gains
at least from there on, so a position reached with other margins reads min over seats of (its margin +
that gain), at least the shifted bound and often more (:func:`entry_vec`). Only against timing or
defensive, which read the scores, are the scores part of the key (:func:`node_key`). Bounds are stored
as a (lower, upper) pair, the best move as a tile and an end: an entry is a row ttv[slot, TT_*]
(layout.TT_LO, TT_HI, TT_MOVE, TT_MARGIN + seat, TT_KEY), one 64-byte cache line.

A node reads its entry with :func:`probe` and keeps its result with :func:`store_node` (in two-way
buckets where no budget of positions is set: docs/speed.md). Each problem
has its own salt in the keys (:func:`salt_of`): the boneyard, the root seat and side, the
value and mode, and in against mode the seats' policies.
"""
from __future__ import annotations

import numpy as np

from .core import seat_total
from .jit import kernel
from .layout import (R_DBL_BOTH, AGAINST_READS_ALL, ARMS, BON, BTOP, COV, E_D, E_L, E_R, E_U, ED, ENDED, EV, FD_MOVE, FIRST,
                     FORCED, FR_A0, FR_B0, FR_BEST, FR_BI, FR_HIT, FR_N0, FR_OFF, FR_SLOT, FR_V, HAND, HIT_FOUND, HIT_IMAGE,
                     LONE, NPASS, PTS, R_PLAYERS, SALT_PARAMS, SPAT, SPIN, SV_AGAINST, SV_BY, SV_MULTI, SV_OWN, SV_ROOT,
                     SV_NODES, SV_SALT, SV_SIDE, TMASK, TT_END_BITS, TT_HI, TT_LO, TT_MARGIN, TT_MOVE, TT_MOVE_BITS, TT_TAG_MASK, TT_WORK_SHIFT, TURN, USED, V_CTL, V_FK,
                     V_FR, V_IDS, V_ME, V_MT, V_PAR, V_STK, V_TTK, V_TTV, VOID)
from .moves import seat_base
from .rng import GAMMA, mix64
from .solvebounds import INF, margins_now

#: an entry's margin over a seat and its lower bound of the future (several sides by margin) share one
#: int64: the margin plus HALF in the low GAIN_SHIFT bits, the bound in the high ones (NOVEC: none)
GAIN_SHIFT = 32
HALF = 1 << 31
LOW32 = (1 << GAIN_SHIFT) - 1
NOVEC = -(1 << 30)
#: what an entry keeps of each seat's lower bound (store_margins): none, the entry's own, the node's new ones
VEC_NONE, VEC_KEEP, VEC_NEW = 0, 1, 2
#: the most positions an entry's work records (TT_WORK_SHIFT up, within the int64)
WORK_MAX = (1 << 30) - 1


@kernel
def mixin(h, x):
    return mix64(h ^ (np.uint64(x & 0xFFFFFFFFFFFF) + GAMMA))


@kernel
def end_words(P, a, c):
    """The layout's two words of :func:`node_key`, with the line's ends in the order a (0: L R, 1: R L)
    and the arms' in the order c (0: U D, 1: D U)."""
    b = 1 - a
    d = 1 - c
    w1 = (P[BTOP] | (P[TURN] << 8) | (P[NPASS] << 12) | ((P[FORCED] + 1) << 16) | (P[LONE] << 24)
          | ((P[SPIN] + 1) << 25) | (P[SPAT + a] << 30) | (P[SPAT + b] << 31) | (P[COV + a] << 32)
          | (P[COV + b] << 33) | (P[ARMS] << 34) | (P[USED + c] << 35) | (P[USED + d] << 36)
          | ((1 if P[FD_MOVE] == 0 else 0) << 37) | (P[ENDED] << 38))
    w2 = (P[EV + a] | (P[EV + b] << 4) | (P[EV + E_U + c] << 8) | (P[EV + E_U + d] << 12) | (P[ED + a] << 16)
          | (P[ED + b] << 17) | (P[ED + E_U + c] << 18) | (P[ED + E_U + d] << 19))
    return w1, w2


@kernel
def end_sig(P, e):
    """Everything the key holds of line end e (0: L, 1: R): its value, whether it is a double, the
    spinner's arm at it, whether it is covered."""
    return P[EV + e] | (P[ED + e] << 4) | (P[SPAT + e] << 5) | (P[COV + e] << 6)


@kernel
def arm_sig(P, e):
    """Everything the key holds of the spinner's arm e (2: U, 3: D): its value, double, and use."""
    return P[EV + e] | (P[ED + e] << 4) | (P[USED + e - 2] << 5)


@kernel
def node_key(G, P, V, canon):
    """(key, image): the 64-bit key of everything that decides the future value of P (against timing or
    defensive, what they read too: the scores and the values each seat showed it lacked).

    With ``canon`` the key is that of the layout's mirror image whose first end has the smaller
    signature (:func:`end_sig`; the line's L and R swapped or not, the arms' U and D likewise; image
    bit 0 and bit 1; equal signatures give equal words either way): the rules treat L and R, and
    U and D, alike (docs/rules.md 3), so mirror images have one value and share an entry, the best move
    stored for the image (:func:`mirror_end`). Beyond the mirror images, the plain ends
    (:func:`plain_sig`) are interchangeable: the key holds which ends are plain and the multiset of
    their signatures, and a best move on a plain end is stored by its end's signature (:func:`end_code`;
    image bit IMAGE_CANON). Only in exact minimax solves: a policy's tie-break between ends (the
    opponents' in against mode, greedy's beyond a horizon) is not symmetric."""
    ctl = V[V_CTL]
    h = np.uint64(ctl[SV_SALT])
    n = G[R_PLAYERS]
    for s in range(n):
        b = seat_base(s) + HAND
        h = mixin(h, P[b])
        if not canon or P[b + 1] != 0:  # tiles past the 64th (double-nine and up); as before outside
            h = mixin(h, P[b + 1])       # exact solves (a node budget runs out where it did)
    a = 0
    c = 0
    if canon:  # the image whose first end (of the line, of the arms) has the smaller signature, a plain
        # end's counted as larger than any other (its value enters below, with the other plain ends')
        pl = plain_sig(G, P, E_L)
        pr = plain_sig(G, P, E_R)
        pu = plain_sig(G, P, E_U)
        pd = plain_sig(G, P, E_D)
        if (end_sig(P, E_R) if pr < 0 else PLAIN_MARK) < (end_sig(P, E_L) if pl < 0 else PLAIN_MARK):
            a = 1
        if (arm_sig(P, E_D) if pd < 0 else PLAIN_MARK) < (arm_sig(P, E_U) if pu < 0 else PLAIN_MARK):
            c = 1
    w1, w2 = end_words(P, a, c)
    image = a | (c << 1)
    if canon:
        # plain ends are interchangeable (plain_sig): the key holds which slots are plain (w1's spinner,
        # cover and use bits) and the multiset of their signatures, not which plain end shows which. A
        # multiset of at most four numbers is fixed by its first four power sums (Newton's identities).
        image |= IMAGE_CANON
        p1 = p2 = p3 = p4 = np.int64(0)
        for k in range(4):
            e = (k ^ a) if k < 2 else (2 + ((k - 2) ^ c))
            q = pl if e == E_L else pr if e == E_R else pu if e == E_U else pd
            if q >= 0:
                w2 &= ~((np.int64(15) << (4 * k)) | (np.int64(1) << (16 + k)))
                x = q + 1
                p1 += x
                p2 += x * x
                p3 += x * x * x
                p4 += x * x * x * x
        ms = p1 | (p2 << 8) | (p3 << 21) | (p4 << 39)
        if ms != 0:
            h = mixin(h, ms)
    h = mixin(h, w1)
    h = mixin(h, w2)
    if ctl[SV_AGAINST] == AGAINST_READS_ALL:
        h = mixin(h, P[FIRST])
        for s in range(n):
            b = seat_base(s)
            h = mixin(h, P[b + VOID] | ((P[b + PTS] + P[b + BON]) << 20))
    return h, image


#: a plain end's signature in the mirror's choice (above every end_sig and arm_sig)
PLAIN_MARK = 1 << 7
#: node_key's image bit: the key is canonical (plain ends by their signatures)
IMAGE_CANON = 4
#: a best move's end code for a plain end: PLAIN_CODE + its signature (end_code)
PLAIN_CODE = 8


@kernel
def plain_sig(G, P, e):
    """End e's signature as a plain end, or -1-e where it is not one. With the arms open, a line end with
    no spinner at it (the lead not alone) and an arm with a tile are alike: a tile placed on either
    shows its other half there, counted as any end is (docs/rules.md 3), so two plain ends showing one
    value (and both doubles or neither, where a double counts both halves) are interchangeable. An
    end's double flag enters only its count (ends.end_count), so where doubles count their face
    (Threes) it is left out."""
    if P[ARMS] == 0:
        return -1 - e
    if e < 2:
        if P[SPAT + e] or P[LONE]:
            return -1 - e
    elif P[USED + e - 2] == 0:
        return -1 - e
    return P[EV + e] | ((P[ED + e] & G[R_DBL_BOTH]) << 4)


@kernel
def twin_end(G, P, e):
    """The first end, in the order L, R, U, D, whose placements are those of end e under another name
    (exact minimax solves): e itself, or the line's L for R when the two have one signature
    (:func:`end_sig`: the mirror image), the arms' U for D likewise (:func:`arm_sig`), or an earlier
    plain end showing what e shows (:func:`plain_sig`)."""
    if e == E_R and end_sig(P, E_L) == end_sig(P, E_R):
        return E_L
    ps = plain_sig(G, P, e)
    if e == E_D and arm_sig(P, E_U) == arm_sig(P, E_D):
        if ps >= 0 and plain_sig(G, P, E_L) == ps:
            return E_L
        if ps >= 0 and plain_sig(G, P, E_R) == ps:
            return E_R
        return E_U
    if ps >= 0:
        for f in range(e):
            if plain_sig(G, P, f) == ps:
                return f
    return e


@kernel
def drop_mirrored(G, P, n, mt, me):
    """The n moves less those whose twin is listed (exact minimax solves): a tile on an end whose
    :func:`twin_end` is another end gives a position of the same value as the same tile there (the
    layout's mirror image, or plain ends swapped), so only the twin's is searched. Returns how many
    are left."""
    k = 0
    for i in range(n):
        e = me[i]
        twin = twin_end(G, P, e)
        keep = True
        if twin != e:
            for j in range(n):
                if mt[j] == mt[i] and me[j] == twin:
                    keep = False
                    break
        if keep:
            mt[k] = mt[i]
            me[k] = e
            k += 1
    return k


@kernel
def end_code(G, P, e, image):
    """The end of a best move as the table keeps it: a plain end (exact solves) as PLAIN_CODE + its
    signature (the key holds the plain ends' signatures, not their places), any other end as the same
    end of the key's mirror image."""
    if image & IMAGE_CANON:
        ps = plain_sig(G, P, e)
        if ps >= 0:
            return PLAIN_CODE + ps
    return mirror_end(e, image)


@kernel
def code_end(G, P, code, image):
    """The end of P that a best move's code (end_code) names: the first plain end with the signature, or
    the mirror image's end (-1: none, a key's collision)."""
    if code >= PLAIN_CODE:
        for f in range(4):
            if plain_sig(G, P, f) == code - PLAIN_CODE:
                return f
        return -1
    return mirror_end(code, image)


@kernel
def mirror_end(e, image):
    """End e of a position as the same end of its mirror image ``image`` (and back: each is its own
    inverse)."""
    if e <= E_R and (image & 1):
        return E_L + E_R - e
    if e >= E_U and e <= E_D and (image & 2):
        return E_U + E_D - e
    return e


@kernel
def shift_of(G, P, V, ttv, slot):
    """(dmin, dmax): how far the root's margin over each other seat moved from the entry's (several
    sides by margin, where the table's entries hold the margins they were searched at). The value is
    nondecreasing in every margin and moves by c when all move by c, so an entry's bounds hold here
    shifted by at least dmin and at most dmax."""
    ctl = V[V_CTL]
    r = ctl[SV_ROOT]
    own = seat_total(P, r)
    dmin = INF
    dmax = -INF
    for s in range(G[R_PLAYERS]):
        if s != r:
            e = own - seat_total(P, s) - ((ttv[slot, TT_MARGIN + s] & LOW32) - HALF)
            dmin = min(dmin, e)
            dmax = max(dmax, e)
    return dmin, dmax


@kernel
def entry_vec(G, P, V, ttv, slot):
    """An entry's lower bounds of the root's final margin over each seat, read at P's margins: the
    entry holds, for each seat, how much at least the margin gains from its position on (the bound's
    vector, margin-free), so a position reached with other margins reads its own bounds seat by seat."""
    m0, m1, m2, m3 = margins_now(G, P, V)
    if m0 < INF:
        m0 += ttv[slot, TT_MARGIN] >> GAIN_SHIFT
    if m1 < INF:
        m1 += ttv[slot, TT_MARGIN + 1] >> GAIN_SHIFT
    if m2 < INF:
        m2 += ttv[slot, TT_MARGIN + 2] >> GAIN_SHIFT
    if m3 < INF:
        m3 += ttv[slot, TT_MARGIN + 3] >> GAIN_SHIFT
    return m0, m1, m2, m3


@kernel
def store_margins(G, P, V, ttv, slot, mode, f):
    """An entry's margins (P's) and each seat's lower bound of the future: none (mode VEC_NONE), the
    entry's own kept (VEC_KEEP: the same position, no new lower bound), or from the node's vector f
    (VEC_NEW: f[FR_V + k] the lower bound of the final margin over seat k, so that less the margin now)."""
    r = V[V_CTL][SV_ROOT]
    own = seat_total(P, r)
    for s in range(G[R_PLAYERS]):
        m = own - seat_total(P, s)
        a = NOVEC
        if s != r:
            if mode == VEC_KEEP:
                a = ttv[slot, TT_MARGIN + s] >> GAIN_SHIFT
            elif mode == VEC_NEW:
                a = f[FR_V + s] - m
        ttv[slot, TT_MARGIN + s] = (a << GAIN_SHIFT) | (m + HALF)


@kernel
def probe(G, P, V, slot, off, vec, v0, v1, v2, v3):
    """(lo, hi, v0, v1, v2, v3): the bounds of P's value that its entry (a hit at ``slot``) gives. With
    several sides by margin, the entry's bounds shifted to P's margins (:func:`shift_of`) and, with
    ``vec``, the lower bound seat by seat (:func:`entry_vec`: v0-v3, else as given); else the entry's
    bounds of the future plus what P's scores hold (``off``: solvebounds.offset)."""
    ttv, ctl = V[V_TTV], V[V_CTL]
    if ctl[SV_MULTI] and ctl[SV_AGAINST] != AGAINST_READS_ALL:
        dmin, dmax = shift_of(G, P, V, ttv, slot)
        lo = ttv[slot, TT_LO] + dmin if ttv[slot, TT_LO] > -INF else -INF
        hi = ttv[slot, TT_HI] + dmax if ttv[slot, TT_HI] < INF else INF
        if vec and lo > -INF:  # seat by seat: at least the shifted bound, often more
            v0, v1, v2, v3 = entry_vec(G, P, V, ttv, slot)
            lo = min(min(v0, v1), min(v2, v3))
    else:
        lo = ttv[slot, TT_LO] + off
        hi = ttv[slot, TT_HI] + off
    return lo, hi, v0, v1, v2, v3


@kernel
def store_node(G, V, d, vec, bucket):
    """Keep the searched node d (its frame fr[d] finished) in its entry: its value as an upper bound
    (it failed low), a lower bound (high) or exact, joined with the entry's bounds when the entry is
    still the node's; with several sides by margin, its margins and (``vec``) each seat's lower bound;
    its best move, as the end of the key's mirror image. With ``bucket`` (searches whose result the
    table cannot change: solve.search) slots pair up, the first keeping the entry whose search took
    the most positions, the second the latest; else the entry replaces its slot's."""
    stk, mt, me, fr, fk = V[V_STK], V[V_MT], V[V_ME], V[V_FR], V[V_FK]
    ttk, ttv, ctl = V[V_TTK], V[V_TTV], V[V_CTL]
    best = fr[d, FR_BEST]
    slot = fr[d, FR_SLOT]
    off = fr[d, FR_OFF]
    lo = -INF
    hi = INF
    if best <= fr[d, FR_A0]:
        hi = best
    elif best >= fr[d, FR_B0]:
        lo = best
    else:
        lo = best
        hi = best
    xfer = ctl[SV_MULTI] and ctl[SV_AGAINST] != AGAINST_READS_ALL
    vmode = VEC_NEW if vec and lo > -INF else VEC_NONE
    work = min(ctl[SV_NODES] - fr[d, FR_N0], WORK_MAX)
    tag = ctl[SV_SALT] & TT_TAG_MASK
    found = (fr[d, FR_HIT] & HIT_FOUND) and ttk[slot] == fk[d]
    if bucket and not found:  # a two-way bucket: the pair's first entry is the one whose search
        # took more positions (an entry of another problem counts none); the new entry goes there if
        # its search took at least as many, the first moving to the second, else to the second
        slot = fr[d, FR_SLOT] & ~np.int64(1)
        if ttk[slot + 1] == fk[d]:
            slot += 1
            found = (fr[d, FR_HIT] & HIT_FOUND) != 0
        elif ttk[slot] != fk[d]:
            m = ttv[slot, TT_MOVE]
            kept = m >> TT_WORK_SHIFT if (m >> TT_MOVE_BITS) & TT_TAG_MASK == tag else 0
            if work >= kept:
                for j in range(ttv.shape[1]):
                    ttv[slot + 1, j] = ttv[slot, j]
            else:
                slot += 1
        else:
            found = (fr[d, FR_HIT] & HIT_FOUND) != 0
    if found:
        if xfer:
            dmin, dmax = shift_of(G, stk[d], V, ttv, slot)
            if ttv[slot, TT_LO] > -INF:
                if not vec:
                    lo = max(lo, ttv[slot, TT_LO] + dmin)
                elif vmode == VEC_NONE:  # no new lower bound: the entry's, seat by seat, kept
                    vmode = VEC_KEEP
                    e0, e1, e2, e3 = entry_vec(G, stk[d], V, ttv, slot)
                    lo = min(min(e0, e1), min(e2, e3))
            if ttv[slot, TT_HI] < INF:
                hi = min(hi, ttv[slot, TT_HI] + dmax)
        else:
            lo = max(lo, ttv[slot, TT_LO] + off)
            hi = min(hi, ttv[slot, TT_HI] + off)
    ttk[slot] = fk[d]
    ttv[slot, TT_LO] = lo - off if lo > -INF else -INF
    ttv[slot, TT_HI] = hi - off if hi < INF else INF
    if xfer:
        store_margins(G, stk[d], V, ttv, slot, vmode, fr[d])
    bi = fr[d, FR_BI]
    ttv[slot, TT_MOVE] = ((mt[d, bi] << TT_END_BITS) | end_code(G, stk[d], me[d, bi], fr[d, FR_HIT] >> HIT_IMAGE)
                          | (tag << TT_MOVE_BITS) | (work << TT_WORK_SHIFT))


@kernel
def salt_of(G, bone, V, nb):
    """The table's salt for one problem: the boneyard, the root seat and side, the value and mode, and
    in against mode the seats' policies."""
    ctl, ids, par = V[V_CTL], V[V_IDS], V[V_PAR]
    h = mix64(np.uint64(ctl[SV_ROOT] + 8 * ctl[SV_SIDE] + 64 * ctl[SV_BY] + 128 * ctl[SV_AGAINST]
                        + 1024 * ctl[SV_OWN]) + GAMMA)
    if ctl[SV_AGAINST]:
        for s in range(G[R_PLAYERS]):
            h = mixin(h, ids[s])
            for k in range(min(par.shape[1], SALT_PARAMS)):
                h = mixin(h, np.int64(par[s, k] * 1024.0))
    for i in range(nb):
        h = mixin(h, bone[i & TMASK])
    return h

"""The rules of RULES.md sections 2-7 as numba functions over the integer state of ``layout.py``.

This is the only implementation of the rules in simdom: the batch kernel, the trace recorder, the
scripted-deal replayer and the policies' rollouts all call these functions.
"""
from __future__ import annotations

import numpy as np
from .jit import kernel

from .bits import ctz, popcount
from .rng import below, below_x
from .layout import (ACT_DRAW, ACT_PASS, ARMS, BLOCK_OPP_MINUS_OWN, BLOCK_OPP_PIPS, BN, BON, BONUS, BTOP, COV,
                     DBLM, DDEALT, DRAWS, E_LEAD, EB, ED, END_BLOCKED, END_DOMINO, ENDED, EV, FD_MOVE, FD_SEAT,
                     FIRST, FORCED, HAND, HCNT, HPIPS, LONE, LOSTFD, NPASS, NPL, OUT_FIXED, OUT_OPP_PIPS, PASSES,
                     PIPS, PLAYED, PLAYS, PTS, R_ARMS_AFTER, R_BLOCK_MODE, R_DBL_BOTH, R_DIV, R_DRAW, R_HAND,
                     R_LEAD_TILE, R_OUT_MODE, R_OUT_N, R_PLAYERS, R_RESERVE, R_ROUND, R_SPINNER, R_W, RC_ACT,
                     RC_BONUS, RC_DEAL, RC_END, RC_K, RC_POINTS, RC_S, RC_SEAT, RC_TILE, REC_ALL, RULES, SB, SCORE,
                     SEAT0, SP_MOVE, SP_SEAT, SPAT, SPIN, SPLAYS, ST_SIZE, TA, TB, TURN, USED, VM, VOID, WINNER)


@kernel
def seat_base(s):
    return SEAT0 + s * SB


@kernel
def next_seat(G, s):
    return 0 if s + 1 >= G[RULES][R_PLAYERS] else s + 1


@kernel
def end_count(G, v, dbl):
    """What an end showing ``v`` counts: 2v for a double when double_counts = both.
    (Arithmetic, not a branch: whether an end's tile is a double is data the CPU cannot predict.)"""
    return v + v * (np.int64(dbl) & G[RULES][R_DBL_BOTH])


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
    """(k, S): the number of counted ends of the layout and their sum (RULES.md 3, 'Counting the ends')."""
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
def ends_after(G, St, t, e):
    """(k, S) after placing tile ``t`` on end ``e``, without changing the state."""
    a = G[TA][t]
    b = G[TB][t]
    dbl = a == b
    if e == E_LEAD:
        if dbl:
            return 1, end_count(G, a, True)
        return 2, a + b
    k, s = end_base(G, St, e)
    return k, s + end_count(G, b if a == St[EV + e] else a, dbl)


@kernel
def end_bases(G, St, kb, sb):
    """kb[e], sb[e] = end_base(e) for the four ends, computed once per turn (layout not empty)."""
    lk, ls = line_part(G, St)
    ku, su = arm_count(G, St, 0)
    kd, sd = arm_count(G, St, 1)
    for e in range(4):
        kb[e], sb[e] = base_of(G, St, e, lk, ls, ku, su, kd, sd)


@kernel
def first_double_bonus(G, St, t):
    """The bonus placing ``t`` now would earn: non-zero only for the deal's first double."""
    if St[FD_MOVE] == 0 and G[TA][t] == G[TB][t]:
        return G[BONUS][St[NPL] + 1]
    return 0


@kernel
def move_value(G, St, t, e):
    """Immediate points of a placement: what it scores plus its first-double bonus."""
    k, s = ends_after(G, St, t, e)
    return G[SCORE][k, s] + first_double_bonus(G, St, t)


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
def hand_has(St, s, t):
    return (St[seat_base(s) + HAND + (t >> 6)] >> (t & 63)) & 1


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
    """Fill mv_t/mv_e with seat s's legal (tile, end) moves; returns how many.

    Order: by end L, R, U, D, and within an end by ascending tile index; before the lead, the
    tiles of the hand (or the forced lead tile) with end = lead.
    """
    vm = G[VM]
    hb = seat_base(s) + HAND
    two = G[RULES][R_W] > 1
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
        v = St[EV + e] & 15  # masks state index ranges: no negative-index checks
        n = push_moves(St[hb] & vm[v, 0], 0, e, mv_t, mv_e, n)
        if two:
            n = push_moves(St[hb + 1] & vm[v, 1], 64, e, mv_t, mv_e, n)
    return n


@kernel
def hand_words(St, s):
    hb = seat_base(s) + HAND
    return St[hb], St[hb + 1]


@kernel
def n_moves(G, St, s):
    """How many legal (tile, end) moves seat s has: the length of :func:`legal_moves`' list, counted
    with popcounts instead of listed."""
    h0, h1 = hand_words(St, s)
    if St[NPL] == 0:
        if St[FORCED] >= 0:
            return 1
        return popcount(h0) + popcount(h1)
    vm = G[VM]
    n = 0
    for e in range(n_open_ends(G, St)):
        v = St[EV + e] & 15
        n += popcount(h0 & vm[v, 0]) + popcount(h1 & vm[v, 1])
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
    """(tile, end) of the i-th move of :func:`legal_moves`' list, without listing them."""
    h0, h1 = hand_words(St, s)
    if St[NPL] == 0:
        if St[FORCED] >= 0:
            return St[FORCED], E_LEAD
        return nth_bit(h0, h1, i), E_LEAD
    vm = G[VM]
    for e in range(n_open_ends(G, St)):
        v = St[EV + e] & 15
        m0 = h0 & vm[v, 0]
        m1 = h1 & vm[v, 1]
        c = popcount(m0) + popcount(m1)
        if i < c:
            return nth_bit(m0, m1, i), e
        i -= c
    return -1, -1


@kernel
def tile_fits(G, St, t):
    a = G[TA][t]
    b = G[TB][t]
    for e in range(n_open_ends(G, St)):
        v = St[EV + e]
        if v == a or v == b:
            return True
    return False


@kernel
def give(G, St, s, t):
    """Put tile t into seat s's hand."""
    sb = seat_base(s)
    St[sb + HAND + (t >> 6)] |= 1 << (t & 63)
    St[sb + HCNT] += 1
    St[sb + HPIPS] += G[PIPS][t]


@kernel
def record(rec, nrec, deal, s, act, t, e, pts, bonus, k, ssum):
    rec[nrec, RC_DEAL] = deal
    rec[nrec, RC_SEAT] = s
    rec[nrec, RC_ACT] = act
    rec[nrec, RC_TILE] = t
    rec[nrec, RC_END] = e
    rec[nrec, RC_POINTS] = pts
    rec[nrec, RC_BONUS] = bonus
    rec[nrec, RC_K] = k
    rec[nrec, RC_S] = ssum
    return nrec + 1


@kernel
def place(G, St, s, t, e):
    """Seat s places tile t on end e (a legal move). Returns (points, bonus, k, S)."""
    R = G[RULES]
    ta, tb = G[TA], G[TB]
    k, ssum = ends_after(G, St, t, e)
    pts = G[SCORE][k & 7, ssum & 127]
    bonus = 0
    move = St[NPL] + 1
    a = ta[t]
    b = tb[t]
    dbl = a == b
    if dbl and St[FD_MOVE] == 0:
        bonus = G[BONUS][move]
        St[FD_MOVE] = move
        St[FD_SEAT] = s
        dblm = G[DBLM]
        for o in range(R[R_PLAYERS]):
            if o != s:
                ob = seat_base(o) + HAND
                if (St[ob] & dblm[0]) | (St[ob + 1] & dblm[1]):
                    St[seat_base(o) + LOSTFD] = 1
    spinner_now = False
    if e == E_LEAD:
        if dbl:
            St[EV] = a
            St[EV + 1] = a
            St[ED] = 1
            St[ED + 1] = 1
            St[LONE] = 1
            if R[R_SPINNER]:
                spinner_now = True
                St[SPAT] = 1
                St[SPAT + 1] = 1
                St[COV] = 0
                St[COV + 1] = 0
        else:
            St[EV] = a
            St[EV + 1] = b
            St[ED] = 0
            St[ED + 1] = 0
            St[LONE] = 0
    elif e < 2:
        if dbl and R[R_SPINNER] and St[SPIN] < 0:
            spinner_now = True
            St[EV + e] = a
            St[ED + e] = 1
            St[SPAT + e] = 1
            St[COV + e] = 0
            St[COV + 1 - e] = 1      # its inner side lies against the tile it was attached to
        else:
            St[EV + e] = b if a == St[EV + e] else a
            St[ED + e] = 1 if dbl else 0
            if St[SPAT + e]:
                St[SPAT + e] = 0
                St[COV + e] = 1
                if St[COV] and St[COV + 1]:
                    St[ARMS] = 1
        St[LONE] = 0
    else:
        St[EV + e] = b if a == St[EV + e] else a
        St[ED + e] = 1 if dbl else 0
        St[USED + e - 2] = 1
    if spinner_now:
        St[SPIN] = a
        St[EV + 2] = a
        St[EV + 3] = a
        St[ED + 2] = 0
        St[ED + 3] = 0
        St[ARMS] = 0 if R[R_ARMS_AFTER] else 1
        St[SP_MOVE] = move
        St[SP_SEAT] = s
    # the tile leaves the hand
    sb = seat_base(s)
    bit = 1 << (t & 63)
    St[sb + HAND + (t >> 6)] &= ~bit
    St[PLAYED + (t >> 6)] |= bit
    St[sb + HCNT] -= 1
    St[sb + HPIPS] -= G[PIPS][t]
    St[sb + PTS] += pts
    St[sb + BON] += bonus
    St[sb + PLAYS] += 1
    if pts > 0:
        St[sb + SPLAYS] += 1
    St[NPL] = move
    St[NPASS] = 0
    if St[sb + HCNT] == 0:
        St[ENDED] = END_DOMINO
        St[WINNER] = s
    else:
        St[TURN] = next_seat(G, s)
    return pts, bonus, k, ssum


@kernel
def advance(G, St, bone, mv_t, mv_e, rec, nrec, rec_mode, deal):
    """Play the forced part of a turn (:func:`forced`), then list the legal moves of the seat to act.

    Returns (n, nrec): n > 0 legal moves of seat St[TURN] are in mv_t/mv_e and it must choose;
    n == 0 when the deal has ended (domino or blocked).
    """
    n, nrec = forced(G, St, bone, rec, nrec, rec_mode, deal)
    if n > 0:
        legal_moves(G, St, St[TURN] & 3, mv_t, mv_e)
    return n, nrec


@kernel
def forced(G, St, bone, rec, nrec, rec_mode, deal):
    """Play the forced part of a turn: draws and passes, until a seat holds a legal move.

    Returns (n, nrec): seat St[TURN] has n > 0 legal moves and must choose; n == 0 when the deal
    has ended (domino or blocked). Draws and passes are recorded when rec_mode == REC_ALL.
    """
    R = G[RULES]
    while True:
        if St[ENDED]:
            return 0, nrec
        s = St[TURN] & 3
        n = n_moves(G, St, s)
        if n > 0:
            return n, nrec
        sb = seat_base(s)
        drew_fit = False
        if R[R_DRAW]:
            limit = St[BN] - R[R_RESERVE]
            if St[BTOP] < limit:
                # what it could not play before drawing; older knowledge is void once it draws
                St[sb + VOID] = ends_value_mask(G, St)
            while St[BTOP] < limit:
                t = bone[St[BTOP] & 127]
                St[BTOP] += 1
                give(G, St, s, t)
                St[sb + DRAWS] += 1
                if rec_mode == REC_ALL:
                    nrec = record(rec, nrec, deal, s, ACT_DRAW, t, -1, 0, 0, 0, 0)
                if tile_fits(G, St, t):
                    drew_fit = True
                    break
        if drew_fit:
            continue  # the same seat now holds a legal move: listed on the next round
        St[sb + VOID] |= ends_value_mask(G, St)
        St[sb + PASSES] += 1
        St[NPASS] += 1
        if rec_mode == REC_ALL:
            nrec = record(rec, nrec, deal, s, ACT_PASS, -1, -1, 0, 0, 0, 0)
        if St[NPASS] >= R[R_PLAYERS]:
            St[ENDED] = END_BLOCKED
            return 0, nrec
        St[TURN] = next_seat(G, s)


@kernel
def round_bonus(G, p):
    """P rounded to the nearest multiple of bonus_round_to (halfway up), then divided (down)."""
    R = G[RULES]
    q = R[R_ROUND]
    return ((2 * p + q) // (2 * q)) * q // R[R_DIV]


@kernel
def finish(G, St):
    """Settle the end of the deal: hand winner and end bonus (RULES.md section 7)."""
    R = G[RULES]
    n = R[R_PLAYERS]
    total = 0
    for o in range(n):
        total += St[seat_base(o) + HPIPS]
    if St[ENDED] == END_DOMINO:
        w = St[WINNER]
        mode = R[R_OUT_MODE]
        if mode == OUT_FIXED:
            St[seat_base(w) + EB] = R[R_OUT_N]
        elif mode == OUT_OPP_PIPS:
            St[seat_base(w) + EB] = round_bonus(G, total - St[seat_base(w) + HPIPS])
        return
    best = -1
    ties = 0
    for o in range(n):
        p = St[seat_base(o) + HPIPS]
        if best < 0 or p < St[seat_base(best) + HPIPS]:
            best = o
            ties = 1
        elif p == St[seat_base(best) + HPIPS]:
            ties += 1
    if ties > 1:
        St[WINNER] = -1
        return
    St[WINNER] = best
    own = St[seat_base(best) + HPIPS]
    mode = R[R_BLOCK_MODE]
    if mode == BLOCK_OPP_PIPS:
        St[seat_base(best) + EB] = round_bonus(G, total - own)
    elif mode == BLOCK_OPP_MINUS_OWN:
        St[seat_base(best) + EB] = round_bonus(G, total - 2 * own)


@kernel
def reset(St):
    for i in range(ST_SIZE):
        St[i] = 0
    St[SPIN] = -1
    St[FORCED] = -1
    St[WINNER] = -1
    St[FD_SEAT] = -1
    St[SP_SEAT] = -1


@kernel
def start(G, St, first):
    """After the hands and boneyard are in place: seat ``first`` leads (forced tile if it holds it)."""
    R = G[RULES]
    dblm = G[DBLM]
    for o in range(R[R_PLAYERS]):
        hb = seat_base(o) + HAND
        St[seat_base(o) + DDEALT] = popcount(St[hb] & dblm[0]) + popcount(St[hb + 1] & dblm[1])
    St[FIRST] = first
    St[TURN] = first
    lt = R[R_LEAD_TILE]
    St[FORCED] = lt if (lt >= 0 and hand_has(St, first, lt)) else -1


@kernel
def deal_random(G, St, bone, perm, rng):
    """Shuffle (stream 0), deal the hands, lay the boneyard, choose who leads (RULES.md 2 and 6)."""
    R = G[RULES]
    n = R[R_PLAYERS]
    nt = perm.shape[0]
    for i in range(nt):
        perm[i] = i
    x = rng[0]  # stream 0 in a register while it shuffles
    for i in range(nt - 1, 0, -1):
        j, x = below_x(x, i + 1)
        tmp = perm[i]
        perm[i] = perm[j & 127]
        perm[j & 127] = tmp
    rng[0] = x
    reset(St)
    h = R[R_HAND]
    pips = G[PIPS]
    for s in range(n):
        w0 = 0
        w1 = 0
        p = 0
        for i in range(h):
            t = perm[s * h + i] & 127
            bit = 1 << (t & 63)
            if t < 64:
                w0 |= bit
            else:
                w1 |= bit
            p += pips[t]
        sb = seat_base(s)
        St[sb + HAND] = w0
        St[sb + HAND + 1] = w1
        St[sb + HCNT] = h
        St[sb + HPIPS] = p
    nb = nt - n * h
    for i in range(nb):
        bone[i] = perm[n * h + i]
    St[BN] = nb
    St[BTOP] = 0
    lt = R[R_LEAD_TILE]
    first = -1
    if lt >= 0:
        for s in range(n):
            if hand_has(St, s, lt):
                first = s
    if first < 0:
        first = below(rng, 0, n)
    start(G, St, first)

"""The rules of docs/rules.md sections 2-7 as numba functions over the integer state of ``layout.py``: the
deal, the turn (draws, passes, placements) and the settlement. What the open ends count and score is
in ends.py, a seat's legal moves in moves.py.

This is the only implementation of the rules in simdom: the batch kernel, the trace recorder, the
scripted-deal replayer and the policies' rollouts all call these functions.
"""
from __future__ import annotations

from .jit import kernel

from .bits import popcount
from .ends import ends_after, ends_value_mask, score_at, tile_fits
from .layout import (ACT_DRAW, ACT_PASS, ARMS, BLOCK_OPP_MINUS_OWN, BLOCK_OPP_PIPS, BN, BON, BONUS, BTOP, COV,
                     DBLM, DDEALT, DRAWS, EB, ED, ENDED, END_BLOCKED, END_DOMINO, EV, E_LEAD, FD_MOVE, FD_SEAT,
                     FIRST, FORCED, HAND, HCNT, HPIPS, LONE, LOSTFD, NPASS, NPL, OUT_FIXED, OUT_OPP_PIPS, PASSES,
                     PIPS, PLAYED, PLAYS, PTS, RC_ACT, RC_BONUS, RC_DEAL, RC_END, RC_K, RC_POINTS, RC_S, RC_SEAT,
                     RC_TILE, REC_ALL, RNG_DEAL, R_ARMS_AFTER, R_BLOCK_MODE, RB_N, RBX, R_DIV, R_DRAW, R_HAND, R_LEAD_TILE,
                     R_OUT_MODE, R_OUT_N, R_PLAYERS, R_RESERVE, R_ROUND, R_SPINNER, SMASK, SPAT, SPIN, SPLAYS,
                     SP_MOVE, SP_SEAT, ST_SIZE, TA, TB, TMASK, TURN, USED, VOID, WINNER)
from .moves import has_move, hand_has, legal_moves, seat_base
from .rng import below, below_x


@kernel
def next_seat(G, s):
    return 0 if s + 1 >= G[R_PLAYERS] else s + 1


@kernel
def give(G, St, s, t):
    """Put tile t into seat s's hand."""
    sb = seat_base(s)
    St[sb + HAND + (t >> 6)] |= 1 << (t & 63)
    St[sb + HCNT] += 1
    St[sb + HPIPS] += G[PIPS + t]


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
    k, ssum = ends_after(G, St, t, e)
    pts = score_at(G, k, ssum)
    bonus = 0
    move = St[NPL] + 1
    a = G[TA + t]
    b = G[TB + t]
    dbl = a == b
    if dbl and St[FD_MOVE] == 0:
        bonus = G[BONUS + move]
        St[FD_MOVE] = move
        St[FD_SEAT] = s
        for o in range(G[R_PLAYERS]):
            if o != s:
                ob = seat_base(o) + HAND
                if (St[ob] & G[DBLM]) | (St[ob + 1] & G[DBLM + 1]):
                    St[seat_base(o) + LOSTFD] = 1
    spinner_now = False
    if e == E_LEAD:
        if dbl:
            St[EV] = a
            St[EV + 1] = a
            St[ED] = 1
            St[ED + 1] = 1
            St[LONE] = 1
            if G[R_SPINNER]:
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
        if dbl and G[R_SPINNER] and St[SPIN] < 0:
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
        St[ARMS] = 0 if G[R_ARMS_AFTER] else 1
        St[SP_MOVE] = move
        St[SP_SEAT] = s
    # the tile leaves the hand
    sb = seat_base(s)
    bit = 1 << (t & 63)
    St[sb + HAND + (t >> 6)] &= ~bit
    St[PLAYED + (t >> 6)] |= bit
    St[sb + HCNT] -= 1
    St[sb + HPIPS] -= G[PIPS + t]
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
    n = 0
    mover, nrec = forced(G, St, bone, rec, nrec, rec_mode, deal)
    if mover:
        n = legal_moves(G, St, St[TURN] & SMASK, mv_t, mv_e)
    return n, nrec


@kernel
def forced(G, St, bone, rec, nrec, rec_mode, deal):
    """Play the forced part of a turn: draws and passes, until a seat holds a legal move.

    Returns (mover, nrec): mover is True when seat St[TURN] holds a legal move and must choose, False
    when the deal has ended (domino or blocked). Draws and passes are recorded when rec_mode == REC_ALL.
    """
    while True:
        if St[ENDED]:
            return False, nrec
        s = St[TURN] & SMASK
        if has_move(G, St, s):
            return True, nrec
        sb = seat_base(s)
        drew_fit = False
        if G[R_DRAW]:
            limit = St[BN] - G[R_RESERVE]
            if St[BTOP] < limit:
                # what it could not play before drawing; older knowledge is void once it draws
                St[sb + VOID] = ends_value_mask(G, St)
            while St[BTOP] < limit:
                t = bone[St[BTOP] & TMASK]
                St[BTOP] += 1
                give(G, St, s, t)
                St[sb + DRAWS] += 1
                if rec_mode == REC_ALL:
                    nrec = record(rec, nrec, deal, s, ACT_DRAW, t, -1, 0, 0, 0, 0)
                if tile_fits(G, St, t):
                    drew_fit = True
                    break
        if drew_fit:
            return True, nrec  # the same seat now holds a legal move
        St[sb + VOID] |= ends_value_mask(G, St)
        St[sb + PASSES] += 1
        St[NPASS] += 1
        if rec_mode == REC_ALL:
            nrec = record(rec, nrec, deal, s, ACT_PASS, -1, -1, 0, 0, 0, 0)
        if St[NPASS] >= G[R_PLAYERS]:
            St[ENDED] = END_BLOCKED
            return False, nrec
        St[TURN] = next_seat(G, s)


@kernel
def round_bonus(G, p):
    """P rounded to the nearest multiple of bonus_round_to (halfway up), then divided (down): G's
    table for every count of pips a set can hold (tables.build_game, the same formula: the solver's
    bounds ask for it four times a position, and its two integer divisions took 9% of the solver's
    time, docs/speed.md), the formula for any other p."""
    if 0 <= p < RB_N:
        return G[RBX + p]
    q = G[R_ROUND]
    return ((2 * p + q) // (2 * q)) * q // G[R_DIV]


@kernel
def finish(G, St):
    """Settle the end of the deal: hand winner and end bonus (docs/rules.md section 7)."""
    n = G[R_PLAYERS]
    total = 0
    for o in range(n):
        total += St[seat_base(o) + HPIPS]
    if St[ENDED] == END_DOMINO:
        w = St[WINNER]
        mode = G[R_OUT_MODE]
        if mode == OUT_FIXED:
            St[seat_base(w) + EB] = G[R_OUT_N]
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
    mode = G[R_BLOCK_MODE]
    if mode == BLOCK_OPP_PIPS:
        St[seat_base(best) + EB] = round_bonus(G, total - own)
    elif mode == BLOCK_OPP_MINUS_OWN:
        St[seat_base(best) + EB] = round_bonus(G, total - 2 * own)


@kernel
def seat_total(St, s):
    """Seat s's points in the deal so far: placements, first-double bonus and end bonus."""
    b = seat_base(s)
    return St[b + PTS] + St[b + BON] + St[b + EB]


@kernel
def standing(G, St, s):
    """Seat s's total, its margin over the best other seat, and its share of the win (1/k when k seats
    tie on the highest total, 0 when it is not on top)."""
    own = seat_total(St, s)
    best = -(1 << 30)
    for o in range(G[R_PLAYERS]):
        if o != s:
            best = max(best, seat_total(St, o))
    if own < best:
        return own, own - best, 0.0
    k = 0
    for o in range(G[R_PLAYERS]):
        if seat_total(St, o) == own:
            k += 1
    return own, own - best, 1.0 / k


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
    for o in range(G[R_PLAYERS]):
        hb = seat_base(o) + HAND
        St[seat_base(o) + DDEALT] = popcount(St[hb] & G[DBLM]) + popcount(St[hb + 1] & G[DBLM + 1])
    St[FIRST] = first
    St[TURN] = first
    lt = G[R_LEAD_TILE]
    St[FORCED] = lt if (lt >= 0 and hand_has(St, first, lt)) else -1


@kernel
def deal_random(G, St, bone, perm, rng):
    """Shuffle (stream 0), deal the hands, lay the boneyard, choose who leads (docs/rules.md 2 and 6)."""
    n = G[R_PLAYERS]
    nt = perm.shape[0]
    for i in range(nt):
        perm[i] = i
    x = rng[RNG_DEAL]  # the deal's stream in a register while it shuffles
    for i in range(nt - 1, 0, -1):
        j, x = below_x(x, i + 1)
        tmp = perm[i]
        perm[i] = perm[j & TMASK]
        perm[j & TMASK] = tmp
    rng[RNG_DEAL] = x
    reset(St)
    h = G[R_HAND]
    for s in range(n):
        w0 = 0
        w1 = 0
        p = 0
        for i in range(h):
            t = perm[s * h + i] & TMASK
            bit = 1 << (t & 63)
            if t < 64:
                w0 |= bit
            else:
                w1 |= bit
            p += G[PIPS + t]
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
    lt = G[R_LEAD_TILE]
    first = -1
    if lt >= 0:
        for s in range(n):
            if hand_has(St, s, lt):
                first = s
    if first < 0:
        first = below(rng, RNG_DEAL, n)
    start(G, St, first)

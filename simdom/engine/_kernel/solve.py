"""The exact solver of an open deal: every hand and the boneyard order known (the double-dummy problem).

Alpha-beta over the placements (draws and passes are forced, docs/rules.md 5, and played by core.forced),
with a transposition table and move ordering, as DDS does for bridge:

* ``paranoid`` mode: the side of the root seat maximises its final value, every other seat minimises
  it (exact for two sides, partnerships included; for three or four sides the paranoid bound);
* ``against`` mode: only the root seat chooses; every other seat plays its policy (a deterministic
  one: greedy, heavy, hold, timing, defensive), so the value is the best a clairvoyant player can
  do against those players. With greedy, heavy and hold (whose choice depends on the hands and the
  layout alone, ctl[SV_AGAINST] = AGAINST_HANDS) the key is minimax's; timing and defensive read the
  scores and what each seat showed it lacked, which then enter the key (AGAINST_READS_ALL).

The value is ``by`` margin (the side's deal total minus the highest other side's total, end bonus
included) or points (the side's own deal total). A deal state fully determines its future, so the
table holds the value of the future: the value minus what is already scored, when the value is
additive (points, or the margin between two sides). With more than two sides by margin it is not:
an entry then holds the root's margin over each seat when it was stored, and a position reached
with other margins reads its bounds shifted (the value is nondecreasing in every margin and moves by
c when all of them move by c: :func:`shift_of`). In exact solves the lower bound is kept seat by seat
too: a search proving "at least v" returns, for each other seat, a lower bound of the root's final
margin over it (the least over the other seats' replies, the chosen move's where the root side
chooses), and the entry keeps how much each margin gains at least from there on, so a position
reached with other margins reads min over seats of (its margin + that gain), at least the shifted
bound and often more (:func:`entry_vec`). Only against timing or defensive, which read the
scores, are the scores part of the key. Bounds are stored as a (lower, upper) pair, the best move as
a tile and an end.

Every position is first bounded by what is left to score (:func:`value_bounds`, as DDS's quick
tricks): the root side gains at most its tiles in hand and the boneyard it may draw times the most a
placement scores, the first-double bonus while no double is down, and the largest end bonus; every
other side likewise. A position whose bounds fall outside the window is not searched (in exact
solves: below a horizon the search policy's trees are small, and the bounds cost it more than they
save).

Work arrays (:func:`simdom.engine._kernel.work.make_solver`), a tuple ``V``:
``stk`` int64[depth, ST_SIZE] the states on the path, ``mt``/``me``/``mk`` int64[depth, 4 nt + 4] the
moves (tiles, ends, ordering keys) at each depth, ``ttv`` int64[2^b, TT_COLS] the table (an entry's
lower bound, upper bound, best move, margins and key in one cache line) and ``ttk`` uint64[2^b] its
keys (a view of ttv's column TT_KEY: :func:`simdom.engine._kernel.work.make_table`), ``ctl``
int64[SV_SIZE] the controls (layout.SV_*), ``sides`` int64[4] each seat's side, ``ids``/``par`` the
seats' policies (against mode), ``rng`` uint64[N_STREAMS], the policies' scratch, the frames of the
iterative search (``fr``, ``fk``) and a root move list with values (``rt``, ``re``, ``rv``).

With a horizon (ctl[SV_HORIZON] = h > 0, the search policy's minimax model), a position h placements
below the root is valued by greedy playing the deal out for every seat; the value is then not exact.
"""
from __future__ import annotations

import numpy as np

from .jit import entry, kernel
from .core import forced, place, seat_total, round_bonus
from .ends import move_value
from .greedy import greedy_move
from .kpolicies import defensive_to_end, greedy_to_end, policy_move
from .layout import (FR_A, FR_V, FR_A0, FR_B, FR_B0, FR_BEST, FR_BI, FR_HIT, FR_I, FR_KIND, FR_MAXI, FR_N, FR_OFF,
                     FR_S, FR_SLOT, KIND_FULL, KIND_PASS, ARMS, BTOP, COV, ED, ENDED, EV, FD_MOVE, EB, FIRST, FORCED, HAND, LONE, NPASS, NPL, PIPS, PTS, BON,
                     REC_NONE, R_PLAYERS, SMASK, SPAT, SPIN, ST_SIZE, SV_AGAINST, SV_BY, SV_MULTI, SV_NODES,
                     AGAINST_NONE, AGAINST_READS_ALL, SV_ABORTED, SV_HORIZON, SV_LIMIT, SV_ROOT, SV_SALT, SV_SIDE, SV_CANON, SV_OWN, OWN_DEFENSIVE, OWN_GREEDY, TMASK, TURN, USED, VOID, BY_POINTS, POL_GREEDY, SX_REC)
from .moves import legal_moves, seat_base
from .sides import settle

from .rng import GAMMA, mix64

from .layout import (BLOCK_NONE, BN, HCNT, HPIPS, OUT_FIXED, OUT_OPP_PIPS, R_BLOCK_MODE, R_BMAX, R_DRAW, R_OUT_MODE,
                     R_OUT_N, R_PMAX, R_RESERVE, SV_TBITS, SALT_PARAMS)

INF = 1 << 40
#: the half-width of a root move's first window with several sides by margin (solve_root)
ASPIRE = 8


@kernel
def gain_max(G, P, tiles, pips_in, pips_all):
    """The most points a side can still add to its total: its placements (``tiles``: in its hands and
    the boneyard it may draw, each scoring at most G[R_PMAX]), the first-double bonus if no double is
    down, and the end bonus (at most the pips outside its hands, ``pips_all - pips_in``, or the fixed
    out bonus)."""
    g = tiles * G[R_PMAX]
    if P[FD_MOVE] == 0:
        g += G[R_BMAX]
    eb = 0
    if G[R_OUT_MODE] == OUT_FIXED:
        eb = G[R_OUT_N]
    if G[R_OUT_MODE] == OUT_OPP_PIPS or G[R_BLOCK_MODE] != BLOCK_NONE:
        eb = max(eb, round_bonus(G, pips_all - pips_in))
    return g + eb


@kernel
def value_bounds(G, P, bone, V):
    """(lo, hi): bounds of the root side's final value from P on, whatever anyone plays. One pass over
    the seats gathers each side's total, tiles and pips in hand (sides 0-3 in locals: this runs at every
    position)."""
    ctl, sides = V[6], V[7]
    root = ctl[SV_SIDE]
    n = G[R_PLAYERS]
    nb = 0
    if G[R_DRAW]:
        nb = max(0, P[BN] - G[R_RESERVE] - P[BTOP])
    pips_all = 0
    t0 = t1 = t2 = t3 = 0
    c0 = c1 = c2 = c3 = nb
    p0 = p1 = p2 = p3 = 0
    nsides = 0
    for s in range(n):
        b = seat_base(s)
        hp = P[b + HPIPS]
        hc = P[b + HCNT]
        v = P[b + PTS] + P[b + BON] + P[b + EB]
        pips_all += hp
        k = sides[s]
        nsides = max(nsides, k + 1)
        if k == 0:
            t0 += v
            c0 += hc
            p0 += hp
        elif k == 1:
            t1 += v
            c1 += hc
            p1 += hp
        elif k == 2:
            t2 += v
            c2 += hc
            p2 += hp
        else:
            t3 += v
            c3 += hc
            p3 += hp
    if G[R_OUT_MODE] == OUT_OPP_PIPS or G[R_BLOCK_MODE] != BLOCK_NONE:  # the end bonus counts pips
        for i in range(P[BTOP], P[BN]):
            pips_all += G[PIPS + (bone[i & TMASK] & TMASK)]
    own = t0 if root == 0 else t1 if root == 1 else t2 if root == 2 else t3
    up = gain_max(G, P, c0 if root == 0 else c1 if root == 1 else c2 if root == 2 else c3,
                  p0 if root == 0 else p1 if root == 1 else p2 if root == 2 else p3, pips_all)
    if ctl[SV_BY] == BY_POINTS:
        return own, own + up
    top = -INF
    topup = -INF
    for k in range(nsides):
        if k != root:
            t = t0 if k == 0 else t1 if k == 1 else t2 if k == 2 else t3
            top = max(top, t)
            topup = max(topup, t + gain_max(G, P, c0 if k == 0 else c1 if k == 1 else c2 if k == 2 else c3,
                                            p0 if k == 0 else p1 if k == 1 else p2 if k == 2 else p3,
                                            pips_all))
    return own - topup, own + up - top


@kernel
def side_totals_value(G, P, V):
    """The root side's final value of the settled deal P (by margin or by points)."""
    ctl, sides = V[6], V[7]
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
    ctl, sides = V[6], V[7]
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
    w2 = (P[EV + a] | (P[EV + b] << 4) | (P[EV + 2 + c] << 8) | (P[EV + 2 + d] << 12) | (P[ED + a] << 16)
          | (P[ED + b] << 17) | (P[ED + 2 + c] << 18) | (P[ED + 2 + d] << 19))
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
    stored for the image (:func:`mirror_end`). Only in exact minimax solves: a policy's tie-break
    between ends (the opponents' in against mode, greedy's beyond a horizon) is not symmetric."""
    ctl = V[6]
    h = np.uint64(ctl[SV_SALT])
    n = G[R_PLAYERS]
    for s in range(n):
        b = seat_base(s) + HAND
        h = mixin(h, P[b])
        if not canon or P[b + 1] != 0:  # tiles past the 64th (double-nine and up); as before outside
            h = mixin(h, P[b + 1])       # exact solves (a node budget runs out where it did)
    a = 0
    c = 0
    if canon:  # the image whose first end (of the line, of the arms) has the smaller signature
        if end_sig(P, 1) < end_sig(P, 0):
            a = 1
        if arm_sig(P, 3) < arm_sig(P, 2):
            c = 1
    w1, w2 = end_words(P, a, c)
    image = a | (c << 1)
    h = mixin(h, w1)
    h = mixin(h, w2)
    if ctl[SV_AGAINST] == AGAINST_READS_ALL:
        h = mixin(h, P[FIRST])
        for s in range(n):
            b = seat_base(s)
            h = mixin(h, P[b + VOID] | ((P[b + PTS] + P[b + BON]) << 20))
    return h, image


@kernel
def drop_mirrored(P, n, mt, me):
    """The n moves less those whose mirror twin is listed (exact minimax solves): when the line's two
    ends have one signature (:func:`end_sig`), a tile on R gives the mirror image of the same tile on L,
    of one value, so only L's is searched; the arms' D likewise beside U. Returns how many are left."""
    line = end_sig(P, 0) == end_sig(P, 1)
    arms = arm_sig(P, 2) == arm_sig(P, 3)
    if not (line or arms):
        return n
    k = 0
    for i in range(n):
        e = me[i]
        twin = -1
        if e == 1 and line:
            twin = 0
        elif e == 3 and arms:
            twin = 2
        keep = True
        if twin >= 0:
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
def mirror_end(e, image):
    """End e of a position as the same end of its mirror image ``image`` (and back: each is its own
    inverse)."""
    if e < 2 and (image & 1):
        return 1 - e
    if e >= 2 and e < 4 and (image & 2):
        return 5 - e
    return e


#: an entry's margin over a seat and its lower bound of the future (several sides by margin) share one
#: int64: the margin plus HALF in the low 32 bits, the bound in the high 32 (NOVEC: none)
HALF = 1 << 31
LOW32 = (1 << 32) - 1
NOVEC = -(1 << 30)


@kernel
def shift_of(G, P, V, ttv, slot):
    """(dmin, dmax): how far the root's margin over each other seat moved from the entry's (several
    sides by margin, where the table's entries hold the margins they were searched at). The value is
    nondecreasing in every margin and moves by c when all move by c, so an entry's bounds hold here
    shifted by at least dmin and at most dmax."""
    ctl = V[6]
    r = ctl[SV_ROOT]
    own = seat_total(P, r)
    dmin = INF
    dmax = -INF
    for s in range(G[R_PLAYERS]):
        if s != r:
            e = own - seat_total(P, s) - ((ttv[slot, 3 + s] & LOW32) - HALF)
            dmin = min(dmin, e)
            dmax = max(dmax, e)
    return dmin, dmax


@kernel
def margins_now(G, P, V):
    """The root's margin over each seat in P (seats 0-3; INF for the root and absent seats)."""
    r = V[6][SV_ROOT]
    own = seat_total(P, r)
    m0 = own - seat_total(P, 0) if r != 0 else INF
    m1 = own - seat_total(P, 1) if r != 1 else INF
    m2 = own - seat_total(P, 2) if r != 2 and G[R_PLAYERS] > 2 else INF
    m3 = own - seat_total(P, 3) if r != 3 and G[R_PLAYERS] > 3 else INF
    return m0, m1, m2, m3


@kernel
def entry_vec(G, P, V, ttv, slot):
    """An entry's lower bounds of the root's final margin over each seat, read at P's margins: the
    entry holds, for each seat, how much at least the margin gains from its position on (the bound's
    vector, margin-free), so a position reached with other margins reads its own bounds seat by seat."""
    m0, m1, m2, m3 = margins_now(G, P, V)
    if m0 < INF:
        m0 += ttv[slot, 3] >> 32
    if m1 < INF:
        m1 += ttv[slot, 4] >> 32
    if m2 < INF:
        m2 += ttv[slot, 5] >> 32
    if m3 < INF:
        m3 += ttv[slot, 6] >> 32
    return m0, m1, m2, m3


@kernel
def bounds_vec(G, P, bone, V):
    """The quick lower bounds of value_bounds seat by seat (several sides by margin: a side is a seat):
    the root's total now less each other seat's total and the most it can still add."""
    r = V[6][SV_ROOT]
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
    m0 = INF
    m1 = INF
    m2 = INF
    m3 = INF
    for s in range(n):
        if s != r:
            b = seat_base(s)
            m = own - seat_total(P, s) - gain_max(G, P, P[b + HCNT] + nb, P[b + HPIPS], pips_all)
            if s == 0:
                m0 = m
            elif s == 1:
                m1 = m
            elif s == 2:
                m2 = m
            else:
                m3 = m
    return m0, m1, m2, m3


@kernel
def store_margins(G, P, V, ttv, slot, mode, f):
    """An entry's margins (P's) and each seat's lower bound of the future: none (mode 0), the entry's own
    kept (1: the same position, no new lower bound), or from the node's vector f (2: f[k] the lower bound
    of the final margin over seat k, so f[k] less the margin now)."""
    r = V[6][SV_ROOT]
    own = seat_total(P, r)
    for s in range(G[R_PLAYERS]):
        m = own - seat_total(P, s)
        a = NOVEC
        if s != r:
            if mode == 1:
                a = ttv[slot, 3 + s] >> 32
            elif mode == 2:
                a = f[FR_V + s] - m
        ttv[slot, 3 + s] = (a << 32) | (m + HALF)


@kernel
def order_moves(G, P, n, mt, me, mk, best_t, best_e):
    """Sort the n moves best first: the table's best move, then by immediate points (scoring and the
    first-double bonus), then the heavier tile."""
    for i in range(n):
        t = mt[i]
        k = move_value(G, P, t, me[i]) * 256 + G[PIPS + t]
        if t == best_t and me[i] == best_e:
            k = 1 << 40
        mk[i] = k
    for i in range(1, n):  # insertion sort, descending keys (lists are short)
        kt = mk[i]
        tt = mt[i]
        te = me[i]
        j = i
        while j > 0 and mk[j - 1] < kt:
            mk[j] = mk[j - 1]
            mt[j] = mt[j - 1]
            me[j] = me[j - 1]
            j -= 1
        mk[j] = kt
        mt[j] = tt
        me[j] = te


@kernel
def push_child(G, V, d, s, t, e):
    """Start the child of stk[d] where seat s places t on e, with the window of frame d."""
    stk, fr = V[0], V[12]
    P = stk[d]
    Q = stk[d + 1]
    for j in range(ST_SIZE):
        Q[j] = P[j]
    place(G, Q, s, t, e)
    fr[d + 1, FR_A] = fr[d, FR_A]
    fr[d + 1, FR_B] = fr[d, FR_B]


@entry
def search(G, bone, V, d0, alpha0, beta0):
    """The value of stk[d0] for the root side, searched in the window (alpha0, beta0) (fail-soft
    alpha-beta). Iterative, with one frame per depth (fr[d, FR_*]): numba cannot cache a recursive
    function (numba issue 6061), and an explicit stack has no recursion limit."""
    stk, mt, me, mk, ttk, ttv, ctl, sides, ids, par, rng, scratch, fr, fk = V[:14]
    hz = ctl[SV_HORIZON]
    canon = ctl[SV_CANON] != 0 and hz == 0 and ctl[SV_AGAINST] == AGAINST_NONE
    # several sides by margin in an exact solve: each node also returns v0-v3, lower bounds of the root's
    # final margin over each seat (valid whenever the node's value is not an upper bound), which the
    # table keeps seat by seat (entry_vec)
    vec = canon and ctl[SV_MULTI] != 0
    v0 = v1 = v2 = v3 = np.int64(INF)
    mask = ttk.shape[0] - 1
    if ctl[SV_TBITS] > 0:  # a part of the table (the search policy's small trees stay in the cache)
        mask = min(mask, (1 << ctl[SV_TBITS]) - 1)
    d = d0
    fr[d, FR_A] = alpha0
    fr[d, FR_B] = beta0
    ret = 0
    enter = True
    # the child to enter next (one call site of push_child, and of settle below: numba types an
    # inlined helper again at every call site, so one site each keeps the compile short)
    child = False
    cs = 0
    ct = 0
    ce = 0
    while True:
        if child:
            push_child(G, V, d, cs, ct, ce)
            d += 1
            child = False
            enter = True
        if enter:
            P = stk[d]
            mover, _ = forced(G, P, bone, scratch[SX_REC], 0, REC_NONE, 0)
            if mover:
                ctl[SV_NODES] += 1
                if ctl[SV_LIMIT] > 0 and ctl[SV_NODES] > ctl[SV_LIMIT]:
                    ctl[SV_ABORTED] = 1  # the table holds only finished nodes: it stays valid
                    return 0
                if hz > 0 and d >= hz:  # the horizon: greedy plays the deal out for every seat, or for
                    if ctl[SV_OWN] != OWN_GREEDY:  # the root's plays defensive (expert's model=defensive: every seat)
                        defensive_to_end(G, P, bone, scratch[SX_REC], ctl[SV_ROOT] if ctl[SV_OWN] == OWN_DEFENSIVE else -1,
                                         V[17], V[18][0], V[18][1])
                    else:
                        greedy_to_end(G, P, bone, scratch[SX_REC])
                    mover = False
            if not mover:
                settle(G, P)
                ret = side_totals_value(G, P, V)
                if vec:
                    v0, v1, v2, v3 = margins_now(G, P, V)
                enter = False
                continue
            if hz == 0:  # exact solves (a horizon's small trees gain less than the bounds cost)
                lo_b, hi_b = value_bounds(G, P, bone, V)
                if hi_b <= fr[d, FR_A]:
                    ret = hi_b
                    enter = False
                    continue
                if lo_b >= fr[d, FR_B]:
                    ret = lo_b
                    if vec:
                        v0, v1, v2, v3 = bounds_vec(G, P, bone, V)
                    enter = False
                    continue
            s = P[TURN] & SMASK
            fr[d, FR_S] = s
            if ctl[SV_AGAINST] and s != ctl[SV_ROOT]:
                if ids[s] == POL_GREEDY:  # the search policy's opponents: greedy inlined, the rest called
                    t, e = greedy_move(G, P, s, False)
                else:
                    t, e = policy_move(G, P, s, ids[s], par[s], rng, mt[d], me[d], scratch)
                fr[d, FR_KIND] = KIND_PASS
                child, cs, ct, ce = True, s, t & TMASK, e
                continue
            n = legal_moves(G, P, s, mt[d], me[d])
            if canon:
                n = drop_mirrored(P, n, mt[d], me[d])
            if n == 1:
                fr[d, FR_KIND] = KIND_PASS
                child, cs, ct, ce = True, s, mt[d, 0], me[d, 0]
                continue
            alpha = fr[d, FR_A]
            beta = fr[d, FR_B]
            key, image = node_key(G, P, V, canon)
            if hz > 0:
                key = mixin(key, hz - d)
            slot = np.int64(key & np.uint64(mask))
            off = offset(G, P, V)
            best_t = -1
            best_e = -1
            hit = ttk[slot] == key
            xfer = ctl[SV_MULTI] and ctl[SV_AGAINST] != AGAINST_READS_ALL
            if hit:
                if xfer:
                    dmin, dmax = shift_of(G, P, V, ttv, slot)
                    lo = ttv[slot, 0] + dmin if ttv[slot, 0] > -INF else -INF
                    hi = ttv[slot, 1] + dmax if ttv[slot, 1] < INF else INF
                    if vec and lo > -INF:  # seat by seat: at least the shifted bound, often more
                        v0, v1, v2, v3 = entry_vec(G, P, V, ttv, slot)
                        lo = min(min(v0, v1), min(v2, v3))
                else:
                    lo = ttv[slot, 0] + off
                    hi = ttv[slot, 1] + off
                if lo >= beta or lo == hi:
                    ret = lo
                    enter = False
                    continue
                if hi <= alpha:
                    ret = hi
                    enter = False
                    continue
                alpha = max(alpha, lo)
                beta = min(beta, hi)
                best_t = ttv[slot, 2] >> 3
                best_e = mirror_end(ttv[slot, 2] & 7, image)
                if canon and ((best_e == 1 and end_sig(P, 0) == end_sig(P, 1))
                              or (best_e == 3 and arm_sig(P, 2) == arm_sig(P, 3))):
                    best_e -= 1  # its twin, the move listed (drop_mirrored)
            order_moves(G, P, n, mt[d], me[d], mk[d], best_t, best_e)
            maxi = sides[s] == ctl[SV_SIDE]
            fk[d] = key
            fr[d, FR_KIND] = KIND_FULL
            fr[d, FR_A] = alpha
            fr[d, FR_B] = beta
            fr[d, FR_A0] = alpha
            fr[d, FR_B0] = beta
            fr[d, FR_BEST] = -INF if maxi else INF
            fr[d, FR_BI] = 0
            fr[d, FR_I] = 0
            fr[d, FR_N] = n
            fr[d, FR_MAXI] = 1 if maxi else 0
            fr[d, FR_SLOT] = slot
            fr[d, FR_OFF] = off
            for k in range(4):
                fr[d, FR_V + k] = INF
            fr[d, FR_HIT] = (1 if hit else 0) | (image << 1)  # bit 0: a hit; the image above
            child, cs, ct, ce = True, s, mt[d, 0], me[d, 0]
            continue
        # returning ret, the value of node d, to its parent
        if d == d0:
            return ret
        d -= 1
        if fr[d, FR_KIND] == KIND_PASS:
            continue
        i = fr[d, FR_I]
        if fr[d, FR_MAXI]:
            if ret > fr[d, FR_BEST]:
                fr[d, FR_BEST] = ret
                fr[d, FR_BI] = i
                if ret > fr[d, FR_A]:
                    fr[d, FR_A] = ret
                if vec:  # the root side's choice: the best move's bounds
                    fr[d, FR_V] = v0
                    fr[d, FR_V + 1] = v1
                    fr[d, FR_V + 2] = v2
                    fr[d, FR_V + 3] = v3
        else:
            if ret < fr[d, FR_BEST]:
                fr[d, FR_BEST] = ret
                fr[d, FR_BI] = i
                if ret < fr[d, FR_B]:
                    fr[d, FR_B] = ret
            if vec:  # another seat's choice: the least bound over its moves, seat by seat
                fr[d, FR_V] = min(fr[d, FR_V], v0)
                fr[d, FR_V + 1] = min(fr[d, FR_V + 1], v1)
                fr[d, FR_V + 2] = min(fr[d, FR_V + 2], v2)
                fr[d, FR_V + 3] = min(fr[d, FR_V + 3], v3)
        i += 1
        fr[d, FR_I] = i
        if fr[d, FR_A] < fr[d, FR_B] and i < fr[d, FR_N]:
            child, cs, ct, ce = True, fr[d, FR_S], mt[d, i], me[d, i]
            continue
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
        vmode = 2 if vec and lo > -INF else 0
        if vec:
            v0 = fr[d, FR_V]
            v1 = fr[d, FR_V + 1]
            v2 = fr[d, FR_V + 2]
            v3 = fr[d, FR_V + 3]
        if (fr[d, FR_HIT] & 1) and ttk[slot] == fk[d]:
            if xfer:
                dmin, dmax = shift_of(G, stk[d], V, ttv, slot)
                if ttv[slot, 0] > -INF:
                    if not vec:
                        lo = max(lo, ttv[slot, 0] + dmin)
                    elif vmode == 0:  # no new lower bound: the entry's, seat by seat, kept
                        vmode = 1
                        e0, e1, e2, e3 = entry_vec(G, stk[d], V, ttv, slot)
                        lo = min(min(e0, e1), min(e2, e3))
                if ttv[slot, 1] < INF:
                    hi = min(hi, ttv[slot, 1] + dmax)
            else:
                lo = max(lo, ttv[slot, 0] + off)
                hi = min(hi, ttv[slot, 1] + off)
        ttk[slot] = fk[d]
        ttv[slot, 0] = lo - off if lo > -INF else -INF
        ttv[slot, 1] = hi - off if hi < INF else INF
        if xfer:
            store_margins(G, stk[d], V, ttv, slot, vmode, fr[d])
        bi = fr[d, FR_BI]
        ttv[slot, 2] = (mt[d, bi] << 3) | mirror_end(me[d, bi], fr[d, FR_HIT] >> 1)
        ret = best


@kernel
def salt_of(G, bone, V, nb):
    """The table's salt for one problem: the boneyard, the root seat and side, the value and mode, and
    in against mode the seats' policies."""
    ctl, ids, par = V[6], V[8], V[9]
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


@kernel
def stk_root(G, St, bone, V):
    """stk[0]: St after its forced draws and passes; the root seat, its side, the mode and the table's
    salt set in ctl for a search from there (when the deal has not ended)."""
    stk, scratch = V[0], V[11]
    sides, ctl = V[7], V[6]
    P = stk[0]
    for i in range(ST_SIZE):
        P[i] = St[i]
    mover, _ = forced(G, P, bone, scratch[SX_REC], 0, REC_NONE, 0)
    if not mover:
        return P
    s = P[TURN] & SMASK
    ctl[SV_ROOT] = s
    ctl[SV_SIDE] = sides[s]
    ctl[SV_ABORTED] = 0
    nsides = 0
    for o in range(G[R_PLAYERS]):
        nsides = max(nsides, sides[o] + 1)
    ctl[SV_MULTI] = 1 if (nsides > 2 and ctl[SV_BY] != BY_POINTS) else 0
    salt = salt_of(G, bone, V, bone.shape[0])
    if ctl[SV_HORIZON] > 0:  # a value below a horizon depends on the root's distance to it
        salt = mixin(salt, ctl[SV_HORIZON] * 256 + P[NPL])
    ctl[SV_SALT] = np.int64(salt & np.uint64(0x7FFFFFFFFFFFFFFF))
    return P


@entry
def solve_root(G, St, bone, V, out_t, out_e, out_v):
    """Exact value of every legal move of the seat to act in St (which must hold a choice, after the
    forced draws and passes). Fills out_t/out_e/out_v in the move order of moves.py; returns how many.
    ctl[SV_BY] and ctl[SV_AGAINST] say what to solve; the root seat and side are set here. With
    ctl[SV_LIMIT] > 0 the search stops after that many positions and sets ctl[SV_ABORTED].

    An exact minimax solve (no horizon, not against policies) finds each move's value by null windows
    only, as MTD(f) (Plaat et al. 1996): a test of "at least g?" around a guess g, the previous move's
    value, moved to each answer's bound until the two bounds meet, the table keeping what every test
    learnt; its keys are the mirror images' (node_key). Measured from the lead of seed 1's first deals:
    2-player Threes 11 ms -> 2.6 ms a deal (median), 4-player 0.66 s -> 0.25 s (0.19 s now: docs/speed.md),
    the values equal. With several sides by margin each move after the first is first searched in a
    window of the guess plus or minus ASPIRE (4% fewer positions there; 16% more with two sides). Against
    policies or with a horizon (the search policy) only the mover branches, the tests cost more than
    they save, and each move is searched once with the whole window."""
    P = stk_root(G, St, bone, V)
    if P[ENDED]:
        return 0
    s = P[TURN] & SMASK
    stk, ctl = V[0], V[6]
    n = legal_moves(G, P, s, out_t, out_e)
    ctl[SV_CANON] = 1
    mtd = ctl[SV_HORIZON] == 0 and ctl[SV_AGAINST] == AGAINST_NONE
    Q = stk[1]
    g = np.int64(0)
    for i in range(n):
        lo = -INF
        hi = np.int64(INF)
        first = True
        while lo < hi:  # one call site of place and search (numba types an inlined helper at every site)
            if mtd and first and i > 0 and ctl[SV_MULTI]:  # several sides: a window around the guess first
                a = g - ASPIRE
                beta = g + ASPIRE
            elif mtd:
                beta = g if g > lo else lo + 1
                a = beta - 1
            else:
                a = -INF
                beta = np.int64(INF)
            for j in range(ST_SIZE):
                Q[j] = P[j]
            place(G, Q, s, out_t[i], out_e[i])
            g = search(G, bone, V, 1, a, beta)
            if ctl[SV_ABORTED]:
                ctl[SV_CANON] = 0
                return n
            if not mtd:
                break
            if g <= a:
                hi = g
            elif g >= beta:
                lo = g
            else:  # inside the window: exact
                lo = g
                hi = g
            first = False
        out_v[i] = g
    ctl[SV_CANON] = 0
    return n


@entry
def solve_best(G, St, bone, V, out_t, out_e, out_v):
    """The index of the best move of the seat to act (the first listed among equals; the same move as
    the best of :func:`solve_root`), with null windows: move 0 is searched exactly, each later move
    only tested for beating the best so far (the window (best, best + 1)) and searched exactly only if
    it does. out_v[i] is then move i's exact value or an upper bound at most the best."""
    P = stk_root(G, St, bone, V)
    if P[ENDED]:
        return 0
    s = P[TURN] & SMASK
    stk, ctl = V[0], V[6]
    n = legal_moves(G, P, s, out_t, out_e)
    Q = stk[1]
    best = -INF
    b = 0
    for i in range(n):
        for j in range(ST_SIZE):
            Q[j] = P[j]
        place(G, Q, s, out_t[i], out_e[i])
        if i == 0:
            v = search(G, bone, V, 1, -INF, np.int64(INF))
        else:
            v = search(G, bone, V, 1, best, best + 1)
            if v > best and not ctl[SV_ABORTED]:
                for j in range(ST_SIZE):
                    Q[j] = P[j]
                place(G, Q, s, out_t[i], out_e[i])
                v = search(G, bone, V, 1, best, np.int64(INF))
        if ctl[SV_ABORTED]:
            return b
        out_v[i] = v
        if v > best:
            best = v
            b = i
    return b

"""The exact solver of an open deal: every hand and the boneyard order known (the double-dummy problem).

Alpha-beta over the placements (draws and passes are forced, docs/rules.md 5, and played by core.forced),
with a transposition table and move ordering, as DDS does for bridge:

* ``paranoid`` mode: the side of the root seat maximises its final value, every other seat minimises
  it (exact for two sides, partnerships included; for three or four sides the paranoid bound);
* ``against`` mode: only the root seat chooses; every other seat plays its policy (a deterministic
  one: greedy, heavy, hold, timing, defensive, plan), so the value is the best a clairvoyant player can
  do against those players. With greedy, heavy and hold (whose choice depends on the hands and the
  layout alone, ctl[SV_AGAINST] = AGAINST_HANDS) the key is minimax's; timing and defensive read the
  scores and what each seat showed it lacked, which then enter the key (AGAINST_READS_ALL).

What a position is worth and its quick bounds are solvebounds.py's; the table's keys, mirror images and
entries solvetable.py's. This module searches: :func:`search` (one window, iterative), and the roots,
:func:`solve_root` (every move's exact value) and :func:`solve_best` (the best move).

Work arrays (:func:`simdom.engine._kernel.work.make_solver`), a tuple ``V`` read by name (layout.V_*):
``stk`` int64[depth, ST_SIZE] the states on the path, ``mt``/``me``/``mk`` int64[depth, 4 nt + 4] the
moves (tiles, ends, ordering keys) at each depth, ``ttv`` int64[2^b, TT_COLS] the table (an entry's
lower bound, upper bound, best move, margins and key in one cache line: layout.TT_*) and ``ttk``
uint64[2^b] its keys (a view of ttv's column TT_KEY: :func:`simdom.engine._kernel.work.make_table`),
``ctl`` int64[SV_SIZE] the controls (layout.SV_*), ``sides`` int64[4] each seat's side, ``ids``/``par``
the seats' policies (against mode), ``rng`` uint64[N_STREAMS], the policies' scratch, the frames of
the iterative search (``fr``: layout.FR_*, ``fk``) and a root move list with values (``rt``, ``re``,
``rv``).

With a horizon (ctl[SV_HORIZON] = h > 0, the search policy's minimax model), a position h placements
below the root is valued by greedy playing the deal out for every seat; the value is then not exact.
"""
from __future__ import annotations

import numpy as np

from .core import forced, place
from .bits import popcount, prefetch_row
from .ends import move_value, n_open_ends
from .greedy import greedy_move
from .jit import entry, kernel
from .kpolicies import defensive_to_end, greedy_to_end, policy_move
from .layout import (AGAINST_NONE, BY_POINTS, R_PMAX, ENDED, FR_A, FR_A0, FR_B, FR_B0, FR_BEST,
                     FR_BI, FR_HIT, FR_I, FR_KIND, FR_MAXI, FR_N, FR_N0, FR_OFF, FR_S, FR_SLOT, FR_V, HIT_FOUND, HIT_IMAGE,
                     HAND, KIND_FULL, KIND_PASS, NPL, EV, TA, TB, VM, VMASK, OWN_GREEDY, PIPS, POL_GREEDY, R_PLAYERS, REC_NONE,
                     SMASK, ST_SIZE, SV_ABORTED, SV_AGAINST, SV_BY, SV_CANON, SV_HORIZON, SV_LIMIT, SV_MULTI,
                     SV_NODES, SV_OWN, SV_ROOT, SV_SALT, SV_SIDE, SV_TBITS, SX_REC, TMASK, TT_END_BITS, TT_END_MASK,
                     TT_HI, TT_LO, TT_MOVE, TT_MOVE_MASK, TURN, V_CTL, V_FK, V_FR, V_IDS, V_ME, V_MK, V_MT, V_OWN, V_OWN_SCRATCH, V_PAR, V_RNG,
                     V_SCRATCH, V_SIDES, V_STK, V_TTK, V_TTV, VO_E, VO_T)
from .moves import legal_moves, seat_base
from .sides import settle
from .solvebounds import INF, bounds_vec, margins_now, mover_less, offset, side_totals_value, value_bounds
from .solvetable import code_end, drop_mirrored, mixin, node_key, probe, salt_of, store_node, twin_end

#: the half-width of a root move's first window with several sides by margin (solve_root)
ASPIRE = 8
#: the most replies order_keys tells apart (its key's bits 20-35)
REPLIES_MAX = np.int64(65535)
#: an order key's bits below the replies' (order_keys: immediate points times 256, plus the tile's pips)
ORDER_LOW = np.int64((1 << 20) - 1)


@kernel
def order_keys(G, P, n, mt, me, mk, s, sides, mob, root):
    """The ordering key of each of the n moves (mk; larger first, :func:`sort_moves`): with ``mob``
    (exact solves), the move that leaves the other team the fewest replies, the product over its seats
    of (tile, end) pairs each could play on the ends the move leaves (at least 1 a seat: a pass or a
    forced move does not branch); then by immediate points (scoring and the first-double bonus), then
    the heavier tile. The other team is the rest of the seats for the root side's moves, the root side
    for any other seat's (``root``: the root's side). A proof of "at least v" takes one move of the
    root side and every reply of the others, so the move that leaves the fewest replies proves with the
    smallest tree (proof-number search's first estimate, Allis 1994); measured in docs/speed.md."""
    ne = n_open_ends(G, P) if mob else 0
    mine = sides[s] == root
    for i in range(n):
        t = mt[i]
        k = move_value(G, P, t, me[i]) * 256 + G[PIPS + t]
        if ne > 0:
            e = me[i]
            v = P[EV + e] & VMASK
            u = (G[TB + t] if G[TA + t] == v else G[TA + t]) & VMASK
            m0 = G[VM + 2 * u]
            m1 = G[VM + 2 * u + 1]
            prod = np.int64(1)
            for o in range(G[R_PLAYERS]):
                if (sides[o] == root) != mine:
                    b = seat_base(o) + HAND
                    c = popcount(P[b] & m0) + popcount(P[b + 1] & m1)
                    for f in range(ne):
                        if f != e:
                            w = P[EV + f] & VMASK
                            c += popcount(P[b] & G[VM + 2 * w]) + popcount(P[b + 1] & G[VM + 2 * w + 1])
                    prod *= max(c, np.int64(1))
            k += (REPLIES_MAX - min(prod, REPLIES_MAX)) << 20
        mk[i] = k


@kernel
def sort_moves(n, mt, me, mk, best_t, best_e):
    """Sort the n moves by their keys (order_keys), the table's best move first."""
    for i in range(n):
        if mt[i] == best_t and me[i] == best_e:
            mk[i] = 1 << 40
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
    stk, fr = V[V_STK], V[V_FR]
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
    stk, mt, me, mk, fr, fk = V[V_STK], V[V_MT], V[V_ME], V[V_MK], V[V_FR], V[V_FK]
    ttk, ttv, ctl, sides = V[V_TTK], V[V_TTV], V[V_CTL], V[V_SIDES]
    ids, par, rng, scratch = V[V_IDS], V[V_PAR], V[V_RNG], V[V_SCRATCH]
    hz = ctl[SV_HORIZON]
    canon = ctl[SV_CANON] != 0 and hz == 0 and ctl[SV_AGAINST] == AGAINST_NONE
    # several sides by margin in an exact solve: each node also returns v0-v3, lower bounds of the root's
    # final margin over each seat (valid whenever the node's value is not an upper bound), which the
    # table keeps seat by seat (entry_vec)
    vec = canon and ctl[SV_MULTI] != 0
    # two-way buckets (solvetable.store_node) wherever the table cannot change a move: in exact solves,
    # and in any search without a budget of positions (a policy's budget runs out where it did)
    bucket = canon or ctl[SV_LIMIT] == 0
    v0 = v1 = v2 = v3 = np.int64(INF)
    lo_b = np.int64(-INF)
    pm = s3 = dd0 = dd1 = np.int64(0)
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
                        defensive_to_end(G, P, bone, scratch[SX_REC], ctl[SV_ROOT], ctl[SV_OWN], ctl,
                                         V[V_OWN_SCRATCH], V[V_OWN][VO_T], V[V_OWN][VO_E])
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
                lo_b, hi_b, pm, s3, dd0, dd1 = value_bounds(G, P, bone, V, -1, 0)
                if hi_b <= fr[d, FR_A]:
                    ret = hi_b
                    enter = False
                    continue
                if lo_b >= fr[d, FR_B]:
                    ret = lo_b
                    if vec:
                        v0, v1, v2, v3 = bounds_vec(G, P, bone, V, -1, 0, pm, s3, dd0, dd1)
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
                n = drop_mirrored(G, P, n, mt[d], me[d])
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
            if bucket:  # two-way buckets (store_node): the pair slot, slot ^ 1
                slot &= ~np.int64(1)
            # the entry is far in memory: fetched while the moves' keys are computed
            prefetch_row(ttv, slot)
            maxi = sides[s] == ctl[SV_SIDE]
            order_keys(G, P, n, mt[d], me[d], mk[d], s, sides, canon, ctl[SV_SIDE])
            if hz == 0 and maxi:  # the root side to move: its best immediate points (the order keys') are
                # surely its own, and no move of it adds to another side's gains, so the lower bound rises by
                # them (docs/speed.md: 4-player Fives 5% fewer positions)
                x = np.int64(0)
                for i in range(n):
                    x = max(x, (mk[d, i] & ORDER_LOW) >> 8)
                if x > 0 and lo_b + x >= beta:
                    ret = lo_b + x
                    if vec:
                        v0, v1, v2, v3 = bounds_vec(G, P, bone, V, -1, 0, pm, s3, dd0, dd1)
                        v0 = v0 + x if v0 < INF else v0
                        v1 = v1 + x if v1 < INF else v1
                        v2 = v2 + x if v2 < INF else v2
                        v3 = v3 + x if v3 < INF else v3
                    enter = False
                    continue
            elif hz == 0 and ctl[SV_BY] != BY_POINTS and lo_b + G[R_PMAX] >= beta:
                # another side to move: it places one of its tiles now, for the points that move makes,
                # where the lower bound counted that tile at its most (docs/speed.md)
                dl = mover_less(G, P, n, mt[d], mk[d], pm, s3, ORDER_LOW)
                if dl > 0 and lo_b + dl >= beta:  # the bound rises by dl at the most
                    lo2, _, _, _, _, _ = value_bounds(G, P, bone, V, sides[s], dl)
                    if lo2 >= beta:
                        ret = lo2
                        if vec:
                            v0, v1, v2, v3 = bounds_vec(G, P, bone, V, s, dl, pm, s3, dd0, dd1)
                        enter = False
                        continue
            if bucket and ttk[slot] != key and ttk[slot + 1] == key:
                slot += 1
            off = offset(G, P, V)
            best_t = -1
            best_e = -1
            hit = ttk[slot] == key
            if hit:
                lo, hi, v0, v1, v2, v3 = probe(G, P, V, slot, off, vec, v0, v1, v2, v3)
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
                # in exact solves the entry's move leads only where it cut: the root side's where the
                # entry holds a lower bound, another side's where it holds an upper bound
                if not canon or (ttv[slot, TT_LO] > -INF if sides[s] == ctl[SV_SIDE] else ttv[slot, TT_HI] < INF):
                    best_t = (ttv[slot, TT_MOVE] & TT_MOVE_MASK) >> TT_END_BITS
                    best_e = code_end(G, P, ttv[slot, TT_MOVE] & TT_END_MASK, image)
                    if canon and best_e >= 0:
                        best_e = twin_end(G, P, best_e)  # its twin, the move listed (drop_mirrored)
            sort_moves(n, mt[d], me[d], mk[d], best_t, best_e)
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
            fr[d, FR_N0] = ctl[SV_NODES]
            fr[d, FR_OFF] = off
            for k in range(4):
                fr[d, FR_V + k] = INF
            fr[d, FR_HIT] = (HIT_FOUND if hit else 0) | (image << HIT_IMAGE)
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
        # node d is searched: its entry kept, its value (and bounds by seat) returned to its parent
        store_node(G, V, d, vec, bucket)
        if vec:
            v0 = fr[d, FR_V]
            v1 = fr[d, FR_V + 1]
            v2 = fr[d, FR_V + 2]
            v3 = fr[d, FR_V + 3]
        ret = fr[d, FR_BEST]


@kernel
def stk_root(G, St, bone, V):
    """stk[0]: St after its forced draws and passes; the root seat, its side, the mode and the table's
    salt set in ctl for a search from there (when the deal has not ended)."""
    stk, scratch = V[V_STK], V[V_SCRATCH]
    sides, ctl = V[V_SIDES], V[V_CTL]
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
    stk, ctl = V[V_STK], V[V_CTL]
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
    stk, ctl = V[V_STK], V[V_CTL]
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

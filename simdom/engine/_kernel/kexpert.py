"""The expert policy: determinised search that infers and, late in a 2-player deal, plans exactly.

A fair player: it reads only what its seat may know (sampler.py's module doc), plus what it saw
happen in the deal, which it remembers itself (V[V_MEM], one row per seat, layout.MEM_*).

* **Endgame** (2 players, the boneyard empty, at most ``exact`` tiles in the two hands): the other hand
  is then known (it is the unseen tiles), the deal is a game of perfect information, and the engine's
  exact solver (as ``simdom solve``: minimax by margin) gives every move's value. No sampling, no
  strategy fusion: the best move of the exact game.
* **Elsewhere**, search's evaluation (kchoose.search_pick with model=greedy, depth=1, own=defensive):
  ``worlds`` deals of the hidden tiles sampled consistently with what the seat has seen, every legal
  move placed in each and played out (the other seats greedy, the seat's own later moves defensive:
  the same fair plan in every world), the margin plus a bonus for each world the move wins (``win``
  percent of the margins' spread).
* **Inference** (2 players, ``infer`` > 0): each world is weighted by how likely the opponent's
  placements seen since its last draw were, had it held that world's hand: at each, the opponent is
  modelled as choosing among its legal moves with probability proportional to exp(beta x immediate
  points) (beta = infer / 100 per point; a softmax of greedy, as Buro et al. 2009 weight Skat worlds
  and Rebstock et al. 2019 with a learnt policy), mixed with 5% of uniform play so that no world is
  ruled out by one surprising move. A world where the opponent would have held a tile scoring much
  more than what it played weighs less. The hand it held at each such placement is the world's hand
  plus the tiles it placed since (it drew none since: a draw clears the records).

Memory: at each decision the seat keeps its view (ASK) and the state after its own move (AFT). At the
next decision, if exactly one tile was placed since, by the opponent, from AFT (checked by placing it
there and finding the layout and scores seen now), the opponent's placement is recorded (the state
before it and its points). A decision asked again in the same view (tests, re-dealt hidden tiles)
reuses the records it had, so the choice depends on what the seat saw alone.

``hold`` = HOLD_NEVER: while no double is down and a double is legal, only doubles are considered
(which and where chosen as above).
"""
from __future__ import annotations

import numpy as np

from .jit import entry, kernel

from .core import place
from .ends import move_value
from .greedy import greedy_move
from .layout import (V_CTL, V_IDS, V_MEM, V_OWN_SCRATCH, V_PAR, V_RE, V_RT, V_RV, V_SIDES)
from .layout import (AGAINST_HANDS, AGAINST_NONE, AUX_PREP, BN, BON, BTOP, BY_MARGIN, COV, DDEALT, ED, EV, FD_MOVE,
                     HAND, HCNT, HOLD_NEVER, LONE, LOSTFD, MEM_AFT, MEM_ASK, MEM_MAXREC, MEM_NREC, MEM_REC,
                     MEM_RSIZE, MEM_VALID, NPL, OWN_ALL_DEFENSIVE, OWN_DEFENSIVE, OWN_GREEDY, OWN_PLAN, OWN_PLAN_ALL_DEFENSIVE, PLAYED, PLAYS, POL_GREEDY, PTS, R_PLAYERS,
                     SEARCH_TABLE_BITS, SPAT, SPIN, ST_SIZE, SV_AGAINST, SV_BY, SV_HORIZON, SV_LIMIT, SV_OWN, SV_TBITS, SX_ACC,
                     SX_AUX, SX_BONE, SX_DECK, SX_DP, SX_LOC, SX_P, SX_PE, SX_POOL, SX_PT, SX_W, TA, TB, TMASK, USED,
                     ARMS, SP_MOVE)
from .moves import legal_moves, seat_base
from .rng import GAMMA, mix64
from .sampler import copy_known, sample_world, unseen_tiles
from .sides import side_of
from .solve import solve_root

#: the table bits of the exact endgame solves (1M entries: a 2-player endgame of up to 16 tiles fits)
EXACT_TABLE_BITS = 20
#: the share of uniform play mixed into the opponent model (no world is ruled out by one move)
UNIFORM_MIX = 0.05


@kernel
def known_view(G, St, s, K):
    """K = what seat s sees of St: copy_known, and the other seats' counters that depend on their
    hidden tiles (doubles dealt, lost first double) cleared."""
    copy_known(G, St, s, K)
    for o in range(G[R_PLAYERS]):
        if o != s:
            K[seat_base(o) + DDEALT] = 0
            K[seat_base(o) + LOSTFD] = 0


@kernel
def same_layout(A, B, o):
    """The layouts, tiles placed and seat o's scores of two states agree."""
    for k in range(4):
        if A[EV + k] != B[EV + k] or A[ED + k] != B[ED + k]:
            return False
    for k in range(2):
        if A[SPAT + k] != B[SPAT + k] or A[COV + k] != B[COV + k] or A[USED + k] != B[USED + k] \
                or A[PLAYED + k] != B[PLAYED + k]:
            return False
    b = seat_base(o)
    return (A[LONE] == B[LONE] and A[SPIN] == B[SPIN] and A[ARMS] == B[ARMS] and A[NPL] == B[NPL]
            and A[FD_MOVE] == B[FD_MOVE] and A[SP_MOVE] == B[SP_MOVE] and A[b + PTS] == B[b + PTS]
            and A[b + BON] == B[b + BON])


@kernel
def popcount64(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@kernel
def remember(G, K, s, mem, scratch):
    """Update the records of seat s's memory row from its previous state-after-move (AFT) to its view K
    now (module doc). 2 players only; otherwise the records are cleared."""
    Q, Q2, lt, le = scratch[SX_P], scratch[SX_W], scratch[SX_PT], scratch[SX_PE]
    A = mem[MEM_AFT:MEM_AFT + ST_SIZE]
    ok = mem[MEM_VALID] == 1 and G[R_PLAYERS] == 2 and K[NPL] == A[NPL] + 1
    o = 1 - s
    t = -1
    if ok:
        n0 = K[PLAYED] & ~A[PLAYED]
        n1 = K[PLAYED + 1] & ~A[PLAYED + 1]
        if (A[PLAYED] & ~K[PLAYED]) or (A[PLAYED + 1] & ~K[PLAYED + 1]) or popcount64(n0) + popcount64(n1) != 1:
            ok = False
        else:
            t = 0
            w = n0 if n0 else n1
            while (w >> t) & 1 == 0:
                t += 1
            if n0 == 0:
                t += 64
        sb = seat_base(s) + HAND
        if ok and ((A[sb] & ~K[sb]) or (A[sb + 1] & ~K[sb + 1])):
            ok = False
        if ok and K[seat_base(o) + PLAYS] != A[seat_base(o) + PLAYS] + 1:
            ok = False
    v = -1
    if ok:
        for k in range(ST_SIZE):
            Q[k] = A[k]
        ob = seat_base(o) + HAND
        Q[ob] = 0
        Q[ob + 1] = 0
        Q[ob + (t >> 6)] = 1 << (t & 63)
        n = legal_moves(G, Q, o, lt, le)
        for i in range(n):
            for k in range(ST_SIZE):
                Q2[k] = Q[k]
            Q2[seat_base(o) + HCNT] = 2  # the placement must not end the deal in the copy
            pts = move_value(G, Q2, lt[i], le[i])
            place(G, Q2, o, lt[i], le[i])
            if same_layout(Q2, K, o):
                v = pts
                break
    if v < 0:
        mem[MEM_NREC] = 0
        return
    drew = K[seat_base(o) + HCNT] != A[seat_base(o) + HCNT] - 1
    if drew or mem[MEM_NREC] >= MEM_MAXREC:
        mem[MEM_NREC] = 0
    r = MEM_REC + mem[MEM_NREC] * MEM_RSIZE
    for k in range(ST_SIZE):
        mem[r + k] = A[k]
    mem[r + ST_SIZE] = t
    mem[r + ST_SIZE + 1] = v
    mem[MEM_NREC] += 1


@kernel
def log_likelihood(G, W, s, mem, beta, scratch):
    """log P(the opponent's recorded placements | it held world W's hand), the softmax model (module doc)."""
    Q, lt, le = scratch[SX_P], scratch[SX_PT], scratch[SX_PE]
    o = 1 - s
    ob = seat_base(o) + HAND
    h0 = W[ob]
    h1 = W[ob + 1]
    ll = 0.0
    for k in range(mem[MEM_NREC] - 1, -1, -1):
        r = MEM_REC + k * MEM_RSIZE
        t = mem[r + ST_SIZE]
        vp = mem[r + ST_SIZE + 1]
        if t < 64:
            h0 |= 1 << t
        else:
            h1 |= 1 << (t - 64)
        for j in range(ST_SIZE):
            Q[j] = mem[r + j]
        Q[ob] = h0
        Q[ob + 1] = h1
        n = legal_moves(G, Q, o, lt, le)
        vmax = vp
        for i in range(n):
            x = move_value(G, Q, lt[i], le[i])
            if x > vmax:
                vmax = x
        z = 0.0
        for i in range(n):
            z += np.exp(beta * (move_value(G, Q, lt[i], le[i]) - vmax))
        p = np.exp(beta * (vp - vmax)) / z
        ll += np.log((1.0 - UNIFORM_MIX) * p + UNIFORM_MIX / max(n, 1))
    return ll


@kernel
def allowed(G, St, mv_t, n, hold, i):
    """Move i may be chosen: with hold=never, while no double is down and a double is legal, only doubles."""
    if hold != HOLD_NEVER or St[FD_MOVE] != 0:
        return True
    anyd = False
    for k in range(n):
        if G[TA + mv_t[k]] == G[TB + mv_t[k]]:
            anyd = True
    return (not anyd) or G[TA + mv_t[i]] == G[TB + mv_t[i]]


@kernel
def sole_allowed(G, St, mv_t, n, hold):
    """The index of the only move :func:`allowed` leaves among the n legal moves, or -1 when several are."""
    cnt = 0
    last = 0
    for i in range(n):
        if allowed(G, St, mv_t, n, hold, i):
            cnt += 1
            last = i
    return last if cnt == 1 else -1


@kernel
def tie_break(G, St, s, mv_t, mv_e, n, hold):
    """Greedy's choice among the allowed moves (greedy's order: points, heavier tile, first listed)."""
    gt, ge = greedy_move(G, St, s, False)
    gt &= TMASK
    for i in range(n):
        if mv_t[i] == gt and mv_e[i] == ge and allowed(G, St, mv_t, n, hold, i):
            return i
    best = -1
    bv = -1
    bp = -1
    for i in range(n):
        if allowed(G, St, mv_t, n, hold, i):
            v = move_value(G, St, mv_t[i], mv_e[i])
            p = G[TA + mv_t[i]] + G[TB + mv_t[i]]
            if v > bv or (v == bv and p > bp):
                best = i
                bv = v
                bp = p
    return best


@entry
def expert_pick(G, St, s, worlds, infer, exact, win, hold, model, own, key, mv_t, mv_e, n, scratch, V):
    """The index among seat s's n legal moves (mv_t, mv_e; n >= 1) of the expert's move (module doc).
    Updates seat s's memory (V[V_MEM][s]) whatever n is, so call it at every placement of the seat."""
    mem = V[V_MEM][s]
    same = True
    Kv = scratch[SX_W]  # the view now (a work state the sampler overwrites later), compared with the last
    known_view(G, St, s, Kv)
    for k in range(ST_SIZE):
        if Kv[k] != mem[MEM_ASK + k]:
            same = False
            break
    if not same:
        for k in range(ST_SIZE):
            mem[MEM_ASK + k] = Kv[k]
        remember(G, mem[MEM_ASK:MEM_ASK + ST_SIZE], s, mem, scratch)
    mem[MEM_VALID] = 0
    best = choose_expert(G, St, s, worlds, infer, exact, win, hold, model, own, key, mv_t, mv_e, n, scratch, V, mem)
    A = mem[MEM_AFT:MEM_AFT + ST_SIZE]
    for k in range(ST_SIZE):
        A[k] = mem[MEM_ASK + k]
    A[seat_base(s) + HCNT] += 1  # the placement must not end the deal in the memory copy
    place(G, A, s, mv_t[best], mv_e[best])
    A[seat_base(s) + HCNT] -= 1
    for o in range(G[R_PLAYERS]):
        if o != s:
            A[seat_base(o) + LOSTFD] = 0
    mem[MEM_VALID] = 1
    return best


@kernel
def choose_expert(G, St, s, worlds, infer, exact, win, hold, model, own, key, mv_t, mv_e, n, scratch, V, mem):
    one = sole_allowed(G, St, mv_t, n, hold)
    if one >= 0:
        return one
    W, bone2, pool, deck, loc, aux, dp, acc = (scratch[SX_W], scratch[SX_BONE], scratch[SX_POOL], scratch[SX_DECK],
                                               scratch[SX_LOC], scratch[SX_AUX], scratch[SX_DP], scratch[SX_ACC])
    ctl, vids, vpar, rt, re, rv = V[V_CTL], V[V_IDS], V[V_PAR], V[V_RT], V[V_RE], V[V_RV]
    ctl[SV_LIMIT] = 0
    npl = G[R_PLAYERS]
    sides = V[V_SIDES]
    for o in range(npl):
        sides[o] = side_of(G, o)
        vids[o] = POL_GREEDY
        for k in range(vpar.shape[1]):
            vpar[o, k] = 0.0
    in_hands = 0
    for o in range(npl):
        in_hands += St[seat_base(o) + HCNT]
    aux[AUX_PREP] = 0
    u = unseen_tiles(G, St, s, pool)
    best = tie_break(G, St, s, mv_t, mv_e, n, hold)
    if npl == 2 and St[BN] - St[BTOP] == 0 and in_hands <= exact:
        # the endgame: the other hand is the unseen tiles; exact minimax by margin
        ctl[SV_BY] = BY_MARGIN
        ctl[SV_AGAINST] = AGAINST_NONE
        ctl[SV_HORIZON] = 0
        ctl[SV_OWN] = OWN_GREEDY
        ctl[SV_TBITS] = EXACT_TABLE_BITS
        loc[0] = mix64(key + GAMMA)
        sample_world(G, St, s, W, bone2, pool, np.int64(u), deck, loc, aux, dp)
        m = solve_root(G, W, bone2, V, rt, re, rv)
        for i in range(m):
            if allowed(G, St, mv_t, n, hold, i) and rv[i] > rv[best]:
                best = i
        return best
    ctl[SV_BY] = BY_MARGIN
    ctl[SV_AGAINST] = AGAINST_HANDS
    ctl[SV_HORIZON] = 1
    if own == OWN_PLAN:  # the plan's weights are in ctl[SV_PLAN:] (kchoose.choose)
        ctl[SV_OWN] = OWN_PLAN_ALL_DEFENSIVE if model == 1 else OWN_PLAN
    else:
        ctl[SV_OWN] = OWN_ALL_DEFENSIVE if model == 1 else OWN_DEFENSIVE
    ctl[SV_TBITS] = SEARCH_TABLE_BITS
    winw = V[V_OWN_SCRATCH][SX_ACC]  # the defensive continuation's scratch: its per-move floats are free
    for i in range(n):
        acc[i] = 0.0
        winw[i] = 0.0
    beta = infer / 100.0
    useinf = infer > 0 and npl == 2 and mem[MEM_NREC] > 0
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    for j in range(worlds):
        loc[0] = mix64(key + np.uint64(j + 1) * GAMMA)
        sample_world(G, St, s, W, bone2, pool, np.int64(u), deck, loc, aux, dp)
        wt = 1.0
        if useinf:
            wt = np.exp(log_likelihood(G, W, s, mem, beta, scratch))
        m = solve_root(G, W, bone2, V, rt, re, rv)
        for i in range(m):
            v = rv[i]
            acc[i] += wt * v
            s0 += wt
            s1 += wt * v
            s2 += wt * v * v
            winw[i] += wt * (1.0 if v > 0 else (0.5 if v == 0 else 0.0))
    if win > 0 and s0 > 0.0:
        mean = s1 / s0
        sd = np.sqrt(max(0.0, s2 / s0 - mean * mean))
        for i in range(n):
            acc[i] += win / 100.0 * sd * winw[i]
    for i in range(n):
        if allowed(G, St, mv_t, n, hold, i) and acc[i] > acc[best]:
            best = i
    return best

"""A probe, not a policy: information-set MCTS for one seat, compiled with numba outside the kernel (so
trying it costs no kernel rebuild), measured against rollout by paired.py (docs/policies.md, "Is a
tree worth it?"). Two searches over the seat's information sets, both with greedy opponents (the
rollout player's model) and greedy playouts:

* ``ismcts_pick``: single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): every iteration deals
  a world consistent with what the seat saw (the kernel's sampler), descends the tree of the seat's
  own information sets (keyed by what the seat sees: layout, counts, voids, scores, its hand) by UCB1
  (exploration ``cexp`` times the values' standard deviation), adds one node, plays out by greedy and
  backs the final margin up. ``rootonly``: a tree of one level (flat UCB); ``wide``: a node below the
  root plays greedy's move until it has been visited that often. The root's most visited move wins.
* ``flat_pick``: every root move in every world (common worlds, as rollout), the seat's later moves
  by the same tree: rollout with a learnt own future instead of greedy's.
"""
import numpy as np
from numba import njit
from simdom.engine._kernel.core import forced, place, finish
from simdom.engine._kernel.greedy import greedy_move
from simdom.engine._kernel.moves import legal_moves, seat_base
from simdom.engine._kernel.sampler import sample_world, unseen_tiles
from simdom.engine._kernel.kpolicies import margin
from simdom.engine._kernel.rng import GAMMA, mix64
from simdom.engine._kernel.layout import (ST_SIZE, TURN, SMASK, TMASK, REC_NONE, SEAT0, HAND, HCNT, PTS, BON,
    DRAWS, PASSES, VOID, AUX_PREP, R_PLAYERS, SX_W, SX_BONE, SX_POOL, SX_DECK, SX_LOC, SX_AUX, SX_DP, SX_P, SX_REC,
    SX_ACC)

@njit(inline="always", _nrt=False, error_model="numpy")
def mixin(h, x):
    return mix64(h ^ (np.uint64(x & 0xFFFFFFFFFFFF) + GAMMA))

@njit(inline="always", _nrt=False, error_model="numpy")
def view_key(G, P, s, salt):
    h = salt
    for k in range(SEAT0):
        h = mixin(h, P[k])
    for o in range(G[R_PLAYERS]):
        b = seat_base(o)
        h = mixin(h, P[b + HCNT] | (P[b + VOID] << 8) | (P[b + DRAWS] << 24) | (P[b + PASSES] << 32))
        h = mixin(h, P[b + PTS] | (P[b + BON] << 16))
    b = seat_base(s) + HAND
    h = mixin(h, P[b])
    h = mixin(h, P[b + 1])
    return h | np.uint64(1)

@njit(inline="always", _nrt=False, error_model="numpy")
def find(tk, key, ins, nins, create):
    """slot of key (created if create and missing): returns (slot or -1, nins)."""
    mask = tk.shape[0] - 1
    i = np.int64(key & np.uint64(mask))
    while True:
        if tk[i] == key:
            return i, nins
        if tk[i] == 0:
            if not create or nins >= ins.shape[0]:
                return -1, nins
            tk[i] = key
            ins[nins] = i
            return i, nins + 1
        i = (i + 1) & mask

@njit(inline="always", _nrt=False, error_model="numpy")
def tree_move(G, P, s, salt, cexp, sd, rootonly, wide, below, tk, tn, tw, ins, nins, path, npath, pt, pe):
    """Seat s's move at a node of the tree (its turn in P, no node added yet in this playout):
    returns (tile, end, a node was added, nins, npath). A node of one move is not a node. Untried moves
    first (greedy's, then the list's order), else UCB1; a node below the root (``below``) younger than
    ``wide`` visits plays greedy's move."""
    m = legal_moves(G, P, s, pt, pe)
    if m == 1:
        return pt[0], pe[0], False, nins, npath
    h = view_key(G, P, s, salt)
    ps, nins = find(tk, h, ins, nins, True)
    gt, ge = greedy_move(G, P, s, False)
    gt &= TMASK
    if ps < 0:  # the table is full
        return gt, ge, True, nins, npath
    expanded = False
    pick = -1
    if below and tn[ps] < wide:
        for i in range(m):
            if pt[i] == gt and pe[i] == ge:
                pick = i
    for i in range(m if pick < 0 else 0):
        ck = mixin(h, (pt[i] << 3) | pe[i]) | np.uint64(1)
        cs, nins = find(tk, ck, ins, nins, False)
        if cs < 0 or tn[cs] == 0:
            if pick < 0 or (pt[i] == gt and pe[i] == ge):
                pick = i
    if pick >= 0:
        ck = mixin(h, (pt[pick] << 3) | pe[pick]) | np.uint64(1)
        cs, nins = find(tk, ck, ins, nins, False)
        if cs < 0 or tn[cs] == 0:
            expanded = True
    else:
        lnp = np.log(tn[ps] + 1.0)
        bestu = -1e300
        for i in range(m):
            ck = mixin(h, (pt[i] << 3) | pe[i]) | np.uint64(1)
            cs, nins = find(tk, ck, ins, nins, False)
            uu = tw[cs] / tn[cs] + cexp * sd * np.sqrt(lnp / tn[cs])
            if uu > bestu:
                bestu = uu
                pick = i
    ck = mixin(h, (pt[pick] << 3) | pe[pick]) | np.uint64(1)
    cs, nins = find(tk, ck, ins, nins, True)
    if cs < 0:
        return gt, ge, True, nins, npath
    path[npath] = ps
    path[npath + 1] = cs
    return pt[pick], pe[pick], expanded or rootonly, nins, npath + 2


@njit(inline="always", _nrt=False, error_model="numpy")
def spread(s1, s2, cnt):
    """The backed-up values' standard deviation plus 1 (1 before two values): UCB1's scale."""
    if cnt > 1:
        return np.sqrt((s2 - s1 * s1 / cnt) / (cnt - 1)) + 1.0
    return 1.0


@njit(inline="always", _nrt=False, error_model="numpy")
def playout_from(G, P, s, bone2, rec, salt, cexp, sd, rootonly, wide, below, tk, tn, tw, ins, nins, path, pt, pe):
    """Play P to its end: seat s by the tree until a node is added, then everyone by greedy; back the
    final margin up along the path. Returns (margin, nins)."""
    npath = 0
    expanded = False
    mover, _ = forced(G, P, bone2, rec, 0, REC_NONE, 0)
    while mover:
        q = P[TURN] & SMASK
        if q == s and not expanded:
            t, e, expanded, nins, npath = tree_move(G, P, s, salt, cexp, sd, rootonly, wide, below or npath > 0,
                                                    tk, tn, tw, ins, nins, path, npath, pt, pe)
        else:
            t, e = greedy_move(G, P, q, False)
            t &= TMASK
        place(G, P, q, t, e)
        mover, _ = forced(G, P, bone2, rec, 0, REC_NONE, 0)
    finish(G, P)
    v = margin(G, P, s)
    for k in range(npath):
        tn[path[k]] += 1
        tw[path[k]] += v
    return v, nins


@njit(inline="always", _nrt=False, error_model="numpy")
def clear(tk, tn, tw, ins, nins):
    for k in range(nins):
        tk[ins[k]] = 0
        tn[ins[k]] = 0
        tw[ins[k]] = 0


@njit(cache=True, _nrt=False, error_model="numpy")
def ismcts_pick(G, St, s, iters, cexp, rootonly, wide, key, mv_t, mv_e, n, scratch, tk, tn, tw, ins, path, pt, pe):
    """The index among seat s's n legal moves (mv_t, mv_e) of the root's most visited move."""
    W, bone2, P, pool, deck, loc, aux, dp, rec = (scratch[SX_W], scratch[SX_BONE], scratch[SX_P], scratch[SX_POOL],
        scratch[SX_DECK], scratch[SX_LOC], scratch[SX_AUX], scratch[SX_DP], scratch[SX_REC])
    aux[AUX_PREP] = 0
    u = unseen_tiles(G, St, s, pool)
    salt = mix64(key ^ np.uint64(0x5DEECE66D))
    nins = 0
    s1 = 0.0
    s2 = 0.0
    for it in range(iters):
        loc[0] = mix64(key + np.uint64(it + 1) * GAMMA)
        sample_world(G, St, s, W, bone2, pool, u, deck, loc, aux, dp)
        for k in range(ST_SIZE):
            P[k] = W[k]
        v, nins = playout_from(G, P, s, bone2, rec, salt, cexp, spread(s1, s2, it), rootonly, wide, False,
                               tk, tn, tw, ins, nins, path, pt, pe)
        s1 += v
        s2 += v * v
    h = view_key(G, St, s, salt)
    best = 0
    bn = -1
    bw = 0.0
    for i in range(n):
        ck = mixin(h, (mv_t[i] << 3) | mv_e[i]) | np.uint64(1)
        cs, nins = find(tk, ck, ins, nins, False)
        if cs >= 0:
            if tn[cs] > bn or (tn[cs] == bn and tw[cs] > bw):
                bn = tn[cs]
                bw = tw[cs]
                best = i
    clear(tk, tn, tw, ins, nins)
    return best


@njit(cache=True, _nrt=False, error_model="numpy")
def flat_pick(G, St, s, iters, cexp, rootonly, wide, key, mv_t, mv_e, n, scratch, tk, tn, tw, ins, path, pt, pe):
    """The index of the move with the best summed margin over ``iters`` common worlds, every root move
    in every world, the seat's later moves by the tree (ties to greedy's move)."""
    W, bone2, P, pool, deck, loc, aux, dp, rec = (scratch[SX_W], scratch[SX_BONE], scratch[SX_P], scratch[SX_POOL],
        scratch[SX_DECK], scratch[SX_LOC], scratch[SX_AUX], scratch[SX_DP], scratch[SX_REC])
    aux[AUX_PREP] = 0
    acc = scratch[SX_ACC]
    for i in range(n):
        acc[i] = 0.0
    u = unseen_tiles(G, St, s, pool)
    salt = mix64(key ^ np.uint64(0x5DEECE66D))
    nins = 0
    s1 = 0.0
    s2 = 0.0
    cnt = 0
    for it in range(iters):
        loc[0] = mix64(key + np.uint64(it + 1) * GAMMA)
        sample_world(G, St, s, W, bone2, pool, u, deck, loc, aux, dp)
        for r in range(n):
            for k in range(ST_SIZE):
                P[k] = W[k]
            place(G, P, s, mv_t[r], mv_e[r])
            v, nins = playout_from(G, P, s, bone2, rec, salt, cexp, spread(s1, s2, cnt), rootonly, wide, True,
                                   tk, tn, tw, ins, nins, path, pt, pe)
            s1 += v
            s2 += v * v
            cnt += 1
            acc[r] += v
    gt, ge = greedy_move(G, St, s, False)
    best = 0
    for i in range(n):
        if mv_t[i] == (gt & TMASK) and mv_e[i] == ge:
            best = i
    for i in range(n):
        if acc[i] > acc[best]:
            best = i
    clear(tk, tn, tw, ins, nins)
    return best


# ---- a better own future, no tree (stop 36) --------------------------------------------------------

from simdom.engine._kernel.kpolicies import defensive_to_end, greedy_to_end


@njit(inline="always", _nrt=False, error_model="numpy")
def own_playout(G, P, s, bone2, rec, own, scratch2, pt, pe):
    """Play P to its end: seat s by ``own`` (0 greedy, 1 defensive: the kernel's search beyond its
    horizon), the others by greedy."""
    mover, _ = forced(G, P, bone2, rec, 0, REC_NONE, 0)
    if mover:
        if own == 1:
            defensive_to_end(G, P, bone2, rec, s, scratch2, pt, pe)
        else:
            greedy_to_end(G, P, bone2, rec)
    finish(G, P)


@njit(cache=True, _nrt=False, error_model="numpy")
def own_pick(G, St, s, iters, own, lam, key, mv_t, mv_e, n, scratch, scratch2, pt, pe):
    """Rollout over ``iters`` common worlds, the seat's later moves by ``own``; a world's value is the
    margin plus ``lam`` for a win (half for a tie at the top). Ties to greedy's move."""
    W, bone2, P, pool, deck, loc, aux, dp, rec = (scratch[SX_W], scratch[SX_BONE], scratch[SX_P], scratch[SX_POOL],
        scratch[SX_DECK], scratch[SX_LOC], scratch[SX_AUX], scratch[SX_DP], scratch[SX_REC])
    aux[AUX_PREP] = 0
    acc = scratch[SX_ACC]
    for i in range(n):
        acc[i] = 0.0
    u = unseen_tiles(G, St, s, pool)
    for it in range(iters):
        loc[0] = mix64(key + np.uint64(it + 1) * GAMMA)
        sample_world(G, St, s, W, bone2, pool, u, deck, loc, aux, dp)
        for r in range(n):
            for k in range(ST_SIZE):
                P[k] = W[k]
            place(G, P, s, mv_t[r], mv_e[r])
            own_playout(G, P, s, bone2, rec, own, scratch2, pt, pe)
            v = margin(G, P, s)
            acc[r] += v + (lam if v > 0 else (0.5 * lam if v == 0 else 0.0))
    gt, ge = greedy_move(G, St, s, False)
    best = 0
    for i in range(n):
        if mv_t[i] == (gt & TMASK) and mv_e[i] == ge:
            best = i
    for i in range(n):
        if acc[i] > acc[best]:
            best = i
    return best

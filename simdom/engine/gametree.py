"""The whole game tree of a small 2-player version, built by the kernel's own rules (docs/equilibrium.md).

:func:`build_tree` deals every pair of hands (each equally likely), lets the lead be decided as the rules
say (the holder of the lead tile, else a lot between the seats), and plays out every line with the
kernel's functions: the legal moves (``legal_moves``), a placement and its score (``place``), the forced
part of a turn (``forced``: draws until a tile fits, passes, the blocked end) and the settlement
(``finish``, ``standing``). Only the order of the boneyard is the tree's: each draw is a chance node,
uniform over the tiles the drawing seat cannot see, and ``forced`` then draws exactly the tiles the tree
put on top of the boneyard (checked). Nothing of the rules is written again here.

The tree comes back as flat arrays in breadth-first order (a node's children are consecutive and come
after it; the nodes of one depth are consecutive): who acts (``CHANCE``, ``TERMINAL`` or the seat), the
first child and the number of children, the chance probability of each node, seat 0's margin and share
of the win at the leaves, and at a seat's decision its information state: the seat's own dealt hand and
everything it saw (every placement, draw and pass, with the tiles of its own draws), hashed to 64 bits
and numbered (a collision would merge states with different moves: the build refuses it).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
from numba import njit, types
from numba.typed import Dict

from ..rules import Rules
from ._kernel import layout as L
from ._kernel.core import finish, forced, place, standing
from ._kernel.ends import tile_fits
from ._kernel.moves import has_move, legal_moves
from ._kernel.tables import compile_rules
from ._kernel.work import make_work

#: who acts at a node: a seat (0 or 1), chance, or nobody (a leaf)
CHANCE, TERMINAL = -1, -2


@njit(cache=True)
def _mix(h, x):
    """A 64-bit hash of the sequence h, then x (splitmix64's finaliser)."""
    z = h + np.uint64(x + 1) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _grow(a, n):
    b = np.zeros(n, dtype=a.dtype)
    b[:a.shape[0]] = a
    return b


@njit(cache=True)
def _grow2(a, n):
    b = np.zeros((n, a.shape[1]), dtype=a.dtype)
    b[:a.shape[0]] = a
    return b


@njit(cache=True)
def _seen(h, rec, nrec, n_seats):
    """Every seat's hash after the draws and passes of ``rec``: the drawer sees its tile, the others a draw."""
    for r in range(nrec):
        s = rec[r, L.RC_SEAT]
        for o in range(n_seats):
            tile = rec[r, L.RC_TILE] if rec[r, L.RC_ACT] == L.ACT_DRAW and o == s else -1
            h[o] = _mix(_mix(h[o], 1 + 4 * s + rec[r, L.RC_ACT]), 1 + tile)


@njit(cache=True)
def _build(G, roots, root_bone, root_prob, nohold, max_nodes):
    """The tree under a chance root whose children are the dealt states ``roots`` (St rows, their boneyards,
    probabilities). ``nohold[s]``: seat s must place a double while none is down and it can (no hold).
    Returns the node arrays (in the order built), the information states' arrays, and status (0 ok,
    1 more nodes than max_nodes, 2 a hash collision: one key with two different move counts)."""
    nt = root_bone.shape[1]
    ns = G[L.R_PLAYERS]
    cap = 1 << 16
    who = np.full(cap, TERMINAL, dtype=np.int8)
    first = np.zeros(cap, dtype=np.int64)
    nkids = np.zeros(cap, dtype=np.int32)
    prob = np.ones(cap, dtype=np.float64)
    margin = np.zeros(cap, dtype=np.float64)
    win = np.zeros(cap, dtype=np.float64)
    iset = np.full(cap, -1, dtype=np.int32)
    depth = np.zeros(cap, dtype=np.int32)
    dbl = np.zeros(cap, dtype=np.int8)
    icap = 1 << 12
    i_seat = np.zeros(icap, dtype=np.int8)
    i_nact = np.zeros(icap, dtype=np.int32)
    i_hold = np.zeros(icap, dtype=np.int8)
    i_st = np.zeros((icap, L.ST_SIZE), dtype=np.int64)
    i_bone = np.zeros((icap, nt), dtype=np.int64)
    keys = Dict.empty(key_type=types.uint64, value_type=types.int64)
    nis = 0
    # the pending nodes: a stack of (node, kind, state, boneyard, prefix of draws, hashes)
    K = (2 * nt + 8) * (4 * nt + 8) + roots.shape[0]
    p_node = np.zeros(K, dtype=np.int64)
    p_kind = np.zeros(K, dtype=np.int8)
    p_st = np.zeros((K, L.ST_SIZE), dtype=np.int64)
    p_bone = np.zeros((K, nt), dtype=np.int64)
    p_pre = np.zeros((K, nt), dtype=np.int64)
    p_plen = np.zeros(K, dtype=np.int64)
    p_h = np.zeros((K, 4), dtype=np.uint64)
    rec = np.zeros((4 * nt + 16, L.REC_COLS), dtype=np.int32)
    mv_t = np.zeros(4 * nt + 4, dtype=np.int64)
    mv_e = np.zeros(4 * nt + 4, dtype=np.int64)
    St = np.zeros(L.ST_SIZE, dtype=np.int64)
    bone = np.zeros(nt, dtype=np.int64)
    h = np.zeros(4, dtype=np.uint64)
    who[0] = CHANCE
    first[0] = 1
    nkids[0] = roots.shape[0]
    nn = 1 + roots.shape[0]
    top = 0
    for i in range(roots.shape[0] - 1, -1, -1):
        p_node[top] = 1 + i
        p_kind[top] = 0
        p_st[top] = roots[i]
        p_bone[top] = root_bone[i]
        p_plen[top] = 0
        for s in range(ns):  # each seat's own dealt hand starts what it knows
            b = L.SEAT0 + s * L.SB + L.HAND
            p_h[top, s] = _mix(_mix(np.uint64(s), roots[i, b]), roots[i, b + 1])
        prob[1 + i] = root_prob[i]
        depth[1 + i] = 1
        top += 1
    while top > 0:
        top -= 1
        node = p_node[top]
        kind = p_kind[top]
        St[:] = p_st[top]
        bone[:] = p_bone[top]
        h[:] = p_h[top]
        plen = p_plen[top]
        s = St[L.TURN] & L.SMASK
        limit = St[L.BN] - G[L.R_RESERVE]
        if kind == 0 and St[L.ENDED] == 0 and G[L.R_DRAW] != 0 and St[L.BTOP] < limit and not has_move(G, St, s):
            kind = 1  # a draw: chance
        if nn + 4 * nt + 8 > cap:
            if cap >= max_nodes:
                return who, first, nkids, prob, margin, win, iset, depth, dbl, i_seat, i_nact, i_hold, i_st, i_bone, 1
            cap = min(2 * cap, max_nodes + 4 * nt + 8)
            who = _grow(who, cap)
            who[nn:] = TERMINAL
            first, nkids, prob = _grow(first, cap), _grow(nkids, cap), _grow(prob, cap)
            prob[nn:] = 1.0
            margin, win, depth, dbl = _grow(margin, cap), _grow(win, cap), _grow(depth, cap), _grow(dbl, cap)
            iset = _grow(iset, cap)
            iset[nn:] = -1
        if kind == 1:
            # the next draw: every tile the drawer cannot see, not yet drawn in this turn, equally likely
            m = 0
            for j in range(St[L.BTOP], St[L.BN]):
                t = bone[j]
                used = False
                for q in range(plen):
                    if p_pre[top, q] == t:
                        used = True
                if not used:
                    mv_t[m] = t
                    m += 1
            who[node] = CHANCE
            first[node] = nn
            nkids[node] = m
            pre = p_pre[top].copy()
            st0 = St.copy()
            for c in range(m):
                t = mv_t[c]
                child = nn + c
                prob[child] = 1.0 / m
                depth[child] = depth[node] + 1
                p_node[top] = child
                p_h[top] = h
                if tile_fits(G, st0, t) or St[L.BTOP] + plen + 1 >= limit:
                    # the turn's draws are known: put them on top of the boneyard and let the kernel play them
                    b2 = bone.copy()
                    k = St[L.BTOP]
                    for q in range(plen):
                        b2[k] = pre[q]
                        k += 1
                    b2[k] = t
                    k += 1
                    for j in range(St[L.BTOP], St[L.BN]):
                        u = bone[j]
                        drawn = u == t
                        for q in range(plen):
                            if pre[q] == u:
                                drawn = True
                        if not drawn:
                            b2[k] = u
                            k += 1
                    s2 = st0.copy()
                    mover, nrec = forced(G, s2, b2, rec, 0, L.REC_ALL, 0)
                    if s2[L.BTOP] != st0[L.BTOP] + plen + 1:
                        return (who, first, nkids, prob, margin, win, iset, depth, dbl, i_seat, i_nact, i_hold,
                                i_st, i_bone, 3)
                    hh = h.copy()
                    _seen(hh, rec, nrec, ns)
                    p_kind[top] = 0
                    p_st[top] = s2
                    p_bone[top] = b2
                    p_h[top] = hh
                    p_plen[top] = 0
                else:
                    p_kind[top] = 1
                    p_st[top] = st0
                    p_bone[top] = bone
                    p_pre[top] = pre
                    p_pre[top, plen] = t
                    p_plen[top] = plen + 1
                top += 1
            nn += m
            continue
        mover, nrec = forced(G, St, bone, rec, 0, L.REC_ALL, 0)
        _seen(h, rec, nrec, ns)
        if not mover:
            finish(G, St)
            _, mg, w = standing(G, St, 0)
            who[node] = TERMINAL
            margin[node] = mg
            win[node] = w
            continue
        s = St[L.TURN] & L.SMASK
        n = legal_moves(G, St, s, mv_t, mv_e)
        nd = 0
        for j in range(n):
            if G[L.TA + mv_t[j]] == G[L.TB + mv_t[j]]:
                nd += 1
        spot = St[L.FD_MOVE] == 0 and nd > 0 and nd < n
        restrict = spot and nohold[s] != 0
        key = _mix(h[s], 7 + s)
        if key in keys:
            ii = keys[key]
        else:
            ii = nis
            keys[key] = ii
            if nis >= i_seat.shape[0]:
                icap = 2 * i_seat.shape[0]
                i_seat, i_nact, i_hold = _grow(i_seat, icap), _grow(i_nact, icap), _grow(i_hold, icap)
                i_st, i_bone = _grow2(i_st, icap), _grow2(i_bone, icap)
            i_seat[ii] = s
            i_nact[ii] = nd if restrict else n
            i_hold[ii] = 1 if spot else 0
            i_st[ii] = St
            i_bone[ii] = bone
            nis += 1
        if i_nact[ii] != (nd if restrict else n) or i_seat[ii] != s:
            return who, first, nkids, prob, margin, win, iset, depth, dbl, i_seat, i_nact, i_hold, i_st, i_bone, 2
        who[node] = s
        iset[node] = ii
        first[node] = nn
        c = 0
        for j in range(n - 1, -1, -1):  # pushed last to first: the first move is expanded first
            t = mv_t[j]
            d = G[L.TA + t] == G[L.TB + t]
            if restrict and not d:
                continue
            c += 1
        nkids[node] = c
        c2 = c
        for j in range(n - 1, -1, -1):
            t = mv_t[j]
            d = G[L.TA + t] == G[L.TB + t]
            if restrict and not d:
                continue
            c2 -= 1
            child = nn + c2
            depth[child] = depth[node] + 1
            dbl[child] = 1 if (d and St[L.FD_MOVE] == 0) else 0
            s2 = St.copy()
            place(G, s2, s, t, mv_e[j])
            p_node[top] = child
            p_kind[top] = 0
            p_st[top] = s2
            p_bone[top] = bone
            p_plen[top] = 0
            for o in range(ns):
                p_h[top, o] = _mix(_mix(h[o], 64 + 4 * s), 1024 * (1 + t) + mv_e[j])
            top += 1
        nn += c
    return (who[:nn], first[:nn], nkids[:nn], prob[:nn], margin[:nn], win[:nn], iset[:nn], depth[:nn], dbl[:nn],
            i_seat[:nis], i_nact[:nis], i_hold[:nis], i_st[:nis], i_bone[:nis], 0)


@dataclass
class GameTree:
    """A game tree as flat arrays in breadth-first order (the module's docstring); the information states
    numbered 0 .. infosets - 1 with their seat, their number of moves (``act_off``: where a state's moves
    start in the arrays by move), whether the first double may be held there (``hold_spot``: no double
    down yet and the seat can place a double or another tile) and which moves place it (``act_double``)."""

    rules: Rules
    who: np.ndarray
    first: np.ndarray
    nkids: np.ndarray
    prob: np.ndarray
    margin: np.ndarray
    win: np.ndarray
    iset: np.ndarray
    depth: np.ndarray
    root_first: np.ndarray     #: the seat that leads in each child of the root (the deals)
    iset_seat: np.ndarray
    iset_nact: np.ndarray
    act_off: np.ndarray
    act_double: np.ndarray
    hold_spot: np.ndarray
    nohold: tuple[bool, bool]
    _st: np.ndarray            # a state of each information state (what a policy is asked at)
    _bone: np.ndarray

    @property
    def nodes(self) -> int:
        return int(self.who.shape[0])

    @property
    def infosets(self) -> int:
        return int(self.iset_seat.shape[0])

    @property
    def levels(self) -> np.ndarray:
        """Where each depth's nodes start (and, last, the node count)."""
        return np.searchsorted(self.depth, np.arange(int(self.depth[-1]) + 2)).astype(np.int64)


class TreeTooLarge(ValueError):
    """The tree has more nodes than the limit."""


def deals(rules: Rules) -> int:
    """The number of 2-hand deals (ordered pairs of hands) of ``rules``."""
    nt, h = rules.n_tiles, rules.hand
    return comb(nt, h) * comb(nt - h, h)


def _roots(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every deal and lead: the dealt states, their boneyards, probabilities and leading seats."""
    from itertools import combinations
    from ._kernel.batch import setup_hands
    if rules.players != 2:
        raise ValueError(f"{rules.players} players; allowed: 2 (the equilibrium of a 2-player zero-sum game)")
    G = compile_rules(rules)
    nt, h = rules.n_tiles, rules.hand
    lead = -1 if rules.lead.halves is None else _tile_index(rules)
    work = make_work(nt)
    St, bone = work[L.W_ST], work[L.W_BONE]
    sts, bones, probs, firsts = [], [], [], []
    total = deals(rules)
    for h0 in combinations(range(nt), h):
        rest = [t for t in range(nt) if t not in h0]
        for h1 in combinations(rest, h):
            by = [t for t in rest if t not in h1]
            holder = 0 if lead in h0 else 1 if lead in h1 else -1
            leads = [holder] if holder >= 0 else [0, 1]
            tiles = np.array([*h0, *h1, *by], dtype=np.int64)
            seats = np.array([0] * h + [1] * h + [-1] * len(by), dtype=np.int64)
            for f in leads:
                setup_hands(G, St, bone, tiles, seats, len(by), f)
                sts.append(St.copy())
                bones.append(bone.copy())
                probs.append(1.0 / total / len(leads))
                firsts.append(f)
    return np.array(sts), np.array(bones), np.array(probs), np.array(firsts, dtype=np.int8)


def _tile_index(rules: Rules) -> int:
    from ..tiles import tile_index
    return tile_index(*rules.lead.halves, rules.max_pip)


def build_tree(rules: Rules, nohold: tuple[bool, bool] = (False, False), max_nodes: int = 30_000_000) -> GameTree:
    """The game tree of a 2-player ``rules`` (TreeTooLarge beyond ``max_nodes``); ``nohold[s]``: seat s may
    not hold the first double (while no double is down, if it can place a double it must)."""
    sts, bones, probs, firsts = _roots(rules)
    if len(sts) + 1 > max_nodes:
        raise TreeTooLarge(f"{len(sts) + 1:,} nodes at the deal alone; the limit is {max_nodes:,}")
    G = compile_rules(rules)
    out = _build(G, sts, bones, probs, np.array([int(x) for x in nohold], dtype=np.int64), max_nodes)
    status = out[-1]
    if status == 1:
        raise TreeTooLarge(f"more than {max_nodes:,} nodes")
    if status:
        raise RuntimeError(f"the game tree's build failed (status {status}: "
                           f"{'an information-state hash collision' if status == 2 else 'a draw out of order'})")
    who, first, nkids, prob, margin, win, iset, depth, dbl, i_seat, i_nact, i_hold, i_st, i_bone = out[:-1]
    order = np.argsort(depth, kind="stable")       # breadth first: children stay consecutive
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    first = np.where(nkids[order] > 0, rank[first[order]], 0)
    act_off = np.zeros(i_nact.shape[0] + 1, dtype=np.int64)
    np.cumsum(i_nact, out=act_off[1:])
    tree = GameTree(rules, who[order], first, nkids[order], prob[order], margin[order], win[order], iset[order],
                    depth[order], firsts, i_seat, i_nact, act_off, np.zeros(act_off[-1], dtype=np.int8),
                    i_hold.astype(bool), tuple(bool(x) for x in nohold), i_st, i_bone)
    _act_doubles(tree.who, tree.first, tree.iset, tree.act_off, dbl[order], tree.act_double)
    return tree


def estimate_nodes(rules: Rules, limit: float = float("inf"), sample: int = 48, seed: int = 0) -> float:
    """The tree's node count: exact when it has at most ``sample`` deals and leads, else estimated from the
    trees of ``sample`` of them drawn at random; ``inf`` as soon as the sample shows more than ``limit``."""
    sts, bones, probs, _ = _roots(rules)
    pick = np.arange(len(sts))
    if len(sts) > sample:
        pick = np.random.default_rng(seed).choice(len(sts), sample, replace=False)
    scale = len(sts) / len(pick)
    cap = int(min(limit / scale, 1 << 40)) + 1
    out = _build(compile_rules(rules), sts[pick], bones[pick], probs[pick], np.zeros(2, dtype=np.int64), cap)
    if out[-1] == 1:
        return float("inf")
    return 1 + (out[0].shape[0] - 1) * scale


@njit(cache=True)
def _act_doubles(who, first, iset, act_off, dbl, out):
    for i in range(who.shape[0]):
        if who[i] >= 0:
            o = act_off[iset[i]]
            for a in range(act_off[iset[i] + 1] - o):
                out[o + a] = dbl[first[i] + a]

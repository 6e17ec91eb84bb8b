"""CFR+ and exact best responses over a game tree's flat arrays (simdom.engine.gametree.GameTree).

Every function walks the nodes by index: a node's children come after it, so a forward loop is top down
(reach probabilities) and a backward loop bottom up (values). Utilities are seat 0's (``u``); seat 1
maximises ``-u`` (the win, ``1 - u``, has the same regrets and best replies). A strategy is one array of
probabilities by move (``off[i] .. off[i + 1]``: information state i's moves).

* :func:`cfr_plus`: CFR+ (Tammelin 2014): alternating updates, regrets floored at 0 after each update
  (regret matching+), the average strategy weighted by the iteration number and the seat's own reach
  (every state of the seat, reached by the other seat or not); the values of subtrees the other seat
  and chance reach with probability 0 are not computed.
* :func:`best_response`: the exact value of a best reply of ``seat`` to a strategy (the other seat's
  moves from it): by depth, the reply picks at each of its information states the move with the most
  reach-weighted value summed over the state's nodes (all of one depth: every edge is public).
* :func:`values`: every node's value under a strategy of both seats.
"""
from __future__ import annotations

import numpy as np
from numba import njit

CHANCE, TERMINAL = -1, -2


@njit(cache=True)
def current(regret, off, out):
    """Regret matching: each information state's positive regrets, normalised (uniform when none)."""
    for i in range(off.shape[0] - 1):
        a, b = off[i], off[i + 1]
        tot = 0.0
        for j in range(a, b):
            if regret[j] > 0.0:
                tot += regret[j]
        for j in range(a, b):
            out[j] = (regret[j] if regret[j] > 0.0 else 0.0) / tot if tot > 0.0 else 1.0 / (b - a)


@njit(cache=True)
def normalised(strat, off):
    out = np.empty_like(strat)
    for i in range(off.shape[0] - 1):
        a, b = off[i], off[i + 1]
        tot = 0.0
        for j in range(a, b):
            tot += strat[j]
        for j in range(a, b):
            out[j] = strat[j] / tot if tot > 0.0 else 1.0 / (b - a)
    return out


@njit(cache=True)
def _update(who, first, nkids, prob, u, iset, off, iseat, seat, sigma, regret, avg, weight, ro, rs, v, irs):
    """One CFR+ update of ``seat``: reach top down, values and regrets bottom up."""
    n = who.shape[0]
    sign = 1.0 if seat == 0 else -1.0
    ro[0] = 1.0
    rs[0] = 1.0
    for i in range(n):
        w = who[i]
        if w == TERMINAL:
            continue
        f = first[i]
        k = nkids[i]
        if ro[i] == 0.0 and rs[i] == 0.0:
            for c in range(f, f + k):
                ro[c] = 0.0
                rs[c] = 0.0
            continue
        if w == CHANCE:
            for c in range(k):
                ro[f + c] = ro[i] * prob[f + c]
                rs[f + c] = rs[i]
        else:
            o = off[iset[i]]
            if w == seat:
                irs[iset[i]] = rs[i]
            for c in range(k):
                if w == seat:
                    ro[f + c] = ro[i]
                    rs[f + c] = rs[i] * sigma[o + c]
                else:
                    ro[f + c] = ro[i] * sigma[o + c]
                    rs[f + c] = rs[i]
    for i in range(n - 1, -1, -1):
        w = who[i]
        if w == TERMINAL:
            v[i] = sign * u[i]
            continue
        if ro[i] == 0.0:
            v[i] = 0.0
            continue
        f = first[i]
        k = nkids[i]
        x = 0.0
        if w == CHANCE:
            for c in range(k):
                x += prob[f + c] * v[f + c]
            v[i] = x
            continue
        o = off[iset[i]]
        for c in range(k):
            x += sigma[o + c] * v[f + c]
        v[i] = x
        if w == seat:
            for c in range(k):
                regret[o + c] += ro[i] * (v[f + c] - x)
    for j in range(iseat.shape[0]):  # the average: every state of the seat, by its own reach alone
        if iseat[j] == seat and irs[j] > 0.0:
            for a in range(off[j], off[j + 1]):
                avg[a] += weight * irs[j] * sigma[a]


@njit(cache=True)
def _floor(regret, off, iseat, seat):
    for i in range(iseat.shape[0]):
        if iseat[i] == seat:
            for j in range(off[i], off[i + 1]):
                if regret[j] < 0.0:
                    regret[j] = 0.0


@njit(cache=True)
def cfr_plus(who, first, nkids, prob, u, iset, off, iseat, regret, avg, t0, iters):
    """``iters`` CFR+ iterations, numbered from t0 + 1 (regret and avg carry over between calls)."""
    n = who.shape[0]
    ro = np.zeros(n)
    rs = np.zeros(n)
    v = np.zeros(n)
    sigma = np.zeros(regret.shape[0])
    irs = np.zeros(iseat.shape[0])
    for t in range(t0 + 1, t0 + iters + 1):
        for seat in range(2):
            current(regret, off, sigma)
            irs[:] = 0.0
            _update(who, first, nkids, prob, u, iset, off, iseat, seat, sigma, regret, avg, float(t), ro, rs, v, irs)
            _floor(regret, off, iseat, seat)


@njit(cache=True)
def best_response(who, first, nkids, prob, u, iset, off, levels, seat, strat):
    """The value (seat 0's utility, as ``seat`` sees it: ``u`` for seat 0, ``-u`` for seat 1) of ``seat``'s
    best reply to ``strat`` (the other seat's moves), and the reply (one move per information state, -1
    at the other seat's)."""
    n = who.shape[0]
    sign = 1.0 if seat == 0 else -1.0
    ro = np.zeros(n)
    v = np.zeros(n)
    q = np.zeros(off[-1])
    best = np.full(off.shape[0] - 1, -1, dtype=np.int64)
    ro[0] = 1.0
    for i in range(n):
        w = who[i]
        if w == TERMINAL:
            continue
        f = first[i]
        for c in range(nkids[i]):
            if w == CHANCE:
                ro[f + c] = ro[i] * prob[f + c]
            elif w == seat:
                ro[f + c] = ro[i]
            else:
                ro[f + c] = ro[i] * strat[off[iset[i]] + c]
    for d in range(levels.shape[0] - 2, -1, -1):
        a, b = levels[d], levels[d + 1]
        for i in range(a, b):
            w = who[i]
            f = first[i]
            if w == TERMINAL:
                v[i] = sign * u[i]
            elif w == CHANCE:
                x = 0.0
                for c in range(nkids[i]):
                    x += prob[f + c] * v[f + c]
                v[i] = x
            elif w == seat:
                o = off[iset[i]]
                for c in range(nkids[i]):
                    q[o + c] += ro[i] * v[f + c]
            else:
                o = off[iset[i]]
                x = 0.0
                for c in range(nkids[i]):
                    x += strat[o + c] * v[f + c]
                v[i] = x
        for i in range(a, b):
            if who[i] == seat:
                s = iset[i]
                if best[s] < 0:
                    o = off[s]
                    bj = 0
                    for c in range(1, off[s + 1] - o):
                        if q[o + c] > q[o + bj]:
                            bj = c
                    best[s] = bj
                v[i] = v[first[i] + best[s]]
    return v[0], best


@njit(cache=True)
def values(who, first, nkids, prob, u, iset, off, strat):
    """Every node's value (seat 0's utility) when both seats play ``strat``."""
    n = who.shape[0]
    v = np.zeros(n)
    for i in range(n - 1, -1, -1):
        w = who[i]
        f = first[i]
        if w == TERMINAL:
            v[i] = u[i]
        elif w == CHANCE:
            x = 0.0
            for c in range(nkids[i]):
                x += prob[f + c] * v[f + c]
            v[i] = x
        else:
            o = off[iset[i]]
            x = 0.0
            for c in range(nkids[i]):
                x += strat[o + c] * v[f + c]
            v[i] = x
    return v


@njit(cache=True)
def reach(who, first, nkids, prob, iset, off, strat):
    """Every node's probability when both seats play ``strat`` (chance included)."""
    n = who.shape[0]
    r = np.zeros(n)
    r[0] = 1.0
    for i in range(n):
        w = who[i]
        if w == TERMINAL:
            continue
        f = first[i]
        for c in range(nkids[i]):
            r[f + c] = r[i] * (prob[f + c] if w == CHANCE else strat[off[iset[i]] + c])
    return r

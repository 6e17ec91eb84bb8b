"""The compiled steps of the match equity table's dynamic programming (simdom.stats.matches.met says what
is computed): :func:`solve_any` for any number of sides, score by score; :func:`solve_two` for two sides,
row by row (what the deals that change side 0's score bring summed along a row of contiguous memory); the
deals that can end the match replayed credit by credit (:func:`near`); the deals that credit nothing
solved at each score (:func:`settle`); the 2-side tie at the target under deal_end (:func:`tie_values`).
Compiled by numba on first use and cached beside this file; the tests check them through solve_table."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def near(N, mode, f, r, stride, ci, V, b, A, d_off, d_id, d_c, d_nxt, d_w, srt, e_off, e_side, e_amt,
          run):  # pragma: no cover
    """immediate / exact: the deals led as ``ci`` that can end the match from the score ``f`` (some side's
    credits reach what it needs, ``r``), replayed credit by credit into b (a win, or the score they leave)
    and A (they leave the score as it was)."""
    w = d_w[ci]
    for j in range(N):
        for p in range(d_off[ci], d_off[ci + 1]):
            q = srt[j, p]
            if d_c[q, j] < r[j]:
                break
            dup = False
            for i in range(j):
                if d_c[q, i] >= r[i]:
                    dup = True
            if dup:
                continue
            run[:] = 0
            won = -1
            dd = d_id[q]
            for e in range(e_off[dd], e_off[dd + 1]):
                s = e_side[e]
                x = e_amt[e]
                if mode == 1:
                    run[s] += x
                    if run[s] >= r[s]:
                        won = s
                        break
                elif run[s] + x <= r[s]:
                    run[s] += x
                    if run[s] == r[s]:
                        won = s
                        break
            if won >= 0:
                b[ci, won] += w
                continue
            g = f
            zero = True
            for i in range(N):
                g += run[i] * stride[i]
                if run[i] != 0:
                    zero = False
            if zero:
                A[ci, d_nxt[q]] += w
            else:
                for i in range(N):
                    b[ci, i] += w * V[g, d_nxt[q], i]


@njit(cache=True, nogil=True)
def settle(N, f, conds, V, Vw, b, A):  # pragma: no cover
    """V = b + A V at the score f (A: the deals that credit nothing; its columns are the real leads, in V;
    Vw is V but for the first deal's pseudo leads)."""
    for ci in conds:
        for j in range(N):
            Vw[f, ci, j] = b[ci, j]
    for _ in range(1_000_000):
        delta = 0.0
        for ci in conds:
            for j in range(N):
                v = b[ci, j]
                for c2 in range(V.shape[1]):
                    if A[ci, c2] != 0.0:
                        v += A[ci, c2] * V[f, c2, j]
                delta = max(delta, abs(v - Vw[f, ci, j]))
                Vw[f, ci, j] = v
        if delta < 1e-16:
            break


@njit(cache=True, nogil=True)
def solve_any(R, N, mode, hi, lo, V, Vw, conds, a_off, a_c, a_nxt, a_w, d_off, d_id, d_c, d_nxt, d_w, srt, e_off,
           e_side, e_amt, tie):  # pragma: no cover
    """Any number of sides: the scores hi - 1 down to lo (flat, side 0 the most significant), one by one."""
    NC = Vw.shape[1]
    stride = np.ones(N, np.int64)
    for j in range(N - 2, -1, -1):
        stride[j] = stride[j + 1] * R
    k = np.zeros(N, np.int64)
    r = np.zeros(N, np.int64)
    run = np.zeros(N, np.int64)
    b = np.zeros((NC, N))
    A = np.zeros((NC, NC))
    for f in range(hi - 1, lo - 1, -1):
        rem = f
        for j in range(N):
            k[j] = rem // stride[j]
            rem -= k[j] * stride[j]
            r[j] = R - k[j]
        b[:] = 0.0
        A[:] = 0.0
        for ci in conds:
            for o in range(a_off[ci], a_off[ci + 1]):
                far = True
                zero = True
                g = f
                for j in range(N):
                    c = a_c[o, j]
                    if c >= r[j]:
                        far = False
                    if c != 0:
                        zero = False
                    g += c * stride[j]
                w = a_w[o]
                nx = a_nxt[o]
                if far:
                    if zero:
                        A[ci, nx] += w
                    else:
                        for j in range(N):
                            b[ci, j] += w * V[g, nx, j]
                elif mode == 0:
                    best = -1
                    bv = -1
                    ties = 0
                    for j in range(N):
                        v = k[j] + a_c[o, j]
                        if v > bv:
                            best, bv, ties = j, v, 1
                        elif v == bv:
                            ties += 1
                    if ties == 1:
                        b[ci, best] += w
                    elif N == 2:
                        for j in range(N):
                            b[ci, j] += w * tie[nx, j]
                    else:
                        for j in range(N):
                            if k[j] + a_c[o, j] == bv:
                                b[ci, j] += w / ties
            if mode != 0:
                near(N, mode, f, r, stride, ci, V, b, A, d_off, d_id, d_c, d_nxt, d_w, srt, e_off, e_side, e_amt,
                      run)
        settle(N, f, conds, V, Vw, b, A)


@njit(cache=True, nogil=True)
def solve_two(R, mode, hi, lo, V, conds, a_off, a_c, a_nxt, a_w, d_off, d_id, d_c, d_nxt, d_w, srt, e_off, e_side,
            e_amt, tie):  # pragma: no cover
    """Two sides, rows of side 0's score hi - 1 down to lo: what the deals that change side 0's score bring
    is summed along a whole row at once (contiguous memory), the rest score by score. Each condition's
    outcomes are sorted by side 0's credit, those that credit it nothing first."""
    NC = V.shape[1]
    stride = np.array([R, 1], np.int64)
    acc = np.zeros((NC, R, 2))
    r = np.zeros(2, np.int64)
    run = np.zeros(2, np.int64)
    b = np.zeros((NC, 2))
    A = np.zeros((NC, NC))
    for k0 in range(hi - 1, lo - 1, -1):
        r0 = R - k0
        acc[:] = 0.0
        for ci in conds:
            for o in range(a_off[ci], a_off[ci + 1]):
                c0 = a_c[o, 0]
                if c0 == 0:
                    continue
                c1 = a_c[o, 1]
                w = a_w[o]
                nx = a_nxt[o]
                if c0 < r0:
                    base = (k0 + c0) * R + c1
                    top = max(R - c1, 0)
                    for k1 in range(top):
                        acc[ci, k1, 0] += w * V[base + k1, nx, 0]
                        acc[ci, k1, 1] += w * V[base + k1, nx, 1]
                    if mode == 0:  # side 1 reaches the target, side 0 does not
                        for k1 in range(top, R):
                            acc[ci, k1, 1] += w
                elif mode == 0:
                    n0 = k0 + c0
                    for k1 in range(R):
                        n1 = k1 + c1
                        if n1 < R or n0 > n1:
                            acc[ci, k1, 0] += w
                        elif n1 > n0:
                            acc[ci, k1, 1] += w
                        else:
                            acc[ci, k1, 0] += w * tie[nx, 0]
                            acc[ci, k1, 1] += w * tie[nx, 1]
        r[0] = r0
        for k1 in range(R - 1, -1, -1):
            f = k0 * R + k1
            r1 = R - k1
            r[1] = r1
            A[:] = 0.0
            for ci in conds:
                b[ci, 0] = acc[ci, k1, 0]
                b[ci, 1] = acc[ci, k1, 1]
                for o in range(a_off[ci], a_off[ci + 1]):
                    if a_c[o, 0] != 0:
                        break
                    c1 = a_c[o, 1]
                    w = a_w[o]
                    nx = a_nxt[o]
                    if c1 == 0:
                        A[ci, nx] += w
                    elif c1 < r1:
                        b[ci, 0] += w * V[f + c1, nx, 0]
                        b[ci, 1] += w * V[f + c1, nx, 1]
                    elif mode == 0:
                        b[ci, 1] += w
                if mode != 0:
                    near(2, mode, f, r, stride, ci, V, b, A, d_off, d_id, d_c, d_nxt, d_w, srt, e_off, e_side,
                          e_amt, run)
            settle(2, f, conds, V, V, b, A)


def tie_values(N: int, NC: int, a_off, a_c, a_nxt, a_w) -> np.ndarray:
    """deal_end, 2 sides, tied at >= T: P(each side wins) by the lead of the next deal, solved exactly
    (the side that gains more in a deal wins; an equal deal plays on)."""
    W = np.full((NC, N), 0.5)
    if N != 2:
        return W
    for _ in range(100_000):
        new = np.zeros_like(W)
        for ci in range(NC):
            sl = slice(a_off[ci], a_off[ci + 1])
            c, nx, w = a_c[sl], a_nxt[sl], a_w[sl]
            if not len(w):
                new[ci] = W[ci]
                continue
            new[ci, 0] += w[c[:, 0] > c[:, 1]].sum()
            new[ci, 1] += w[c[:, 1] > c[:, 0]].sum()
            eq = c[:, 0] == c[:, 1]
            new[ci] += (w[eq, None] * W[nx[eq]]).sum(axis=0)
        if np.abs(new - W).max() < 1e-15:
            return new
        W = new
    return W


__all__ = ["near", "settle", "solve_any", "solve_two", "tie_values"]

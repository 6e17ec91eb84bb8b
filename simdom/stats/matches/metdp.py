"""The compiled steps of the match equity table's dynamic programming (simdom.stats.matches.met says what
is computed): :func:`solve_any` score by score (the first deal's leads at 0-0); :func:`solve_rows` row by
row (what the deals that change the scores of sides 0 .. N-2 bring summed along a row of side N-1's
scores, contiguous memory); the
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
def solve_rows(R, N, mode, hi, lo, V, conds, a_off, a_c, a_nxt, a_w, a_pz, a_poff, d_off, d_id, d_c, d_nxt, d_w,
               srt, e_off, e_side, e_amt, tie):  # pragma: no cover
    """The rows hi - 1 down to lo: a row is the scores of sides 0 .. N-2 (its flat index), along it side N-1's
    score, contiguous in V. What the deals that change a score of the row's sides bring (``a_pz`` False;
    ``a_poff`` the row they lead to, relative) is summed along the whole row at once; the deals that credit
    only side N-1 (first in each condition's outcomes) score by score. Each score is then settled."""
    NC = V.shape[1]
    L = N - 1
    stride = np.ones(N, np.int64)
    for j in range(N - 2, -1, -1):
        stride[j] = stride[j + 1] * R
    acc = np.zeros((NC, R, N))
    r = np.zeros(N, np.int64)
    k = np.zeros(N, np.int64)
    run = np.zeros(N, np.int64)
    b = np.zeros((NC, N))
    A = np.zeros((NC, NC))
    for row in range(hi - 1, lo - 1, -1):
        rem = row
        for j in range(L):
            k[j] = rem // stride[j + 1]
            rem -= k[j] * stride[j + 1]
            r[j] = R - k[j]
        acc[:] = 0.0
        for ci in conds:
            for o in range(a_off[ci], a_off[ci + 1]):
                if a_pz[o]:
                    continue
                cl = a_c[o, L]
                w = a_w[o]
                nx = a_nxt[o]
                far = True
                for j in range(L):
                    if a_c[o, j] >= r[j]:
                        far = False
                if far:
                    base = (row + a_poff[o]) * R + cl
                    top = max(R - cl, 0)
                    if N == 2:  # the hot loop, unrolled for the common case
                        for kl in range(top):
                            acc[ci, kl, 0] += w * V[base + kl, nx, 0]
                            acc[ci, kl, 1] += w * V[base + kl, nx, 1]
                    elif N == 3:
                        for kl in range(top):
                            acc[ci, kl, 0] += w * V[base + kl, nx, 0]
                            acc[ci, kl, 1] += w * V[base + kl, nx, 1]
                            acc[ci, kl, 2] += w * V[base + kl, nx, 2]
                    else:
                        for kl in range(top):
                            acc[ci, kl, 0] += w * V[base + kl, nx, 0]
                            acc[ci, kl, 1] += w * V[base + kl, nx, 1]
                            acc[ci, kl, 2] += w * V[base + kl, nx, 2]
                            acc[ci, kl, 3] += w * V[base + kl, nx, 3]
                    if mode == 0:  # side N-1 reaches the target, the others do not
                        for kl in range(top, R):
                            acc[ci, kl, L] += w
                elif mode == 0:  # deal_end: the highest side at >= T alone wins; a tie plays on
                    for kl in range(R):
                        best = -1
                        bv = -1
                        ties = 0
                        for j in range(N):
                            v = (kl if j == L else k[j]) + a_c[o, j]
                            if v > bv:
                                best, bv, ties = j, v, 1
                            elif v == bv:
                                ties += 1
                        if ties == 1:
                            acc[ci, kl, best] += w
                        elif N == 2:
                            for j in range(N):
                                acc[ci, kl, j] += w * tie[nx, j]
                        else:
                            for j in range(N):
                                if (kl if j == L else k[j]) + a_c[o, j] == bv:
                                    acc[ci, kl, j] += w / ties
        for kl in range(R - 1, -1, -1):
            f = row * R + kl
            k[L] = kl
            r[L] = R - kl
            A[:] = 0.0
            for ci in conds:
                for j in range(N):
                    b[ci, j] = acc[ci, kl, j]
                for o in range(a_off[ci], a_off[ci + 1]):
                    if not a_pz[o]:
                        break
                    cl = a_c[o, L]
                    w = a_w[o]
                    nx = a_nxt[o]
                    if cl == 0:
                        A[ci, nx] += w
                    elif cl < r[L]:
                        for j in range(N):
                            b[ci, j] += w * V[f + cl, nx, j]
                    elif mode == 0:
                        b[ci, L] += w
                if mode != 0:
                    near(N, mode, f, r, stride, ci, V, b, A, d_off, d_id, d_c, d_nxt, d_w, srt, e_off, e_side,
                         e_amt, run)
            settle(N, f, conds, V, V, b, A)


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


__all__ = ["near", "settle", "solve_any", "solve_rows", "tie_values"]

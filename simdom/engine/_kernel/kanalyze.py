"""Position analysis in the kernel: every legal move of the seat to act, played out in the same worlds.

A *rollout* j of a position (seat s to act, its legal moves listed) is one world, a deal of what s
cannot see consistent with what it knows (:func:`~simdom.engine._kernel.sampler.sample_world`, from a stream
keyed by the root key and j), or the true deal with ``perfect``; in it, each candidate move is placed
and the deal is played to its end by the continuation policies and settled. Every move meets the same
world and the same policy streams (seeded by the root key and j, as deal j of a batch): common random
numbers, so differences between moves are paired and the rollouts are reproducible in any chunking.

The Python layer (engine/analysis.py) allocates every array; the kernel fills ``out`` arrays.
"""
from __future__ import annotations

import numpy as np
from .jit import called, entry, kernel

from .batch import play
from .core import place, seat_base, standing
from .layout import (AUX_PREP, BN, BTOP, HAND, REC_NONE, R_PLAYERS, ST_SIZE)
from .rng import GAMMA, mix64, seed_deal
from .sampler import sample_world, unseen_tiles


@called
def world_of(G, St, bone, s, key, j, perfect, W, bone2, pool, u, deck, loc, aux, dp):
    """World j of the position into W, bone2; returns the sampler's result (0 for the true deal)."""
    if perfect:
        for k in range(ST_SIZE):
            W[k] = St[k]
        for k in range(St[BN]):
            bone2[k] = bone[k]
        return 0
    loc[0] = mix64(key + np.uint64(j + 1) * GAMMA)
    return sample_world(G, St, s, W, bone2, pool, np.int64(u), deck, loc, aux, dp)


@kernel
def settle_row(G, P, s, pts, mar, win, r, i):
    """Seat s's final total, its margin over the best other seat, and its share of the win."""
    pts[r, i], mar[r, i], win[r, i] = standing(G, P, s)


@entry
def rollout_moves(G, St, bone, s, mv_t, mv_e, n, pol_ids, pol_params, key, r0, nr, perfect,
                  pts, mar, win, tries, work):
    """Rollouts r0 .. r0 + nr - 1 of seat s's n moves (mv_t, mv_e) in state St (seat s to act, its
    forced draws done). Row r of the outputs is rollout r0 + r, column i move i: ``pts`` int32 the
    seat's final total, ``mar`` int32 its margin over the best other seat, ``win`` float64 its share
    of the win (1/k for k seats tied on top). ``tries`` int64[nr]: the sampler's result per world.
    ``work``: :func:`simdom.engine._kernel.work.make_analysis_work`."""
    W, P, bone2, pool, deck, loc, aux, dp, rng, pt, pe, rec, scratch, V = work
    u = unseen_tiles(G, St, s, pool)
    aux[AUX_PREP] = 0
    for r in range(nr):
        j = r0 + r
        tries[r] = world_of(G, St, bone, s, key, np.int64(j), np.bool_(perfect), W, bone2, pool, np.int64(u), deck, loc, aux, dp)
        for i in range(n):
            for k in range(ST_SIZE):
                P[k] = W[k]
            seed_deal(rng, key, j)
            place(G, P, s, mv_t[i], mv_e[i])
            play(G, P, bone2, rng, pol_ids, pol_params, pt, pe, scratch, V, rec, 0, REC_NONE, 0)
            settle_row(G, P, s, pts, mar, win, r, i)


@entry
def sample_worlds(G, St, bone, s, key, r0, nr, hands, bones, tries, work):
    """The worlds of rollouts r0 .. r0 + nr - 1 (as :func:`rollout_moves` meets them), for checks:
    ``hands`` int64[nr, players, 2] every seat's hand mask words, ``bones`` int64[nr, nt] the
    boneyard still to draw (from index 0; St[BN] - St[BTOP] entries), ``tries`` the sampler's result."""
    W, P, bone2, pool, deck, loc, aux, dp, rng, pt, pe, rec, scratch, V = work
    u = unseen_tiles(G, St, s, pool)
    aux[AUX_PREP] = 0
    for r in range(nr):
        tries[r] = world_of(G, St, bone, s, key, np.int64(r0 + r), np.bool_(False), W, bone2, pool, np.int64(u), deck, loc, aux, dp)
        for o in range(G[R_PLAYERS]):
            hands[r, o, 0] = W[seat_base(o) + HAND]
            hands[r, o, 1] = W[seat_base(o) + HAND + 1]
        top = St[BTOP]
        for k in range(St[BN] - top):
            bones[r, k] = bone2[top + k]

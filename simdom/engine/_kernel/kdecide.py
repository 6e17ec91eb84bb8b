"""Recording first-double decisions in the kernel (`simdom run --decisions`).

The play loop (batch.play) calls :func:`record_decision` on every turn while recording is on (one
check of ``scratch[SX_DCTL][DCTL_ON]``), after the policy has chosen and before the move is placed.
At a first-double decision (ktiming.py) it writes one row of the situation as the mover sees it, and
the choice. With ``DCTL_ROLLOUTS`` = N > 0 it also values the two candidates, "best double now" and
"best other move", in N worlds of what the mover cannot see (engine/sampler.py: uniform among the
deals consistent with what it knows), each candidate placed in the *same* worlds (common random
numbers) and the deal played to its end by greedy for every seat and settled: the mean final points
of the mover after each, the mean paired difference (other - double: the value of holding) and that
of its win share. The worlds of the decision at move m of deal d come from the root key, d and m
alone: the same in any chunking, worker, arm or rotation; they never touch the policies' streams, so
recording changes no deal.

Room: ``DCTL_CAP`` rows; a decision beyond it is counted in ``DCTL_LOST`` (the caller gives enough
room: at most one decision per placement).
"""
from __future__ import annotations

import numpy as np

from .jit import called, entry, kernel

from .core import standing
from .moves import seat_base
from .kpolicies import playout
from .layout import (AUX_PREP, BON, DCTL_CAP, DCTL_DEAL0, DCTL_LOST, DCTL_ROLLOUTS, DCTL_ROWS, DEC_BEST_D,
                     DEC_BEST_O, DEC_BONE, DEC_CHOSE, DEC_DEAL, DEC_DMOVES, DEC_FACE, DEC_HAND, DEC_HELD,
                     DEC_LEGAL, DEC_MOVE, DEC_OPP_PTS, DEC_OPP_TILES, DEC_OWN_PTS, DEC_SEAT, DEC_SUITS,
                     DEC_SUPPORT, DEC_TIER_LATER, DEC_TIER_NOW, DEC_TURN, DEC_UNSEEN, DV_DOUBLE, DV_GAIN,
                     DV_GAIN_WIN, DV_OTHER, FD_MOVE, HCNT, NPL, PTS, R_PLAYERS, ST_SIZE, SX_AUX, SX_BONE,
                     SX_DCTL, SX_DECK, SX_DKEY, SX_DP, SX_DROWS, SX_DVALS, SX_LOC, SX_P, SX_PE, SX_POOL, SX_PT,
                     SX_REC, SX_W, TA, TB)
from .ends import move_value
from .rng import GAMMA, M2, mix64
from .sampler import sample_world, unseen_tiles
from .ktiming import (best_opponent_points, boneyard_left, class_best, doubles_held, opponent_tiles, suit_count,
                      suits_held, tier_at, turn_of, unseen_doubles)

#: Separates the decisions' worlds from every other stream of the same root key.
DECISION_SALT = np.uint64(0x646563697369306E)


@kernel
def decision_key(root, deal, move):
    """The key of the worlds of the decision at ``move`` of deal number ``deal``."""
    dkey = mix64(root ^ DECISION_SALT ^ mix64(np.uint64(deal) * GAMMA + GAMMA))
    return mix64(dkey + np.uint64(move) * M2)


@kernel
def outcome(G, P, s):
    """Seat s's final total in the settled state P, and its share of the win (1/k for k tied on top)."""
    own, _, share = standing(G, P, s)
    return own, share


@called
def value_candidates(G, St, s, td, ed, to, eo, nr, key, scratch, vals):
    """vals[DV_*]: the two candidates (td on ed, to on eo) of seat s rolled out in the same nr worlds."""
    P, bone2, pt, pe, pool = scratch[SX_P], scratch[SX_BONE], scratch[SX_PT], scratch[SX_PE], scratch[SX_POOL]
    W, deck, loc, rec, aux, dp = (scratch[SX_W], scratch[SX_DECK], scratch[SX_LOC], scratch[SX_REC],
                                  scratch[SX_AUX], scratch[SX_DP])
    aux[AUX_PREP] = 0  # a new position: the sampler's counting tables are built again if needed
    u = unseen_tiles(G, St, s, pool)
    sd = 0.0
    so = 0.0
    sw = 0.0
    for j in range(nr):
        loc[0] = mix64(key + np.uint64(j + 1) * GAMMA)
        sample_world(G, St, s, W, bone2, pool, np.int64(u), deck, loc, aux, dp)
        for k in range(ST_SIZE):
            P[k] = W[k]
        playout(G, P, bone2, s, td, ed, pt, pe, rec, scratch)
        pd, wd = outcome(G, P, s)
        for k in range(ST_SIZE):
            P[k] = W[k]
        playout(G, P, bone2, s, to, eo, pt, pe, rec, scratch)
        po, wo = outcome(G, P, s)
        sd += pd
        so += po
        sw += wo - wd
    vals[DV_DOUBLE] = sd / nr
    vals[DV_OTHER] = so / nr
    vals[DV_GAIN] = (so - sd) / nr
    vals[DV_GAIN_WIN] = sw / nr


@entry
def record_decision(G, St, s, n, i, mv_t, mv_e, deal, scratch):
    """If seat s (to act, its n legal moves in mv_t/mv_e, its policy's choice i) faces a first-double
    decision, write its row (layout.DEC_NAMES) and, with rollouts, its values. ``deal``: the deal's
    index in the batch. Not inlined: compiled once, called once per turn while recording."""
    if St[FD_MOVE] != 0:
        return
    bd = class_best(G, St, mv_t, mv_e, n, True)
    if bd < 0:
        return
    bo = class_best(G, St, mv_t, mv_e, n, False)
    if bo < 0:
        return
    ctl = scratch[SX_DCTL]
    r = ctl[DCTL_ROWS]
    if r >= ctl[DCTL_CAP]:
        ctl[DCTL_LOST] += 1
        return
    move = St[NPL] + 1
    p = G[R_PLAYERS]
    ndm = 0
    for k in range(n):
        if G[TA + mv_t[k]] == G[TB + mv_t[k]]:
            ndm += 1
    row = scratch[SX_DROWS][r]
    b = seat_base(s)
    row[DEC_DEAL] = deal
    row[DEC_SEAT] = s
    row[DEC_MOVE] = move
    row[DEC_TURN] = turn_of(G, St, s)
    row[DEC_TIER_NOW] = tier_at(G, move)
    row[DEC_TIER_LATER] = tier_at(G, move + p)
    row[DEC_HELD] = doubles_held(G, St, s)
    row[DEC_UNSEEN] = unseen_doubles(G, St, s)
    row[DEC_OWN_PTS] = St[b + PTS] + St[b + BON]
    row[DEC_OPP_PTS] = best_opponent_points(G, St, s)
    row[DEC_LEGAL] = n
    row[DEC_DMOVES] = ndm
    row[DEC_BEST_D] = move_value(G, St, mv_t[bd], mv_e[bd])
    row[DEC_BEST_O] = move_value(G, St, mv_t[bo], mv_e[bo])
    row[DEC_FACE] = G[TA + mv_t[bd]]
    row[DEC_SUPPORT] = suit_count(G, St, s, G[TA + mv_t[bd]])
    row[DEC_SUITS] = suits_held(G, St, s)
    row[DEC_HAND] = St[b + HCNT]
    row[DEC_OPP_TILES] = opponent_tiles(G, St, s)
    row[DEC_BONE] = boneyard_left(St)
    row[DEC_CHOSE] = 1 if G[TA + mv_t[i]] == G[TB + mv_t[i]] else 0
    vals = scratch[SX_DVALS][r]
    nr = ctl[DCTL_ROLLOUTS]
    if nr > 0:
        key = decision_key(scratch[SX_DKEY][0], ctl[DCTL_DEAL0] + deal, move)
        value_candidates(G, St, s, mv_t[bd], mv_e[bd], mv_t[bo], mv_e[bo], nr, key, scratch, vals)
    ctl[DCTL_ROWS] = r + 1

"""The policy dispatch of the deal loops: the policies that search with the solver (clairvoyant, search),
else the one-move policies of kpolicies.py.

* ``clairvoyant`` (not a fair player: it reads every hand and the boneyard) plays the best move of the
  exact solver against the other seats' own policies (deterministic ones, checked in Python), or with
  ``against=minimax`` under the paranoid assumption;
* ``search`` (fair: it reads only what its seat may know) is determinised search: ``worlds`` deals of
  the hidden tiles sampled consistently with what the seat has seen (sampler.py, as rollout and
  analyze sample them), each searched by the solver for every legal move to a horizon of ``depth``
  placements (0: to the end), beyond it the other seats playing greedy and the seat itself greedy or
  defensive (``own``: a fair plan for its later moves, the same in every world): against greedy
  opponents (``model=greedy``) or under minimax (``model=minimax``); the move with the best summed margin
  (plus a bonus for each world where it wins the deal, ``win`` percent of the margins' spread) wins,
  ties to greedy's choice, then the first listed. Its worlds come from its seat's stream. With depth=1,
  own=greedy and win=0 it plays as rollout with as many samples, move for move.

The solver inside a deal loop (solve.py) asks kpolicies.choose for the other seats, never this
module: the two searching policies cannot be an opponent model.
"""
from __future__ import annotations

import numpy as np

from .jit import entry, kernel

from .greedy import greedy_move, greedy_pick, list_index
from .kexpert import allowed, expert_pick, sole_allowed, tie_break
from .kpolicies import choose as choose_basic
from .layout import (AGAINST_HANDS, AGAINST_NONE, AGAINST_READS_ALL, POL_DEFENSIVE, POL_PLAN, POL_TIMING, AUX_PREP, BY_MARGIN, BY_POINTS, MODEL_GREEDY, PAR_AGAINST, PAR_BY, PAR_DEPTH, PAR_NODES, PAR_MODEL, PAR_OWN, PAR_WIN, PAR_WORLDS, PAR_HOLD, HOLD_NEVER, FD_MOVE, POL_EXPERT,
                     PAR_E_WORLDS, PAR_E_INFER, PAR_E_EXACT, PAR_E_WIN, PAR_E_HOLD, PAR_E_MODEL, PAR_E_OWN, PAR_E_PLAN, SV_PLAN,
                     POL_CLAIRVOYANT, POL_GREEDY, POL_SEARCH, RNG_SEAT, SEARCH_TABLE_BITS, R_NT, R_PLAYERS, SV_AGAINST, SV_BY, SV_CLAIR, SV_HORIZON, SV_LIMIT, SV_NODES, SV_ABORTED, SV_ROOT, SV_SIDE, SV_TBITS, SV_OWN, OWN_DEFENSIVE, OWN_GREEDY, OWN_PLAN, TMASK,
                     SX_ACC, SX_AUX, SX_BONE, SX_DECK, SX_DP, SX_LOC, SX_POOL, SX_W,
                     V_CTL, V_IDS, V_OWN, V_PAR, V_RE, V_RT, V_RV, V_SIDES, V_TTK, VO_WINS)
from .moves import legal_moves
from .rng import GAMMA, mix64, next64
from .sampler import sample_world, unseen_tiles
from .sides import side_of
from .solve import solve_best, solve_root
from .solvetable import salt_of


@kernel
def set_sides(G, V):
    """Each seat's side (its own, or partners') for the solver: what its values are about."""
    sides = V[V_SIDES]
    for o in range(G[R_PLAYERS]):
        sides[o] = side_of(G, o)


@entry
def clairvoyant_pick(G, St, bone, s, ids, par, V):
    """(tile, end): the solver's best move for seat s against the other seats' policies (or minimax).

    Within its budget of positions (par[s, PAR_NODES], 0: none) the move is exact. Over it, the search
    deepens by horizons of 2, 4, 6, ... placements (greedy playing every seat beyond them) while the
    budget lasts, and plays the best move of the deepest search that finished (greedy's move if none
    did). The table is emptied at every new problem (another deal, seat or opponents): where the budget
    runs out then depends on the deal alone, not on the deals this process searched before."""
    ctl, ttk, vids, vpar = V[V_CTL], V[V_TTK], V[V_IDS], V[V_PAR]
    rt, re, rv = V[V_RT], V[V_RE], V[V_RV]
    by = BY_POINTS if par[s, PAR_BY] == 1 else BY_MARGIN
    ctl[SV_BY] = by
    ctl[SV_HORIZON] = 0
    ctl[SV_OWN] = OWN_GREEDY  # beyond its budget's horizons greedy plays every seat
    ctl[SV_TBITS] = 0  # the whole table: an exact solve of a deal fills millions of entries
    ctl[SV_AGAINST] = AGAINST_NONE
    if par[s, PAR_AGAINST] == 0:
        ctl[SV_AGAINST] = AGAINST_HANDS
        for o in range(G[R_PLAYERS]):
            if o != s and (ids[o] == POL_TIMING or ids[o] == POL_DEFENSIVE or ids[o] == POL_PLAN):
                ctl[SV_AGAINST] = AGAINST_READS_ALL
    set_sides(G, V)
    for o in range(G[R_PLAYERS]):
        vids[o] = ids[o]
        for k in range(par.shape[1]):
            vpar[o, k] = par[o, k]
    budget = np.int64(par[s, PAR_NODES])
    if budget > 0:
        ctl[SV_ROOT] = s
        ctl[SV_SIDE] = V[V_SIDES][s]
        # the value searched is part of the problem: a table of margins is not one of points
        salt = np.int64((salt_of(G, bone, V, bone.shape[0]) ^ (np.uint64(by) * GAMMA)) & np.uint64(0x7FFFFFFFFFFFFFFF))
        if salt != ctl[SV_CLAIR]:
            ttk[:] = 0
            ctl[SV_CLAIR] = salt
    ctl[SV_LIMIT] = budget
    ctl[SV_NODES] = 0
    b = solve_best(G, St, bone, V, rt, re, rv)
    if ctl[SV_ABORTED] == 0:
        return rt[b], re[b]
    left = budget - ctl[SV_NODES]
    bt, be = greedy_move(G, St, s, False)
    bt &= TMASK
    h = 2
    while left > 0 and h < G[R_NT]:
        ctl[SV_HORIZON] = h
        ctl[SV_LIMIT] = left
        ctl[SV_NODES] = 0
        b = solve_best(G, St, bone, V, rt, re, rv)
        if ctl[SV_ABORTED]:
            break
        bt, be = rt[b], re[b]
        left -= ctl[SV_NODES]
        h += 2
    ctl[SV_HORIZON] = 0
    ctl[SV_LIMIT] = 0
    return bt, be


@entry
def search_pick(G, St, s, worlds, model, depth, own, win, hold, key, mv_t, mv_e, n, scratch, V):
    """The index among seat s's n legal moves (mv_t, mv_e) of the move with the best margin summed over
    ``worlds`` sampled deals, each solved (see the module), plus a bonus for each world where the move's
    margin is above 0 (the seat's side wins the deal; half of it where the margin is 0, a tie at the top):
    ``win`` percent of the standard deviation of the margins over this decision's worlds and moves, so
    that a win weighs alike in games that score little (Threes) and much (Fives). ``hold`` = HOLD_NEVER:
    while no double is down and a double is legal, only the doubles are chosen among (kexpert.allowed)."""
    restricted = hold == HOLD_NEVER and St[FD_MOVE] == 0
    if restricted:
        one = sole_allowed(G, St, mv_t, n, hold)
        if one >= 0:
            return one
    W, bone2, pool, deck, loc, aux, dp, acc = (scratch[SX_W], scratch[SX_BONE], scratch[SX_POOL], scratch[SX_DECK],
                                               scratch[SX_LOC], scratch[SX_AUX], scratch[SX_DP], scratch[SX_ACC])
    ctl, vids, vpar = V[V_CTL], V[V_IDS], V[V_PAR]
    rt, re, rv, wins = V[V_RT], V[V_RE], V[V_RV], V[V_OWN][VO_WINS]
    ctl[SV_BY] = BY_MARGIN
    ctl[SV_AGAINST] = AGAINST_HANDS if model == MODEL_GREEDY else AGAINST_NONE
    ctl[SV_HORIZON] = depth
    ctl[SV_OWN] = own
    ctl[SV_TBITS] = SEARCH_TABLE_BITS  # each world's small trees: a table that stays in the cache
    set_sides(G, V)
    for o in range(G[R_PLAYERS]):
        vids[o] = POL_GREEDY
        for k in range(vpar.shape[1]):
            vpar[o, k] = 0.0
    aux[AUX_PREP] = 0  # a new position: the sampler's counting tables are built again if needed
    for i in range(n):
        acc[i] = 0.0
        wins[i] = 0
    s1 = 0.0
    s2 = 0.0
    u = unseen_tiles(G, St, s, pool)
    for j in range(worlds):
        loc[0] = mix64(key + np.uint64(j + 1) * GAMMA)
        sample_world(G, St, s, W, bone2, pool, np.int64(u), deck, loc, aux, dp)
        m = solve_root(G, W, bone2, V, rt, re, rv)
        for i in range(m):  # the same list as (mv_t, mv_e): the same hand and layout in every world
            v = rv[i]
            acc[i] += v
            s1 += v
            s2 += v * v
            wins[i] += 2 if v > 0 else (1 if v == 0 else 0)  # in halves
    c = worlds * n
    if win > 0 and c > 1:
        sd = np.sqrt(max(0.0, (s2 - s1 * s1 / c) / (c - 1)))
        for i in range(n):
            acc[i] += win / 100.0 * sd * wins[i] / 2.0
    if restricted:
        best = tie_break(G, St, s, mv_t, mv_e, n, hold)
        for i in range(n):
            if allowed(G, St, mv_t, n, hold, i) and acc[i] > acc[best]:
                best = i
        return best
    best = greedy_pick(G, St, mv_t, mv_e, n, False, scratch)
    for i in range(n):
        if acc[i] > acc[best]:
            best = i
    return best


@kernel
def choose(G, St, bone, s, ids, par, rng, mv_t, mv_e, scratch, V):
    """(tile, end): the move seat s's policy ids[s] (parameters par[s]) chooses; seat s holds a legal
    move. ``bone``: the true boneyard (only clairvoyant reads it)."""
    pid = ids[s]
    if pid == POL_EXPERT:  # called at every placement of the seat, a single legal move too: its memory
        n = legal_moves(G, St, s, mv_t, mv_e)
        key = next64(rng, RNG_SEAT + s) if n > 1 else np.uint64(0)
        ctl = V[V_CTL]
        for k in range(4):  # the own plan's weights (expert:own=plan), in thousandths
            ctl[SV_PLAN + k] = np.int64(np.round(par[s, PAR_E_PLAN + k] * 1000.0))
        i = expert_pick(G, St, s, np.int64(par[s, PAR_E_WORLDS]), par[s, PAR_E_INFER], np.int64(par[s, PAR_E_EXACT]),
                        par[s, PAR_E_WIN], np.int64(par[s, PAR_E_HOLD]), np.int64(par[s, PAR_E_MODEL]),
                        OWN_PLAN if par[s, PAR_E_OWN] == 1.0 else OWN_DEFENSIVE, key, mv_t, mv_e,
                        n, scratch, V)
        return mv_t[i], mv_e[i]
    if pid == POL_CLAIRVOYANT or pid == POL_SEARCH:
        n = legal_moves(G, St, s, mv_t, mv_e)
        if n == 1:
            return mv_t[0], mv_e[0]
        if pid == POL_CLAIRVOYANT:
            return clairvoyant_pick(G, St, bone, s, ids, par, V)
        i = search_pick(G, St, s, np.int64(par[s, PAR_WORLDS]), np.int64(par[s, PAR_MODEL]),
                        np.int64(par[s, PAR_DEPTH]), np.int64(par[s, PAR_OWN]), par[s, PAR_WIN],
                        np.int64(par[s, PAR_HOLD]), next64(rng, RNG_SEAT + s), mv_t, mv_e, n, scratch, V)
        return mv_t[i], mv_e[i]
    return choose_basic(G, St, s, pid, par[s], rng, mv_t, mv_e, scratch)


@entry
def choose_entry(G, St, bone, s, ids, par, rng, mv_t, mv_e, n, scratch, V):
    """:func:`choose` called from Python (DealState.choice, tests): the index of the chosen move in the
    list of seat s's n legal moves in mv_t/mv_e (listed again by the policies that need a list)."""
    t, e = choose(G, St, bone, s, ids, par, rng, mv_t, mv_e, scratch, V)
    return list_index(mv_t, mv_e, n, t, e)

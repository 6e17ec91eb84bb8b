"""Build the kernel's game data ``G`` from a validated :class:`~simdom.rules.Rules` (layout.py)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...rules import Rules
from ...tiles import halves, n_tiles
from .layout import (RB_N, RBX, BLOCK_NONE, BLOCK_OPP_MINUS_OWN, BLOCK_OPP_PIPS, BONUS, DBLM, EXPC, EXPM, EXP_ROWS, G_SIZE, MAX_TILES, MEND_DEAL, PMX,
                     MEND_EXACT, MEND_IMMEDIATE, NEXT_HAND_WINNER, NEXT_ROTATE, NEXT_RULES, OUT_FIXED, OUT_NONE,
                     OUT_OPP_PIPS, PIPS, POINTS_FIXED, POINTS_QUOTIENT, POINTS_SUM, R_ARMS_AFTER, R_BLOCK_MODE,
                     R_DBL_BOTH, R_DIV, R_DRAW, R_HAND, R_LEAD_TILE, R_MATCH_END, R_MAXPIP, R_MAX_DEALS,
                     R_MIN_ENDS, R_NEXT_LEAD, R_NT, R_NV, R_OUT_MODE, R_OUT_N, R_PLAYERS, R_POINTS_MODE,
                     R_POINTS_N, R_PMAX, R_BMAX, R_RESERVE, R_ROUND, R_SIZE, R_SMAX, R_SPINNER, R_TARGET, R_TEAMS, R_W, SCORE,
                     SCORE_ROW, TA, TB, TEAMS_NONE, TEAMS_PARTNERS, VM)

NO_LIMIT = 1 << 30


def score_table(R, divisors):
    """SCORE[k, S]: a placement scores when k >= min_ends, S > 0 and some divisor divides S (docs/rules.md 4)."""
    smax = R[R_SMAX]
    out = np.zeros((5, smax + 1), dtype=np.int64)
    for k in range(5):
        if k < R[R_MIN_ENDS]:
            continue
        for s in range(1, smax + 1):
            q = 0
            hit = False
            for d in divisors:
                if s % d == 0:
                    hit = True
                    q += s // d
            if not hit:
                continue
            mode = R[R_POINTS_MODE]
            if mode == POINTS_FIXED:
                out[k, s] = R[R_POINTS_N]
            elif mode == POINTS_SUM:
                out[k, s] = s
            else:
                out[k, s] = q
    return out


def bonus_table(nt, last_moves, points):
    """BONUS[m]: points of the first pair whose last_move >= m (0 if none covers m)."""
    out = np.zeros(nt + 2, dtype=np.int64)
    for m in range(1, nt + 2):
        for i in range(last_moves.shape[0]):
            if last_moves[i] >= m:
                out[m] = points[i]
                break
    return out


def rules_vector(rules: Rules) -> np.ndarray:
    """The kernel's rules vector R from the typed rules (their values parsed once, in simdom.rules)."""
    from ...rules import ArmsOpen, BlockBonus, DoubleCounts, Draw, MatchEnd, NextLead, OutMode, PointsMode, Spinner, Teams
    from ...tiles import tile_index
    R = np.zeros(R_SIZE, dtype=np.int64)
    nt = n_tiles(rules.max_pip)
    R[R_MAXPIP] = rules.max_pip
    R[R_NT] = nt
    R[R_NV] = rules.max_pip + 1
    R[R_W] = (nt + 63) // 64
    R[R_PLAYERS] = rules.players
    R[R_HAND] = rules.hand
    R[R_RESERVE] = rules.reserve
    R[R_DRAW] = rules.draw == Draw.UNTIL_PLAYABLE
    R[R_LEAD_TILE] = -1 if rules.lead.halves is None else tile_index(*rules.lead.halves, rules.max_pip)
    R[R_SPINNER] = rules.spinner == Spinner.FIRST_DOUBLE
    R[R_ARMS_AFTER] = rules.arms_open == ArmsOpen.AFTER_BOTH_SIDES
    R[R_DBL_BOTH] = rules.double_counts == DoubleCounts.BOTH
    R[R_MIN_ENDS] = rules.min_ends
    R[R_POINTS_MODE] = {PointsMode.FIXED: POINTS_FIXED, PointsMode.SUM: POINTS_SUM,
                        PointsMode.QUOTIENT: POINTS_QUOTIENT}[rules.points.mode]
    R[R_POINTS_N] = rules.points.n
    R[R_OUT_MODE] = {OutMode.FIXED: OUT_FIXED, OutMode.NONE: OUT_NONE,
                     OutMode.OPPONENTS_PIPS: OUT_OPP_PIPS}[rules.out_bonus.mode]
    R[R_OUT_N] = rules.out_bonus.n
    R[R_BLOCK_MODE] = {BlockBonus.NONE: BLOCK_NONE, BlockBonus.OPPONENTS_PIPS: BLOCK_OPP_PIPS,
                       BlockBonus.OPPONENTS_MINUS_OWN: BLOCK_OPP_MINUS_OWN}[rules.block_bonus]
    R[R_ROUND] = rules.bonus_round_to
    R[R_DIV] = rules.bonus_divisor
    R[R_SMAX] = 4 * 2 * rules.max_pip
    R[R_TARGET] = rules.target
    R[R_MATCH_END] = {MatchEnd.DEAL_END: MEND_DEAL, MatchEnd.IMMEDIATE: MEND_IMMEDIATE,
                      MatchEnd.EXACT: MEND_EXACT}[rules.match_end]
    R[R_NEXT_LEAD] = {NextLead.RULES: NEXT_RULES, NextLead.HAND_WINNER: NEXT_HAND_WINNER,
                      NextLead.ROTATE: NEXT_ROTATE}[rules.next_lead]
    R[R_TEAMS] = {Teams.NONE: TEAMS_NONE, Teams.PARTNERS: TEAMS_PARTNERS}[rules.teams]
    R[R_MAX_DEALS] = rules.max_deals
    return R


@lru_cache(maxsize=64)
def compile_rules(rules: Rules) -> np.ndarray:
    """The kernel's game table G (layout.py: G[R_PLAYERS], G[TA + t], ...) for ``rules``."""
    return build_game(rules_vector(rules), rules.max_pip, rules.divisors, rules.first_double_bonus)


def build_game(R: np.ndarray, max_pip: int, divisors, first_double_bonus) -> np.ndarray:
    """G from the rules vector and the rules' tables: one flat read-only int64 table (layout.py)."""
    ta, tb = halves(max_pip)
    nt = len(ta)
    G = np.zeros(G_SIZE, dtype=np.int64)
    G[:R_SIZE] = R
    G[TA:TA + nt] = ta
    G[TB:TB + nt] = tb
    G[PIPS:PIPS + nt] = ta + tb
    for t in range(nt):
        bit = np.int64(1) << np.int64(t & 63)
        G[VM + 2 * ta[t] + (t >> 6)] |= bit
        G[VM + 2 * tb[t] + (t >> 6)] |= bit
        if ta[t] == tb[t]:
            G[DBLM + (t >> 6)] |= bit
    score = score_table(R, np.array(divisors, dtype=np.int64))
    assert score.shape[1] <= SCORE_ROW and nt <= MAX_TILES and max_pip < 16
    G[SCORE:SCORE + 8 * SCORE_ROW].reshape(8, SCORE_ROW)[:score.shape[0], :score.shape[1]] = score
    last = np.array([NO_LIMIT if lm is None else lm for lm, _ in first_double_bonus], dtype=np.int64)
    pts = np.array([p for _, p in first_double_bonus], dtype=np.int64)
    bonus = bonus_table(nt, last, pts)
    G[BONUS:BONUS + len(bonus)] = bonus
    G[R_PMAX] = int(score.max()) if score.size else 0
    both = bool(R[R_DBL_BOTH])
    for t in range(nt):  # the most an end counts with tile t outermost (solvebounds.placement_max)
        e = 2 * ta[t] if (ta[t] == tb[t] and both) else max(ta[t], tb[t])
        G[EXPM + 2 * e + (t >> 6)] |= np.int64(1) << np.int64(t & 63)
    for e in range(EXP_ROWS):  # tiles whose count is at most e (solvebounds.tiles_max)
        G[EXPC + 2 * e:EXPC + 2 * e + 2] = G[EXPM + 2 * e:EXPM + 2 * e + 2] | (G[EXPC + 2 * e - 2:EXPC + 2 * e] if e else 0)
    G[PMX:PMX + score.shape[1]] = np.maximum.accumulate(score.max(axis=0))
    G[PMX + score.shape[1]:PMX + SCORE_ROW] = G[R_PMAX]
    G[R_BMAX] = int(bonus.max()) if len(bonus) else 0
    p = np.arange(RB_N, dtype=np.int64)  # core.round_bonus for every pip count
    q = R[R_ROUND]
    G[RBX:RBX + RB_N] = ((2 * p + q) // (2 * q)) * q // R[R_DIV]
    G.setflags(write=False)
    return G

"""Sides: every seat its own, or partners in a partnership match (docs/rules.md 12), and the settlement
of a deal by side (the end bonus to the hand winner's side)."""
from __future__ import annotations

from .jit import kernel

from .core import finish, round_bonus
from .layout import (BLOCK_OPP_MINUS_OWN, BLOCK_OPP_PIPS, EB, ENDED, END_DOMINO, HPIPS, OUT_FIXED, OUT_OPP_PIPS,
                     R_BLOCK_MODE, R_OUT_MODE, R_OUT_N, R_PLAYERS, R_TEAMS, TEAMS_PARTNERS, WINNER)
from .moves import seat_base


@kernel
def partners(G):
    return G[R_TEAMS] == TEAMS_PARTNERS


@kernel
def side_of(G, s):
    """The side of seat s: itself, or with partners seat s % 2 (seats 0, 2 = side 0; 1, 3 = side 1)."""
    return s & 1 if partners(G) else s


@kernel
def n_sides(G):
    return 2 if partners(G) else G[R_PLAYERS]


@kernel
def finish_sides(G, St):
    """Settle a partners' deal (docs/rules.md 12, 'Partners'): the end bonus goes to the hand winner's side,
    written on the seat that dominoed, or in a blocked deal on the winning side's seat with the fewest
    pips (the lower seat on a tie), which becomes St[WINNER]. opponents_pips is the other side's two
    hands; in a blocked deal the side with fewer pips wins (a tie: no winner)."""
    p0 = St[seat_base(0) + HPIPS] + St[seat_base(2) + HPIPS]
    p1 = St[seat_base(1) + HPIPS] + St[seat_base(3) + HPIPS]
    if St[ENDED] == END_DOMINO:
        w = St[WINNER]
        opp = p1 if (w & 1) == 0 else p0
        mode = G[R_OUT_MODE]
        if mode == OUT_FIXED:
            St[seat_base(w) + EB] = G[R_OUT_N]
        elif mode == OUT_OPP_PIPS:
            St[seat_base(w) + EB] = round_bonus(G, opp)
        return
    if p0 == p1:
        St[WINNER] = -1
        return
    ws = 0 if p0 < p1 else 1
    own = p0 if ws == 0 else p1
    opp = p1 if ws == 0 else p0
    w = ws if St[seat_base(ws) + HPIPS] <= St[seat_base(ws + 2) + HPIPS] else ws + 2
    St[WINNER] = w
    mode = G[R_BLOCK_MODE]
    if mode == BLOCK_OPP_PIPS:
        St[seat_base(w) + EB] = round_bonus(G, opp)
    elif mode == BLOCK_OPP_MINUS_OWN:
        St[seat_base(w) + EB] = round_bonus(G, opp - own)


@kernel
def settle(G, St):
    """The end of a deal of these rules: by seat (section 7) or, with partners, by side."""
    if partners(G):
        finish_sides(G, St)
    else:
        finish(G, St)

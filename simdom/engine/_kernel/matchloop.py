"""Matches and partnerships (docs/rules.md 12) in the kernel: the match loop of deals, side scores and
credits, the three end rules, the lead of the next deal, and partners' end bonus by side.

A deal of a match is played by the same rules functions as a single deal (core.py) and the same
policies (kpolicies.py), which judge moves by the deal's points; only what the match credits, and
when the match stops a deal, is decided here. The match state is ``M`` (layout.py, offsets ``M_*``).
"""
from __future__ import annotations

from .jit import entry, kernel

from .batch import collect
from .sides import n_sides, settle, side_of
from .core import deal_random, forced, next_seat, place, record, seat_total
from .moves import seat_base
from .kchoose import choose
from .layout import (ACT_PLAY, CNT_DEALS, CNT_RECORDS, EB, EMASK, ENDED,
                     END_DOMINO, END_TARGET, FIRST, FORCED, MAX_SIDES, MD_BEFORE, MD_CRED, MD_HAND, MD_LEAD,
                     MD_MATCH, MEND_DEAL, MEND_EXACT, MM_DEALS, MM_MATCH, MM_SCORE, MM_WINNER, M_BEFORE, M_CRED,
                     M_SCORE, M_WON, NEXT_HAND_WINNER, NEXT_ROTATE, REC_NONE,
                     R_MATCH_END, R_MAX_DEALS, R_NEXT_LEAD, R_PLAYERS, R_TARGET,
                     SMASK, TURN, WINNER)
from .rng import match_deal_key, seed_key


@kernel
def credit(G, M, side, c):
    """Credit c points (one placement's points plus bonus, or an end bonus) to ``side`` under
    immediate or exact; returns 1 when this credit wins the match (and records the winner).
    exact: all or nothing, a credit that would pass the target is not counted."""
    T = G[R_TARGET]
    if c <= 0:
        return 0
    new = M[M_SCORE + side] + c
    if G[R_MATCH_END] == MEND_EXACT:
        if new > T:
            return 0
        M[M_SCORE + side] = new
        M[M_CRED + side] += c
        if new == T:
            M[M_WON] = side
            return 1
        return 0
    M[M_SCORE + side] = new
    M[M_CRED + side] += c
    if new >= T:
        M[M_WON] = side
        return 1
    return 0


@kernel
def credit_deal_end(G, St, M):
    """After a settled deal: credit its end bonus (immediate, exact), or the whole deal's totals and
    then the deal_end rule (a side with >= T and alone on the highest score wins)."""
    n = G[R_PLAYERS]
    if G[R_MATCH_END] != MEND_DEAL:
        for s in range(n):
            eb = St[seat_base(s) + EB]
            if eb > 0:
                credit(G, M, side_of(G, s), eb)
        return
    for s in range(n):
        tot = seat_total(St, s)
        j = side_of(G, s)
        M[M_SCORE + j] += tot
        M[M_CRED + j] += tot
    best = -1
    ties = 0
    for j in range(n_sides(G)):
        v = M[M_SCORE + j]
        if best < 0 or v > M[M_SCORE + best]:
            best = j
            ties = 1
        elif v == M[M_SCORE + best]:
            ties += 1
    if ties == 1 and M[M_SCORE + best] >= G[R_TARGET]:
        M[M_WON] = best


@kernel
def play_match_deal(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, V, rec, nrec, rec_mode, deal, M):
    """Play the deal in St as a deal of the match in M. Under immediate / exact, each placement's
    points and bonus are credited as they arise, and a placement that wins the match stops the deal
    there (St[ENDED] = END_TARGET: no further action, no end bonus). Returns the new nrec."""
    mid = G[R_MATCH_END] != MEND_DEAL
    while True:
        mover, nrec = forced(G, St, bone, rec, nrec, rec_mode, deal)
        if not mover:
            break
        s = St[TURN] & SMASK
        t, e = choose(G, St, bone, s, pol_ids, pol_params, rng, mv_t, mv_e, scratch, V)
        t &= 127
        e &= EMASK
        pts, bonus, k, ssum = place(G, St, s, t, e)
        if rec_mode != REC_NONE:
            nrec = record(rec, nrec, deal, s, ACT_PLAY, t, e, pts, bonus, k, ssum)
        if mid and credit(G, M, side_of(G, s), pts + bonus):
            St[ENDED] = END_TARGET
            St[WINNER] = -1
            return nrec
    settle(G, St)
    credit_deal_end(G, St, M)
    return nrec


@kernel
def next_leader(G, St):
    """Who leads the deal after the one in St (docs/rules.md 12, next_lead): a seat, leading any tile, or
    -1 for the rules' lead (section 6)."""
    mode = G[R_NEXT_LEAD]
    if mode == NEXT_HAND_WINNER:
        return St[WINNER] if St[ENDED] == END_DOMINO else -1
    if mode == NEXT_ROTATE:
        return next_seat(G, St[FIRST])
    return -1


@kernel
def deal_led_by(G, St, bone, perm, rng, lead):
    """Shuffle and deal (core.deal_random); then, unless lead is -1, seat ``lead`` leads any tile."""
    deal_random(G, St, bone, perm, rng)
    if lead >= 0:
        St[FIRST] = lead
        St[TURN] = lead
        St[FORCED] = -1


@kernel
def new_match(M):
    for j in range(MAX_SIDES):
        M[M_SCORE + j] = 0
        M[M_BEFORE + j] = 0
        M[M_CRED + j] = 0
    M[M_WON] = -1


@entry
def run_matches(G, pol_ids, pol_params, root, match0, nmatches, seat_out, deal_out, mdeal_out, match_out, rec,
                rec_mode, work, M, counts):
    """Play matches match0 .. match0 + nmatches - 1 under root key ``root`` (uint64), while the deal
    rows have room for a whole match (max_deals). Returns the number of matches played, m.

    Per deal d (in play order): row d of seat_out (int32[len(SEAT_COLS), players, rows]) and deal_out
    (int32[len(DEAL_COLS), rows]) as run_batch's (``end`` may be END_TARGET), mdeal_out[d]: int32[MD_SIZE].
    Per match: match_out[i]: int32[MM_SIZE]. rec: action records as run_batch, first column d.
    counts[CNT_DEALS], counts[CNT_RECORDS]: deals and records written. ``work``: make_work arrays;
    M: int64[M_SIZE].
    """
    St, bone, perm, rng, mv_t, mv_e, scratch, V = work
    cap = deal_out.shape[1]
    maxd = G[R_MAX_DEALS]
    ns = n_sides(G)
    nrec = 0
    d = 0
    m = 0
    while m < nmatches and cap - d >= maxd:
        match = match0 + m
        new_match(M)
        lead = -1
        h = 0
        while True:
            for j in range(ns):
                M[M_BEFORE + j] = M[M_SCORE + j]
                M[M_CRED + j] = 0
            seed_key(rng, match_deal_key(root, match, h))
            deal_led_by(G, St, bone, perm, rng, lead)
            nrec = play_match_deal(G, St, bone, rng, pol_ids, pol_params, mv_t, mv_e, scratch, V, rec, nrec,
                                   rec_mode, d, M)
            collect(G, St, seat_out, deal_out, d)
            row = mdeal_out[d]
            row[MD_MATCH] = match
            row[MD_HAND] = h
            row[MD_LEAD] = lead
            for j in range(MAX_SIDES):
                row[MD_BEFORE + j] = M[M_BEFORE + j]
                row[MD_CRED + j] = M[M_CRED + j]
            d += 1
            h += 1
            if M[M_WON] >= 0 or h >= maxd:
                break
            lead = next_leader(G, St)
        out = match_out[m]
        out[MM_MATCH] = match
        out[MM_DEALS] = h
        out[MM_WINNER] = M[M_WON]
        for j in range(MAX_SIDES):
            out[MM_SCORE + j] = M[M_SCORE + j]
        m += 1
    counts[CNT_DEALS] = d
    counts[CNT_RECORDS] = nrec
    return m


@entry
def deal_key(root, match, hand):
    """:func:`match_deal_key` from Python: the deal's own 64-bit key (its trace ``seed``)."""
    return match_deal_key(root, match, hand)


@entry
def new_match_deal(G, St, bone, perm, rng, key, lead):
    """Set up the deal of key ``key`` in St/bone as the match kernel deals it (lead: -1 or a seat)."""
    seed_key(rng, key)
    deal_led_by(G, St, bone, perm, rng, lead)


step_settle = entry(settle.py_func)
step_credit = entry(credit.py_func)
step_credit_deal_end = entry(credit_deal_end.py_func)
step_next_leader = entry(next_leader.py_func)

"""The match equity table (``simdom equity``, docs/equity.md): deals sampled, then the exact-score DP.

* :func:`sample_deals` plays ``deals`` deals of the match's rules by the match kernel and keeps, for each,
  what the match equity needs: who led it (the rules' lead, or the seat ``next_lead`` named), its first
  seat, the lead of the deal after it, each side's credited points (the deal's totals, as ``deal_end``
  credits them) and, under ``immediate`` and ``exact``, the credits in the order the match kernel makes
  them (every placement's points plus bonus as it is placed, then each seat's end bonus in seat order).
  The deals are those of matches of the same rules with ``deal_end``, a target no side reaches and
  ``max_deals`` = a few deals: the policies do not see the match's scores, so a deal led by a given seat
  is played the same whatever the scores; the match's own end rule is applied to the credits by the DP
  (simdom.stats.matches.met).
* :func:`equity` validates like the command line, samples, solves and returns the
  :class:`~simdom.stats.matches.met.EquityTable`.
* :func:`play_from` plays matches to their end from chosen scores with ``MatchState`` (the check).
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import numpy as np

from ..engine.codes import DealEnd, Records
from ..engine.matches import MatchDeal, MatchState, deal_seed, sides, simulate_matches
from ..engine.pyloop import key_streams, play_python
from ..policies import Policy, seat_policies
from ..present import MAX_SEED, OptionError, bounded
from ..rules import Rules, RulesError
from ..stats.matches.met import DealSample, EquityTable, batch_answers, solve_table

#: the most deals a table is computed from (about 100 bytes a deal held in memory, events included)
MAX_DEALS = 20_000_000
#: deals played per call of the match kernel (its records are held per call)
CHUNK = 50_000
#: the batches behind the answer's precision are solved when the table's work (scores times distinct deal
#: outcomes, simdom.stats.matches.met) is at most this: a few seconds (2-player Fives to 500 from 1M deals: 1.4e9)
PRECISION_WORK = 5_000_000_000
#: the target of the sampling matches: no side reaches it in a few deals
_FAR = 100_000


def _deals_per_match(rules: Rules) -> int:
    """Deals per sampling match: one lead condition each (the rules' lead first, then next_lead's)."""
    if rules.next_lead == "rules":
        return 8
    return rules.players + 1 if rules.next_lead == "rotate" else 4


def _next_cond(rules: Rules, first: np.ndarray, end: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """The lead condition of the deal after each deal: 0 = the rules' lead, 1 + s = seat s leads any tile
    (matchloop.next_leader)."""
    if rules.next_lead == "hand_winner":
        return np.where(end == int(DealEnd.DOMINO), winner + 1, 0).astype(np.int8)
    if rules.next_lead == "rotate":
        return ((first + 1) % rules.players + 1).astype(np.int8)
    return np.zeros(len(first), np.int8)


def _events(rules: Rules, b, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(offsets int64[rows + 1], side int8[E], points int32[E]): each deal's credits in the order the
    match kernel makes them under immediate / exact; a credit of 0 is no credit."""
    rec = b.records
    deal = rec["deal"].astype(np.int64)
    seat = rec["seat"].astype(np.int64)
    pts = (rec["points"] + rec["bonus"]).astype(np.int64)
    order = np.arange(len(deal), dtype=np.int64)
    d_eb, s_eb, p_eb = [], [], []
    for s in range(rules.players):
        eb = b.deals[f"end_bonus_{s}"].astype(np.int64)
        d_eb.append(np.arange(rows, dtype=np.int64))
        s_eb.append(np.full(rows, s, np.int64))
        p_eb.append(eb)
    deal = np.concatenate([deal, *d_eb])
    seat = np.concatenate([seat, *s_eb])
    pts = np.concatenate([pts, *p_eb])
    order = np.concatenate([order, len(order) + np.arange(rows * rules.players, dtype=np.int64)])
    keep = (pts != 0) & (deal < rows)
    deal, seat, pts, order = deal[keep], seat[keep], pts[keep], order[keep]
    idx = np.lexsort((order, deal))
    deal, seat, pts = deal[idx], seat[idx], pts[idx]
    side = seat % 2 if rules.teams == "partners" else seat
    off = np.zeros(rows + 1, np.int64)
    np.add.at(off, deal + 1, 1)
    return np.cumsum(off), side.astype(np.int8), pts.astype(np.int32)


def sample_deals(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", deals: int, seed: int,
                 progress: Callable[[int, int], None] | None = None) -> DealSample:
    """``deals`` deals of the match ``rules`` (see the module doc), from root ``seed``."""
    pols = seat_policies(policies, rules.players)
    k = _deals_per_match(rules)
    play = dataclasses.replace(rules, target=_FAR, match_end="deal_end", max_deals=k)
    events = rules.match_end != "deal_end"
    ns = len(sides(rules))
    parts = []
    done = match0 = 0
    while done < deals:
        todo = min(CHUNK, deals - done)
        n_m = -(-todo // k)
        b = simulate_matches(play, pols, seed, match0, n_m, records=Records.PLAYS if events else False)
        if (b.matches["winner"] >= 0).any():  # pragma: no cover - a deal of 100,000 points
            raise RuntimeError("a sampling match reached its target")
        rows = min(todo, b.n_deals)
        D = b.deals
        first = D["first_seat"][:rows].astype(np.int64)
        cond = np.where(D["rules_lead"][:rows], 0, first + 1).astype(np.int8)
        nxt = _next_cond(rules, first, D["end"][:rows], D["hand_winner"][:rows].astype(np.int64))
        credit = np.stack([D[f"credited_{j}"][:rows] for j in range(ns)], axis=1).astype(np.int32)
        ev = _events(rules, b, rows) if events else None
        parts.append((cond, first.astype(np.int8), nxt, credit, ev))
        done += rows
        match0 += n_m
        if progress is not None:
            progress(done, deals)
    cat = [np.concatenate([p[i] for p in parts]) for i in range(4)]
    ev_off = ev_side = ev_pts = None
    if events:
        offs, sides_, pts = [], [], []
        base = 0
        for p in parts:
            o, s, q = p[4]
            offs.append(o[:-1] + base)
            base += int(o[-1])
            sides_.append(s)
            pts.append(q)
        ev_off = np.concatenate([*offs, np.array([base], np.int64)])
        ev_side, ev_pts = np.concatenate(sides_), np.concatenate(pts)
    return DealSample(rules=rules, policy=", ".join(dict.fromkeys(map(str, pols))), seed=int(seed), deals=int(deals),
                      cond=cat[0], first=cat[1], nxt=cat[2], credit=cat[3], ev_off=ev_off, ev_side=ev_side,
                      ev_pts=ev_pts)


def check_request(rules: Rules, deals: int, seed: int, scores: Sequence[Sequence[int]] = (), *,
                  cli: bool = False) -> None:
    """The checks of ``simdom equity`` and :func:`simdom.equity` (OptionError / RulesError, one line each)."""
    if not isinstance(rules, Rules):
        raise RulesError(f"rules = {rules!r}; allowed: a simdom.Rules or a preset name")
    if not rules.is_match:
        raise RulesError("rules: target = 0 is not a match, so there is no match equity; allowed: target > 0 "
                         "(docs/matches.md), e.g. --set target=100")
    bounded("deals", deals, 1_000, MAX_DEALS, cli=cli)
    bounded("seed", seed, 0, MAX_SEED, cli=cli)
    ns = len(sides(rules))
    for sc in scores:
        if len(sc) != ns:
            raise OptionError(f"--score {','.join(map(str, sc))}: {len(sc)} score(s) for {ns} sides; allowed: "
                              f"{ns} scores, one per side ({'seats 0+2, 1+3' if ns == 2 and rules.players == 4 else 'seat order'})")
        for x in sc:
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 0 <= x < rules.target:
                raise OptionError(f"--score {','.join(map(str, sc))}: {x} is not a score before a deal; allowed: "
                                  f"integers from 0 to {rules.target - 1} (target {rules.target}: a side at or "
                                  "above it has won)")


def equity(rules: Rules, policies: "str | Policy | Sequence[str | Policy]" = "greedy", deals: int = 1_000_000,
           seed: int = 1, progress: Callable[[str, int, int], None] | None = None, *, cli: bool = False) -> EquityTable:
    """The match equity table of ``rules`` under ``policies`` from ``deals`` sampled deals (docs/equity.md).
    ``progress(stage, done, total)``: stage ``deals`` while sampling, ``scores`` while solving."""
    check_request(rules, deals, seed, cli=cli)
    seat_policies(policies, rules.players)  # an unknown policy: PolicyError before any work
    tick = None if progress is None else (lambda d, t: progress("deals", d, t))
    sample = sample_deals(rules, policies, deals, seed, tick)
    table = solve_table(sample, None if progress is None else (lambda d, t: progress("scores", d, t)))
    if table.extra["work"] <= PRECISION_WORK:
        table.extra["batches"] = batch_answers(sample)
    return table


def play_from(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", scores: Sequence[int],
              lead: int | None, matches: int, seed: int, match0: int = 0) -> np.ndarray:
    """Matches ``match0 ..`` played to their end from ``scores`` before a deal led by ``lead`` (None: the
    rules' lead) with :class:`MatchState` (engine/matches.py), each deal from its own key as the match
    kernel deals it: int64[sides + 1], the matches each side won, then those with no winner (max_deals)."""
    pols = seat_policies(policies, rules.players)
    won = np.zeros(len(sides(rules)) + 1, np.int64)
    for m in range(match0, match0 + matches):
        ms = MatchState(rules, scores=list(scores))
        ld = lead
        for hand in range(rules.max_deals):
            ms.begin_deal()
            key = deal_seed(seed, m, hand)
            deal = MatchDeal.dealt(rules, key, ld)
            play_python(deal, pols, key_streams(key), scores=ms.before,
                        place=lambda t, e, deal=deal: ms.play(deal, t, e),
                        done=lambda deal=deal: deal.ended == DealEnd.TARGET)
            ms.end_deal(deal)
            if ms.winner is not None:
                break
            ld = ms.next_leader(deal)
        won[-1 if ms.winner is None else ms.winner] += 1
    return won


__all__ = ["CHUNK", "MAX_DEALS", "check_request", "equity", "play_from", "sample_deals"]

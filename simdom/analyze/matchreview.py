"""A whole match reviewed hand by hand (``simdom review --trace FILE --match K``).

The match's deal records are re-stepped by the engine first (deal/matchtrace.py: leads, hands, actions,
credits and match objects checked), so a tampered record is refused, not reviewed. Each hand is then a
:class:`~simdom.analyze.position.Deal` (its hands, boneyard, the seat that led, its placements; a hand led
by ``next_lead`` may open with any tile, as the match engine plays it) and is reviewed exactly as
``simdom review`` reviews one deal (analyze/review.py), with the same seed: a match of one hand gives the
decisions of that deal reviewed alone (tested).

Values are per deal by default: every value, error and luck is in expected points *of the deal* (the
mover's final points for that hand, played out by the continuation policy with the match target ignored);
the scores before each hand are shown beside it, not valued. With ``by="match"`` (``--by match``) each
decision is valued in **match equity** at the scores before its hand (analyze/matchvalue.py: each
rollout's end added to those scores and read from the match equity table), so an error is the match
equity it lost; the luck stays in points of the deal. With partners the rollouts settle
each deal seat by seat (the end bonus to the seat that went out or won on pips), not by side. The points
of a hand are the record's (what the match engine settled); a hand the match stopped at the target has
the points scored up to the winning placement.

Per player, every total is the sum over the hands: decisions counted (not forced), error, luck and
points; the error per decision is the total error over the decisions counted.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..deal.matchtrace import Hand, MatchReplayError, match_records, read_records, replay_match
from ..deal.records import RecordError, ReplayError
from ..engine.codes import End
from ..rules import Rules
from ..tiles import parse_tile
from .position import Deal, PositionError
from .review import (LUCK_ROLLOUTS, MARKS_BY, ROLLOUTS, SCALE, UNIT, Player, Review, _move_text, amount, luck_clause,
                     review, to_json)


@dataclass
class HandReview:
    hand: int                       #: the hand's number in the match (0, 1, ...)
    deal: int                       #: its deal number in the trace file
    first: int                      #: the seat that led
    next_lead: bool                 #: led by next_lead (any tile) rather than the rules' lead
    before: list[int]               #: the sides' scores before the hand
    credited: list[int]
    after: list[int]
    points: list[int]               #: the hand's points per seat (the record's)
    end: str | None                 #: domino, blocked or target (the match stopped the deal)
    review: Review


@dataclass
class MatchReview:
    match: int
    rules: Rules
    names: list[str]
    hands: list[HandReview]
    players: list[Player]  #: per seat, totals over the match's hands
    winner: int | None              #: the winning side (None: max_deals reached without one)
    final: list[int]                #: the sides' final scores
    sides: list[list[int]]
    then: str
    rollouts: int
    luck_rollouts: int
    seed: int
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    by: str = "points"              #: the currency of the decisions (points, margin, win or match)


def load_match(path: str | Path, match: int) -> list[Hand]:
    """Match ``match`` of a match trace, re-stepped by the engine; PositionError naming the problem."""
    try:
        records = read_records(Path(path))
    except RecordError as e:
        raise PositionError(str(e)) from None
    try:
        return replay_match(match_records(records, match))
    except MatchReplayError as e:
        raise PositionError(f"{path}: {e}") from None
    except ReplayError as e:
        raise PositionError(f"{path}: match {match} does not replay: {e}") from None


def hand_deal(h: Hand, label: str) -> Deal:
    """One hand of a replayed match as a deal to review (the rules its engine deal plays by)."""
    st = h.deal
    mp = st.rules.max_pip
    plays = [(parse_tile(a["tile"], mp), End.parse(a["end"])) for a in h.record["actions"] if a["act"] == "play"]
    return Deal(st.rules, [list(x) for x in st.hands0], list(st.boneyard0), st.first, plays, label)


def review_match(hands: Sequence[Hand], then="greedy", seed: int = 1, rollouts: int = ROLLOUTS,
                 luck_rollouts: int = LUCK_ROLLOUTS, names: Sequence[str] | None = None,
                 progress=None, by: str = "points", equity=None) -> MatchReview:
    """Review every hand of a replayed match (module doc); ``progress(i, n)`` is called before hand i.
    ``by="match"`` values each decision in match equity at its hand's scores, the tables computed by
    ``equity`` (analyze/matchvalue.py ``Solve``)."""
    t0 = time.perf_counter()
    rules = hands[0].deal.match_rules
    n = rules.players
    mid = hands[0].record["match"]["id"]
    names = list(names or [f"seat {s}" for s in range(n)])
    out = []
    for i, h in enumerate(hands):
        if progress is not None:
            progress(i, len(hands))
        d = hand_deal(h, f"match {mid}, hand {i}")
        mv = None
        if by == "match":
            from .matchvalue import match_value
            mv = match_value(rules, list(h.match["before"]), then if isinstance(then, str) else then[0], equity)
        r = review(d, then=then, seed=seed, rollouts=rollouts, luck_rollouts=luck_rollouts, names=names, by=by,
                   match=mv) if d.plays else None
        pts = [int(x) for x in h.record["totals"]]
        if r is not None:  # the record's points (partners: settled by side), luck as reviewed
            for p in r.players:
                p.points = pts[p.seat]
                p.adjusted_points = pts[p.seat] - p.luck_total
        mo = h.match
        out.append(HandReview(i, int(h.record.get("deal", i)), int(h.record["first"]), h.deal.lead is not None,
                              list(mo["before"]), list(mo["credited"]), list(mo["after"]), pts, h.record.get("end"),
                              r))
    players = []
    for s in range(n):
        mine = [p for x in out if x.review is not None for p in x.review.players if p.seat == s]
        dec = sum(p.decisions for p in mine)
        err = float(sum(p.error_total for p in mine))
        luck = float(sum(p.luck_total for p in mine))
        pts = sum(x.points[s] for x in out)
        players.append(Player(s, names[s], dec, err, err / dec if dec else None, luck, pts, pts - luck))
    last = hands[-1].match
    then_text = then if isinstance(then, str) else ", ".join(then)
    return MatchReview(mid, rules, names, out, players, last["winner"], list(last["after"]), list(last["sides"]),
                       then_text, rollouts, luck_rollouts, seed, time.perf_counter() - t0, by=by)


# ---- for machines ----------------------------------------------------------------------------------------
def to_json_match(m: MatchReview) -> dict:
    """The match review as docs/analysis.md ("A whole match") documents it."""
    return {
        "match": m.match, "target": m.rules.target, "match_end": str(m.rules.match_end), "teams": str(m.rules.teams),
        "values": "match equity" if m.by == "match" else "per deal", "by": m.by, "then": m.then, "rollouts": m.rollouts, "luck_rollouts": m.luck_rollouts,
        "seed": m.seed, "sides": m.sides, "winner": m.winner, "final": m.final,
        "hands": [{"hand": x.hand, "deal": x.deal, "first": x.first, "next_lead": x.next_lead, "before": x.before,
                   "credited": x.credited, "after": x.after, "points": x.points, "end": x.end,
                   "review": None if x.review is None else to_json(x.review)} for x in m.hands],
        "players": [{"seat": p.seat, "name": p.name, "decisions": p.decisions, "error_total": p.error_total,
                     "error_per_decision": p.error_per_decision, "luck_total": p.luck_total, "points": p.points,
                     "adjusted_points": p.adjusted_points} for p in m.players],
    }


def csv_rows_match(m: MatchReview) -> list[dict]:
    """One flat row per decision of the match (for --format csv), with its hand and the scores before it."""
    rows = []
    for x in m.hands:
        if x.review is None:
            continue
        for d in to_json(x.review)["decisions"]:
            rows.append({"hand": x.hand, "before": "-".join(map(str, x.before)), "move": d["move"], "seat": d["seat"],
                         "played_tile": d["played"]["tile"], "played_end": d["played"]["end"],
                         "played_value": d["played"]["value"], "best_tile": d["best"]["tile"],
                         "best_end": d["best"]["end"], "best_value": d["best"]["value"], "error": d["error"],
                         "error_lo": d["error_lo"], "error_hi": d["error_hi"], "mark": d["mark"] or "",
                         "forced": d["forced"]})
    return rows


# ---- for people ------------------------------------------------------------------------------------------
def _side(m: MatchReview, j: int) -> str:
    seats = m.sides[j]
    return " and ".join(m.names[s] for s in seats)


def summary(m: MatchReview) -> list[str]:
    """The answer: the match's result, then each player's errors (worst first) and who was luckiest."""
    nh = len(m.hands)
    if m.winner is None:
        result = f"no winner after {nh} deal{'s' * (nh != 1)}, " + "-".join(map(str, m.final))
    else:
        others = ", ".join(str(x) for j, x in enumerate(m.final) if j != m.winner)
        result = f"{_side(m, m.winner)} won {m.final[m.winner]} to {others} in {nh} deal{'s' * (nh != 1)}"
    ranked = sorted(m.players, key=lambda p: (-p.error_total, p.seat))
    parts = []
    for i, p in enumerate(ranked):
        dec = f"{p.decisions} decision{'s' * (p.decisions != 1)}"
        parts.append(f"{p.name} lost {amount(p.error_total, m.by)} to errors in {dec}" if i == 0 else
                     f"{p.name} {SCALE.get(m.by, 1) * p.error_total:.1f} in {p.decisions}")
    out = [f"Match {m.match} (to {m.rules.target}; {result}): " + ", ".join(parts) +
           f"; {luck_clause(m.players, m.then)}."]
    worst = [(x, d) for x in m.hands if x.review is not None for d in x.review.decisions if not d.forced]
    if worst:
        x, d = max(worst, key=lambda xd: (xd[1].error, -xd[0].hand, -xd[1].move))
        if d.error > 0:
            out.append(f"The costliest error: hand {x.hand}, move {d.move}, {m.names[d.seat]} "
                       f"{_move_text(d.played)} instead of {_move_text(d.best)} ({amount(d.error, m.by)}).")
    counted = sum(p.decisions for p in m.players)
    forced = sum(1 for x in m.hands if x.review is not None for d in x.review.decisions if d.forced)
    events = sum(len(x.review.luck) for x in m.hands if x.review is not None)
    values = ("Decisions are valued in match equity at the scores before each hand (the match equity table of "
              f"{m.then}); the luck in points of the deal." if m.by == "match" else
              "Values are expected points of each deal, not of the match: the scores before each hand are "
              "shown, not valued." if m.by == "points" else f"Decisions are valued by {UNIT[m.by]} of each deal.")
    out.append(f"{values} {counted} decisions rated ({forced} forced) by {m.rollouts:,} rollouts each, "
               f"{events} chance events by {m.luck_rollouts:,}, played out by {m.then} for every seat.")
    if str(m.rules.teams) == "partners":
        out[-1] += " With partners, the rollouts settle each deal seat by seat, not by side."
    return out


def answer_match(m: MatchReview):
    from .. import present as P
    n = len(m.names)
    rows = []
    k = SCALE.get(m.by, 1)
    for x in m.hands:
        r = x.review
        err = ["" if r is None else f"{k * sum(d.error for d in r.decisions if d.seat == s):.1f}" for s in range(n)]
        luck = ["" if r is None else f"{sum(v.luck[s] for v in r.luck):+.1f}" for s in range(n)]
        rows.append({"hand": x.hand, "before": "-".join(map(str, x.before)), "points": " ".join(map(str, x.points)),
                     "error": " ".join(err), "luck": " ".join(luck)})
    cols = [P.Col("hand", kind="int"), P.Col("before", "scores before"), P.Col("points"), P.Col("error"),
            P.Col("luck")]
    prows = [{"player": p.name, "decisions": p.decisions, "error": f"{k * p.error_total:.1f}",
              "per": "" if p.error_per_decision is None else f"{k * p.error_per_decision:.2f}",
              "luck": f"{p.luck_total:+.1f}", "points": p.points, "adjusted": f"{p.adjusted_points:.1f}"}
             for p in m.players]
    pcols = [P.Col("player"), P.Col("decisions", kind="int"), P.Col("error", align="right"),
             P.Col("per", "per decision", align="right"), P.Col("luck", align="right"),
             P.Col("points", kind="int"), P.Col("adjusted", "points - luck", align="right")]
    mrows = [{"hand": x.hand, "move": d.move, "player": m.names[d.seat], "played": _move_text(d.played),
              "best": _move_text(d.best), "error": P.est(k * d.error, k * d.error_lo, k * d.error_hi), "mark": d.mark}
             for x in m.hands if x.review is not None for d in x.review.decisions if d.mark]
    mcols = [P.Col("hand", kind="int"), P.Col("move", kind="int"), P.Col("player"), P.Col("played"), P.Col("best"),
             P.Col("error", "error (95% CI)", align="right"), P.Col("mark")]
    ans = P.Answer(summary(m), data=to_json_match(m))
    ans.add(P.Table("Players over the match (points of the deals, summed)", prows, pcols))
    ans.add(P.Table(f"Hands (points, and luck by seat in points of the deal; error in {UNIT[m.by]})", rows, cols))
    if mrows:
        ans.add(P.Table("Marked decisions", mrows, mcols, keys=2))
    ans.notes.append("Marks (error with its 95% interval above 0): " +
                     ", ".join(f"{nm} >= {k * at:g}" for nm, at in MARKS_BY[m.by]) + f" {UNIT[m.by]}. One hand in detail: "
                     "--format json (hands[i].review).")
    return ans

"""Match traces (docs/rules.md 12): read a file's matches, replay a match deal by deal through the engine,
and show it with the scoreboard after each deal.

A match record is re-stepped with the engine (:class:`~simdom.engine.matches.MatchDeal` for the deals,
:class:`~simdom.engine.matches.MatchState` for the scores): every deal's lead against ``next_lead``,
its hands against its seed, every action, the points credited and when the match stops a deal, and
each deal's ``match`` object. The first thing that differs is reported (deal, action, seat,
recorded against expected), so a replay is also a check of the record.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..engine.codes import End
from ..engine.matches import MatchDeal, MatchState
from ..rules import Rules
from ..tiles import parse_tile
from .records import ReplayError, check_dealt, check_record, first_difference, not_legal, read_jsonl
from .replay import Step, _ends_text

MATCH_KEYS = ("sides", "before", "credited", "after", "over", "winner")


class MatchReplayError(ReplayError):
    pass


@dataclass
class Hand:
    """One deal of a replayed match: its record, the engine's deal, its moves and the match object."""
    record: dict[str, Any]
    deal: MatchDeal
    steps: list[Step]
    match: dict[str, Any]


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every JSON line of a trace file (RecordError naming the file and line when one is not JSON)."""
    return [rec for _, rec in read_jsonl(path)]


def match_records(records: Iterable[dict[str, Any]], match: int | None) -> list[dict[str, Any]]:
    """The deal records of match ``match`` (None: the first match), in file order."""
    recs = [r for r in records if isinstance(r, dict) and isinstance(r.get("match"), dict)]
    if not recs:
        raise MatchReplayError("no match records (a deal with a 'match' object); allowed: a file written by "
                               "simdom trace --matches")
    want = recs[0]["match"].get("id") if match is None else match
    out = [r for r in recs if r["match"].get("id") == want]
    if not out:
        ids = sorted({i for r in recs if isinstance(i := r["match"].get("id"), int)}) or ["none"]
        raise MatchReplayError(f"no match {want}; allowed: {ids[0]}..{ids[-1]}" if len(ids) > 1 else
                               f"no match {want}; allowed: {ids[0]}")
    return out


def _first_difference(where: str, recorded: Sequence[dict], ours: Sequence[dict], end: str | None) -> None:
    first_difference(where, recorded, ours, end, MatchReplayError)


def _replay_deal(where: str, rules: Rules, rec: dict[str, Any], ms: MatchState, lead: int | None) -> Hand:
    mp = rules.max_pip
    hands = [[parse_tile(t, mp) for t in h] for h in rec["hands"]]
    bone = [parse_tile(t, mp) for t in rec["boneyard"]]
    first = rec["first"]
    if lead is not None and first != lead:
        raise MatchReplayError(f"{where}: recorded first = {first}, expected seat {lead} "
                               f"(next_lead = {rules.next_lead})")
    seed = rec.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        try:
            dealt = MatchDeal.dealt(rules, seed, lead)
        except ValueError as e:
            raise MatchReplayError(f"{where}: {e}") from None
        check_dealt(where, rec, dealt.record(), f"the deal of seed {seed}", MatchReplayError)
    try:
        st = MatchDeal(rules, hands, bone, first, lead)
    except ValueError as e:
        raise MatchReplayError(f"{where}: the record is not a deal of its rules: {e}") from None
    ms.begin_deal()
    actions = rec.get("actions") or []
    steps: list[Step] = []
    for i, a in enumerate(actions):
        if a.get("act") != "play" or st.ended:
            continue
        done = len(st.actions)
        try:
            pts, bonus, k, s, _ = ms.play(st, parse_tile(a["tile"], mp), End.parse(a["end"]))
        except ValueError:
            _first_difference(where, actions[:len(st.actions)], st.actions, st.ended.label if st.ended else None)
            raise not_legal(where, i, a, st, MatchReplayError) from None
        for extra in st.actions[done:-1]:
            steps.append(Step(None, extra["seat"], extra["act"], extra.get("tile"), None, "", "", 0, 0))
        steps.append(Step(st.move_number, st.actions[-1]["seat"], "play", a["tile"], a["end"], _ends_text(st),
                          f"{k} (sum {s})", pts, bonus))
    done = len(st.actions)
    if not ms.end_deal(st):
        _first_difference(where, actions, st.actions, None)
        raise MatchReplayError(f"{where}: the recorded actions stop before the deal ends (seat {st.turn} is to play)")
    for extra in st.actions[done:]:
        steps.append(Step(None, extra["seat"], extra["act"], extra.get("tile"), None, "", "", 0, 0))
    ours = st.record(seed=seed, deal=rec.get("deal", 0))
    _first_difference(where, actions, ours["actions"], ours["end"])
    for key in ("end", "end_bonus", "totals"):
        if rec.get(key) != ours[key]:
            raise MatchReplayError(f"{where}: recorded {key} {rec.get(key)!r}, expected {ours[key]!r}")
    mo = ms.match_object(rec["match"]["id"])
    for key in MATCH_KEYS:
        if rec["match"].get(key) != mo[key]:
            raise MatchReplayError(f"{where}: recorded match.{key} {rec['match'].get(key)!r}, expected {mo[key]!r}")
    return Hand(rec, st, steps, mo)


def replay_match(records: Sequence[dict[str, Any]]) -> list[Hand]:
    """Re-step the deal records of one match (in order); MatchReplayError at the first difference."""
    if not records:
        raise MatchReplayError("no deal records")
    checked = []
    for h, rec in enumerate(records):
        where = f"match {(rec.get('match') or {}).get('id') if isinstance(rec, dict) else '?'}, deal {h}"
        if isinstance(rec, dict) and "match" not in rec:
            raise MatchReplayError(f"{where}: no match object; allowed: a match record (simdom trace --matches)")
        try:
            checked.append(check_record(rec, where)[1])
        except ReplayError as e:
            raise MatchReplayError(str(e)) from None
    rules = checked[0]
    mid = records[0]["match"]["id"]
    ms = MatchState(rules)
    hands: list[Hand] = []
    for h, rec in enumerate(records):
        where = f"match {mid}, deal {h} (file deal {rec.get('deal')})"
        if rec.get("rules") != records[0]["rules"]:
            raise MatchReplayError(f"{where}: its rules differ from the match's first deal")
        mo = rec.get("match") or {}
        if (mo.get("id"), mo.get("hand")) != (mid, h):
            raise MatchReplayError(f"{where}: recorded match id {mo.get('id')}, hand {mo.get('hand')}; "
                                   f"expected id {mid}, hand {h}")
        if ms.over:
            raise MatchReplayError(f"{where}: the match was already over after deal {h - 1}")
        lead = ms.next_leader(hands[-1].deal) if hands else None
        hands.append(_replay_deal(where, rules, rec, ms, lead))
    if not ms.over:
        raise MatchReplayError(f"match {mid}: the records stop after {len(records)} deals, before the match is "
                               f"over (score {ms.scores}, target {rules.target}, max_deals {rules.max_deals})")
    return hands


# ---- showing a match ------------------------------------------------------------------------------


def _side_name(rules: Rules, j: int) -> str:
    seats = [[0, 2], [1, 3]][j] if rules.teams == "partners" else [j]
    return f"side {j} (seats {seats[0]} and {seats[1]})" if len(seats) == 2 else f"seat {j}"


def summary(rules: Rules, hands: Sequence[Hand]) -> str:
    """The answer in one sentence: who won the match, in how many deals, the final score."""
    last = hands[-1].match
    mid = hands[-1].record["match"]["id"]
    after = last["after"]
    n = len(hands)
    deals = f"{n} deal{'s' if n > 1 else ''}"
    w = last["winner"]
    if w is None:
        return (f"Match {mid}: no winner after {deals} (max_deals = {rules.max_deals}); final score "
                f"{', '.join(f'{_side_name(rules, j)} {x}' for j, x in enumerate(after))} (target {rules.target}).")
    others = ", ".join(str(x) for j, x in enumerate(after) if j != w)
    how = {"deal_end": "at the end of a deal", "immediate": "on reaching the target",
           "exact": "on reaching exactly the target"}[rules.match_end]
    return (f"Match {mid}: {_side_name(rules, w)} won {after[w]} to {others} in {deals} "
            f"({how}, target {rules.target}).")


def render_match(rules: Rules, hands: Sequence[Hand], console, hand: int | None = None) -> None:
    """The answer first, then the scoreboard after each deal; with ``hand``, that deal move by move."""
    from rich.table import Table

    from .replay import render

    console.print(summary(rules, hands), highlight=False)
    teams = "partners (seats 0+2 against 1+3)" if rules.teams == "partners" else "every seat for itself"
    console.print(f"{rules.players} players, {teams}; match_end {rules.match_end}, next_lead {rules.next_lead}, "
                  f"max_deals {rules.max_deals}", highlight=False)
    t = Table(title="Scoreboard after each deal")
    for col, j in (("deal", "right"), ("leads", "right"), ("end", "left"), ("points by seat", "left"),
                   ("credited", "left"), ("score", "left")):
        t.add_column(col, justify=j)
    for i, x in enumerate(hands):
        mo = x.match
        lead = f"{x.record['first']}" + ("" if x.deal.lead is None else "*")
        t.add_row(str(i), lead, x.record["end"], " ".join(map(str, x.record["totals"])),
                  " ".join(map(str, mo["credited"])), "-".join(map(str, mo["after"])))
    console.print(t)
    if any(x.deal.lead is not None for x in hands):
        console.print(f"* led by next_lead = {rules.next_lead} (any tile)", highlight=False)
    if hand is not None:
        if not 0 <= hand < len(hands):
            raise MatchReplayError(f"--hand {hand}; allowed: 0..{len(hands) - 1}")
        x = hands[hand]
        render(x.record, x.steps, x.deal, console, title=f"Deal {hand} of match {x.record['match']['id']} "
                                                          f"(seed {x.record.get('seed')})")

"""Replay a deal record (docs/rules.md section 11) move by move through the engine, for a person.

The record is re-stepped with :class:`~simdom.engine.api.DealState`: every play must be legal, and
the draws, passes, points and bonuses the engine produces must be the ones recorded, so a replay is
also a check of the record.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..engine.codes import End
from ..engine.state import DealState
from ..tiles import parse_tile
from .records import ReplayError, check_dealt, check_record, first_difference, not_legal

__all__ = ["ReplayError", "Step", "boards", "headline", "replay_record", "render"]


@dataclass
class Step:
    move: int | None     # move number for plays
    seat: int
    act: str             # play, draw, pass
    tile: str | None
    end: str | None
    ends: str            # the ends after it, e.g. "L 4  R 5  U 6  D -"
    counted: str         # "3 (sum 15)"
    points: int
    bonus: int


def _ends_text(st: DealState) -> str:
    ends = st.ends()
    used = st.arms_used()
    parts = []
    for name, v in ends.items():
        if name in ("U", "D") and not used["UD".index(name)]:
            parts.append(f"{name} -")
        else:
            parts.append(f"{name} {v}")
    return "  ".join(parts)


def replay_record(record: dict[str, Any], where: str = "the record") -> tuple[DealState, list[Step]]:
    """Check a deal record against its schema (simdom.deal.records), re-deal it from its seed when the seed
    is an integer, and step through it; ReplayError at the first thing the engine does not reproduce,
    naming the action (index, seat, recorded against expected)."""
    rec, rules = check_record(record, where)
    if "match" in record:
        raise ReplayError(f"{where} is a deal of match {rec.match.id}; allowed: --match {rec.match.id} to "
                          "replay its match")
    mp = rules.max_pip
    hands = [[parse_tile(t, mp) for t in h] for h in rec.hands]
    bone = [parse_tile(t, mp) for t in rec.boneyard]
    if isinstance(rec.seed, int):
        check_dealt(where, record, DealState.dealt(rules, rec.seed, rec.deal).record(),
                    f"deal {rec.deal} of seed {rec.seed}")
    try:
        st = DealState(rules, hands, bone, rec.first)
    except ValueError as e:
        raise ReplayError(f"{where}: the record is not a deal of its rules: {e}") from None
    actions = record["actions"]
    steps: list[Step] = []
    for i, a in enumerate(actions):
        if a["act"] != "play":
            continue
        before = len(st.actions)
        try:
            pts, bonus, k, s = st.play(parse_tile(a["tile"], mp), End.parse(a["end"]))
        except ValueError:
            first_difference(where, actions[:len(st.actions)], st.actions, st.ended.label if st.ended else None)
            raise not_legal(where, i, a, st) from None
        for extra in st.actions[before:-1]:
            steps.append(Step(None, extra["seat"], extra["act"], extra.get("tile"), None, "", "", 0, 0))
        steps.append(Step(st.move_number, st.actions[-1]["seat"], "play", a["tile"], a["end"], _ends_text(st),
                          f"{k} (sum {s})", pts, bonus))
    if rec.end is not None:
        st.advance()  # the passes that block the deal
        for extra in st.actions[len(steps):]:
            steps.append(Step(None, extra["seat"], extra["act"], extra.get("tile"), None, "", "", 0, 0))
        if not st.ended:
            first_difference(where, actions, st.actions)
            raise ReplayError(f"{where}: recorded end {rec.end!r}, but the deal goes on (seat {st.turn} is to play)")
    ours = st.record(seed=record["seed"], deal=rec.deal)
    first_difference(where, actions, ours["actions"], ours["end"])
    for key in ("end", "end_bonus", "totals"):
        if ours[key] != record[key]:
            raise ReplayError(f"{where}: recorded {key} {record[key]!r}, expected {ours[key]!r}")
    return st, steps


def headline(record: dict[str, Any], steps: Sequence[Step], st: DealState, title: str = "") -> str:
    """The replay's answer in one sentence: who has the most points and how the deal ended, and who
    earned the first-double bonus, e.g. "Deal 3 (seed 7): seat 2 has the most points, 45, after a
    domino at move 23; seat 0 earned the first-double bonus, 4 for 4-4 at move 5."."""
    rec = st.record()
    totals = rec["totals"]
    best = max(totals)
    top = [s for s, t in enumerate(totals) if t == best]
    who = f"seat {top[0]} has" if len(top) == 1 else "seats " + " and ".join(map(str, top)) + " share"
    last = max((x.move for x in steps if x.move is not None), default=0)
    ends = {"domino": f"after a domino at move {last}", "blocked": f"the deal blocked after move {last}",
            "target": f"the match won at move {last}"}
    how = (ends.get(rec["end"], f"after a {rec['end']} at move {last}") if rec["end"] else
           f"with the deal not finished after move {last}")
    name = title or f"Deal {record.get('deal', 0)} (seed {record.get('seed')})"
    out = f"{name}: {who} the most points, {best}, {how}"
    bonus = next((x for x in steps if x.bonus), None)
    if bonus is not None:
        out += f"; seat {bonus.seat} earned the first-double bonus, {bonus.bonus} for {bonus.tile} at move {bonus.move}"
    return out + "."


def render(record: dict[str, Any], steps: Sequence[Step], st: DealState, console, title: str = "") -> None:
    from rich.table import Table

    console.print(headline(record, steps, st, title), highlight=False, markup=False)
    rules = record["rules"]
    head = Table(title="Hands", show_lines=False)  # the deal's name and seed: in the headline
    head.add_column("seat")
    head.add_column("hand")
    for s, h in enumerate(record["hands"]):
        mark = " (leads)" if s == record["first"] else ""
        head.add_row(f"{s}{mark}", " ".join(h))
    console.print(head)
    console.print(f"boneyard, top first: {' '.join(record['boneyard']) or '(empty)'}")
    console.print(f"rules: {rules['players']} players, points {rules['points']}, divisors {rules['divisors']}, "
                  f"min_ends {rules['min_ends']}, spinner {rules['spinner']}, double_counts {rules['double_counts']}")
    t = Table(title="Moves")
    for col, j in (("move", "right"), ("seat", "right"), ("action", "left"), ("ends after", "left"),
                   ("counted", "left"), ("points", "right"), ("bonus", "right")):
        t.add_column(col, justify=j)
    for x in steps:
        if x.act == "play":
            t.add_row(str(x.move), str(x.seat), f"{x.tile} on {x.end}", x.ends, x.counted,
                      str(x.points) if x.points else "", str(x.bonus) if x.bonus else "")
        elif x.act == "draw":
            t.add_row("", str(x.seat), f"draws {x.tile}", "", "", "", "")
        else:
            t.add_row("", str(x.seat), "passes", "", "", "", "")
    console.print(t)
    rec = st.record()
    end = rec["end"] or "not finished (script ended)"
    tot = Table(title=f"End: {end}")
    tot.add_column("seat", justify="right")
    for col in ("placements", "first-double bonus", "end bonus", "total", "pips left"):
        tot.add_column(col, justify="right")
    for s in range(len(record["hands"])):
        seat = st.seat(s)
        tot.add_row(str(s), str(seat.points), str(seat.bonus), str(seat.end_bonus), str(rec["totals"][s]),
                    str(seat.pips))
    console.print(tot)


def boards(record: dict[str, Any]) -> list[tuple[str, str]]:
    """The board (simdom/board.py) after every placement of a record that :func:`replay_record` accepted,
    each with its caption (who placed what where, the points it scored)."""
    from ..board import state_svg
    from ..rules import from_dict
    rules = from_dict(record["rules"])
    mp = rules.max_pip
    st = DealState(rules, [[parse_tile(t, mp) for t in h] for h in record["hands"]],
                   [parse_tile(t, mp) for t in record["boneyard"]], record["first"])
    out = []
    for a in record["actions"]:
        if a["act"] != "play":
            continue
        pts, bonus, _, _ = st.play(parse_tile(a["tile"], mp), End.parse(a["end"]))
        scored = f", {pts} points" if pts else ""
        scored += f", first-double bonus {bonus}" if bonus else ""
        out.append((state_svg(st, f"after move {st.move_number}"),
                    f"Move {st.move_number}: seat {a['seat']} placed {a['tile']} {a['end']}{scored}."))
    return out

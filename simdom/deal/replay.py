"""Replay a deal record (RULES.md section 11) move by move through the engine, for a person.

The record is re-stepped with :class:`~simdom.engine.api.DealState`: every play must be legal, and
the draws, passes, points and bonuses the engine produces must be the ones recorded, so a replay is
also a check of the record.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..engine.codes import End
from ..engine.state import DealState
from ..rules import from_dict
from ..tiles import parse_tile


class ReplayError(ValueError):
    pass


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


def replay_record(record: dict[str, Any]) -> tuple[DealState, list[Step]]:
    """Step through a record; raise ReplayError at the first action the engine does not reproduce."""
    rules = from_dict(record["rules"])
    mp = rules.max_pip
    hands = [[parse_tile(t, mp) for t in h] for h in record["hands"]]
    bone = [parse_tile(t, mp) for t in record["boneyard"]]
    try:
        st = DealState(rules, hands, bone, int(record["first"]))
    except ValueError as e:
        raise ReplayError(f"the record is not a deal of its rules: {e}") from None
    steps: list[Step] = []
    plays = [a for a in record["actions"] if a["act"] == "play"]
    for a in plays:
        before = len(st.actions)
        try:
            pts, bonus, k, s = st.play(parse_tile(a["tile"], mp), End.parse(a["end"]))
        except ValueError as e:
            raise ReplayError(str(e)) from None
        for extra in st.actions[before:-1]:
            steps.append(Step(None, extra["seat"], extra["act"], extra.get("tile"), None, "", "", 0, 0))
        steps.append(Step(st.move_number, st.actions[-1]["seat"], "play", a["tile"], a["end"], _ends_text(st),
                          f"{k} (sum {s})", pts, bonus))
    if record.get("end"):
        st.advance()  # the passes that block the deal
        for extra in st.actions[len(steps):]:
            steps.append(Step(None, extra["seat"], extra["act"], extra.get("tile"), None, "", "", 0, 0))
    ours = st.record(seed=record.get("seed"), deal=record.get("deal", 0))
    for key in ("actions", "end", "end_bonus", "totals"):
        if record.get(key) is not None and ours[key] != record[key]:
            raise ReplayError(f"the record's {key} differ from the engine's replay: "
                              f"recorded {record[key]!r}, replayed {ours[key]!r}")
    return st, steps


def render(record: dict[str, Any], steps: Sequence[Step], st: DealState, console, title: str = "") -> None:
    from rich.table import Table

    rules = record["rules"]
    head = Table(title=title or f"Deal {record.get('deal', 0)} (seed {record.get('seed')})", show_lines=False)
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
    for col, j in (("move", "right"), ("seat", "right"), ("action", "left"), ("ends after (L R U D)", "left"),
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

"""Trace records as declared schemas: a deal record (docs/rules.md section 11) and a match deal record
(section 12), validated before anything is replayed.

:func:`check_record` validates a parsed JSON record: every field present (nothing is filled with a
default), of its type (a JSON integer is not a float, a string or a boolean), in its range, the rules
object holding every parameter and valid as rules (:func:`simdom.rules.from_dict`), hands, boneyard,
actions and per-seat lists the size the rules give, every tile a tile of the set. A problem raises
:class:`RecordError` naming where (the record, the field path such as ``actions[3].points``) and what is
allowed. :func:`first_difference` names the first action in which a record and the engine's replay
differ (index, seat, recorded against expected).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Iterator, Literal, Optional, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..safeio import BOM, InputError, check_depth, not_a_file, reading_lines, unique_keys
from ..rules import MATCH_PARAMETERS, PARAMETERS, Rules, RulesError, from_dict, shown
from ..tiles import parse_tile

U64 = 2**64 - 1
I63 = 2**63 - 1


class ReplayError(ValueError):
    """A record that the engine does not reproduce, or that is not a record at all."""


class RecordError(ReplayError):
    """A record that does not follow its declared schema: names the record, the field and what is allowed."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=False)


Count = Annotated[int, Field(ge=0, le=I63)]
Seat = Annotated[int, Field(ge=0, le=3)]


class PerPlayers(_Strict):
    """``hand_size`` and ``boneyard_reserve``: one value per player count, keyed "2", "3", "4"."""
    p2: Count = Field(alias="2")
    p3: Count = Field(alias="3")
    p4: Count = Field(alias="4")


class RulesRecord(_Strict):
    """The ``rules`` object of a deal record: every parameter of docs/rules.md section 8, with ``players``."""
    max_pip: int
    hand_size: PerPlayers
    boneyard_reserve: PerPlayers
    draw: str
    lead: str
    spinner: str
    arms_open: Optional[str]
    double_counts: str
    divisors: list[int]
    min_ends: int
    points: str
    first_double_bonus: list[Annotated[list[Optional[int]], Field(min_length=2, max_length=2)]]
    out_bonus: str
    block_bonus: str
    bonus_round_to: int
    bonus_divisor: int
    players: int


class MatchRulesRecord(RulesRecord):
    """The ``rules`` object of a match deal record: section 8 and the five match parameters of section 12."""
    target: int
    match_end: str
    next_lead: str
    teams: str
    max_deals: int


class Play(_Strict):
    seat: Seat
    act: Literal["play"]
    tile: str
    end: Literal["lead", "L", "R", "U", "D"]
    points: Count
    bonus: Count


class Draw(_Strict):
    seat: Seat
    act: Literal["draw"]
    tile: str


class Pass(_Strict):
    seat: Seat
    act: Literal["pass"]


Action = Annotated[Union[Play, Draw, Pass], Field(discriminator="act")]


class DealRecord(_Strict):
    """One line of a deal trace (docs/rules.md 11)."""
    rules: RulesRecord
    deal: Count
    seed: Union[Annotated[int, Field(ge=0, le=U64)], str, None]
    first: Seat
    hands: list[list[str]]
    boneyard: list[str]
    actions: list[Action]
    end: Optional[Literal["domino", "blocked"]]
    end_bonus: list[Count]
    totals: list[Count]


class MatchObject(_Strict):
    id: Count
    hand: Count
    sides: list[list[Seat]]
    before: list[Count]
    credited: list[Count]
    after: list[Count]
    over: bool
    winner: Optional[Annotated[int, Field(ge=0, le=3)]]


class MatchDealRecord(DealRecord):
    """One line of a match trace (docs/rules.md 12): a deal record whose rules hold the match parameters, with
    its ``match`` object."""
    rules: MatchRulesRecord
    end: Literal["domino", "blocked", "target"]
    match: MatchObject


_HINTS = {
    "deal": "an integer >= 0", "seed": f"an integer from 0 to {U64}, a string, or null",
    "first": "the seat that acted first, 0 .. players - 1", "seat": "a seat 0 .. players - 1",
    "act": "play, draw or pass", "tile": "a tile written A-B, low half first", "end": "lead, L, R, U or D",
    "points": "an integer >= 0", "bonus": "an integer >= 0", "hands": "one list of tiles per seat",
    "boneyard": "a list of tiles, top first", "actions": "a list of play, draw and pass objects",
    "end_bonus": "one integer >= 0 per seat", "totals": "one integer >= 0 per seat",
    "match": "the match object of docs/rules.md 12: id, hand, sides, before, credited, after, over, winner",
    "winner": "a side index or null", "over": "true or false",
    "2": "an integer >= 0", "3": "an integer >= 0", "4": "an integer >= 0",
}
_UNION_TAGS = {"int", "str", "none", "play", "draw", "pass", "constrained-int"}


def _path(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in _UNION_TAGS or str(part).startswith(("function-", "literal[", "list[", "nullable[")):
            continue
        else:
            out += ("." if out else "") + str(part)
    return out or "(the record)"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _hint(path: str) -> str:
    if path == "end":
        return "domino, blocked (in a match also target), or null (a scripted deal that stops early)"
    leaf = path.rsplit(".", 1)[-1].split("[")[0]
    if path.startswith("rules."):
        return _HINTS.get(leaf, "a value as docs/rules.md section 8 gives it") if leaf in ("2", "3", "4") else \
            "a value as docs/rules.md section 8 gives it (see simdom rules PRESET --format json)"
    return _HINTS.get(leaf, "see docs/rules.md sections 11 and 12")


def _schema_problem(where: str, e: ValidationError) -> RecordError:
    err = e.errors()[0]
    path = _path(err["loc"])
    if err["type"] == "missing":
        return RecordError(f"{where}: field {path} is missing; every field of docs/rules.md sections 11-12 is required "
                           "(nothing is filled with a default)")
    if err["type"] == "extra_forbidden":
        return RecordError(f"{where}: unknown field {path}; allowed: the fields of docs/rules.md sections 11-12"
                           + (f" ({', '.join(PARAMETERS)}; with target > 0 also {', '.join(MATCH_PARAMETERS)})"
                              if path.startswith("rules.") else ""))
    if err["type"] in ("model_type", "model_attributes_type") and not err["loc"]:
        return RecordError(f"{where}: a record is a JSON object, not {type(err.get('input')).__name__}")
    if err["type"] == "union_tag_invalid" or err["type"] == "union_tag_not_found":
        return RecordError(f"{where}: field {path}.act is missing or unknown; allowed: play, draw or pass")
    return RecordError(f"{where}: field {path} = {_shown(err.get('input'))} is invalid ({err['msg'].lower()}); "
                       f"allowed: {_hint(path)}")


def check_record(record: Any, where: str = "record") -> tuple[DealRecord, Rules]:
    """The record validated against its schema (a match deal record when it has a ``match`` object) and
    its rules; RecordError naming the first problem."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {type(record).__name__}")
    model = MatchDealRecord if "match" in record else DealRecord
    try:
        rec = model.model_validate(record)
    except ValidationError as e:
        raise _schema_problem(where, e) from None
    try:
        rules = from_dict(record["rules"])
    except RulesError as e:
        raise RecordError(f"{where}: field {str(e).replace('rules: ', 'rules.', 1)}") from None
    if model is MatchDealRecord and not rules.is_match:
        raise RecordError(f"{where}: field rules.target = 0 in a match record; allowed: target > 0 (a match), "
                          "or a deal record without a match object")
    n, mp = rules.players, rules.max_pip

    def tile(text: str, path: str) -> None:
        try:
            parse_tile(text, mp, strict_order=True)
        except ValueError as e:
            raise RecordError(f"{where}: field {path} = {_shown(text)} is invalid ({e}); allowed: a tile of the "
                              f"double-{mp} set written A-B, low half first") from None

    if len(rec.hands) != n:
        raise RecordError(f"{where}: field hands holds {len(rec.hands)} hands; allowed: one per seat ({n})")
    for s, h in enumerate(rec.hands):
        for i, t in enumerate(h):
            tile(t, f"hands[{s}][{i}]")
    for i, t in enumerate(rec.boneyard):
        tile(t, f"boneyard[{i}]")
    if rec.first >= n:
        raise RecordError(f"{where}: field first = {rec.first} is invalid; allowed: a seat 0 .. {n - 1}")
    for i, a in enumerate(rec.actions):
        if a.seat >= n:
            raise RecordError(f"{where}: field actions[{i}].seat = {a.seat} is invalid; allowed: a seat 0 .. {n - 1}")
        if isinstance(a, (Play, Draw)):
            tile(a.tile, f"actions[{i}].tile")
    for name in ("end_bonus", "totals"):
        if len(getattr(rec, name)) != n:
            raise RecordError(f"{where}: field {name} holds {len(getattr(rec, name))} values; allowed: one per "
                              f"seat ({n})")
    if isinstance(rec, MatchDealRecord):
        k = 2 if rules.teams == "partners" else n
        mo = rec.match
        for name in ("before", "credited", "after"):
            if len(getattr(mo, name)) != k:
                raise RecordError(f"{where}: field match.{name} holds {len(getattr(mo, name))} values; allowed: "
                                  f"one per side ({k})")
        if mo.winner is not None and mo.winner >= k:
            raise RecordError(f"{where}: field match.winner = {mo.winner} is invalid; allowed: a side 0 .. {k - 1} "
                              "or null")
    return rec, rules


# ---- the first difference between a record and the engine's replay --------------------------------
def action_text(a: dict[str, Any] | None) -> str:
    """An action as a person reads it: ``play 3-6 lead (0 points, bonus 0)``, ``draw 5-6``, ``pass``."""
    if a is None:
        return "nothing"
    if a.get("act") == "play":
        return f"play {a.get('tile')} {a.get('end')} ({a.get('points')} points, bonus {a.get('bonus')})"
    if a.get("act") == "draw":
        return f"draw {a.get('tile')}"
    return str(a.get("act"))


def first_difference(where: str, recorded: Sequence[dict], ours: Sequence[dict], end: str | None = None,
                     error: type[ReplayError] = ReplayError) -> None:
    """Raise ``error`` naming the first action in which ``recorded`` and ``ours`` (the engine's) differ:
    its index, its seat, the recorded action and the expected one. Nothing when they are equal."""
    for i in range(max(len(recorded), len(ours))):
        r = recorded[i] if i < len(recorded) else None
        o = ours[i] if i < len(ours) else None
        if r is not None and o is not None and r.get("seat") != o.get("seat"):
            raise error(f"{where}, action {i}: recorded seat {shown(r.get('seat'), 20)}: {action_text(r)}, but seat "
                        f"{o.get('seat')} is due: expected {action_text(o)}")
        if r != o:
            seat = (r or o or {}).get("seat")
            note = f" (the deal had ended: {end})" if o is None and end else ""
            raise error(f"{where}, action {i}, seat {seat}: recorded {action_text(r)}, expected "
                        f"{action_text(o)}{note}")


# ---- reading a trace file ----------------------------------------------------------------------
def read_jsonl(path: Path) -> Iterator[tuple[str, Any]]:
    """Each non-blank line of a JSON Lines file as (``FILE:LINE``, parsed value); RecordError naming the file
    and line when the file is missing, a folder, not UTF-8 text, or a line is not JSON."""
    path = Path(path)
    problem = not_a_file(path)
    if problem == "no such file":
        raise RecordError(f"trace file {path} does not exist")
    if problem and not problem.startswith(("a FIFO", "a device")):  # a pipe streams records: <(simdom trace ...)
        raise RecordError(f"{path} is {problem}; allowed: a JSON Lines trace file (simdom trace -o FILE)")
    try:
        with reading_lines(path, "a JSON Lines trace file, or a pipe a process writes: <(simdom trace ...)") as lines:
            for n, raw in enumerate(lines, 1):
                where = f"{path}:{n}"
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise RecordError(f"{where}: not UTF-8 text; allowed: a JSON Lines trace file") from None
                if not line.strip():
                    continue
                try:
                    value = json.loads(line.removeprefix(BOM), object_pairs_hook=unique_keys)  # a key twice: refused
                except (ValueError, RecursionError) as e:
                    raise RecordError(f"{where}: not a JSON line ({str(e)[:80] or 'nested too deeply'})") from None
                try:
                    check_depth(value, where)
                except InputError as e:
                    raise RecordError(str(e)) from None
                yield where, value
    except InputError as e:  # a FIFO that no process writes
        raise RecordError(str(e)) from None
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None


def check_dealt(where: str, record: dict[str, Any], dealt: dict[str, Any], what: str,
                error: type[ReplayError] = ReplayError) -> None:
    """The record's first seat, hands and boneyard against ``dealt`` (the engine's record of the deal its
    seed gives); ``error`` naming the first that differs (a seat's hand, not every hand)."""
    for name in ("hands", "boneyard", "first"):
        ours, theirs = dealt[name], record[name]
        if ours == theirs:
            continue
        path = name
        if name == "hands":
            s = next(s for s in range(len(ours)) if s >= len(theirs) or ours[s] != theirs[s])
            path, ours, theirs = f"hands[{s}]", ours[s], theirs[s] if s < len(theirs) else None
        raise error(f"{where}: recorded {path} {theirs!r} is not {what} (expected {ours!r})")


def not_legal(where: str, i: int, action: dict[str, Any], st: Any, error: type[ReplayError] = ReplayError) -> ReplayError:
    """The error for a recorded play that the engine refuses: the action, and what the rules allowed there
    (``st`` a DealState after its forced draws and passes)."""
    from ..tiles import tile_name
    if st.ended:
        allowed = f"nothing (the deal had ended: {st.ended.label})"
    else:
        moves = ", ".join(f"{tile_name(t, st.rules.max_pip)} {e.label}" for t, e in st.legal())
        allowed = f"a play of seat {st.turn}: {moves}"
    return error(f"{where}, action {i}, seat {action.get('seat')}: recorded {action_text(action)}, expected {allowed}")

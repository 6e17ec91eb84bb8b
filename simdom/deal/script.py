"""Scripted deals: fixed hands, boneyard order, first seat and a list of moves, replayed by the engine.

A scripted deal is a small TOML file (the repo ships scenarios/seed-game.deal.toml, docs/rules.md 9)::

    name = "the seed game"
    rules = "threes"                 # a preset
    players = 4
    first = 0                        # the seat that leads
    hands = [["3-6", "1-4"], ...]    # one list per seat
    boneyard = ["5-6", "0-0"]        # top first
    moves = ["3-6 lead", "3-5 L"]    # placements only: "TILE END", END one of lead, L, R, U, D
    then = "greedy"                  # optional: policies that finish the deal after the script

    [overrides]                      # optional rule overrides
    min_ends = 3

    [expect]                         # optional: checked by `simdom replay --script` and the tests
    points = [0, 0, 6]               # per scripted move
    bonus = [0, 0, 0]
    totals = [10, 0, 6, 6]           # after the script (after `then`, if given)

Draws and passes are forced by the rules, so the engine plays them itself; a scripted move that is
not legal at its turn is an error naming the move and the legal ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..engine.codes import End
from ..engine.state import DealState
from ..safeio import InputError, loads_toml, not_a_file
from ..policies import PolicyError, seat_policies
from ..rules import PRESETS, Rules, RulesError, preset
from ..tiles import parse_tile, tile_name


class ScriptError(ValueError):
    pass


@dataclass
class Script:
    name: str
    rules: Rules
    first: int
    hands: list[list[int]]
    boneyard: list[int]
    moves: list[tuple[int, int]]
    then: str | list[str] | None = None
    expect: dict[str, list[int]] = field(default_factory=dict)


class ScriptModel(BaseModel):
    """The scripted deal file as written (its keys); every value's type is checked, nothing is guessed."""
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Optional[str] = None
    rules: str
    players: int = Field(ge=2, le=4)
    first: int = Field(ge=0, le=3)
    hands: list[list[str]]
    boneyard: list[str]
    moves: list[str]
    then: Union[str, list[str], None] = None
    overrides: dict[str, Any] = Field(default_factory=dict)
    expect: dict[Literal["points", "bonus", "totals"], list[int]] = Field(default_factory=dict)


_HINTS = {"rules": f"a preset name: {', '.join(PRESETS)}", "players": "2, 3 or 4", "first": "a seat 0 .. players - 1",
          "hands": "one list of tiles per seat, e.g. [[\"3-6\", \"1-4\"], ...]", "boneyard": "a list of tiles, top first",
          "moves": "a list of 'TILE END' strings, e.g. \"3-6 lead\"", "then": "a policy or one policy per seat",
          "overrides": "a table of rule parameters", "expect": "a table with points, bonus and totals lists",
          "name": "a string"}


def _problem(where: str, e: ValidationError) -> ScriptError:
    err = e.errors()[0]
    loc = [p for p in err["loc"] if p not in ("str", "list[str]", "none", "[key]")]
    path = "".join(f"[{p}]" if isinstance(p, int) else ("." if i else "") + str(p) for i, p in enumerate(loc))
    top = str(loc[0]) if loc else ""
    if err["type"] == "extra_forbidden":
        return ScriptError(f"{where}: unknown field {path!r}; allowed: {', '.join(ScriptModel.model_fields)}")
    if err["type"] == "missing":
        return ScriptError(f"{where}: missing field {path!r}; allowed: {_HINTS.get(top, 'see docs/commands.md, Scripted deals')}")
    value = repr(err.get("input"))
    return ScriptError(f"{where}: field {path} = {value if len(value) < 40 else value[:37] + '...'} is invalid "
                       f"({err['msg'].lower()}); allowed: {_HINTS.get(top, 'see docs/commands.md, Scripted deals')}")


def load_script(path: str | Path) -> Script:
    path = Path(path)
    where = f"{path}"
    problem = not_a_file(path)
    if problem == "no such file":
        raise ScriptError(f"{where}: no such file")
    if problem:
        raise ScriptError(f"{where} is {problem}; allowed: a scripted deal file (TOML)")
    try:
        data = loads_toml(path.read_text(encoding="utf-8"), where)
    except FileNotFoundError:
        raise ScriptError(f"{where}: no such file") from None
    except UnicodeDecodeError:
        raise ScriptError(f"{where}: not UTF-8 text; allowed: a scripted deal file (TOML)") from None
    except InputError as e:
        raise ScriptError(str(e)) from None
    try:
        m = ScriptModel.model_validate(data)
    except ValidationError as e:
        raise _problem(where, e) from None
    if "players" in m.overrides:
        raise ScriptError(f"{where}: overrides.players: the players are the script's players field; allowed: "
                          "rule parameters in [overrides]")
    try:
        rules = preset(m.rules, players=m.players, **m.overrides)
    except RulesError as e:
        raise ScriptError(f"{where}: {e}") from None
    mp = rules.max_pip

    def tile(text: str, what: str) -> int:
        try:
            return parse_tile(text, mp)
        except ValueError as e:
            raise ScriptError(f"{where}: {what}: {e}") from None

    hands = [[tile(t, f"hands[{s}][{i}]") for i, t in enumerate(h)] for s, h in enumerate(m.hands)]
    if len(hands) != rules.players:
        raise ScriptError(f"{where}: hands has {len(hands)} seats; allowed: one list per player ({rules.players})")
    boneyard = [tile(t, f"boneyard[{i}]") for i, t in enumerate(m.boneyard)]
    every = [t for h in hands for t in h] + boneyard
    if len(set(every)) != len(every):
        twice = next(t for t in every if every.count(t) > 1)
        raise ScriptError(f"{where}: tile {tile_name(twice, mp)} is dealt twice; allowed: every tile once")
    if m.first >= rules.players:
        raise ScriptError(f"{where}: first = {m.first}; allowed: a seat 0..{rules.players - 1}")
    moves = []
    for i, mv in enumerate(m.moves):
        parts = mv.split()
        if len(parts) != 2 or parts[1] not in End.labels():
            raise ScriptError(f"{where}: moves[{i}] = {mv!r}; allowed: 'TILE END' with END one of "
                              f"{', '.join(End.labels())}, e.g. '3-6 lead'")
        moves.append((tile(parts[0], f"moves[{i}]"), End.parse(parts[1])))
    if m.then is not None:
        try:
            seat_policies(m.then, rules.players)
        except PolicyError as e:
            raise ScriptError(f"{where}: then: {e}") from None
    return Script(m.name if m.name is not None else path.stem, rules, m.first, hands, boneyard, moves, m.then,
                  dict(m.expect))


def run_script(script: Script, seed: int = 0) -> tuple[DealState, list[tuple[int, int, int, int]]]:
    """Replay the script's moves; returns the deal state and each move's (points, bonus, k, S)."""
    try:
        st = DealState(script.rules, script.hands, script.boneyard, script.first)
    except ValueError as err:
        raise ScriptError(f"not a deal of its rules: {err}") from None
    results = []
    for i, (t, e) in enumerate(script.moves):
        try:
            results.append(st.play(t, e))
        except ValueError as err:
            raise ScriptError(f"move {i + 1}: {err}") from None
    if script.then and not st.ended:
        st.play_out(script.then, seed)
    return st, results


def check_expectations(script: Script, st: DealState, results: list[tuple[int, int, int, int]]) -> list[str]:
    """The expectations of the script's [expect] table that do not hold (empty: all hold)."""
    bad = []
    got = {"points": [r[0] for r in results], "bonus": [r[1] for r in results], "totals": st.totals()}
    for key, want in script.expect.items():
        if key not in got:
            bad.append(f"unknown expectation {key!r}; allowed: {', '.join(got)}")
        elif list(want) != got[key]:
            bad.append(f"{key}: expected {list(want)}, got {got[key]}")
    return bad


"""Scripted deals: fixed hands, boneyard order, first seat and a list of moves, replayed by the engine.

A scripted deal is a small TOML file (the repo ships scenarios/seed-game.deal.toml, RULES.md 9)::

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

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.codes import End
from ..engine.state import DealState
from ..rules import Rules, RulesError, preset
from ..tiles import parse_tile


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


def load_script(path: str | Path) -> Script:
    path = Path(path)
    where = f"{path}"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScriptError(f"{where}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise ScriptError(f"{where}: not valid TOML ({e})") from None
    allowed = {"name", "rules", "players", "first", "hands", "boneyard", "moves", "then", "overrides", "expect"}
    for key in data:
        if key not in allowed:
            raise ScriptError(f"{where}: unknown field {key!r}; allowed: {', '.join(sorted(allowed))}")
    for key in ("rules", "players", "first", "hands", "boneyard", "moves"):
        if key not in data:
            raise ScriptError(f"{where}: missing field {key!r}")
    try:
        rules = preset(data["rules"], players=data["players"], **data.get("overrides", {}))
    except RulesError as e:
        raise ScriptError(f"{where}: {e}") from None
    mp = rules.max_pip

    def tile(text: str, what: str) -> int:
        try:
            return parse_tile(text, mp)
        except ValueError as e:
            raise ScriptError(f"{where}: {what}: {e}") from None

    hands = [[tile(t, f"hands[{s}]") for t in h] for s, h in enumerate(data["hands"])]
    if len(hands) != rules.players:
        raise ScriptError(f"{where}: hands has {len(hands)} seats; allowed: one list per player ({rules.players})")
    boneyard = [tile(t, "boneyard") for t in data["boneyard"]]
    every = [t for h in hands for t in h] + boneyard
    if len(set(every)) != len(every):
        raise ScriptError(f"{where}: a tile is dealt twice")
    if not (isinstance(data["first"], int) and 0 <= data["first"] < rules.players):
        raise ScriptError(f"{where}: first = {data['first']!r}; allowed: a seat 0..{rules.players - 1}")
    moves = []
    for i, m in enumerate(data["moves"]):
        parts = str(m).split()
        if len(parts) != 2 or parts[1] not in End.labels():
            raise ScriptError(f"{where}: moves[{i}] = {m!r}; allowed: 'TILE END' with END one of "
                              f"{', '.join(End.labels())}, e.g. '3-6 lead'")
        moves.append((tile(parts[0], f"moves[{i}]"), End.parse(parts[1])))
    return Script(data.get("name", path.stem), rules, data["first"], hands, boneyard, moves,
                  data.get("then"), dict(data.get("expect", {})))


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


"""What ``simdom table`` accepts from a request, checked: the rules, their overrides, a seed, a seat and a
move; a refused one raises :class:`TableError` (one line naming it and what is allowed)."""
from __future__ import annotations

from typing import Any

from ..engine.codes import End
from ..rules import PRESETS, Rules, RulesError, preset
from ..tiles import parse_tile

MAX_SEED = 2**63 - 1


class TableError(ValueError):
    """A refused input: one line naming it and what is allowed; the game is unchanged."""


def make_rules(name: Any, players: Any, overrides: Any) -> Rules:
    if name not in PRESETS:
        raise TableError(f"rules {name!r}; allowed: {', '.join(PRESETS)}")
    if type(players) is not int or players not in (2, 3, 4):
        raise TableError(f"players {players!r}; allowed: 2, 3 or 4")
    if not isinstance(overrides, dict):
        raise TableError("overrides: allowed: an object of rule parameters, e.g. {\"min_ends\": 2}")
    try:
        return preset(name, players=players, **overrides)
    except (RulesError, TypeError) as e:
        raise TableError(f"rules: {e}") from None


def parse_overrides(text: str) -> dict[str, Any]:
    """``min_ends=2, divisors=[3,5]``: PARAMETER=VALUE items (a value read as JSON, else as text)."""
    import json
    out: dict[str, Any] = {}
    for item in [x.strip() for x in _split(text or "")]:
        if not item:
            continue
        k, eq, v = item.partition("=")
        if not eq or not k.strip():
            raise TableError(f"override {item!r}; allowed: PARAMETER=VALUE items separated by commas, "
                             "e.g. min_ends=2")
        try:
            out[k.strip()] = json.loads(v)
        except ValueError:
            out[k.strip()] = v.strip()
    return out


def _split(text: str) -> list[str]:
    """Split at commas outside brackets."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "[{" and 1 or (-1 if ch in "]}" else 0)
        if ch in ",\n" and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def check_seed(seed: Any) -> int:
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise TableError(f"seed {seed!r}; allowed: an integer from 0 to {MAX_SEED}")
    return seed


def check_seat(seat: Any, players: int) -> int:
    if type(seat) is not int or not 0 <= seat < players:
        raise TableError(f"seat {seat!r}; allowed: a seat 0..{players - 1}")
    return seat


def parse_move(tile: Any, end: Any, rules: Rules) -> tuple[int, End]:
    if not isinstance(tile, str):
        raise TableError(f"tile {tile!r}; allowed: a tile written A-B, e.g. 3-6")
    try:
        t = parse_tile(tile, rules.max_pip, strict_order=False)
    except ValueError as e:
        raise TableError(str(e)) from None
    if end not in End.labels():
        raise TableError(f"end {end!r}; allowed: {', '.join(End.labels())}")
    return t, End.parse(end)

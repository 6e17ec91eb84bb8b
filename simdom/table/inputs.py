"""What ``simdom table`` accepts from a request, checked: the rules, their overrides, a seed, a seat and a
move; a refused one raises :class:`TableError` (one line naming it and what is allowed)."""
from __future__ import annotations

import json
import re
from typing import Any

from ..engine.codes import End
from ..policies import PolicyError, parse_policy
from ..present import MAX_SEED
from ..rules import PRESETS, Rules, RulesError, preset
from ..tiles import parse_tile

#: the deepest nesting of arrays and objects a request body may have (the deepest accepted is 2)
MAX_DEPTH = 8
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


class TableError(ValueError):
    """A refused input: one line naming it and what is allowed; the game is unchanged."""


def shown(value: Any, width: int = 40) -> str:
    """``value`` as a refusal names it: its repr, cut to ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def parse_body(raw: bytes) -> dict[str, Any]:
    """A request's body: a JSON object in UTF-8, nested at most :data:`MAX_DEPTH` deep."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TableError("malformed request: the body is not UTF-8; allowed: a JSON object") from None
    depth = deepest = 0
    for ch in _STRINGS.sub("", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > MAX_DEPTH:
        raise TableError(f"malformed request: JSON nested {deepest} deep; allowed: a JSON object nested at most "
                         f"{MAX_DEPTH} deep")
    try:
        data = json.loads(text or "{}")
    except (ValueError, RecursionError) as e:
        why = getattr(e, "msg", None) or ("a number of more than 4,300 digits" if "digits" in str(e) else "unreadable")
        raise TableError(f"malformed request: not JSON ({why}); allowed: a JSON object") from None
    if not isinstance(data, dict):
        raise TableError("malformed request: allowed: a JSON object")
    return data


def integer(data: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    """``data[key]`` as an integer from ``lo`` to ``hi`` (a JSON number, or ASCII digits in a string)."""
    v = data.get(key, default)
    if v is None or v == "":
        v = default
    if isinstance(v, str) and v.strip().lstrip("-").isascii() and v.strip().lstrip("-").isdigit() \
            and len(v.strip()) <= 20:
        v = int(v)
    if type(v) is not int or not lo <= v <= hi:
        raise TableError(f"{key} {shown(v)}; allowed: an integer from {lo} to {hi:,}")
    return v


def policy(value: Any, what: str, default: str = "greedy") -> str:
    """The one check of a policy a request names (a bot, ``then``): a compiled policy only, never a
    ``python:`` one (which would import and run code); its canonical text."""
    value = default if value in (None, "") else value
    if not isinstance(value, str):
        raise TableError(f"{what} {shown(value)}; allowed: a compiled policy, e.g. greedy")
    try:
        return str(parse_policy(value))
    except PolicyError as e:
        raise TableError(f"{what}: {e}") from None


#: the currencies a hint, the tutor and the review value moves in (simdom analyze --by)
CURRENCIES = ("win", "points", "margin")


def currency(value: Any) -> str:
    """The currency of a hint, the tutor or a review: the chance to win the deal (the default), its
    points, or its margin."""
    value = "win" if value in (None, "") else value
    if value not in CURRENCIES:
        raise TableError(f"by {shown(value)}; allowed: {', '.join(CURRENCIES)}")
    return value


def bots(value: Any, players: int) -> list[str]:
    """The bots' policies: one for every seat, or one per seat, each checked by :func:`policy`."""
    value = value or ["greedy"]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise TableError("bots: allowed: a list of policies, one per seat")
    if len(value) == 1:
        value = value * players
    if len(value) != players:
        raise TableError(f"{len(value)} bots for {players} players; allowed: one per seat")
    return [policy(v, "bots") for v in value]


def names(value: Any, players: int) -> list[str] | None:
    """The seats' names (None: "seat N"): one a seat, a list or a comma-separated string, each 1 to 20
    letters, digits, spaces or ``.-_'``."""
    if value in (None, "", []):
        return None
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")]
    ok = isinstance(value, list) and len(value) == players and all(
        isinstance(v, str) and 1 <= len(v) <= 20 and re.fullmatch(r"[\w .'-]+", v) for v in value)
    if not ok:
        raise TableError(f"names {shown(value)}; allowed: {players} names separated by commas, each 1 to 20 "
                         "letters, digits, spaces or .-_'")
    return list(value)


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

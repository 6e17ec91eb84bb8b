"""A view read: from its file (JSON or TOML) or parsed object, each field checked (:class:`ViewError` naming the
first bad one), or from ``--hand`` and the compact notation of ``--seen``; simdom analyze's options for a
viewed position (docs/analysis.md). simdom.analyze.view checks the history and fills the hidden tiles."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.codes import End
from ..rules import Rules, RulesError, from_dict, preset
from ..safeio import InputError, loads_json, loads_toml, not_a_file, shown
from ..tiles import parse_tile, tile_name
from .view import ACTS, VIEW_FIELDS, View, ViewError, view_deal


# ---- reading ------------------------------------------------------------------------------------------
def _rules(value: Any, players: Any, where: str) -> Rules:
    if players is not None and (type(players) is not int or players not in (2, 3, 4)):
        raise ViewError(f"{where}: players = {shown(players)}; allowed: 2, 3 or 4")
    try:
        if isinstance(value, str):
            return preset(value, players=4 if players is None else players)
        if isinstance(value, dict) and "preset" in value:
            over = {k: v for k, v in value.items() if k not in ("preset", "players")}
            n = value.get("players", players)
            if players is not None and n != players:
                raise ViewError(f"{where}: rules.players = {n} but players = {players}; allowed: one player count")
            return preset(value["preset"], players=4 if n is None else n, **over)
        if isinstance(value, dict):
            r = from_dict(value)
            if players is not None and r.players != players:
                raise ViewError(f"{where}: rules.players = {r.players} but players = {players}; allowed: one "
                                "player count")
            return r
    except (RulesError, TypeError) as e:
        raise ViewError(f"{where}: rules: {e}") from None
    raise ViewError(f"{where}: rules = {shown(value)}; allowed: a preset name, {{\"preset\": NAME, <overrides>}} or "
                    "a trace's rules object")


def _int(data: dict, key: str, where: str, hi: int) -> int:
    v = data.get(key)
    if type(v) is not int or not 0 <= v < hi:
        raise ViewError(f"{where}: {key} = {shown(v)}; allowed: a seat 0..{hi - 1}")
    return v


def view_from_data(data: Any, where: str = "the view") -> View:
    """A view from its parsed JSON/TOML object; ViewError naming the first bad field."""
    if not isinstance(data, dict):
        raise ViewError(f"{where}: not an object; allowed: an object with {', '.join(VIEW_FIELDS)}")
    extra = [k for k in data if k not in VIEW_FIELDS]
    if extra:
        hint = " (a full deal with every hand: --script or --trace)" if extra[0] in ("hands", "boneyard") else ""
        raise ViewError(f"{where}: unknown field {extra[0]!r}; allowed: {', '.join(VIEW_FIELDS)}{hint}")
    for k in ("rules", "seat", "hand"):
        if k not in data:
            raise ViewError(f"{where}: missing field {k!r}; allowed: {', '.join(VIEW_FIELDS)}")
    if data.get("scores") not in (None, []):
        raise ViewError(f"{where}: scores: the scores of a match before the deal are not analysed yet; allowed: "
                        "a single deal (leave scores out)")
    rules = _rules(data["rules"], data.get("players"), where)
    n, mp = rules.players, rules.max_pip
    seat = _int(data, "seat", where, n)
    first = _int(data, "first", where, n) if "first" in data else seat

    def tile(text: Any, what: str) -> int:
        try:
            return parse_tile(text, mp)
        except ValueError as e:
            raise ViewError(f"{where}: {what}: {e}") from None

    if not isinstance(data["hand"], list):
        raise ViewError(f"{where}: hand = {shown(data['hand'])}; allowed: a list of tiles, e.g. [\"3-6\", \"1-4\"]")
    hand = [tile(t, f"hand[{i}]") for i, t in enumerate(data["hand"])]
    acts = data.get("actions", [])
    if not isinstance(acts, list):
        raise ViewError(f"{where}: actions = {shown(acts)}; allowed: a list of actions (docs/rules.md 11)")
    actions = []
    for i, a in enumerate(acts):
        if not isinstance(a, dict) or a.get("act") not in ACTS or type(a.get("seat")) is not int \
                or not 0 <= a["seat"] < n:
            raise ViewError(f"{where}: actions[{i}] = {shown(a)}; allowed: {{\"seat\": 0..{n - 1}, \"act\": "
                            "play|draw|pass, ...}")
        extra = set(a) - {"seat", "act", "tile", "end", "points", "bonus"}
        if extra:
            raise ViewError(f"{where}: actions[{i}]: unknown field {sorted(extra)[0]!r}; allowed: seat, act, tile, "
                            "end, points, bonus")
        t = None if a.get("tile") is None else tile(a["tile"], f"actions[{i}].tile")
        e = None
        if a["act"] == "play":
            if t is None or a.get("end") not in End.labels():
                raise ViewError(f"{where}: actions[{i}] = {shown(a)}; allowed: a play with a tile and an end "
                                f"({', '.join(End.labels())})")
            e = End.parse(a["end"])
        elif a["act"] == "pass" and t is not None:
            raise ViewError(f"{where}: actions[{i}]: a pass carries no tile")
        actions.append({"seat": a["seat"], "act": a["act"], "tile": t, "end": e,
                        **{k: a[k] for k in ("points", "bonus") if k in a}})
    name = data.get("name") if isinstance(data.get("name"), str) else where
    return View(rules, seat, first, hand, actions, name)


def load_view(path: str | Path) -> View:
    """A view file: JSON (``.json``) or TOML (any other suffix)."""
    path = Path(path)
    problem = not_a_file(path)
    if problem:
        raise ViewError(f"{path}: {problem}" if problem == "no such file" else
                        f"{path} is {problem}; allowed: a view file (JSON or TOML)")
    try:
        text = path.read_text(encoding="utf-8")
        data = loads_json(text, str(path)) if path.suffix == ".json" else loads_toml(text, str(path))
    except UnicodeDecodeError:
        raise ViewError(f"{path}: not UTF-8 text; allowed: a view file (JSON or TOML)") from None
    except InputError as e:
        raise ViewError(str(e)) from None
    return view_from_data(data, str(path))


# ---- the compact notation of --seen -----------------------------------------------------------------
def parse_seen(text: str, rules: Rules, seat: int) -> list[dict[str, Any]]:
    """``0:3-6 1:3-5L 2:d 2:0-5L 3:p 0:d5-6``: seat:TILE END (END one of L, R, U, D; none for the lead),
    seat:d a draw (the viewer's own draw: seat:dTILE), seat:p a pass (docs/analysis.md)."""
    out = []
    for i, tok in enumerate(text.split()):
        s, sep, rest = tok.partition(":")
        bad = ViewError(f"--seen token {i + 1} {tok!r}; allowed: SEAT:TILE END (3:0-5L, the lead 0:3-6), SEAT:d, "
                        "the viewer's SEAT:dTILE, SEAT:p")
        if not sep or not s.isdigit() or not rest or int(s) >= rules.players:
            raise bad
        s = int(s)
        try:
            if rest == "p":
                out.append({"seat": s, "act": "pass"})
            elif rest[0] == "d":
                out.append({"seat": s, "act": "draw", **({"tile": tile_name(parse_tile(rest[1:], rules.max_pip),
                                                                           rules.max_pip)} if rest[1:] else {})})
            else:
                end = rest[-1] if rest[-1] in "LRUD" else "lead"
                body = rest[:-1] if end != "lead" else rest
                out.append({"seat": s, "act": "play", "tile": tile_name(parse_tile(body, rules.max_pip),
                                                                        rules.max_pip), "end": end})
        except ValueError:
            raise bad from None
    return out


def view_from_hand(rules: Rules, hand: str, seen: str | None, seat: int = 0) -> View:
    """The view of ``--hand`` (the viewer's tiles) and ``--seen`` (the actions so far); the first action's
    seat led (the viewer, when nothing is seen)."""
    mp = rules.max_pip
    try:
        tiles = [tile_name(parse_tile(t, mp), mp) for t in hand.replace(",", " ").split()]
    except ValueError as e:
        raise ViewError(f"--hand: {e}") from None
    actions = parse_seen(seen or "", rules, seat)
    first = actions[0]["seat"] if actions else seat
    return view_from_data({"rules": rules.to_dict(), "seat": seat, "first": first, "hand": tiles,
                           "actions": actions}, "--hand/--seen")


def view_options(script, trace_file, position, hand, seen, deal, every, perfect) -> str | None:
    """What is wrong with ``simdom analyze``'s options for a viewed position, or None."""
    if position is not None and hand is not None:
        return "--position and --hand both given; allowed: one of them"
    if script is not None or trace_file is not None or deal is not None:
        return "--position/--hand with --script, --trace or --deal; allowed: one position source"
    if every:
        return "--all does not apply to --position/--hand; allowed: --move N (a placement of the viewer)"
    if perfect:
        return "--perfect-information needs the true hidden tiles; allowed: --script or --trace"
    if seen is not None and hand is None:
        return "--seen needs --hand (the viewer's tiles)"
    return None


def viewer_position(path, rules: Rules | None, hand: str | None, seen: str | None, seat: int, move: int | None):
    """The position of ``--position FILE`` or of ``--hand``/``--seen`` (with ``rules``); ViewError if bad."""
    if path is not None:
        view = load_view(path)
    else:
        if not 0 <= seat < rules.players:
            raise ViewError(f"--seat {seat}; allowed: a seat 0..{rules.players - 1}")
        view = view_from_hand(rules, hand, seen, seat)
    return view_deal(view, move)

"""A position as one seat saw it: its hand, the layout's history, nothing hidden (docs/analysis.md).

A *view* holds the rules, the players, the viewer's ``seat``, the seat that led (``first``), the
viewer's initial ``hand`` and the ``actions`` so far in the form of docs/rules.md section 11, where a
draw by another seat carries no tile (the viewer did not see it)::

    {"rules": "threes" | {"preset": "threes", <overrides>} | {<a trace's resolved rules>},
     "players": 4, "seat": 1, "first": 0, "hand": ["1-1", "1-5", ...],
     "actions": [{"seat": 0, "act": "play", "tile": "3-6", "end": "lead"},
                 {"seat": 1, "act": "draw", "tile": "5-6"}, {"seat": 2, "act": "draw"}, ...]}

:func:`check_view` walks the history and refuses the first action that cannot have happened (a tile
seen twice, a play that does not fit its end, a play out of turn, a draw while the viewer could play or
while the boneyard was empty, a pass while it could draw, an action after the deal ended, a hand of
the wrong size, hidden hands that cannot be filled): one line naming the action and why. It then
builds one full deal consistent with the view: the viewer's hand and draws as given, the other seats'
tiles and the boneyard filled with unseen tiles so that each seat holds, at every draw or pass, no
tile with a value it showed it lacked then (a bipartite matching of tiles to the seats' hand and draw
slots). The engine replays that deal, and must reproduce the view's actions.

The analysis (engine/analysis.py) never reads the hidden tiles: it re-deals them from what the seat to
act sees (its hand, the layout, the counts, the values each seat showed it lacked), so the values
of a view equal those of the full record of the same position with the same seed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from ..engine.codes import End
from ..engine.state import LayoutState
from ..rules import Draw, Rules, preset
from ..tiles import halves, tile_index, tile_name
from .position import Deal, PositionError

VIEW_FIELDS = ("name", "rules", "players", "seat", "first", "hand", "actions", "scores")
ACTS = ("play", "draw", "pass")


class ViewError(PositionError):
    """A view that cannot be read or cannot have happened: one line naming the problem."""


@dataclass
class View:
    rules: Rules
    seat: int
    first: int
    hand: list[int]
    actions: list[dict[str, Any]]   #: {"seat", "act", "tile" (int or None), "end" (End or None), ...}
    name: str = "the view"

    def text(self, i: int) -> str:
        """``actions[3] (seat 2 draw)``: an action as the messages name it."""
        a = self.actions[i]
        mp = self.rules.max_pip
        what = a["act"] + (f" {tile_name(a['tile'], mp)}" if a.get("tile") is not None else "")
        what += f" {a['end'].label}" if a.get("end") is not None else ""
        return f"actions[{i}] (seat {a['seat']} {what})"


# ---- the history checked, the hidden tiles filled ---------------------------------------------------
@dataclass
class _Seat:
    slots: list[int]                    #: when each tile slot was filled: -1 dealt, i the draw at actions[i]
    plays: dict[int, int]               #: tile -> the action that played it
    checks: list[tuple[int, set[int]]]  #: (action, end values) of each draw or pass: no tile of them held


def _walk(view: View) -> tuple[list[_Seat], list[tuple[int, int | None]], set[int], list[tuple[int, End]]]:
    """Check every action in order; returns per seat its slots, plays and checks, the draws in order
    (seat, tile or None), the tiles the viewer has seen, and the placements."""
    r, v = view.rules, view.seat
    n, mp = r.players, r.max_pip
    hs, reserve = r.hand_size[n - 2], r.boneyard_reserve[n - 2]
    if len(view.hand) != hs:
        raise ViewError(f"{view.name}: hand has {len(view.hand)} tiles; allowed: {hs} (hand_size for {n} players)")
    seen: dict[int, str] = {}
    for i, t in enumerate(view.hand):
        if t in seen:
            raise ViewError(f"{view.name}: hand[{i}] {tile_name(t, mp)} is in the hand twice")
        seen[t] = "the viewer's hand"
    mine = set(view.hand)
    seats = [_Seat([-1] * hs, {}, []) for _ in range(n)]
    counts = [hs] * n
    bone = r.n_tiles - n * hs
    lay = LayoutState(r)  # the engine's layout: its open ends, where a tile fits
    turn, passes, ended = view.first, 0, None
    draws: list[tuple[int, int | None]] = []
    plays: list[tuple[int, End]] = []
    lead_tile = None if r.lead.halves is None else tile_index(*r.lead.halves, mp)
    for i, a in enumerate(view.actions):
        s, act, t = a["seat"], a["act"], a["tile"]

        def no(why: str) -> ViewError:
            return ViewError(f"{view.name}: {view.text(i)} cannot have happened: {why}")

        if ended:
            raise no(f"the deal had ended ({ended})")
        if s != turn:
            raise no(f"seat {turn} was to act")
        mine_playable = [x for x in sorted(mine) if lay.placed == 0 or lay.ends_for(x)] if s == v else []
        if act == "play":
            if t in seen and not (s == v and t in mine):
                raise no(f"tile {tile_name(t, mp)} was seen before ({seen[t]})")
            if s == v and t not in mine:
                raise no(f"the viewer does not hold {tile_name(t, mp)}")
            why = lay.refusal(t, a["end"])
            if why:
                raise no(f"{tile_name(t, mp)} does not fit: {why}")
            if lay.placed == 0 and lead_tile is not None and t != lead_tile and lead_tile in mine:
                raise no(f"the lead rule {r.lead} makes the holder of it lead it, and the viewer holds it")
            if s == v:
                mine.discard(t)
            else:
                seats[s].plays[t] = i
            seen[t] = f"played at actions[{i}]"
            lay.place(t, a["end"])
            plays.append((t, a["end"]))
            counts[s] -= 1
            passes = 0
            turn = (s + 1) % n
            if counts[s] == 0:
                ended = "domino"
        elif act == "draw":
            if r.draw == Draw.NONE:
                raise no("the rules have draw = none")
            if bone <= reserve:
                raise no(f"the boneyard had no tile to draw ({bone} left, reserve {reserve})")
            if lay.placed == 0:
                raise no("nothing was placed yet, so every tile could lead")
            if s == v:
                if mine_playable:
                    raise no(f"the viewer could play {tile_name(mine_playable[0], mp)}")
                if t is None:
                    raise no("the viewer's own draw needs its tile")
                if t in seen:
                    raise no(f"tile {tile_name(t, mp)} was seen before ({seen[t]})")
                seen[t] = f"drawn at actions[{i}]"
                mine.add(t)
            else:
                if t is not None:
                    raise no("the viewer cannot see another seat's draw; allowed: a draw without a tile")
                seats[s].checks.append((i, set(lay.ends().values())))
                seats[s].slots.append(i)
            draws.append((s, t))
            bone -= 1
            counts[s] += 1
        else:
            if r.draw != Draw.NONE and bone > reserve and lay.placed > 0:
                raise no(f"the boneyard still had {bone - reserve} tile(s) to draw")
            if lay.placed == 0:
                raise no("nothing was placed yet, so every tile could lead")
            if s == v and mine_playable:
                raise no(f"the viewer could play {tile_name(mine_playable[0], mp)}")
            if s != v:
                seats[s].checks.append((i, set(lay.ends().values())))
            passes += 1
            turn = (s + 1) % n
            if passes == n:
                ended = "blocked"
    return seats, draws, set(seen), plays


def _fill(view: View, seats: list[_Seat], seen: set[int], upto: int) -> dict[tuple[int, int], int] | None:
    """Tiles for every other seat's slots (a bipartite matching), or None when no fill exists."""
    r, v = view.rules, view.seat
    A, B = halves(r.max_pip)
    lead_tile = None
    if r.lead.halves is not None:
        lead_tile = tile_index(*r.lead.halves, r.max_pip)
        first_play = next((a["tile"] for a in view.actions if a["act"] == "play"), None)
        if first_play is None or first_play == lead_tile:
            lead_tile = None  # nothing led yet, or the rule's tile led: no constraint on who held it
    played_by = {t: (s, i) for s, st in enumerate(seats) for t, i in st.plays.items()}
    unseen = [t for t in range(r.n_tiles) if t not in seen]
    slots = [(s, k) for s in range(r.players) if s != v for k in range(len(seats[s].slots))]

    def ok(t: int, slot: tuple[int, int]) -> bool:
        s, k = slot
        acq = seats[s].slots[k]
        if t in played_by:
            ps, rel = played_by[t]
            if ps != s:
                return False
        else:
            rel = upto
        if acq >= rel or (acq == -1 and t == lead_tile):
            return False
        return not any(acq < tau < rel and (int(A[t]) in vals or int(B[t]) in vals) for tau, vals in seats[s].checks)

    cand = {t: [sl for sl in slots if ok(t, sl)] for t in list(played_by) + unseen}
    owner: dict[tuple[int, int], int] = {}

    def augment(t: int, visited: set) -> bool:
        for sl in cand[t]:
            if sl in visited:
                continue
            visited.add(sl)
            if sl not in owner or augment(owner[sl], visited):
                owner[sl] = t
                return True
        return False

    for t in sorted(played_by):
        if not augment(t, set()):
            return None
    for t in unseen:
        if len(owner) == len(slots):
            break
        augment(t, set())
    return owner if len(owner) == len(slots) else None


def full_deal(view: View) -> Deal:
    """One full deal consistent with the view (module doc); ViewError naming the first impossible action."""
    seats, draws, seen, plays = _walk(view)
    owner = _fill(view, seats, seen, len(view.actions))
    if owner is None:
        # the first prefix that cannot be filled names the action that made it impossible
        for k in range(1, len(view.actions) + 1):
            sub = View(view.rules, view.seat, view.first, view.hand, view.actions[:k], view.name)
            s2, _, seen2, _ = _walk(sub)
            if _fill(sub, s2, seen2, k) is None:
                raise ViewError(f"{view.name}: {view.text(k - 1)} cannot have happened: no deal of the unseen tiles "
                                f"fits it (the hand counts, the tiles played and the values each seat showed it "
                                f"lacked do not add up)")
        raise ViewError(f"{view.name}: the hands cannot be filled; allowed: a history that can have happened")
    r, v = view.rules, view.seat
    hands = []
    for s in range(r.players):
        if s == v:
            hands.append(list(view.hand))
        else:
            hands.append([owner[(s, k)] for k, acq in enumerate(seats[s].slots) if acq == -1])
    drawn_by = {(s, k): owner[(s, k)] for (s, k) in owner if seats[s].slots[k] >= 0}
    k_of = {seats[s].slots[k]: (s, k) for (s, k) in drawn_by}
    boneyard, used = [], set(t for h in hands for t in h)
    draw_i = [i for i, a in enumerate(view.actions) if a["act"] == "draw"]
    for i, (s, t) in zip(draw_i, draws):
        boneyard.append(t if t is not None else drawn_by[k_of[i]])
    used |= set(boneyard)
    boneyard += [t for t in range(r.n_tiles) if t not in used]
    deal = Deal(r, hands, boneyard, view.first, plays, view.name)
    _check_replay(view, deal)
    return deal


def _check_replay(view: View, deal: Deal) -> None:
    """The engine, replaying the filled deal, must reproduce the view's actions (what the viewer saw)."""
    st = deal.start()
    for t, e in deal.plays:
        st.play(t, e)
    st.advance()
    ours = masked(st.actions, view.seat, view.rules)
    for i, a in enumerate(view.actions):
        want = {"seat": a["seat"], "act": a["act"]}
        if a["tile"] is not None:
            want["tile"] = tile_name(a["tile"], view.rules.max_pip)
        if a["end"] is not None:
            want["end"] = a["end"].label
        want.update({k: a[k] for k in ("points", "bonus") if k in a})
        got = ours[i] if i < len(ours) else None
        if got is None or any(got.get(k) != x for k, x in want.items()):
            scored = [k for k in ("points", "bonus") if k in want]  # what the file recorded beside the move
            raise ViewError(f"{view.name}: {view.text(i)} cannot have happened: recorded {_act_text(want, scored)}; "
                            f"the rules give {_act_text(got, scored)} here")


def _act_text(a: dict | None, scored: Sequence[str] = ()) -> str:
    """``seat 2 play 4-6 U, points 3``: an action and the scores named in ``scored``."""
    if a is None:
        return "nothing (the deal is over)"
    text = " ".join(str(x) for x in (f"seat {a['seat']}", a["act"], a.get("tile"), a.get("end")) if x is not None)
    return text + "".join(f", {k} {a.get(k, 0)}" for k in scored)


def masked(actions: Sequence[dict[str, Any]], seat: int, rules: Rules) -> list[dict[str, Any]]:
    """The actions as ``seat`` saw them: the other seats' draws without their tile."""
    return [{k: x for k, x in a.items() if not (k == "tile" and a["act"] == "draw" and a["seat"] != seat)}
            for a in actions]


def view_deal(view: View, move: int | None = None):
    """The viewer's position: just before placement ``move`` (default: the next placement, after the
    listed actions). ViewError if it is not the viewer's turn then."""
    deal = full_deal(view)
    nxt = len(deal.plays) + 1
    m = nxt if move is None else move
    if not 1 <= m <= nxt:
        raise ViewError(f"--move {m}: {view.name} has placements 1..{nxt}; allowed: --move 1 to {nxt}")
    pos = deal.position(m)
    if not pos.moves:
        raise ViewError(f"{view.name}: the deal is over after the listed actions; allowed: --move 1 to {nxt - 1}")
    if pos.seat != view.seat:
        mine = [i + 1 for i in range(nxt) if deal.position(i + 1).seat == view.seat and deal.position(i + 1).moves]
        where = f"--move {m}" if move is not None else f"{view.name}: after the listed actions"
        raise ViewError(f"{where}: seat {pos.seat} is to place tile {m}, not the viewer (seat {view.seat}); allowed: "
                        f"--move one of {', '.join(map(str, mine)) or 'none (the viewer places no tile)'}")
    if m == nxt:
        # the engine's forced draws must be the viewer's listed ones: an unlisted draw is a tile not yet seen
        listed = len(view.actions)
        extra = pos.state.actions[listed:]
        if extra:
            raise ViewError(f"{view.name}: the viewer (seat {view.seat}) holds no playable tile after the listed "
                            f"actions; allowed: list its draws (seat:dTILE) up to a playable tile, or its pass")
    return pos


def view_of(deal: Deal, seat: int, move: int | None = None) -> dict[str, Any]:
    """What ``seat`` saw of ``deal``: up to just before placement ``move`` (its forced draws included),
    or every known action; a dict in the form :func:`view_from_data` reads."""
    r = deal.rules
    if not 0 <= seat < r.players:
        raise ViewError(f"--seat {seat}; allowed: a seat 0..{r.players - 1}")
    if move is None:
        st = deal.start()
        for t, e in deal.plays:
            st.play(t, e)
        st.advance()
    else:
        st = deal.position(move).state
    return {"rules": r.to_dict(), "players": r.players, "seat": seat, "first": deal.first,
            "hand": [tile_name(t, r.max_pip) for t in deal.hands[seat]],
            "actions": masked(st.actions, seat, r)}


def dumps_view(view: dict[str, Any], fmt: str, rules: Rules | None = None) -> str:
    """The view as JSON or TOML text. TOML has no null (a first-double bonus without a last move):
    there the rules are written as their preset's name, when they are the preset's; else ViewError."""
    if fmt == "json":
        return json.dumps(view, indent=1) + "\n"
    if rules is not None and rules.preset and preset(rules.preset, players=rules.players) == rules:
        view = {**view, "rules": rules.preset}
    try:
        return _toml(view)
    except ValueError:
        raise ViewError("--format toml: these rules hold a null (no TOML form) and are not a preset's; allowed: "
                        "--format json") from None


def _toml(d: dict[str, Any]) -> str:
    """A small TOML writer for a view (strings, integers, lists, tables of those)."""
    def val(x: Any) -> str:
        if x is None:
            raise ValueError("None has no TOML form")
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, (int, float)):
            return repr(x)
        if isinstance(x, str):
            return json.dumps(x)
        if isinstance(x, list):
            return "[" + ", ".join(val(y) for y in x) + "]"
        if isinstance(x, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {val(y)}" for k, y in x.items() if y is not None) + "}"
        raise ValueError(f"{type(x).__name__} has no TOML form")

    top = [f"{k} = {val(x)}" for k, x in d.items() if k not in ("rules", "actions")]
    out = top + [f"rules = {val(d['rules'])}"]
    out.append("actions = [")
    out += [f"  {val(a)}," for a in d.get("actions", [])]
    out.append("]")
    return "\n".join(out) + "\n"

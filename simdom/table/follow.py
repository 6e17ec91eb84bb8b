"""A real game followed from one seat in ``simdom table`` (:class:`FollowGame`): the viewer enters its hand
and every action it sees; the game is a *view* (simdom/analyze/view.py: every action checked, the hidden
tiles filled consistently), across the deals of a match when the rules play one. Every change is tried first
and kept only when the view accepts it (:class:`~simdom.table.game.TableError` otherwise)."""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..analyze.position import Deal, PositionError
from ..analyze.view import full_deal
from ..analyze.viewread import view_from_data
from ..engine.codes import End
from ..engine.matches import MatchDeal, MatchState
from ..engine.solver import sides_of
from ..engine.state import DealState
from ..rules import Rules
from ..tiles import parse_tile, tile_name

from .game import Game, ending, history_lines, history_moves, seat_names
from .inputs import TableError, check_seat, parse_move


class FollowGame(Game):
    """A real game followed from one seat: the seat's hand, then every action as it happens (module doc)."""

    mode = "follow"

    def __init__(self, rules: Rules, seat: int, first: int, hand: Any, scores: Any = None,
                 names: list[str] | None = None):
        super().__init__(rules, seat, seat_names(rules.players, seat, names))
        self.hand_no = 0
        self.deal_rules = rules   # a match's later deals: the leader next_lead chose leads any tile
        self.scores0 = self._scores(scores) if rules.is_match else None
        self._begin(first, hand)

    def _scores(self, scores: Any) -> list[int]:
        """The sides' match scores before the deal (default 0: a new match)."""
        n = len(set(sides_of(self.rules)))
        if scores in (None, "", []):
            return [0] * n
        if isinstance(scores, str):
            try:
                scores = [int(x) for x in scores.replace(",", " ").split()]
            except ValueError:
                scores = None
        if not isinstance(scores, list) or len(scores) != n or not all(type(x) is int and x >= 0 for x in scores):
            raise TableError(f"scores {scores!r}; allowed: {n} integers >= 0, one per side, e.g. "
                             f"{', '.join(['0'] * n)}")
        return scores

    def _begin(self, first: Any, hand: Any) -> None:
        first = check_seat(first, self.rules.players)
        if isinstance(hand, str):
            hand = hand.replace(",", " ").split()
        if not isinstance(hand, list):
            raise TableError("hand: allowed: the seat's tiles, e.g. 1-1 1-5 5-5 3-5 2-2")
        mp = self.rules.max_pip
        try:
            tiles = [tile_name(parse_tile(t, mp, strict_order=False), mp) for t in hand]
        except (ValueError, TypeError) as e:
            raise TableError(f"hand: {e}") from None
        old = getattr(self, "first", None), getattr(self, "hand", None)
        self.first, self.hand = first, tiles
        try:
            self._deal = self._check([])
        except TableError:
            self.first, self.hand = old
            raise
        self.actions: list[dict[str, Any]] = []

    def next_deal(self, hand: Any, first: Any, scores: Any) -> None:
        """The match's next deal: your new hand, who leads, and the sides' scores now (the end bonus counted
        at the table: the other hands' pips are not seen here)."""
        if self.scores0 is None:
            raise TableError("this is a single deal; allowed: a new game (a match: set target, e.g. target=100)")
        if self.turn() is not None:
            raise TableError("the deal is still being played; allowed: the next deal once this one is over")
        new = self._scores(scores)
        keep = (self.scores0, self.hand_no, self.deal_rules, self.first, self.hand, self.actions, self._deal)
        self.scores0, self.hand_no = new, self.hand_no + 1
        self.deal_rules = dataclasses.replace(self.rules, lead="any")
        try:
            self._begin(first, hand)
        except TableError:
            self.scores0, self.hand_no, self.deal_rules, self.first, self.hand, self.actions, self._deal = keep
            raise
        self.version += 1

    def match_json(self) -> dict[str, Any] | None:
        """The match's scores: before the deal, and what the deal's placements have credited so far (the
        engine's own credit, engine/matches.py MatchState)."""
        if self.scores0 is None:
            return None
        ms = MatchState(self.rules, self.scores0)
        ms.begin_deal()
        d = self._deal
        md = MatchDeal(self.rules, d.hands, d.boneyard, d.first, None if self.hand_no == 0 else d.first)
        for t, e in d.plays:
            if md.ended is not None:
                break
            ms.play(md, t, int(e))
        side = sides_of(self.rules)
        placed = [0] * len(ms.scores)   # the deal's placements and first-double bonus, by side
        for s in range(self.rules.players):
            placed[side[s]] += md.seat(s).points + md.seat(s).bonus
        # the scores to carry to the next deal, before the end bonus counted at the table: under deal_end the
        # deal's points are credited at its end (the engine's credit needs the hidden hands), else as they came
        suggested = [b + p for b, p in zip(ms.before, placed)] if str(self.rules.match_end) == "deal_end" \
            else ms.scores
        return {"id": None, "hand": self.hand_no, "target": self.rules.target, "suggested": suggested,
                "sides": [[s for s in range(self.rules.players) if side[s] == j] for j in range(len(ms.scores))],
                "before": ms.before, "credited": ms.credited, "scores": ms.scores, "winner": ms.winner,
                "over": ms.winner is not None, "follow": True}

    def _check(self, actions: list[dict[str, Any]]) -> Deal:
        data = {"rules": self.deal_rules.to_dict(), "players": self.rules.players, "seat": self.seat,
                "first": self.first, "hand": self.hand, "actions": actions}
        try:
            return full_deal(view_from_data(data, "the game"))
        except PositionError as e:
            text = str(e).replace("the game: ", "", 1)
            text = re.sub(r"actions\[(\d+)\]", lambda m: f"action {int(m.group(1)) + 1}", text)
            raise TableError(re.sub(r"\bseat (\d)\b", lambda m: self.names[int(m.group(1))]
                                    if int(m.group(1)) < len(self.names) else m.group(0), text)) from None

    def view_dict(self) -> dict[str, Any]:
        return {"rules": self.deal_rules.to_dict(), "players": self.rules.players, "seat": self.seat,
                "first": self.first, "hand": list(self.hand), "actions": [dict(a) for a in self.actions]}

    def act(self, seat: Any, act: Any, tile: Any = None, end: Any = None) -> None:
        n, mp = self.rules.players, self.rules.max_pip
        check_seat(seat, n)
        if act not in ("play", "draw", "pass"):
            raise TableError(f"action {act!r}; allowed: play, draw, pass")
        a: dict[str, Any] = {"seat": seat, "act": act}
        if act == "play":
            t, e = parse_move(tile, end, self.rules)
            a.update(tile=tile_name(t, mp), end=e.label)
        elif act == "draw" and seat == self.seat:
            if not tile:
                raise TableError("your own draw needs its tile; allowed: the tile you drew, e.g. 5-6")
            t, _ = parse_move(tile, "L", self.rules)
            a["tile"] = tile_name(t, mp)
        elif tile:
            raise TableError(f"a {act} by another seat carries no tile (you cannot see it); allowed: {act} alone")
        trial = self.actions + [a]
        deal = self._check(trial)
        self.actions = trial
        self._deal = deal
        self.version += 1

    def undo(self) -> None:
        if not self.actions:
            raise TableError("nothing to undo; allowed: an action first")
        self.actions.pop()
        self._deal = self._check(self.actions)
        self.version += 1

    def state(self) -> DealState:
        """The filled deal (one deal consistent with what the seat saw) after the listed placements: its
        layout and the points scored are what everyone saw; its hidden hands are never shown."""
        st = self._deal.start()
        for t, e in self._deal.plays:
            st.play(t, int(e))
        return st

    def turn(self) -> int | None:
        """The seat to act after the listed actions (None: the deal is over)."""
        turn, passes, n = self.first, 0, self.rules.players
        counts = [len(self.hand)] * n
        for a in self.actions:
            if a["act"] == "play":
                counts[a["seat"]] -= 1
                passes = 0
                if counts[a["seat"]] == 0:
                    return None
                turn = (a["seat"] + 1) % n
            elif a["act"] == "draw":
                counts[a["seat"]] += 1
                turn = a["seat"]
            else:
                passes += 1
                if passes == n:
                    return None
                turn = (a["seat"] + 1) % n
        return turn

    def my_turn(self) -> bool:
        return self.turn() == self.seat

    def my_hand(self) -> list[str]:
        mp = self.rules.max_pip
        h = [parse_tile(t, mp) for t in self.hand]
        for a in self.actions:
            if a["seat"] == self.seat and a["act"] == "draw":
                h.append(parse_tile(a["tile"], mp))
            elif a["seat"] == self.seat and a["act"] == "play":
                h.remove(parse_tile(a["tile"], mp))
        return [tile_name(t, mp) for t in sorted(h)]

    def voids(self) -> list[list[int]]:
        """The values each seat showed it lacked, as the engine keeps them (engine/_kernel/core.py): a
        seat's first draw of a turn shows the open ends' values then (older knowledge is void once it
        draws), a pass adds them."""
        n = self.rules.players
        void: list[set[int]] = [set() for _ in range(n)]
        st = self._deal.start()
        values: set[int] = set()
        prev = None
        mp = self.rules.max_pip
        for a in self.actions:
            s = a["seat"]
            if a["act"] == "play":
                st.play(parse_tile(a["tile"], mp), int(End.parse(a["end"])))
                values = set(st.ends().values())
            elif a["act"] == "draw":
                if not (prev and prev["seat"] == s and prev["act"] == "draw"):
                    void[s] = set(values)
            else:
                void[s] |= values
            prev = a
        return [sorted(v) for v in void]

    def unseen(self) -> list[str]:
        mp = self.rules.max_pip
        seen = set(self.my_hand()) | {a["tile"] for a in self.actions if a["act"] == "play"}
        return [tile_name(t, mp) for t in range(self.rules.n_tiles) if tile_name(t, mp) not in seen]

    def as_json(self) -> dict[str, Any]:
        out = self.base_json()
        st = self.state()
        n = self.rules.players
        counts = [len(self.hand)] * n
        for a in self.actions:
            counts[a["seat"]] += {"play": -1, "draw": 1, "pass": 0}[a["act"]]
        void = self.voids()
        seats = [{"seat": s, "name": self.names[s], "policy": "",
                  "tiles": counts[s], "points": st.seat(s).points + st.seat(s).bonus, "total": None,
                  "void": void[s], "hand": self.my_hand() if s == self.seat else None} for s in range(n)]
        drawn = sum(1 for a in self.actions if a["act"] == "draw")
        bone = self.rules.n_tiles - n * len(self.hand) - drawn
        turn = self.turn()
        legal = []
        if turn == self.seat:
            try:
                legal = [[tile_name(t, self.rules.max_pip), e.label] for t, e in self.position().moves]
            except TableError:
                legal = []
        how = None if turn is not None else ("domino" if 0 in counts else "blocked")
        out.update({"turn": turn, "ended": how, "seats": seats, "history_moves": history_moves(self.actions),
                    "ending": ending(self, st, how, None, [self.my_hand() if s == self.seat else None
                                                           for s in range(n)],
                                     " from the placements (the end bonus is counted at the table)"),
                    "legal": legal, "history": history_lines(self.actions, self.seat, self.names, hide=False),
                    "unseen": self.unseen(), "boneyard": bone, "first": self.first,
                    "can_undo": bool(self.actions), "move": len(self._deal.plays) + 1, "totals": None,
                    "actions": self.actions, "hand0": self.hand})
        m = self.match_json()
        if m is not None:
            out["match"] = m
        return out

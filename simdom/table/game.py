"""The games of ``simdom table``: a deal played against bots (:class:`PlayGame`) or a real game followed
from one seat (:class:`~simdom.table.follow.FollowGame`), both over simdom's own engine façade and analysis: the deal is a
:class:`~simdom.engine.state.DealState`, the bots choose with the batch kernel's chooser and streams
(so a deal played as the bots would play it is the deal ``simdom trace`` gives), a followed game is a
*view* (simdom/analyze/view.py: every action checked, the hidden tiles filled consistently), a hint is
``simdom analyze --position`` of the seat's view (analyze/evaluate.py), the values with every hand known
are ``simdom solve``'s (engine/solver.py) and the review is ``simdom review``'s (analyze/review.py).

Every change is tried first and kept only when the engine accepts it: a refused input raises
:class:`TableError` (one line, what is allowed) and leaves the game as it was.
"""
from __future__ import annotations

import math
import threading
import uuid
from typing import Any, Callable

from ..analyze.evaluate import evaluate
from ..analyze.position import Deal, PositionError
from ..analyze.view import ViewError, masked, view_deal
from ..analyze.viewread import view_from_data
from ..board import state_svg
from ..engine.api import root_key
from ..engine.codes import End
from ..engine.codes import DealEnd
from ..engine.matches import MatchDeal, MatchState, deal_seed
from ..engine.pyloop import compiled_arrays, deal_streams, key_streams
from ..engine.solver import sides_of
from ..engine.state import DealState
from ..policies import PolicyError, parse_policy
from ..rules import Rules, preset
from ..tiles import parse_tile, tile_name
from .inputs import TableError, parse_move
from .jobs import Job

#: hint rollouts by default, and the most a request may ask
HINT_ROLLOUTS, MAX_HINT_ROLLOUTS = 2000, 200_000
#: the review's rollouts by default (a decision, a chance event): small, the table is interactive
REVIEW_ROLLOUTS, REVIEW_LUCK_ROLLOUTS = 400, 100
#: positions the solver may search for "every hand known" before it gives up on a position
SOLVE_LIMIT = 5_000_000


class Game:
    """What both modes share: the seat, the jobs, the lock that serialises changes."""

    mode = ""

    def __init__(self, rules: Rules, seat: int, names: list[str]):
        self.id = uuid.uuid4().hex[:12]
        self.rules = rules
        self.seat = seat
        self.names = names
        self.lock = threading.RLock()
        self.jobs: dict[str, Job] = {}
        self.tutor: float | None = None
        self.by = "win"    # the tutor's currency (inputs.CURRENCIES)
        self.version = 0   # changes with every accepted action (a job's result is kept for its version)

    # -- to be given by each mode --------------------------------------------------------------------
    def view_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def state(self) -> DealState:
        raise NotImplementedError

    # -- shared ----------------------------------------------------------------------------------------
    def my_turn(self) -> bool:
        raise NotImplementedError

    def position(self):
        """The seat's position as ``simdom analyze --position`` of :meth:`view_dict` builds it."""
        try:
            return view_deal(view_from_data(self.view_dict(), "the table"))
        except ViewError as e:
            raise TableError(str(e)) from None

    def review_position(self, move: Any):
        """The position before placement ``move`` of the deal, from the mover's information (play mode: any
        move; follow mode: your own, the other hands being unknown)."""
        deal, viewer = review_subject(self)
        try:
            pos = deal.position(move) if type(move) is int else None
        except PositionError as e:
            raise TableError(str(e).replace("--move", "move")) from None
        if pos is None or not pos.moves:
            raise TableError(f"move {move!r}; allowed: a placement of the deal, 1 to {len(deal.plays)}")
        if viewer is not None and pos.seat != viewer:
            raise TableError(f"move {move} is seat {pos.seat}'s, whose hand you did not see; allowed: your own moves")
        return pos

    def default_then(self) -> "str | list[str]":
        """Who plays on in a hint or a review by default: the players at the table (play mode: each bot as
        itself, your seat as the bots play when they all play alike, else greedy; one policy when every
        seat plays alike); greedy where the players are not known (follow mode)."""
        return "greedy"

    def then_words(self, then: "str | list[str]") -> str:
        """Who is assumed to play on, in words."""
        if isinstance(then, str):
            return f"every seat plays {then} from here"
        return "from here " + ", ".join(f"{self.names[s]} plays {p}" for s, p in enumerate(then))

    def hint(self, rollouts: int | None, seed: int, then: "str | list[str]", progress: Callable[[int, int], None],
             pos=None, by: str = "points") -> dict[str, Any]:
        """Every legal move of the position (default: yours now) valued as simdom analyze does (``rollouts``
        None: its stopping rule, as ``simdom analyze`` without --rollouts), ranked by ``by`` (points,
        margin or win); its loss against the best move in that currency."""
        pos = self.position() if pos is None else pos
        a = evaluate(pos, then=then, seed=seed, rollouts=rollouts, progress=progress, by=by)
        diff = {"points": "diff_vs_best", "margin": "margin_diff_vs_best", "win": "win_diff_vs_best"}[by]
        rows = []
        for r in a.rows:
            rows.append({"move": r.name, "tile": tile_name(r.tile, self.rules.max_pip), "end": r.end.label,
                         "points": r.mean_points, "points_lo": r.mean_points_lo, "points_hi": r.mean_points_hi,
                         "loss": -getattr(r, diff), "loss_lo": -getattr(r, diff + "_hi"),
                         "loss_hi": -getattr(r, diff + "_lo"), "margin": r.mean_margin, "win": r.win_rate,
                         "win_lo": r.win_rate_lo, "win_hi": r.win_rate_hi})
        return {"move": pos.move, "seat": pos.seat, "rollouts": a.rollouts, "seed": seed, "then": a.then,
                "assumes": self.then_words(then), "by": by,
                "stopped": a.stopped, "asked": rollouts, "rows": rows}

    def base_json(self) -> dict[str, Any]:
        st = self.state()
        mp = self.rules.max_pip
        return {"id": self.id, "mode": self.mode, "rules": self.rules.preset, "players": self.rules.players,
                "seat": self.seat, "names": self.names, "board": state_svg(st, "the layout"),
                "tutor": self.tutor, "by": self.by, "version": self.version,
                "max_pip": mp, "ends": [e for e in st.ends()] if st.played() else ["lead"],
                "jobs": {k: j.as_json() for k, j in self.jobs.items()}}


def seat_names(players: int, seat: int, given: list[str] | None = None) -> list[str]:
    """The seats' names: the ones given (yours marked "(you)"), else "seat N"."""
    if given:
        return [f"{n} (you)" if s == seat else n for s, n in enumerate(given)]
    return [f"seat {s} (you)" if s == seat else f"seat {s}" for s in range(players)]


def ending(game: Game, st: DealState, how: str | None, totals: list[int] | None, hands: list[list[str]] | None,
           note: str = "") -> dict[str, Any] | None:
    """The deal's end for the page: how it ended in words, the totals (or the points so far), the deal's
    winner (the most points; a tie named as such) and every seat's last hand where it is known."""
    if how is None:
        return None
    n = game.rules.players
    pts = totals if totals is not None else [st.seat(s).points + st.seat(s).bonus for s in range(n)]
    last = next((a["seat"] for a in reversed(st.actions) if a["act"] == "play"), None)
    why = {"domino": f"{game.names[last]} placed the last tile of the hand" if last is not None else "a hand is out",
           "blocked": "blocked: no seat could place a tile", "target": "the match's target was reached"}.get(how, how)
    top = max(pts)
    best = [s for s in range(n) if pts[s] == top]
    who = " and ".join(game.names[s] for s in best)
    verb = "wins the deal" if totals is not None else "leads"
    won = f"{who} {verb}" if len(best) == 1 else f"a tie between {who}"
    return {"how": how, "sentence": f"The deal is over: {why}. {won} with {top} points{note}.",
            "totals": pts, "winner": best, "hands": hands}


class PlayGame(Game):
    """A deal dealt by the seed, the bots answering at once (module doc)."""

    mode = "play"

    def __init__(self, rules: Rules, seat: int, bots: list[str], seed: int, deal: int = 0,
                 names: list[str] | None = None):
        super().__init__(rules, seat, seat_names(rules.players, seat, names))
        try:
            pols = [parse_policy(b) for b in bots]
        except PolicyError as e:
            raise TableError(f"bots: {e}") from None
        if len(pols) != rules.players:
            raise TableError(f"{len(pols)} bots for {rules.players} players; allowed: one per seat")
        self.bots = [str(p) for p in pols]
        self.seed, self.deal_no = seed, deal
        self._ids, self._par = compiled_arrays(pols)
        self.undo_stack: list[tuple[Any, ...]] = []
        self.ms = None
        if rules.is_match:   # a match to the target: deal_no is the match's id (as simdom trace --matches)
            self.ms = MatchState(rules)
            self.hand_no, self.lead = 0, None
            self._start_hand()
            return
        self.st = DealState.dealt(rules, seed, deal)
        self.streams = deal_streams(root_key(seed), deal)
        self._bots()

    def default_then(self) -> "str | list[str]":
        others = [b for s, b in enumerate(self.bots) if s != self.seat]
        pols = [b if s != self.seat else (others[0] if len(set(others)) == 1 else "greedy")
                for s, b in enumerate(self.bots)]
        return pols[0] if len(set(pols)) == 1 else pols

    def _start_hand(self) -> None:
        """The match's next deal, as the match kernel deals it (engine/matches.py, trace_match_python)."""
        self.ms.begin_deal()
        key = deal_seed(self.seed, self.deal_no, self.hand_no)
        self.st = MatchDeal.dealt(self.rules, key, self.lead)
        self.streams = key_streams(key)
        self.undo_stack = []
        self._bots()

    def next_deal(self) -> None:
        if self.ms is None:
            raise TableError("this is a single deal; allowed: a new game (a match: set target, e.g. target=100)")
        if self.st.ended is None:
            raise TableError("the deal is still being played; allowed: the next deal once this one is over")
        if self.ms.over:
            raise TableError("the match is over; allowed: the review, or a new game")
        self.lead = self.ms.next_leader(self.st)
        self.hand_no += 1
        self._start_hand()
        self.version += 1

    def _place(self, t: int, e: int) -> None:
        if self.ms is not None:
            self.ms.play(self.st, t, int(e))
        else:
            self.st.play(t, int(e))

    def _bots(self) -> None:
        while True:
            if self.st.ended == DealEnd.TARGET:
                break
            moves = self.st.advance()
            if not moves:
                break
            if self.st.turn == self.seat:
                return
            t, e = self.st.choose_with(self._ids, self._par, self.streams, moves)
            self._place(t, e)
        if self.ms is not None:
            self.ms.end_deal(self.st)   # settled, its end bonus credited (or the target reached)
        else:
            self.st.settle()

    def state(self) -> DealState:
        return self.st

    def my_turn(self) -> bool:
        return self.st.ended is None and self.st.turn == self.seat

    def legal(self) -> list[tuple[int, End]]:
        return self.st.advance() if self.my_turn() else []

    def play(self, tile: Any, end: Any) -> None:
        t, e = parse_move(tile, end, self.rules)
        if self.st.ended is not None:
            raise TableError("the deal is over; allowed: undo, the review, or a new game")
        moves = self.st.advance()
        if (t, e) not in moves:
            allowed = ", ".join(f"{tile_name(x, self.rules.max_pip)} {y.label}" for x, y in moves)
            raise TableError(f"{tile_name(t, self.rules.max_pip)} {e.label} is not a legal move; allowed: {allowed}")
        self.undo_stack.append((self.st.copy(), self.streams.copy(),
                                None if self.ms is None else (self.ms.M.copy(), self.ms.deals)))
        self._place(t, e)
        self._bots()
        self.version += 1

    def undo(self) -> None:
        if not self.undo_stack:
            raise TableError("nothing to undo; allowed: a move of this deal first")
        self.st, self.streams, m = self.undo_stack.pop()
        if m is not None:
            self.ms.M[:], self.ms.deals = m
        self.version += 1

    def view_dict(self) -> dict[str, Any]:
        r = self.rules
        return {"rules": r.to_dict(), "players": r.players, "seat": self.seat, "first": self.st.first,
                "hand": [tile_name(t, r.max_pip) for t in self.st.hands0[self.seat]],
                "actions": masked(self.st.actions, self.seat, r)}

    def label(self) -> str:
        if self.ms is not None:
            return f"table match {self.deal_no} of seed {self.seed}, deal {self.hand_no}"
        return f"table deal {self.deal_no} of seed {self.seed}"

    def deal(self) -> Deal:
        mp = self.rules.max_pip
        plays = [(parse_tile(a["tile"], mp), End.parse(a["end"])) for a in self.st.actions if a["act"] == "play"]
        return Deal(self.st.rules, [list(h) for h in self.st.hands0], list(self.st.boneyard0), self.st.first, plays,
                    self.label(), self.names)

    def script_toml(self) -> str:
        """The deal as a scripted deal (simdom/deal/script.py) that analyze, solve, review and replay read."""
        import json
        r, mp = self.st.rules, self.rules.max_pip   # a match's deal: its own rules (the lead it was given)
        match_keys = ("target", "match_end", "next_lead", "teams", "max_deals")
        base = preset(r.preset, players=r.players).to_dict()
        over = {k: v for k, v in r.to_dict().items() if k != "players" and k not in match_keys and base.get(k) != v}
        plays = [f"{a['tile']} {a['end']}" for a in self.st.actions if a["act"] == "play"]
        lines = [f"# simdom table: {self.label()}, bots {', '.join(self.bots)}"]
        if self.ms is not None:
            lines.append("# a deal of a match, as a single deal: the match's scores and sides are not in a scripted deal")
        lines += [f"name = {json.dumps(self.label())}",
                 f"rules = {json.dumps(r.preset)}", f"players = {r.players}", f"first = {self.st.first}",
                 "hands = ["] + [f"  {json.dumps([tile_name(t, mp) for t in h])}," for h in self.st.hands0] + [
                 "]", f"boneyard = {json.dumps([tile_name(t, mp) for t in self.st.boneyard0])}",
                 "moves = ["] + [f"  {json.dumps(p)}," for p in plays] + ["]"]
        if over:
            lines.append("")
            lines.append("[overrides]")
            for k, v in over.items():
                if v is None:
                    raise TableError(f"override {k} = null has no TOML form; allowed: the position file (JSON)")
                lines.append(f"{k} = {json.dumps(v)}")
        return "\n".join(lines) + "\n"

    def solve(self, st: DealState | None = None, bots: bool = False) -> dict[str, Any]:
        """The solver's value of every legal move, every hand known (``st``: a copy of the deal): every
        other seat playing against you (minimax), or, with ``bots``, the bots playing as themselves and
        only you choosing (deterministic bots only)."""
        from ..engine.solver import SolveLimit, Solver
        against = [b if s != self.seat else "greedy" for s, b in enumerate(self.bots)] if bots else None
        try:
            sol = Solver(self.rules).solve(st or self.st, by="margin", limit=SOLVE_LIMIT, against=against)
        except PolicyError as e:
            raise TableError(f"against the bots: {e}".replace("--against ", "")) from None
        except SolveLimit:
            raise TableError(f"the position is too large to solve within {SOLVE_LIMIT:,} positions; allowed: "
                             "ask again a few moves later") from None
        mp = self.rules.max_pip
        assumes = ("the bots play as themselves (" + ", ".join(b for s, b in enumerate(self.bots) if s != self.seat)
                   + ") and only you choose") if bots else "every other seat plays against you (minimax)"
        return {"move": sol.move, "value": sol.value, "nodes": sol.nodes, "assumes": assumes,
                "rows": [{"move": f"{tile_name(m.tile, mp)} {m.end.label}", "value": m.value,
                          "loss": sol.value - m.value} for m in sol.moves]}

    def as_json(self) -> dict[str, Any]:
        out = self.base_json()
        st, mp = self.st, self.rules.max_pip
        seats = []
        for s in range(self.rules.players):
            ss = st.seat(s)
            seats.append({"seat": s, "name": self.names[s], "policy": "" if s == self.seat else self.bots[s],
                          "tiles": len(ss.hand), "points": ss.points + ss.bonus, "total": ss.total,
                          "void": sorted(ss.void),
                          "hand": [tile_name(t, mp) for t in ss.hand] if s == self.seat or st.ended else None})
        legal = self.legal()
        if self.ms is not None:
            ms = self.ms
            out["match"] = {"id": self.deal_no, "hand": self.hand_no, "target": self.rules.target,
                            "sides": [[s for s in range(self.rules.players) if sides_of(self.rules)[s] == j]
                                      for j in range(len(ms.scores))],
                            "before": ms.before, "credited": ms.credited, "scores": ms.scores,
                            "winner": ms.winner, "over": ms.over}
        out.update({"seed": self.seed, "deal": self.deal_no, "bots": self.bots, "turn": st.turn,
                    "ended": st.ended.label if st.ended else None, "seats": seats,
                    "legal": [[tile_name(t, mp), e.label] for t, e in legal],
                    "history": history_lines(st.actions, self.seat, self.names, hide=st.ended is None),
                    "unseen": _unseen(self, st), "boneyard": st.boneyard_left,
                    "totals": st.totals() if st.ended else None, "can_undo": bool(self.undo_stack),
                    "move": st.move_number + 1, "history_moves": history_moves(st.actions)})
        hands = [[tile_name(t, mp) for t in st.seat(s).hand] for s in range(self.rules.players)]
        out["ending"] = ending(self, st, st.ended.label if st.ended else None, st.totals() if st.ended else None,
                               hands)
        return out


def history_lines(actions: list[dict[str, Any]], seat: int, names: list[str], hide: bool) -> list[str]:
    out = []
    for a in (masked(actions, seat, None) if hide else actions):
        who = names[a["seat"]]
        if a["act"] == "play":
            out.append(f"{who}: {a['tile']} {a['end']}" + (f" (+{a['points'] + a.get('bonus', 0)})"
                                                          if a.get("points") or a.get("bonus") else ""))
        elif a["act"] == "draw":
            out.append(f"{who}: draws" + (f" {a['tile']}" if a.get("tile") else ""))
        else:
            out.append(f"{who}: passes")
    return out


def history_moves(actions: list[dict[str, Any]]) -> list[int | None]:
    """For each line of :func:`history_lines`: the placement's move number (1, 2, ...), None for a draw
    or a pass."""
    out: list[int | None] = []
    k = 0
    for a in actions:
        k += a["act"] == "play"
        out.append(k if a["act"] == "play" else None)
    return out


def board_before(game: Game, move: Any) -> dict[str, Any]:
    """The board just before placement ``move`` of the deal (``move`` one past the last: as it stands)."""
    deal, _ = review_subject(game)
    n = len(deal.plays)
    if type(move) is not int or not 1 <= move <= n + 1:
        raise TableError(f"move {move!r}; allowed: a placement of the deal, 1 to {n + 1}")
    st = deal.start()
    for t, e in deal.plays[:move - 1]:
        st.play(t, int(e))
    return {"move": move, "board": state_svg(st, f"before move {move}" if move <= n else "as it stands")}


def _unseen(game: Game, st: DealState) -> list[str]:
    """The tiles the seat cannot see: not in its hand, not on the layout."""
    mp = game.rules.max_pip
    mine = set(st.hand(game.seat))
    on = set(st.played())
    return [tile_name(t, mp) for t in range(game.rules.n_tiles) if t not in mine and t not in on]


def review_subject(game: Game) -> tuple[Deal, int | None]:
    """(the deal to review, the viewer): play mode every seat, follow mode the seat's own decisions."""
    if isinstance(game, PlayGame):
        return game.deal(), None
    return game._deal, game.seat


def review_json(game: Game, deal: Deal, viewer: int | None, rollouts: int, luck_rollouts: int, seed: int,
                then: "str | list[str]", progress: Callable[[int, int], None] | None = None,
                by: str = "points") -> dict[str, Any]:
    """``simdom review`` of ``deal`` (from :func:`review_subject`; with a viewer as ``simdom review
    --position``), with the board before every move and the graph's points."""
    from ..analyze.review import review, to_json
    if not deal.plays:
        raise TableError("no placement to review yet; allowed: the review after a move")
    r = review(deal, then=then, seed=seed, rollouts=rollouts, luck_rollouts=luck_rollouts, names=game.names,
               viewer=viewer, progress=progress, by=by)
    js = to_json(r)
    boards = []
    for p in deal.positions():
        boards.append(state_svg(p.state, f"before move {p.move}"))
    st = deal.start()
    for t, e in deal.plays:
        st.play(t, int(e))
    boards.append(state_svg(st, "after the last move"))
    graph = []
    for d in r.decisions:
        m = d.margin
        if d.seat == game.seat:
            graph.append({"move": d.move, "margin": m})
        elif game.rules.players == 2 and not math.isnan(m):
            graph.append({"move": d.move, "margin": -m})
    js["boards"] = boards
    js["assumes"] = game.then_words(then)
    js["graph"] = graph
    js["names"] = game.names
    js["marks"] = [d["move"] for d in js["decisions"] if d["mark"]]
    return js

"""simdom as an OpenSpiel game: ``import simdom.openspiel`` registers ``python_simdom`` with pyspiel.

    >>> import pyspiel, simdom.openspiel
    >>> game = pyspiel.load_game("python_simdom", {"rules": "threes", "players": 4})
    >>> game.num_players(), game.num_distinct_actions()
    (4, 140)

Parameters: ``rules`` (a preset of simdom/rules.py: threes, fives, all-fives, muggins, fives-and-threes),
``players`` (2-4), ``overrides`` (a JSON object of rule parameters, e.g. ``'{"min_ends": 2}'``) and
``returns`` (``totals``: each seat's deal total, points + first-double bonus + end bonus, exactly
simdom's ``totals``, general-sum; ``margins``: each total minus the mean of all seats' totals, zero-sum).

The rules of play are simdom's own (:class:`~simdom.engine.state.DealState`); this module only maps
them onto OpenSpiel's nodes:

* chance: the shuffle as one chance node per dealt tile (seat 0's hand first, then seat 1's, ...), the
  lot for the leader when the rules' lead tile is in no hand (``lead = any``), and one chance node per
  boneyard draw (a uniform tile of those not yet seen by anyone);
* decisions: action ``tile * 5 + end`` (End: 0 L, 1 R, 2 U, 3 D, 4 lead); the rules never leave a
  choice to pass (docs/rules.md 5: a seat that holds a playable tile must play, one that does not draws
  or passes), so passes are applied by the state itself and are no action;
* observation and information-state tensors and strings hold only what the seat may know: its own hand
  (and tiles drawn), the layout, who placed what, the counts of hands and boneyard, the scores and the
  values each seat was seen unable to play;
* :meth:`SimdomState.resample_from_infostate` deals the tiles the seat to act cannot see through
  simdom's sampler (:func:`simdom.engine.analysis.sample_hidden`, uniform among the deals consistent
  with what it saw), so that OpenSpiel's ISMCTS bot can play it.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from .engine.analysis import sample_hidden
from .engine.codes import End
from .engine.state import DealState
from .rules import PRESETS, Rules, preset
from .tiles import parse_tile, tile_name

N_ENDS = 5  #: L, R, U, D, lead
DEFAULTS = {"rules": "threes", "players": 4, "overrides": "", "returns": "totals"}
RETURNS = ("totals", "margins")


def rules_of(params: dict[str, Any]) -> Rules:
    """The simdom rules a parameter set names (ValueError naming the parameter otherwise)."""
    name = str(params.get("rules", DEFAULTS["rules"]))
    if name not in PRESETS:
        raise ValueError(f"rules = {name!r}; allowed: {', '.join(PRESETS)}")
    text = str(params.get("overrides", "") or "")
    try:
        over = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as e:
        raise ValueError(f"overrides = {text!r} is not a JSON object ({e.msg})") from None
    if not isinstance(over, dict):
        raise ValueError(f"overrides = {text!r}; allowed: a JSON object of rule parameters")
    r = preset(name, players=int(params.get("players", DEFAULTS["players"])), **over)
    if r.is_match:
        raise ValueError("target > 0: python_simdom plays one deal; allowed: target = 0")
    return r


def _game_type(zero_sum: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name="python_simdom",
        long_name="simdom dominoes (Threes, Fives and relatives)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS),
    )


class SimdomGame(pyspiel.Game):
    """One deal of a simdom rule set as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**DEFAULTS, **(params or {})}
        if params["returns"] not in RETURNS:
            raise ValueError(f"returns = {params['returns']!r}; allowed: {', '.join(RETURNS)}")
        self.rules = rules_of(params)
        self.margins = params["returns"] == "margins"
        r = self.rules
        bound = float(r.deal_total_bound())
        info = pyspiel.GameInfo(
            num_distinct_actions=r.n_tiles * N_ENDS,
            max_chance_outcomes=r.n_tiles,
            num_players=r.players,
            min_utility=-bound if self.margins else 0.0,
            max_utility=bound,
            utility_sum=0.0 if self.margins else None,
            max_game_length=2 * r.n_tiles + 1,
        )
        super().__init__(_game_type(self.margins), info, params)

    def new_initial_state(self) -> "SimdomState":
        return SimdomState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "SimdomObserver":
        return SimdomObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.rules)


class SimdomState(pyspiel.State):
    """A deal in progress: the dealing (chance), then a :class:`DealState` stepped by the actions."""

    def __init__(self, game: SimdomGame):
        super().__init__(game)
        self.rules = game.rules
        self._margins = game.margins
        self.hands0: list[list[int]] = [[] for _ in range(self.rules.players)]
        self.first: int | None = None
        self.deal: DealState | None = None
        self.pending: list[int] = []       #: tiles drawn in the current draw sequence, not yet given
        self.masked: set[int] = set()      #: seats whose private past a resample re-dealt (drawn tiles unknown)

    # -- the dealing ---------------------------------------------------------------------------
    def _dealt(self) -> set[int]:
        return {t for h in self.hands0 for t in h}

    def _lead_holder(self) -> int | None:
        h = self.rules.lead.halves
        if h is None:
            return None
        t = parse_tile(f"{h[0]}-{h[1]}", self.rules.max_pip)
        return next((s for s, hand in enumerate(self.hands0) if t in hand), None)

    def _start(self, first: int) -> None:
        self.first = first
        dealt = self._dealt()
        bone = [t for t in range(self.rules.n_tiles) if t not in dealt]  # the order is drawn later
        self.deal = DealState(self.rules, self.hands0, bone, first)
        self._forced()

    def _drawable(self) -> bool:
        d = self.deal
        return self.rules.draw != "none" and d.boneyard_left - len(self.pending) > self.rules.reserve

    def _forced(self) -> None:
        """Apply the passes the rules force (no seat can draw any more when a seat must pass)."""
        d = self.deal
        if d.ended is None and not d.legal() and not self._drawable():
            d.advance()
        if d.ended is not None:
            d.settle()

    def boneyard_tiles(self) -> list[int]:
        """The tiles nobody has seen yet that are still to draw (the boneyard, the pending draws out)."""
        return [t for t in self._boneyard() if t not in self.pending]

    @property
    def margins(self) -> bool:
        """True when the returns are margins (the ``returns = margins`` parameter)."""
        return self._margins

    def _boneyard(self) -> list[int]:
        """The tiles still in the boneyard (in no hand, not on the layout), in index order."""
        d = self.deal
        out = {t for s in range(self.rules.players) for t in d.hand(s)} | set(d.played())
        return [t for t in range(self.rules.n_tiles) if t not in out]

    # -- OpenSpiel -----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.deal is None:
            return pyspiel.PlayerId.CHANCE
        if self.deal.ended is not None:
            return pyspiel.PlayerId.TERMINAL
        if self.pending or not self.deal.legal():
            return pyspiel.PlayerId.CHANCE
        return self.deal.turn

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.ended is not None

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(t * N_ENDS + int(e) for t, e in self.deal.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.deal is None:
            if len(self.hands0[-1]) < self.rules.hand:
                dealt = self._dealt()
                left = [t for t in range(self.rules.n_tiles) if t not in dealt]
                return [(t, 1.0 / len(left)) for t in left]
            return [(s, 1.0 / self.rules.players) for s in range(self.rules.players)]  # the lot
        left = [t for t in self._boneyard() if t not in self.pending]
        return [(t, 1.0 / len(left)) for t in left]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self.deal is None:
            seat = next((s for s, h in enumerate(self.hands0) if len(h) < self.rules.hand), None)
            if seat is not None:
                self.hands0[seat].append(action)
                if seat == self.rules.players - 1 and len(self.hands0[seat]) == self.rules.hand:
                    holder = self._lead_holder()
                    if holder is not None:
                        self._start(holder)
            else:
                self._start(action)
            return
        if self.is_chance_node():
            self._draw(action)
        else:
            self.deal.play(action // N_ENDS, action % N_ENDS)
            self._forced()

    def _draw(self, tile: int) -> None:
        """The next tile of the seat's draws is ``tile``: the engine draws the sequence so far once it
        ends (the tile fits, or the boneyard is down to its reserve)."""
        d = self.deal
        seq = self.pending + [tile]
        rest = [t for t in self._boneyard() if t not in seq]
        d.set_hidden({}, seq + rest)
        snap, n0 = d.snapshot(), len(d.actions)
        d.advance()
        drawn = sum(1 for a in d.actions[n0:] if a["act"] == "draw")
        if drawn > len(seq):          # it did not fit and more could be drawn: the next draw is chance too
            d.restore(snap)
            self.pending = seq
        else:
            self.pending = []
            self._forced()

    def _action_to_string(self, player: int, action: int) -> str:
        mp = self.rules.max_pip
        if player == pyspiel.PlayerId.CHANCE:
            if self.deal is None and len(self.hands0[-1]) == self.rules.hand:
                return f"lot: seat {action} leads"
            return f"tile {tile_name(action, mp)}"
        return f"{tile_name(action // N_ENDS, mp)} {End(action % N_ENDS).label}"

    def totals(self) -> list[int]:
        """Each seat's deal total so far (simdom's ``totals`` once the deal is over)."""
        if self.deal is None:
            return [0] * self.rules.players
        return self.deal.totals()

    def returns(self) -> list[float]:
        """The deal totals (or margins) at the end; zero before it (OpenSpiel's terminal reward model)."""
        if not self.is_terminal():
            return [0.0] * self.rules.players
        t = [float(x) for x in self.totals()]
        if self._margins:
            m = sum(t) / len(t)
            return [x - m for x in t]
        return t

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "SimdomState":
        """A state that ``player_id`` (the seat to act) cannot tell from this one: the other hands and the
        boneyard re-dealt by simdom's sampler, uniformly among the deals consistent with what it saw."""
        if self.deal is None or self.is_terminal() or self.is_chance_node() or player_id != self.deal.turn:
            raise ValueError("resample_from_infostate: only at a decision of the seat to act")
        u = probability_sampler() if callable(probability_sampler) else np.random.random()
        seed = int(u * 2**62)
        w = sample_hidden(self.deal, seed, 0, 1)[0]
        new = self.clone()
        new.deal.set_hidden({s: list(h) for s, h in w.hands.items()}, list(w.boneyard))
        new.masked = set(w.hands)
        return new

    def __str__(self) -> str:
        if self.deal is None:
            return "dealing: " + " | ".join(" ".join(tile_name(t, self.rules.max_pip) for t in h)
                                            for h in self.hands0)
        d, mp = self.deal, self.rules.max_pip
        hands = " | ".join(" ".join(tile_name(t, mp) for t in d.hand(s)) for s in range(self.rules.players))
        ends = " ".join(f"{k}={v}" for k, v in d.ends().items())
        return f"hands: {hands}; ends: {ends}; boneyard {d.boneyard_left}; totals {self.totals()}"


class SimdomObserver:
    """What one seat may know (OpenSpiel's PyObserver): tensors and strings. ``perfect_recall`` adds
    the seat's dealt hand, the tiles it drew and every placement in order (tensor) or the whole history
    as it saw it (string)."""

    def __init__(self, iig_obs_type, rules: Rules):
        self.rules = rules
        self.recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        n, nt, v = rules.players, rules.n_tiles, rules.max_pip + 1
        pieces = [("player", n, (n,))]
        if self.private:
            pieces.append(("hand", nt, (nt,)))
            if self.recall:
                pieces += [("dealt", nt, (nt,)), ("drawn", nt, (nt,))]
        if self.public:
            pieces += [("turn", n, (n,)), ("played", n * nt, (n, nt)), ("ends", 4 * v, (4, v)),
                       ("counts", n, (n,)), ("boneyard", 1, (1,)), ("totals", n, (n,)), ("void", n * v, (n, v))]
            if self.recall:
                pieces.append(("history", nt * (n + nt + N_ENDS), (nt, n + nt + N_ENDS)))
        self.tensor = np.zeros(sum(p[1] for p in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        i = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[i:i + size].reshape(shape)
            i += size

    def _own_draws(self, state: SimdomState, player: int) -> list[int]:
        mp = self.rules.max_pip
        if player in state.masked:
            return []
        return [parse_tile(a["tile"], mp) for a in state.deal.actions if a["act"] == "draw" and a["seat"] == player] \
            + (list(state.pending) if state.deal.turn == player else [])

    def _dealt(self, state: SimdomState, player: int) -> list[int]:
        if player not in state.masked or state.deal is None:
            return state.hands0[player]
        mp = self.rules.max_pip   # a re-dealt seat: its hand now and what it placed
        placed = [parse_tile(a["tile"], mp) for a in state.deal.actions if a["act"] == "play" and a["seat"] == player]
        return sorted(state.deal.hand(player) + placed)

    def set_from(self, state: SimdomState, player: int) -> None:
        self.tensor.fill(0)
        r, d, mp = self.rules, state.deal, self.rules.max_pip
        self.dict["player"][player] = 1
        if self.private:
            hand = d.hand(player) if d is not None else state.hands0[player]
            self.dict["hand"][hand] = 1
            if self.recall:
                self.dict["dealt"][self._dealt(state, player)] = 1
                if d is not None:
                    self.dict["drawn"][self._own_draws(state, player)] = 1
        if not self.public or d is None:
            return
        if not d.ended:
            self.dict["turn"][d.turn] = 1
        self.dict["boneyard"][0] = d.boneyard_left / r.n_tiles
        bound = r.deal_total_bound()
        for s in range(r.players):
            st = d.seat(s)
            self.dict["counts"][s] = len(st.hand) / r.n_tiles
            self.dict["totals"][s] = st.total / bound
            for val in st.void:
                self.dict["void"][s, val] = 1
        for i, (_, val) in enumerate(d.ends().items()):
            if i < 4:
                self.dict["ends"][i, val] = 1
        k = 0
        for a in d.actions:
            if a["act"] != "play":
                continue
            t = parse_tile(a["tile"], mp)
            self.dict["played"][a["seat"], t] = 1
            if self.recall:
                row = self.dict["history"][k]
                row[a["seat"]] = 1
                row[r.players + t] = 1
                row[r.players + r.n_tiles + _end(a["end"])] = 1
            k += 1

    def string_from(self, state: SimdomState, player: int) -> str:
        r, d, mp = self.rules, state.deal, self.rules.max_pip
        names = lambda ts: " ".join(tile_name(t, mp) for t in sorted(ts)) or "-"  # noqa: E731
        parts = [f"seat {player}"]
        if self.private:
            hand = d.hand(player) if d is not None else state.hands0[player]
            parts.append(f"hand {names(hand)}")
            if self.recall:
                parts.append(f"dealt {names(self._dealt(state, player))}")
        if not self.public or d is None:
            return "; ".join(parts)
        if self.recall:
            parts.append(f"first {state.first}")
            masked = player in state.masked
            for a in d.actions:
                s = a["seat"]
                if a["act"] == "play":
                    parts.append(f"{s}:{a['tile']} {a['end']}")
                elif a["act"] == "draw":
                    parts.append(f"{s}:draw {a['tile']}" if s == player and not masked else f"{s}:draw")
                else:
                    parts.append(f"{s}:pass")
            for t in state.pending:
                parts.append(f"{d.turn}:draw {tile_name(t, mp)}" if d.turn == player else f"{d.turn}:draw")
        else:
            ends = " ".join(f"{k}={v}" for k, v in d.ends().items()) or "-"
            counts = " ".join(str(len(d.hand(s))) for s in range(r.players))
            parts += [f"ends {ends}", f"played {names(d.played())}", f"counts {counts}",
                      f"boneyard {d.boneyard_left - len(state.pending)}", f"totals {d.totals()}",
                      f"turn {d.turn if not d.ended else '-'}"]
        return "; ".join(parts)


_END_OF_LABEL = {e.label: int(e) for e in End}


def _end(label: str) -> int:
    return _END_OF_LABEL[label]


pyspiel.register_game(_game_type(False), SimdomGame)

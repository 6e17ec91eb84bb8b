"""Positions to analyse: a deal up to a move.

A :class:`Deal` is a deal's start (rules, hands, boneyard, who leads) and the placements it went on
to make, from a scripted deal (``--script``), a trace record (``--trace``) or rules, policies and a
seed (the deal as ``simdom trace`` plays it). ``deal.position(N)`` is the position just before the
N-th tile is placed: the earlier placements replayed (draws and passes are forced, the engine plays
them), then the forced draws of the seat to act, which now holds at least one legal move.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..deal.records import RecordError, ReplayError, read_jsonl
from ..deal.replay import replay_record
from ..deal.script import ScriptError, load_script
from ..engine.api import MAX_DEAL
from ..engine.codes import End
from ..engine.state import DealState
from ..rules import Rules, from_dict, shown
from ..tiles import parse_tile, tile_name


class PositionError(ValueError):
    """A deal or move that cannot be analysed: the message names it and what is allowed."""


@dataclass
class Position:
    """The seat to act at move ``move`` (forced draws done) and its legal moves."""

    deal: "Deal"
    move: int                           #: the number of the placement about to be made (1-based)
    state: DealState                    #: the deal at this point (the analysis copies it)
    moves: list[tuple[int, End]]        #: the legal (tile, end) moves of the seat to act
    played: tuple[int, End] | None      #: what the deal went on to play here, if it is known

    @property
    def seat(self) -> int:
        return self.state.turn

    @property
    def rules(self) -> Rules:
        return self.deal.rules

    def name(self, move: tuple[int, End]) -> str:
        """``1-1 L``: a move as the tables write it."""
        return f"{tile_name(move[0], self.rules.max_pip)} {move[1].label}"

    @property
    def unseen(self) -> int:
        """How many tiles the seat to act cannot see (the other hands and the boneyard)."""
        return self.rules.n_tiles - len(self.state.hand(self.seat)) - len(self.state.played())


@dataclass
class Deal:
    """A deal's start and its placements (tile, end) in order."""

    rules: Rules
    hands: list[list[int]]
    boneyard: list[int]
    first: int
    plays: list[tuple[int, End]]
    label: str
    names: Sequence[str] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        self._last_move = self._checked()  # an illegal placement is refused here, once, whatever reads the deal

    def start(self) -> DealState:
        try:
            return DealState(self.rules, self.hands, self.boneyard, self.first)
        except ValueError as e:
            raise PositionError(f"{self.label}: not a deal of its rules: {e}") from None

    def _checked(self) -> int:
        """Every placement replayed from the start (PositionError naming the first that the rules do not
        allow); the last move number that has a position: after the last placement, if the deal goes on."""
        st = self.start()
        for i, (t, e) in enumerate(self.plays):
            try:
                st.play(t, e)
            except ValueError as err:
                raise PositionError(f"{self.label}: move {i + 1}: {err}") from None
        return len(self.plays) + (1 if st.advance() else 0)

    def _last(self) -> int:
        return self._last_move

    def position(self, move: int) -> Position:
        """The position just before placement number ``move``."""
        last = self._last()
        if not 1 <= move <= last:
            raise PositionError(f"--move {move}: {self.label} has moves 1..{last}; allowed: --move 1 to {last}")
        st = self.start()
        for i, (t, e) in enumerate(self.plays[: move - 1]):
            try:
                st.play(t, e)
            except ValueError as err:
                raise PositionError(f"{self.label}: move {i + 1}: {err}") from None
        moves = st.advance()
        played = self.plays[move - 1] if move <= len(self.plays) else None
        return Position(self, move, st, moves, played)

    def positions(self) -> Iterator[Position]:
        """Every position of the deal whose move is known (the placements, in order)."""
        st = self.start()
        for i, (t, e) in enumerate(self.plays):
            moves = st.advance()
            yield Position(self, i + 1, st.copy(), moves, (t, e))
            try:
                st.play(t, e)
            except ValueError as err:
                raise PositionError(f"{self.label}: move {i + 1}: {err}") from None


def from_script(path: str | Path) -> Deal:
    """A scripted deal (simdom/deal/script.py); its placements are the script's moves."""
    try:
        sc = load_script(path)
    except ScriptError as e:
        raise PositionError(str(e)) from None
    try:
        return Deal(sc.rules, sc.hands, sc.boneyard, sc.first, [(t, End(e)) for t, e in sc.moves], sc.name)
    except PositionError as e:
        raise PositionError(f"{path}: {e}") from None


def from_record(record: dict[str, Any], label: str) -> Deal:
    """A deal record of docs/rules.md section 11 (a trace line), checked against its schema and re-played by the
    engine first (simdom.deal.replay): a tampered record is refused, not analysed."""
    if isinstance(record, dict) and isinstance(record.get("match"), dict):
        mid = shown(record["match"].get("id"), 20)
        raise PositionError(f"{label} is a deal of match {mid}; --trace --deal reads single deals; allowed: a "
                            f"trace of single deals (simdom trace without --matches), simdom review --trace FILE "
                            f"--match {mid} to review every hand of the match, or simdom replay FILE --match {mid} "
                            "to see it")
    try:
        replay_record(record, label)
    except ReplayError as e:
        raise PositionError(str(e)) from None
    rules = from_dict(record["rules"])
    mp = rules.max_pip
    hands = [[parse_tile(t, mp) for t in h] for h in record["hands"]]
    bone = [parse_tile(t, mp) for t in record["boneyard"]]
    plays = [(parse_tile(a["tile"], mp), End.parse(a["end"])) for a in record["actions"] if a["act"] == "play"]
    return Deal(rules, hands, bone, record["first"], plays, label)


def from_trace(path: str | Path, deal: int) -> Deal:
    """Deal number ``deal`` of a JSON Lines trace file (simdom trace)."""
    seen = []
    try:
        for where, rec in read_jsonl(Path(path)):
            d = rec.get("deal") if isinstance(rec, dict) else None
            if type(d) is int and d == deal:
                return from_record(rec, f"{where} (deal {deal})")
            seen.append(d)
    except RecordError as e:
        raise PositionError(str(e)) from None
    shown = ", ".join(str(d) for d in seen[:8]) + (", ..." if len(seen) > 8 else "")
    raise PositionError(f"{path}: no deal {deal}; allowed: --deal one of {shown or 'none (empty file)'}")


def from_seed(rules: Rules, policies: Sequence[Any], seed: int, deal: int) -> Deal:
    """Deal ``deal`` of root ``seed``, played by ``policies`` (as simdom trace and replay play it); rules that
    play matches are refused (a match's deal depends on the match's score before it)."""
    if isinstance(deal, bool) or not 0 <= deal <= MAX_DEAL:  # the kernel counts deals in int64
        raise PositionError(f"--deal {deal}; allowed: an integer from 0 to {MAX_DEAL}")
    deal = int(deal)
    if rules.is_match:
        raise PositionError(f"target = {rules.target}: the rules play matches (docs/rules.md 12), but a deal of a seed "
                            "is a single deal; allowed: target = 0 (no --set target), or a match's deals from its "
                            "trace: simdom trace --matches N -o FILE, then simdom review --trace FILE --match I")
    from ..engine.state import trace

    return from_record(trace(rules, policies, seed, deal), f"deal {deal} of seed {seed}")


def as_position(where: "Deal | Position", move: int | None) -> Position:
    """A position, or a deal's position just before placement ``move`` (default 1): the library's
    simdom.analyze and simdom.solve take either."""
    if move is not None:
        from ..present import bounded
        bounded("move", move, 1, 10**6)
    if isinstance(where, Position):
        if move is not None and move != where.move:
            raise ValueError(f"move = {move} for a position at move {where.move}; allowed: move=None with a "
                             "position, or a deal with move=N")
        return where
    if isinstance(where, Deal):
        return where.position(1 if move is None else move)
    raise TypeError(f"{type(where).__name__} is not a deal or a position; allowed: simdom.load_deal(...), "
                    "or its .position(N)")


def load_deal(*, script: "str | Path | None", trace_file: "str | Path | None", deal: "int | None",
              rules: "Rules | None" = None, policies: "Sequence[Any] | None" = None, seed: int = 1) -> Deal:
    """The deal a command names: a scripted deal, deal ``deal`` of a trace file, or deal ``deal`` of
    ``seed`` played by ``policies`` under ``rules``; PositionError naming what is wrong."""
    if script is not None and trace_file is not None:
        raise PositionError("--script and --trace both given; allowed: one deal source (--script, --trace, or "
                            "--rules/--seed/--deal)")
    if script is not None:
        if deal is not None:
            raise PositionError("--deal does not apply to --script (a script holds one deal)")
        return from_script(script)
    if trace_file is not None:
        return from_trace(trace_file, 0 if deal is None else deal)
    if deal is None:
        raise PositionError("no deal given; allowed: --script FILE, --trace FILE --deal I, or --seed S --deal I")
    return from_seed(rules, policies, seed, deal)

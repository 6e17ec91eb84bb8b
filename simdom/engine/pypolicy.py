"""Policies written in Python: a function of one seat's :class:`Observation` that returns a legal move.

A Python policy is named ``python:package.module:function`` or ``python:path/to/file.py:function``
wherever simdom plays deals from Python: ``simdom trace``, ``simdom replay``, ``simdom analyze
--then``, ``simdom review --then``, and ``simdom run`` and :func:`simdom.simulate` at Python speed
(pybatch.py; single deals, no decisions table) (docs/policies.md, "Writing a policy in Python").
Where only the compiled kernel plays (``bench``, ``ladder``, ``skill``, ``solve --against``) it is
refused with one line.

The function is called as ``function(obs, rng)`` at every decision of its seat (a seat with a single
legal move is asked too): ``obs`` is an :class:`Observation`, what that seat may know and nothing
more; ``rng`` is a :class:`random.Random` seeded, once per deal, from the seat's own random stream
(the state of the kernel stream that a compiled policy of that seat draws from: stream ``1 + seat``
of the deal, docs/policies.md), so a trace with the same seed is the same trace. It returns one of
``obs.legal`` (a :class:`Move`, or any ``(tile, end)`` pair equal to one).

    >>> from simdom.engine.pypolicy import load_policy
    >>> load_policy("python:simdom.examples.policies:greedy").spec
    'python:simdom.examples.policies:greedy'
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import random
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, NamedTuple

from ..policies import Policy, PolicyError, parse_policy
from ..policies import seat_policies as _seat_policies
from ..rules import Rules
from ..safeio import shown
from ..tiles import halves, tile_name
from .codes import End

PREFIX = "python:"
FORMS = "python:package.module:function or python:path/to/file.py:function"


class Move(NamedTuple):
    """A move: ``tile`` (its index, :meth:`Observation.name` writes it ``3-6``) placed on ``end``."""

    tile: int
    end: End


class Event(NamedTuple):
    """One action of the deal as the observing seat saw it (docs/rules.md 11).

    ``act``: ``"play"``, ``"draw"`` or ``"pass"``; ``tile``: the tile placed, or drawn by the observing
    seat itself (None for another seat's draw, which nobody else sees, and for a pass); ``end``: where
    a tile was placed (else None); ``points`` and ``bonus``: what a placement scored (else 0)."""

    seat: int
    act: str
    tile: int | None
    end: End | None
    points: int
    bonus: int


@dataclass(frozen=True)
class Observation:
    """What seat ``seat`` may know when it is to act, and its legal moves.

    Built by the engine for every decision (:func:`observe`); two deals that agree on what the seat has
    seen give equal observations (tests/test_python_policies.py). Tiles are indices (``name``,
    ``pips`` and ``halves`` read them); ends are :class:`~simdom.engine.codes.End` (``L``, ``R``, ``U``,
    ``D``, ``LEAD``)."""

    rules: Rules                                 #: the rules of the deal (of the match, in a match)
    seat: int                                    #: the seat to act, 0 .. players - 1
    players: int                                 #: seats at the table
    hand: tuple[int, ...]                        #: the seat's tiles, ascending
    ends: tuple[tuple[End, int], ...]            #: the open ends and the value each shows (empty before the lead)
    history: tuple[Event, ...]                   #: every action so far, other seats' drawn tiles hidden
    legal: tuple[Move, ...]                      #: the legal moves, in the engine's order (by end, then tile)
    gains: tuple[tuple[int, int], ...]           #: (points, first-double bonus) each legal move scores at once
    hand_sizes: tuple[int, ...]                  #: tiles in each seat's hand
    boneyard: int                                #: tiles left in the boneyard (the reserve included)
    points: tuple[int, ...]                      #: each seat's points + bonus in this deal so far
    scores: tuple[int, ...]                      #: in a match: each side's score before this deal; else ()
    move: int                                    #: tiles placed so far (the next placement is move + 1)
    first_double: tuple[int, int] | None         #: (move, seat) of the deal's first double, None before it
    void: tuple[frozenset[int], ...]             #: per seat, the values it was seen unable to play

    def name(self, tile: int) -> str:
        """``3-6``: a tile as traces write it."""
        return tile_name(tile, self.rules.max_pip)

    def halves(self, tile: int) -> tuple[int, int]:
        """The tile's two halves, low first."""
        a, b = halves(self.rules.max_pip)
        return int(a[tile]), int(b[tile])

    def pips(self, tile: int) -> int:
        a, b = self.halves(tile)
        return a + b

    def gain(self, move: "Move | tuple[int, int]") -> int:
        """Points plus first-double bonus that ``move`` (one of ``legal``) scores at once."""
        pts, bonus = self.gains[self.legal.index(move)]
        return pts + bonus

    def move_name(self, move: "Move | tuple[int, int]") -> str:
        """``3-6 L``: a move as traces and tables write it."""
        return f"{self.name(move[0])} {End(move[1]).label}"


@dataclass(frozen=True, eq=False)
class PythonPolicy:
    """A loaded Python policy: its name as written and the function."""

    spec: str
    fn: Callable[[Observation, random.Random], Any]

    name = "python"

    def __str__(self) -> str:
        return self.spec

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PythonPolicy) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        """Call the function; its answer must be one of ``obs.legal`` (PolicyError otherwise)."""
        try:
            got = self.fn(obs, rng)
        except Exception as e:  # the user's code: one line naming the policy, the traceback with --debug
            raise PolicyError(f"policy {self.spec} raised {type(e).__name__}: {e} (seat {obs.seat}, before move "
                              f"{obs.move + 1}); simdom --debug shows the traceback") from e
        try:
            i = obs.legal.index(got)
        except (ValueError, TypeError):
            i = -1
        if i < 0:
            legal = ", ".join(obs.move_name(m) for m in obs.legal)
            got_text = repr(got) if len(repr(got)) <= 60 else repr(got)[:55] + " ..."
            raise PolicyError(f"policy {self.spec} returned {got_text} at seat {obs.seat} before move "
                              f"{obs.move + 1}, not a legal move; allowed: one of obs.legal ({legal})")
        return obs.legal[i]


def is_python(text: object) -> bool:
    return isinstance(text, PythonPolicy) or (isinstance(text, str) and text.strip().startswith(PREFIX))


def any_python(policies: object) -> bool:
    """True when ``policies`` (one policy or a list, texts or parsed) holds a Python policy."""
    items = [policies] if isinstance(policies, str) or not hasattr(policies, "__iter__") else list(policies)
    return any(is_python(p) for p in items)


def parse_any(text: "str | Policy | PythonPolicy") -> "Policy | PythonPolicy":
    """:func:`~simdom.policies.parse_policy`, a Python policy (``python:...``) loaded too."""
    if isinstance(text, PythonPolicy):
        return text
    return load_policy(text) if is_python(text) else parse_policy(text)


def seat_policies(policies, players: int) -> list:
    """:func:`~simdom.policies.seat_policies` with Python policies accepted (:func:`parse_any`)."""
    return _seat_policies(policies, players, parse=parse_any)


def load_policy(text: str) -> PythonPolicy:
    """The policy ``python:REF:FUNCTION`` (REF a module, or a ``.py`` file); PolicyError, one line, else."""
    return _load(str(text).strip())


@lru_cache(maxsize=64)
def _load(spec: str) -> PythonPolicy:
    ref, sep, fname = spec[len(PREFIX):].rpartition(":")
    if not sep or not ref or not fname:
        raise PolicyError(f"policy {shown(spec)}: write {FORMS}")
    file = ref.endswith(".py") or "/" in ref or "\\" in ref
    try:
        module = _import_file(spec, Path(ref)) if file else importlib.import_module(ref)
    except PolicyError:
        raise
    except ModuleNotFoundError as e:
        if e.name is not None and (ref == e.name or ref.startswith(e.name + ".")):
            raise PolicyError(f"policy {shown(spec)}: no module named {shown(e.name, 60)}; allowed: {FORMS} "
                              f"(a module on the Python path)") from None
        raise PolicyError(f"policy {shown(spec)}: importing {ref} failed: {e}") from e
    except Exception as e:
        raise PolicyError(f"policy {shown(spec)}: importing {ref} failed: {type(e).__name__}: {e}") from e
    fn = getattr(module, fname, None)
    if fn is None:
        raise PolicyError(f"policy {shown(spec)}: {ref} has no function {shown(fname, 60)}; allowed: a function "
                          f"of (obs, rng) defined in {ref}")
    if not callable(fn):
        raise PolicyError(f"policy {shown(spec)}: {ref}.{fname} is a {type(fn).__name__}, not a function; "
                          f"allowed: a function of (obs, rng)")
    return PythonPolicy(spec, fn)


def _import_file(text: str, path: Path):
    if not path.is_file():
        raise PolicyError(f"policy {shown(text)}: no file {path}; allowed: {FORMS}")
    resolved = path.resolve()
    name = "simdom_policy_" + hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise PolicyError(f"policy {shown(text)}: {path} cannot be imported; allowed: a .py file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def observe(state, seat: int, legal, scores=()) -> Observation:
    """Seat ``seat``'s observation of ``state`` (a :class:`~simdom.engine.state.DealState`, seat
    ``seat`` to act with ``legal`` moves, its forced draws done). ``scores``: the sides' match scores
    before the deal."""
    rules = state.rules
    index = _tile_index(rules.max_pip)
    history = []
    for a in state.actions:
        s, act = a["seat"], a["act"]
        if act == "play":
            history.append(Event(s, act, index[a["tile"]], _END[a["end"]], a["points"], a["bonus"]))
        elif act == "draw":
            history.append(Event(s, act, index[a["tile"]] if s == seat else None, None, 0, 0))
        else:
            history.append(Event(s, act, None, None, 0, 0))
    seats = state.public_seats()
    moves = tuple(Move(int(t), End(e)) for t, e in legal)
    return Observation(
        rules=getattr(state, "match_rules", rules), seat=seat, players=rules.players,
        hand=tuple(state.hand(seat)),
        ends=tuple((_END[k], v) for k, v in state.ends().items()),
        history=tuple(history), legal=moves, gains=tuple(state.score_of(t, e) for t, e in moves),
        hand_sizes=tuple(x[0] for x in seats), boneyard=state.boneyard_left,
        points=tuple(x[1] for x in seats), scores=tuple(int(x) for x in scores),
        move=state.move_number, first_double=state.first_double, void=tuple(x[2] for x in seats))


_END = {e.label: e for e in End}


@lru_cache(maxsize=None)
def _tile_index(max_pip: int) -> dict[str, int]:
    a, _ = halves(max_pip)
    return {tile_name(t, max_pip): t for t in range(len(a))}

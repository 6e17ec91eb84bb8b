"""The values a rule parameter takes (docs/rules.md section 8): the typed choices (str-Enums whose value is
their text), the modes with a number (``fixed:N``), the lead, the bounds of every parameter, and the checks that
turn a written value into its type or raise :class:`RulesError` naming the parameter and the allowed values.
simdom.rules builds the frozen ``Rules`` from them (and re-exports them: ``from simdom.rules import Draw``)."""
from __future__ import annotations

from enum import Enum, StrEnum, unique
from typing import Any, Mapping

from .safeio import shown


class RulesError(ValueError):
    """A rule set that cannot be played: names the parameter and what it allows."""


class Choice(StrEnum):
    """A rule parameter's choice: its value is its text (traces, manifests, ``simdom rules``), and it reads
    as that text in messages too (``repr``: ``'none'``, as the string it replaces)."""

    def __repr__(self) -> str:
        return repr(self.value)


@unique
class Draw(Choice):
    UNTIL_PLAYABLE = "until_playable"  #: draw from the boneyard until a tile fits
    NONE = "none"  #: nobody ever draws


@unique
class Spinner(Choice):
    FIRST_DOUBLE = "first_double"  #: the first double placed becomes the spinner (four-way layout)
    NONE = "none"  #: the layout stays a line


@unique
class ArmsOpen(Choice):
    IMMEDIATELY = "immediately"  #: arms accept tiles as soon as the spinner is placed (Threes)
    AFTER_BOTH_SIDES = "after_both_sides"  #: only once both main sides are covered (All Fives)


@unique
class DoubleCounts(Choice):
    FACE = "face"  #: a double at an end counts its face value v (Threes)
    BOTH = "both"  #: a double at an end counts both halves, 2v (the Fives family)


@unique
class BlockBonus(Choice):
    NONE = "none"
    OPPONENTS_PIPS = "opponents_pips"  #: P = the opponents' pips
    OPPONENTS_MINUS_OWN = "opponents_minus_own"  #: P = the opponents' pips minus the winner's


@unique
class MatchEnd(Choice):
    """How a match is won (docs/rules.md 12), when ``target`` T > 0."""
    DEAL_END = "deal_end"  #: after each deal, the highest side with >= T wins; a tie for highest plays on
    IMMEDIATE = "immediate"  #: a side wins the moment its score reaches >= T, even mid-deal
    EXACT = "exact"  #: every credit all or nothing: a side wins on reaching exactly T, never passing it


@unique
class NextLead(Choice):
    """Who leads the second and later deals of a match (the first always follows ``lead``)."""
    RULES = "rules"  #: every deal is led by the rules' lead (section 6)
    HAND_WINNER = "hand_winner"  #: the seat that dominoed the previous deal, any tile (after a block: the rules')
    ROTATE = "rotate"  #: the seat after the previous deal's leader, any tile


@unique
class Teams(Choice):
    """Who scores together in a match."""
    NONE = "none"  #: every seat is its own side
    PARTNERS = "partners"  #: 4 players: seats 0 and 2 are side 0, seats 1 and 3 side 1


@unique
class PointsMode(Choice):
    """What a scoring placement earns (docs/rules.md 4)."""
    FIXED = "fixed"  #: N points (Threes: fixed:6)
    SUM = "sum"  #: S points
    QUOTIENT = "quotient"  #: the sum of S / d over the divisors d of S


@unique
class OutMode(Choice):
    """The hand winner's bonus after a domino (docs/rules.md 7)."""
    NONE = "none"
    FIXED = "fixed"  #: N points, not rounded or divided
    OPPONENTS_PIPS = "opponents_pips"  #: P = the opponents' pips, rounded and divided


class _ModeN(str):
    """A value written ``MODE`` or ``MODE:N`` (``sum``, ``fixed:6``), parsed once: ``mode`` (a Choice) and
    ``n`` (N, 0 without one). It is its canonical text, so traces and manifests stay as they were."""

    MODES: type[Choice]
    mode: Choice
    n: int

    def __new__(cls, text: str) -> "_ModeN":
        obj = super().__new__(cls, text)
        head, _, tail = text.partition(":")
        obj.mode, obj.n = cls.MODES(head), int(tail) if tail else 0
        return obj


class Points(_ModeN):
    """``points``: sum, quotient or fixed:N, with ``mode`` (PointsMode) and ``n``."""
    MODES = PointsMode


class OutBonus(_ModeN):
    """``out_bonus``: none, opponents_pips or fixed:N, with ``mode`` (OutMode) and ``n``."""
    MODES = OutMode


class Lead(str):
    """``lead``: any, or tile:A-B (the canonical text), parsed once: ``halves`` (A, B), None for any."""

    halves: tuple[int, int] | None

    def __new__(cls, text: str) -> "Lead":
        obj = super().__new__(cls, text)
        obj.halves = tuple(int(x) for x in text[5:].split("-")) if text.startswith("tile:") else None  # type: ignore
        return obj


PLAYERS = (2, 3, 4)
MAX_PIP_RANGE = (2, 12)

# ---- the bounds of every parameter ---------------------------------------------------------------------
# Each bound holds whatever the other parameters are, so that the largest deal total a seat can reach,
# :meth:`Rules.deal_total_bound` with every parameter at its bound (28,400), fits the results' int16 points
# columns (32,767), a first-double bonus their int8 tier columns (127), and a match score (a side of two
# seats over max_deals deals: 579,840,000) their int32 score columns (2,147,483,647).
#: tiles of the largest set (double-12): no deal has more placements, moves or tiles in a hand
MAX_TILES = 91
#: the largest end sum S (four counted ends of a double-12 counted twice): a divisor above it never divides
MAX_END_SUM = 4 * 2 * MAX_PIP_RANGE[1]
POINTS_FIXED_RANGE = (1, 300)   #: points = fixed:N
BONUS_POINTS_RANGE = (0, 100)   #: the points of a first_double_bonus pair
OUT_FIXED_RANGE = (0, 1000)     #: out_bonus = fixed:N
ROUND_RANGE = (1, 1000)         #: bonus_round_to and bonus_divisor
TARGET_RANGE = (0, 100_000)     #: target (0: no match)
MAX_DEALS_RANGE = (1, 10_000)   #: max_deals
INT16_MAX, INT32_MAX = 2**15 - 1, 2**31 - 1


def allowed_text(enum: type[Enum]) -> str:
    return ", ".join(m.value for m in enum)


def invalid(name: str, value: Any, allowed: str) -> RulesError:
    return RulesError(f"rules: {name} = {shown(value)} is invalid; allowed: {allowed}")


def by_players(name: str, value: Any, minimum: int, maximum: int) -> tuple[int, int, int]:
    """Normalise ``{2: 6, "3": 6, 4: 5}``, ``[6, 6, 5]`` or ``5`` to (v2, v3, v4)."""
    allowed = (f"an integer from {minimum} to {maximum}, a list of three for 2/3/4 players, "
               f"or a table keyed by 2, 3, 4 (e.g. {{2 = 6, 3 = 6, 4 = 5}})")
    if isinstance(value, bool):
        raise invalid(name, value, allowed)
    if isinstance(value, int):
        out = (value, value, value)
    elif isinstance(value, Mapping):
        try:
            keyed = {int(k): v for k, v in value.items()}
        except (TypeError, ValueError):
            raise invalid(name, value, allowed) from None
        if set(keyed) != set(PLAYERS):
            raise invalid(name, value, allowed)
        out = tuple(keyed[p] for p in PLAYERS)
    elif isinstance(value, (list, tuple)) and len(value) == 3:
        out = tuple(value)
    else:
        raise invalid(name, value, allowed)
    if not all(isinstance(v, int) and not isinstance(v, bool) and minimum <= v <= maximum for v in out):
        raise invalid(name, value, allowed)
    return out  # type: ignore[return-value]


def int_in(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise invalid(name, value, f"an integer from {lo} to {hi}")
    return value


def choice_of(name: str, enum: type[Choice], value: Any) -> Choice:
    try:
        return enum(value)
    except ValueError:
        raise invalid(name, value, allowed_text(enum)) from None


def mode_n(name: str, value: Any, kind: type[_ModeN], plain: tuple[str, ...], prefixed: str,
            n_range: tuple[int, int]) -> _ModeN:
    """Modes like ``sum`` or ``fixed:N``, parsed into ``kind`` from their canonical text."""
    lo, hi = n_range
    allowed = ", ".join((*plain, f"{prefixed}:N (N an integer from {lo} to {hi})"))
    if isinstance(value, str):
        if value in plain:
            return kind(str(value))
        head, sep, tail = value.partition(":")
        digits = tail.strip()
        # ASCII digits only (str.isdigit takes "²"), and few of them: int() of a long string is refused
        if head == prefixed and sep and 0 < len(digits) <= 12 and digits.isascii() and digits.isdigit() \
                and lo <= int(digits) <= hi:
            return kind(f"{prefixed}:{int(digits)}")
    raise invalid(name, value, allowed)

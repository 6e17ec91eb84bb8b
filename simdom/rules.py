"""The rules of a deal: one frozen, validated object and the preset registry (docs/rules.md sections 1-8
and 12).

Every parameter of docs/rules.md section 8, and the five match parameters of section 12 (``target``,
``match_end``, ``next_lead``, ``teams``, ``max_deals``), is a field under exactly its name. ``Rules`` validates itself
on construction; a bad value raises :class:`RulesError` naming the parameter and the allowed values.

    >>> r = preset("threes", players=4)
    >>> r.hand_size[4], r.points
    (5, 'fixed:6')
    >>> preset("fives", players=3, min_ends=2).min_ends
    2
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping

from .rulevalues import (BONUS_POINTS_RANGE, INT16_MAX, INT32_MAX, MAX_DEALS_RANGE, MAX_END_SUM,  # noqa: F401
                         MAX_PIP_RANGE, MAX_TILES, OUT_FIXED_RANGE, PLAYERS, POINTS_FIXED_RANGE, ROUND_RANGE,
                         TARGET_RANGE, ArmsOpen, BlockBonus, Choice, DoubleCounts, Draw, Lead, MatchEnd, NextLead,
                         OutBonus, OutMode, Points, PointsMode, RulesError, Spinner, Teams, allowed_text, by_players,
                         choice_of, int_in, invalid, mode_n)
from .safeio import shown
from .tiles import n_tiles, parse_tile, tile_name


@dataclass(frozen=True, kw_only=True)
class Rules:
    """A fully resolved, validated rule set (docs/rules.md section 8) for a given number of players.
    Its defaults are the rules of Threes (the ``threes`` preset is these defaults).

    Built from keywords only; any value that reads as the field's type is accepted (``"none"`` for a
    Choice, ``"fixed:6"`` for Points, a list for a tuple) and stored as that type: the choices as their
    StrEnum, ``points`` / ``out_bonus`` as :class:`Points` / :class:`OutBonus` (mode and N parsed once),
    ``lead`` as :class:`Lead` (its tile's halves)."""

    max_pip: int = 6
    hand_size: tuple[int, int, int] = (6, 6, 5)
    boneyard_reserve: tuple[int, int, int] = (0, 0, 0)
    draw: Draw = Draw.UNTIL_PLAYABLE
    lead: Lead = Lead("any")
    spinner: Spinner = Spinner.FIRST_DOUBLE
    arms_open: ArmsOpen | None = ArmsOpen.IMMEDIATELY
    double_counts: DoubleCounts = DoubleCounts.FACE
    divisors: tuple[int, ...] = (3,)
    min_ends: int = 3
    points: Points = Points("fixed:6")
    first_double_bonus: tuple[tuple[int | None, int], ...] = ((4, 2), (8, 4), (None, 8))
    out_bonus: OutBonus = OutBonus("none")
    block_bonus: BlockBonus = BlockBonus.NONE
    bonus_round_to: int = 1
    bonus_divisor: int = 1
    players: int = 4
    target: int = 0
    match_end: MatchEnd = MatchEnd.DEAL_END
    next_lead: NextLead = NextLead.RULES
    teams: Teams = Teams.NONE
    max_deals: int = 200
    preset: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        s = object.__setattr__
        s(self, "players", int_in("players", self.players, 2, 4))
        lo, hi = MAX_PIP_RANGE
        s(self, "max_pip", int_in("max_pip", self.max_pip, lo, hi))
        s(self, "hand_size", by_players("hand_size", self.hand_size, 1, MAX_TILES))
        s(self, "boneyard_reserve", by_players("boneyard_reserve", self.boneyard_reserve, 0, MAX_TILES - 1))
        s(self, "draw", choice_of("draw", Draw, self.draw))
        s(self, "lead", self._check_lead(self.lead))
        s(self, "spinner", choice_of("spinner", Spinner, self.spinner))
        if self.arms_open == "none":  # TOML has no null: arms_open = "none" is the line's "no arms"
            s(self, "arms_open", None)
        if self.arms_open is None and self.spinner != Spinner.NONE:
            raise invalid("arms_open", None, allowed_text(ArmsOpen) + " (spinner = first_double needs one)")
        if self.arms_open is not None:
            s(self, "arms_open", choice_of("arms_open", ArmsOpen, self.arms_open))
        s(self, "double_counts", choice_of("double_counts", DoubleCounts, self.double_counts))
        s(self, "divisors", self._check_divisors(self.divisors))
        s(self, "min_ends", int_in("min_ends", self.min_ends, 1, 4))
        s(self, "points", mode_n("points", self.points, Points, ("sum", "quotient"), "fixed",
                                     POINTS_FIXED_RANGE))
        s(self, "first_double_bonus", self._check_bonus(self.first_double_bonus))
        s(self, "out_bonus", mode_n("out_bonus", self.out_bonus, OutBonus, ("none", "opponents_pips"), "fixed",
                                        OUT_FIXED_RANGE))
        s(self, "block_bonus", choice_of("block_bonus", BlockBonus, self.block_bonus))
        s(self, "bonus_round_to", int_in("bonus_round_to", self.bonus_round_to, *ROUND_RANGE))
        s(self, "bonus_divisor", int_in("bonus_divisor", self.bonus_divisor, *ROUND_RANGE))
        total = n_tiles(self.max_pip)
        need = self.players * self.hand
        if need > total:
            raise RulesError(
                f"rules: hand_size = {self.hand} for {self.players} players needs {need} tiles, but the "
                f"double-{self.max_pip} set holds {total}; allowed: hand_size[{self.players}] <= "
                f"{total // self.players}")
        if self.reserve > total - need:
            raise RulesError(
                f"rules: boneyard_reserve = {self.reserve} for {self.players} players is more than the "
                f"{total - need} tiles left in the boneyard; allowed: 0..{total - need}")
        self._check_combinations()
        self._check_match()

    # -- checks ------------------------------------------------------------------------------
    def _check_combinations(self) -> None:
        """Parameters that are valid alone but meaningless together: an error naming both."""
        def both(a: str, b: str, why: str, allowed: str) -> RulesError:
            return RulesError(f"rules: {a} = {getattr(self, a)!r} with {b} = {getattr(self, b)!r}: {why}; "
                              f"allowed: {allowed}")
        if self.spinner == Spinner.NONE and self.arms_open is not None:
            raise both("arms_open", "spinner", "a line without a spinner has no arms",
                       "arms_open = none (null in JSON) with spinner = none, or spinner = first_double")
        if self.spinner == Spinner.NONE and self.min_ends > 2:
            raise both("min_ends", "spinner", "a line has at most 2 counted ends, so no placement could score",
                       "min_ends 1 or 2 with spinner = none, or spinner = first_double")
        if self.draw == Draw.NONE and self.reserve:
            raise both("boneyard_reserve", "draw", "nobody draws, so no tile is held back",
                       "boneyard_reserve = 0 with draw = none, or draw = until_playable")
        if not self._pips_bonus():
            for name in ("bonus_round_to", "bonus_divisor"):
                if getattr(self, name) != 1:
                    raise both(name, "out_bonus", f"with block_bonus = {self.block_bonus!r} no end bonus counts "
                               "pips, so there is nothing to round or divide",
                               f"{name} = 1, or an out_bonus or block_bonus that counts pips")

    def _pips_bonus(self) -> bool:
        """An end bonus counting pips (rounded and divided by bonus_round_to and bonus_divisor)."""
        return self.out_bonus.mode == OutMode.OPPONENTS_PIPS or self.block_bonus != BlockBonus.NONE

    def _check_match(self) -> None:
        """The five match parameters (docs/rules.md 12). With target 0 there is no match: the other four,
        once valid, are reset to their defaults (they take effect only when target > 0)."""
        s = object.__setattr__
        s(self, "target", int_in("target", self.target, *TARGET_RANGE))
        s(self, "match_end", choice_of("match_end", MatchEnd, self.match_end))
        s(self, "next_lead", choice_of("next_lead", NextLead, self.next_lead))
        s(self, "teams", choice_of("teams", Teams, self.teams))
        s(self, "max_deals", int_in("max_deals", self.max_deals, *MAX_DEALS_RANGE))
        if self.teams == Teams.PARTNERS and self.players != 4:
            raise RulesError(f"rules: teams = 'partners' needs players = 4, but players = {self.players}; "
                             f"allowed: teams = none with {self.players} players, or players = 4")
        if self.target == 0:
            for name in MATCH_PARAMETERS[1:]:
                s(self, name, _MATCH_DEFAULTS[name])

    def _check_lead(self, value: Any) -> Lead:
        allowed = f"any, tile:A-B (a tile of the double-{self.max_pip} set)"
        if value == "any":
            return Lead("any")
        if isinstance(value, str) and value.startswith("tile:"):
            try:
                t = parse_tile(value[5:], self.max_pip)
            except ValueError as e:
                raise RulesError(f"rules: lead = {shown(value)} is invalid ({e}); allowed: {allowed}") from None
            return Lead("tile:" + tile_name(t, self.max_pip))
        raise invalid("lead", value, allowed)

    @staticmethod
    def _check_divisors(value: Any) -> tuple[int, ...]:
        allowed = f"a non-empty list of distinct integers from 2 to {MAX_END_SUM}, e.g. [3] or [3, 5]"
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, (list, tuple)) or not value:
            raise invalid("divisors", value, allowed)
        if not all(isinstance(d, int) and not isinstance(d, bool) and 2 <= d <= MAX_END_SUM for d in value) \
                or len(set(value)) != len(value):
            raise invalid("divisors", value, allowed)
        return tuple(value)

    @staticmethod
    def _check_bonus(value: Any) -> tuple[tuple[int | None, int], ...]:
        """The tiers, each ``[last_move, points]``; the last may be open-ended, written ``[points]``,
        ``["end", points]`` or (in JSON and Python) ``[null, points]``."""
        allowed = (f"a list of [last_move, points] pairs with last_move increasing (integers from 1 to "
                   f"{MAX_TILES}); only the last tier may be open-ended: [points], [\"end\", points] or, in "
                   f"JSON, [null, points]; points integers from {BONUS_POINTS_RANGE[0]} to "
                   f"{BONUS_POINTS_RANGE[1]}; e.g. [[4, 2], [8, 4], [8]] or []")
        if not isinstance(value, (list, tuple)):
            raise invalid("first_double_bonus", value, allowed)
        out: list[tuple[int | None, int]] = []
        prev = 0
        for i, pair in enumerate(value):
            if isinstance(pair, (list, tuple)) and len(pair) == 1:
                pair = (None, pair[0])  # an open-ended last tier: [points]
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise invalid("first_double_bonus", value, allowed)
            last, pts = pair
            if last == "end":
                last = None
            if isinstance(pts, bool) or not isinstance(pts, int) \
                    or not BONUS_POINTS_RANGE[0] <= pts <= BONUS_POINTS_RANGE[1]:
                raise invalid("first_double_bonus", value, allowed)
            if last is None:
                if i != len(value) - 1:
                    raise invalid("first_double_bonus", value, allowed)
            elif isinstance(last, bool) or not isinstance(last, int) or last <= prev or last > MAX_TILES:
                raise invalid("first_double_bonus", value, allowed)
            else:
                prev = last
            out.append((last, pts))
        return tuple(out)

    # -- derived -----------------------------------------------------------------------------
    @property
    def hand(self) -> int:
        """Tiles dealt to each seat for this rule set's number of players."""
        return self.hand_size[self.players - 2]

    @property
    def reserve(self) -> int:
        return self.boneyard_reserve[self.players - 2]

    @property
    def n_tiles(self) -> int:
        return n_tiles(self.max_pip)

    def placement_bound(self) -> int:
        """The most points one placement can score under these rules (docs/rules.md 4)."""
        smax = 4 * 2 * self.max_pip
        if self.points.mode == PointsMode.FIXED:
            return self.points.n
        if self.points.mode == PointsMode.SUM:
            return smax
        return max(sum(s // d for d in self.divisors if s % d == 0) for s in range(1, smax + 1))

    def end_bonus_bound(self) -> int:
        """The largest out or block bonus of a deal (docs/rules.md 7): at most every pip of the set, rounded
        up to bonus_round_to and divided by bonus_divisor, or out_bonus's fixed N."""
        pips = (self.max_pip + 2) * self.max_pip * (self.max_pip + 1) // 2
        q = self.bonus_round_to
        counted = (2 * pips + q) // (2 * q) * q // self.bonus_divisor if self._pips_bonus() else 0
        fixed = self.out_bonus.n if self.out_bonus.mode == OutMode.FIXED else 0
        return max(counted, fixed)

    def deal_total_bound(self) -> int:
        """An upper bound of a seat's deal total: every tile of the set placed by it and scoring the most
        a placement can, the largest first-double bonus and the largest end bonus."""
        bonus = max((pts for _, pts in self.first_double_bonus), default=0)
        return self.n_tiles * self.placement_bound() + bonus + self.end_bonus_bound()

    @property
    def is_match(self) -> bool:
        """A match (docs/rules.md 12): target > 0."""
        return self.target > 0

    def to_dict(self) -> dict[str, Any]:
        """The resolved parameters in the form of docs/rules.md section 11 (trace ``rules`` object); for a
        match (target > 0) also the five match parameters of section 12."""
        d = {
            "max_pip": self.max_pip,
            "hand_size": {str(p): v for p, v in zip(PLAYERS, self.hand_size)},
            "boneyard_reserve": {str(p): v for p, v in zip(PLAYERS, self.boneyard_reserve)},
            "draw": self.draw,
            "lead": self.lead,
            "spinner": self.spinner,
            "arms_open": self.arms_open,
            "double_counts": self.double_counts,
            "divisors": list(self.divisors),
            "min_ends": self.min_ends,
            "points": self.points,
            "first_double_bonus": [[last, pts] for last, pts in self.first_double_bonus],
            "out_bonus": self.out_bonus,
            "block_bonus": self.block_bonus,
            "bonus_round_to": self.bonus_round_to,
            "bonus_divisor": self.bonus_divisor,
            "players": self.players,
        }
        if self.is_match:
            d.update({name: getattr(self, name) for name in MATCH_PARAMETERS})
        return d


#: The match parameters of docs/rules.md section 12 (``target`` first).
MATCH_PARAMETERS: tuple[str, ...] = ("target", "match_end", "next_lead", "teams", "max_deals")
_MATCH_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules) if f.name in MATCH_PARAMETERS}
#: The parameters of a deal: docs/rules.md section 8 and ``players`` (the keys of a section 11 ``rules`` object).
PARAMETERS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules)
                                    if f.name != "preset" and f.name not in MATCH_PARAMETERS)
#: Every parameter a preset, a scenario or ``--set`` may give.
ALL_PARAMETERS: tuple[str, ...] = PARAMETERS + MATCH_PARAMETERS

#: The parameters of a deal at their defaults (the Rules fields' defaults, ``players`` aside): the rules
#: of Threes, so the threes preset is written once, as those defaults.
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Rules)
                             if f.name in PARAMETERS and f.name != "players"}

#: Each preset's parameters; a parameter a preset leaves out takes its default (max_pip, boneyard_reserve).
_PRESET_TABLE: dict[str, dict[str, Any]] = {
    "threes": dict(_DEFAULTS),
    "fives": dict(hand_size=(7, 7, 7), lead="tile:5-5", spinner="first_double", arms_open="after_both_sides",
                  double_counts="both", divisors=(5,), min_ends=1, points="sum", first_double_bonus=(),
                  out_bonus="opponents_pips", block_bonus="opponents_minus_own", bonus_round_to=5,
                  bonus_divisor=5, draw="until_playable"),
    "all-fives": dict(hand_size=(7, 5, 5), lead="any", spinner="first_double", arms_open="after_both_sides",
                      double_counts="both", divisors=(5,), min_ends=1, points="sum", first_double_bonus=(),
                      out_bonus="opponents_pips", block_bonus="opponents_pips", bonus_round_to=5,
                      bonus_divisor=1, draw="until_playable"),
    "muggins": dict(hand_size=(7, 5, 5), lead="any", spinner="none", arms_open=None, double_counts="both",
                    divisors=(5,), min_ends=1, points="sum", first_double_bonus=(), out_bonus="opponents_pips",
                    block_bonus="opponents_pips", bonus_round_to=5, bonus_divisor=1, draw="until_playable"),
    "fives-and-threes": dict(hand_size=(7, 5, 5), lead="any", spinner="none", arms_open=None,
                             double_counts="both", divisors=(3, 5), min_ends=1, points="quotient",
                             first_double_bonus=(), out_bonus="fixed:1", block_bonus="none", bonus_round_to=1,
                             bonus_divisor=1, draw="none"),
}
for _p in _PRESET_TABLE.values():
    for _k, _v in _DEFAULTS.items():
        _p.setdefault(_k, _v)

#: Where each preset comes from (docs/rules.md section 8).
PRESET_SOURCES = {
    "threes": "seeds 000, 002 (тройное домино)",
    "fives": "seed 001 (пятёрочка)",
    "all-fives": "pagat All Fives",
    "muggins": "pagat Muggins",
    "fives-and-threes": "pagat Fives and Threes",
}
PRESETS = tuple(_PRESET_TABLE)


def preset_params(name: str) -> dict[str, Any]:
    """The raw parameters of a preset; an unknown name raises RulesError listing the presets."""
    try:
        return dict(_PRESET_TABLE[name])
    except KeyError:
        raise invalid("preset", name, ", ".join(PRESETS)) from None


def _check_names(overrides: Mapping[str, Any], allowed: tuple[str, ...] = ALL_PARAMETERS) -> None:
    for key in overrides:
        if key not in allowed:
            raise RulesError(f"rules: unknown parameter {key!r}; allowed: {', '.join(allowed)}")


def preset(name: str, players: int = 4, **overrides: Any) -> Rules:
    """The rules of preset ``name`` for ``players`` seats, with any parameter overridden."""
    params = preset_params(name)
    _check_names(overrides, tuple(p for p in ALL_PARAMETERS if p != "players"))  # players: its own argument
    params.update(overrides)
    params["players"] = players
    # a preset's values that an override makes meaningless follow it (values given are checked as given)
    if overrides.get("spinner") == "first_double" and params.get("arms_open") is None:
        params["arms_open"] = "immediately"
    if overrides.get("spinner") == "none" and "arms_open" not in overrides:
        params["arms_open"] = None
    if {"out_bonus", "block_bonus"} & set(overrides) and params.get("out_bonus") != "opponents_pips" \
            and params.get("block_bonus") == "none":
        for key in ("bonus_round_to", "bonus_divisor"):
            if key not in overrides:
                params[key] = 1
    return Rules(**params, preset=name)


def from_dict(d: Mapping[str, Any]) -> Rules:
    """Rebuild rules from :meth:`Rules.to_dict` output (a trace's ``rules`` object, with or without the
    match parameters of docs/rules.md 12)."""
    d = dict(d)
    _check_names(d)
    return Rules(**d)

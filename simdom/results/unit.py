"""The unit of a run: what one of its ``deals`` is, and the cluster of every estimate on it.

A results folder holds single deals (``Unit.DEAL``) or, when the rules play matches (docs/rules.md 12,
target > 0), whole matches (``Unit.MATCH``: ``deals`` counts matches, every table's key ``deal`` is
``match`` and ``hand``). The manifest stores the value (``"deal"`` or ``"match"``); a ``Unit`` is that
string, so it is written, hashed and compared as before, and carries what differs between the two.
"""
from __future__ import annotations

from enum import Enum

from .tables import MATCH_TABLES, TABLES, TableSpec


class Unit(str, Enum):
    DEAL = "deal"
    MATCH = "match"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def of(cls, is_match: bool) -> "Unit":
        """The unit of rules that play matches (``is_match``, target > 0) or single deals."""
        return cls.MATCH if is_match else cls.DEAL

    @property
    def is_match(self) -> bool:
        return self is Unit.MATCH

    @property
    def plural(self) -> str:
        """``deals`` or ``matches``: what a run's ``deals`` counts."""
        return "matches" if self.is_match else "deals"

    @property
    def key(self) -> str:
        """The key column of the unit in every table (``deal``, or ``match`` beside ``hand``)."""
        return self.value

    @property
    def tables(self) -> dict[str, TableSpec]:
        """The tables of a run of this unit (a match run adds ``matches`` and keys by match and hand)."""
        return MATCH_TABLES if self.is_match else TABLES

"""The results tables: each table's columns (one declaration per column: name, type, meaning), their
schemas in both modes, and the schema tables of docs/results.md generated from them."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

# ---- the tables -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    name: str
    type: pa.DataType
    doc: str
    nullable: bool = False
    per_seat: bool = False   #: written once per seat: name_0 .. name_{players-1}
    per_side: bool = False   #: written once per side of a match: name_0 .. name_{sides-1}


@dataclass(frozen=True)
class TableSpec:
    name: str        #: the table's folder
    rows: str        #: what one row is
    option: str      #: when it is written
    columns: tuple[Column, ...]

    def names(self, players: int, sides: int = 0) -> list[str]:
        return [n for c in self.columns for n in self._expand(c, players, sides)]

    @staticmethod
    def _expand(c: Column, players: int, sides: int = 0) -> list[str]:
        if c.per_seat or c.per_side:
            return [f"{c.name}_{s}" for s in range(players if c.per_seat else sides)]
        return [c.name]

    def schema(self, players: int, sides: int = 0) -> pa.Schema:
        return pa.schema([pa.field(n, c.type, nullable=c.nullable or c.per_side, metadata={"doc": c.doc})
                          for c in self.columns for n in self._expand(c, players, sides)])

    def in_match_mode(self, rows: str, extra: tuple[Column, ...] = ()) -> "TableSpec":
        """This table as a match-mode run writes it: the keys arm, match, rotation, hand instead of
        arm, deal, rotation, and ``extra`` columns after them."""
        assert self.columns[:len(KEYS)] == KEYS
        return TableSpec(self.name, rows, self.option, MATCH_KEYS + (HAND,) + extra + self.columns[len(KEYS):])


C = Column
KEYS = (C("arm", pa.string(), "arm name (the scenario's variant of policies or rules)"),
        C("deal", pa.int64(), "deal number; the deal's randomness comes from the root seed and this alone"),
        C("rotation", pa.int8(), "rotation r: seat s plays the policy listed for player (s + r) % players"))
MATCH_KEYS = (KEYS[0], C("match", pa.int64(), "match number; the match's shuffles come from the root seed and this "
                                               "alone (the same in every arm and rotation)"), KEYS[2])
HAND = C("hand", pa.int32(), "the deal's 0-based number in its match")

DEALS = TableSpec("deals", "one row per arm, deal and rotation", "always", KEYS + (
    C("first_seat", pa.int8(), "the seat that led"),
    C("end", pa.string(), "how the deal ended: domino or blocked (match mode: or target, a placement won the "
                          "match)"),
    C("winner", pa.int8(), "the hand winner: the seat that dominoed, or in a blocked deal the seat with the "
                           "fewest pips (null: a tie, no hand winner)", nullable=True),
    C("end_bonus", pa.int16(), "the out or block bonus the hand winner earned"),
    C("tiles_placed", pa.int8(), "tiles on the layout at the end of the deal"),
    C("first_double_move", pa.int8(), "move number of the deal's first double (null: none placed)", nullable=True),
    C("first_double_seat", pa.int8(), "seat that placed the first double (null: none)", nullable=True),
    C("points", pa.int16(), "seat s's deal total: placements + first-double bonus + end bonus", per_seat=True),
    C("scoring_plays", pa.int8(), "seat s's placements that scored", per_seat=True),
    C("plays", pa.int8(), "tiles seat s placed (the lead included)", per_seat=True),
    C("doubles_dealt", pa.int8(), "doubles in seat s's initial hand", per_seat=True),
    C("lost_first_double", pa.bool_(), "another seat placed the deal's first double while seat s held a double",
      per_seat=True),
))

SEATS = TableSpec("seats", "one row per arm, deal, rotation and seat", "simdom run --seats", KEYS + (
    C("seat", pa.int8(), "seat 0..players-1"),
    C("play_points", pa.int16(), "points scored by the seat's placements"),
    C("bonus", pa.int16(), "first-double bonus earned"),
    C("end_bonus", pa.int16(), "out or block bonus earned"),
    C("draws", pa.int8(), "tiles drawn from the boneyard"),
    C("passes", pa.int8(), "turns passed"),
    C("pips_left", pa.int16(), "pips left in hand at the end"),
    C("went_out", pa.bool_(), "this seat placed its last tile (domino)"),
))

MOVES = TableSpec("moves", "one row per placement, ordered arm, deal, rotation, move", "simdom run --moves", KEYS + (
    C("move", pa.int8(), "move number: 1-based count of tiles placed, this one included"),
    C("seat", pa.int8(), "seat that placed the tile"),
    C("tile", pa.string(), "tile, low half first (3-6)"),
    C("end", pa.string(), "lead, L, R, U or D"),
    C("ends", pa.int8(), "counted ends after the placement (k)"),
    C("ends_sum", pa.int16(), "sum of the counted ends after the placement (S)"),
    C("points", pa.int16(), "points the placement scored"),
    C("bonus", pa.int16(), "first-double bonus the placement earned"),
))

COURSE = TableSpec("course", "one row per arm, deal and rotation, ordered as deals", "simdom run --course",
                   KEYS + (
    C("draws", pa.int8(), "tiles drawn from the boneyard in the deal, every seat"),
    C("turns", pa.int16(), "turns taken: placements and passes (a turn that draws and then places counts once)"),
    C("choice_turns", pa.int16(), "placements whose mover held two or more legal moves (a pass holds none)"),
    C("choices", pa.int16(), "the mover's legal (tile, end) moves summed over the deal's placements"),
    C("lead_changes", pa.int16(), "times the leader changed: after each placement each seat's score is its "
                                  "placement points and first-double bonus so far, the leader the one seat "
                                  "strictly ahead (none on a tie at the top), a change a leader other than the "
                                  "last one"),
    C("winner_deficit", pa.int16(), "the deal's winner's largest deficit over its placements, in points (the best "
                                    "other score minus the winner's, 0 if never behind); the winner is the one seat "
                                    "with the top deal total (null: a tie at the top)", nullable=True),
    C("decided_at", pa.int8(), "the last placement after which the winner was not the leader (0: it led after "
                               "every placement; tiles_placed: the end bonus decided; null: a tie at the top)",
      nullable=True),
))

DECISIONS = TableSpec(
    "decisions", "one row per first-double decision (the deal's first double not yet placed, the mover able to "
    "place a double and another tile), ordered arm, deal, rotation, move", "simdom run --decisions", KEYS + (
        C("seat", pa.int8(), "the mover's seat"),
        C("move", pa.int8(), "move number the placement gets (tiles placed + 1)"),
        C("turn", pa.int8(), "the mover's order of play from the leader (0 = the leader)"),
        C("tier_now", pa.int8(), "first-double bonus of a double placed now"),
        C("tier_later", pa.int8(), "first-double bonus if delayed one round (at move + players)"),
        C("doubles_held", pa.int8(), "doubles in the mover's hand"),
        C("unseen_doubles", pa.int8(), "doubles the mover cannot see (not in its hand, not on the layout) that an "
                                       "opponent may hold (none of them showed that value void)"),
        C("mover_points", pa.int16(), "the mover's points so far (placements and bonus)"),
        C("best_opponent_points", pa.int16(), "the highest of the opponents' points so far"),
        C("legal_moves", pa.int8(), "the mover's legal (tile, end) moves"),
        C("double_moves", pa.int8(), "legal moves that place a double"),
        C("best_double_points", pa.int16(), "immediate points (score and bonus) of the best double now: greedy's "
                                            "choice among the moves placing a double"),
        C("best_other_points", pa.int16(), "immediate points of the best other move: greedy's choice among the "
                                           "moves placing no double (what hold plays)"),
        C("double_face", pa.int8(), "the value v of the best double v-v"),
        C("double_support", pa.int8(), "other tiles in the mover's hand carrying v (the double's suit)"),
        C("suits_held", pa.int8(), "distinct values on the mover's other tiles (doubles apart)"),
        C("hand_size", pa.int8(), "tiles in the mover's hand"),
        C("opponent_tiles", pa.int8(), "tiles in the opponents' hands"),
        C("boneyard", pa.int8(), "tiles left to draw"),
        C("chose_double", pa.bool_(), "the mover's policy placed a double"),
        C("rollout_double", pa.float32(), "mean final points of the mover for the deal after the best double now, "
                                          "over the rollouts (null without --decision-rollouts)", nullable=True),
        C("rollout_other", pa.float32(), "the same after the best other move", nullable=True),
        C("hold_gain", pa.float32(), "mean paired difference rollout_other - rollout_double, the value of holding "
                                     "(same worlds, common random numbers)", nullable=True),
        C("hold_gain_win", pa.float32(), "the same for the mover's win share (a tie for the top shares the win)",
          nullable=True),
    ))

MATCHES = TableSpec("matches", "one row per arm, match and rotation", "match mode, always", MATCH_KEYS + (
    C("deals", pa.int32(), "deals played in the match"),
    C("first_seat", pa.int8(), "the seat that led the match's first deal"),
    C("winner", pa.int8(), "the side that won the match (null: none, max_deals reached)", nullable=True),
    C("unfinished", pa.bool_(), "max_deals deals were played without a winner"),
    C("score", pa.int32(), "side j's final match score (null: the arm has fewer sides)", per_side=True),
))

MATCH_DEALS = DEALS.in_match_mode("one row per arm, match, rotation and hand (a match's deals in play order)", (
    C("rules_lead", pa.bool_(), "the rules' lead (section 6) chose the leader; false: next_lead did (any tile)"),
    C("before", pa.int32(), "side j's match score before the deal (null: the arm has fewer sides)", per_side=True),
    C("credited", pa.int32(), "what the match credited to side j in the deal (under exact, what fitted)",
      per_side=True),
    C("match_winner", pa.int8(), "the side that won this deal's match, as in the matches table (null: none); "
                                 "it lets one pass over the deals relate each position to the match's outcome",
      nullable=True),
))
del C

#: Every table of a run of single deals, by folder name; ``deals`` is always written, the others when their
#: option asks.
TABLES: dict[str, TableSpec] = {t.name: t for t in (DEALS, COURSE, SEATS, MOVES, DECISIONS)}
#: Every table of a match-mode run: ``deals`` and ``matches`` always.
MATCH_TABLES: dict[str, TableSpec] = {
    "deals": MATCH_DEALS, "matches": MATCHES,
    "seats": SEATS.in_match_mode("one row per arm, match, rotation, hand and seat"),
    "moves": MOVES.in_match_mode("one row per placement, ordered arm, match, rotation, hand, move")}


def _column_types() -> dict[str, pa.DataType]:
    """Every column's type by name, over every table of both modes (a name has one type everywhere)."""
    out: dict[str, pa.DataType] = {}
    for spec in (*TABLES.values(), *MATCH_TABLES.values()):
        for f in spec.schema(4, 4):
            assert out.setdefault(f.name, f.type) == f.type, f.name
    return out


#: every column's type by name, for checking a part's columns
COLUMN_TYPES: dict[str, pa.DataType] = _column_types()


def sides_of(rules: dict[str, Any], players: int) -> int:
    """The sides of a match under these rules (docs/rules.md 12): 2 with partners, else one per seat."""
    return 2 if rules.get("teams") == "partners" else players


def schema_markdown(table: TableSpec, columns: tuple[Column, ...] | None = None, head: str | None = None) -> str:
    """The docs' table of one results table's columns (``_s`` marks per-seat columns, ``_j``
    per-side ones); ``columns``: only these."""
    lines = [head or f"**{table.name}/part-NNNNN.parquet**: {table.rows} ({table.option})", "",
             "| column | type | null | meaning |", "| --- | --- | --- | --- |"]
    for c in columns or table.columns:
        name = f"{c.name}_s" if c.per_seat else f"{c.name}_j" if c.per_side else c.name
        lines.append(f"| `{name}` | {c.type} | {'yes' if c.nullable or c.per_side else ''} | {c.doc} |")
    return "\n".join(lines)


def schema_tables() -> str:
    """Every table's schema as docs/results.md shows it (tests/test_results.py keeps them equal)."""
    new = tuple(c for c in MATCH_DEALS.columns if c not in DEALS.columns)
    return "\n\n".join([schema_markdown(t) for t in TABLES.values()] + [
        "**Match mode** (rules with `target > 0`, manifest `unit = \"match\"`): `deals` counts matches, a "
        "chunk is a range of match ids, and the key `deal` of every table is replaced by `match` and `hand`. "
        "Side j is seat j, or with partners the seats j and j + 2 (docs/rules.md 12).",
        schema_markdown(MATCHES),
        schema_markdown(MATCH_DEALS, new, f"**deals/part-NNNNN.parquet** in match mode: {MATCH_DEALS.rows}: the "
                                          "first table's columns, `deal` replaced by these"),
    ])


#: the page of the docs that holds the schema tables, between the markers
SCHEMA_PAGE = Path("docs/results.md")
SCHEMA_BEGIN, SCHEMA_END = "<!-- schema:begin -->", "<!-- schema:end -->"


def update_schema_page(path: Path = SCHEMA_PAGE) -> bool:
    """Write :func:`schema_tables` between the page's schema markers; True if the file changed.
    A page without both markers raises ValueError (nothing is written)."""
    text = Path(path).read_text(encoding="utf-8")
    head, begin, rest = text.partition(SCHEMA_BEGIN)
    _, end, tail = rest.partition(SCHEMA_END)
    if not (begin and end):
        raise ValueError(f"{path}: no schema markers; allowed: a page holding {SCHEMA_BEGIN} and {SCHEMA_END}")
    new = f"{head}{SCHEMA_BEGIN}\n{schema_tables()}\n{SCHEMA_END}{tail}"
    if new != text:
        from ..safeio import write_atomic
        write_atomic(path, new)
    return new != text

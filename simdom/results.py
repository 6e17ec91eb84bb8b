"""The declared output schema of `simdom run`: one place, read by the writer and the readers.

A results folder (default ``results/<scenario name>/``) holds::

    manifest.json              scenario, resolved rules of every arm, seeds, chunking, versions, times
    deals/part-00000.parquet   one row per (arm, deal, rotation, seat)       -- DEAL_SCHEMA
    moves/part-00000.parquet   with --moves: one row per placement          -- MOVE_SCHEMA

Every part of a run has the same schema, so ``polars.scan_parquet("DIR/deals/*.parquet")``,
``pyarrow.dataset.dataset("DIR/deals")`` or DuckDB's ``read_parquet`` read the dataset as it is.
"""
from __future__ import annotations

import pyarrow as pa

#: (name, arrow type, nullable, meaning): the README's schema table is generated from this list.
DEAL_COLUMNS: list[tuple[str, pa.DataType, bool, str]] = [
    ("arm", pa.string(), False, "arm name (the scenario's variant of policies or rules)"),
    ("deal", pa.int64(), False, "deal number; the deal's randomness comes from the root seed and this alone"),
    ("rotation", pa.int8(), False, "rotation r: seat s plays the policy listed for seat (s + r) % players"),
    ("seat", pa.int8(), False, "seat 0..players-1"),
    ("player", pa.int8(), False, "index of the seat's entry in the arm's policy list: (seat + rotation) % players"),
    ("policy", pa.string(), False, "the seat's policy, with parameters (e.g. hold:until=9)"),
    ("points", pa.int32(), False, "the seat's deal total: play_points + bonus + end_bonus"),
    ("play_points", pa.int32(), False, "points scored by placements"),
    ("bonus", pa.int16(), False, "first-double bonus earned (0 if not this seat)"),
    ("end_bonus", pa.int32(), False, "out or block bonus earned"),
    ("scoring_plays", pa.int16(), False, "placements by this seat that scored"),
    ("plays", pa.int16(), False, "tiles placed by this seat (the lead included)"),
    ("draws", pa.int16(), False, "tiles drawn from the boneyard"),
    ("passes", pa.int16(), False, "turns passed"),
    ("pips_left", pa.int16(), False, "pips left in hand at the end"),
    ("went_out", pa.bool_(), False, "this seat placed its last tile (domino)"),
    ("win", pa.float64(), False, "1/k if this seat is one of k seats tied on the highest total, else 0"),
    ("doubles_dealt", pa.int8(), False, "doubles in the seat's initial hand"),
    ("lost_first_double", pa.bool_(), False,
     "another seat placed the deal's first double while this seat held a double"),
    ("first_seat", pa.int8(), False, "the seat that led"),
    ("first_double_move", pa.int16(), True, "move number of the deal's first double (null: none placed)"),
    ("first_double_seat", pa.int8(), True, "seat that placed the first double (null: none)"),
    ("spinner_move", pa.int16(), True, "move number at which the spinner was placed (null: no spinner)"),
    ("spinner_seat", pa.int8(), True, "seat that placed the spinner (null: no spinner)"),
    ("end", pa.string(), False, "how the deal ended: domino or blocked"),
    ("tiles_placed", pa.int16(), False, "tiles on the layout at the end of the deal"),
]

MOVE_COLUMNS: list[tuple[str, pa.DataType, bool, str]] = [
    ("arm", pa.string(), False, "arm name"),
    ("deal", pa.int64(), False, "deal number"),
    ("rotation", pa.int8(), False, "rotation"),
    ("move", pa.int16(), False, "move number: 1-based count of tiles placed, this one included"),
    ("seat", pa.int8(), False, "seat that placed the tile"),
    ("policy", pa.string(), False, "that seat's policy"),
    ("tile", pa.string(), False, "tile, low half first (3-6)"),
    ("end", pa.string(), False, "lead, L, R, U or D"),
    ("ends", pa.int8(), False, "counted ends after the placement (k)"),
    ("ends_sum", pa.int16(), False, "sum of the counted ends after the placement (S)"),
    ("points", pa.int16(), False, "points the placement scored"),
    ("bonus", pa.int16(), False, "first-double bonus the placement earned"),
]


def _schema(cols: list[tuple[str, pa.DataType, bool, str]]) -> pa.Schema:
    return pa.schema([pa.field(n, t, nullable=nl, metadata={"doc": d}) for n, t, nl, d in cols])


DEAL_SCHEMA = _schema(DEAL_COLUMNS)
MOVE_SCHEMA = _schema(MOVE_COLUMNS)

MANIFEST = "manifest.json"
DEALS_DIR = "deals"
MOVES_DIR = "moves"

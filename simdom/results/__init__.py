"""The results folder (a package; one home for the format): its layout, format version, typed manifest, the schema of every table, the
atomic writer, the check of a part, and the schema tables of docs/results.md (one source for all of them).

A results folder (default ``results/<scenario name>/``) holds::

    manifest.json                   the run: scenario, resolved rules of every arm, seeds, chunking,
                                    versions, the tables written, the chunks done (:class:`Manifest`)
    deals/part-00000.parquet        one row per arm, deal and rotation, with per-seat columns
    seats/part-00000.parquet        with --seats: one row per arm, deal, rotation and seat (detail)
    moves/part-00000.parquet        with --moves: one row per placement
    decisions/part-00000.parquet    with --decisions: one row per first-double decision

A run whose rules play matches (docs/rules.md 12, target > 0) is in *match mode* (manifest ``unit =
"match"``): a chunk is a range of match ids, and the folder also holds::

    matches/part-00000.parquet      one row per arm, match and rotation

Every part of a table has the same schema, so ``polars.scan_parquet("DIR/deals/*.parquet")``,
``pyarrow.dataset.dataset("DIR/deals")`` or DuckDB's ``read_parquet`` read it as it is. Per-seat
columns are written ``points_0 .. points_{players-1}`` (seat 0 first), per-side columns (match mode)
``before_0 .. before_{sides-1}``. In match mode every table's ``deal`` key is replaced by ``match``
and ``hand`` (the deal's 0-based number in its match); the deals table's rows of one match are
contiguous, in play order. Each part's Parquet footer holds
the run's settings hash, its chunk number and its row count; pages carry CRC checksums. The manifest
records every part of a done chunk (its BLAKE2b hash, size, rows and deal range), and every reader
checks each part against that record and the domains of its values (simdom.results.verify).

    folder.py     names, FORMAT, ResultsError          tables.py   every table's columns and schemas, docs
    unit.py       Unit: deal or match, what differs
    manifest.py   the typed Manifest, settings hash,   parts.py    atomic writer, encode()
                  part records, row counts             verify.py   each part read once and checked
"""
from .folder import FORMAT, KIND, LOCK, MANIFEST, META_KEY, PART, ResultsError
from .manifest import (ArmEntry, Manifest, PartEntry, chunk_range, digest, first_difference, manifest_settings, parse_manifest, part_key,
                       part_rows, read_manifest, settings_hash)
from .parts import PARQUET, atomic_open, encode, part_path, strings, write_atomic
from .tables import (COLUMN_TYPES, COURSE, DEALS, DECISIONS, MATCH_DEALS, MATCH_TABLES, MATCHES, MOVES, SCHEMA_BEGIN, SCHEMA_END,
                     SCHEMA_PAGE, SEATS, TABLES, Column, TableSpec, schema_markdown, schema_tables, sides_of,
                     update_schema_page)
from .unit import Unit

#: verify.py's names, imported when first asked for (PEP 562): it needs polars, which `simdom run` does not
#: (a tenth of a second of its start, docs/speed.md)
_VERIFY = ("bounds", "check_chunk", "check_folder_parts", "read_checked")


def __getattr__(name: str):
    if name in _VERIFY:
        from . import verify
        return getattr(verify, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMAT", "KIND", "LOCK", "MANIFEST", "META_KEY", "PART", "ResultsError", "ArmEntry", "Manifest",
           "PartEntry", "first_difference", "chunk_range", "digest", "part_key", "part_rows", "bounds", "check_chunk",
           "check_folder_parts", "read_checked", "manifest_settings", "parse_manifest", "read_manifest", "settings_hash", "PARQUET", "atomic_open",
           "encode", "part_path", "strings", "write_atomic", "COLUMN_TYPES", "DEALS",
           "DECISIONS",
           "COURSE", "MATCH_DEALS", "MATCH_TABLES", "MATCHES", "MOVES", "SCHEMA_BEGIN", "SCHEMA_END", "SCHEMA_PAGE",
           "SEATS", "TABLES", "Column", "TableSpec", "schema_markdown", "schema_tables", "sides_of", "Unit",
           "update_schema_page"]

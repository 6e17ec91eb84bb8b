"""The results folder: its layout, format version, typed manifest, the schema of every table, the
atomic writer, the check of a part, and the README's schema tables (one source for all of them).

A results folder (default ``results/<scenario name>/``) holds::

    manifest.json                   the run: scenario, resolved rules of every arm, seeds, chunking,
                                    versions, the tables written, the chunks done (:class:`Manifest`)
    deals/part-00000.parquet        one row per arm, deal and rotation, with per-seat columns
    seats/part-00000.parquet        with --seats: one row per arm, deal, rotation and seat (detail)
    moves/part-00000.parquet        with --moves: one row per placement

A run whose rules play matches (RULES.md 12, target > 0) is in *match mode* (manifest ``unit =
"match"``): a chunk is a range of match ids, and the folder also holds::

    matches/part-00000.parquet      one row per arm, match and rotation

Every part of a table has the same schema, so ``polars.scan_parquet("DIR/deals/*.parquet")``,
``pyarrow.dataset.dataset("DIR/deals")`` or DuckDB's ``read_parquet`` read it as it is. Per-seat
columns are written ``points_0 .. points_{players-1}`` (seat 0 first), per-side columns (match mode)
``before_0 .. before_{sides-1}``. In match mode every table's ``deal`` key is replaced by ``match``
and ``hand`` (the deal's 0-based number in its match); the deals table's rows of one match are
contiguous, in play order. Each part's Parquet footer holds
the run's settings hash, its chunk number and its row count; pages carry CRC checksums.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator, Literal, Optional

import pyarrow as pa
from pydantic import BaseModel, ConfigDict, Field, ValidationError

KIND = "simdom-results"
#: Results format version. 1: one row per seat (simdom <= 0.1); 2: one row per arm, deal and rotation.
FORMAT = 2
MANIFEST = "manifest.json"
LOCK = ".simdom.lock"
PART = "part-{:05d}.parquet"
META_KEY = "simdom"


class ResultsError(ValueError):
    """A results folder that cannot be read or written as it is: says what is wrong and what to do."""


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
TABLES: dict[str, TableSpec] = {t.name: t for t in (DEALS, SEATS, MOVES)}
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


def tables_of(unit: str) -> dict[str, TableSpec]:
    """The tables of a run whose unit is ``deal`` or ``match``."""
    return MATCH_TABLES if unit == "match" else TABLES


def sides_of(rules: dict[str, Any], players: int) -> int:
    """The sides of a match under these rules (RULES.md 12): 2 with partners, else one per seat."""
    return 2 if rules.get("teams") == "partners" else players


def schema_markdown(table: TableSpec, columns: tuple[Column, ...] | None = None, head: str | None = None) -> str:
    """The README's table of one results table's columns (``_s`` marks per-seat columns, ``_j``
    per-side ones); ``columns``: only these."""
    lines = [head or f"**{table.name}/part-NNNNN.parquet**: {table.rows} ({table.option})", "",
             "| column | type | null | meaning |", "| --- | --- | --- | --- |"]
    for c in columns or table.columns:
        name = f"{c.name}_s" if c.per_seat else f"{c.name}_j" if c.per_side else c.name
        lines.append(f"| `{name}` | {c.type} | {'yes' if c.nullable or c.per_side else ''} | {c.doc} |")
    return "\n".join(lines)


def readme_schema() -> str:
    """Every table's schema as the README shows it (tests/test_results.py keeps them equal)."""
    new = tuple(c for c in MATCH_DEALS.columns if c not in DEALS.columns)
    return "\n\n".join([schema_markdown(t) for t in TABLES.values()] + [
        "**Match mode** (rules with `target > 0`, manifest `unit = \"match\"`): `deals` counts matches, a "
        "chunk is a range of match ids, and the key `deal` of every table is replaced by `match` and `hand`. "
        "Side j is seat j, or with partners the seats j and j + 2 (RULES.md 12).",
        schema_markdown(MATCHES),
        schema_markdown(MATCH_DEALS, new, f"**deals/part-NNNNN.parquet** in match mode: {MATCH_DEALS.rows}: the "
                                          "first table's columns, `deal` replaced by these"),
    ])


README_BEGIN, README_END = "<!-- schema:begin -->", "<!-- schema:end -->"


def update_readme(path: Path) -> bool:
    """Write :func:`readme_schema` between the README's schema markers; True if the file changed."""
    text = Path(path).read_text()
    head, _, rest = text.partition(README_BEGIN)
    _, _, tail = rest.partition(README_END)
    new = f"{head}{README_BEGIN}\n{readme_schema()}\n{README_END}{tail}"
    if new != text:
        Path(path).write_text(new)
    return new != text


# ---- the manifest -------------------------------------------------------------------------------------
class ArmEntry(BaseModel):
    """One arm of the run: its resolved rules (RULES.md section 11 form) and one policy per player."""
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1)
    rules: dict[str, Any]
    preset: Optional[str] = None
    policies: list[str] = Field(min_length=2, max_length=4)


class Manifest(BaseModel):
    """manifest.json, validated on read: a folder of another kind or format version is refused."""
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["simdom-results"]
    format: int
    simdom_version: str
    sim_version: int = Field(ge=1)
    scenario_name: str
    scenario: dict[str, Any]
    description: str = ""
    settings_hash: str
    seed: int = Field(ge=0)
    root_key: str
    deals: int = Field(ge=1)
    chunk_size: int = Field(ge=1)
    n_chunks: int = Field(ge=1)
    rotations: int = Field(ge=1, le=4)
    players: int = Field(ge=2, le=4)
    unit: Literal["deal", "match"] = "deal"   #: match: the rules play matches; ``deals`` counts matches
    tables: list[Literal["deals", "seats", "moves", "matches"]]
    arms: list[ArmEntry] = Field(min_length=1)
    chunks_done: list[int]
    created: str
    finished: Optional[str] = None
    complete: bool
    last_session: Optional[dict[str, Any]] = None

    def to_json(self) -> bytes:
        return (json.dumps(self.model_dump(), indent=1) + "\n").encode()

    @property
    def sides(self) -> int:
        """Per-side columns of a match-mode run: the most sides of any arm (0: single deals)."""
        return max(sides_of(a.rules, self.players) for a in self.arms) if self.unit == "match" else 0

    def names(self, table: str) -> list[str]:
        """The columns of the run's ``table``."""
        return tables_of(self.unit)[table].names(self.players, self.sides)


def settings_hash(settings: dict[str, Any]) -> str:
    """The hash of everything that decides a run's rows (simdom.run.scenario.Scenario.settings); every part
    and the manifest carry it."""
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def manifest_settings(m: Manifest) -> dict[str, Any]:
    """The settings a manifest records (Scenario.settings of the run that wrote it)."""
    return {"name": m.scenario_name, "players": m.players, "rotations": m.rotations,
            "arms": [a.model_dump() for a in m.arms], "deals": m.deals, "seed": m.seed, "chunk_size": m.chunk_size,
            "tables": list(m.tables), "sim_version": m.sim_version, "format": m.format}


def _pydantic_problem(e) -> str:
    err = e.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    return f"{where}: {err['msg']}"


def parse_manifest(data: Any, where: str) -> Manifest:
    """A validated :class:`Manifest` from parsed JSON; ResultsError naming the first problem."""
    if not isinstance(data, dict) or data.get("kind") != KIND:
        kind = data.get("kind") if isinstance(data, dict) else type(data).__name__
        raise ResultsError(f"{where}: not a simdom results folder (manifest kind {kind!r}, expected {KIND!r})")
    if data.get("format") != FORMAT:
        raise ResultsError(f"{where}: results format {data.get('format')!r}, but this simdom reads format {FORMAT}; "
                           "run the scenario again with this simdom (simdom run SCENARIO --overwrite)")
    try:
        m = Manifest.model_validate(data)
    except ValidationError as e:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: {_pydantic_problem(e)}") from None
    if m.n_chunks != -(-m.deals // m.chunk_size) or len(set(m.chunks_done)) != len(m.chunks_done) or \
            any(not 0 <= c < m.n_chunks for c in m.chunks_done) or "deals" not in m.tables:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: deals, chunk_size, n_chunks, chunks_done or tables "
                           "do not agree")
    if m.complete and len(m.chunks_done) != m.n_chunks:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: complete, but {len(m.chunks_done)} of {m.n_chunks} "
                           "chunks done")
    if any(len(a.policies) != m.players for a in m.arms) or len({a.name for a in m.arms}) != len(m.arms):
        raise ResultsError(f"{where}: {MANIFEST} is damaged: arms do not match players = {m.players}")
    matches = [int(a.rules.get("target", 0)) > 0 for a in m.arms]
    if any(matches) != (m.unit == "match") or (m.unit == "match") != ("matches" in m.tables) or \
            (any(matches) and not all(matches)):
        raise ResultsError(f"{where}: {MANIFEST} is damaged: unit = {m.unit!r}, but the tables {m.tables} or the "
                           "arms' targets say otherwise (allowed: unit = 'match' with a matches table and every "
                           "arm's target > 0, or unit = 'deal')")
    if settings_hash(manifest_settings(m)) != m.settings_hash:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: its settings (players, arms with their rules and "
                           "policies, deals, seed, chunking, tables, versions) are not those its settings_hash "
                           "records, so they are not the settings its parts were played with; run the scenario "
                           "again (simdom run SCENARIO --overwrite)")
    return m


def read_manifest(folder: Path) -> Manifest:
    """The folder's manifest, validated; ResultsError when missing, unreadable or not simdom's."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise ResultsError(f"{folder}: no {MANIFEST}; not a simdom results folder (write one with `simdom run`)")
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ResultsError(f"{folder}: {MANIFEST} is not valid JSON ({e}); the folder is damaged") from None
    except OSError as e:
        raise ResultsError(f"{folder}: cannot read {MANIFEST} ({e.strerror})") from None
    return parse_manifest(data, str(folder))


# ---- files --------------------------------------------------------------------------------------------
def part_path(folder: Path, table: str, chunk: int) -> Path:
    return Path(folder) / table / PART.format(chunk)


@contextlib.contextmanager
def atomic_open(path: Path, mode: str = "wb", **kw) -> Iterator[IO]:
    """Open a temporary file beside ``path`` for writing; when the block ends without error, fsync it
    and rename it to ``path``: a file under its final name is always whole. On any error (disk full,
    Ctrl-C) the temporary file is removed and ``path`` is left as it was."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, mode, **kw) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_open`)."""
    with atomic_open(path) as fh:
        fh.write(data)


def inspect_part(path: Path, settings_hash: str, chunk: int, rows: int | None,
                 names: list[str]) -> tuple["pa.Table | None", str | None]:
    """(the part's rows, None) if the part is whole and belongs to this run, else (None, what is wrong
    with it): its footer, its metadata (settings hash, chunk number, row count), its columns, and every
    page's checksum (the whole part is read)."""
    import pyarrow.parquet as pq
    if not path.is_file():
        return None, "missing"
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        meta = json.loads((pf.schema_arrow.metadata or {}).get(META_KEY.encode(), b"{}"))
        if meta.get("settings_hash") != settings_hash or meta.get("chunk") != chunk:
            return None, "written by another run or for another chunk"
        n = pf.metadata.num_rows
        if n != meta.get("rows") or (rows is not None and n != rows):
            return None, f"{n} rows, expected {rows if rows is not None else meta.get('rows')}"
        if pf.schema_arrow.names != names:
            return None, "its columns differ from the schema"
        wrong = next((f for f in pf.schema_arrow if f.type != COLUMN_TYPES.get(f.name, f.type)), None)
        if wrong is not None:
            return None, f"not of the schema (column {wrong.name} is {wrong.type}, expected {COLUMN_TYPES[wrong.name]})"
        table = pf.read(use_threads=False)  # every page: checks the CRCs (no thread pool: forks may follow)
    except Exception as e:  # a truncated or corrupted file: anything pyarrow refuses
        return None, f"unreadable ({type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''})"
    return (table, None) if table.num_rows == n else (None, "rows unreadable")


def read_part(path: Path, settings_hash: str, chunk: int, rows: int | None, names: list[str]) -> "pa.Table | None":
    """The part's rows if it is whole and belongs to this run, else None (see :func:`inspect_part`)."""
    return inspect_part(path, settings_hash, chunk, rows, names)[0]


# ---- writing a part -----------------------------------------------------------------------------------
#: Parquet options of every part: zstd, page checksums (every reader verifies them), no statistics.
#: Integer columns are written BYTE_STREAM_SPLIT (half the time of dictionary encoding, within 3% of its
#: size once compressed: measured on threes chunks), deal numbers DELTA_BINARY_PACKED, strings as
#: dictionaries.
PARQUET = dict(compression="zstd", compression_level=1, write_statistics=False, write_page_checksum=True)


def strings(codes, vocab: list[str]) -> pa.Array:
    """A string column given as codes into ``vocab``: a dictionary array, written as it is (readers get
    plain strings)."""
    import numpy as np
    return pa.DictionaryArray.from_arrays(pa.array(np.asarray(codes).astype(np.int32, copy=False)),
                                          pa.array(vocab, pa.string()))


def encode(spec: TableSpec, players: int, columns: dict[str, Any], settings_hash: str, chunk: int,
           sides: int = 0) -> bytes:
    """One part of ``spec`` as Parquet bytes. ``columns``: every column of the schema by name, as numpy
    arrays (cast to the column's type; a numpy masked array's mask gives nulls) or Arrow arrays
    (:func:`strings` for string columns)."""
    import numpy as np
    import pyarrow.parquet as pq
    fields, arrays = [], []
    for f in spec.schema(players, sides):
        v = columns[f.name]
        if not isinstance(v, pa.Array):
            mask = np.ma.getmaskarray(v) if np.ma.isMaskedArray(v) else None
            data = np.ma.getdata(v).astype(np.bool_ if f.type == pa.bool_() else f.type.to_pandas_dtype(), copy=False)
            v = pa.array(data, f.type, mask=mask if mask is not None and mask.any() else None)
        fields.append(f.with_type(v.type))
        arrays.append(v)
    table = pa.Table.from_arrays(arrays, schema=pa.schema(fields))
    sink = pa.BufferOutputStream()
    # no stored Arrow schema: readers take the types from the Parquet schema (string, int8, bool, ...), so
    # dictionary-typed string columns read back as the declared strings
    encodings = {f.name: "DELTA_BINARY_PACKED" if f.name in ("deal", "match") else "BYTE_STREAM_SPLIT"
                 for f in table.schema if pa.types.is_integer(f.type)}
    strings_ = [f.name for f in table.schema if pa.types.is_dictionary(f.type)]
    with pq.ParquetWriter(sink, table.schema, store_schema=False, use_dictionary=strings_,
                          column_encoding=encodings, **PARQUET) as w:
        w.write_table(table, row_group_size=max(table.num_rows, 1))
        w.add_key_value_metadata({META_KEY: json.dumps({"settings_hash": settings_hash, "chunk": chunk,
                                                        "rows": table.num_rows})})
    return sink.getvalue().to_pybytes()


if __name__ == "__main__":  # python -m simdom.results [--readme README.md]
    import sys
    if sys.argv[1:2] == ["--readme"]:
        print("updated" if update_readme(Path(sys.argv[2] if len(sys.argv) > 2 else "README.md")) else "up to date")
    else:
        print(readme_schema())

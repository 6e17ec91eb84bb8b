"""manifest.json: the typed manifest of a results folder, validated on read, and the settings hash."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..safeio import InputError, check_depth, not_a_file, unique_keys
from .folder import FORMAT, KIND, MANIFEST, PART, ResultsError
from .seating import cyclic
from .tables import sides_of
from .unit import Unit


# ---- the manifest -------------------------------------------------------------------------------------
class ArmEntry(BaseModel):
    """One arm of the run: its resolved rules (docs/rules.md section 11 form) and one policy per player."""
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1)
    rules: dict[str, Any]
    preset: Optional[str] = None
    policies: list[Annotated[str, Field(min_length=1)]] = Field(min_length=2, max_length=4)


class PartEntry(BaseModel):
    """One part as simdom wrote it: the hash of its bytes, its size, its rows and the chunk's deal (match)
    numbers ``deal_range = [first, last + 1]``; every reader checks the part against it."""
    model_config = ConfigDict(extra="forbid", strict=True)
    blake2b: str = Field(pattern=r"^[0-9a-f]{32}$")
    size: int = Field(ge=0)
    rows: int = Field(ge=0)
    deal_range: list[int] = Field(min_length=2, max_length=2)


def digest(data: bytes) -> str:
    """The content hash a :class:`PartEntry` records (BLAKE2b, 16 bytes, hex)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def part_key(table: str, chunk: int) -> str:
    """A part's key in the manifest's ``parts``: its path in the folder (``deals/part-00000.parquet``)."""
    return f"{table}/{PART.format(chunk)}"


def chunk_range(deals: int, chunk_size: int, c: int) -> tuple[int, int]:
    """The deal (match) numbers of chunk ``c``: ``[first, last + 1)``."""
    return c * chunk_size, min(deals, (c + 1) * chunk_size)


def part_rows(table: str, *, unit: Unit, plays: int, players: int, hands: int | None = None) -> int | None:
    """The rows of one chunk's part of ``table`` (the one home of row counts): ``plays`` = the chunk's deals
    (matches) x arms x rotations; ``hands``: in match mode, the deals its matches played (the sum of its
    matches part's ``deals``). None: as many as the play makes (moves, decisions; match mode without
    ``hands``)."""
    if unit.is_match:
        return {"matches": plays, "deals": hands, "seats": None if hands is None else hands * players}.get(table)
    return {"deals": plays, "course": plays, "seats": plays * players}.get(table)


class Manifest(BaseModel):
    """manifest.json, validated on read: a folder of another kind or format version is refused."""
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["simdom-results"]
    format: int
    #: simdom's own texts are never empty (a field empty or of another type: the folder is damaged)
    simdom_version: str = Field(min_length=1)
    sim_version: int = Field(ge=1)
    scenario_name: str = Field(min_length=1)
    scenario: dict[str, Any]
    description: str = ""
    settings_hash: str  #: checked against the settings on every read (an empty one matches none)
    seed: int = Field(ge=0)
    root_key: str = Field(min_length=1)
    deals: int = Field(ge=1)
    chunk_size: int = Field(ge=1)
    n_chunks: int = Field(ge=1)
    rotations: int = Field(ge=1, le=24)
    #: ``rotation = "all"``: the player at each seat in each rotation (simdom.results.seating); left out
    #: (null) for the cyclic rotations of ``rotation = true`` / ``false``, seat s then player (s + r) % players
    seating: Optional[list[list[int]]] = None
    players: int = Field(ge=2, le=4)
    unit: Unit = Field(default=Unit.DEAL, strict=False)  #: match: the rules play matches; ``deals`` counts matches
    tables: list[Literal["deals", "seats", "moves", "decisions", "matches", "course"]]
    decision_rollouts: Optional[int] = Field(default=None, ge=0)  #: with a decisions table: rollouts per decision
    #: with decision rollouts: their continuation when not greedy (``simdom run --then``); null: greedy
    decision_then: Optional[str] = Field(default=None, min_length=1)
    arms: list[ArmEntry] = Field(min_length=1)
    chunks_done: list[int]
    #: every part of a done chunk, by its path in the folder (:func:`part_key`), as simdom wrote it
    parts: dict[str, PartEntry] = Field(default_factory=dict)
    created: str = Field(min_length=1)
    finished: Optional[str] = Field(default=None, min_length=1)
    complete: bool
    last_session: Optional[dict[str, Any]] = None

    @model_validator(mode="after")
    def _seating_fits(self) -> "Manifest":
        if self.seating is not None and (len(self.seating) != self.rotations or any(
                sorted(row) != list(range(self.players)) for row in self.seating)):
            raise ValueError(f"seating is not {self.rotations} permutations of the {self.players} players")
        if self.seating is None and self.rotations not in (1, self.players):
            raise ValueError(f"rotations = {self.rotations} without a seating; allowed: 1 or {self.players}")
        return self

    def to_json(self) -> bytes:
        d = self.model_dump()
        if d["seating"] is None:   # rotation true / false: written as before
            del d["seating"]
        return (json.dumps(d, indent=1) + "\n").encode()

    def seat_players(self) -> list[list[int]]:
        """``[rotation][seat]``: the player at each seat in each rotation."""
        return self.seating if self.seating is not None else cyclic(self.players, self.rotations)

    @property
    def sides(self) -> int:
        """Per-side columns of a match-mode run: the most sides of any arm (0: single deals)."""
        return max(sides_of(a.rules, self.players) for a in self.arms) if self.unit.is_match else 0

    def names(self, table: str) -> list[str]:
        """The columns of the run's ``table``."""
        return self.unit.tables[table].names(self.players, self.sides)

    def chunk_range(self, c: int) -> tuple[int, int]:
        return chunk_range(self.deals, self.chunk_size, c)

    def rows(self, table: str, c: int, hands: int | None = None) -> int | None:
        """Rows of chunk ``c``'s part of ``table`` (:func:`part_rows`)."""
        lo, hi = self.chunk_range(c)
        return part_rows(table, unit=self.unit, plays=(hi - lo) * len(self.arms) * self.rotations,
                         players=self.players, hands=hands)

    def record(self, table: str, c: int, data: bytes) -> None:
        """Record the part of ``table`` for chunk ``c`` that simdom writes (its Parquet bytes ``data``)."""
        import pyarrow as pa
        import pyarrow.parquet as pq
        rows = pq.ParquetFile(pa.BufferReader(data)).metadata.num_rows
        self.parts[part_key(table, c)] = PartEntry(blake2b=digest(data), size=len(data), rows=rows,
                                                   deal_range=list(self.chunk_range(c)))

    def keep_parts(self, chunks) -> None:
        """Forget the records of every part but those of ``chunks``."""
        keys = {part_key(t, c) for t in self.tables for c in chunks}
        self.parts = {k: v for k, v in self.parts.items() if k in keys}


def settings_hash(settings: dict[str, Any]) -> str:
    """The hash of everything that decides a run's rows (simdom.run.scenario.Scenario.settings); every part
    and the manifest carry it."""
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def manifest_settings(m: Manifest) -> dict[str, Any]:
    """The settings a manifest records (Scenario.settings of the run that wrote it)."""
    return {"name": m.scenario_name, "players": m.players, "rotations": m.rotations,
            "arms": [a.model_dump() for a in m.arms], "seed": m.seed, "chunk_size": m.chunk_size,
            "tables": list(m.tables), "sim_version": m.sim_version, "format": m.format,
            **({"decision_rollouts": m.decision_rollouts} if "decisions" in m.tables else {}),
            **({"decision_then": m.decision_then} if m.decision_then is not None else {}),
            **({"seating": m.seating} if m.seating is not None else {})}


def first_difference(old: Any, new: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """(where, old value, new value) of the first setting that differs between two settings dicts
    (:func:`manifest_settings`), in their order, lists item by item (``arms[0].policies[1]``); None if equal."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            if key not in old or key not in new:
                return f"{path}.{key}" if path else str(key), old.get(key, "(none)"), new.get(key, "(none)")
            found = first_difference(old[key], new[key], f"{path}.{key}" if path else str(key))
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if old == new else (path, old, new)


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
        found = f"results format {data['format']!r}" if "format" in data else f"{MANIFEST} names no results format"
        raise ResultsError(f"{where}: {found}, but this simdom reads format {FORMAT}; "
                           "run the scenario again with this simdom (simdom run SCENARIO --overwrite)")
    try:
        m = Manifest.model_validate(data)
    except ValidationError as e:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: {_pydantic_problem(e)}") from None
    if m.n_chunks != -(-m.deals // m.chunk_size) or len(set(m.chunks_done)) != len(m.chunks_done) or \
            any(not 0 <= c < m.n_chunks for c in m.chunks_done) or "deals" not in m.tables:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: deals, chunk_size, n_chunks, chunks_done or tables "
                           "do not agree")
    if ("decisions" in m.tables) != (m.decision_rollouts is not None):
        raise ResultsError(f"{where}: {MANIFEST} is damaged: decision_rollouts = {m.decision_rollouts!r} but the tables "
                           f"are {m.tables} (allowed: an integer >= 0 with a decisions table, else null)")
    if m.decision_then is not None and not m.decision_rollouts:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: decision_then = {m.decision_then!r} but decision_rollouts "
                           f"= {m.decision_rollouts!r} (allowed: a continuation only with rollouts)")
    if m.complete and len(m.chunks_done) != m.n_chunks:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: complete, but {len(m.chunks_done)} of {m.n_chunks} "
                           "chunks done")
    if any(len(a.policies) != m.players for a in m.arms) or len({a.name for a in m.arms}) != len(m.arms):
        raise ResultsError(f"{where}: {MANIFEST} is damaged: arms do not match players = {m.players}")
    matches = [int(a.rules.get("target", 0)) > 0 for a in m.arms]
    if any(matches) != m.unit.is_match or m.unit.is_match != ("matches" in m.tables) or \
            (any(matches) and not all(matches)):
        raise ResultsError(f"{where}: {MANIFEST} is damaged: unit = {m.unit.value!r}, but the tables {m.tables} or the "
                           "arms' targets say otherwise (allowed: unit = 'match' with a matches table and every "
                           "arm's target > 0, or unit = 'deal')")
    keys = {part_key(t, c): c for t in m.tables for c in range(m.n_chunks)}
    wrong = next((k for k, e in m.parts.items() if k not in keys or e.deal_range != list(m.chunk_range(keys[k]))),
                 None)
    missing = next((part_key(t, c) for c in m.chunks_done for t in m.tables if part_key(t, c) not in m.parts), None)
    if wrong or missing:
        raise ResultsError(f"{where}: {MANIFEST} is damaged: " + (
            f"parts records {wrong}, not a part of this run's chunks and tables (or with another deal range)"
            if wrong else f"{missing} is of a done chunk, but parts has no record of it") +
            "; run the scenario again (simdom run SCENARIO --overwrite)")
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
        what = not_a_file(path)
        if what != "no such file":
            raise ResultsError(f"{folder}: {MANIFEST} is {what}; the folder is damaged")
        # a study over several player counts writes one results folder per count (OUT/2p, OUT/3p, ...)
        subs = sorted(p.name for p in Path(folder).glob("*p") if (p / MANIFEST).is_file()) \
            if Path(folder).is_dir() else []
        if subs:
            raise ResultsError(f"{folder}: a study of several player counts; name one of its results folders: "
                               + ", ".join(f"{folder}/{s}" for s in subs))
        raise ResultsError(f"{folder}: no {MANIFEST}; not a simdom results folder (write one with `simdom run`)")
    try:  # a key given twice is refused, not read as its last value
        data = check_depth(json.loads(path.read_bytes().decode("utf-8"), object_pairs_hook=unique_keys),
                           f"{folder}/{MANIFEST}")
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ResultsError(f"{folder}: {MANIFEST} is not valid JSON ({e}); the folder is damaged") from None
    except (InputError, ValueError, RecursionError) as e:  # nested too deeply, a number too long
        raise ResultsError(f"{folder}: {MANIFEST} cannot be read ({str(e)[:120]}); the folder is damaged") from None
    except OSError as e:
        raise ResultsError(f"{folder}: cannot read {MANIFEST} ({e.strerror})") from None
    return parse_manifest(data, str(folder))

"""Open and validate a results folder (manifest + Parquet parts) as lazy polars frames."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq

from simdom.results import DEAL_SCHEMA, DEALS_DIR, MANIFEST, MOVE_SCHEMA, MOVES_DIR
from simdom.stats.moments import block_size

KIND = "simdom-results"
FORMATS = (1,)


class ResultsError(ValueError):
    """A results folder that cannot be read; the message says what is wrong and what to do."""


@dataclass(frozen=True)
class Results:
    path: Path
    manifest: dict[str, Any]
    deals: pl.LazyFrame
    moves: pl.LazyFrame | None

    @property
    def name(self) -> str:
        return str(self.manifest.get("scenario_name") or self.path.name)

    @property
    def players(self) -> int:
        return int(self.manifest["players"])

    @property
    def rotations(self) -> int:
        """Times each deal is played (``rotations`` may be a count or a flag in the manifest)."""
        r = self.manifest.get("rotations", 1)
        return (self.players if r else 1) if isinstance(r, bool) else int(r or 1)

    @property
    def n_deals(self) -> int:
        return int(self.manifest["deals"])

    @property
    def block(self) -> int:
        """Deals per cluster (see simdom.stats.moments)."""
        return block_size(self.n_deals)

    @property
    def arms(self) -> list[dict[str, Any]]:
        return list(self.manifest["arms"])

    def arm(self, name: str) -> dict[str, Any]:
        return next(a for a in self.arms if a["name"] == name)

    def bonus_tiers(self) -> list[int]:
        """Distinct first-double bonus values over all arms' rules, ascending (empty: no bonus)."""
        tiers = {int(p) for a in self.arms for _, p in (a.get("rules") or {}).get("first_double_bonus", [])}
        return sorted(t for t in tiers if t > 0)

    def presets(self) -> list[str]:
        return sorted({str(a.get("preset")) for a in self.arms})

    @property
    def arm_names(self) -> list[str]:
        """Arm names in the scenario's order (the order every table shows them in)."""
        return [a["name"] for a in self.arms]

    @property
    def unit(self) -> str:
        """The independent unit (cluster) of inference: the deal (the match in match mode)."""
        return str(self.manifest.get("unit", "deal"))

    def select(self, arm: str) -> "Results":
        """One arm of these results, named ``NAME:ARM`` (its deals are those of the other arms: paired)."""
        if arm not in self.arm_names:
            raise ResultsError(f"{self.path}: no arm {arm!r}; allowed: {', '.join(self.arm_names)} (write FOLDER:ARM)")
        manifest = {**self.manifest, "arms": [self.arm(arm)], "scenario_name": f"{self.name}:{arm}"}
        only = pl.col("arm") == arm
        return Results(self.path, manifest, self.deals.filter(only),
                       None if self.moves is None else self.moves.filter(only))

    @classmethod
    def in_memory(cls, manifest: dict[str, Any], deals: pl.LazyFrame | pl.DataFrame,
                  moves: pl.LazyFrame | pl.DataFrame | None = None, name: str = "memory") -> "Results":
        """Results over frames built in memory (tests, coverage studies): the same long view as a folder."""
        lazy = [None if f is None else f.lazy() for f in (deals, moves)]
        return cls(Path(f"<{name}>"), manifest, with_turn(lazy[0], int(manifest["players"])), lazy[1])


def with_turn(lf: pl.LazyFrame, players: int) -> pl.LazyFrame:
    """Add ``turn`` = (seat - first_seat) % players (0 = the deal's leader) unless present."""
    if "turn" in lf.collect_schema().names():
        return lf
    return lf.with_columns(turn=((pl.col("seat").cast(pl.Int16) - pl.col("first_seat") + players) % players)
                           .cast(pl.Int8))


def _parts(folder: Path, what: str, expected: list[str], root: Path) -> list[Path]:
    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
    if not files:
        raise ResultsError(f"{root}: no {what} parts in {folder} (empty or half-written results folder); "
                           "run `simdom run` again to finish it")
    for f in files:
        try:
            names = pq.read_schema(f).names
        except Exception as exc:  # truncated or corrupt file
            raise ResultsError(f"{root}: part {f.name} is unreadable ({type(exc).__name__}); the folder is "
                               "half-written or damaged: run `simdom run` again to finish it") from None
        if names != expected:
            missing = [c for c in expected if c not in names]
            extra = [c for c in names if c not in expected]
            raise ResultsError(f"{root}: unknown schema in {what}/{f.name}: missing columns {missing}, "
                               f"unexpected columns {extra}; expected the columns of simdom.schema "
                               f"({', '.join(expected)})")
    return files


def open_results(path: str | Path) -> Results:
    """Validate a results folder and return lazy frames over its deal (and move) rows.

    Raises :class:`ResultsError` for a folder that is missing, empty, half-written (the manifest's
    ``complete`` is not true, or parts are missing) or of an unknown schema.
    """
    root = Path(path)
    if not root.exists():
        raise ResultsError(f"results folder {root} does not exist")
    if not root.is_dir():
        raise ResultsError(f"{root} is not a folder; give a results folder written by `simdom run`")
    mpath = root / MANIFEST
    if not mpath.is_file():
        empty = not any(root.iterdir())
        raise ResultsError(f"{root}: {'empty folder' if empty else 'no ' + MANIFEST}; not a simdom results "
                           "folder (write one with `simdom run SCENARIO`)")
    try:
        manifest = json.loads(mpath.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{root}: {MANIFEST} is not valid JSON ({exc.msg if hasattr(exc, 'msg') else exc}); "
                           "the folder is half-written or damaged: run `simdom run` again") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != KIND:
        kind = manifest.get("kind") if isinstance(manifest, dict) else type(manifest).__name__
        raise ResultsError(f"{root}: unknown schema: manifest kind is {kind!r}, expected {KIND!r}")
    if manifest.get("format") not in FORMATS:
        raise ResultsError(f"{root}: unknown results format {manifest.get('format')!r}; this simdom reads "
                           f"format {', '.join(map(str, FORMATS))}")
    for key in ("players", "deals", "arms"):
        if key not in manifest:
            raise ResultsError(f"{root}: unknown schema: manifest has no {key!r}")
    if manifest.get("complete") is not True:
        done, total = len(manifest.get("chunks_done") or []), manifest.get("n_chunks", "?")
        raise ResultsError(f"{root}: half-written ({done} of {total} chunks done): "
                           "run `simdom run` again to finish")
    deal_files = _parts(root / DEALS_DIR, DEALS_DIR, DEAL_SCHEMA.names, root)
    moves = None
    if manifest.get("moves"):
        move_files = _parts(root / MOVES_DIR, MOVES_DIR, MOVE_SCHEMA.names, root)
        moves = pl.scan_parquet(move_files)
    return Results(root, manifest, with_turn(pl.scan_parquet(deal_files), int(manifest["players"])), moves)


def open_selection(text: str | Path) -> Results:
    """A results folder, or one arm of it written ``FOLDER:ARM`` (Threes and Fives as two arms of one
    run: ``results/threes-vs-fives:threes``). Two arms of one run share their deals, so comparisons
    between them are paired."""
    text = str(text)
    if Path(text).exists() or ":" not in text:
        return open_results(text)
    folder, _, arm = text.rpartition(":")
    return open_results(folder).select(arm)

"""The worker side of `simdom run`: a chunk of deals played for every arm and rotation, returned as
Parquet bytes plus the summary sums. Small and picklable: everything a worker needs is in :class:`Plan`.

A chunk is the deal range ``[c * chunk_size, (c + 1) * chunk_size)`` played for every arm and
rotation; deal i's randomness comes from the root seed and i alone (see simdom.engine.rng).
"""
from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..results import DEAL_SCHEMA, MOVE_SCHEMA

if TYPE_CHECKING:  # the scenario module (pydantic) is not needed by the workers
    from .scenario import Scenario

META_KEY = b"simdom"
#: Parquet options: dictionary + zstd (small files, readers decode them fast), page CRCs for resume.
PARQUET = dict(compression="zstd", compression_level=1, write_statistics=False, write_page_checksum=True)
#: Per summary group (arm, policy): deals, sum and sum of squares of the per-deal mean points, of the
#: win share, and of their paired differences against the arm's baseline: the first arm with the same
#: rules (same deals, same players).
AGG = ("n", "pts", "pts2", "win", "win2", "dpts", "dpts2", "dwin", "dwin2")


# ---- the plan: everything a worker needs, small and picklable ------------------------------------
@dataclass(frozen=True)
class Plan:
    rules: tuple[str, ...]              # per arm: the resolved rules as JSON (Rules.to_dict)
    policies: tuple[tuple[str, ...], ...]  # per arm: one policy text per player
    arm_names: tuple[str, ...]
    players: int
    rotations: int
    seed: int
    deals: int
    chunk_size: int
    moves: bool
    settings_hash: str
    sim_version: int = 0

    @classmethod
    def of(cls, sc: Scenario, moves: bool, settings_hash: str) -> "Plan":
        from ..engine.api import SIM_VERSION
        return cls(tuple(json.dumps(a.rules.to_dict(), sort_keys=True) for a in sc.arms),
                   tuple(a.policies for a in sc.arms), tuple(a.name for a in sc.arms), sc.players,
                   sc.rotations, sc.seed, sc.deals, sc.chunk_size, bool(moves), settings_hash, SIM_VERSION)

    def baseline(self, a: int) -> int:
        """The arm that arm ``a`` is compared with in the summary: the first arm with the same rules
        (a Fives arm is not compared with a Threes arm)."""
        return self.rules.index(self.rules[a])

    def chunk_range(self, c: int) -> tuple[int, int]:
        return c * self.chunk_size, min(self.deals, (c + 1) * self.chunk_size)

    @property
    def n_chunks(self) -> int:
        return -(-self.deals // self.chunk_size)

    def deal_rows(self, c: int) -> int:
        d0, d1 = self.chunk_range(c)
        return (d1 - d0) * len(self.arm_names) * self.rotations * self.players

    def policy_vocab(self) -> list[str]:
        return sorted({p for pols in self.policies for p in pols})

    def groups(self) -> list[tuple[int, str, tuple[int, ...]]]:
        """Summary groups: (arm, policy, the players of that arm playing it), in arm order."""
        out = []
        for a, pols in enumerate(self.policies):
            for pol in dict.fromkeys(pols):
                out.append((a, pol, tuple(p for p, q in enumerate(pols) if q == pol)))
        return out


@dataclass
class ChunkResult:
    chunk: int
    deals: bytes
    moves: bytes | None
    rows: int
    move_rows: int
    agg: np.ndarray                     # float64[len(groups), len(AGG)]
    n_deals: int = 0


# ---- worker side ---------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _rules(text: str):
    from ..rules import from_dict
    d = json.loads(text)
    return from_dict(d)


_WARM: list[bool] = []
PARENT_ENV = "SIMDOM_RUN_PARENT"


def _exit_with_parent(parent: int | None = None) -> None:
    """A local worker whose `simdom run` died (kill -9) exits too instead of lingering."""
    import threading
    import time
    if parent is None:
        env = os.environ.get(PARENT_ENV)
        if env != str(os.getppid()):
            return  # not a local worker of ours (a dask worker, or the run's own process)
        parent = int(env)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="simdom-parent-watch", daemon=True).start()


def _warm() -> None:
    """Load the kernel once per process: the ahead-of-time module when it is built (a millisecond, no
    numba), else the just-in-time one from numba's cache (or, the first time on this machine, compile
    it; a file lock makes concurrent workers wait for one compile instead of each compiling)."""
    if _WARM:
        return
    _exit_with_parent()
    from ..engine.api import SIM_VERSION, load_kernel
    from ..rules import preset
    load_kernel()
    _WARM.append(True)
    # one deal through the whole chunk path: pyarrow's and numpy's one-time set-up (lazy imports, the
    # Parquet writer, the codecs) is done here, once, and local workers inherit it when forked
    rules = json.dumps(preset("threes", 4).to_dict(), sort_keys=True)
    play_chunk(Plan((rules,), (("greedy",) * 4,), ("warm",), 4, 1, 0, 1, 1, True, "warm", SIM_VERSION), 0)


def _strings(codes: np.ndarray, vocab: list[str]) -> pa.Array:
    """A string column as a dictionary array: written to Parquet as it is (no casting, no hashing of every
    value); read back as plain strings (the files store no Arrow schema, see ``_parquet``)."""
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32, copy=False)), pa.array(vocab, pa.string()))


@lru_cache(maxsize=4)
def _written(schema: pa.Schema) -> pa.Schema:
    """The schema as written: string columns dictionary-encoded (same Parquet schema, same nullability)."""
    return pa.schema([f.with_type(pa.dictionary(pa.int32(), pa.string())) if f.type == pa.string() else f
                      for f in schema])


def _int(values: np.ndarray, typ: pa.DataType) -> pa.Array:
    return pa.array(values.astype(typ.to_pandas_dtype(), copy=False), typ)


def _parquet(table: pa.Table, plan: Plan, chunk: int, options: dict[str, Any]) -> bytes:
    meta = json.dumps({"settings_hash": plan.settings_hash, "chunk": chunk, "rows": table.num_rows})
    sink = pa.BufferOutputStream()
    if hasattr(pq.ParquetWriter, "add_key_value_metadata"):
        # no stored Arrow schema: readers take the types from the Parquet schema (string, int8, bool, ...),
        # so the dictionary-typed string columns read back as the declared strings
        with pq.ParquetWriter(sink, table.schema, store_schema=False, **PARQUET, **options) as w:
            w.write_table(table, row_group_size=max(table.num_rows, 1))
            w.add_key_value_metadata({META_KEY.decode(): meta})
    else:  # pragma: no cover - an older pyarrow: plain string columns, the Arrow schema stored
        table = table.cast(pa.schema([f.with_type(pa.string()) if pa.types.is_dictionary(f.type) else f
                                      for f in table.schema]))
        pq.write_table(table.replace_schema_metadata({META_KEY: meta.encode()}), sink, **PARQUET, **options)
    return sink.getvalue().to_pybytes()


#: Per deals column: Parquet dictionary encoding (string columns, few distinct values that compress
#: well so), DELTA_BINARY_PACKED (deal numbers and counts) or plain; all zstd-compressed. Chosen per
#: column for encode time and bytes (measured on threes and fives chunks).
DEAL_DICT = ("arm", "policy", "end", "win", "points", "play_points", "bonus", "pips_left")
DEAL_DELTA = ("deal", "scoring_plays", "plays", "draws", "doubles_dealt")
DEAL_PARQUET = dict(use_dictionary=list(DEAL_DICT), column_encoding={c: "DELTA_BINARY_PACKED" for c in DEAL_DELTA})
MOVE_PARQUET: dict[str, Any] = dict(use_dictionary=True)


def aggregate(plan: Plan, points: np.ndarray, win: np.ndarray) -> np.ndarray:
    """Summary sums of a chunk from its points and win shares shaped [arm, deal, rotation, seat]."""
    # by player: seat s plays player (s + r) % P in rotation r, so rolling seat s to (s + r) % P
    if points.shape[2] == 1:  # one rotation: seat s is player s
        Xp, Xw = points[:, :, 0, :].astype(np.float64), win[:, :, 0, :]
    else:
        Xp = np.stack([np.roll(points[:, :, r, :], r, axis=-1) for r in range(points.shape[2])]).mean(axis=0)
        Xw = np.stack([np.roll(win[:, :, r, :], r, axis=-1) for r in range(win.shape[2])]).mean(axis=0)
    out = np.zeros((len(plan.groups()), len(AGG)))
    for g, (a, _, players) in enumerate(plan.groups()):
        idx = list(players)
        y, w = Xp[a][:, idx].mean(axis=1), Xw[a][:, idx].mean(axis=1)
        b = plan.baseline(a)
        dy, dw = y - Xp[b][:, idx].mean(axis=1), w - Xw[b][:, idx].mean(axis=1)
        out[g] = (len(y), y.sum(), (y * y).sum(), w.sum(), (w * w).sum(), dy.sum(), (dy * dy).sum(),
                  dw.sum(), (dw * dw).sum())
    return out


def _win(points: np.ndarray) -> np.ndarray:
    top = points == points.max(axis=-1, keepdims=True)
    return top / top.sum(axis=-1, keepdims=True)


_BLOCKS: dict[str, np.ndarray] = {}


def _block(name: str, shape: tuple[int, ...]) -> np.ndarray:
    """The kernel's output block for a chunk, kept by the worker from chunk to chunk: a fresh 10+ MB
    array per chunk would cost thousands of page faults each time. Every cell is overwritten."""
    size = int(np.prod(shape))
    buf = _BLOCKS.get(name)
    if buf is None or buf.size < size:
        buf = _BLOCKS[name] = np.empty(size, np.int32)
    return buf[:size].reshape(shape)


def play_chunk(plan: Plan, chunk: int) -> ChunkResult:
    """Play chunk ``chunk`` for every arm and rotation; return its Parquet parts and summary sums."""
    from ..engine.api import SIM_VERSION, output_blocks, simulate
    from ..engine.codes import DealEnd, End, Records
    from ..tiles import tile_name
    if SIM_VERSION != plan.sim_version:  # a cluster worker with another simdom installed
        raise RuntimeError(f"this worker's simdom has behaviour version {SIM_VERSION}, the run needs "
                           f"{plan.sim_version}: install the same simdom on every worker")
    _warm()
    d0, d1 = plan.chunk_range(chunk)
    n, A, R, P = d1 - d0, len(plan.arm_names), plan.rotations, plan.players
    vocab = plan.policy_vocab()
    pcode = np.array([[vocab.index(p) for p in pols] for pols in plan.policies], np.int32)
    shapes = [b.shape[1:] for b in output_blocks(0, P)]
    seat = _block("seat", (A, R, n, *shapes[0]))
    deal = _block("deal", (A, R, n, *shapes[1]))
    batches = [[None] * R for _ in range(A)]
    moves: list[tuple[int, int, dict]] = []
    for a in range(A):
        rules = _rules(plan.rules[a])
        for r in range(R):
            pols = [plan.policies[a][(s + r) % P] for s in range(P)]
            b = simulate(rules, pols, plan.seed, d0, n, records=Records.PLAYS if plan.moves else Records.NONE,
                         out=(seat[a, r], deal[a, r]))
            batches[a][r] = b
            if plan.moves:
                moves.append((a, r, b.records))
    # rows in the order arm, deal, rotation, seat: each column is gathered from the batches' named views
    # in one pass (with its conversion to the column's type)
    rows = A * n * R * P
    shape = (A, n, R, P)

    def seat_col(c: str, dtype) -> np.ndarray:
        out = np.empty(shape, dtype)
        for a in range(A):
            for r in range(R):
                out[a, :, r, :] = batches[a][r].seats[c]
        return out.reshape(-1)

    def deal_col(c: str, dtype) -> np.ndarray:
        out = np.empty(shape, dtype)
        for a in range(A):
            for r in range(R):
                out[a, :, r, :] = batches[a][r].deals[c][:, None]
        return out.reshape(-1)

    points = seat_col("points", np.int32)
    win = _win(points.reshape(-1, P)).reshape(-1)
    # the row pattern of one deal (rotation, seat) and of one arm
    rot1 = np.repeat(np.arange(R, dtype=np.int8), P)
    seat1 = np.tile(np.arange(P, dtype=np.int8), R)
    player1 = ((seat1 + rot1) % P).astype(np.int8)
    cols: dict[str, pa.Array] = {
        "arm": _strings(np.repeat(np.arange(A, dtype=np.int32), n * R * P), list(plan.arm_names)),
        "deal": pa.array(np.tile(np.repeat(np.arange(d0, d1, dtype=np.int64), R * P), A)),
        "rotation": pa.array(np.tile(rot1, A * n)), "seat": pa.array(np.tile(seat1, A * n)),
        "player": pa.array(np.tile(player1, A * n)),
        "policy": _strings(np.repeat(pcode[:, player1], n, axis=0).reshape(-1), vocab),
        "win": pa.array(win), "points": pa.array(points),
    }
    for c in batches[0][0].seats:
        typ = DEAL_SCHEMA.field(c).type
        if c != "points":
            cols[c] = pa.array(seat_col(c, np.bool_ if typ == pa.bool_() else typ.to_pandas_dtype()), typ)
    cols["end"] = _strings(deal_col("end", np.int32), list(DealEnd.labels()))
    for c in ("first_seat", "tiles_placed"):
        typ = DEAL_SCHEMA.field(c).type
        cols[c] = pa.array(deal_col(c, typ.to_pandas_dtype()), typ)
    for c in ("first_double", "spinner"):
        mv = deal_col(f"{c}_move", np.int16)
        none = mv <= 0
        cols[f"{c}_move"] = pa.array(mv, pa.int16(), mask=none)
        cols[f"{c}_seat"] = pa.array(deal_col(f"{c}_seat", np.int8), pa.int8(), mask=none)
    table = pa.Table.from_arrays([cols[f.name] for f in DEAL_SCHEMA], schema=_written(DEAL_SCHEMA))
    agg = aggregate(plan, points.reshape(shape), win.reshape(shape))
    deals_bytes = _parquet(table, plan, chunk, DEAL_PARQUET)
    del table, cols, seat, deal, batches
    moves_bytes, move_rows = None, 0
    if plan.moves:
        mt = _moves_table(plan, moves, d0, n, vocab, pcode, tile_name, End.labels())
        move_rows = mt.num_rows
        moves_bytes = _parquet(mt, plan, chunk, MOVE_PARQUET)
    return ChunkResult(chunk, deals_bytes, moves_bytes, rows, move_rows, agg, n)


def _moves_table(plan: Plan, blocks: list, d0: int, n: int, vocab: list[str], pcode: np.ndarray, tile_name,
                 end_names) -> pa.Table:
    """One row per placement, ordered arm, deal, rotation, move (records come per arm and rotation)."""
    max_pips = [json.loads(t)["max_pip"] for t in plan.rules]
    sizes = {m: (m + 1) * (m + 2) // 2 for m in set(max_pips)}
    tiles = sorted({tile_name(t, m) for m in sizes for t in range(sizes[m])},
                   key=lambda s: tuple(map(int, s.split("-"))))
    tcode = {m: np.array([tiles.index(tile_name(t, m)) for t in range(sizes[m])]) for m in sizes}
    A, R, P = len(plan.arm_names), plan.rotations, plan.players
    counts = np.zeros((A, n, R), np.int64)
    for a, r, rec in blocks:
        counts[a, :, r] = np.bincount(rec["deal"], minlength=n)
    starts = np.concatenate([[0], np.cumsum(counts.reshape(-1))[:-1]]).reshape(A, n, R)
    total = int(counts.sum())
    names = ("arm", "deal", "rotation", "move", "seat", "policy", "tile", "end", "ends", "ends_sum", "points",
             "bonus")
    out = {c: np.empty(total, np.int64 if c == "deal" else np.int32) for c in names}
    for a, r, rec in blocks:
        dl = rec["deal"]  # records are in deal order
        first = np.concatenate([[0], np.cumsum(counts[a, :, r])[:-1]])
        move = np.arange(len(dl)) - first[dl] + 1
        dest = starts[a, dl, r] + move - 1
        seat = rec["seat"]
        for c, v in (("arm", a), ("deal", d0 + dl), ("rotation", r), ("move", move), ("seat", seat),
                     ("policy", pcode[a, (seat + r) % P]), ("tile", tcode[max_pips[a]][rec["tile"]]),
                     ("end", rec["end"]), ("ends", rec["ends"]), ("ends_sum", rec["ends_sum"]),
                     ("points", rec["points"]), ("bonus", rec["bonus"])):
            out[c][dest] = v
    vocabs = {"arm": list(plan.arm_names), "policy": vocab, "tile": tiles, "end": list(end_names)}
    cols = [_strings(out[f.name], vocabs[f.name]) if f.name in vocabs else
            pa.array(out[f.name]) if f.name == "deal" else _int(out[f.name], f.type) for f in MOVE_SCHEMA]
    return pa.Table.from_arrays(cols, schema=_written(MOVE_SCHEMA))

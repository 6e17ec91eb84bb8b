"""The worker side of `simdom run`: a chunk of deals played for every arm and rotation, returned as one
Parquet part per table (simdom.results) plus the summary sums (simdom.run.summary); a chunk of
matches in match mode (simdom.run.matchworker).

Everything a worker needs is in the :class:`~simdom.run.plan.Plan`; a worker reads the kernel's output
only through its named columns (``batch.seats["points"]``, ``batch.records["tile"]``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from .. import results as fmt
from ..engine.api import SIM_VERSION, load_kernel, output_blocks, row_columns, win_shares
from ..engine.pybatch import simulate_deals_any
from ..engine.revalue import value_decisions
from ..engine.codes import DECISION_VALUE_COLUMNS, DealEnd, End, Records
from ..tiles import n_tiles, tile_name
from .matchworker import play_match_chunk
from .plan import Plan
from .summary import chunk_sums

PARENT_ENV = "SIMDOM_RUN_PARENT"


@dataclass
class ChunkResult:
    chunk: int
    parts: dict[str, bytes]    #: table name -> the chunk's Parquet part
    sums: np.ndarray           #: float64[groups, len(summary.SUMS)]
    n_deals: int               #: deals (match mode: matches) of the chunk
    played: int = 0            #: deals played, every arm and rotation counted


def exit_with_parent(parent: int | None = None) -> None:
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


_WARM: list[bool] = []


def warm(plan: "Plan | None" = None) -> None:
    """Load the kernel once per process and take one deal through the whole chunk path (the tables of
    ``plan``, the run's, or all), so that pyarrow's and numpy's one-time set-up (lazy imports, the Parquet
    writer, the codecs) is done once; local workers, forked afterwards, inherit it. The kernel is that of
    the plain policies alone when the run's policies are plain and it records no first-double decisions
    (api.load_kernel: the rest of the kernel is not compiled for it)."""
    if _WARM:
        return
    exit_with_parent()
    tables = tuple(fmt.TABLES) if plan is None else plan.tables
    plain = plan is not None and "decisions" not in tables
    load_kernel(tuple(p for pols in plan.policies for p in pols) if plain else ("heavy",))
    _WARM.append(True)
    from ..rules import preset
    play_chunk(Plan(rules=(preset("threes", 4),), policies=(("greedy",) * 4,), arm_names=("warm",), players=4, rotations=1,
                    seed=0, deals=1, chunk_size=1, tables=tables, settings_hash="warm",
                    sim_version=SIM_VERSION), 0)


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
    """Play chunk ``chunk`` for every arm and rotation; return its parts and summary sums."""
    if SIM_VERSION != plan.sim_version:  # a cluster worker with another simdom installed
        raise RuntimeError(f"this worker's simdom has behaviour version {SIM_VERSION}, the run needs "
                           f"{plan.sim_version}: install the same simdom on every worker")
    warm(plan)
    if plan.unit.is_match:
        parts, sums, n_deals = play_match_chunk(plan, chunk)
        return ChunkResult(chunk, parts, sums, plan.chunk_deals(chunk), n_deals)
    d0, d1 = plan.chunk_range(chunk)
    n, A, R, P = d1 - d0, plan.arms, plan.rotations, plan.players
    course = "course" in plan.tables
    empty = output_blocks(0, P, course)
    seat, deal = _block("seat", (*empty[0].shape[:-1], A * n * R)), _block("deal", (*empty[1].shape[:-1], A * n * R))
    moves = "moves" in plan.tables
    decisions = plan.decision_rollouts if "decisions" in plan.tables else None
    in_kernel = decisions if plan.decision_then == "greedy" else (0 if decisions is not None else None)
    # every batch writes its deals straight into the chunk's rows, ordered (arm, deal, rotation)
    batches = [[simulate_deals_any(plan.rules[a], plan.lineup(a, r), plan.seed, d0,
                         n, records=Records.PLAYS if moves else Records.NONE, out=(seat, deal),
                         decisions=in_kernel, row0=a * n * R + r, stride=R, course=course)
                for r in range(R)] for a in range(A)]
    if decisions and in_kernel == 0:
        for a in range(A):
            for r in range(R):
                _value_decisions(plan, a, r, d0, batches[a][r].decisions)
    out = _Columns(*row_columns(seat, deal, course=course), A, n, R, P)
    points = out.seats("points", np.int32)            # [arm, deal, rotation, seat]
    win = win_shares(points)
    parts = {"deals": fmt.encode(fmt.DEALS, P, _deal_columns(plan, out, d0, points), plan.settings_hash, chunk)}
    if course:
        parts["course"] = fmt.encode(fmt.COURSE, P, _course_columns(plan, out, d0, win), plan.settings_hash, chunk)
    if "seats" in plan.tables:
        parts["seats"] = fmt.encode(fmt.SEATS, P, _seat_columns(plan, out, d0), plan.settings_hash, chunk)
    if moves:
        parts["moves"] = fmt.encode(fmt.MOVES, P, _move_columns(plan, batches, d0, n), plan.settings_hash, chunk)
    if decisions is not None:
        parts["decisions"] = fmt.encode(fmt.DECISIONS, P, _decision_columns(plan, batches, d0),
                                        plan.settings_hash, chunk)
    return ChunkResult(chunk, parts, chunk_sums(plan, points, win), n, n * A * R)


class _Columns:
    """The chunk's named columns in row order (arm, deal, rotation[, seat]): views of the output blocks,
    which the batches filled in that order (no copy; a seat's column of all rows is contiguous)."""

    def __init__(self, seats: dict, deals: dict, A: int, n: int, R: int, P: int):
        self._seats, self._deals = seats, deals
        self.shape, self.P = (A, n, R), P

    def deal(self, name: str, dtype=np.int32) -> np.ndarray:
        return self._deals[name].reshape(self.shape).astype(dtype, copy=False)

    def seats(self, name: str, dtype=np.int32) -> np.ndarray:
        return self._seats[name].reshape(*self.shape, self.P).astype(dtype, copy=False)


def _keys(plan: Plan, d0: int, A: int, n: int, R: int, per: int = 1) -> dict:
    """arm, deal and rotation columns of rows ordered (arm, deal, rotation) and ``per`` rows each."""
    return {"arm": fmt.strings(np.repeat(np.arange(A), n * R * per), list(plan.arm_names)),
            "deal": np.tile(np.repeat(np.arange(d0, d0 + n, dtype=np.int64), R * per), A),
            "rotation": np.tile(np.repeat(np.arange(R, dtype=np.int8), per), A * n)}


def _deal_columns(plan: Plan, out: _Columns, d0: int, points: np.ndarray) -> dict:
    A, n, R = out.shape
    cols = _keys(plan, d0, A, n, R)
    fd_move = out.deal("first_double_move").reshape(-1)
    none = fd_move <= 0
    winner = out.deal("winner").reshape(-1)
    cols.update(first_seat=out.deal("first_seat").reshape(-1),
                end=fmt.strings(out.deal("end").reshape(-1), list(DealEnd.labels())),
                winner=np.ma.masked_array(winner, winner < 0),
                end_bonus=out.seats("end_bonus").sum(axis=-1).reshape(-1),
                tiles_placed=out.deal("tiles_placed").reshape(-1),
                first_double_move=np.ma.masked_array(fd_move, none),
                first_double_seat=np.ma.masked_array(out.deal("first_double_seat").reshape(-1), none))
    per_seat = {"points": points, **{c: out.seats(c) for c in ("scoring_plays", "plays", "doubles_dealt",
                                                                "lost_first_double")}}
    for c, v in per_seat.items():
        for s in range(out.P):
            cols[f"{c}_{s}"] = np.ascontiguousarray(v[..., s]).reshape(-1)
    return cols


def _course_columns(plan: Plan, out: _Columns, d0: int, win: np.ndarray) -> dict:
    """The course table (results.COURSE): the kernel's tally of each deal (batch.play_tally) and, of the
    seat with the whole win (win share 1), its largest deficit and the last placement after which it was not
    the leader: the placement before the one from which the final leader has led if the winner is that
    leader, else the last placement."""
    A, n, R = out.shape
    cols = _keys(plan, d0, A, n, R)
    one = win == 1.0                                   # [arm, deal, rotation, seat]
    none = ~one.any(axis=-1).reshape(-1)
    w = one.argmax(axis=-1)[..., None]
    placed = out.deal("tiles_placed")
    decided = np.where(out.deal("leader") == w[..., 0], out.deal("lead_from") - 1, placed)
    cols.update(draws=out.seats("draws").sum(axis=-1).reshape(-1),
                turns=(placed + out.seats("passes").sum(axis=-1)).reshape(-1),
                choice_turns=out.deal("choice_turns").reshape(-1), choices=out.deal("choices").reshape(-1),
                lead_changes=out.deal("lead_changes").reshape(-1),
                winner_deficit=np.ma.masked_array(
                    np.take_along_axis(out.seats("max_deficit"), w, axis=-1).reshape(-1), none),
                decided_at=np.ma.masked_array(decided.reshape(-1), none))
    return cols


def _seat_columns(plan: Plan, out: _Columns, d0: int) -> dict:
    A, n, R = out.shape
    P = out.P
    cols = _keys(plan, d0, A, n, R, per=P)
    cols["seat"] = np.tile(np.arange(P, dtype=np.int8), A * n * R)
    for c in ("bonus", "end_bonus", "draws", "passes", "pips_left", "went_out"):
        cols[c] = out.seats(c).reshape(-1)
    cols["play_points"] = out.seats("play_points").reshape(-1)
    return cols


def _move_columns(plan: Plan, batches, d0: int, n: int) -> dict:
    """One row per placement, ordered arm, deal, rotation, move (records come per arm and rotation)."""
    A, R = len(batches), len(batches[0])
    max_pips = [r.max_pip for r in plan.rules]
    tiles = sorted({tile_name(t, m) for m in set(max_pips) for t in range(n_tiles(m))},
                   key=lambda s: tuple(map(int, s.split("-"))))
    tcode = {m: np.array([tiles.index(tile_name(t, m)) for t in range(n_tiles(m))]) for m in set(max_pips)}
    counts = np.zeros((A, n, R), np.int64)
    for a in range(A):
        for r in range(R):
            counts[a, :, r] = np.bincount(batches[a][r].records["deal"], minlength=n)
    starts = np.concatenate([[0], np.cumsum(counts.reshape(-1))[:-1]]).reshape(A, n, R)
    total = int(counts.sum())
    names = ("arm", "deal", "rotation", "move", "seat", "tile", "end", "ends", "ends_sum", "points", "bonus")
    out = {c: np.empty(total, np.int64 if c == "deal" else np.int32) for c in names}
    for a in range(A):
        for r in range(R):
            rec = batches[a][r].records
            dl = rec["deal"]  # records are in deal order
            first = np.concatenate([[0], np.cumsum(counts[a, :, r])[:-1]])
            move = np.arange(len(dl)) - first[dl] + 1
            dest = starts[a, dl, r] + move - 1
            for c, v in (("arm", a), ("deal", d0 + dl), ("rotation", r), ("move", move), ("seat", rec["seat"]),
                         ("tile", tcode[max_pips[a]][rec["tile"]]), ("end", rec["end"]), ("ends", rec["ends"]),
                         ("ends_sum", rec["ends_sum"]), ("points", rec["points"]), ("bonus", rec["bonus"])):
                out[c][dest] = v
    for c, vocab in (("arm", list(plan.arm_names)), ("tile", tiles), ("end", list(End.labels()))):
        out[c] = fmt.strings(out[c], vocab)
    return out


def _value_decisions(plan: Plan, a: int, r: int, d0: int, dec: dict) -> None:
    """Add the rollout values of arm a, rotation r's decisions under ``plan.decision_then`` (engine/revalue.py:
    the kernel's greedy rollouts in its own worlds, another continuation played from Python)."""
    pols = plan.lineup(a, r)
    vals = np.zeros((len(dec["deal"]), len(DECISION_VALUE_COLUMNS)), dtype=np.float64)
    deals = dec["deal"].astype(np.int64)
    for d in np.unique(deals):
        rows = np.flatnonzero(deals == d)
        vals[rows] = value_decisions(plan.rules[a], pols, plan.seed, d0 + int(d),
                                     [(int(dec["seat"][i]), int(dec["move"][i])) for i in rows],
                                     plan.decision_rollouts, plan.decision_then)
    for k, c in enumerate(DECISION_VALUE_COLUMNS):
        dec[c] = vals[:, k]


def _decision_columns(plan: Plan, batches, d0: int) -> dict:
    """One row per first-double decision, ordered arm, deal, rotation, move (each batch lists its
    decisions in deal and play order; a stable sort interleaves the rotations)."""
    A, R = len(batches), len(batches[0])
    parts = [(a, r, batches[a][r].decisions) for a in range(A) for r in range(R)]
    cat = lambda f: np.concatenate([f(a, r, d) for a, r, d in parts])  # noqa: E731
    arm = cat(lambda a, r, d: np.full(len(d["deal"]), a, np.int32))
    rot = cat(lambda a, r, d: np.full(len(d["deal"]), r, np.int32))
    deal = cat(lambda a, r, d: d["deal"].astype(np.int64) + d0)
    order = np.lexsort((rot, deal, arm))
    out = {"arm": fmt.strings(arm[order], list(plan.arm_names)), "deal": deal[order], "rotation": rot[order]}
    names = [c.name for c in fmt.DECISIONS.columns[3:]]
    for c in names:
        if c in DECISION_VALUE_COLUMNS:
            v = cat(lambda a, r, d: d.get(c, np.zeros(len(d["deal"]))))[order]
            out[c] = np.ma.masked_array(v, np.full(len(v), not plan.decision_rollouts))
        else:
            out[c] = cat(lambda a, r, d: d[c])[order]
    return out

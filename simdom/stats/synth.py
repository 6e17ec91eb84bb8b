"""Synthetic results folders with known answers, for the statistics tests and the benchmark.

The rows follow DEAL_SCHEMA / MOVE_SCHEMA and the manifest follows the runner's contract, but the
numbers come from a simple generative model whose expectations are known in closed form
(:func:`truth`), not from playing dominoes:

* points of player ``p`` in arm ``a`` = ``mean_points[p] + D + E + win_points * [p won or tied]``,
  where ``D`` is a deal effect shared by every arm, rotation and seat of the deal (common random
  numbers: it cancels in paired comparisons) and ``E`` is independent per row;
* the winner is drawn with probabilities ``win_weights`` (one uniform per deal and rotation, shared
  by all arms); with probability ``tie`` a second player, uniform among the others, shares the win;
* each placement scores with probability ``score_rate[p]``.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simdom.results import DEAL_SCHEMA, DEALS_DIR, MANIFEST, MOVE_SCHEMA, MOVES_DIR

THREES_RULES = {
    "max_pip": 6, "hand_size": {"2": 6, "3": 6, "4": 5}, "boneyard_reserve": {"2": 0, "3": 0, "4": 0},
    "draw": "until_playable", "lead": "any", "spinner": "first_double", "arms_open": "immediately",
    "double_counts": "face", "divisors": [3], "min_ends": 3, "points": "fixed:6",
    "first_double_bonus": [[4, 2], [8, 4], [None, 8]], "out_bonus": "none", "block_bonus": "none",
    "bonus_round_to": 1, "bonus_divisor": 1,
}
FIVES_RULES = {
    "max_pip": 6, "hand_size": {"2": 7, "3": 7, "4": 7}, "boneyard_reserve": {"2": 0, "3": 0, "4": 0},
    "draw": "until_playable", "lead": "tile:5-5", "spinner": "first_double", "arms_open": "after_both_sides",
    "double_counts": "both", "divisors": [5], "min_ends": 1, "points": "sum", "first_double_bonus": [],
    "out_bonus": "opponents_pips", "block_bonus": "opponents_minus_own", "bonus_round_to": 5, "bonus_divisor": 5,
}
PRESET_RULES = {"threes": THREES_RULES, "fives": FIVES_RULES}


@dataclass(frozen=True)
class SynthArm:
    """One arm of a synthetic run; every per-player tuple is indexed by the policy-list index."""

    name: str
    policies: tuple[str, ...]
    mean_points: tuple[float, ...]
    win_weights: tuple[float, ...]
    score_rate: tuple[float, ...] = ()
    blocked: float = 0.1
    fd_move_scale: int = 8  # first double placed at move 1 + floor(U * fd_move_scale)
    preset: str = "threes"


@dataclass(frozen=True)
class SynthSpec:
    arms: tuple[SynthArm, ...]
    deals: int = 2000
    rotations: bool = True
    chunk_size: int = 1000
    seed: int = 1
    deal_sd_half: int = 8     # D = Binomial(2h, 1/2) - h, variance h/2
    row_sd_half: int = 8      # E = Binomial(2h, 1/2) - h, variance h/2
    win_points: int = 6
    tie: float = 0.05
    fd_prob: float = 0.9
    moves: bool = False
    scenario_name: str = "synthetic"
    extra: dict = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.arms[0].policies)

    @property
    def n_rot(self) -> int:
        return self.players if self.rotations else 1


def truth(spec: SynthSpec) -> dict[str, dict[str, list[float]]]:
    """Exact expectations per arm and player: mean points, win rate (ties shared), scoring rate."""
    out: dict[str, dict[str, list[float]]] = {}
    n, t = spec.players, spec.tie
    for arm in spec.arms:
        pi = np.asarray(arm.win_weights, float) / np.sum(arm.win_weights)
        partner = t * (1 - pi) / (n - 1)
        win = pi * (1 - t) + 0.5 * pi * t + 0.5 * partner
        won_any = pi + partner
        pts = np.asarray(arm.mean_points, float) + spec.win_points * won_any
        q = np.asarray(arm.score_rate or (0.3,) * n, float)
        out[arm.name] = {"points": pts.tolist(), "win": win.tolist(), "scoring_rate": q.tolist()}
    return out


def _tier(moves: np.ndarray, bonus: list) -> np.ndarray:
    out = np.zeros(moves.shape, np.int16)
    done = np.zeros(moves.shape, bool)
    for last, pts in bonus:
        hit = ~done & ((moves <= last) if last is not None else True)
        out[hit] = pts
        done |= hit
    return out


def _strings(idx: np.ndarray, values: list[str]) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(idx.astype(np.int32)), pa.array(values)).cast(pa.string())


def _chunk(spec: SynthSpec, c: int, d0: int, d1: int) -> tuple[pa.Table, pa.Table | None]:
    n, P, R = d1 - d0, spec.players, spec.n_rot
    shared = np.random.default_rng([spec.seed, c])
    D = shared.binomial(2 * spec.deal_sd_half, 0.5, n) - spec.deal_sd_half
    u_win, u_tie, u_partner = shared.random((3, n, R))
    u_block, u_fd, u_fdmove, u_fdseat, u_lead = shared.random((5, n, R))
    plays_p = 1 + shared.binomial(5, 0.6, (n, R, P)).astype(np.int16)
    dd = shared.binomial(5, 0.25, (n, R, P)).astype(np.int8)
    small = shared.integers(0, 5, (3, n, R, P)).astype(np.int16)
    seat = np.arange(P)
    player_of_seat = (seat[None, :] + np.arange(R)[:, None]) % P  # (R, P)
    deal_col = np.repeat(np.arange(d0, d1, dtype=np.int64), R * P)
    rot_col = np.tile(np.repeat(np.arange(R, dtype=np.int8), P), n)
    seat_col = np.tile(seat.astype(np.int8), n * R)
    player_col = np.tile(player_of_seat.reshape(-1).astype(np.int8), n)
    first_seat = np.floor(u_lead * P).astype(np.int8)
    fd_seat = np.floor(u_fdseat * P).astype(np.int8)
    tiles = plays_p.sum(axis=2)
    tables, move_tables = [], []
    for a, arm in enumerate(spec.arms):
        rng = np.random.default_rng([spec.seed, c, a + 1])
        pi = np.cumsum(np.asarray(arm.win_weights, float) / np.sum(arm.win_weights))
        w = np.minimum(np.searchsorted(pi, u_win, side="right"), P - 1)  # winning player (n, R)
        other = (w + 1 + np.floor(u_partner * (P - 1)).astype(int)) % P
        tie = u_tie < spec.tie
        win_p = np.zeros((n, R, P))
        np.put_along_axis(win_p, w[..., None], np.where(tie, 0.5, 1.0)[..., None], axis=2)
        cur = np.take_along_axis(win_p, other[..., None], axis=2)
        np.put_along_axis(win_p, other[..., None], np.where(tie[..., None], 0.5, cur), axis=2)
        E = rng.binomial(2 * spec.row_sd_half, 0.5, (n, R, P)) - spec.row_sd_half
        pts_p = (np.asarray(arm.mean_points)[None, None, :] + D[:, None, None] + E
                 + spec.win_points * (win_p > 0)).round().astype(np.int32)
        q = np.asarray(arm.score_rate or (0.3,) * P, float)
        sp_p = rng.binomial(plays_p, q[None, None, :]).astype(np.int16)
        # seat-indexed views: row (r, s) is player (s + r) % P
        idx = np.broadcast_to(player_of_seat[None], (n, R, P))
        win = np.take_along_axis(win_p, idx, axis=2)
        pts = np.take_along_axis(pts_p, idx, axis=2)
        sp = np.take_along_axis(sp_p, idx, axis=2)
        plays = np.take_along_axis(plays_p, idx, axis=2)
        rules = PRESET_RULES[arm.preset]
        has_fd = u_fd < spec.fd_prob
        fd_move = np.minimum(1 + np.floor(u_fdmove * arm.fd_move_scale), tiles).astype(np.int16)
        tier = _tier(fd_move, rules["first_double_bonus"])
        bonus = np.where(has_fd[..., None] & (seat[None, None, :] == fd_seat[..., None]), tier[..., None], 0)
        blocked = u_block < arm.blocked
        win_seat = (w[..., None] - np.arange(R)[None, :, None]) % P  # seat of the winner
        went_out = ~blocked[..., None] & (seat[None, None, :] == win_seat)
        lost = has_fd[..., None] & (seat[None, None, :] != fd_seat[..., None]) & (dd > 0)

        def rep(x: np.ndarray) -> np.ndarray:
            return np.repeat(x.reshape(-1), P)

        fd_move_col = pa.array(rep(fd_move), mask=rep(~has_fd))
        fd_seat_col = pa.array(rep(fd_seat), mask=rep(~has_fd))
        cols = {
            "arm": _strings(np.zeros(n * R * P), [arm.name]),
            "deal": deal_col, "rotation": rot_col, "seat": seat_col, "player": player_col,
            "policy": _strings(player_col, list(arm.policies)),
            "points": pts.reshape(-1),
            "play_points": (pts - bonus).reshape(-1).astype(np.int32),
            "bonus": bonus.reshape(-1).astype(np.int16),
            "end_bonus": np.zeros(n * R * P, np.int32),
            "scoring_plays": sp.reshape(-1), "plays": plays.reshape(-1),
            "draws": small[0].reshape(-1), "passes": small[1].reshape(-1), "pips_left": small[2].reshape(-1),
            "went_out": went_out.reshape(-1), "win": win.reshape(-1), "doubles_dealt": dd.reshape(-1),
            "lost_first_double": lost.reshape(-1), "first_seat": rep(first_seat),
            "first_double_move": fd_move_col, "first_double_seat": fd_seat_col,
            "spinner_move": fd_move_col, "spinner_seat": fd_seat_col,
            "end": _strings(rep(blocked.astype(np.int8)), ["domino", "blocked"]),
            "tiles_placed": rep(tiles.astype(np.int16)),
        }
        tables.append(pa.Table.from_pydict({k: cols[k] for k in DEAL_SCHEMA.names}, schema=DEAL_SCHEMA))
        if spec.moves:
            move_tables.append(_moves(spec, arm, rng, d0, n, R, tiles, first_seat, has_fd, fd_move, tier))
    moves = pa.concat_tables(move_tables) if move_tables else None
    return pa.concat_tables(tables), moves


def move_score_rate(move: np.ndarray) -> np.ndarray:
    """The true chance that the placement at a move number scores, in synthetic move data."""
    return np.minimum(0.05 * np.asarray(move, float), 0.5)


def _moves(spec, arm, rng, d0, n, R, tiles, first_seat, has_fd, fd_move, tier) -> pa.Table:
    P = spec.players
    count = tiles.reshape(-1).astype(np.int64)
    total = int(count.sum())
    starts = np.repeat(np.cumsum(count) - count, count)
    move = (np.arange(total) - starts + 1).astype(np.int16)
    dp = np.repeat(np.arange(n * R), count)
    seat = ((first_seat.reshape(-1)[dp] + move - 1) % P).astype(np.int8)
    scores = rng.random(total) < move_score_rate(move)
    fd = has_fd.reshape(-1)[dp] & (fd_move.reshape(-1)[dp] == move)
    policy_idx = (seat + dp % R) % P
    cols = {
        "arm": _strings(np.zeros(total), [arm.name]),
        "deal": (d0 + dp // R).astype(np.int64), "rotation": (dp % R).astype(np.int8), "move": move,
        "seat": seat, "policy": _strings(policy_idx, list(arm.policies)),
        "tile": _strings(np.zeros(total), ["3-6"]),
        "end": _strings(np.where(move == 1, 0, 1), ["lead", "L"]),
        "ends": np.full(total, 3, np.int8), "ends_sum": np.full(total, 12, np.int16),
        "points": np.where(scores, 6, 0).astype(np.int16),
        "bonus": np.where(fd, tier.reshape(-1)[dp], 0).astype(np.int16),
    }
    return pa.Table.from_pydict({k: cols[k] for k in MOVE_SCHEMA.names}, schema=MOVE_SCHEMA)


def manifest(spec: SynthSpec, chunks_done: list[int], complete: bool) -> dict:
    return {
        "kind": "simdom-results", "format": 1, "simdom_version": "0.1.0", "sim_version": 1,
        "scenario_name": spec.scenario_name, "scenario": {"name": spec.scenario_name, "synthetic": True},
        "settings_hash": "synthetic", "seed": spec.seed, "root_key": f"synth-{spec.seed}",
        "deals": spec.deals, "chunk_size": spec.chunk_size,
        "n_chunks": -(-spec.deals // spec.chunk_size), "rotations": spec.n_rot, "players": spec.players,
        "moves": spec.moves,
        "arms": [{"name": a.name, "rules": {**PRESET_RULES[a.preset], "players": spec.players},
                  "preset": a.preset, "policies": list(a.policies)} for a in spec.arms],
        "chunks_done": chunks_done, "created": "2024-01-01T00:00:00", "finished": "2024-01-01T00:00:01"
        if complete else None, "complete": complete, **spec.extra,
    }


def write_results(path: str | os.PathLike, spec: SynthSpec, *, complete: bool = True,
                  stop_after: int | None = None) -> Path:
    """Write a results folder (manifest + parts); ``stop_after`` chunks leaves it half-written."""
    root = Path(path)
    (root / DEALS_DIR).mkdir(parents=True, exist_ok=True)
    if spec.moves:
        (root / MOVES_DIR).mkdir(parents=True, exist_ok=True)
    done: list[int] = []
    n_chunks = -(-spec.deals // spec.chunk_size)
    for c in range(n_chunks if stop_after is None else stop_after):
        d0, d1 = c * spec.chunk_size, min(spec.deals, (c + 1) * spec.chunk_size)
        deals, moves = _chunk(spec, c, d0, d1)
        pq.write_table(deals, root / DEALS_DIR / f"part-{c:05d}.parquet", compression="lz4")
        if moves is not None:
            pq.write_table(moves, root / MOVES_DIR / f"part-{c:05d}.parquet", compression="lz4")
        done.append(c)
    finished = complete and stop_after is None
    (root / MANIFEST).write_text(json.dumps(manifest(spec, done, finished), indent=1))
    return root

"""Synthetic results with known answers, for the statistics tests, coverage studies and the benchmark.

Generation (this module's :func:`chunk_tables`, :func:`frames`, :func:`in_memory`, :func:`truth`) is
kept apart from writing a results folder (:func:`write_results`, the only code that knows the
folder's physical layout). The rows follow the long view of ``Results.deals`` (DEAL_SCHEMA) and the
manifest follows the runner's contract, but the numbers come from a generative model whose
expectations are known in closed form, with the dependence of real runs:

* every deal is played in every arm and rotation; the deal's leader ``L`` (seat), its luck ``D``, the
  first double (whether, when, which seat) and the uniforms that pick the winner are shared by all of
  them, so the rows of one deal are strongly correlated (as real rotations replaying one shuffle are);
* with probability ``lock`` the deal is *decided by the cards*: the winner is the seat at turn ``T``
  (``T`` drawn with ``turn_weights``), the same in every rotation and arm, whoever sits there (a real
  turn-order effect, and seats equal by construction when rotation is on); otherwise the winning
  *player* is drawn with the arm's ``win_weights`` per rotation, from a uniform shared by the arms (so
  arms differ only where the weights differ), or with chance ``arm_redraw`` from the arm's own uniform
  (a change of policy that changes the outcome; 0.3 gives the ~11% of deal-plays whose winner changes
  between K=1 and K=9 in the default study);
* with probability ``tie`` a second seat, uniform among the others, shares the win;
* points of a row = ``mean_points[player] + turn_points[turn] + D + E + win_points * [won or tied]``
  (``E`` independent per row); each placement scores with probability ``score_rate[player]``.
"""
from __future__ import annotations

import itertools
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
    fd_move_scale: int = 8  # first double placed at move 1 + floor(U * fd_move_scale) (U shared by the deal)
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
    lock: float = 0.0         # share of deals decided by the cards (the same winning seat everywhere)
    arm_redraw: float = 0.0   # chance that an arm draws its winner anew (its policies changed the outcome)
    turn_weights: tuple[float, ...] = ()  # who wins a decided deal, by turn (default: uniform)
    turn_points: tuple[float, ...] = ()   # points added by turn (default: none)
    fd_prob: float = 0.9
    moves: bool = False
    first_deal: int = 0
    scenario_name: str = "synthetic"
    extra: dict = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.arms[0].policies)

    @property
    def n_rot(self) -> int:
        return self.players if self.rotations else 1

    def tau(self) -> np.ndarray:
        w = np.asarray(self.turn_weights or (1.0,) * self.players, float)
        return w / w.sum()

    def turn_pts(self) -> np.ndarray:
        return np.asarray(self.turn_points or (0.0,) * self.players, float)


# ---- the known truth -------------------------------------------------------------------------------
def truth_cells(spec: SynthSpec) -> list[dict]:
    """Expected values of one row for every (arm, rotation, seat, leader) cell; each cell is equally
    likely, so the truth of any group of rows (by arm, player, policy, seat, turn) is the cells' mean."""
    P, R, t = spec.players, spec.n_rot, spec.tie
    tau, tp = spec.tau(), spec.turn_pts()
    out = []
    for arm in spec.arms:
        pi = np.asarray(arm.win_weights, float) / np.sum(arm.win_weights)
        rate = np.asarray(arm.score_rate or (0.3,) * P, float)
        for r, s, lead in itertools.product(range(R), range(P), range(P)):
            p, turn = (s + r) % P, (s - lead) % P
            q = spec.lock * tau[turn] + (1 - spec.lock) * pi[p]  # chance this seat is the winner
            partner = t * (1 - q) / (P - 1)
            out.append({"arm": arm.name, "rotation": r, "seat": s, "turn": turn, "player": p,
                        "policy": arm.policies[p], "win": q * (1 - t / 2) + partner / 2,
                        "points": arm.mean_points[p] + tp[turn] + spec.win_points * (q + partner),
                        "scoring_rate": float(rate[p])})
    return out


def truth_by(spec: SynthSpec, keys: list[str]) -> dict[tuple, dict[str, float]]:
    """Exact expectations (win, points, scoring_rate) of the groups of rows with the given keys."""
    groups: dict[tuple, list[dict]] = {}
    for c in truth_cells(spec):
        groups.setdefault(tuple(c[k] for k in keys), []).append(c)
    return {k: {m: float(np.mean([c[m] for c in v])) for m in ("win", "points", "scoring_rate")}
            for k, v in groups.items()}


def truth(spec: SynthSpec) -> dict[str, dict[str, list[float]]]:
    """Exact expectations per arm and player: mean points, win rate (ties shared), scoring rate."""
    t = truth_by(spec, ["arm", "player"])
    return {a.name: {m: [t[(a.name, p)][m] for p in range(spec.players)] for m in ("points", "win", "scoring_rate")}
            for a in spec.arms}


def first_double_share(spec: SynthSpec, arm: SynthArm, move: int) -> float:
    """The exact share of deal-plays whose first double falls at ``move``: the move is
    min(1 + floor(U * fd_move_scale), tiles) with tiles = players + Binomial(5 * players, 0.6)."""
    from math import comb

    P, s = spec.players, arm.fd_move_scale
    t_pmf = {P + k: comb(5 * P, k) * 0.6**k * 0.4 ** (5 * P - k) for k in range(5 * P + 1)}
    t_ge = sum(v for t, v in t_pmf.items() if t >= move)
    m_eq = 1 / s if 1 <= move <= s else 0.0
    m_gt = max(s - move, 0) / s
    return spec.fd_prob * (m_eq * t_ge + m_gt * t_pmf.get(move, 0.0))


# ---- generation ------------------------------------------------------------------------------------
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


def chunk_tables(spec: SynthSpec, c: int) -> tuple[pa.Table, pa.Table | None]:
    """Deal rows (DEAL_SCHEMA) and move rows (MOVE_SCHEMA or None) of chunk ``c``, every arm."""
    d0 = spec.first_deal + c * spec.chunk_size
    d1 = min(spec.first_deal + spec.deals, d0 + spec.chunk_size)
    n, P, R = d1 - d0, spec.players, spec.n_rot
    shared = np.random.default_rng([spec.seed, d0])
    D = shared.binomial(2 * spec.deal_sd_half, 0.5, n) - spec.deal_sd_half
    lead = shared.integers(0, P, n)                         # the leader seat, shared by rotations and arms
    locked = shared.random(n) < spec.lock
    lock_turn = np.minimum(np.searchsorted(np.cumsum(spec.tau()), shared.random(n), side="right"), P - 1)
    u_win, u_tie, u_partner, u_block = shared.random((4, n, R))
    has_fd, u_fdmove = shared.random(n) < spec.fd_prob, shared.random(n)
    fd_seat = shared.integers(0, P, n).astype(np.int8)
    plays_p = 1 + shared.binomial(5, 0.6, (n, R, P)).astype(np.int16)  # by player
    dd = shared.binomial(5, 0.25, (n, R, P)).astype(np.int8)          # by seat
    small = shared.integers(0, 5, (3, n, R, P)).astype(np.int16)
    seat = np.arange(P)
    rot = np.arange(R)
    player_of_seat = (seat[None, :] + rot[:, None]) % P     # (R, P)
    deal_col = np.repeat(np.arange(d0, d1, dtype=np.int64), R * P)
    rot_col = np.tile(np.repeat(rot.astype(np.int8), P), n)
    seat_col = np.tile(seat.astype(np.int8), n * R)
    player_col = np.tile(player_of_seat.reshape(-1).astype(np.int8), n)
    idx = np.broadcast_to(player_of_seat[None], (n, R, P))
    turn = (seat[None, :] - lead[:, None]) % P               # (n, P)
    tiles = plays_p.sum(axis=2)

    def rep(x: np.ndarray) -> np.ndarray:                    # per (deal, rotation) -> per row
        return np.repeat(np.broadcast_to(x.reshape(n, -1), (n, R)).reshape(-1), P)

    tables, move_tables = [], []
    for a, arm in enumerate(spec.arms):
        rng = np.random.default_rng([spec.seed, d0, a + 1])
        pi = np.cumsum(np.asarray(arm.win_weights, float) / np.sum(arm.win_weights))
        redraw = rng.random((n, R)) < spec.arm_redraw
        u_arm = np.where(redraw, rng.random((n, R)), u_win)
        w_player = np.minimum(np.searchsorted(pi, u_arm, side="right"), P - 1)    # (n, R)
        w_seat = np.where(locked[:, None], ((lead + lock_turn) % P)[:, None], (w_player - rot[None, :]) % P)
        partner = (w_seat + 1 + np.floor(u_partner * (P - 1)).astype(int)) % P
        tie = u_tie < spec.tie
        win = np.zeros((n, R, P))
        np.put_along_axis(win, w_seat[..., None], np.where(tie, 0.5, 1.0)[..., None], axis=2)
        np.put_along_axis(win, partner[..., None], np.where(tie, 0.5, 0.0)[..., None], axis=2)
        E = rng.binomial(2 * spec.row_sd_half, 0.5, (n, R, P)) - spec.row_sd_half
        mp = np.take_along_axis(np.broadcast_to(np.asarray(arm.mean_points, float), (n, R, P)), idx, axis=2)
        pts = (mp + spec.turn_pts()[turn][:, None, :] + D[:, None, None] + E + spec.win_points * (win > 0))
        pts = pts.round().astype(np.int32)
        q = np.asarray(arm.score_rate or (0.3,) * P, float)
        plays = np.take_along_axis(plays_p, idx, axis=2)
        sp = rng.binomial(plays, q[idx]).astype(np.int16)
        rules = PRESET_RULES[arm.preset]
        fd_move = np.minimum(1 + np.floor(u_fdmove * arm.fd_move_scale)[:, None], tiles).astype(np.int16)  # (n, R)
        tier = _tier(fd_move, rules["first_double_bonus"])
        bonus = np.where(has_fd[:, None, None] & (seat[None, None, :] == fd_seat[:, None, None]), tier[..., None], 0)
        blocked = u_block < arm.blocked
        went_out = ~blocked[..., None] & (seat[None, None, :] == w_seat[..., None])
        lost = has_fd[:, None, None] & (seat[None, None, :] != fd_seat[:, None, None]) & (dd > 0)
        fd_move_col = pa.array(rep(fd_move), mask=rep(np.repeat(~has_fd, R)))
        fd_seat_col = pa.array(rep(np.repeat(fd_seat, R)), mask=rep(np.repeat(~has_fd, R)))
        cols = {
            "arm": _strings(np.zeros(n * R * P), [arm.name]),
            "deal": deal_col, "rotation": rot_col, "seat": seat_col, "player": player_col,
            "policy": _strings(player_col, list(arm.policies)),
            "points": pts.reshape(-1), "play_points": (pts - bonus).reshape(-1).astype(np.int32),
            "bonus": bonus.reshape(-1).astype(np.int16), "end_bonus": np.zeros(n * R * P, np.int32),
            "scoring_plays": sp.reshape(-1), "plays": plays.reshape(-1),
            "draws": small[0].reshape(-1), "passes": small[1].reshape(-1), "pips_left": small[2].reshape(-1),
            "went_out": went_out.reshape(-1), "win": win.reshape(-1), "doubles_dealt": dd.reshape(-1),
            "lost_first_double": lost.reshape(-1), "first_seat": rep(np.repeat(lead, R)).astype(np.int8),
            "first_double_move": fd_move_col, "first_double_seat": fd_seat_col,
            "spinner_move": fd_move_col, "spinner_seat": fd_seat_col,
            "end": _strings(rep(blocked.astype(np.int8)), ["domino", "blocked"]),
            "tiles_placed": rep(tiles.astype(np.int16)),
        }
        tables.append(pa.Table.from_pydict({k: cols[k] for k in DEAL_SCHEMA.names}, schema=DEAL_SCHEMA))
        if spec.moves:
            move_tables.append(_moves(spec, arm, rng, d0, n, tiles, np.repeat(lead, R).reshape(n, R),
                                      has_fd, fd_move, tier))
    moves = pa.concat_tables(move_tables) if move_tables else None
    return pa.concat_tables(tables), moves


def move_score_rate(move: np.ndarray) -> np.ndarray:
    """The true chance that the placement at a move number scores, in synthetic move data."""
    return np.minimum(0.05 * np.asarray(move, float), 0.5)


def _moves(spec, arm, rng, d0, n, tiles, first_seat, has_fd, fd_move, tier) -> pa.Table:
    P, R = spec.players, spec.n_rot
    count = tiles.reshape(-1).astype(np.int64)
    total = int(count.sum())
    starts = np.repeat(np.cumsum(count) - count, count)
    move = (np.arange(total) - starts + 1).astype(np.int16)
    dp = np.repeat(np.arange(n * R), count)
    seat = ((first_seat.reshape(-1)[dp] + move - 1) % P).astype(np.int8)
    scores = rng.random(total) < move_score_rate(move)
    fd = np.repeat(has_fd, R)[dp] & (fd_move.reshape(-1)[dp] == move)
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


def n_chunks(spec: SynthSpec) -> int:
    return -(-spec.deals // spec.chunk_size)


def manifest(spec: SynthSpec, chunks_done: list[int] | None = None, complete: bool = True) -> dict:
    done = list(range(n_chunks(spec))) if chunks_done is None else chunks_done
    return {
        "kind": "simdom-results", "format": 1, "simdom_version": "0.1.0", "sim_version": 1,
        "scenario_name": spec.scenario_name, "scenario": {"name": spec.scenario_name, "synthetic": True},
        "settings_hash": "synthetic", "seed": spec.seed, "root_key": f"synth-{spec.seed}",
        "deals": spec.deals, "chunk_size": spec.chunk_size,
        "n_chunks": n_chunks(spec), "rotations": spec.n_rot, "players": spec.players,
        "moves": spec.moves,
        "arms": [{"name": a.name, "rules": {**PRESET_RULES[a.preset], "players": spec.players},
                  "preset": a.preset, "policies": list(a.policies)} for a in spec.arms],
        "chunks_done": done, "created": "2024-01-01T00:00:00", "finished": "2024-01-01T00:00:01"
        if complete else None, "complete": complete, **spec.extra,
    }


def frames(spec: SynthSpec):
    """All deal rows (and move rows, or None) as polars DataFrames, built in memory."""
    import polars as pl

    parts = [chunk_tables(spec, c) for c in range(n_chunks(spec))]
    deals = pl.from_arrow(pa.concat_tables([d for d, _ in parts]))
    moves = pl.from_arrow(pa.concat_tables([m for _, m in parts])) if spec.moves else None
    return deals, moves


def in_memory(spec: SynthSpec):
    """A :class:`simdom.stats.io.Results` over the spec's rows, without a folder."""
    from simdom.stats.io import Results

    deals, moves = frames(spec)
    return Results.in_memory(manifest(spec), deals, moves, name=spec.scenario_name)


# ---- writing a results folder (the physical layout) -----------------------------------------------
def write_results(path: str | os.PathLike, spec: SynthSpec, *, complete: bool = True,
                  stop_after: int | None = None) -> Path:
    """Write a results folder (manifest + parts); ``stop_after`` chunks leaves it half-written."""
    root = Path(path)
    (root / DEALS_DIR).mkdir(parents=True, exist_ok=True)
    if spec.moves:
        (root / MOVES_DIR).mkdir(parents=True, exist_ok=True)
    done: list[int] = []
    for c in range(n_chunks(spec) if stop_after is None else stop_after):
        deals, moves = chunk_tables(spec, c)
        pq.write_table(deals, root / DEALS_DIR / f"part-{c:05d}.parquet", compression="lz4")
        if moves is not None:
            pq.write_table(moves, root / MOVES_DIR / f"part-{c:05d}.parquet", compression="lz4")
        done.append(c)
    finished = complete and stop_after is None
    (root / MANIFEST).write_text(json.dumps(manifest(spec, done, finished), indent=1))
    return root

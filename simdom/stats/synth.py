"""Synthetic results folders with known answers, for the statistics tests and the benchmark.

The parts and the manifest are written by simdom.results as `simdom run` writes them, but the
numbers come from a simple generative model whose expectations are known in closed form
(:func:`truth`), not from playing dominoes:

* the winner is drawn with probabilities ``win_weights`` (one uniform per deal and rotation, shared
  by all arms); with probability ``tie`` a second player, uniform among the others, shares the win;
* points of player ``p``: ``win_total + D`` if it won or tied, else ``mean_points[p] + D + E``, where
  ``D`` is a deal effect shared by every arm, rotation and seat of the deal (common random numbers: it
  cancels in paired comparisons) and ``E`` is independent per row; ``win_total`` is above any loser's
  points, so the winners are exactly the seats with the highest total, as in a real deal;
* each placement scores with probability ``score_rate[p]``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simdom import results as fmt
from simdom.rules import preset

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
    win_total: int = 80       # a winner's points (before D); every loser stays below it
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
        pts = spec.win_total * won_any + np.asarray(arm.mean_points, float) * (1 - won_any)
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


def _keys(arm: int, names: list[str], d0: int, n: int, R: int, per: int = 1) -> dict:
    return {"arm": fmt.strings(np.full(n * R * per, arm, np.int32), names),
            "deal": np.repeat(np.arange(d0, d0 + n, dtype=np.int64), R * per),
            "rotation": np.tile(np.repeat(np.arange(R, dtype=np.int8), per), n)}


def _chunk(spec: SynthSpec, c: int, d0: int, d1: int) -> tuple[list[dict], list[dict]]:
    """The deals (and moves) columns of chunk c, one dict of columns per arm (simdom.results.DEALS)."""
    n, P, R = d1 - d0, spec.players, spec.n_rot
    shared = np.random.default_rng([spec.seed, c])
    D = shared.binomial(2 * spec.deal_sd_half, 0.5, n) - spec.deal_sd_half
    u_win, u_tie, u_partner = shared.random((3, n, R))
    u_block, u_fd, u_fdmove, u_fdseat, u_lead = shared.random((5, n, R))
    plays_p = 1 + shared.binomial(5, 0.6, (n, R, P)).astype(np.int16)
    dd = shared.binomial(5, 0.25, (n, R, P)).astype(np.int8)
    seat = np.arange(P)
    player_of_seat = (seat[None, :] + np.arange(R)[:, None]) % P  # (R, P)
    first_seat = np.floor(u_lead * P).astype(np.int8)
    fd_seat = np.floor(u_fdseat * P).astype(np.int8)
    tiles = plays_p.sum(axis=2)
    deals, moves = [], []
    for a, arm in enumerate(spec.arms):
        rng = np.random.default_rng([spec.seed, c, a + 1])
        pi = np.cumsum(np.asarray(arm.win_weights, float) / np.sum(arm.win_weights))
        w = np.minimum(np.searchsorted(pi, u_win, side="right"), P - 1)  # winning player (n, R)
        other = (w + 1 + np.floor(u_partner * (P - 1)).astype(int)) % P
        tie = u_tie < spec.tie
        won = np.zeros((n, R, P), bool)
        np.put_along_axis(won, w[..., None], True, axis=2)
        np.put_along_axis(won, other[..., None], tie[..., None] | np.take_along_axis(won, other[..., None], 2), 2)
        E = rng.binomial(2 * spec.row_sd_half, 0.5, (n, R, P)) - spec.row_sd_half
        base = np.asarray(arm.mean_points)[None, None, :] + D[:, None, None]
        pts_p = np.where(won, spec.win_total + D[:, None, None], (base + E).round()).astype(np.int32)
        q = np.asarray(arm.score_rate or (0.3,) * P, float)
        sp_p = rng.binomial(plays_p, q[None, None, :]).astype(np.int16)
        # seat-indexed views: row (r, s) is player (s + r) % P
        idx = np.broadcast_to(player_of_seat[None], (n, R, P))
        pts, sp, plays = (np.take_along_axis(x, idx, axis=2) for x in (pts_p, sp_p, plays_p))
        rules = preset(arm.preset, P).to_dict()
        has_fd = u_fd < spec.fd_prob
        fd_move = np.minimum(1 + np.floor(u_fdmove * arm.fd_move_scale), tiles).astype(np.int16)
        tier = _tier(fd_move, rules["first_double_bonus"])  # earned by fd_seat; not added to the points (truth)
        blocked = u_block < arm.blocked
        win_seat = (w - np.arange(R)[None, :]) % P  # seat of the (first) winner
        lost = has_fd[..., None] & (seat[None, None, :] != fd_seat[..., None]) & (dd > 0)
        cols = _keys(a, [x.name for x in spec.arms], d0, n, R)
        cols.update(first_seat=first_seat.reshape(-1),
                    end=fmt.strings(blocked.astype(np.int8).reshape(-1), ["domino", "blocked"]),
                    winner=win_seat.reshape(-1), end_bonus=np.zeros(n * R, np.int16),
                    tiles_placed=tiles.reshape(-1),
                    first_double_move=np.ma.masked_array(fd_move.reshape(-1), ~has_fd.reshape(-1)),
                    first_double_seat=np.ma.masked_array(fd_seat.reshape(-1), ~has_fd.reshape(-1)))
        for name, v in (("points", pts), ("scoring_plays", sp), ("plays", plays), ("doubles_dealt", dd),
                        ("lost_first_double", lost)):
            for s in range(P):
                cols[f"{name}_{s}"] = np.ascontiguousarray(v[..., s]).reshape(-1)
        deals.append(cols)
        if spec.moves:
            moves.append(_moves(spec, a, arm, rng, d0, n, R, tiles, first_seat, has_fd, fd_move, tier))
    return deals, moves


def move_score_rate(move: np.ndarray) -> np.ndarray:
    """The true chance that the placement at a move number scores, in synthetic move data."""
    return np.minimum(0.05 * np.asarray(move, float), 0.5)


def _moves(spec, a, arm, rng, d0, n, R, tiles, first_seat, has_fd, fd_move, tier) -> dict:
    P = spec.players
    count = tiles.reshape(-1).astype(np.int64)
    total = int(count.sum())
    starts = np.repeat(np.cumsum(count) - count, count)
    move = (np.arange(total) - starts + 1).astype(np.int16)
    dp = np.repeat(np.arange(n * R), count)
    seat = ((first_seat.reshape(-1)[dp] + move - 1) % P).astype(np.int8)
    scores = rng.random(total) < move_score_rate(move)
    fd = has_fd.reshape(-1)[dp] & (fd_move.reshape(-1)[dp] == move)
    return {"arm": fmt.strings(np.full(total, a, np.int32), [x.name for x in spec.arms]),
            "deal": (d0 + dp // R).astype(np.int64), "rotation": (dp % R).astype(np.int8), "move": move,
            "seat": seat, "tile": fmt.strings(np.zeros(total, np.int32), ["3-6"]),
            "end": fmt.strings(np.where(move == 1, 0, 1), ["lead", "L"]),
            "ends": np.full(total, 3, np.int8), "ends_sum": np.full(total, 12, np.int16),
            "points": np.where(scores, 6, 0).astype(np.int16),
            "bonus": np.where(fd, tier.reshape(-1)[dp], 0).astype(np.int16)}


def manifest(spec: SynthSpec, chunks_done: list[int], *, complete: bool) -> fmt.Manifest:
    return fmt.Manifest(
        kind=fmt.KIND, format=fmt.FORMAT, simdom_version="0.1.0", sim_version=1,
        scenario_name=spec.scenario_name, scenario={"name": spec.scenario_name, "synthetic": True},
        settings_hash="synthetic", seed=spec.seed, root_key=f"synth-{spec.seed}", deals=spec.deals,
        chunk_size=spec.chunk_size, n_chunks=-(-spec.deals // spec.chunk_size), rotations=spec.n_rot,
        players=spec.players, tables=["deals", "moves"] if spec.moves else ["deals"],
        arms=[fmt.ArmEntry(name=a.name, rules=preset(a.preset, spec.players).to_dict(), preset=a.preset,
                           policies=list(a.policies)) for a in spec.arms],
        chunks_done=chunks_done, created="2024-01-01T00:00:00", complete=complete,
        finished="2024-01-01T00:00:01" if complete else None, **spec.extra)


def _concat(parts: list[dict]) -> dict:
    """One table's columns from the arms' columns (rows ordered arm, deal, rotation, as simdom run)."""
    import pyarrow as pa
    out = {}
    for k in parts[0]:
        vals = [p[k] for p in parts]
        if isinstance(vals[0], pa.Array):
            out[k] = fmt.strings(np.concatenate([np.asarray(v.indices) for v in vals]), vals[0].dictionary.to_pylist())
        elif np.ma.isMaskedArray(vals[0]):
            out[k] = np.ma.concatenate(vals)
        else:
            out[k] = np.concatenate(vals)
    return out


def write_results(path: str | os.PathLike, spec: SynthSpec, *, complete: bool = True,
                  stop_after: int | None = None) -> Path:
    """Write a results folder (manifest + parts); ``stop_after`` chunks leaves it half-written."""
    root = Path(path)
    m = manifest(spec, [], complete=False)
    for t in m.tables:
        (root / t).mkdir(parents=True, exist_ok=True)
    done: list[int] = []
    for c in range(m.n_chunks if stop_after is None else stop_after):
        d0, d1 = c * spec.chunk_size, min(spec.deals, (c + 1) * spec.chunk_size)
        deals, moves = _chunk(spec, c, d0, d1)
        for t, parts in (("deals", deals), ("moves", moves)):
            if parts:
                data = fmt.encode(fmt.TABLES[t], spec.players, _concat(parts), m.settings_hash, c)
                fmt.write_atomic(fmt.part_path(root, t, c), data)
        done.append(c)
    finished = complete and stop_after is None
    fmt.write_atomic(root / fmt.MANIFEST, manifest(spec, done, complete=finished).to_json())
    return root

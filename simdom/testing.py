"""Synthetic results with known answers, for the statistics tests, coverage studies and the benchmark.

Generation (:func:`chunk_columns`, :func:`in_memory`, :func:`truth`) is kept apart from writing a
results folder (:func:`write_results`: the parts and the manifest written by simdom.results as
`simdom run` writes them). The numbers come from a generative model whose expectations are known in
closed form, with the dependence of real runs:

* every deal is played in every arm and rotation; the deal's leader (seat), its luck ``D``, the first
  double (whether, when, which seat) and the uniforms that pick the winner are shared by all of them,
  so the rows of one deal are strongly correlated (as real rotations replaying one shuffle are);
* with probability ``lock`` the deal is *decided by the cards*: the winner is the seat at turn ``T``
  (``T`` drawn with ``turn_weights``), the same in every rotation and arm, whoever sits there (a real
  turn-order effect, and seats equal by construction when rotation is on); otherwise the winning
  *player* is drawn with the arm's ``win_weights`` per rotation, from a uniform shared by the arms (so
  arms differ only where the weights differ), or with chance ``arm_redraw`` from the arm's own uniform
  (a change of policy that changes the outcome; 0.3 gives the ~11% of deal-plays whose winner changes
  between K=1 and K=9 in the default study);
* with probability ``tie`` a second seat, uniform among the others, shares the win;
* points: ``win_total + D`` for a winner (above any loser, so the winners are exactly the seats with
  the highest total, as in a real deal), else ``mean_points[player] + turn_points[turn] + D + E``
  (``E`` independent per row); each placement scores with probability ``score_rate[player]``.
"""
from __future__ import annotations

import io
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simdom import results as fmt
from simdom.engine.api import SIM_VERSION  # as simdom run's folders: read without a note on another version
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
    win_total: int = 80       # a winner's points (before D); every loser stays below it
    tie: float = 0.05
    lock: float = 0.0         # share of deals decided by the cards (the same winning seat everywhere)
    arm_redraw: float = 0.0   # chance that an arm draws its winner anew (its policies changed the outcome)
    turn_weights: tuple[float, ...] = ()  # who wins a decided deal, by turn (default: uniform)
    turn_points: tuple[float, ...] = ()   # a loser's points added by turn (default: none)
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
            partner = t * (1 - q) / (P - 1)                         # chance it ties as the partner
            won = q + partner
            out.append({"arm": arm.name, "rotation": r, "seat": s, "turn": turn, "player": p,
                        "policy": arm.policies[p], "win": q * (1 - t / 2) + partner / 2,
                        "points": won * spec.win_total + (1 - won) * (arm.mean_points[p] + tp[turn]),
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


def move_score_rate(move: np.ndarray) -> np.ndarray:
    """The true chance that the placement at a move number scores, in synthetic move data."""
    return np.minimum(0.05 * np.asarray(move, float), 0.5)


# ---- generation ------------------------------------------------------------------------------------
def _tier(moves: np.ndarray, bonus: list) -> np.ndarray:
    out = np.zeros(moves.shape, np.int16)
    done = np.zeros(moves.shape, bool)
    for last, pts in bonus:
        hit = ~done & ((moves <= last) if last is not None else True)
        out[hit] = pts
        done |= hit
    return out


def _keys(arm: int, names: list[str], d0: int, n: int, R: int) -> dict:
    return {"arm": fmt.strings(np.full(n * R, arm, np.int32), names),
            "deal": np.repeat(np.arange(d0, d0 + n, dtype=np.int64), R),
            "rotation": np.tile(np.arange(R, dtype=np.int8), n)}


def n_chunks(spec: SynthSpec) -> int:
    return -(-spec.deals // spec.chunk_size)


def chunk_columns(spec: SynthSpec, c: int) -> tuple[list[dict], list[dict]]:
    """The deals (and moves) columns of chunk c (simdom.results.DEALS, MOVES), one dict per arm."""
    d0 = c * spec.chunk_size
    n, P, R = min(spec.deals, d0 + spec.chunk_size) - d0, spec.players, spec.n_rot
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
    seat, rot = np.arange(P), np.arange(R)
    idx = np.broadcast_to(((seat[None, :] + rot[:, None]) % P)[None], (n, R, P))  # the player of each seat
    turn = (seat[None, :] - lead[:, None]) % P                                  # (n, P)
    tiles = plays_p.sum(axis=2)
    names = [a.name for a in spec.arms]
    deals, moves = [], []
    for a, arm in enumerate(spec.arms):
        rng = np.random.default_rng([spec.seed, d0, a + 1])
        E = rng.binomial(2 * spec.row_sd_half, 0.5, (n, R, P)) - spec.row_sd_half
        pi = np.cumsum(np.asarray(arm.win_weights, float) / np.sum(arm.win_weights))
        u_arm = np.where(rng.random((n, R)) < spec.arm_redraw, rng.random((n, R)), u_win)
        w_player = np.minimum(np.searchsorted(pi, u_arm, side="right"), P - 1)    # (n, R)
        w_seat = np.where(locked[:, None], ((lead + lock_turn) % P)[:, None], (w_player - rot[None, :]) % P)
        partner = (w_seat + 1 + np.floor(u_partner * (P - 1)).astype(int)) % P
        won = seat[None, None, :] == w_seat[..., None]
        won |= (u_tie < spec.tie)[..., None] & (seat[None, None, :] == partner[..., None])
        mp = np.asarray(arm.mean_points, float)[idx]
        loser = (mp + spec.turn_pts()[turn][:, None, :] + D[:, None, None] + E).round()
        pts = np.where(won, spec.win_total + D[:, None, None], loser).astype(np.int32)
        plays = np.take_along_axis(plays_p, idx, axis=2)
        sp = rng.binomial(plays, np.asarray(arm.score_rate or (0.3,) * P, float)[idx]).astype(np.int16)
        fd_move = np.minimum(1 + np.floor(u_fdmove * arm.fd_move_scale)[:, None], tiles).astype(np.int16)  # (n, R)
        tier = _tier(fd_move, preset(arm.preset, P).to_dict()["first_double_bonus"])  # not added to the points
        blocked = u_block < arm.blocked
        lost = has_fd[:, None, None] & (seat[None, None, :] != fd_seat[:, None, None]) & (dd > 0)
        no_fd = np.repeat(~has_fd, R)
        cols = _keys(a, names, d0, n, R)
        cols.update(first_seat=np.repeat(lead, R).astype(np.int8),
                    end=fmt.strings(blocked.astype(np.int8).reshape(-1), ["domino", "blocked"]),
                    winner=w_seat.reshape(-1), end_bonus=np.zeros(n * R, np.int16), tiles_placed=tiles.reshape(-1),
                    first_double_move=np.ma.masked_array(fd_move.reshape(-1), no_fd),
                    first_double_seat=np.ma.masked_array(np.repeat(fd_seat, R), no_fd))
        for name, v in (("points", pts), ("scoring_plays", sp), ("plays", plays), ("doubles_dealt", dd),
                        ("lost_first_double", lost)):
            for s in range(P):
                cols[f"{name}_{s}"] = np.ascontiguousarray(v[..., s]).reshape(-1)
        deals.append(cols)
        if spec.moves:
            moves.append(_moves(spec, a, rng, d0, n, tiles, np.repeat(lead, R), has_fd, fd_move, tier))
    return deals, moves


def _moves(spec, a, rng, d0, n, tiles, first_seat, has_fd, fd_move, tier) -> dict:
    P, R = spec.players, spec.n_rot
    count = tiles.reshape(-1).astype(np.int64)
    total = int(count.sum())
    starts = np.repeat(np.cumsum(count) - count, count)
    move = (np.arange(total) - starts + 1).astype(np.int16)
    dp = np.repeat(np.arange(n * R), count)
    seat = ((first_seat[dp] + move - 1) % P).astype(np.int8)
    scores = rng.random(total) < move_score_rate(move)
    fd = np.repeat(has_fd, R)[dp] & (fd_move.reshape(-1)[dp] == move)
    return {"arm": fmt.strings(np.full(total, a, np.int32), [x.name for x in spec.arms]),
            "deal": (d0 + dp // R).astype(np.int64), "rotation": (dp % R).astype(np.int8), "move": move,
            "seat": seat, "tile": fmt.strings(np.zeros(total, np.int32), ["3-6"]),
            "end": fmt.strings(np.where(move == 1, 0, 1), ["lead", "L"]),
            "ends": np.full(total, 3, np.int8), "ends_sum": np.full(total, 12, np.int16),
            "points": np.where(scores, 6, 0).astype(np.int16),
            "bonus": np.where(fd, tier.reshape(-1)[dp], 0).astype(np.int16)}


def manifest(spec: SynthSpec, chunks_done: list[int] | None = None, *, complete: bool = True) -> fmt.Manifest:
    done = list(range(n_chunks(spec))) if chunks_done is None else chunks_done
    m = fmt.Manifest(
        kind=fmt.KIND, format=fmt.FORMAT, simdom_version="0.1.0", sim_version=SIM_VERSION,
        scenario_name=spec.scenario_name, scenario={"name": spec.scenario_name, "synthetic": True},
        settings_hash="", seed=spec.seed, root_key=f"synth-{spec.seed}", deals=spec.deals,
        chunk_size=spec.chunk_size, n_chunks=n_chunks(spec), rotations=spec.n_rot,
        players=spec.players, tables=["deals", "moves"] if spec.moves else ["deals"],
        arms=[fmt.ArmEntry(name=a.name, rules=preset(a.preset, spec.players).to_dict(), preset=a.preset,
                           policies=list(a.policies)) for a in spec.arms],
        chunks_done=done, created="2024-01-01T00:00:00", complete=complete,
        finished="2024-01-01T00:00:01" if complete else None, **spec.extra)
    m.settings_hash = fmt.settings_hash(fmt.manifest_settings(m))  # as simdom run's: the readers check it
    return m


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


def _parts(spec: SynthSpec, c: int, m: fmt.Manifest) -> dict[str, bytes]:
    """Chunk c's parts as the Parquet bytes `simdom run` would write, by table."""
    deals, moves = chunk_columns(spec, c)
    return {t: fmt.encode(fmt.TABLES[t], spec.players, _concat(parts), m.settings_hash, c)
            for t, parts in (("deals", deals), ("moves", moves)) if parts}


def in_memory(spec: SynthSpec):
    """A :class:`simdom.stats.read.folder.ResultFrames` over the spec's rows without a folder: the parts are encoded
    as `simdom run` writes them, read back from memory and given the long view a folder gets."""
    import polars as pl

    from simdom.stats.read.folder import ResultFrames, move_view, seat_view

    m = manifest(spec)
    parts = [_parts(spec, c, m) for c in range(m.n_chunks)]
    read = {t: pl.concat([pl.read_parquet(io.BytesIO(p[t])) for p in parts]) for t in m.tables}
    moves = move_view(read["moves"].lazy(), m) if "moves" in read else None
    return ResultFrames.in_memory(m, seat_view(read["deals"].lazy(), m), moves, name=spec.scenario_name)


# ---- writing a results folder (the physical layout) -----------------------------------------------
def write_results(path: str | os.PathLike, spec: SynthSpec, *, complete: bool = True,
                  stop_after: int | None = None) -> Path:
    """Write a results folder (manifest + parts); ``stop_after`` chunks leaves it half-written."""
    root = Path(path)
    m = manifest(spec, [], complete=False)
    for t in m.tables:
        (root / t).mkdir(parents=True, exist_ok=True)
    done: list[int] = []
    final = manifest(spec, list(range(m.n_chunks)))
    for c in range(m.n_chunks if stop_after is None else stop_after):
        for t, data in _parts(spec, c, m).items():
            fmt.write_atomic(fmt.part_path(root, t, c), data)
            final.record(t, c, data)
        done.append(c)
    finished = complete and stop_after is None
    final.chunks_done, final.complete = done, finished
    final.finished = final.finished if finished else None
    fmt.write_atomic(root / fmt.MANIFEST, final.to_json())
    return root

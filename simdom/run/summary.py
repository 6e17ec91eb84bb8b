"""The run's summary: per arm and policy, a player's mean points and win rate per deal, and the paired
difference against the arm's baseline (the first arm with the same rules), each with a 95% interval.

Workers add up per-deal values chunk by chunk (:func:`chunk_sums`); the deal is the unit (its
rotations and its players of one policy are averaged first), so the interval is an ordinary one over
independent deals, and arm differences are paired deal by deal.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .plan import Plan

#: Per summary group: deals, and the sum and sum of squares of the per-deal mean points, of the win
#: share, and of their paired differences against the arm's baseline.
SUMS = ("n", "pts", "pts2", "win", "win2", "dpts", "dpts2", "dwin", "dwin2")


def by_player(x: np.ndarray, seating: tuple[tuple[int, ...], ...] = ()) -> np.ndarray:
    """Values shaped [arm, deal, rotation, seat] as [arm, deal, player], averaged over rotations (float64;
    with one rotation and the cyclic seating, the values themselves): in rotation r seat s plays player
    ``seating[r][s]`` (empty: (s + r) % players)."""
    R = x.shape[2]
    if R == 1 and not seating:
        return x[:, :, 0, :]  # a view: its players' means are taken in float64 (_players_mean)
    if not seating:
        return np.stack([np.roll(x[:, :, r, :], r, axis=-1) for r in range(R)]).mean(axis=0)
    out = np.zeros(x.shape[:2] + x.shape[3:], np.float64)
    for r, row in enumerate(seating):
        out[..., list(row)] += x[:, :, r, :]
    return out / R


def chunk_sums(plan: Plan, points: np.ndarray, win: np.ndarray) -> np.ndarray:
    """float64[groups, len(SUMS)]: the summary sums of a chunk from points and win shares shaped
    [arm, deal, rotation, seat]."""
    Xp, Xw = by_player(points, plan.seating), by_player(win, plan.seating)
    out = np.zeros((len(plan.groups()), len(SUMS)))
    for g, (a, _, players) in enumerate(plan.groups()):
        y, w = _players_mean(Xp[a], players), _players_mean(Xw[a], players)
        b = plan.baseline(a)
        if b == a:  # the baseline against itself: differences of zero
            dy = dw = np.zeros_like(y)
        else:
            dy, dw = y - _players_mean(Xp[b], players), w - _players_mean(Xw[b], players)
        out[g] = (len(y), y.sum(), (y * y).sum(), w.sum(), (w * w).sum(), dy.sum(), (dy * dy).sum(),
                  dw.sum(), (dw * dw).sum())
    return out


def _players_mean(x: np.ndarray, players: tuple[int, ...]) -> np.ndarray:
    """x[:, players].mean(axis=1), the same sum in the same order, column by column: a reduction over
    the short last axis is several times slower than adding its columns (docs/speed.md)."""
    y = x[:, players[0]].astype(np.float64, copy=True)
    for p in players[1:]:
        y += x[:, p]
    return y / len(players)


@dataclass(frozen=True)
class Estimate:
    value: float
    lo: float
    hi: float


def _mean(n: float, s1: float, s2: float) -> Estimate:
    from ..stats.inference import t_interval
    m = s1 / n
    var = max(s2 / n - m * m, 0.0) * n / max(n - 1, 1)
    lo, hi = t_interval(m, (var / n) ** 0.5, n - 1)
    return Estimate(m, float(lo), float(hi))


@dataclass(frozen=True)
class SummaryRow:
    arm: str
    policy: str
    players: tuple[int, ...]
    deals: int
    points: Estimate
    win: Estimate
    d_points: Estimate | None     #: paired difference against the baseline arm (None for the baseline)
    d_win: Estimate | None
    baseline: str


def summary_rows(plan: Plan, sums: np.ndarray) -> list[SummaryRow]:
    rows = []
    for (a, pol, players), v in zip(plan.groups(), sums):
        n = max(v[0], 1.0)
        base = plan.baseline(a)
        rows.append(SummaryRow(plan.arm_names[a], pol, players, int(v[0]), _mean(n, v[1], v[2]), _mean(n, v[3], v[4]),
                               _mean(n, v[5], v[6]) if a != base else None,
                               _mean(n, v[7], v[8]) if a != base else None, plan.arm_names[base]))
    return rows

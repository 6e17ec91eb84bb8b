"""Ratings of a ladder: Plackett-Luce on finishing orders, on an Elo scale, bootstrapped over deals.

A finishing order lists the items (policies) of one game from first to last. The Plackett-Luce model
gives item i a log-strength theta_i; the first finisher is i with probability
exp(theta_i) / sum over the game's items of exp(theta_j), the second is drawn the same way from the
rest, and so on. :func:`fit` finds the maximum a-posteriori theta under a weak Gaussian prior
(variance 1 / alpha, the form of choix's ``opt_rankings``: it keeps a policy that finishes first in every
game at a finite rating) by Newton's method on the distinct orders and their counts, so that a bootstrap
replicate (deals drawn with replacement, every seating of a drawn deal together) is only a new count
vector (:func:`ladder_ratings`).

On the Elo scale a unit of log-strength is 400 / ln 10 points, so that a rating difference of D
gives p(a finishes above b in a game of the two) = 1 / (1 + 10^(-D / 400)); one policy (the anchor) is
pinned at a stated rating. The spread, the standard deviation of the ratings (population form), is the
second measure of skill: the wider it is, the more the play decides (Duersch, Lambrecht and Oechssler
2020).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Elo points per unit of log-strength
ELO = 400 / math.log(10)
#: the prior's precision on each log-strength (variance 1 / ALPHA)
ALPHA = 0.01


def distinct_orders(orders: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct orders int[u, n], index int[...] of each given order among them) of int[..., n]."""
    flat = np.asarray(orders).reshape(-1, np.asarray(orders).shape[-1])
    uniq, inv = np.unique(flat, axis=0, return_inverse=True)
    return uniq, inv.reshape(np.asarray(orders).shape[:-1])


def fit(orders: np.ndarray, weights: np.ndarray | None, k: int, alpha: float = ALPHA,
        tol: float = 1e-10, max_iter: int = 100) -> np.ndarray:
    """float64[k]: the MAP log-strengths of items 0 .. k-1 from finishing orders int[m, n] (each row a
    game's items, first finisher first, no item twice in a row) with weights float[m] (counts; None: 1)."""
    orders = np.asarray(orders, dtype=np.int64)
    m, n = orders.shape
    w = np.ones(m) if weights is None else np.asarray(weights, dtype=np.float64)
    if alpha <= 0:
        raise ValueError(f"alpha = {alpha}; allowed: > 0")
    onehot = np.zeros((m, n, k))
    onehot[np.arange(m)[:, None], np.arange(n)[None, :], orders] = 1.0

    def objective(theta: np.ndarray) -> float:
        t = theta[orders]
        # log-sum-exp over the items not yet placed at each stage (the last stage has probability 1)
        rev = np.logaddexp.accumulate(t[:, ::-1], axis=1)[:, ::-1]
        return -float(w @ (t[:, :-1] - rev[:, :-1]).sum(axis=1)) + 0.5 * alpha * float(theta @ theta)

    theta = np.zeros(k)
    f = objective(theta)
    for _ in range(max_iter):
        t = theta[orders]
        grad = alpha * theta
        hess = alpha * np.eye(k)
        for j in range(n - 1):
            rest = t[:, j:]
            p = np.exp(rest - rest.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            full = np.einsum("ml,mlk->mk", p, onehot[:, j:, :])  # each item's chance at stage j
            grad += w @ (full - onehot[:, j, :])
            hess += np.diag(w @ full) - (full * w[:, None]).T @ full
        step = np.linalg.solve(hess, grad)
        # Newton with step halving: the objective is strictly convex, a full step almost always taken
        s = 1.0
        while True:
            new = theta - s * step
            fn = objective(new)
            if fn <= f + 1e-12 or s < 1e-8:
                break
            s /= 2
        done = abs(f - fn) < tol * max(1.0, abs(f)) and np.max(np.abs(new - theta)) < 1e-8
        theta, f = new, fn
        if done:
            break
    return theta


@dataclass
class Ladder:
    """Ratings of k policies and their bootstrap replicates (Elo scale, the anchor pinned)."""

    names: list[str]
    anchor: int                 #: index of the anchored policy
    anchor_rating: float
    rating: np.ndarray          #: float64[k]
    boot: np.ndarray            #: float64[B, k] ratings of the bootstrap replicates
    games: np.ndarray           #: int64[k] games (finishing orders) each policy took part in
    deals: int
    level: float = 0.95

    def interval(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Percentile interval of replicate values x[B, ...]."""
        a = (1 - self.level) / 2
        return np.quantile(x, a, axis=0), np.quantile(x, 1 - a, axis=0)

    def p_beats(self) -> np.ndarray:
        """float64[k, k]: p(a finishes above b in a game of the two) from the ratings."""
        return _p_beats(self.rating)

    def p_beats_boot(self) -> np.ndarray:
        return _p_beats(self.boot)

    @property
    def spread(self) -> float:
        return float(np.std(self.rating))

    def spread_boot(self) -> np.ndarray:
        return np.std(self.boot, axis=-1)


def _p_beats(r: np.ndarray) -> np.ndarray:
    d = r[..., :, None] - r[..., None, :]
    return 1 / (1 + 10 ** (-d / 400))


def to_elo(theta: np.ndarray, anchor: int, anchor_rating: float) -> np.ndarray:
    return anchor_rating + ELO * (theta - theta[..., anchor:anchor + 1])


def ladder_ratings(orders: np.ndarray, names: list[str], anchor: int = 0, anchor_rating: float = 1000.0,
                   bootstrap: int = 200, seed: int = 0, alpha: float = ALPHA, level: float = 0.95) -> Ladder:
    """Ratings from finishing orders int[deals, seatings, n] (policy indices, first finisher first) with
    bootstrap replicates over deals: each replicate draws ``deals`` deals with replacement and keeps every
    seating of a drawn deal."""
    orders = np.asarray(orders, dtype=np.int64)
    if orders.ndim != 3:
        raise ValueError(f"orders of shape {orders.shape}; allowed: [deals, seatings, players]")
    D = orders.shape[0]
    k = len(names)
    uniq, inv = distinct_orders(orders)
    per_deal = np.zeros((D, len(uniq)))
    np.add.at(per_deal, (np.repeat(np.arange(D), inv.shape[1]), inv.reshape(-1)), 1.0)
    total = per_deal.sum(axis=0)
    rating = to_elo(fit(uniq, total, k, alpha), anchor, anchor_rating)
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 0x1add]))
    boot = np.empty((bootstrap, k))
    for b in range(bootstrap):
        draw = np.bincount(rng.integers(0, D, D), minlength=D).astype(np.float64)
        boot[b] = to_elo(fit(uniq, draw @ per_deal, k, alpha), anchor, anchor_rating)
    games = np.bincount(orders.reshape(-1), minlength=k).astype(np.int64)
    return Ladder(list(names), anchor, float(anchor_rating), rating, boot, games, D, level)


def finishing_orders(points: np.ndarray, seatings: np.ndarray, seed: int, deal0: int = 0) -> np.ndarray:
    """int64[deals, seatings, players]: each game's policies from first to last by points (points
    int[deals, seatings, players] per seat, seatings int[S, players] the policy of each seat). Seats tied
    on points are ordered at random, the draws a function of (seed, deal) alone (one per seating and
    seat), so that no seat and no policy is favoured by the order of the seats."""
    points = np.asarray(points)
    D, S, n = points.shape
    out = np.empty((D, S, n), np.int64)
    pol = np.broadcast_to(np.asarray(seatings, np.int64), (D, S, n))
    for d in range(D):
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), int(deal0 + d), 0x71e5]))
        key = rng.random((S, n))
        # lexsort: the last key is the primary one (points, highest first), then the random draw
        idx = np.lexsort((key, -points[d].astype(np.int64)), axis=-1)
        out[d] = np.take_along_axis(pol[d], idx, axis=-1)
    return out

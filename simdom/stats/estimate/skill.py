"""The relative skill of Dreef, Borm and van der Genugten (2004), on per-deal results (pure numpy).

Three players take the same seat against the same opponents on the same deals: a beginner, an
optimal player (the best fair policy at hand) and a fictive player who knows the chance outcomes in
advance. With their expected results b, o and f:

* learning effect  LE = o - b,  random effect  RE = f - o,  skill = LE / (LE + RE) = (o - b) / (f - b).

Inference treats the deal as the cluster: the inputs are one value per deal and player (the mean
over the deal's rotations, or an array [deals, rotations] averaged here), so the rotations of a deal
and the three players on it are paired. LE and RE get Student t intervals on the per-deal
differences; the ratio gets Fieller's interval (the exact form of the delta method for a ratio of
paired means: the set of theta whose paired contrast LE_i - theta (LE_i + RE_i) has a mean within
its t interval of 0), or the delta method's symmetric one (``method="delta"``). Fieller's set is
unbounded when the denominator's own interval reaches 0; the bounds are then NaN.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from simdom.stats.inference import LEVEL, t_interval, t_quantile

METHODS = ("fieller", "delta")


@dataclass(frozen=True)
class SkillEstimate:
    beginner_value: float
    optimal_value: float
    fictive_value: float
    learning_effect: float
    learning_effect_lo: float
    learning_effect_hi: float
    random_effect: float
    random_effect_lo: float
    random_effect_hi: float
    skill: float
    skill_lo: float
    skill_hi: float
    deals: int

    def as_dict(self) -> dict:
        return asdict(self)


def per_deal(x) -> np.ndarray:
    """float64[deals]: the values as given (1-D), or their mean over the rotations (axis 1)."""
    a = np.asarray(x, dtype=float)
    if a.ndim == 2:
        a = a.mean(axis=1)
    if a.ndim != 1:
        raise ValueError(f"per-deal values: shape {a.shape}; allowed: [deals] or [deals, rotations]")
    return a


def skill_share(beginner, optimal, fictive, *, level: float = LEVEL, method: str = "fieller") -> SkillEstimate:
    """The skill share and its parts with ``level`` intervals, clustered by deal (module doc)."""
    if method not in METHODS:
        raise ValueError(f"method {method!r}; allowed: {', '.join(METHODS)}")
    b, o, f = per_deal(beginner), per_deal(optimal), per_deal(fictive)
    n = len(b)
    if not (len(o) == len(f) == n) or n < 2:
        raise ValueError(f"deals: {len(b)}, {len(o)} and {len(f)}; allowed: the same number, at least 2")
    le_i, re_i = o - b, f - o
    tot_i = le_i + re_i
    le, re, tot = le_i.mean(), re_i.mean(), tot_i.mean()
    df = n - 1
    se = lambda x: x.std(ddof=1) / np.sqrt(n)  # noqa: E731
    le_lo, le_hi = t_interval(le, se(le_i), df, level)
    re_lo, re_hi = t_interval(re, se(re_i), df, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = le / tot if tot != 0 else np.nan
    if method == "delta":
        psi = (le_i - s * tot_i) / tot if np.isfinite(s) else np.full(n, np.nan)
        lo, hi = t_interval(s, se(psi), df, level)
    else:
        lo, hi = fieller(le_i, tot_i, level)
    return SkillEstimate(float(b.mean()), float(o.mean()), float(f.mean()), float(le), float(le_lo), float(le_hi),
                         float(re), float(re_lo), float(re_hi), float(s), float(lo), float(hi), n)


def fieller(num_i: np.ndarray, den_i: np.ndarray, level: float = LEVEL) -> tuple[float, float]:
    """Fieller's interval for mean(num) / mean(den) from paired per-cluster values: (lo, hi), NaN when
    the set is unbounded (the denominator not distinguishable from 0)."""
    n = len(num_i)
    a, t = num_i.mean(), den_i.mean()
    c = np.cov(num_i, den_i, ddof=1) / n
    q2 = float(t_quantile(n - 1, level)) ** 2
    A = t * t - q2 * c[1, 1]
    B = a * t - q2 * c[0, 1]
    C = a * a - q2 * c[0, 0]
    if A <= 0:
        return float("nan"), float("nan")
    r = np.sqrt(max(B * B - A * C, 0.0))
    return float((B - r) / A), float((B + r) / A)


def synthetic(rng: np.random.Generator, deals: int, rotations: int, le: float, re: float, *,
              wins: bool = False, base: float = 5.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Results [deals, rotations] of a beginner, an optimal and a fictive player with the real structure:
    a deal's luck shared by the three and by its rotations, a seat's luck shared by the three, each
    player's own noise. Points: means base, base + le, base + le + re. Wins (0/1, a latent threshold):
    win probabilities 0.3, 0.3 + le, 0.3 + le + re (the known skill is le / (le + re) either way)."""
    shape = (deals, rotations)
    deal = rng.normal(0, 4.0, (deals, 1))
    seat = rng.normal(0, 3.0, shape)
    out = []
    for k, mean in enumerate((0.0, le, le + re)):
        own = rng.normal(0, 5.0, shape)
        if wins:
            from statistics import NormalDist
            nd = NormalDist()
            # latent z = (deal + seat + own) / sd, standard normal; win when z < the probability's quantile
            z = (deal + seat + own) / np.sqrt(16 + 9 + 25)
            out.append((z < nd.inv_cdf(0.3 + mean)).astype(float))
        else:
            out.append(base + mean + deal + seat + own)
    return out[0], out[1], out[2]

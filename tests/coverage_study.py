"""Helpers of the coverage studies (tests/test_stats_coverage.py, tests/test_stats_real.py): count, per
kind of interval, how often the printed 95% interval holds the truth. (Not named coverage.py: that
would shadow the coverage package numba imports.)"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import polars as pl

LOW, HIGH = 0.93, 0.97


class Hits:
    """Per kind of interval: how many intervals, how many held the truth."""

    def __init__(self) -> None:
        self.n: dict[str, int] = defaultdict(int)
        self.k: dict[str, int] = defaultdict(int)

    def add(self, kind: str, lo, hi, truth) -> None:
        """Count the intervals [lo, hi]; a degenerate one (lo == hi: a value fixed by construction, such
        as the win rate of identical players) is a fact, not an estimate, and is left out."""
        lo, hi, truth = (np.asarray(v, float).ravel() for v in (lo, hi, truth))
        ok = np.isfinite(lo) & np.isfinite(hi) & np.isfinite(truth) & (lo < hi)
        self.n[kind] += int(ok.sum())
        self.k[kind] += int(((lo <= truth) & (truth <= hi))[ok].sum())

    def frame(self, table: pl.DataFrame, kind: str, name: str, truth) -> None:
        self.add(kind, table[f"{name}_lo"].to_numpy(), table[f"{name}_hi"].to_numpy(), truth)

    def merge(self, other: "Hits") -> None:
        """Add another study's counts (the same study split over processes)."""
        for kind in other.n:
            self.n[kind] += other.n[kind]
            self.k[kind] += other.k[kind]

    def rates(self) -> dict[str, float]:
        return {k: self.k[k] / self.n[k] for k in self.n}

    def report(self) -> str:
        return "; ".join(f"{k}: {self.k[k] / self.n[k]:.3f} of {self.n[k]}" for k in sorted(self.n))

    def check(self) -> None:
        bad = {k: round(r, 4) for k, r in self.rates().items() if not LOW <= r <= HIGH}
        assert not bad, f"coverage outside [{LOW}, {HIGH}]: {bad}; all: {self.report()}"


def rejections(pvalues) -> tuple[float, int]:
    p = np.asarray(pvalues, float)
    p = p[np.isfinite(p)]
    return float((p < 0.05).mean()), len(p)

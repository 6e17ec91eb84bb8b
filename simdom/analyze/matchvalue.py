"""A rollout's end in the currency of a match: the mover's match equity (``simdom analyze --by match``,
docs/equity.md).

A deal of a match is valued by where it leaves the match: the scores before the deal (``--score A,B``)
plus each side's credited points (under ``deal_end`` the deal's totals, as the match credits them), then
the chance that the mover's side wins the match from there, read from the match equity table
(simdom/stats/matches/met.py) of the same rules and continuation policy. A side at or above the target
alone on the highest score has won (1), a side below a rival that is has lost (0); sides tied on the
highest score at or above the target play on, counted as a shared chance (1/2), which the table's
own tie values refine (met.py) and this module does not model.

Supported: 2 players (two sides), ``match_end = deal_end`` and ``next_lead = rules`` (who leads the next
deal does not depend on this one), the rules of every preset's match; other match rules are refused in
one line. The table is computed once for (rules, policy, deals, seed) and kept in simdom's cache folder.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from ..present import OptionError
from ..rules import Rules

#: deals the table is computed from when ``--by match`` needs one (a 2-player table to 100 in seconds)
TABLE_DEALS = 200_000
TABLE_SEED = 1


@dataclass(frozen=True)
class MatchValue:
    """The mover's match equity at the end of a deal: ``scores`` before it, by seat; ``grid[a, b]`` =
    P(seat 0 wins the match) at scores (a * step, b * step) before a deal; ``policy`` plays on."""

    rules: Rules
    scores: tuple[int, int]
    grid: np.ndarray
    step: int
    policy: str
    deals: int

    def equity(self, seat: int, points: np.ndarray, margin: np.ndarray) -> np.ndarray:
        """float64, the shape of ``points``: the match equity of ``seat`` when it ends the deal with
        ``points`` and ``margin`` (its points minus the other seat's)."""
        mine = self.scores[seat] + points.astype(np.int64)
        theirs = self.scores[1 - seat] + (points - margin).astype(np.int64)
        a, b = (mine, theirs) if seat == 0 else (theirs, mine)
        target = self.rules.target
        over = (a >= target) | (b >= target)
        k = self.grid.shape[0] - 1
        p0 = self.grid[np.clip(a // self.step, 0, k), np.clip(b // self.step, 0, k)]
        p0 = np.where(over, np.where(a > b, 1.0, np.where(a < b, 0.0, 0.5)), p0)
        return p0 if seat == 0 else 1.0 - p0

    def words(self) -> str:
        return (f"match equity at {self.scores[0]}-{self.scores[1]} in a match to {self.rules.target} (the "
                f"table of {self.deals:,} deals of {self.policy})")


def check(rules: Rules, scores: Sequence[int] | None) -> tuple[int, int]:
    """The scores before the deal for ``--by match``, checked: OptionError, one line."""
    if not rules.is_match:
        raise OptionError("--by match on rules without a target; allowed: --by points, margin or win, or rules "
                          "with a target (e.g. --set target=100)")
    if rules.players != 2 or str(rules.match_end) != "deal_end" or str(rules.next_lead) != "rules":
        raise OptionError(f"--by match with {rules.players} players, match_end = {rules.match_end}, next_lead = "
                          f"{rules.next_lead}; allowed: 2 players, deal_end and next_lead = rules (simdom equity "
                          "gives the table of the others)")
    if scores is None:
        scores = (0, 0)
    scores = tuple(scores)
    if len(scores) != 2 or not all(type(x) is int and 0 <= x < rules.target for x in scores):
        raise OptionError(f"--score {','.join(map(str, scores))}; allowed: 2 scores, one per side, each from 0 "
                          f"to {rules.target - 1} (below the target)")
    return scores  # type: ignore[return-value]


#: how a table is computed: (rules, policy, deals, seed) -> simdom.stats.matches.met.EquityTable (the
#: command line passes simdom.run.equity.equity, a layer above this one)
Solve = Callable[[Rules, str, int, int], object]


def match_value(rules: Rules, scores: Sequence[int] | None, policy: str, solve: Solve, deals: int = TABLE_DEALS,
                seed: int = TABLE_SEED) -> MatchValue:
    """The :class:`MatchValue` of a match's deal at ``scores`` (by seat), its table computed once by
    ``solve`` (and cached) for the rules of the match, ``policy`` in every seat."""
    s = check(rules, scores)
    grid, step = _grid(json.dumps(rules.to_dict(), sort_keys=True), policy, deals, seed, solve)
    return MatchValue(rules, s, grid, step, policy, deals)


@lru_cache(maxsize=8)
def _grid(rules_json: str, policy: str, deals: int, seed: int, solve: Solve) -> tuple[np.ndarray, int]:
    from ..engine.jitcache import cache_dir
    from ..rules import from_dict
    key = hashlib.sha256(f"{rules_json}|{policy}|{deals}|{seed}|1".encode()).hexdigest()[:20]
    path = cache_dir() / "equity" / f"{key}.npz"
    if path.exists():
        with np.load(path) as z:
            return z["grid"], int(z["step"])
    t = solve(from_dict(json.loads(rules_json)), policy, deals, seed)
    vals = t.values[:, t.leads.index(None), 0] if None in t.leads else t.values[:, 0, 0]
    grid = vals.reshape(t.size, t.size)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, grid=grid, step=t.step)
    tmp.replace(path)
    return grid, int(t.step)

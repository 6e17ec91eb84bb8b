"""Evaluate every legal move of a position by rollouts, with common random numbers and a stopping rule.

Each rollout is one world (a re-deal of what the seat to act cannot see, consistent with what it
knows, or the true deal with ``perfect``) in which every move is played out to the end of the deal
(engine/analysis.py). Per move: the mean final points of the seat to act, its mean margin over the
best other seat and its win rate, each with a 95% interval; per move and metric, the paired
difference against the best move (the same worlds and policy streams for every move).

With a Python policy among ``then`` (simdom/engine/pypolicy.py) and no ``rollouts`` given, a fixed
``PYTHON_ROLLOUTS`` rollouts (Python speed) and no stopping rule.

Stopping rule (no ``rollouts`` given): rollouts run in chunks that double (``MIN_ROLLOUTS``, then as
many again, ...) until the best move is separated from every other one, or ``budget`` rollouts are
spent (a first look after ``PEEK`` rollouts stops only if every difference is exact, as with the true
deal and deterministic policies). Separated from move j: the interval of the paired difference
(best - j) lies above 0 at a Bonferroni-adjusted level (95% over the n - 1 comparisons and over every
look the budget allows), or that difference has no variance at all (the two moves give the same, or
always the same difference, in every world). The reported intervals are plain 95% intervals.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..engine.analysis import MoveRollouts, Rollouts
from ..engine.codes import End
from ..engine.pypolicy import any_python
from ..stats.inference import t_interval, wilson
from .choices import Metric
from .position import Deal, Position

#: what every analysis measures (points, margin, win); ``match`` too when the position is a match's deal
#: valued at its scores (analyze/matchvalue.py)
METRICS = tuple(m.value for m in Metric if m.value != "match")
CURRENCIES = METRICS + ("match",)
MIN_ROLLOUTS = 10_000
#: a first look, that stops only when every difference has no variance (module doc)
PEEK = 100
BUDGET = 100_000
#: the most rollouts per kernel call (the outputs of one call stay small)
CHUNK_MAX = 50_000
LEVEL = 0.95
#: rollouts for a position with a single legal move (its value, no choice to make)
FORCED_ROLLOUTS = 1000
#: rollouts per position when a Python policy plays on (about 3 ms a rollout per move): no stopping rule
PYTHON_ROLLOUTS, PYTHON_FORCED_ROLLOUTS = 400, 100
#: the analysis's streams: root_key(seed) of the engine, xor this (not the deals' own streams)
STREAM_SALT = 0xA5A1_7515


@dataclass
class MoveValue:
    """One legal move's estimates; ``*_lo``/``*_hi`` bound the 95% interval."""

    tile: int
    end: End
    name: str                 #: "1-1 L"
    played: bool              #: the move the deal went on to play here
    mean_points: float
    mean_points_lo: float
    mean_points_hi: float
    diff_vs_best: float       #: mean points minus the best move's, paired
    diff_vs_best_lo: float
    diff_vs_best_hi: float
    mean_margin: float
    mean_margin_lo: float
    mean_margin_hi: float
    margin_diff_vs_best: float
    margin_diff_vs_best_lo: float
    margin_diff_vs_best_hi: float
    win_rate: float
    win_rate_lo: float
    win_rate_hi: float
    win_diff_vs_best: float
    win_diff_vs_best_lo: float
    win_diff_vs_best_hi: float
    #: with ``by="match"``: the mover's match equity (P(its side wins the match)), interval, paired difference
    match: float | None = None
    match_lo: float | None = None
    match_hi: float | None = None
    match_diff_vs_best: float | None = None
    match_diff_vs_best_lo: float | None = None
    match_diff_vs_best_hi: float | None = None


@dataclass
class Analysis:
    position: Position
    rows: list[MoveValue]     #: best first
    rollouts: int
    then: str
    by: str
    perfect: bool
    stopped: str              #: "fixed", "separated", "budget" or "forced"
    seed: int
    sampler_counted: int = 0  #: worlds the sampler dealt by counting (8 shuffles were inconsistent)
    currency: str = ""        #: with by="match": what a rollout's end is converted to, in words

    @property
    def best(self) -> MoveValue:
        return self.rows[0]

    def row(self, move: tuple[int, End]) -> MoveValue:
        return next(r for r in self.rows if (r.tile, r.end) == move)

    @property
    def rival(self) -> MoveValue | None:
        """The move the verdict compares with: the one played, if it is not the best, else the runner-up."""
        if len(self.rows) < 2:
            return None
        played = next((r for r in self.rows if r.played), None)
        return played if played is not None and played is not self.rows[0] else self.rows[1]


class _Acc:
    """Running sums of the rollouts' values per move and of the paired products (for differences)."""

    def __init__(self, n: int, match=None, seat: int = 0):
        self.n = 0
        self.match, self.seat = match, seat
        self.metrics = METRICS + (("match",) if match is not None else ())
        self.sums = {m: np.zeros(n) for m in self.metrics}
        self.cross = {m: np.zeros((n, n)) for m in self.metrics}
        self.counted = 0

    def add(self, r: Rollouts) -> None:
        self.n += len(r.points)
        values = (r.points, r.margin, r.win)
        if self.match is not None:   # each rollout's end as the mover's match equity
            values += (self.match.equity(self.seat, r.points, r.margin),)
        for m, x in zip(self.metrics, values):
            x = x.astype(np.float64)
            self.sums[m] += x.sum(axis=0)
            self.cross[m] += x.T @ x
        self.counted += int((r.sampler >= 8).sum())

    def mean(self, m: str) -> np.ndarray:
        return self.sums[m] / self.n

    def var(self, m: str) -> np.ndarray:
        """Sample covariance matrix of the moves' values."""
        mu = self.mean(m)
        if self.n < 2:
            return np.zeros_like(self.cross[m])
        return (self.cross[m] - self.n * np.outer(mu, mu)) / (self.n - 1)

    def diff(self, m: str, best: int) -> tuple[np.ndarray, np.ndarray]:
        """(mean, standard error) of value_j - value_best for every move j, paired."""
        c = self.var(m)
        d = self.mean(m) - self.mean(m)[best]
        v = np.diag(c) + c[best, best] - 2 * c[:, best]
        return d, np.sqrt(np.clip(v, 0, None) / self.n)

    def ranking(self, by: str, order: Sequence[int]) -> list[int]:
        """Moves best first by ``by`` (then points, margin, win; then the listed order)."""
        keys = [self.mean(by), self.mean("points"), self.mean("margin"), self.mean("win")]
        return sorted(order, key=lambda i: tuple(-round(float(k[i]), 12) for k in keys) + (i,))


def chunks(budget: int) -> list[int]:
    """The rollouts run before each look of the stopping rule: ``PEEK``, up to ``MIN_ROLLOUTS``, then
    doubling the total (at most ``CHUNK_MAX`` at a time), within ``budget``."""
    out, done = [], 0
    while done < budget:
        k = PEEK if done == 0 else MIN_ROLLOUTS - done if done < MIN_ROLLOUTS else min(done, CHUNK_MAX)
        k = min(k, budget - done)
        out.append(k)
        done += k
    return out


def separated(acc: _Acc, by: str, n_looks: int, exact_only: bool = False) -> bool:
    """The best move by ``by`` is separated from every other (module doc); with ``exact_only``, only
    by differences without variance."""
    from scipy.stats import norm

    n = len(acc.sums[by])
    if n < 2:
        return True
    best = acc.ranking(by, range(n))[0]
    d, se = acc.diff(by, best)
    z = norm.ppf(1 - (1 - LEVEL) / (2 * (n - 1) * n_looks))
    for j in range(n):
        if j == best:
            continue
        exact = se[j] <= 1e-12 * max(1.0, abs(d[j]))
        if not (exact or (not exact_only and d[j] + z * se[j] < 0)):
            return False
    return True


#: rollouts per position at most (analyze --rollouts, --budget; review --rollouts, --luck-rollouts): about
#: 20,000 a second on one core
MAX_ROLLOUTS = 1_000_000
from ..present import MAX_SEED  # noqa: E402 - the root seed of the rollouts at most


def check_options(*, rollouts: int | None, budget: int, seed: int, by: str, cli: bool = False) -> None:
    """The options of an analysis, one home for simdom analyze and the library (``cli``: named as the
    command's options): OptionError, one line naming the value and what is allowed."""
    from ..present import OptionError, bounded
    if by not in CURRENCIES:
        raise OptionError(f"{'--by ' if cli else 'by = '}{by!r}; allowed: {', '.join(CURRENCIES)}")
    if rollouts is not None:
        bounded("rollouts", rollouts, 2, MAX_ROLLOUTS, cli=cli, note=" (about a minute per position)")
    bounded("budget", budget, 1000, MAX_ROLLOUTS, cli=cli, note=" (about a minute per position)")
    bounded("seed", seed, 0, MAX_SEED, cli=cli)


def evaluate(position: Position, then: str | Sequence[str] = "greedy", seed: int = 1, rollouts: int | None = None,
             budget: int = BUDGET, perfect: bool = False, by: str = "points",
             progress: "Callable[[int, int], None] | None" = None, match=None) -> Analysis:
    """Evaluate every legal move of ``position`` (module doc). ``progress(done, planned)``: called after
    each chunk of rollouts (with it, fixed rollouts run in about 20 chunks; rollout j depends on j alone,
    so the values are the same in any chunking). ``by="match"`` needs ``match``, the position's deal valued
    at its match's scores (analyze/matchvalue.py ``match_value``)."""
    check_options(rollouts=rollouts, budget=budget, seed=seed, by=by)
    if (by == "match") != (match is not None):
        from ..present import OptionError
        raise OptionError("by = 'match' needs the match's scores (match = match_value(rules, scores, then)); "
                          "allowed: by = 'match' with match, or points, margin or win without it")
    moves = position.moves
    if not moves:
        raise ValueError(f"move {position.move}: the deal is over, no move to evaluate")
    ev = MoveRollouts(position.state, moves, then, seed, perfect=perfect, salt=STREAM_SALT)
    acc = _Acc(len(moves), match, position.seat)
    if rollouts is None and any_python(then):  # Python speed: a fixed count (docs/policies.md)
        rollouts = PYTHON_ROLLOUTS if len(moves) > 1 else PYTHON_FORCED_ROLLOUTS
    if rollouts is not None:
        stopped = "fixed"
        done = 0
        step = CHUNK_MAX if progress is None else max(100, min(CHUNK_MAX, -(-rollouts // 20)))
        while done < rollouts:
            k = min(rollouts - done, step)
            acc.add(ev.run(done, k))
            done += k
            if progress is not None:
                progress(done, rollouts)
    elif len(moves) == 1:
        stopped = "forced"
        acc.add(ev.run(0, FORCED_ROLLOUTS))
    else:
        stopped = "budget"
        sizes = chunks(budget)
        n_looks = max(1, len(sizes) - 1)  # the first look (PEEK) stops only on exact differences
        for i, k in enumerate(sizes):
            acc.add(ev.run(acc.n, k))
            if progress is not None:
                progress(acc.n, budget)
            if separated(acc, by, n_looks, exact_only=i == 0):
                stopped = "separated"
                break
    return Analysis(position, _rows(position, acc, by), acc.n, _then_text(then), by, perfect, stopped, seed,
                    acc.counted, match.words() if match is not None else "")


def analyze(where: "Deal | Position", move: int | None = None, *, then: str | Sequence[str] = "greedy", seed: int = 1,
            rollouts: int | None = None, by: str = "points", perfect: bool = False) -> Analysis:
    """:func:`evaluate` of a position, or of a deal's position just before placement ``move``: the
    library's ``simdom.analyze`` (simdom/api.py)."""
    from .position import as_position
    return evaluate(as_position(where, move), then, seed, rollouts, perfect=perfect, by=by)


def _then_text(then) -> str:
    return then if isinstance(then, str) else ", ".join(str(t) for t in then)


def _rows(position: Position, acc: _Acc, by: str) -> list[MoveValue]:
    n = len(position.moves)
    order = acc.ranking(by, range(n))
    best = order[0]
    R = acc.n
    df = R - 1
    out = {}
    for m in acc.metrics:
        mu = acc.mean(m)
        se = np.sqrt(np.clip(np.diag(acc.var(m)), 0, None) / R)
        lo, hi = wilson(mu, R) if m == "win" else t_interval(mu, se, df, LEVEL)
        d, dse = acc.diff(m, best)
        dlo, dhi = t_interval(d, dse, df, LEVEL)
        out[m] = (mu, lo, hi, d, dlo, dhi)
    rows = []
    for i in order:
        t, e = position.moves[i]
        p, mg, w = (tuple(float(np.asarray(a)[i]) for a in out[m]) for m in METRICS)
        eq = tuple(float(np.asarray(a)[i]) for a in out["match"]) if "match" in out else ()
        rows.append(MoveValue(t, e, position.name((t, e)), position.played == (t, e),
                              p[0], p[1], p[2], p[3], p[4], p[5], mg[0], mg[1], mg[2], mg[3], mg[4], mg[5],
                              w[0], w[1], w[2], w[3], w[4], w[5], *eq))
    return rows

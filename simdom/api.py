"""simdom as a Python library: rules, simulation and results as polars frames (docs/library.md).

Everything here is also reachable as ``simdom.NAME``; ``import simdom`` itself stays cheap (numba, numpy
and polars are loaded when a name that needs them is first used).

>>> import simdom
>>> rules = simdom.preset("threes", players=4)
>>> rules.players, rules.n_tiles
(4, 28)
>>> "fives" in simdom.PRESETS
True
>>> df = simdom.simulate(rules, ["greedy", "random", "greedy", "random"], deals=200, seed=1)
>>> df.height, df.columns[:3]
(200, ['deal', 'first_seat', 'end'])
>>> df.equals(simdom.simulate(rules, ["greedy", "random", "greedy", "random"], deals=200, seed=1))
True
>>> bool(df["points_0"].mean() > df["points_1"].mean())  # greedy outscores random
True

A results folder written by ``simdom run`` is read with :func:`open_results`; :meth:`Results.players`
has one row per arm, deal, rotation and player (docs/library.md shows it on a real run)::

    res = simdom.open_results("results/default")        # or "results/default:K=5", one arm
    res.players().group_by("arm", "player", "policy").agg(pl.col("points").mean())
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from .rules import PRESETS, Rules, RulesError, preset



class _Later:
    """A module named in this module's annotations, imported when ``typing.get_type_hints`` reads one
    (``pl.DataFrame``, ``position.Deal``): simdom.api itself imports neither polars nor numba."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import importlib
        return getattr(importlib.import_module(self._name), attr)


if TYPE_CHECKING:  # pragma: no cover
    import polars as pl

    from . import policies
    from .analyze import evaluate, position
    from .analyze import review as reviewing
    from .engine import solver
else:
    pl, policies, evaluate = _Later("polars"), _Later("simdom.policies"), _Later("simdom.analyze.evaluate")
    position, reviewing, solver = (_Later("simdom.analyze.position"), _Later("simdom.analyze.review"),
                                   _Later("simdom.engine.solver"))

__all__ = ["PRESETS", "Results", "Rules", "RulesError", "VIEWS", "analyze", "balance", "load_deal", "open_results",
           "preset", "review", "simulate", "solve"]

#: the views of a results folder that :meth:`Results.view` (and ``simdom export --view``) gives
VIEWS = ("players", "deals", "seats", "moves", "decisions", "matches", "course")


def _rules(rules: Rules | str, players: int | None) -> Rules:
    if isinstance(rules, Rules):
        if players is not None and players != rules.players:
            raise RulesError(f"players = {players} but the rules are for {rules.players} players; "
                             f"allowed: players={rules.players} or None")
        return rules
    if isinstance(rules, str):
        return preset(rules, players=4 if players is None else players)
    raise RulesError(f"rules = {rules!r}; allowed: a simdom.Rules or a preset name ({', '.join(PRESETS)})")


#: simulate() plays at most this many deals a call: its frame takes about 190 bytes a deal with 4 players (a
#: batch and its columns: about 1 GB here); more deals in several calls (``first_deal``), or ``simdom run``,
#: which writes any number of deals in chunks
MAX_SIMULATE_DEALS = 5_000_000
#: the first deal's number at most (as ``simdom trace --first-deal``)
MAX_FIRST_DEAL = 2**62


def check_deals(deals: int, first_deal: int, seed: int) -> None:
    """simulate()'s deals, first deal and seed, by the rule of every simdom option (simdom.present.bounded)."""
    from .present import MAX_SEED, bounded
    bounded("deals", deals, 1, MAX_SIMULATE_DEALS,
            note=" a call (about 1 GB); more: several calls with first_deal, or simdom run (chunked)")
    bounded("first_deal", first_deal, 0, MAX_FIRST_DEAL)
    bounded("seed", seed, 0, MAX_SEED)


def simulate(rules: Rules | str, policies: str | policies.Policy | Sequence[str | policies.Policy],
             deals: int, seed: int = 0, players: int | None = None, first_deal: int = 0) -> pl.DataFrame:
    """Play deals ``first_deal .. first_deal + deals - 1`` of the run with root ``seed``: one row per deal.

    ``rules``: a :class:`Rules` or a preset name (with ``players``, default 4). ``policies``: one policy
    for every seat, or one per seat (seat s plays ``policies[s]``; no rotation), as ``simdom run``
    accepts them (``"greedy"``, ``"hold:until=5"``, ...). Deal i depends only on the seed and i, so the
    rows equal those of any other batch holding deal i, and of ``simdom run`` with the same seed.

    Columns: ``deal``; the deal's ``first_seat``, ``end`` (``domino``, ``blocked`` or ``target``),
    ``winner`` (the hand winner: the seat that dominoed, or in a blocked deal the seat with the
    fewest pips; null: a tie), ``tiles_placed``, ``first_double_move``, ``first_double_seat``,
    ``spinner_move``, ``spinner_seat`` (null when there is none); per seat s: ``points_s``,
    ``play_points_s``, ``bonus_s``, ``end_bonus_s``, ``scoring_plays_s``, ``plays_s``, ``draws_s``,
    ``passes_s``, ``pips_left_s``, ``went_out_s``, ``doubles_dealt_s``, ``lost_first_double_s`` and
    ``win_s`` (1/k for each of the k seats tied on the highest total, else 0).

    >>> df = simulate("fives", "greedy", deals=3, seed=5, players=2)
    >>> df.select("deal", "points_0", "points_1", "win_0").shape
    (3, 4)
    >>> simulate("fives", "greedy", deals=0)
    Traceback (most recent call last):
    ...
    simdom.present.OptionError: deals = 0; allowed: an integer from 1 to 5,000,000 a call (about 1 GB); more: several calls with first_deal, or simdom run (chunked)
    """
    import numpy as np
    import polars as pl

    from .engine.pybatch import simulate_deals_any
    from .engine.api import win_shares
    from .engine.codes import DealEnd

    r = _rules(rules, players)
    check_deals(deals, first_deal, seed)
    batch = simulate_deals_any(r, policies, seed, int(first_deal), int(deals))
    P = r.players
    labels = DealEnd.labels()
    cols: dict[str, pl.Series] = {"deal": pl.Series(np.arange(first_deal, first_deal + deals, dtype=np.int64))}
    for name in ("first_seat", "end", "winner", "tiles_placed", "first_double_move", "first_double_seat",
                 "spinner_move", "spinner_seat"):
        v = batch.deals[name]
        if name == "end":
            cols[name] = pl.Series([labels[int(e)] for e in v], dtype=pl.String)
        elif name == "winner":
            cols[name] = pl.Series(v).cast(pl.Int8).set(pl.Series(v < 0), None)
        elif name in ("first_double_move", "first_double_seat", "spinner_move", "spinner_seat"):
            move = batch.deals[name.replace("_seat", "_move")]
            cols[name] = pl.Series(v).cast(pl.Int16 if name.endswith("move") else pl.Int8).set(
                pl.Series(move <= 0), None)
        else:
            cols[name] = pl.Series(v).cast(pl.Int16 if name == "tiles_placed" else pl.Int8)
    for name, v in batch.seats.items():
        for s in range(P):
            col = pl.Series(np.ascontiguousarray(v[:, s]))
            cols[f"{name}_{s}"] = col.cast(pl.Boolean) if name in ("went_out", "lost_first_double") else col
    win = win_shares(batch.seats["points"])
    for s in range(P):
        cols[f"win_{s}"] = pl.Series(win[:, s])
    return pl.DataFrame({k: v.alias(k) for k, v in cols.items()})


def load_deal(script: str | Path | None = None, *, trace: str | Path | None = None, deal: int | None = None,
              rules: Rules | str | None = None, players: int | None = None,
              policies: str | Sequence[str] = "greedy", seed: int = 1) -> position.Deal:
    """A deal to analyse, as ``simdom analyze`` takes it: a scripted deal (``script``, TOML), deal
    ``deal`` of a trace file (``trace``; its record is replayed and checked first), or deal ``deal`` of
    ``seed`` under ``rules`` played by ``policies`` (as ``simdom trace`` plays it). The deal's
    ``.position(N)`` is the position just before the N-th placement; ``.positions()`` gives every one.

    >>> d = load_deal("scenarios/seed-game.deal.toml")
    >>> d.rules.preset, d.rules.players, len(d.plays)
    ('threes', 4, 10)
    >>> load_deal(rules="fives", players=2, deal=3, seed=1).position(1).seat in (0, 1)
    True
    >>> load_deal()
    Traceback (most recent call last):
    ...
    ValueError: no deal given; allowed: script=FILE, trace=FILE with deal=I, or rules=... with deal=I
    """
    from .analyze.position import load_deal as load
    from .present import MAX_SEED, bounded

    if deal is not None:
        bounded("deal", deal, 0, MAX_FIRST_DEAL)
    bounded("seed", seed, 0, MAX_SEED)
    if script is None and trace is None and (rules is None or deal is None):
        raise ValueError("no deal given; allowed: script=FILE, trace=FILE with deal=I, or rules=... with deal=I")
    r = None if rules is None or script is not None or trace is not None else _rules(rules, players)
    pols = None if r is None else ([policies] * r.players if isinstance(policies, str) else list(policies))
    return load(script=script, trace_file=trace, deal=deal, rules=r, policies=pols, seed=seed)


def analyze(where: position.Deal | position.Position, move: int | None = None, *,
            then: str | Sequence[str] = "greedy", seed: int = 1, rollouts: int | None = None, by: str = "points",
            perfect: bool = False) -> evaluate.Analysis:
    """Every legal move of the seat to act valued by rollouts, as ``simdom analyze``: the hidden tiles
    re-dealt consistently with what the seat has seen (``perfect``: the true deal), every move placed
    and the deal played out by ``then``. ``rollouts=None``: until the best move is separated (at most
    the budget), else exactly that many. ``.rows`` best first, each with ``mean_points`` and its 95%
    interval ``mean_points_lo``/``_hi``, ``diff_vs_best`` (paired), the margin and the win rate.

    >>> seed_game = load_deal("scenarios/seed-game.deal.toml")
    >>> a = analyze(seed_game, move=10, rollouts=400, seed=1)
    >>> a.position.seat, a.rollouts, a.best.name
    (1, 400, '1-1 L')
    >>> a.row(a.position.played).name, a.row(a.position.played).diff_vs_best < 0
    ('1-5 L', True)
    """
    from .analyze.evaluate import analyze as run
    return run(where, move, then=then, seed=seed, rollouts=rollouts, by=by, perfect=perfect)


def solve(where: position.Deal | position.Position, move: int | None = None, *, by: str = "margin",
          against: str | Sequence[str] | None = None, limit: int | None = 20_000_000) -> solver.Solution:
    """The exact value of every legal move with every hand and the boneyard known, as ``simdom solve``:
    minimax (the mover's side maximises, every other seat minimises), or ``against`` a deterministic
    policy the other seats play. ``.moves`` best first (``tile``, ``end``, ``value``), ``.value``,
    ``.nodes``, ``.seconds``; over ``limit`` positions a ``ValueError`` (None: no limit).

    >>> sol = solve(load_deal("scenarios/seed-game.deal.toml"), move=10)
    >>> sol.seat, sol.by, [m.value for m in sol.moves][:4]
    (1, 'margin', [-10, -10, -18, -18])
    """
    from .analyze.position import as_position
    from .analyze.solve import solve_position
    pos = as_position(where, move)
    against_list = None if against is None else ([against] if isinstance(against, str) else list(against))
    return solve_position(pos, by=by, against=against_list, limit=limit)


def review(deal: position.Deal, *, then: str | Sequence[str] = "greedy", seed: int = 1, rollouts: int = 4000,
           luck_rollouts: int = 1000, names: Sequence[str] | None = None) -> reviewing.Review:
    """Every decision and chance event of a deal reviewed, as ``simdom review``: ``.decisions`` (each
    with the played and the best move, the error and its 95% interval, and its mark), ``.luck`` (the
    deal and each draw) and ``.players`` (per seat: error total, luck, points).

    >>> r = review(load_deal("scenarios/seed-game.deal.toml"), rollouts=300, luck_rollouts=100)
    >>> len(r.decisions), [p.name for p in r.players]
    (10, ['Alexander', 'Maria', 'Nikita', 'Tatiana'])
    """
    from .analyze.position import Deal
    from .analyze.review import review as run
    if not isinstance(deal, Deal):
        raise TypeError(f"{type(deal).__name__} is not a deal; allowed: simdom.load_deal(...)")
    return run(deal, then, seed, rollouts, luck_rollouts, names)


def equity(rules: "Rules | str", players: int | None = None, *, policy: "str | Sequence[str]" = "greedy",
           deals: int = 1_000_000, seed: int = 1, progress=None):
    """The match equity table of a match's rules (docs/equity.md), a
    :class:`simdom.stats.matches.met.EquityTable`: P(each side wins the match) at every score before a deal
    and each lead the rules make known (``table.win([60, 90])``, ``table.rows()``), solved by dynamic
    programming over exact scores from ``deals`` deals played by ``policy`` in every seat (or one per seat).
    Checked as ``simdom equity`` checks: RulesError for rules without a target, OptionError for deals (1,000
    to 20,000,000) or a seed out of range, PolicyError for an unknown policy. ``progress(stage, done, total)``:
    stage ``deals``, then ``scores``."""
    from .run.equity import equity as solve_equity
    return solve_equity(_rules(rules, players), policy, deals, seed, progress)


__all__ += ["equity"]


@dataclass(frozen=True)
class Results:
    """A results folder written by ``simdom run`` (or one arm of it), verified; see :func:`open_results`.

    One convention: a property is one fact of the whole folder (``path``, ``label``, ``unit``, ``rotations``,
    ``players_per_deal``); a method gives what is per arm or per row (``arms()``, ``policies()``,
    ``rules(arm)``, ``variants()``, ``deals()``, ``players()``, ``view(name)``, ``views()``)."""

    path: Path
    label: str
    _res: object   # simdom.stats.read.folder.ResultFrames
    _wide: pl.LazyFrame

    def arms(self) -> list[str]:
        """The arms in the scenario's order (a sweep's variants, the baseline first)."""
        return list(self._res.arm_names)

    def rules(self, arm: str | None = None) -> Rules:
        """The arm's :class:`Rules` (``arm`` None: the first arm, a sweep's baseline); ValueError naming the
        arms for another name."""
        from dataclasses import replace

        from .rules import from_dict
        entries = {a["name"]: a for a in self._res.arms}
        a = entries.get(self.arms()[0] if arm is None else arm)
        if a is None:
            raise ValueError(f"arm {arm!r} is not in {self.label}; allowed: {', '.join(entries)}")
        return replace(from_dict(a["rules"]), preset=a["preset"])

    def variants(self) -> pl.DataFrame:
        """One row per arm, in the scenario's order: ``arm``, ``players``, ``policies`` (one per player),
        ``preset``, then a column for every rule parameter as the manifest records the arm's rules (swept
        ones included; ``hand_size`` and ``boneyard_reserve`` a struct by player count, docs/rules.md 11)."""
        import polars as pl

        rows = [{"arm": a["name"], "players": self._res.players, "policies": list(a["policies"]),
                 "preset": a["preset"], **{k: v for k, v in a["rules"].items() if k != "players"}}
                for a in self._res.arms]
        return pl.DataFrame(rows, infer_schema_length=None)

    @property
    def players_per_deal(self) -> int:
        return self._res.players

    @property
    def rotations(self) -> int:
        """Times each deal is played: the number of players with ``rotation = true``, the distinct
        arrangements of the policies with ``"all"``, else 1."""
        return self._res.rotations

    @property
    def unit(self) -> str:
        """``deal``, or ``match`` for a run of matches."""
        return self._res.unit.value

    def policies(self) -> dict[str, list[str]]:
        """Each arm's policies, by player (player p plays ``policies[arm][p]`` in every rotation)."""
        return {a["name"]: list(a["policies"]) for a in self._res.arms}

    def deals(self) -> pl.LazyFrame:
        """The deals table as written: one row per arm, deal and rotation, per-seat columns ``points_0`` ..
        (seat 0 first: under rotation, seat s is player (s + rotation) % players, not player s; with
        ``rotation = "all"`` the manifest's ``seating[rotation][seat]``)."""
        return self._wide

    def players(self) -> pl.LazyFrame:
        """One row per arm, deal, rotation and player, in that order: ``arm``, ``deal``, ``rotation``,
        ``player``, ``seat`` (where the player sat: (player - rotation) % players, or as the seating
        says), ``policy``, ``points``,
        ``win`` (1/k for each of the k seats tied on the highest total), then the seat's other columns
        (``scoring_plays``, ``plays``, ``doubles_dealt``, ``lost_first_double``, ``bonus``, ``end_bonus``,
        ``play_points``, ``went_out``, ``leader``, ``turn``) and the deal's (``first_seat``, ``end``,
        ``winner``, ...). A run of matches adds ``match``, ``hand``, ``side`` and the match columns
        (``deal`` is then a deal id, see docs/results.md)."""
        import polars as pl

        arms = self.arms()
        arm_index = pl.col("arm").replace_strict(arms, list(range(len(arms))), return_dtype=pl.Int32)
        first = ["arm", "deal", "rotation", "player", "seat", "policy", "points", "win"]
        lf = self._res.deals
        rest = [c for c in lf.collect_schema().names() if c not in first]
        return lf.sort(arm_index, "deal", "rotation", "player").select(*first, *rest)

    def view(self, name: str) -> pl.LazyFrame:
        """A view by name (:data:`VIEWS`): ``players``, ``deals``, or a table the run wrote (``seats``,
        ``moves``, ``decisions``, ``matches``, ``course``); ValueError naming the views this folder has."""
        have = self.views()
        if name not in have:
            raise ValueError(f"view {name!r} is not in {self.label}; allowed: {', '.join(have)}")
        if name == "players":
            return self.players()
        if name == "deals":
            return self.deals()
        return getattr(self._res, name)

    def views(self) -> list[str]:
        """The views this folder has (players and deals always; the other tables if the run wrote them)."""
        return ["players", "deals"] + [v for v in VIEWS[2:] if getattr(self._res, v) is not None]


def balance(path: str | Path | Sequence[str | Path], threshold: float = 1.0) -> pl.DataFrame:
    """The balance scorecard of a rule study, as ``simdom balance --format csv`` writes it: one row per
    variant and measure, ``value`` with its 95% interval (``low``, ``high``) clustered by deal, and for each
    variant but the baseline its paired difference from the baseline on the same deals (``diff``,
    ``diff_low``, ``diff_high``), the p-value Holm-adjusted over the folder's variants x measures
    (``p_holm``) and ``flag`` (significant and larger than ``threshold``: points for a share, percent of
    the baseline for a mean). ``path``: a results folder, a study folder (one ``Np`` folder per player
    count: each its own family), ``FOLDER:ARM1,ARM2``, or a list of them. Shares are fractions."""
    import polars as pl

    from .present import OptionError
    from .stats.tables.balance import rows, studies
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 100:
        raise OptionError(f"threshold = {threshold!r}; allowed: a number from 0 to 100")
    paths = [str(path)] if isinstance(path, (str, Path)) else [str(p) for p in path]
    return pl.DataFrame(rows(studies(paths, float(threshold))), infer_schema_length=None)


def open_results(path: str | Path) -> Results:
    """A results folder written by ``simdom run``, or one arm of it written ``FOLDER:ARM``, each part
    verified against the manifest first. Raises :class:`simdom.results.ResultsError` (a ValueError)
    naming the problem: no such folder, not simdom's, half-written, changed, or no such arm. A folder played
    by another behaviour version is read, with a one-line note on stderr.

    >>> open_results("no/such/folder")
    Traceback (most recent call last):
    ...
    simdom.results.folder.ResultsError: results folder no/such/folder does not exist (write one with `simdom run`)
    """
    from .engine.api import SIM_VERSION
    from .stats.read import PLAYING
    from .stats.read.folder import open_selection

    PLAYING["sim_version"] = SIM_VERSION  # a folder of another behaviour version is read with a note on stderr
    res = open_selection(path)
    return Results(res.path, res.name, res, res.wide)

"""The statistics commands: stats, seats, doubles, compare, report, balance. ``register(app)`` adds them to a Typer app."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .common import OLD_FORCE_OPT, OLD_OUTPUT_OPT, console, fail

# The statistics modules (polars) are imported inside the commands: every simdom command (`simdom run`
# too) loads this module to register the commands, and should not pay polars' import; the names the
# commands accept come from simdom/stats/names.py, which imports nothing.
from ..stats.names import (BY_COLUMNS, DECISION_SITUATIONS, DOUBLES_TABLES, FORMATS, MATCH_BY_COLUMNS,  # noqa: F401
                           MATCH_TABLES, MOVE_BY_COLUMNS, STATS_TABLES)

StatsFormat = Enum("StatsFormat", {f: f for f in FORMATS}, type=str)  # --help lists them
FORMAT_HELP = (f"output format: {', '.join(FORMATS)} (default: table, or from the -o suffix); json, csv and "
               "parquet keep full precision")


def _fail(msg: str) -> None:
    fail(msg)


def _open(paths: list[str]):
    """Results folders, or arms of them (FOLDER:ARM), as every command that reads results takes them."""
    from simdom.stats.read.folder import open_selection
    return [open_selection(p) for p in paths]


def _emit(ans, fmt: str, out: Optional[Path]) -> None:
    from simdom.present import emit
    emit(ans, fmt, out)


OUT_OPT = typer.Option(None, "-o", "--out", help="write to this file instead of the terminal")
FORCE_OPT = typer.Option(False, "--overwrite", help="overwrite an existing -o file")
FORMAT_OPT = typer.Option(None, "--format", "-f", case_sensitive=False, help=FORMAT_HELP)


def stats(
    results: List[str] = typer.Argument(..., help="results folder(s) written by `simdom run`, or arms of "
                                        "them: FOLDER:ARM"),
    by: Optional[str] = typer.Option(None, "--by", help=f"group keys, comma-separated: {', '.join(BY_COLUMNS)} "
                                     "(default: arm, and policy where an arm's players differ; with --moves: arm "
                                     "and the move number)"),
    moves: bool = typer.Option(False, "--moves", help="the scoring rate by move number (needs `simdom run --moves`)"),
    table: Optional[str] = typer.Option(None, "--table", help=f"which table a file holds: {', '.join(STATS_TABLES)} "
                                        "(paired: arms against the baseline arm, Holm-adjusted; default groups); "
                                        f"for match results: {', '.join(MATCH_TABLES)} (--by for wins: "
                                        f"{', '.join(MATCH_BY_COLUMNS)})"),
    bins: Optional[int] = typer.Option(None, "--bins", help="match results, --table equity: score bins per axis "
                                       "(2 to 50, default 10)"),
    fmt: Optional[StatsFormat] = FORMAT_OPT,
    out: Optional[Path] = OUT_OPT,
    force: bool = FORCE_OPT,
    output: Optional[Path] = OLD_OUTPUT_OPT,
    old_force: bool = OLD_FORCE_OPT,
) -> None:
    """Points, win rates, scoring rates per arm and policy, each with a 95% interval; the answer first.

    Arms of one run that differ only in one player's policy (a K sweep, a policy ladder) or only in
    their rules (a preset sweep) are also compared with the first arm, paired by deal, with
    Holm-adjusted p-values.

    Examples:

      simdom stats results/default

      simdom stats results/policies --table paired --format json -o ladder.json

      simdom stats results/balance-4p --by arm,turn

      simdom stats results/threes-vs-fives --moves --format csv -o by_move.csv

      simdom stats results/fives-match-2p      # match results: who wins the match

      simdom stats results/fives-match-2p --table equity --format csv -o equity.csv
    """
    from simdom.stats.tables.stats import InputError
    out, force = out or output, force or old_force  # the old spellings --output and --force
    from simdom.stats.views.output import check_writable, resolve_format
    from simdom.stats.tables.stats import parse_by
    from simdom.stats.views.stats import moves_answer, stats_answer
    f = resolve_format(fmt and fmt.value, out)
    check_writable(out, force)
    if bins is not None and table != "equity":  # an option of another mode: refused, not ignored
        raise InputError("--bins sets the score bins of the match-equity table; allowed: --bins with --table equity")
    if moves and table is not None:
        raise InputError(f"--table {table} and --moves are two answers; allowed: one of them (--moves: the scoring "
                         "rate by move number)")
    res = _open(results)
    if any(r.unit.is_match for r in res) and not moves:
        from .matchstats import stats_matches
        return stats_matches(res, by, table, 10 if bins is None else bins, f, out)
    table = table or "groups"
    if table not in STATS_TABLES:
        raise InputError(f"bad --table {table!r}; allowed: {', '.join(STATS_TABLES)} (match tables "
                         f"{', '.join(MATCH_TABLES)} need match results: rules with target > 0)")
    if moves:
        ans = moves_answer(res, parse_by(by, MOVE_BY_COLUMNS))
    else:
        ans = stats_answer(res, None if by is None else parse_by(by, BY_COLUMNS), table)
    _emit(ans, f, out)


def seats(
    results: str = typer.Argument(..., help="a results folder written by `simdom run`, or one arm: FOLDER:ARM"),
    fmt: Optional[StatsFormat] = FORMAT_OPT,
    out: Optional[Path] = OUT_OPT,
    force: bool = FORCE_OPT,
    output: Optional[Path] = OLD_OUTPUT_OPT,
    old_force: bool = OLD_FORCE_OPT,
) -> None:
    """Seat and turn-order advantage: win rate and points by seat and by turn, with a Wald test.

    Per arm, by absolute seat and by turn order (1st to act = the leader), with 95% intervals clustered
    by deal and a cluster-robust Wald test that all positions are equal.

    --format json writes {"positions": [...], "tests": [...]}; csv and parquet the positions.

    Examples:

      simdom seats results/default

      simdom seats results/balance-4p --format json -o seats.json
    """
    out, force = out or output, force or old_force  # the old spellings --output and --force
    from simdom.stats.views.output import check_writable, resolve_format
    from simdom.stats.views.stats import seats_answer
    f = resolve_format(fmt and fmt.value, out)
    check_writable(out, force)
    from simdom.stats.read.folder import open_selection
    _emit(seats_answer(open_selection(results)), f, out)


def doubles(
    results: Optional[str] = typer.Argument(None, help="a Threes results folder (a double-timing sweep for the "
                                            "sweep tables), or one of its arms: FOLDER:ARM (none with --exact)"),
    decisions: bool = typer.Option(False, "--decisions", help="the conditional hold table: the value of holding the "
                                   "first double by situation (needs `simdom run --decisions`)"),
    by: Optional[str] = typer.Option(None, "--by", help="with --decisions: the situations crossed in the grid, "
                                     f"comma-separated: {', '.join(DECISION_SITUATIONS)} (default "
                                     "tier,double_support; without --by the answer also searches every "
                                     "situation, pair and triple with the lead, Holm across every cell)"),
    table: Optional[str] = typer.Option(None, "--table", help=f"which table: {', '.join(DOUBLES_TABLES)} "
                                        "(terminal default: all that apply; files: sweep, or by-move without a "
                                        "sweep, or with --decisions the decisions table)"),
    exact: bool = typer.Option(False, "--exact", help="with every hand known: deals played by --policy to their "
                               "first first-double decision, solved exactly, holding against the best double"),
    rules: Optional[str] = typer.Option(None, "--rules", "-r", help="with --exact: the preset (default threes)"),
    players: Optional[int] = typer.Option(None, "--players", "-n", min=2, max=4, help="with --exact: players, 2 "
                                          "to 4 (default 4)"),
    deals: Optional[int] = typer.Option(None, "--deals", "-d", min=1, max=1_000_000, help="with --exact: deals 0 "
                                        "to N-1 (default 500)"),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", min=0, max=2**63 - 1, help="with --exact: the root "
                                       "seed (default 1)"),
    policy: Optional[List[str]] = typer.Option(None, "--policy", "-p", help="with --exact: the policy playing "
                                               "every seat up to the decision, or one per seat (default greedy)"),
    against: Optional[str] = typer.Option(None, "--against", help="with --exact: after the decision the other "
                                          "seats minimise (minimax, the default) or play greedy"),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="with --exact: most positions a solve may "
                                        "search (default 20,000,000); a position over it is counted as skipped"),
    overrides: Optional[List[str]] = typer.Option(None, "--set", help="with --exact: override a rule parameter "
                                                  "(repeatable)"),
    fmt: Optional[StatsFormat] = FORMAT_OPT,
    out: Optional[Path] = OUT_OPT,
    force: bool = FORCE_OPT,
    output: Optional[Path] = OLD_OUTPUT_OPT,
    old_force: bool = OLD_FORCE_OPT,
) -> None:
    """The value of holding the first double in Threes.

    For a sweep (arms differing only in the focal player's hold:until=K): per K, the paired change in the
    focal player's mean points and win rate against K=1 (Holm-adjusted over the K arms), the bonus lost,
    the best K. On any Threes results: the first double by move number and the outcome by who took it
    (associations, not effects of a choice). With --decisions (results of `simdom run --decisions`): the
    value of holding the first double by situation (bonus tier now and a round later, the double's support,
    doubles held, doubles an opponent may hold, turn order), from the rollout difference after simdom run
    --decision-rollouts, else as played; a grid of bonus tier by support (the report's heatmap).

    Examples:

      simdom doubles results/default

      simdom doubles results/decisions-4p --decisions

      simdom doubles results/decisions-4p:greedy --decisions --table decision-grid --format csv -o grid.csv

      simdom doubles results/decisions-2p:greedy --decisions --by lead,double_support,doubles_held

      simdom doubles results/default --table best --format json -o best.json

      simdom doubles results/threes-vs-fives --table by-move --format csv -o first_double.csv

      simdom doubles --exact -r threes -n 2 --deals 1000 --seed 5
    """
    out, force = out or output, force or old_force  # the old spellings --output and --force
    if exact or results is None:
        _exact_doubles(exact, results, decisions, by, table, rules, players, deals, seed, policy, against, limit,
                       overrides, fmt and fmt.value, out, force)
        return
    exact_only = {"--rules": rules, "--players": players, "--deals": deals, "--seed": seed, "--policy": policy,
                  "--against": against, "--limit": limit, "--set": overrides}
    given = [k for k, v in exact_only.items() if v not in (None, [], ())]
    if given:
        _fail(f"{given[0]} applies to --exact, which plays and solves its own deals; allowed: simdom doubles "
              f"RESULTS without it (the rules and players are the results'), or simdom doubles --exact {given[0]} ...")
    from simdom.stats.read.folder import open_selection
    from simdom.stats.views.doubles import doubles_keys, doubles_view
    from simdom.stats.views.output import check_writable, resolve_format
    f = resolve_format(fmt and fmt.value, out)
    keys = doubles_keys(decisions, by, table, DECISION_SITUATIONS)
    check_writable(out, force)
    every = f in ("table", "md") and out is None  # people at a terminal: every table that applies
    _emit(doubles_view(open_selection(results), results, decisions, keys, table, every), f, out)


def _exact_doubles(exact, results, decisions, by, table, rules, players, deals, seed, policy, against, limit,
                   overrides, fmt, out, force) -> None:
    """simdom doubles --exact: the view with every hand known (simdom/analyze/exactdoubles.py)."""
    if not exact:
        _fail("a results folder is needed; allowed: simdom doubles RESULTS (a folder that simdom run wrote), or "
              "simdom doubles --exact to solve first-double decisions with every hand known")
    if results is not None or decisions or by is not None or table is not None:
        _fail("--exact plays and solves its own deals; allowed: --exact with -r, -n, --deals, --seed, --policy, "
              "--against, --limit, --set (no results folder, --decisions, --by or --table)")
    against = against or "minimax"
    if against not in ("minimax", "greedy"):
        _fail(f"--against {against!r}; allowed: minimax, greedy")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from simdom.analyze.exactdoubles import decisions as exact_decisions
    from simdom.analyze.exactdoubles import exact_answer
    from simdom.stats.views.output import check_writable, resolve_format

    from .common import err, make_policies, make_rules
    players, deals, seed = players or 4, deals or 500, 1 if seed is None else seed
    r = make_rules(rules or "threes", players, overrides)
    pols = make_policies(policy or ["greedy"], players)
    f = resolve_format(fmt, out)
    check_writable(out, force)
    name = ", ".join(dict.fromkeys(map(str, pols)))
    with Progress("solving", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  transient=True) as bar:
        task = bar.add_task("solving", total=deals)
        found = list(exact_decisions(r, pols, seed, deals, against=against, limit=limit or 20_000_000,
                                     progress=lambda: bar.advance(task)))
    _emit(exact_answer(r, name, seed, deals, found, against=against), f, out)


def compare(
    results_a: str = typer.Argument(..., help="results folder A (e.g. Threes), or one of its arms: FOLDER:ARM"),
    results_b: str = typer.Argument(..., help="results folder B (e.g. Fives), or one of its arms: FOLDER:ARM"),
    strong: Optional[str] = typer.Option(None, "--strong", help="policy whose win-rate edge over random is the "
                                         "skill gap (default: greedy)"),
    fmt: Optional[StatsFormat] = FORMAT_OPT,
    out: Optional[Path] = OUT_OPT,
    force: bool = FORCE_OPT,
    output: Optional[Path] = OLD_OUTPUT_OPT,
    old_force: bool = OLD_FORCE_OPT,
) -> None:
    """Two results side by side: each estimate and the difference A - B, with intervals and p-values.

    Per arm pair and per policy (never pooled across rule sets): each estimate, the difference A - B
    with its 95% interval and Holm-adjusted p-value.

    A side is a results folder, or one arm of one (FOLDER:ARM); two arms of one run share their deals,
    so their comparison is paired. Folders with several arms are paired arm by arm (same names).

    Examples:

      simdom compare results/threes-vs-fives:threes results/threes-vs-fives:fives

      simdom compare results/balance-4p:threes results/balance-4p:muggins

      simdom compare results/balance-2p:threes results/balance-2p:fives --format md -o threes_vs_fives.md
    """
    from simdom.stats.tables.stats import InputError
    out, force = out or output, force or old_force  # the old spellings --output and --force
    from simdom.stats.read.folder import open_selection
    from simdom.stats.views.output import check_writable, resolve_format
    from simdom.stats.views.pairs import compare_answer
    if strong is not None:
        from ..policies import PolicyError, parse_policy
        try:
            strong = str(parse_policy(strong))  # the canonical text, as the manifests record it
        except PolicyError as e:
            _fail(f"--strong: {e}")
    f = resolve_format(fmt and fmt.value, out)
    check_writable(out, force)
    a, b = open_selection(results_a), open_selection(results_b)
    if a.path.resolve() == b.path.resolve() and a.arm_names == b.arm_names:
        raise InputError(f"A and B are the same results ({results_a}); compare two folders or two arms "
                         "of one (FOLDER:ARM)")
    if a.unit.is_match or b.unit.is_match:
        from .matchstats import compare_matches_cmd
        return compare_matches_cmd(a, b, strong, f, out)
    _emit(compare_answer(a, b, strong), f, out)


def report(
    results: List[str] = typer.Argument(..., help="results folder(s), or arms of them (FOLDER:ARM); give a "
                                        "Threes and a Fives one to compare"),
    out: Optional[Path] = typer.Option(None, "-o", "--out", help="report.html (self-contained) or report.md "
                                       "(images in <stem>_files/); required"),
    force: bool = typer.Option(False, "--overwrite", help="overwrite an existing report"),
    skill: Optional[List[Path]] = typer.Option(None, "--skill", help="a `simdom skill --format json` file for the "
                                               "luck-and-skill section (repeatable)"),
    ladder: Optional[List[Path]] = typer.Option(None, "--ladder", help="a `simdom ladder --format json` file for "
                                                "the luck-and-skill section (repeatable)"),
    output: Optional[Path] = OLD_OUTPUT_OPT,
    old_force: bool = OLD_FORCE_OPT,
) -> None:
    """A self-contained balance report (HTML, plots embedded) or its Markdown twin.

    Examples:

      simdom report results/threes-doubles -o report.html

      simdom report results/threes-vs-fives:threes results/threes-vs-fives:fives -o balance.html

      simdom report results/default results/balance-4p -o balance.md

      simdom report results/strong-play --skill skill.json --ladder ladder.json -o balance.html
    """
    out, force = out or output, force or old_force  # the old spellings --output and --force
    if out is None:
        _fail("no report file given; allowed: -o report.html or -o report.md")
    from simdom.report import build_report
    from simdom.stats.views.output import check_writable
    from simdom.stats.tables.stats import InputError
    suffix = out.suffix.lower()
    if suffix not in (".html", ".htm", ".md"):
        raise InputError(f"bad report file {out}: the suffix decides the format; allowed: .html, .md")
    check_writable(out, force)
    from simdom.stats.tables.balance import expand
    from .common import work_status
    with work_status(f"building the report of {', '.join(map(str, results))}: every part read and checked, then "
                     "each section (tens of seconds for a large folder) ...", "sections") as tick:
        res = _open(expand(results))  # a study over player counts: each count's folder
        rep = build_report(res, out, force=force, skill=skill or (), ladder=ladder or (), progress=tick)
    if rep.answer:  # the report's first answer, then where it is
        console.print(rep.answer, highlight=False, markup=False)
    from .. import present as P
    P.say(console, f"Wrote the report {out}: {len(rep.sections)} sections ({', '.join(rep.sections)}).")


def register(app: typer.Typer) -> None:
    """Add the commands stats, seats, doubles, compare and report to ``app``, each with the one error path
    (cli/guard.py: a ResultsError or InputError is one line, exit code 2)."""
    from .balance import balance
    from .guard import guarded
    for name, command in (("stats", stats), ("seats", seats), ("doubles", doubles), ("compare", compare),
                          ("report", report), ("balance", balance)):
        app.command(name)(guarded(command))

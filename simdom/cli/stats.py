"""The statistics commands: stats, doubles, compare, report. ``register(app)`` adds them to a Typer app."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .common import fail

# The statistics modules (polars) are imported inside the commands: every simdom command (`simdom run`
# too) loads this module to register the commands, and should not pay polars' import. The help texts'
# constants are copies of simdom.stats.output.FORMATS and simdom.stats.tables.BY_COLUMNS /
# MOVE_BY_COLUMNS; tests/test_runner.py checks that they are equal.
FORMATS = ("table", "csv", "json", "md")
BY_COLUMNS = ("arm", "policy", "seat", "player", "rotation", "first_seat", "leader", "end", "went_out",
              "doubles_dealt", "lost_first_double", "first_double_seat")
MOVE_BY_COLUMNS = ("arm", "policy", "seat", "rotation")
FORMAT_HELP = f"output format: {', '.join(FORMATS)} (default: table, or from the -o suffix)"
DOUBLES_TABLES = ("sweep", "best", "by-move", "taker")


def _fail(msg: str) -> None:
    fail(msg)


def _open(paths: list[Path]):
    from simdom.stats.io import open_results
    return [open_results(p) for p in paths]


def stats(
    results: List[Path] = typer.Argument(..., help="results folder(s) written by `simdom run`"),
    by: Optional[str] = typer.Option(None, "--by", help=f"group keys, comma-separated: {', '.join(BY_COLUMNS)} "
                                     "(default: arm; with --moves: arm, and the move number)"),
    moves: bool = typer.Option(False, "--moves", help="the scoring rate by move number (needs `simdom run --moves`)"),
    fmt: Optional[str] = typer.Option(None, "--format", help=FORMAT_HELP),
    out: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file instead of the terminal"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing -o file"),
) -> None:
    """Scoring rates, points and win rates per group, each with a 95% confidence interval.

    Examples:

      simdom stats results/threes-doubles

      simdom stats results/threes-doubles --by arm,policy

      simdom stats results/threes-doubles --by arm,seat --format json -o seats.json

      simdom stats results/threes-doubles --moves --by arm --format csv -o by_move.csv
    """
    from simdom.stats.io import ResultsError
    from simdom.stats.output import check_writable, emit, resolve_format
    from simdom.stats.tables import InputError, moves_table, parse_by, stats_table
    try:
        f = resolve_format(fmt, out)
        check_writable(out, force)
        keys = parse_by(by, MOVE_BY_COLUMNS if moves else BY_COLUMNS)
        res = _open(results)
        df = moves_table(res, keys) if moves else stats_table(res, keys)
        title = ("Scoring rate by move number" if moves else "simdom stats") + f": {', '.join(r.name for r in res)}"
        emit([(title, df)], f, out)
    except (ResultsError, InputError) as exc:
        _fail(str(exc))


def doubles(
    results: Path = typer.Argument(..., help="a Threes results folder (a double-timing sweep for the sweep tables)"),
    table: Optional[str] = typer.Option(None, "--table", help=f"which table: {', '.join(DOUBLES_TABLES)} "
                                        "(terminal default: all that apply; files: sweep, or by-move without a sweep)"),
    fmt: Optional[str] = typer.Option(None, "--format", help=FORMAT_HELP),
    out: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file instead of the terminal"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing -o file"),
) -> None:
    """The value of holding the first double in Threes.

    For a sweep (arms differing only in the focal player's hold:until=K): per K, the paired change in the
    focal player's mean points and win rate against K=1, the bonus lost, the bonus tiers, the best K.
    On any Threes results: the first-double bonus by move number and the outcome by who took it.

    Examples:

      simdom doubles results/threes-doubles

      simdom doubles results/threes-doubles --table best --format json -o best.json

      simdom doubles results/threes-default --table by-move --format csv -o first_double.csv
    """
    from simdom.stats.doubles import by_move_table, detect_sweep, sweep_tables, taker_table
    from simdom.stats.io import ResultsError, open_results
    from simdom.stats.output import check_writable, emit, resolve_format
    from simdom.stats.tables import InputError
    try:
        f = resolve_format(fmt, out)
        if table is not None and table not in DOUBLES_TABLES:
            raise InputError(f"bad --table {table!r}; allowed: {', '.join(DOUBLES_TABLES)}")
        check_writable(out, force)
        res = open_results(results)
        sweep = detect_sweep(res)
        if table in ("sweep", "best") and sweep is None:
            raise InputError(f"{results}: no double-timing sweep (arms differing only in one player's "
                             "hold:until=K, with a K=1 or greedy baseline); use --table by-move or taker")
        wanted = [table] if table else (["sweep", "best", "by-move", "taker"] if f == "table" and out is None
                                        else ["sweep" if sweep else "by-move"])
        tables, notes = [], []
        if sweep and {"sweep", "best"} & set(wanted):
            per_k, best = sweep_tables(res, sweep)
            if "sweep" in wanted:
                tables.append((f"Double-timing sweep: focal player {sweep.focal}, baseline {sweep.baseline} "
                               "(differences paired by deal)", per_k))
            if "best" in wanted:
                tables.append(("Best K against the runner-up (mean points, paired)", best))
            row = best.row(0, named=True)
            notes.append(f"best K = {row['best_K']} ({row['best_arm']}): {row['points_diff']:+.3f} points per deal "
                         f"over K = {row['runner_up_K']} [{row['points_diff_lo']:+.3f}, {row['points_diff_hi']:+.3f}], "
                         + ("significantly better" if row["significant"] else "not significantly better")
                         + f" (p = {row['points_diff_p']:.3g})")
        if "by-move" in wanted:
            tables.append(("First double by move number", by_move_table(res)))
        if "taker" in wanted:
            tables.append(("Outcome by who took the first double", taker_table(res)))
        emit(tables, f, out, notes=notes)
    except (ResultsError, InputError) as exc:
        _fail(str(exc))


def compare(
    results_a: str = typer.Argument(..., help="results folder A (e.g. Threes), or one of its arms: FOLDER:ARM"),
    results_b: str = typer.Argument(..., help="results folder B (e.g. Fives), or one of its arms: FOLDER:ARM"),
    strong: Optional[str] = typer.Option(None, "--strong", help="policy whose win-rate edge over random is the "
                                         "skill gap (default: greedy)"),
    fmt: Optional[str] = typer.Option(None, "--format", help=FORMAT_HELP),
    out: Optional[Path] = typer.Option(None, "-o", "--output", help="write to this file instead of the terminal"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing -o file"),
) -> None:
    """Two results side by side: each estimate, the difference A - B, its 95% interval and p-value.

    A side is a results folder, or one arm of one (FOLDER:ARM); two arms of one run share their deals,
    so their comparison is paired.

    Examples:

      simdom compare results/threes-vs-fives:threes results/threes-vs-fives:fives

      simdom compare results/threes results/fives

      simdom compare results/threes results/fives --format md -o threes_vs_fives.md
    """
    from simdom.stats.compare import compare_table
    from simdom.stats.io import ResultsError, open_selection
    from simdom.stats.output import check_writable, emit, resolve_format
    from simdom.stats.tables import InputError
    try:
        f = resolve_format(fmt, out)
        check_writable(out, force)
        a, b = open_selection(results_a), open_selection(results_b)
        if a.path.resolve() == b.path.resolve() and a.name == b.name:
            raise InputError(f"{results_a} and {results_b} are the same results: nothing to compare; allowed: two "
                             "folders, or two arms of one folder (FOLDER:ARM)")
        df, notes = compare_table(a, b, strong)
        emit([(f"{a.name} (A) against {b.name} (B)", df)], f, out, notes=notes)
    except (ResultsError, InputError) as exc:
        _fail(str(exc))


def report(
    results: List[Path] = typer.Argument(..., help="results folder(s); give a Threes and a Fives one to compare"),
    out: Path = typer.Option(..., "-o", "--output", help="report.html (self-contained) or report.md "
                             "(images in <stem>_files/)"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing report"),
) -> None:
    """A self-contained balance report (HTML, plots embedded) or its Markdown twin.

    Examples:

      simdom report results/threes-doubles -o report.html

      simdom report results/threes results/fives -o balance.html

      simdom report results/threes results/fives -o balance.md
    """
    from simdom.report import build_report
    from simdom.stats.io import ResultsError
    from simdom.stats.output import check_writable
    from simdom.stats.tables import InputError
    try:
        suffix = out.suffix.lower()
        if suffix not in (".html", ".htm", ".md"):
            raise InputError(f"bad report file {out}: the suffix decides the format; allowed: .html, .md")
        check_writable(out, force)
        res = _open(results)
        build_report(res, out, force=force)
        typer.echo(f"wrote {out}")
    except (ResultsError, InputError) as exc:
        _fail(str(exc))


def register(app: typer.Typer) -> None:
    """Add the commands stats, doubles, compare and report to ``app``."""
    app.command("stats")(stats)
    app.command("doubles")(doubles)
    app.command("compare")(compare)
    app.command("report")(report)

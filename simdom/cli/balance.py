"""The `simdom balance` command: a rule study's balance on one screen, the whole scorecard (--full), its
picture (--plot); added to the app by simdom.cli.stats.register, with the statistics commands."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .. import present as P
from .common import console, err

# the statistics commands' options (simdom.cli.stats, which registers this command: not imported from there)
from ..stats.names import FORMATS

StatsFormat = Enum("StatsFormat", {f: f for f in FORMATS}, type=str)  # --help lists them
OUT_OPT = typer.Option(None, "-o", "--out", help="write to this file instead of the terminal")
FORCE_OPT = typer.Option(False, "--overwrite", help="overwrite an existing -o or --plot file")
FORMAT_OPT = typer.Option(None, "--format", "-f", case_sensitive=False, help=(
    f"output format: {', '.join(FORMATS)} (default: table, or from the -o suffix); json, csv and parquet keep "
    "full precision"))


def balance(
    results: List[str] = typer.Argument(..., help="results folders written by `simdom run` (a study folder of "
                                        "several player counts stands for each), or arms of them: FOLDER:ARM"),
    threshold: float = typer.Option(1.0, "--threshold", help="flag a difference larger than this: percentage "
                                    "points for a share, percent of the baseline for a mean (default 1)"),
    measures: Optional[str] = typer.Option(None, "--measures", help="the table's columns, comma-separated "
                                           "(default leader_win,seat_spread,decision_share,draws, and skill "
                                           "with --skill); any measure of --full, or seat_spread"),
    full: bool = typer.Option(False, "--full", help="the whole scorecard: every measure, each variant's "
                              "difference, the quantiles and the flagged differences with their intervals"),
    plot: Optional[Path] = typer.Option(None, "--plot", help="also draw each key measure against each swept "
                                        "parameter, one line per player count, into FILE.png or FILE.svg"),
    skill: bool = typer.Option(False, "--skill", help="add each variant's skill share (Dreef's, by wins: simdom "
                               "skill's players random, search and clairvoyant against greedy), played anew"),
    skill_deals: Optional[int] = typer.Option(None, "--skill-deals", help="with --skill: deals of the skill share "
                                              "per variant, each in every rotation (default 20: seconds per "
                                              "variant; 2 to 1,000,000)"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="workers of --skill (default: every core)"),
    fmt: Optional[StatsFormat] = FORMAT_OPT,
    out: Optional[Path] = OUT_OPT,
    force: bool = FORCE_OPT,
) -> None:
    """The balance of a rule study: the answer in sentences, then one row per variant on the key measures.

    The answer says which variants change the balance most, and which significantly; the table shows each
    variant's figure on the key measures (--measures picks them), rounded to its 95% interval, * where
    its paired difference from the baseline (the same deals, clustered by deal, Holm-adjusted over the
    folder's variants and measures) is significant and larger than --threshold. --full prints the whole
    scorecard: every measure, each variant's difference with its interval. The duration, decision and
    tension measures come from the course table of `simdom run --course`. --skill adds each variant's
    skill share. The machine formats (json, csv, parquet) hold the whole scorecard.

    Examples:

      simdom balance results/balance-bonus

      simdom balance results/balance-bonus --measures leader_win,last_win,blocked,points

      simdom balance results/balance-bonus --full

      simdom balance results/balance-bonus --plot balance.png

      simdom balance results/balance-bonus --format json -o scorecard.json

      simdom balance results/balance-bonus/2p --threshold 2 --format csv -o scorecard.csv

      simdom balance results/balance-bonus/2p --skill --skill-deals 10
    """
    from simdom.stats.tables.balance import studies
    from simdom.stats.views.balance import balance_answer
    from simdom.stats.views.glance import glance_answer
    f, picked = _balance_options(threshold, measures, full, skill, skill_deals, workers, fmt, out, force)
    plot_fmt = _plot_format(plot, force, out)
    ss = studies(results, threshold, quantiles=full or f in ("json", "csv", "parquet"))  # the one screen: none
    if skill:
        from simdom.run.skill import balance_skill
        for s in ss:
            balance_skill(s, skill_deals or 20, workers)
    flat = f in ("csv", "parquet")
    ans = balance_answer(ss, threshold, flat=flat) if full else glance_answer(ss, threshold, picked, flat=flat)
    if plot is not None:
        from simdom.report.sweepplot import sweep_plot
        from simdom.safeio import write_atomic
        write_atomic(plot, sweep_plot(ss, plot_fmt))
    P.emit(ans, f, out)
    if plot is not None:  # after the answer; on stderr when stdout carries a machine format
        P.say(console if f in ("table", "md") or out is not None else err, f"Wrote the plot to {plot}.")


def _plot_format(plot: Optional[Path], force: bool, out: Optional[Path]) -> str:
    """--plot FILE's format (its suffix: png or svg), checked before any work as -o is."""
    from simdom.stats.tables.stats import InputError
    if plot is None:
        return "png"
    fmt = plot.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise InputError(f"--plot {plot}: the suffix decides the format; allowed: FILE.png or FILE.svg")
    if out is not None and Path(out).resolve() == plot.resolve():
        raise InputError(f"--plot {plot} is also -o; allowed: two files")
    P.check_out(plot, force)
    return fmt


def _balance_options(threshold, measures, full, skill, skill_deals, workers, fmt, out, force):
    """simdom balance's options checked before any work: the format, and the columns --measures names;
    an option of a mode not asked for (--skill-deals without --skill, --measures with --full) refused."""
    from simdom.stats.tables.stats import InputError
    from simdom.stats.views.glance import parse_measures
    from simdom.stats.views.output import check_writable, resolve_format
    f = resolve_format(fmt and fmt.value, out)
    check_writable(out, force)
    if not 0 <= threshold <= 100:
        raise InputError(f"--threshold {threshold:g} is invalid; allowed: a number from 0 to 100")
    for given, name in ((skill_deals is not None, "--skill-deals"), (workers is not None, "--workers")):
        if given and not skill:
            raise InputError(f"{name} applies to the skill shares; allowed: {name} with --skill, or leave it out")
    if skill_deals is not None and not 2 <= skill_deals <= 1_000_000:
        raise InputError(f"--skill-deals {skill_deals} is invalid; allowed: an integer from 2 to 1,000,000")
    if workers is not None and workers < 1:
        raise InputError(f"--workers {workers} is invalid; allowed: an integer from 1")
    if measures is not None and (full or f in ("json", "csv", "parquet")):
        raise InputError("--measures picks the table's columns; " + (
            "--full shows every measure; allowed: one of --measures and --full" if full else
            f"--format {f} holds every measure; allowed: --measures with --format table or md"))
    if full and f in ("json", "csv", "parquet"):
        raise InputError(f"--full is the people's whole scorecard; --format {f} holds every measure already; "
                         "allowed: --full with --format table or md")
    return f, parse_measures(measures, skill)

"""`simdom export`: a view of a results folder as one Parquet or CSV file, for readers outside Python."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .common import check_out, console, fail, out_format

class Format(str, Enum):
    parquet = "parquet"
    csv = "csv"


def export_cmd(
    results: str = typer.Argument(..., help="A results folder written by simdom run, or FOLDER:ARM."),
    view: str = typer.Option("players", "--view", help="players, deals, or a table the run wrote (seats, "
                             "moves, decisions, matches, course)."),
    out: Path = typer.Option(..., "--out", "-o", help="The file to write (.parquet or .csv)."),
    fmt: Optional[Format] = typer.Option(None, "--format", "-f", help="parquet or csv (default: as -o's suffix names)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing output file."),
) -> None:
    """Write one view of a results folder to a file: players is one row per arm, deal, rotation and player.

    [bold]Examples[/]

      simdom export results/default --view players -o players.parquet
      simdom export results/default:K=5 --view deals -o k5.csv
    """
    from ..api import VIEWS, open_results
    from ..results import ResultsError
    from ..safeio import atomic_open

    if view not in VIEWS:
        fail(f"--view {view!r}; allowed: {', '.join(VIEWS)}")
    check_out(out, overwrite)
    fmt = out_format(fmt, out, Format)  # the -o suffix's format (.parquet, .csv), or --format agreeing with it
    try:
        res = open_results(results)
        frame = res.view(view).collect()
    except (ResultsError, ValueError) as e:
        fail(str(e))
    import polars as pl
    try:
        with atomic_open(out, "wb") as fh:
            if fmt == "csv":
                frame.write_csv(fh)
            else:
                frame.write_parquet(fh)
    except pl.exceptions.ComputeError as e:  # polars reports a failed write (a full disk) as its own error
        reason = "no space left on device (the disk is full)" if "No space left" in str(e) else \
            " ".join(str(e).split())[:200]
        fail(f"{out}: {reason}; nothing was written")
    from .. import present as P
    P.say(console, f"Wrote the {view} view of {res.label} ({frame.height:,} rows, {frame.width} columns) to {out} "
                   f"({fmt}).")


def register(app: typer.Typer) -> None:
    app.command("export")(export_cmd)

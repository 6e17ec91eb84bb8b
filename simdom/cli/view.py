"""`simdom view`: what one seat saw of a recorded deal, written as a position file (docs/analysis.md)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .common import check_out, console, fail, out_format

class Format(str, Enum):
    json = "json"
    toml = "toml"


def view_cmd(
    script: Optional[Path] = typer.Option(None, "--script", help="A scripted deal (TOML), e.g. the seed game."),
    trace_file: Optional[Path] = typer.Option(None, "--trace", help="A JSON Lines trace file (simdom trace)."),
    deal: Optional[int] = typer.Option(None, "--deal", help="The deal number in --trace (default 0)."),
    seat: int = typer.Option(..., "--seat", help="Whose view: the seat whose hand is shown."),
    move: Optional[int] = typer.Option(None, "--move", "-m",
                                       help="Up to just before the N-th placement (default: every action)."),
    out: Path = typer.Option(..., "--out", "-o", help="The position file to write (.json or .toml)."),
    fmt: Optional[Format] = typer.Option(None, "--format", "-f", help="json or toml (default: as -o's suffix names)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing output file."),
) -> None:
    """Write what seat S saw of a deal: its hand and every action, the other seats' draws without their tile.

    The file is a position for [bold]simdom analyze --position FILE[/] (docs/analysis.md).

    [bold]Examples[/]

      simdom view --script scenarios/seed-game.deal.toml --seat 1 --move 10 -o maria.json
      simdom view --trace t.jsonl --deal 3 --seat 1 -o maria.toml
    """
    from ..analyze.position import PositionError, load_deal
    from ..analyze.view import dumps_view, view_of
    from ..safeio import write_atomic

    check_out(out, overwrite)
    fmt = out_format(fmt, out, Format)  # the -o suffix's format (.json, .toml), or --format agreeing with it
    if script is None and trace_file is None:
        fail("no deal given; allowed: --script FILE or --trace FILE --deal I")
    try:
        d = load_deal(script=script, trace_file=trace_file, deal=deal)
        if move is not None:
            d.position(move)  # the move exists (one line naming the range if not)
        text = dumps_view(view_of(d, seat, move), fmt, d.rules)
    except PositionError as e:
        fail(str(e))
    write_atomic(out, text)
    upto = f"up to just before move {move}" if move is not None else "every action"
    from .. import present as P
    P.say(console, f"Wrote what seat {seat} saw of {d.label} ({upto}) to {out}.")


def register(app: typer.Typer) -> None:
    app.command("view")(view_cmd)

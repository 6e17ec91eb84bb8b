"""`simdom equilibrium`: the exact equilibrium of a small 2-player version (simdom/equilibrium/,
docs/equilibrium.md)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .common import OUT_HELP, OVERWRITE_OPT, RULES_OPT, SET_OPT, check_out, console, err, fail, make_rules, out_format


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    parquet = "parquet"
    md = "md"


AGAINST_OPT = typer.Option(None, "--against", help="A compiled policy to measure against the optimum (repeatable).")
HOLD_OPT = typer.Option(False, "--hold", help="Also: how often the optimum holds its first double, and what the "
                        "option to hold is worth (the game solved again without it).")
FORMAT_OPT = typer.Option(None, "--format", "-f", help="table, json, csv, parquet or md (default: table, or as -o's "
                          "suffix names).")


def _progress(text: str, _frac: float) -> None:
    if err.is_terminal:
        err.print(f"simdom equilibrium: {text}", highlight=False, markup=False)


def equilibrium_cmd(
    rules: str = RULES_OPT,
    players: int = typer.Option(2, "--players", "-n", help="Players: 2."),
    overrides: Optional[List[str]] = SET_OPT,
    against: Optional[List[str]] = AGAINST_OPT,
    hold: bool = HOLD_OPT,
    tol_win: float = typer.Option(0.0001, "--tol-win", help="Stop at this exploitability of the win (share of a deal)."),
    tol_margin: float = typer.Option(0.001, "--tol-margin", help="Stop at this exploitability of the margin (points)."),
    samples: int = typer.Option(1, "--samples", help="Choices asked of a policy with a random stream per state."),
    max_nodes: int = typer.Option(30_000_000, "--max-nodes", help="The largest tree to build."),
    fmt: Optional[Format] = FORMAT_OPT,
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
) -> None:
    """The exact equilibrium of a small 2-player version: its value, size and time, and how far policies are from it.

    Every deal, lead and draw is enumerated and played by the engine; CFR+ solves the tree for the margin and for the win to the stated exploitability; --against gives a policy's exploitability (the best fair reply's edge over it) and the equilibrium's edge over it, both seatings averaged.

    [bold]Examples[/]

      simdom equilibrium -r fives-and-threes --set max_pip=3 --set 'hand_size=[2,5,5]'
      simdom equilibrium -r fives-and-threes -n 2 --set max_pip=3 --set 'hand_size=[3,5,5]' --against search --format json
      simdom equilibrium -r threes --set max_pip=2 --set 'hand_size=[2,6,5]' --hold
    """
    from .. import present as P
    from ..equilibrium.answer import check_request, equilibrium_answer
    from ..equilibrium.solve import equilibrium

    f = out_format(fmt, out, Format)
    check_out(out, overwrite)
    r = make_rules(rules, players, overrides)
    try:
        check_request(r, against or [], tol_margin, tol_win, samples, max_nodes, f, out, cli=True)
    except P.OptionError as e:
        fail(str(e))
    res = equilibrium(r, against or [], {"margin": tol_margin, "win": tol_win}, max_nodes, samples, hold=hold,
                      progress=_progress)
    P.emit(equilibrium_answer(res, flat=f in ("csv", "parquet")), f, out, console=console)


def register(app: typer.Typer) -> None:
    app.command("equilibrium")(equilibrium_cmd)

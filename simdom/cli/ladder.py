"""`simdom ladder`: a duplicate tournament of policies rated by Plackett-Luce on an Elo scale
(simdom/run/ladder.py plays it, simdom/stats/estimate/ladder.py rates it)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .run import Backend
from .common import (OLD_OUTPUT_OPT, OUT_HELP, OVERWRITE_OPT, RULES_OPT, SET_OPT, check_out, console, make_rules,
                     out_format, work_status)


class Format(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    md = "md"


def ladder_cmd(
    policy: List[str] = typer.Argument(..., help="The policies of the field (at least --players of them), "
                                                 "e.g. random greedy heavy rollout:samples=32 search."),
    deals: int = typer.Option(200, "--deals", "-d", help="Deals, each played in every seating (matches, when "
                                                          "the rules are a match: --set target=T)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Root seed, 0 to 2^63 - 1: deal i depends on (seed, i) alone."),
    fmt: Optional[Format] = typer.Option(None, "--format", "-f", help="text, json, csv (the ratings) or md "
                                         "(default: text, or as -o's suffix names)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    rules: str = RULES_OPT,
    players: int = typer.Option(2, "--players", "-n", help="Players at the table, 2 to 4."),
    overrides: Optional[List[str]] = SET_OPT,
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Parallel workers (default: every core; "
                                          "with dask: the cluster's worker threads)."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local (processes on this machine) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="With --backend dask: tcp://HOST:PORT of a "
                                            "running dask scheduler."),
    output: Optional[Path] = OLD_OUTPUT_OPT,
) -> None:
    """Rate policies in a duplicate tournament: every deal in every seating, Plackett-Luce on an Elo scale.

    Each deal is played in every assignment of the policies to the seats (k!/(k-n)! seatings for k policies at n seats) on the same shuffle, so the tiles' luck is shared; the finishing orders give Plackett-Luce ratings with random at 1,000 (else the first policy), 95% intervals from a bootstrap over deals, head-to-head win probabilities and the rating spread (the wider, the more the play decides). Seats tied on points are ordered at random (a draw of the seed and the deal).

    [bold]Examples[/]

      simdom ladder random greedy heavy -r threes -n 2 --deals 100
      simdom ladder random greedy heavy rollout:samples=32 search -n 2 --deals 300 --format json

      simdom ladder random greedy heavy -r fives -n 2 --set target=250 --deals 300
    """
    from .. import present as P
    from ..run.tournament import ladder

    out = out or output  # --output: the old spelling
    check_out(out, overwrite)
    f = out_format(fmt, out, Format)
    shown = rules + (f" (with --set {', '.join(overrides)})" if overrides else "")
    ans = ladder(policy, deals=deals, seed=seed, players=players, rules=lambda: make_rules(rules, players, overrides),
                 shown=shown, status=lambda text: work_status(text, "blocks"), workers=workers,
                 backend=backend.value, scheduler=scheduler)
    P.emit(ans, f, out, console=console)


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder_cmd)

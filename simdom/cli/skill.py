"""`simdom skill`: the relative skill LE / (LE + RE) of a rule set (run/skill.py, stats/estimate/skill.py)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from ..stats.views.skill import skill_answer  # noqa: F401 - the answer, where tests/test_skill.py reads it
from .run import Backend
from .common import OUT_HELP, OVERWRITE_OPT, RULES_OPT, SET_OPT, console, make_rules, out_format, work_status


class Format(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    md = "md"


def skill_cmd(
    rules: str = RULES_OPT,
    players: int = typer.Option(2, "--players", "-n", help="Players, 2 to 4."),
    deals: int = typer.Option(50, "--deals", "-d", help="Deals, each played with player 0 in every seat."),
    seed: int = typer.Option(1, "--seed", "-s", help="Root seed: deal i depends on (seed, i) alone."),
    optimal: str = typer.Option("expert", "--optimal", help="The optimal player: the strongest fair policy."),
    opponents: List[str] = typer.Option(["greedy"], "--opponents", help="The other seats' policy (once, or once "
                                        "per other seat); deterministic, for the fictive player."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="Parallel workers (default: every core; "
                                          "with dask: the cluster's worker threads)."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local (processes on this machine) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="With --backend dask: tcp://HOST:PORT of a "
                                            "running dask scheduler."),
    fmt: Optional[Format] = typer.Option(None, "--format", "-f", help="text, json, csv or md (default: text, or "
                                         "as -o's suffix names)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    overrides: Optional[List[str]] = SET_OPT,
) -> None:
    """The relative skill of a game (Dreef, Borm and van der Genugten): LE / (LE + RE).

    LE = E(optimal) - E(beginner), RE = E(fictive) - E(optimal); the fictive player (clairvoyant) knows
    every hand and the boneyard. All three play player 0's place against the same opponents on the same
    deals, every deal in every seat; beginners random and greedy; by points per deal and by win rate.

    [bold]Examples[/]

      simdom skill -r threes -n 2 --deals 50
      simdom skill -r fives -n 2 --optimal search:worlds=32 --format json
      simdom skill -r fives -n 2 --deals 400 --workers 2
    """
    from .. import present as P
    from ..run.skill import skill

    f = out_format(fmt, out, Format)
    ans = skill(rules=lambda: make_rules(rules, players, overrides), rules_name=rules, modified=bool(overrides),
                players=players, deals=deals, seed=seed, optimal=optimal, opponents=opponents, out=out,
                overwrite=overwrite, workers=workers, backend=backend.value, scheduler=scheduler,
                status=lambda text: work_status(text, "blocks"))
    P.emit(ans, f, out, console=console)


def register(app: typer.Typer) -> None:
    app.command("skill")(skill_cmd)

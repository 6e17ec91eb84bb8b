"""`simdom solve`: the exact value of every legal move of an open position (simdom/analyze/solve.py)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .common import (MAX_SEED, OUT_HELP, OVERWRITE_OPT, PLAYERS_OPT, POLICY_OPT, RULES_OPT, SET_OPT, check_out, console,
                     fail, make_policies, make_rules, out_format)


class By(str, Enum):
    margin = "margin"
    points = "points"


class Format(str, Enum):
    table = "table"
    json = "json"
    md = "md"


def solve_cmd(
    script: Optional[Path] = typer.Option(None, "--script", help="A scripted deal (TOML), e.g. the seed game."),
    trace_file: Optional[Path] = typer.Option(None, "--trace", help="A JSON Lines trace file (simdom trace)."),
    deal: Optional[int] = typer.Option(None, "--deal", help="The deal number (in --trace, or of --seed)."),
    move: int = typer.Option(1, "--move", "-m", help="Solve the position just before the N-th tile is placed."),
    by: By = typer.Option(By.margin, "--by", help="The value: the side's margin over the best other side, or its "
                                                  "points."),
    against: Optional[List[str]] = typer.Option(None, "--against", help="The other seats play this deterministic "
                                                "policy (once, or once per seat) instead of minimising."),
    seed: int = typer.Option(1, "--seed", "-s", help="Root seed of a generated deal (with --deal)."),
    limit: int = typer.Option(20_000_000, "--limit", help="Most positions to search (about 4 million a second)."),
    fmt: Optional[Format] = typer.Option(None, "--format", "-f", help="table, json or md (default: table, or "
                                         "as -o's suffix names)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = POLICY_OPT,
    overrides: Optional[List[str]] = SET_OPT,
) -> None:
    """Solve an open position exactly: every hand and the boneyard known, the value of each legal move.

    The mover's side maximises its value and every other seat minimises it (minimax; exact for two sides, partnerships included), or with --against the other seats play that policy.

    [bold]Examples[/]

      simdom solve --script scenarios/seed-game.deal.toml --move 10
      simdom solve -r threes -n 2 --seed 3 --deal 0 --format json
      simdom solve --script scenarios/seed-game.deal.toml --move 4 --against greedy
    """
    from .. import present as P
    from ..analyze.position import PositionError, load_deal
    from ..analyze.solve import check_limit, solve_answer, solve_position
    from ..engine.solver import SolveLimit
    from ..policies import PolicyError

    check_out(out, overwrite)
    f = out_format(fmt, out, Format)
    if not 0 <= seed <= MAX_SEED:
        fail(f"--seed {seed}; allowed: an integer from 0 to {MAX_SEED}")
    check_limit(limit, cli=True)  # as the library's (analyze/solve.py)
    needs_rules = script is None and trace_file is None
    if not needs_rules and (policy != ["greedy"] or rules != "threes" or players != 4 or overrides):
        fail(f"--policy, --rules, --players and --set make a deal from --seed and --deal; "
             f"{'--script' if script is not None else '--trace'} holds its own rules and moves; allowed: "
             "--against POLICY for the other seats' play")
    r = make_rules(rules, players, overrides) if needs_rules else None
    try:
        source = load_deal(script=script, trace_file=trace_file, deal=deal, rules=r,
                           policies=make_policies(policy, players) if needs_rules else None, seed=seed)
        pos = source.position(move)
        with console.status("solving ..."):
            sol = solve_position(pos, by=by.value, against=against, limit=limit)
    except (PositionError, PolicyError, SolveLimit) as e:
        fail(f"--against: {e}" if isinstance(e, PolicyError) and against else str(e))
    P.emit(solve_answer(pos, sol), f, out, console=console)


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_cmd)

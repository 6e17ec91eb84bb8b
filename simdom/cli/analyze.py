"""`simdom analyze`: every legal move of a position, valued by rollouts (simdom/analyze/)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..analyze.choices import AnalyzeFormat, Metric
from .common import (OUT_HELP, OVERWRITE_OPT, PLAYERS_OPT, PY_POLICY_OPT, RULES_OPT, SET_OPT, console, make_policies,
                     make_rules, out_format)


def _equity(rules, policy: str, deals: int, seed: int):
    """The match equity table ``--by match`` reads (simdom.run.equity, docs/equity.md)."""
    from ..run.equity import equity
    return equity(rules, policy, deals, seed)


def analyze_cmd(
    script: Optional[Path] = typer.Option(None, "--script", help="A scripted deal (TOML), e.g. the seed game."),
    trace_file: Optional[Path] = typer.Option(None, "--trace", help="A JSON Lines trace file (simdom trace)."),
    position: Optional[Path] = typer.Option(None, "--position",
                                            help="A position as one seat saw it (JSON or TOML, docs/analysis.md)."),
    hand: Optional[str] = typer.Option(None, "--hand", help="The viewer's hand, e.g. \"3-6 1-4 2-3 2-6 4-4\"."),
    seen: Optional[str] = typer.Option(None, "--seen", help="With --hand: the actions so far, e.g. \"0:3-6 1:3-5L 2:d\"."),
    seat: int = typer.Option(0, "--seat", help="With --hand: the viewer's seat."),
    deal: Optional[int] = typer.Option(None, "--deal", help="The deal number (in --trace, or of --seed)."),
    move: Optional[int] = typer.Option(None, "--move", "-m",
                                       help="Analyse the position just before the N-th tile is placed."),
    every: bool = typer.Option(False, "--all", help="Analyse every move of the deal, one verdict per move."),
    then: List[str] = typer.Option(["greedy"], "--then",
                                   help="Policy that plays on after the move, for every seat (or once per seat); "
                                        "python:module:function too (400 rollouts unless --rollouts)."),
    rollouts: Optional[int] = typer.Option(None, "--rollouts",
                                           help="A fixed number of rollouts (default: stop once the best separates)."),
    budget: int = typer.Option(100_000, "--budget", help="Most rollouts per position without --rollouts."),
    seed: int = typer.Option(1, "--seed", "-s", help="Root seed of the rollouts (and of a generated deal)."),
    perfect: bool = typer.Option(False, "--perfect-information",
                                 help="Play out the true hidden tiles instead of re-deals (value of information)."),
    by: Metric = typer.Option(Metric.points, "--by", help="Rank by mean final points, margin, win, or match "
                              "(the match equity at --score, a match's rules)."),
    score: Optional[str] = typer.Option(None, "--score", help="With --by match: the sides' scores before the deal, "
                                        "e.g. 45,70 (default 0,0)."),
    fmt: Optional[AnalyzeFormat] = typer.Option(None, "--format", "-f", help="table, json or md (default: table, "
                                                "or as -o's suffix names)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = PY_POLICY_OPT,
    overrides: Optional[List[str]] = SET_OPT,
) -> None:
    """Value every legal move of a position by rollouts: expected final points, margin and win rate.

    Each rollout re-deals what the player to act cannot see, consistently with what it has seen, and plays every legal move out in that same world (common random numbers across moves).

    A position is a deal up to a move: a scripted deal (--script), a deal of a trace file (--trace, --deal), or deal --deal of --seed played by --policy (as simdom trace plays it).

    Or a position as one seat saw it: --position FILE (simdom view writes one), or --hand with --seen (the actions so far, docs/analysis.md); the viewer's next decision, or --move N.

    [bold]Examples[/]

      simdom analyze --script scenarios/seed-game.deal.toml --move 10
      simdom analyze --script scenarios/seed-game.deal.toml --all
      simdom analyze --trace t.jsonl --deal 12 --move 5 --then rollout:samples=8
      simdom analyze --script scenarios/seed-game.deal.toml --move 10 --then python:my_policies:cautious
      simdom analyze --position maria.json
      simdom analyze -r threes -n 4 --hand "3-6 1-4 2-3 2-6 4-4"
      simdom analyze -r threes -n 4 --seed 7 --deal 3 --move 4 --format json
      simdom analyze -r fives -n 2 --set target=100 --seed 3 --deal 0 --move 4 --by match --score 60,90
    """
    from .. import present as P
    from ..analyze.commands import analyze
    from .common import fail

    f = out_format(fmt, out, AnalyzeFormat)
    given = [o for o, on in (("--script", script), ("--trace", trace_file), ("--position", position)) if on is not None]
    if given and (policy != ["greedy"] or rules != "threes" or players != 4 or overrides):
        fail(f"--policy, --rules, --players and --set make a deal from --seed and --deal; {given[0]} holds its own "
             "rules and moves; allowed: --then POLICY for the play after the move")
    if hand is None and seat != 0:
        fail(f"--seat {seat} applies with --hand only; allowed: --hand TILES --seat S (a --position file names "
             "its seat)")
    ans = analyze(script=script, trace_file=trace_file, position=position, hand=hand, seen=seen, seat=seat,
                  deal=deal, move=move, every=every, then=then, rollouts=rollouts, budget=budget, seed=seed,
                  perfect=perfect, by=by.value, out=out, overwrite=overwrite, score=score, equity=_equity,
                  rules=lambda: make_rules(rules, players, overrides),
                  policies=lambda: make_policies(policy, players, python=True), status=console.status)
    P.emit(ans, f, out, console=console)


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_cmd)

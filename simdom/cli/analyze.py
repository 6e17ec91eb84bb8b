"""`simdom analyze`: every legal move of a position, valued by rollouts (simdom/analyze/)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .common import (MAX_SEED, OUT_HELP, OVERWRITE_OPT, PLAYERS_OPT, PY_POLICY_OPT, RULES_OPT, SET_OPT,
                     check_out, console, fail, make_policies, make_rules)

FORMATS = ("table", "json", "md")
#: rollouts per position at most (--rollouts, --budget): about 20,000 a second on one core
MAX_ROLLOUTS = 1_000_000


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
    by: str = typer.Option("points", "--by", help="Rank by mean final points, margin or win (points|margin|win)."),
    fmt: str = typer.Option("table", "--format", "-f", help="table, json or md."),
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
    """
    from ..analyze.evaluate import METRICS, evaluate
    from ..analyze.position import PositionError, from_script, from_seed, from_trace
    from ..analyze.view import view_options, viewer_position
    from .. import present as P
    from ..analyze.render import all_answer, answer
    from ..engine.pypolicy import seat_policies
    from ..policies import PolicyError

    if fmt not in FORMATS:
        fail(f"--format {fmt!r}; allowed: {', '.join(FORMATS)}")
    check_out(out, overwrite)
    if by not in METRICS:
        fail(f"--by {by!r}; allowed: {', '.join(METRICS)}")
    if rollouts is not None and not 2 <= rollouts <= MAX_ROLLOUTS:
        fail(f"--rollouts {rollouts}; allowed: an integer from 2 to {MAX_ROLLOUTS:,} (about a minute per position)")
    if not 1000 <= budget <= MAX_ROLLOUTS:
        fail(f"--budget {budget}; allowed: an integer from 1000 to {MAX_ROLLOUTS:,} (about a minute per position)")
    if not 0 <= seed <= MAX_SEED:
        fail(f"--seed {seed}; allowed: an integer from 0 to {MAX_SEED}")
    viewed = position is not None or hand is not None
    if viewed:
        problem = view_options(script, trace_file, position, hand, seen, deal, every, perfect)
        if problem:
            fail(problem)
    elif (move is None) == (not every):
        fail("give --move N (one position) or --all (every move of the deal); allowed: exactly one of them")
    if script is not None and trace_file is not None:
        fail("--script and --trace both given; allowed: one deal source (--script, --trace, or --rules/--seed/--deal)")
    try:
        if viewed:
            r = None if position is not None else make_rules(rules, players, overrides)
            pos = viewer_position(position, r, hand, seen, seat, move)
            seat_policies(then, pos.rules.players)
            positions = [pos]
        elif script is not None:
            if deal is not None:
                fail("--deal does not apply to --script (a script holds one deal)")
            source = from_script(script)
        elif trace_file is not None:
            source = from_trace(trace_file, 0 if deal is None else deal)
        else:
            if deal is None:
                fail("no deal given; allowed: --script FILE, --trace FILE --deal I, or --seed S --deal I")
            if deal < 0:
                fail(f"--deal {deal}; allowed: an integer >= 0")
            r = make_rules(rules, players, overrides)
            source = from_seed(r, make_policies(policy, players, python=True), seed, deal)
        if not viewed:
            seat_policies(then, source.rules.players)
            positions = [source.position(move)] if move is not None else list(source.positions())
    except (PositionError, PolicyError) as e:
        fail(f"--then: {e}" if isinstance(e, PolicyError) else str(e))
    kw = dict(then=then if len(then) > 1 else then[0], seed=seed, rollouts=rollouts, budget=budget,
              perfect=perfect, by=by)
    if every:
        with console.status(f"analysing {len(positions)} moves ..."):
            ans = all_answer([evaluate(p, **kw) for p in positions])
    else:
        with console.status(f"rolling out the {len(positions[0].moves)} legal moves ..."):
            ans = answer(evaluate(positions[0], **kw))
    P.emit(ans, fmt, out, console=console)


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_cmd)

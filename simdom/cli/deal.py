"""`simdom trace` and `simdom replay`: deals as JSON Lines traces (docs/rules.md section 11), and one deal
move by move, re-played by the engine."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from ..safeio import atomic_open
from .common import (MAX_SEED, PLAYERS_OPT, PY_POLICY_OPT, RULES_OPT, SEED_HELP, SET_OPT, console, err, fail,
                     check_out, make_policies, make_rules)
from .match import check_trace_options, replay_match, write_matches


def _check_out(path: Path, *, overwrite: bool) -> None:
    """-o FILE of a trace (JSON Lines): checked as every -o is (simdom.present.check_out), and refused when its
    suffix names another format (t.json, t.csv: the one rule of every -o, simdom.present.out_format)."""
    from ..present import SUFFIXES
    check_out(path, overwrite)
    named = SUFFIXES.get(path.suffix.lower())
    if named is not None:
        fail(f"-o {path} names {named}, but a trace is JSON Lines; allowed: a file name ending .jsonl")


def trace_cmd(
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = PY_POLICY_OPT,
    deals: int = typer.Option(100, "--deals", "-d", min=1, max=10**7,
                              help="How many deals (a trace holds about 1 kB a deal)."),
    matches: Optional[int] = typer.Option(None, "--matches", min=1, max=10**6,
                                          help="Write this many whole matches instead (needs --set target=T > 0)."),
    seed: int = typer.Option(1, "--seed", "-s", min=0, max=MAX_SEED, help=SEED_HELP),
    first_deal: int = typer.Option(0, "--first-deal", min=0, max=2**62, help="Number of the first deal."),
    out: Path = typer.Option(..., "--out", "-o", help="Output JSON Lines file."),
    overrides: Optional[List[str]] = SET_OPT,
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing output file."),
) -> None:
    """Write deals as JSON Lines traces (docs/rules.md section 11), or whole matches with --matches.

    One line per deal; with --matches (docs/rules.md section 12), one line per deal with its match object,
    matches 0, 1, 2, ...

    Any deal can be reproduced from its seed and number: [bold]simdom replay --seed S --deal I[/];
    any match from its seed and id: [bold]simdom replay --set target=T --seed S --match I[/].

    [bold]Examples[/]

      simdom trace --rules threes --players 4 --policy greedy --deals 1000 --seed 7 -o threes.jsonl
      simdom trace -r fives -n 3 -p greedy -p random -p hold:until=9 -d 50 -o mixed.jsonl
      simdom trace -r fives --set target=100 --set teams=partners --matches 20 -o fives100.jsonl
      simdom trace -r fives -p python:simdom.examples.policies:greedy -d 5 -o py.jsonl
    """
    from rich.progress import Progress

    from ..engine.state import trace

    r = make_rules(rules, players, overrides)
    pols = make_policies(policy, players, python=True)
    check_trace_options(r, matches, first_deal)
    _check_out(out, overwrite=overwrite)
    with atomic_open(out, "w", encoding="utf-8") as fh, Progress(console=err, transient=True) as bar:
        task = bar.add_task("tracing", total=deals if matches is None else matches)
        if matches is None:
            for i in range(first_deal, first_deal + deals):
                fh.write(json.dumps(trace(r, pols, seed, i), separators=(",", ":")) + "\n")
                bar.advance(task)
        else:
            written = write_matches(fh, r, pols, seed, matches, lambda: bar.advance(task))
    what = f"{r.preset or 'rules'}, {r.players} players, {', '.join(dict.fromkeys(map(str, pols)))}; seed {seed}"
    if matches is None:
        last = first_deal + deals - 1
        console.print(f"wrote {deals} deal{'s' if deals > 1 else ''} ({what}, deal{'s' if deals > 1 else ''} "
                      f"{first_deal}{f'-{last}' if deals > 1 else ''}) to {out}; show one with: simdom replay "
                      f"{out} --deal {first_deal}", highlight=False, markup=False)
    else:
        console.print(f"wrote {matches} match{'es' if matches > 1 else ''} ({written} deals; {what}) to {out}; show "
                      f"one with: simdom replay {out} --match 0", highlight=False, markup=False)


def replay_cmd(
    trace_file: Optional[Path] = typer.Argument(None, help="A JSON Lines trace file (simdom trace)."),
    deal: Optional[int] = typer.Option(None, "--deal", min=0, max=2**63 - 1,
                                       help="Deal number (default: the file's first deal, or 0)."),
    match: Optional[int] = typer.Option(None, "--match", min=0,
                                        help="Match id: show a whole match (docs/rules.md 12) hand by hand."),
    hand: Optional[int] = typer.Option(None, "--hand", min=0, help="With --match: also show this deal move by move."),
    script: Optional[Path] = typer.Option(None, "--script", help="A scripted deal file (TOML)."),
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = PY_POLICY_OPT,
    seed: int = typer.Option(1, "--seed", "-s", min=0, max=MAX_SEED, help="Root seed of the generated deal."),
    overrides: Optional[List[str]] = SET_OPT,
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       help="Also write the replay as a self-contained HTML page (FILE.html) with the "
                                            "board after every move."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing -o file."),
) -> None:
    """Print one deal move by move: hands, each move with its ends, points and bonus, and the totals.

    The deal comes from a trace file, a scripted deal, or rules + policies + seed + deal number.
    Every move is re-played by the engine, so a replay also checks the trace. With --match, a whole
    match: who won, the scoreboard after each deal, and with --hand one deal move by move.

    [bold]Examples[/]

      simdom replay --script scenarios/seed-game.deal.toml
      simdom replay threes.jsonl --deal 12
      simdom replay --rules fives --players 4 --policy greedy --seed 7 --deal 3
      simdom replay fives100.jsonl --match 3 --hand 1
      simdom replay -r fives --set target=100 --seed 7 --match 3
      simdom replay --script scenarios/seed-game.deal.toml -o replay.html   # the board at every move
    """
    from ..deal.commands import replay
    from ..deal.replay import render

    source = "--script" if script is not None else "the trace file" if trace_file is not None else None
    if source and (policy != ["greedy"] or rules != "threes" or players != 4 or overrides):
        fail(f"--policy, --rules, --players and --set make a deal from --seed and --deal; {source} holds its own "
             "rules and moves; allowed: a trace file, --script FILE, or --rules/--policy/--seed/--deal")
    if out is not None:
        from ..present import OptionError, out_format
        try:
            out_format(None, out, ("html",))
            check_out(out, overwrite)
        except OptionError as e:
            fail(str(e))
        if match is not None or hand is not None:
            fail("-o with --match: a match's replay is printed only; allowed: -o FILE.html for one deal")
    if match is not None or hand is not None:
        replay_match(trace_file, match, hand, script, rules, players, policy, seed, overrides)
        return
    rp = replay(trace_file=trace_file, deal=deal, script=script, seed=seed,
                rules=lambda: make_rules(rules, players, overrides),
                policies=lambda: make_policies(policy, players, python=True))
    if rp.match:
        replay_match(trace_file, rp.match_id, None, None, rules, players, policy, seed, overrides)
        return
    render(rp.rec, rp.steps, rp.state, console, rp.title)
    if out is not None:
        _write_replay_html(rp, out)
    if script is not None:
        if rp.bad:
            fail("the script's expectations do not hold: " + "; ".join(rp.bad))
        if rp.expectations:
            console.print(f"[green]all {rp.expectations} expectations of the script hold[/]")


def _write_replay_html(rp, out: Path) -> None:
    """-o FILE.html: the replay as one page with the board after every move (simdom.report.review)."""
    from ..deal.replay import boards, headline
    from ..report.review import replay_html
    from ..safeio import write_atomic
    st = rp.state
    rec = st.record()
    totals = [{"seat": s, "placements": st.seat(s).points, "first-double bonus": st.seat(s).bonus,
               "end bonus": st.seat(s).end_bonus, "total": rec["totals"][s], "pips left": st.seat(s).pips}
              for s in range(len(rp.rec["hands"]))]
    title = rp.title or f"Deal {rp.rec.get('deal', 0)} (seed {rp.rec.get('seed')})"
    write_atomic(out, replay_html(f"simdom replay: {title}", headline(rp.rec, rp.steps, st, rp.title), rp.rec,
                                  rp.steps, totals, boards(rp.rec)))
    from .. import present as P
    P.say(console, f"Wrote the replay of {title} to {out}.")


def register(app: typer.Typer) -> None:
    app.command("trace")(trace_cmd)
    app.command("replay")(replay_cmd)

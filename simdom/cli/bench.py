"""`simdom bench`: the kernel's speed on one core."""
from __future__ import annotations

import json
from typing import List, Optional

import typer

from .common import (OLD_JSON_OPT, PLAYERS_OPT, POLICY_OPT, RULES_OPT, SET_OPT, TableOrJson, console, make_policies,
                     make_rules)


def bench_cmd(
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = POLICY_OPT,
    seconds: float = typer.Option(3.0, "--seconds", "-t", min=0.1, max=3600,
                                 help="How long to measure, 0.1 to 3600 seconds."),
    overrides: Optional[List[str]] = SET_OPT,
    fmt: TableOrJson = typer.Option(TableOrJson.table, "--format", "-f",
                                    help="table (a sentence), or json: one object (deals_per_s, ...)."),
    as_json: bool = OLD_JSON_OPT,
) -> None:
    """Measure the kernel alone on one core, in deals per second (compile time excluded).

    With a target (--set target=T > 0), the match kernel: deals per second played inside whole matches.

    [bold]Examples[/]

      simdom bench --rules threes --players 4 --policy random --seconds 5
      simdom bench -r fives -p greedy -t 3 --format json
      simdom bench -r fives -p greedy --set target=100 --set teams=partners
    """
    from ..engine.api import kernel_kind, measure

    as_json = as_json or fmt is TableOrJson.json  # --json: the old spelling

    r = make_rules(rules, players, overrides)
    pols = make_policies(policy, players)
    n_matches = None
    with console.status(f"measuring {rules}, {players} players, {', '.join(map(str, pols))} ..."):
        if r.is_match:
            from ..engine.matches import measure_matches
            done, n_matches, el = measure_matches(r, pols, seconds)
        else:
            done, el = measure(r, pols, seconds)
    rate = done / el
    pol_text = ",".join(map(str, pols)) if len(set(map(str, pols))) > 1 else str(pols[0])
    kernel = kernel_kind()
    mode = "" if n_matches is None else (f" in {n_matches:,} matches to {r.target} ({n_matches / el:,.0f} "
                                         f"matches/s, {r.match_end}, teams {r.teams})")
    if not as_json:
        console.print(f"{rules}, {players} players, {pol_text}: [bold]{rate:,.0f}[/] deals/s "
                      f"({done:,} deals{mode} in {el:.2f} s, one core, {kernel} kernel)")
    else:
        row = {"rules": rules, "players": players, "policy": pol_text, "deals": done,
               "seconds": round(el, 3), "deals_per_s": round(rate, 1), "kernel": kernel}
        if n_matches is not None:
            row.update(mode="matches", target=r.target, match_end=r.match_end, teams=r.teams, matches=n_matches,
                       matches_per_s=round(n_matches / el, 1))
        print(json.dumps(row))


def register(app: typer.Typer) -> None:
    app.command("bench")(bench_cmd)

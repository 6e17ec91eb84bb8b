"""`simdom bench`: the kernel's speed on one core."""
from __future__ import annotations

import json
from typing import List, Optional

import typer

from .common import PLAYERS_OPT, POLICY_OPT, RULES_OPT, SET_OPT, console, make_policies, make_rules


def bench_cmd(
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = POLICY_OPT,
    seconds: float = typer.Option(3.0, "--seconds", "-t", min=0.1, help="How long to measure."),
    overrides: Optional[List[str]] = SET_OPT,
    as_json: bool = typer.Option(False, "--json", help="End with one JSON line (deals_per_s, ...)."),
) -> None:
    """Measure the kernel alone on one core, in deals per second (compile time excluded).

    [bold]Examples[/]

      simdom bench --rules threes --players 4 --policy random --seconds 5
      simdom bench -r fives -p greedy -t 3 --json
    """
    from ..engine.api import measure

    r = make_rules(rules, players, overrides)
    pols = make_policies(policy, players)
    with console.status(f"measuring {rules}, {players} players, {', '.join(map(str, pols))} ..."):
        done, el = measure(r, pols, seconds)
    rate = done / el
    pol_text = ",".join(map(str, pols)) if len(set(map(str, pols))) > 1 else str(pols[0])
    from ..engine.api import kernel_kind
    kernel = kernel_kind()
    console.print(f"{rules}, {players} players, {pol_text}: [bold]{rate:,.0f}[/] deals/s "
                  f"({done:,} deals in {el:.2f} s, one core, {kernel} kernel)")
    if as_json:
        print(json.dumps({"rules": rules, "players": players, "policy": pol_text, "deals": done,
                          "seconds": round(el, 3), "deals_per_s": round(rate, 1), "kernel": kernel}))


def register(app: typer.Typer) -> None:
    app.command("bench")(bench_cmd)

"""`simdom rules`: the presets and their parameters."""
from __future__ import annotations

import json
from typing import List, Optional

import typer

from ..rules import PRESET_SOURCES, PRESETS, preset
from .common import PLAYERS_OPT, SET_OPT, console, make_rules


def rules_cmd(
    name: Optional[str] = typer.Argument(None, help="A preset; omit to list them."),
    players: int = PLAYERS_OPT,
    overrides: Optional[List[str]] = SET_OPT,
    as_json: bool = typer.Option(False, "--json", help="Print the resolved rules as JSON."),
) -> None:
    """List the rule presets, or print one preset's parameters.

    [bold]Examples[/]

      simdom rules
      simdom rules threes
      simdom rules fives --players 2 --set min_ends=2 --json
    """
    from rich.table import Table

    if name is None:
        t = Table(title="Rule presets (RULES.md section 8)")
        for col in ("preset", "source", "hands 2/3/4", "draw", "lead", "spinner", "scores", "bonuses"):
            t.add_column(col)
        for p in PRESETS:
            r = preset(p)
            hs = "/".join(map(str, r.hand_size))
            scores = f"{r.points} if sum % {' or '.join(map(str, r.divisors))} == 0, >= {r.min_ends} ends"
            fdb = f"first double {r.to_dict()['first_double_bonus']}" if r.first_double_bonus else ""
            bon = ", ".join(x for x in (fdb, f"out {r.out_bonus}", f"block {r.block_bonus}") if x)
            t.add_row(p, PRESET_SOURCES[p], hs, r.draw, r.lead, r.spinner + (f" ({r.arms_open})" if r.arms_open else ""),
                      scores, bon)
        console.print(t)
        return
    r = make_rules(name, players, overrides)
    d = r.to_dict()
    if as_json:
        print(json.dumps(d))
        return
    t = Table(title=f"{name}, {players} players" + (" (with overrides)" if overrides else ""))
    t.add_column("parameter")
    t.add_column("value")
    for k, v in d.items():
        t.add_row(k, json.dumps(v) if not isinstance(v, str) else v)
    console.print(t)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules_cmd)

"""`simdom equity`: the match equity table of a match's rules under a policy (simdom/run/equity.py,
docs/equity.md)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from ..present import FORMATS
from .common import (OLD_OUTPUT_OPT, OUT_HELP, OVERWRITE_OPT, PLAYERS_OPT, POLICY_OPT, RULES_OPT, SET_OPT, check_out,
                     console, fail, make_policies, make_rules, out_format, work_status)

#: the statistics commands' formats, and html: a self-contained page with the heatmap (simdom.report.equity)
EquityFormat = Enum("EquityFormat", {f: f for f in (*FORMATS, "html")}, type=str)


def parse_scores(items: Optional[List[str]]) -> list[list[int]]:
    """--score 45,70 (repeatable): the sides' scores, comma-separated."""
    out = []
    for item in items or []:
        try:
            out.append([int(x) for x in item.split(",")])
        except ValueError:
            fail(f"--score {item}: not scores; allowed: integers, one per side, comma-separated (e.g. 45,70)")
    return out


def equity_cmd(
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    overrides: Optional[List[str]] = SET_OPT,
    policy: List[str] = POLICY_OPT,
    deals: int = typer.Option(1_000_000, "--deals", "-d", help="Deals sampled (1,000 to 20,000,000)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Root seed of the sampled deals, 0 to 2^63 - 1."),
    score: Optional[List[str]] = typer.Option(None, "--score", help="A position to show first: the sides' scores "
                                              "before a deal, e.g. 45,70 (repeatable)."),
    fmt: Optional[EquityFormat] = typer.Option(None, "--format", "-f", help="table, md, json, csv, parquet, or html "
                                               "(a page with the heatmap); default: table, or as -o's suffix names."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=OUT_HELP),
    overwrite: bool = OVERWRITE_OPT,
    output: Optional[Path] = OLD_OUTPUT_OPT,
) -> None:
    """The match equity table: P(each side wins the match) at every score before a deal, and who leads it.

    Deals of the rules are played by --policy in every seat; the table is solved from their credited points by dynamic programming over exact scores (docs/equity.md says how, and how a deal cut short by the target is handled). The answer first: who is ahead at 0-0, what a deal's lead is worth; then a compact table and a heatmap.

    [bold]Examples[/]

      simdom equity -r fives -n 2 --set target=100
      simdom equity -r fives -n 2 --set target=100 --policy greedy --deals 1000000
      simdom equity -r fives -n 2 --set target=100 --score 60,90 --format json -o equity.json
      simdom equity -r fives -n 4 --set target=100 --set teams=partners -o equity.html
    """
    from .. import present as P
    from ..engine.api import SIM_VERSION
    from ..run.equity import check_request, equity
    from ..stats.matches.metview import equity_answer, heatmap_text
    out = out or output
    f = out_format(fmt, out, EquityFormat)
    if f == "parquet" and out is None:
        fail("--format parquet writes a file: add -o FILE.parquet")
    r, focus = make_rules(rules, players, overrides), parse_scores(score)
    check_request(r, deals, seed, focus, cli=True)
    pols = make_policies(policy, r.players)
    check_out(out, overwrite)
    what = f"simdom equity: {deals:,} deals, then the table (about {2 + deals / 300_000:.0f} s, an estimate)"
    with work_status(what, "%") as tick:
        t = equity(r, pols, deals, seed, lambda stage, d, n: tick(int((70 if stage == "deals" else 30) * d / n)
                                                                    + (0 if stage == "deals" else 70), 100), cli=True)
    ans = equity_answer(t, SIM_VERSION, flat=f in ("csv", "parquet"), focus=focus)
    if f == "html":
        from ..report.equity import equity_html
        from ..safeio import write_atomic
        write_atomic(out, equity_html(t, ans)) if out else console.print(equity_html(t, ans), markup=False)
    else:
        P.emit(ans, f, out, console=console)
    if f == "table" and out is None:
        console.print()
        console.print(heatmap_text(t, None if None in t.leads else t.leads[0]))
    if out is not None:
        P.say(console, f"Wrote the match equity table ({t.size ** t.sides:,} positions) to {out}.")


def register(app: typer.Typer) -> None:
    app.command("equity")(equity_cmd)

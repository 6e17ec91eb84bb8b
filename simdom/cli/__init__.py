"""The simdom command line: thin Typer commands, one module per group, over the application layer.

    rules.py     simdom rules                   deal.py    simdom trace, simdom replay
    bench.py     simdom bench                   policies.py  simdom policies
    run.py       simdom run                     stats.py   simdom stats, doubles, compare, report
    analyze.py   simdom analyze                 solve.py   simdom solve
    review.py    simdom review                  ladder.py  simdom ladder
    export.py    simdom export                  skill.py   simdom skill
    table.py     simdom table (the web app)
"""
from __future__ import annotations

import typer

from .. import __version__
from . import analyze, bench, deal, equilibrium, equity, export, guard, helptext, ladder, policies, review, rules, run, skill, solve, stats, table, view
from .common import console, fail

app = typer.Typer(
    name="simdom",
    cls=guard.OneLineErrors,  # a parser error is one line (cli/guard.py)
    help="Simulate the domino scoring games Threes and Fives and study them with statistics.\n\n"
         "Start with [bold]simdom rules[/], [bold]simdom trace[/], [bold]simdom replay --script "
         "scenarios/seed-game.deal.toml[/] or [bold]simdom run scenarios/default.toml[/].",
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from ..engine.api import SIM_VERSION
        console.print(f"simdom {__version__} (behaviour version {SIM_VERSION})")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Show the version and the behaviour version, then exit."),
         debug: bool = typer.Option(False, "--debug", help="Show the traceback of any error (for bug reports).")
         ) -> None:
    """simdom: simulation and statistics for Threes and Fives."""
    from ..engine.api import SIM_VERSION, check_kernel_mode
    from ..stats.read import PLAYING
    PLAYING["sim_version"] = SIM_VERSION  # a results folder of another behaviour version is read with a note
    guard.DEBUG["on"] = debug
    try:
        check_kernel_mode()  # SIMDOM_KERNEL, read by every command that plays deals
    except ValueError as e:
        fail(str(e))


for _group in (rules, deal, bench, policies, run, stats, equity, analyze, solve, equilibrium, view, review, skill, ladder,
               export, table):
    _group.register(app)
guard.guard_app(app)  # one error line for every command (cli/guard.py)
helptext.reflow_app(app)  # help texts wrapped evenly at the terminal's width (cli/helptext.py)

if __name__ == "__main__":  # pragma: no cover
    app()

"""The `simdom run` command (thin: options, progress bar, summary). ``register(app)`` adds it."""
from __future__ import annotations

from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from rich.markup import escape

from .common import console, err


class Backend(str, Enum):
    local = "local"  #: processes on this machine, forked from the run with the kernel loaded
    dask = "dask"  #: an existing dask.distributed cluster (--scheduler)


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    md = "md"


class _Rate(ProgressColumn):
    def __init__(self, unit: str = "deals") -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:,.0f} {self.unit}/s" if task.speed else f"- {self.unit}/s",
                    style="progress.data.speed")


class _Done(ProgressColumn):
    def render(self, task: Task) -> Text:
        return Text(f"{int(task.completed):,}/{int(task.total or 0):,}", style="progress.download")


def run_cmd(
    scenario: Path = typer.Argument(..., help="scenario file (TOML), e.g. scenarios/default.toml"),
    deals: Optional[int] = typer.Option(None, "--deals", "-d", help="number of deals, or of matches when the rules "
                                        "play matches (target > 0); overrides the scenario's"),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="root seed (overrides the scenario's)"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w",
                                          help="parallel workers (default: every core; with dask: every "
                                               "worker thread of the cluster)"),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="results folder (default results/<scenario name>)"),
    moves: bool = typer.Option(False, "--moves", help="also write the moves table (one row per placement)"),
    seats: bool = typer.Option(False, "--seats", help="also write the seats table (each seat's detail: draws, "
                                                       "passes, pips left, bonuses)"),
    course: bool = typer.Option(False, "--course", help="also write the course table (per deal: turns, legal "
                                "moves, draws, lead changes, the winner's deficit; simdom balance's duration, "
                                "decision and tension measures)"),
    decisions: bool = typer.Option(False, "--decisions", help="also write the decisions table: every first-double "
                                   "decision (the first double not yet placed, the mover able to place a double "
                                   "and another tile), its situation and the choice made"),
    decision_rollouts: Optional[int] = typer.Option(None, "--decision-rollouts", help="N: also value each decision's "
                                                    "best double now and best other move in N re-deals of what "
                                                    "the mover cannot see, played out by --then (implies "
                                                    "--decisions)"),
    then: str = typer.Option("greedy", "--then", help="Policy that plays on after the move in the decision "
                             "rollouts, for every seat (greedy, in the kernel; any other compiled policy, e.g. "
                             "search, is played from Python at its own speed)"),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local processes or a dask cluster"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="dask scheduler address, tcp://HOST:PORT"),
    overwrite: bool = typer.Option(False, "--overwrite", help="replace results of another scenario or settings"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
    fmt: Format = typer.Option(Format.table, "--format", "-f", help="how the summary is printed: table, or json, "
                               "csv, md (then the closing lines go to stderr)"),
    sets: Optional[list[str]] = typer.Option(None, "--set", help="NAME=VALUE: a rule parameter for every arm, e.g. "
                                             "--set min_ends=2 or --set 'first_double_bonus=[[4, 2], [8]]' "
                                             "(repeatable; replaces a swept parameter)"),
    players: Optional[int] = typer.Option(None, "--players", help="number of players (2-4), in place of the "
                                          "scenario's (and of a sweep over players)"),
) -> None:
    """Play a scenario's deals on every core (or a dask cluster) into a Parquet dataset.

    Started again with the same command after a crash or Ctrl-C, it computes only the missing chunks.

    [bold]Examples[/]

      simdom run scenarios/default.toml

      simdom run scenarios/threes-doubles.toml --deals 1000000 --workers 2 --out results/doubles-1m

      simdom run scenarios/threes-vs-fives.toml --moves

      simdom run scenarios/default.toml --decision-rollouts 32 --deals 20000 --out results/decisions

      simdom run scenarios/threes-2p-search-decisions.toml --decision-rollouts 16 --then search

      simdom run scenarios/balance-4p.toml --backend dask --scheduler tcp://10.0.0.5:8786

      simdom run scenarios/default.toml --set min_ends=2 --players 2 --out results/what-if

    A scenario whose \\[sweep] names players is one run per player count, into OUT/2p, OUT/3p, ...
    """
    from .. import present as P
    from ..run.answer import summary_answer
    from ..run.runner import check_folders, check_run, continuation, run
    from ..run.scenario import load_study

    studies = load_study(scenario, sets or (), players, deals=deals, seed=seed)
    tables = ("deals",) + (("course",) if course else ()) + (("seats",) if seats else ()) + \
        (("moves",) if moves else ()) + \
        (("decisions",) if decisions or decision_rollouts is not None else ())
    then = continuation(then)
    for sc in studies:  # every run checked before anything is printed or written
        check_run(sc, tables, workers, backend.value, scheduler, decision_rollouts or 0, then)
    several = len(studies) > 1
    root = out or Path("results") / (studies[0].name.rsplit("-", 1)[0] if several else studies[0].name)
    runs = [(sc, root / f"{sc.players}p" if several else root) for sc in studies]
    check_folders(runs, root, tables, overwrite=overwrite, decision_rollouts=decision_rollouts or 0, decision_then=then)
    answers = []
    for sc, folder in runs:
        if not quiet:
            err.print(f"[bold]{sc.name}[/]: {sc.deals:,} {sc.unit.plural} x {len(sc.arms)} arm(s) x {sc.rotations} "
                      f"{'arrangement' if sc.rotation == 'all' else 'rotation'}(s), {sc.players} players, seed {sc.seed}, chunks of "
                      f"{min(sc.chunk_size, sc.deals):,} -> {folder}", highlight=False)
        with _progress(sc, quiet) as (on_start, on_chunk):  # stopped before any error line
            summary = run(sc, folder, tables=tables, workers=workers, backend=backend.value, scheduler=scheduler,
                          overwrite=overwrite, decision_rollouts=decision_rollouts or 0, decision_then=then,
                          on_start=on_start,
                          on_chunk=on_chunk)
        answers.append((sc, folder, summary))
    ans = summary_answer(answers[0][2])
    if several:  # one answer: every player count's sentences and tables, the machines' rows by run
        ans = P.Answer(data={sc.name: summary_answer(s).machine() for sc, _, s in answers})
        for sc, _, s in answers:
            a = summary_answer(s)
            ans.sentences += [f"{sc.players} players: {x}" for x in a.sentences]
            for t in a.tables:
                t.title = f"{t.title} ({sc.players} players)"
                ans.tables.append(t)
            ans.notes += a.notes
    P.emit(ans, fmt.value, console=console)
    tail = console if fmt is Format.table else err  # a machine format keeps stdout to itself
    sc = studies[0]
    if sc.description:
        tail.print(f"[dim]Scenario: {escape(sc.description)}[/]", highlight=False)
    for sc, folder, summary in answers:
        reused = f", {summary.reused} reused from an earlier start" if summary.reused else ""
        if summary.removed:
            reused += f", {summary.removed} stray part(s) removed"
        tail.print(f"{summary.computed} chunk(s) computed{reused}, {summary.seconds:.1f} s; results in "
                   f"[bold]{folder}[/] (simdom stats {folder})", highlight=False)
    if several:
        tail.print(f"The study's answer: simdom balance {root}", highlight=False)


@contextmanager
def _progress(sc, quiet: bool):
    """The run's progress bar on stderr: yields (on_start, on_chunk) for run(); stopped on the way out,
    whatever ends the run, so that an error line comes after the bar."""
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=24), _Done(), _Rate(sc.unit.plural),
                        TimeRemainingColumn(), console=err, disable=quiet, speed_estimate_period=10)
    state: dict = {}

    def on_start(total: int, done: int) -> None:
        state["task"] = progress.add_task(sc.name, total=total, completed=done)
        progress.start()

    def on_chunk(n: int) -> None:
        progress.advance(state["task"], n)

    try:
        yield on_start, on_chunk
    finally:
        progress.stop()


def register(app: typer.Typer) -> None:
    from .guard import guarded
    app.command("run")(guarded(run_cmd))  # its errors are one line in any app (cli/guard.py)

"""The `simdom run` command (thin: options, progress bar, summary). ``register(app)`` adds it."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .common import console, err, fail


class Backend(str, Enum):
    local = "local"  #: processes on this machine, forked from the run with the kernel loaded
    dask = "dask"  #: an existing dask.distributed cluster (--scheduler)


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:,.0f} deals/s" if task.speed else "- deals/s", style="progress.data.speed")


class _Done(ProgressColumn):
    def render(self, task: Task) -> Text:
        return Text(f"{int(task.completed):,}/{int(task.total or 0):,}", style="progress.download")


def _pm(v, scale: float = 1.0, digits: int = 2, sign: bool = False) -> str:
    m, h = v.value * scale, (v.hi - v.lo) / 2 * scale
    return f"{m:+.{digits}f}±{h:.{digits}f}" if sign else f"{m:.{digits}f}±{h:.{digits}f}"


def _who(players: list[int]) -> str:
    return ("player " if len(players) == 1 else "players ") + ",".join(map(str, players))


def summary_table(summary) -> Table:
    """Mean points and win rate per arm and policy; with several arms, the paired gain over the first arm
    with the same rules."""
    from rich import box

    from ..run.summary import summary_rows
    plan = summary.plan
    rows = summary_rows(plan, summary.sums)
    bases = sorted({plan.arm_names[plan.baseline(a)] for a in range(len(plan.arm_names))},
                   key=plan.arm_names.index)
    several = len(summary.plan.arm_names) > 1
    title = f"{summary.plan.deals:,} deals x {summary.plan.rotations} rotation(s); mean per deal ± 95% interval"
    if several:
        title += (f"; Δ: paired difference against arm {bases[0]} on the same deals" if len(bases) == 1 else
                  f"; Δ: paired difference against the first arm with the same rules ({', '.join(bases)}) "
                  "on the same deals")
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    t.add_column("arm", no_wrap=True)
    t.add_column("policy (players)", no_wrap=True)
    t.add_column("points", justify="right", no_wrap=True)
    t.add_column("win %", justify="right", no_wrap=True)
    if several:
        t.add_column("Δ points", justify="right", no_wrap=True)
        t.add_column("Δ win %", justify="right", no_wrap=True)
    for r in rows:
        cells = [r.arm, f"{r.policy} ({','.join(map(str, r.players))})", _pm(r.points), _pm(r.win, 100, 1)]
        if several:
            cells += ["" if r.d_points is None else _pm(r.d_points, sign=True),
                      "" if r.d_win is None else _pm(r.d_win, 100, 1, sign=True)]
        t.add_row(*cells)
    return t


def headlines(summary) -> list[str]:
    """One line per arm and policy group that differs from its baseline (the first arm with the same
    rules): its paired gain."""
    from ..run.summary import summary_rows
    plan = summary.plan
    out = []
    for r in summary_rows(plan, summary.sums):
        if r.d_points is None:
            continue
        b = plan.baseline(plan.arm_names.index(r.arm))
        if {plan.policies[b][p] for p in r.players} == {r.policy}:
            continue
        dp, hp = r.d_points.value, (r.d_points.hi - r.d_points.lo) / 2
        dw, hw = r.d_win.value, (r.d_win.hi - r.d_win.lo) / 2
        sure = "" if abs(dp) > hp else " (within noise)"
        out.append(f"{r.arm} vs {r.baseline}, {_who(r.players)} ({r.policy}): "
                   f"{dp:+.3f}±{hp:.3f} points per deal{sure}, win rate {100 * dw:+.2f}±{100 * hw:.2f} pp")
    return out


def run_cmd(
    scenario: Path = typer.Argument(..., help="scenario file (TOML), e.g. scenarios/default.toml"),
    deals: Optional[int] = typer.Option(None, "--deals", "-n", help="number of deals (overrides the scenario's)"),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="root seed (overrides the scenario's)"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w",
                                          help="parallel workers (default: every core; with dask: every "
                                               "worker thread of the cluster)"),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="results folder (default results/<scenario name>)"),
    moves: bool = typer.Option(False, "--moves", help="also write the moves table (one row per placement)"),
    seats: bool = typer.Option(False, "--seats", help="also write the seats table (each seat's detail: draws, "
                                                       "passes, pips left, bonuses)"),
    backend: Backend = typer.Option(Backend.local, "--backend", help="local processes or a dask cluster"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="dask scheduler address, tcp://HOST:PORT"),
    overwrite: bool = typer.Option(False, "--overwrite", help="replace results of another scenario or settings"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
) -> None:
    """Play a scenario's deals on every core (or a dask cluster) into a Parquet dataset.

    Started again with the same command after a crash or Ctrl-C, it computes only the missing chunks.

    [bold]Examples[/]

      simdom run scenarios/default.toml

      simdom run scenarios/threes-doubles.toml --deals 1000000 --workers 2 --out results/doubles-1m

      simdom run scenarios/threes-vs-fives.toml --moves

      simdom run scenarios/balance-4p.toml --backend dask --scheduler tcp://10.0.0.5:8786
    """
    from ..run.runner import RunError, RunInterrupted, run
    from ..run.scenario import ScenarioError, load


    if deals is not None and deals < 1:
        fail(f"--deals {deals} is invalid; allowed: an integer >= 1")
    if deals is not None and deals > 10**12:
        fail(f"--deals {deals} is invalid; allowed: an integer from 1 to {10**12}")
    if seed is not None and not 0 <= seed < 2**63:
        fail(f"--seed {seed} is invalid; allowed: an integer from 0 to {2**63 - 1}")
    if workers is not None and workers < 1:
        fail(f"--workers {workers} is invalid; allowed: an integer >= 1")
    if scheduler and backend != Backend.dask:
        fail("--scheduler is only used with --backend dask")
    try:
        sc = load(scenario).replace(deals=deals, seed=seed)
    except ScenarioError as e:
        fail(str(e))
    folder = out or Path("results") / sc.name
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=24), _Done(), _Rate(),
                        TimeRemainingColumn(), console=err, disable=quiet, speed_estimate_period=10)
    state: dict = {}

    def on_start(total: int, done: int) -> None:
        state["task"] = progress.add_task(sc.name, total=total, completed=done)
        progress.start()

    def on_chunk(n: int) -> None:
        progress.advance(state["task"], n)

    if not quiet:
        err.print(f"[bold]{sc.name}[/]: {sc.deals:,} deals x {len(sc.arms)} arm(s) x {sc.rotations} rotation(s), "
                  f"{sc.players} players, seed {sc.seed}, chunks of {sc.chunk_size:,} -> {folder}", highlight=False)
    try:
        tables = ("deals",) + (("seats",) if seats else ()) + (("moves",) if moves else ())
        summary = run(sc, folder, tables=tables, workers=workers, backend=backend.value, scheduler=scheduler,
                      overwrite=overwrite, on_start=on_start, on_chunk=on_chunk)
    except RunError as e:
        progress.stop()
        fail(str(e))
    except RunInterrupted as e:
        progress.stop()
        fail(str(e), e.exit_code)
    except BaseException:
        progress.stop()  # the error line after the bar, whatever the error
        raise
    progress.stop()
    if sc.description:
        console.print(sc.description, highlight=False)
    console.print(summary_table(summary))
    for line in headlines(summary):
        console.print(line, highlight=False)
    reused = f", {summary.reused} reused from an earlier start" if summary.reused else ""
    if summary.removed:
        reused += f", {summary.removed} stray part(s) removed"
    console.print(f"{summary.computed} chunk(s) computed{reused}, {summary.seconds:.1f} s; results in "
                  f"[bold]{folder}[/] (simdom stats {folder})", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("run")(run_cmd)

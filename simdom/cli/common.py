"""What every simdom command shares: the console, the one error line, rule and policy options."""
from __future__ import annotations

import json
import sys
import tomllib
import traceback
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Iterator, List, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape

from ..safeio import InputError, check_depth, refusal
from ..policies import PolicyError, seat_policies
from ..rules import ALL_PARAMETERS, PRESETS, RulesError, preset

console = Console()
err = Console(stderr=True)


#: simdom --debug: every error also shows the traceback of the exception it reports (cli/guard.py)
DEBUG = {"on": False}


def fail(message: str, code: int = 2) -> NoReturn:
    """One clear line on stderr (the message is printed as it is: no markup) and exit code 2."""
    if DEBUG["on"] and sys.exc_info()[1] is not None:
        traceback.print_exc()
    err.print(f"[bold red]Error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def parse_value(text: str, where: str = "--set value") -> Any:
    """A ``--set`` value: JSON (``[[4,2],[null,8]]``, ``null``, ``3``), else TOML (``{2 = 6, 3 = 6, 4 = 5}``),
    else the text itself (``sum``, ``tile:5-5``)."""
    text = text.strip()
    for parse in (json.loads, lambda t: tomllib.loads(f"v = {t}")["v"]):
        try:
            return check_depth(parse(text), where)
        except InputError:
            raise
        except RecursionError as e:
            raise refusal(where, "JSON", e) from None
        except ValueError:  # not this syntax, or an integer too long to convert: the text, whose check names
            pass            # the parameter's range
    return text


def parse_overrides(items: Optional[List[str]]) -> dict[str, Any]:
    """``--set key=value`` items, each value read as JSON or TOML (``--set divisors=[3,5]``)."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, eq, val = item.partition("=")
        key = key.strip()
        if not eq or not key:
            fail(f"--set {item!r}: write --set PARAMETER=VALUE; parameters: {', '.join(ALL_PARAMETERS)}")
        if key == "players":
            fail(f"--set {item!r}: the number of players is not a --set parameter; allowed: --players N "
                 "(-n N), N = 2, 3 or 4")
        if key in out:
            fail(f"--set {key} is given twice; allowed: each parameter once")
        out[key] = parse_value(val, f"--set {key}")
    return out


def make_rules(name: str, players: int, overrides: Optional[List[str]]):
    """The preset with --set overrides; a bad value exits with one line naming it."""
    try:
        return preset(name, players=players, **parse_overrides(overrides))
    except RulesError as e:
        fail(str(e))


def make_policies(policy: List[str], players: int, python: bool = False):
    """One policy per seat; ``python``: python:module:function policies are accepted (engine/pypolicy.py)."""
    try:
        if python:
            from ..engine.pypolicy import seat_policies as py_seat_policies
            return py_seat_policies(policy, players)
        return seat_policies(policy, players)
    except PolicyError as e:
        fail(str(e))


RULES_OPT = typer.Option("threes", "--rules", "-r", help=f"Preset: {', '.join(PRESETS)}.")
PLAYERS_OPT = typer.Option(4, "--players", "-n", help="Players, 2 to 4.")
SET_OPT = typer.Option(None, "--set", help="Override a rule parameter, e.g. --set min_ends=2 (repeatable).")
#: the root seed of a run, a trace, a replay or a bench (a scenario's seed has the same range)
from ..present import MAX_SEED  # noqa: E402, F401 - the one range of every seed
SEED_HELP = "Root seed, 0 to 2^63 - 1: deal i depends on (seed, i) alone."
POLICY_OPT = typer.Option(["greedy"], "--policy", "-p",
                          help="Policy for every seat, or once per seat in seat order (e.g. hold:until=9).")
#: --policy where Python policies are played (trace, replay, analyze)
PY_POLICY_OPT = typer.Option(["greedy"], "--policy", "-p",
                             help="Policy for every seat, or once per seat in seat order (e.g. hold:until=9, "
                                  "python:package.module:function).")


#: -o/--out: the file a command writes (simdom run's --out is a results folder)
OUT_HELP = "Write the answer to this file instead of the terminal."
#: the old spellings, still accepted but not shown by --help: --output (for --out), --force (for
#: --overwrite), --json (for --format json)
OLD_OUTPUT_OPT = typer.Option(None, "--output", hidden=True, help="The old spelling of --out.")
OLD_FORCE_OPT = typer.Option(False, "--force", hidden=True, help="The old spelling of --overwrite.")
OLD_JSON_OPT = typer.Option(False, "--json", hidden=True, help="The old spelling of --format json.")
OVERWRITE_OPT = typer.Option(False, "--overwrite", help="Replace an existing output file.")


class TableOrJson(str, Enum):
    """--format of the commands that print a table or one JSON value (rules, bench, policies)."""
    table = "table"
    json = "json"


def format_opt(default: TableOrJson = TableOrJson.table):
    return typer.Option(default, "--format", "-f", help="table, or json for machines.")


def out_format(fmt: Optional[Enum], out: Optional[Path], choices: type[Enum]) -> str:
    """The format a command writes, by the one rule of every -o (simdom.present.out_format): --format if
    given, else the format -o's suffix names; ``text`` is written as ``table``. One line if they disagree."""
    from ..present import OptionError, out_format as resolve

    def name(v: str) -> str:
        return "table" if v == "text" else v
    allowed = list(dict.fromkeys(name(c.value) for c in choices))
    try:  # the default: the command's first format (table; export's parquet, view's json)
        return resolve(None if fmt is None else name(fmt.value), out, allowed, default=allowed[0])
    except OptionError as e:
        fail(str(e))


@contextmanager
def work_status(text: str, unit: str = "blocks") -> Iterator[Callable[[int, int], None]]:
    """Long work shown on stderr: ``text`` (what is played, its size and estimated time) as a line first
    (on a terminal; elsewhere only a job long enough to carry an estimate, simdom.run.parallel.ESTIMATE),
    then a bar with the count done of the total, the rate and the time left; yields ``tick(done, total)``.
    The bar is removed when the work ends (the answer follows)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn
    if err.is_terminal or "(an estimate)" in text:
        err.print(text, highlight=False, soft_wrap=True, markup=False)
    if not err.is_terminal:  # a log or a pipe: no bar redrawn in it
        yield lambda done, total: None
        return
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn()]
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(unit, total=None, rate="")

        def tick(done: int, total: int) -> None:
            t = bar.tasks[0]
            speed = t.speed
            bar.update(task, completed=done, total=total,
                       rate=f"{speed:,.1f} {unit}/s" if speed else "")
        yield tick


def check_out(path: Optional[Path], overwrite: bool) -> None:
    """-o FILE: not a folder, and not an existing file unless --overwrite (simdom.present.check_out)."""
    from ..present import OptionError, check_out as check
    try:
        check(path, overwrite)
    except OptionError as e:
        fail(str(e))

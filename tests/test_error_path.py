"""The one error path (issue 12.3, cli/guard.py): the project's errors and foreseeable I/O errors are one line
with exit code 2 (or the error's own code), bugs keep their traceback with exit code 1, `simdom --debug`
shows every traceback, parser errors are one line, and markup in a message is printed as it is."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import typer
from typer.testing import CliRunner

from simdom.cli import app
from simdom.cli.guard import guard_app
from simdom.rules import RulesError
from simdom.run.pool import WorkerLost

SIMDOM = str(Path(sys.executable).with_name("simdom"))


def toy() -> typer.Typer:
    t = typer.Typer()

    @t.command("bug")
    def bug() -> None:
        {}["missing"]  # noqa: B018 - a bug: KeyError

    @t.command("ours")
    def ours() -> None:
        raise RulesError("rules: min_ends = 9 is invalid; allowed: [1, 4] and [[arms]]")

    @t.command("io")
    def io() -> None:
        open("/nonexistent-folder/x.csv", "w")

    @t.command("lost")
    def lost() -> None:
        raise WorkerLost("worker process 1 was killed by SIGKILL while playing chunk 3")

    guard_app(t)
    return t


def test_a_project_error_is_one_line_with_its_brackets_and_exit_2():
    r = CliRunner().invoke(toy(), ["ours"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip() == "Error: rules: min_ends = 9 is invalid; allowed: [1, 4] and [[arms]]"


def test_an_io_error_is_one_line_naming_the_file():
    r = CliRunner().invoke(toy(), ["io"])
    assert r.exit_code == 2 and r.output.strip() == ("Error: /nonexistent-folder/x.csv: folder /nonexistent-folder "
                                                     "does not exist; allowed: a file in an existing folder")


def test_an_error_carries_its_exit_code():
    r = CliRunner().invoke(toy(), ["lost"])
    assert r.exit_code == 1 and r.output.startswith("Error: worker process 1") and "Traceback" not in r.output


def test_a_bug_keeps_its_traceback_and_exit_1():
    done = subprocess.run([sys.executable, "-c", "import sys; sys.argv = ['toy', 'bug']; "
                           "from test_error_path import toy; toy()()"], capture_output=True, text=True,
                          cwd=Path(__file__).parent)
    assert done.returncode == 1
    assert "Traceback" in done.stderr and "KeyError" in done.stderr


def test_debug_shows_the_traceback_of_a_user_error():
    plain = subprocess.run([SIMDOM, "rules", "threes", "--set", "min_ends=9"], capture_output=True, text=True)
    debug = subprocess.run([SIMDOM, "--debug", "rules", "threes", "--set", "min_ends=9"], capture_output=True,
                           text=True)
    assert plain.returncode == debug.returncode == 2
    assert "Traceback" not in plain.stderr and plain.stderr.count("\n") == 1
    assert "Traceback" in debug.stderr and "RulesError" in debug.stderr and "Error: rules: min_ends = 9" in debug.stderr


def test_a_parser_error_is_one_line_pointing_to_help():
    r = CliRunner().invoke(app, ["run", "x.toml", "--deals", "many"])
    assert r.exit_code == 2
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and "--deals" in lines[0] and "simdom run --help" in lines[0]


def test_s8_set_takes_json_values_and_null_cells():
    """The --set example of docs/commands.md: a null cell in first_double_bonus."""
    r = CliRunner().invoke(app, ["rules", "threes", "--json", "--set", "first_double_bonus=[[4,2],[8,4],[null,8]]",
                                 "--set", "hand_size={2 = 6, 3 = 6, 4 = 5}", "--set", "lead=tile:0-0"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["first_double_bonus"] == [[4, 2], [8, 4], [None, 8]] and d["lead"] == "tile:0-0"
    assert d["hand_size"] == {"2": 6, "3": 6, "4": 5}

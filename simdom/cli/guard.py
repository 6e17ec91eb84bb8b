"""The one error path of every simdom command.

Every command runs inside :func:`guarded`: the project's own errors (any exception class defined in a
``simdom`` module: RulesError, PolicyError, ScenarioError, ResultsError, RunError, ReplayError, ...) and
the foreseeable I/O, decoding and parsing errors become one line on stderr (what, where, what is
allowed) and exit code 2, or the code the error carries (``exit_code``: 1 for a run that lost a
worker). Anything else is a bug in simdom: its traceback is shown and the exit code is 1. The global
``simdom --debug`` shows the traceback of every error.

SIGTERM, SIGHUP and Ctrl-C stop any command with one line (exit code 128 + the signal's number, 130 for
Ctrl-C); every file is written through an atomic writer, so a file being written is removed and the
file under the target name is the old one or none.

Usage errors found by the command-line parser (an unknown option, ``--deals abc``) are printed as one
line too, with a pointer to the command's ``--help``.
"""
from __future__ import annotations

import functools
import json
import tomllib
from typing import Any, Callable

import click
import typer

from .common import DEBUG, fail


def is_ours(e: BaseException) -> bool:
    """An exception class defined by simdom (a user's mistake or a fault simdom names), not a bug."""
    return any(c.__module__.split(".")[0] == "simdom" for c in type(e).__mro__)


def message(e: BaseException) -> tuple[str, int] | None:
    """(one line, exit code) for an error the command boundary reports, or None for a bug."""
    if is_ours(e):
        return str(e) or type(e).__name__, int(getattr(e, "exit_code", 2))
    if isinstance(e, MemoryError):
        return "out of memory; allowed: fewer deals per chunk (chunk_size), fewer workers, or more memory", 1
    if isinstance(e, UnicodeDecodeError):
        return f"not UTF-8 text ({e.reason} at byte {e.start}); allowed: UTF-8 text files", 2
    if isinstance(e, json.JSONDecodeError):
        return f"not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})", 2
    if isinstance(e, tomllib.TOMLDecodeError):
        return f"not valid TOML: {e}", 2
    if isinstance(e, OSError):
        return io_message(e), 2
    return None


def io_message(e: OSError) -> str:
    """An I/O error as a person reads it: the file, what is wrong, what would do."""
    import errno
    from pathlib import Path
    name = e.filename
    if name is None:
        return str(e.strerror or e) + (" (the disk is full)" if e.errno == errno.ENOSPC else "")
    parent = Path(name).parent
    if isinstance(e, FileNotFoundError) and not parent.is_dir():
        return f"{name}: folder {parent} does not exist; allowed: a file in an existing folder"
    if isinstance(e, IsADirectoryError):
        return f"{name} is a folder; allowed: a file name"
    if e.errno == errno.ENOSPC:
        return f"{name}: no space left on device (the disk is full)"
    return f"{name}: {e.strerror or e}"


def guarded(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` with the one error path (see the module doc); keeps its signature for Typer."""
    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        from ..run.faults import sigterm_as_interrupt
        try:
            with sigterm_as_interrupt():  # SIGTERM, SIGHUP: like Ctrl-C, a file being written is removed
                return func(*args, **kwargs)
        except KeyboardInterrupt as e:
            name = getattr(e, "signal", None)
            fail(f"{f'terminated ({name})' if name else 'interrupted'}: the command stopped; no partly written file "
                 "is left", getattr(e, "exit_code", 130))
        except (typer.Exit, typer.Abort, click.exceptions.ClickException, SystemExit):
            raise
        except Exception as e:  # noqa: BLE001 - the command boundary
            if DEBUG["on"]:
                raise
            found = message(e)
            if found is None:
                raise  # a bug: the traceback, exit code 1
            fail(found[0].replace("\n", "; "), found[1])
    run.__simdom_guarded__ = True  # type: ignore[attr-defined]
    return run


def guard_app(app: typer.Typer) -> None:
    """Put every command registered on ``app`` behind :func:`guarded` (a module that registers its
    commands guarded, as run and stats do, so that any app holding them has the one error path, is
    left as it is)."""
    for info in app.registered_commands:
        if info.callback is not None and not getattr(info.callback, "__simdom_guarded__", False):
            info.callback = guarded(info.callback)
            info.callback.__simdom_guarded__ = True  # type: ignore[attr-defined]


def one_line_usage_errors() -> None:
    """Typer prints a parser error as a usage line, a hint and a boxed message; simdom prints one line
    (the message and where to find the allowed values)."""
    from typer import rich_utils

    def one_line(e: click.ClickException) -> None:
        if type(e).__name__ == "NoArgsIsHelpError":
            return
        ctx = getattr(e, "ctx", None)
        hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
        text = " ".join(e.format_message().split())
        from .common import err
        from rich.markup import escape
        err.print(f"[bold red]Error:[/] {escape(text)}{escape(hint)}", highlight=False, soft_wrap=True)

    rich_utils.rich_format_error = one_line  # type: ignore[assignment]

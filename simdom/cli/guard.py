"""The one error path of every simdom command.

Every command runs inside :func:`guarded`: the project's own errors (any exception class defined in a
``simdom`` module: RulesError, PolicyError, ScenarioError, ResultsError, RunError, ReplayError, ...) and
the foreseeable I/O, decoding and parsing errors become one line on stderr (what, where, what is
allowed) and exit code 2, or the code the error carries (``exit_code``: 1 for a run that lost a
worker). Anything else is a bug in simdom: its traceback is shown and the exit code is 1. The global
``simdom --debug`` shows the traceback of every error.

SIGTERM, SIGHUP and Ctrl-C stop any command with one line (exit code 128 + the signal's number, 130 for
Ctrl-C), within about a second even inside a long compiled call (simdom/signals.py: a watchdog thread);
every file is written through an atomic writer, so a file being written is removed and the file under
the target name is the old one or none.

Usage errors found by the command-line parser (an unknown option, ``--deals abc``) are printed as one
line too, with a pointer to the command's ``--help``: the simdom group (:class:`OneLineErrors`) runs Typer
with ``standalone_mode=False`` and prints them itself.
"""
from __future__ import annotations

import functools
import json
import re
import sys
import tomllib
from typing import Any, Callable

import click
import typer
import typer.core

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
        from .. import signals
        try:
            with signals.stopping():  # SIGTERM, SIGHUP, Ctrl-C: one line, a file being written is removed
                return func(*args, **kwargs)
        except KeyboardInterrupt as e:
            fail(signals.stop_line(e), getattr(e, "exit_code", 130))
        except (typer.Exit, typer.Abort, click.exceptions.ClickException, SystemExit):
            raise
        except Exception as e:  # noqa: BLE001 - the command boundary
            if DEBUG["on"]:
                raise
            found = message(e)
            stop = signals.received()
            if found is None and stop is not None:  # raised by a library that caught the stop (signals.received)
                fail(signals.stop_line(stop), signals.exit_code(stop))
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


#: the parser's error class: click's ClickException as Typer uses it (Typer vendors click from 0.26 on)
ClickException = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def usage_line(e: BaseException) -> str:
    """A parser error (an unknown option, ``--deals abc``) as one line, with where to find the allowed
    values (the command's --help)."""
    ctx = getattr(e, "ctx", None)
    hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
    text = " ".join(e.format_message().split())
    choice = _CHOICE.fullmatch(text)  # a str-Enum option: in the words of simdom's own checks
    if choice:
        allowed = ", ".join(c.strip().strip("'") for c in choice[3].split(","))
        text = f"{choice[1]} {choice[2]}; allowed: {allowed}"
    return text + hint


#: Typer's message for a value outside a str-Enum option's choices
_CHOICE = re.compile(r"Invalid value for '([^']+)'(?: / '[^']+')*: (?:Value error, )?(.+?) is not one of (.+)\.")


class OneLineErrors(typer.core.TyperGroup):
    """The simdom group: Typer prints a parser error as a usage line, a hint and a boxed message; simdom
    prints one line (:func:`usage_line`) and exits with the error's code (2). Typer runs the command
    with ``standalone_mode=False`` and hands every parser error here."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        from rich.markup import escape

        from .common import err
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except ClickException as e:
            if type(e).__name__ != "NoArgsIsHelpError":  # its help is printed already
                err.print(f"[bold red]Error:[/] {escape(usage_line(e))}", highlight=False, soft_wrap=True)
            sys.exit(e.exit_code)
        except Stopped as e:  # a signal while the parser ran, before or after the command's own guard
            from ..signals import stop_line
            err.print(f"[bold red]Error:[/] {escape(stop_line(e.stop))}", highlight=False, soft_wrap=True)
            sys.exit(getattr(e.stop, "exit_code", 130))
        except typer.Abort:
            err.print("Aborted.", style="red", highlight=False)
            sys.exit(1)
        sys.exit(code if type(code) is int else 0)  # a command's typer.Exit(code) comes back as its code

    def resolve_command(self, ctx, args):  # type: ignore[override]
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:
            given_twice(cmd, rest, ctx)
        return name, cmd, rest

    # Typer turns a KeyboardInterrupt (Ctrl-C, and simdom's SIGTERM and SIGHUP) raised outside the command
    # into a silent exit code 130; parsing and dispatch raise it as Stopped instead, which main reports.
    def make_context(self, *args, **kwargs):  # type: ignore[override]
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt as e:
            raise Stopped(e) from None

    def invoke(self, ctx):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:
            raise Stopped(e) from None


#: the parser's usage error (Typer's vendored click's)
UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


def given_twice(cmd, args: list[str], ctx) -> None:
    """An option that takes one value given twice (``--deals 5 --deals 10``) is refused, never silently
    resolved to its last value: a click UsageError naming it and both values (options that repeat, such
    as --policy and --set, are left alone)."""
    single: dict[str, Any] = {}
    for p in cmd.params:
        if getattr(p, "param_type_name", "") == "option" and not p.multiple and not getattr(p, "count", False):
            for o in (*p.opts, *p.secondary_opts):
                single[o] = p
    seen: dict[str, tuple[str, str]] = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            break
        opt, eq, val = a.partition("=") if a.startswith("--") else (a[:2], "", a[2:]) if (
            a.startswith("-") and len(a) > 2 and a[:2] in single) else (a, "", "")
        p = single.get(opt)
        if p is None:
            i += 1
            continue
        takes = not p.is_flag
        if takes and not eq and not val:
            val = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        shown = val if takes else opt
        if p.name in seen:
            first_opt, first_val = seen[p.name]
            what = (f"{first_opt} {first_val}, then {opt} {shown}" if takes else f"{first_opt}, then {opt}")
            raise UsageError(f"{max(p.opts, key=len) if p.opts else opt} is given twice ({what}); allowed: each "
                                   "option once", ctx=ctx)
        seen[p.name] = (opt, shown)
        i += 1


class Stopped(Exception):
    """A stop signal while the command line was parsed or dispatched (``stop``: the KeyboardInterrupt or
    simdom.signals.Terminated raised)."""

    def __init__(self, stop: KeyboardInterrupt) -> None:
        super().__init__(str(stop))
        self.stop = stop

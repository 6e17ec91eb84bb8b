"""SIGTERM, SIGHUP and Ctrl-C: every simdom command stops with one line and leaves no partly written file.

While a command runs (:func:`stopping`, entered by the command boundary, simdom/cli/guard.py, and by
the runner), SIGTERM and SIGHUP raise :class:`Terminated` and Ctrl-C raises KeyboardInterrupt in the
main thread; the command's own error path then removes the file being written (simdom/safeio.py), a
run keeps the parts it wrote, and one line is printed: exit code 128 + the signal's number, 130 for
Ctrl-C.

Python runs a signal handler only between two bytecodes of the main thread. A compiled call (a solve, a
batch of deals, an analysis's rollouts) can run for a minute without returning, so a **watchdog** thread
is woken by the signal itself (``signal.set_wakeup_fd``: the interpreter's C-level handler writes the
signal's number to a pipe at once; the compiled entries release the GIL, engine/_kernel/jit.py). If the
handler has not run within :data:`GRACE` seconds, the watchdog removes the temporary files being
written (:data:`WRITING`, kept by simdom.safeio.atomic_open), prints the same line and ends the process
with the same exit code. Parts already written stay; the manifest is the one last written, which a
resume verifies against the parts on disk.

A stop raised in a finalizer (``__del__``, a weakref callback: Python prints the exception and drops
it) is caught by ``sys.unraisablehook`` and the signal sent again 20 ms later, outside it. An error
that a library raises instead of the KeyboardInterrupt it caught (polars does) is reported as the
stop (:func:`received`).

Before a command starts (the interpreter importing the command line, a second or so on a cold start),
:func:`simdom.__main__.main` installs the same handlers, so a signal then gets the same line too; once
the command has answered, the signals are ignored while the interpreter shuts down (:func:`finished`).

Standard library only: the entry point imports this before anything else.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from typing import Any, Iterator

#: the signals that stop a command like Ctrl-C (a closed terminal sends SIGHUP)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)

#: every signal that stops a command
ALL_STOP_SIGNALS = (signal.SIGINT, *STOP_SIGNALS)

#: seconds the watchdog waits for the main thread to answer a signal before it ends the process itself
GRACE = 1.0

#: temporary files being written now (simdom.safeio.atomic_open adds each and discards it when done)
WRITING: set[str] = set()


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread: handled like Ctrl-C (a run keeps the parts written, a
    file being written is removed); ``signal`` names it, ``exit_code`` is 128 + its number."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signal = signal.Signals(signum).name
        self.exit_code = exit_code(signum)


def exit_code(signum: int) -> int:
    """The exit code of a command stopped by ``signum``: 128 + its number (130 for Ctrl-C)."""
    return 128 + int(signum)


def stop_line(e: BaseException | int) -> str:
    """The one line of a stopped command, for the exception raised (or the signal's number)."""
    name = signal.Signals(e).name if isinstance(e, int) else getattr(e, "signal", None)
    if name == "SIGINT":
        name = None
    return f"{f'terminated ({name})' if name else 'interrupted'}: the command stopped; no partly written file is left"


def _raise(signum: int, frame: object) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum)


def install() -> None:
    """SIGTERM and SIGHUP raise :class:`Terminated` from now on (Ctrl-C raises KeyboardInterrupt as always):
    the entry point's first step, before the command line is imported."""
    for s in STOP_SIGNALS:
        signal.signal(s, _raise)


def finished() -> None:
    """The command has answered (its output is whole, its exit code set): the stop signals are ignored
    while the interpreter shuts down, which takes a fraction of a second after Python has already reset
    its handlers (a signal then ended the process with no message and the system's exit code)."""
    for s in ALL_STOP_SIGNALS:
        signal.signal(s, signal.SIG_IGN)


#: a :func:`stopping` block is running (only the main thread enters one)
_active = [False]

#: the stop signal received during the last :func:`stopping` block, if any (see :func:`received`)
_received: list[int] = []


def received() -> int | None:
    """The stop signal that arrived during the last (or the current) :func:`stopping` block, or None.

    A library that runs Python code from compiled code (polars converting a value, say) can catch the
    KeyboardInterrupt a handler raised there and raise an error of its own instead (seen: polars'
    ``TypeError: '<unprintable str object>' is not a Polars data type`` after Ctrl-C); the command
    boundary then still reports the stop, not a bug."""
    return _received[-1] if _received else None


@contextlib.contextmanager
def stopping() -> Iterator[None]:
    """While the block runs, SIGTERM, SIGHUP and Ctrl-C stop it as the module doc says: an exception in the
    main thread, or, if the main thread does not answer within :data:`GRACE` seconds, the watchdog's exit.
    Re-entrant (an inner block changes nothing); outside the main thread it changes nothing either."""
    if threading.current_thread() is not threading.main_thread() or _active[0]:
        yield
        return
    answered = threading.Event()
    _received.clear()
    old_hook = sys.unraisablehook

    def handler(signum: int, frame: object) -> None:
        answered.set()
        _received.append(signum)
        _raise(signum, frame)

    def unraisable(u: Any) -> None:  # see _again
        if isinstance(u.exc_value, KeyboardInterrupt) and _received:
            _again(_received[-1])
        else:
            old_hook(u)

    sys.unraisablehook = unraisable
    old = {s: signal.signal(s, handler) for s in ALL_STOP_SIGNALS}
    r, w = os.pipe()
    os.set_blocking(w, False)
    try:
        old_fd = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    except (ValueError, OSError):  # pragma: no cover - an interpreter without wakeup fds
        old_fd = None
    watchdog = threading.Thread(target=_watch, args=(r, answered), name="simdom-signal-watchdog", daemon=True)
    watchdog.start()
    _active[0] = True
    try:
        yield
    finally:
        _active[0] = False
        sys.unraisablehook = old_hook
        if old_fd is not None:
            signal.set_wakeup_fd(old_fd)
        for s, h in old.items():
            signal.signal(s, h)
        os.close(w)  # the watchdog reads the end of the pipe and stops
        watchdog.join(GRACE + 1.0)


def _watch(r: int, answered: threading.Event) -> None:
    """The watchdog (see the module doc): one signal number per byte read from the wakeup pipe."""
    try:
        while True:
            try:
                data = os.read(r, 64)
            except InterruptedError:  # pragma: no cover - PEP 475 retries reads
                continue
            if not data:
                return
            for signum in data:
                if signum not in ALL_STOP_SIGNALS:
                    continue
                if answered.wait(GRACE):
                    answered.clear()
                    continue
                _force(signum)
    finally:
        os.close(r)


def _again(signum: int) -> None:
    """The stop raised in a finalizer (``__del__``, a weakref callback) or any place where Python prints an
    exception as "Exception ignored in ..." and carries on (sys.unraisablehook): the signal is sent again
    20 ms later, when the main thread is elsewhere (seen: pyarrow's ParquetWriter.__del__ during a run,
    importlib's module-lock callback during an analysis; the command went on to the end)."""
    def again() -> None:
        if _active[0]:  # the command is still running (else the stop has been dealt with)
            os.kill(os.getpid(), signum)
    threading.Timer(0.02, again).start()


def _force(signum: int) -> None:
    """End the process now: remove the files being written, print the one line, exit with its code."""
    for tmp in list(WRITING):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    with contextlib.suppress(OSError):
        os.write(2, f"Error: {stop_line(signum)}\n".encode())
    os._exit(exit_code(signum))

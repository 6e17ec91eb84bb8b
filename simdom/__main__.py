"""The ``simdom`` command (and ``python -m simdom``): the stop signals are handled from the first moment.

Importing the command line takes a second or so on a cold start; a SIGTERM, SIGHUP or Ctrl-C meanwhile
gets the same one line and exit code as during a command (simdom/signals.py), not a traceback or a
silent death. Once the command has answered, the interpreter's shutdown (a fraction of a second,
after Python has reset its signal handlers) ignores them: the answer is whole, and the exit code says so.
"""
from __future__ import annotations

import sys


def main() -> None:
    """Run the simdom command line."""
    from . import signals
    try:
        signals.install()  # inside: a signal between two of its handlers gets the one line too
        from .cli import app
        app()
    except KeyboardInterrupt as e:  # before the command line was imported
        sys.stderr.write(f"Error: {signals.stop_line(e)}\n")
        sys.exit(getattr(e, "exit_code", 130))
    finally:
        signals.finished()


if __name__ == "__main__":
    main()

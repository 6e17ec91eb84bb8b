"""Serve the table: uvicorn over the Starlette app (simdom/table/app.py)."""
from __future__ import annotations

import signal
import socket
from typing import Callable


def check_port(host: str, port: int) -> str | None:
    """What keeps the server from listening on host:port, or None."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as e:
        return e.strerror or str(e)
    return None


def serve(host: str, port: int, say: Callable[[str], None]) -> None:
    """Run until Ctrl-C (or SIGTERM): uvicorn handles both and stops cleanly."""
    import uvicorn

    from .app import create_app

    config = uvicorn.Config(create_app(), host=host, port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    say(f"simdom table is at http://{shown}:{port}/ (Ctrl-C stops it)")
    # uvicorn answers Ctrl-C and SIGTERM itself (a clean shutdown), then passes the signal on to simdom's
    # handler (simdom/signals.py), whose KeyboardInterrupt is the stop asked for; simdom's watchdog, for
    # compiled code that does not answer, is not needed here (the main thread runs the server's loop)
    old = signal.set_wakeup_fd(-1)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        signal.set_wakeup_fd(old)
    say("simdom table stopped.")

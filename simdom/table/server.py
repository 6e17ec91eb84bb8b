"""Serve the table: uvicorn over the Starlette app (simdom/table/app.py) behind its guard (guard.py)."""
from __future__ import annotations

import ipaddress
import signal
import socket
from typing import Callable

#: seconds the server waits for answers under way once asked to stop (jobs are cancelled at once)
STOP_WAIT = 1


def check_port(host: str, port: int) -> str | None:
    """What keeps the server from listening on host:port, or None."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as e:
        return e.strerror or str(e)
    return None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def address(host: str, port: int, token: str) -> str:
    """The address to open: the page, with the server's secret (docs/table.md, "Security")."""
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return f"http://{shown}:{port}/?token={token}"


def serve(host: str, port: int, say: Callable[[str], None]) -> None:
    """Run until Ctrl-C (or SIGTERM): uvicorn handles both and stops cleanly, its jobs cancelled."""
    import uvicorn

    from .app import create_app

    app = create_app(host=host, port=port)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=STOP_WAIT)
    server = uvicorn.Server(config)
    if not is_loopback(host):
        say(f"warning: --host {host} serves the table to other machines; anyone who can reach it and has the "
            "address below (its token) can play and read your games")
    say(f"simdom table is at {address(host, port, app.token)} (Ctrl-C stops it)")
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
        app.store.pool.stop()
    say("simdom table stopped.")

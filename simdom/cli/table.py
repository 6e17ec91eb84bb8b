"""`simdom table`: the local web app (simdom/table/): play a deal against bots or follow a real game,
with hints, a tutor, the values with every hand known and the review (docs/table.md)."""
from __future__ import annotations

import typer

from .common import console, fail


def table_cmd(
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Address to listen on (default: this machine only; 0.0.0.0 for every "
                                  "interface)."),
    port: int = typer.Option(8765, "--port", min=1, max=65535, help="Port to listen on."),
) -> None:
    """Start the table, a local web app: play a deal against bots or follow a real game from your seat, with hints, a tutor, the values with every hand known and a review of the deal.

    The URL is printed; open it in a browser. Ctrl-C stops the server (docs/table.md).

    [bold]Examples[/]

      simdom table
      simdom table --port 8080
    """
    from ..table.server import check_port, serve

    problem = check_port(host, port)
    if problem:
        fail(f"--host {host} --port {port}: cannot listen there ({problem}); allowed: a free port (--port N) "
             "on an address of this machine")
    serve(host, port, lambda line: console.print(line, highlight=False, markup=False, soft_wrap=True))


def register(app: typer.Typer) -> None:
    app.command("table")(table_cmd)

"""The one page of ``simdom table``, in files shipped as package data (simdom/table/static/): the HTML,
its style sheet and its script over the JSON API (simdom/table/app.py). No framework and nothing from
the network: the page works offline. The HTML carries the server's secret (a ``<meta>`` the script sends
back on every request, docs/table.md), filled in when it is served."""
from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

#: the static files the page loads, with their media types
STATIC = {"page.css": "text/css; charset=utf-8", "page.js": "text/javascript; charset=utf-8"}


@lru_cache(maxsize=None)
def static(name: str) -> str:
    """The text of a file of simdom/table/static/ (``page.html``, ``page.css``, ``page.js``)."""
    return files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def page(token: str) -> str:
    """The page's HTML with the server's secret in it (``token`` is URL-safe base64: nothing to escape)."""
    return static("page.html").replace("{{TOKEN}}", token)

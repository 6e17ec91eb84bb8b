"""Who may drive ``simdom table``: an ASGI layer in front of the app (docs/table.md, "Security").

One check per concern, each answering a 4xx with one line and touching nothing:

* **Host**: the ``Host`` header names the address served (``localhost`` or an IP address, or the
  ``--host`` given) and its port: a DNS-rebinding page, whose host is the attacker's name, is refused.
* **Secret**: the server makes a secret when it starts and prints it in the address it shows
  (``/?token=...``); that address sets a cookie (``HttpOnly``, ``SameSite=Strict``) and the page it
  serves carries the secret for its script. The page and every API request need the cookie or the
  secret; a request that changes anything (``POST``) needs the secret in the ``X-Simdom-Token`` header,
  which no other origin can send without a preflight this server never grants, and which another local
  user, who never saw the address printed, does not have.
* **Origin**: a ``POST`` whose ``Origin`` is not the page's own is refused, whatever else it carries.
* **Size**: a body is read up to :data:`MAX_BODY` bytes and refused beyond it (``413``) before more of
  it is read, so memory stays bounded.
* **Headers**: the page may not be framed (``frame-ancestors 'none'``, ``X-Frame-Options``), runs only
  its own script (a content security policy), and no answer is cached or leaks its address.
"""
from __future__ import annotations

import hmac
import ipaddress
import json
from http.cookies import SimpleCookie
from typing import Any, Awaitable, Callable
from urllib.parse import parse_qs, urlsplit

#: the largest request body accepted, in bytes
MAX_BODY = 100_000
#: the cookie and the header that carry the server's secret
COOKIE, HEADER = "simdom-table", "x-simdom-token"
#: paths anyone on an accepted host may read: the page's own files (nothing secret in them)
PUBLIC = ("/static/", "/favicon.ico")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                    (b"cache-control", b"no-store")]

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


def host_allowed(host: str, served: str, port: int) -> bool:
    """Whether a ``Host`` header names this server: ``localhost``, an IP address (no name to rebind) or
    the name it was started on, with the port it listens on (or none)."""
    if not host:
        return False
    name, _, given = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not name:        # no port given
        name, given = host, ""
    if given and given != str(port):
        return False
    name = name.strip("[]").lower()
    if name in ("localhost", served.strip("[]").lower()):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """The ASGI layer (module doc) around ``app``, for a server on ``host``:``port`` with ``token``."""

    def __init__(self, app: Callable, token: str, host: str = "127.0.0.1", port: int = 8765):
        self.app, self.token, self.host, self.port = app, token, host, port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        path, method = scope["path"], scope["method"]
        secured = _secured(send)
        if not host_allowed(headers.get("host", ""), self.host, self.port):
            return await _refuse(secured, 421, f"host {headers.get('host', '')[:60]!r} is not this server; "
                                 f"allowed: the address simdom table printed (port {self.port})")
        if path.startswith(PUBLIC):
            return await self.app(scope, receive, secured)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if method == "GET" and not path.startswith("/api/") and "token" in query:
            return await self._enter(query["token"][0], path, secured)
        cookie = _cookie(headers.get("cookie", ""))
        sent = headers.get(HEADER, "")
        if not (self._is(sent) or self._is(cookie)):
            return await _refuse(secured, 403, "this table needs its secret; allowed: the address simdom table "
                                 "printed, with its ?token=")
        if method not in ("GET", "HEAD"):
            origin = headers.get("origin")
            if origin is not None and urlsplit(origin).netloc != headers.get("host"):
                return await _refuse(secured, 403, f"origin {origin[:60]!r} is not this page's; allowed: "
                                     "requests from the table's own page")
            if not self._is(sent):
                return await _refuse(secured, 403, "a change needs the secret in the X-Simdom-Token header; "
                                     "allowed: requests from the table's own page")
            body = await _read_body(scope, receive)
            if body is None:
                return await _refuse(secured, 413, f"malformed request: the body is larger than "
                                     f"{MAX_BODY // 1000} kB; allowed: at most {MAX_BODY // 1000} kB")
            receive = _replay(body, receive)
        await self.app(scope, receive, secured)

    def _is(self, value: str) -> bool:
        return bool(value) and hmac.compare_digest(value.encode(), self.token.encode())

    async def _enter(self, token: str, path: str, send: Send) -> None:
        """The printed address: the secret becomes the cookie, and the address loses it (a redirect)."""
        if not self._is(token):
            return await _refuse(send, 403, "this token is not this server's; allowed: the address simdom "
                                 "table printed")
        cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", path.encode()), (b"set-cookie", cookie.encode()),
                                (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})


def _cookie(header: str) -> str:
    try:
        jar = SimpleCookie(header)
    except Exception:  # noqa: BLE001 - a malformed cookie is no secret
        return ""
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None else ""


def _secured(send: Send) -> Send:
    """``send`` with the security headers added to every answer."""
    async def wrapped(message: dict) -> None:
        if message["type"] == "http.response.start":
            have = {k.lower() for k, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in have]
            message = {**message, "headers": list(message.get("headers", [])) + extra}
        await send(message)
    return wrapped


async def _refuse(send: Send, status: int, line: str) -> None:
    body = json.dumps({"error": line}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _read_body(scope: Scope, receive: Receive) -> bytes | None:
    """The whole body, or None as soon as it is known to exceed :data:`MAX_BODY` (the rest unread)."""
    for k, v in scope["headers"]:
        if k.lower() == b"content-length":
            try:
                if int(v) > MAX_BODY:
                    return None
            except ValueError:
                return None
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body already read, then the connection's own messages (its disconnect)."""
    sent = False

    async def replay() -> dict:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replay

"""`simdom table` as an attacker, and a busy player, meet it: the real server (the `simdom table` command
as a process on 127.0.0.1), raw HTTP over loopback (docs/table.md, "Security").

* nothing from a request runs code: a `python:` policy named as `then` (review, hint) or as a bot is
  refused, and the file it names is never run;
* only the page the server printed can drive it: DNS rebinding (a foreign `Host`), a cross-origin simple
  POST, a foreign `Origin`, a missing or wrong secret, another local user without the secret: each a 4xx,
  nothing changed;
* every bad body a 4xx with one line, the size bounded while reading;
* a long job never freezes the table: another game's move answers at once, a new hint cancels the
  game's job, and Ctrl-C stops the server within 2 s while a job runs.
"""
from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Table:
    """A `simdom table` process and a client that knows its secret (as the page does)."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "simdom", "table", "--port", str(self.port)], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "COLUMNS": "200"})
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:\d+/\?token=(\S+)", line)
        assert m, line + (self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.token = m.group(1)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)

    def raw(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            timeout: float = 60) -> tuple[int, dict, bytes]:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        h = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        out = r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        c.close()
        return out

    def call(self, path: str, body: dict | None = None, **kw) -> tuple[int, dict]:
        """A request as the page makes it: the secret in its header, JSON in and out."""
        headers = {"X-Simdom-Token": self.token, "Content-Type": "application/json",
                   "Origin": f"http://127.0.0.1:{self.port}", **kw.pop("headers", {})}
        status, _, data = self.raw("POST" if body is not None else "GET", path,
                                   None if body is None else json.dumps(body).encode(), headers, **kw)
        return status, json.loads(data)

    def new(self, **form) -> dict:
        status, g = self.call("/api/new", {"mode": "play", "rules": "threes", "players": 2, "seat": 0,
                                           "bots": "greedy", "seed": 11, **form})
        assert status == 200, g
        return g

    def stop(self, within: float = 2.0) -> float:
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.communicate(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return time.monotonic() - t0


@pytest.fixture(scope="module")
def table():
    t = Table()
    yield t
    t.stop()


def _one_line(data: bytes) -> str:
    err = json.loads(data)["error"]
    assert "\n" not in err and "Traceback" not in err and len(err) < 300, err
    return err


# -- 1. nothing from the browser runs code -----------------------------------------------------------------
def test_a_python_policy_is_refused_by_every_endpoint_that_takes_a_policy(table, tmp_path):
    marker = tmp_path / "ran"
    evil = tmp_path / "evil.py"
    evil.write_text(f"open({str(marker)!r}, 'w').write('ran')\ndef f(*a):\n    return 0\n")
    g = table.new()
    table.call(f"/api/game/{g['id']}/play", {"tile": g["legal"][0][0], "end": g["legal"][0][1]})
    for then in (f"python:{evil}:f", "python:os:system", "python:/no/such/file.py:f"):
        for path, body in ((f"/api/game/{g['id']}/review", {"then": then}),
                           (f"/api/game/{g['id']}/hint", {"then": then}),
                           ("/api/new", {"mode": "play", "rules": "threes", "players": 2, "bots": [then, then]})):
            status, out = table.call(path, body)
            assert status == 400, (path, then, out)
            assert "compiled policy" in out["error"], out
            assert "no such file" not in out["error"].lower() and "exist" not in out["error"], out
    time.sleep(0.5)
    assert not marker.exists()


# -- 2. only the user's own page ----------------------------------------------------------------------------
def test_dns_rebinding_a_foreign_host_is_refused_and_changes_nothing(table):
    g = table.new()
    for path in ("/", f"/game/{g['id']}", f"/api/game/{g['id']}", "/api/new"):
        status, _, data = table.raw("POST" if path == "/api/new" else "GET", path, b"{}",
                                    {"Host": f"evil.example:{table.port}", "X-Simdom-Token": table.token,
                                     "Content-Type": "application/json"})
        assert status == 421 and "not this server" in _one_line(data)
    status, _, _ = table.raw("GET", f"/api/game/{g['id']}", headers={"Host": "127.0.0.1:1",
                                                                     "X-Simdom-Token": table.token})
    assert status == 421


def test_a_cross_origin_simple_post_a_foreign_origin_and_a_missing_or_wrong_secret_change_nothing(table):
    g = table.new()
    gid, version = g["id"], g["version"]
    move = {"tile": g["legal"][0][0], "end": g["legal"][0][1]}
    attacks = [
        # a page on another origin: a simple POST (text/plain, no custom header, the cookie at most)
        {"Origin": "http://evil.example", "Content-Type": "text/plain"},
        # a foreign Origin even with the secret
        {"Origin": "http://evil.example", "X-Simdom-Token": table.token, "Content-Type": "application/json"},
        # another local user or page without the secret, or with a wrong one, or with only a cookie
        {"Content-Type": "application/json"},
        {"X-Simdom-Token": "wrong", "Content-Type": "application/json"},
        {"Cookie": f"simdom-table={table.token}", "Content-Type": "application/json"},
    ]
    for h in attacks:
        for path, body in ((f"/api/game/{gid}/play", move), (f"/api/game/{gid}/undo", {}),
                           ("/api/new", {"mode": "play"})):
            status, _, data = table.raw("POST", path, json.dumps(body).encode(), h)
            assert status == 403, (h, path, data)
            _one_line(data)
    for _ in range(205):   # as many as would evict the user's game, were they accepted
        status, _, _ = table.raw("POST", "/api/new", b'{"mode": "play"}', {"Content-Type": "text/plain"})
        assert status == 403
    status, now = table.call(f"/api/game/{gid}")
    assert status == 200 and now["version"] == version and now["history"] == g["history"]


def test_the_page_needs_the_printed_address_and_carries_its_protections(table):
    status, h, data = table.raw("GET", "/")
    assert status == 403 and table.token.encode() not in data
    status, h, _ = table.raw("GET", "/?token=wrong")
    assert status == 403 and "set-cookie" not in h
    status, h, _ = table.raw("GET", f"/?token={table.token}")
    assert status == 303 and h["location"] == "/"
    cookie = h["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    status, h, data = table.raw("GET", "/", headers={"Cookie": cookie.split(";")[0]})
    assert status == 200 and f'content="{table.token}"'.encode() in data
    assert "frame-ancestors 'none'" in h["content-security-policy"] and "script-src 'self'" in h[
        "content-security-policy"]
    assert h["x-frame-options"] == "DENY"
    assert b"<script>" not in data and b'src="/static/page.js"' in data   # no inline script to allow
    status, h, data = table.raw("GET", "/static/page.js")
    assert status == 200 and h["content-type"].startswith("text/javascript") and b"x-simdom-token" in data


# -- 4. bad bodies ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("body, says", [
    (b'{"mode": "play", "rules": "\xff\xfe"}', "not UTF-8"),
    (b"[" * 40_000 + b"]" * 40_000, "nested"),
    (json.dumps({"mode": "play", "overrides": {"a": [[[[[[[[[[[1]]]]]]]]]]]}}).encode(), "nested"),
    (b'{"mode": "play", "seed": ' + b"7" * 5000 + b"}", "not JSON"),
    ('{"mode": "play", "seed": "²"}'.encode(), "seed"),
    (b'{"mode": "play", "seed": "' + b"9" * 5000 + b'"}', "seed"),
    (b"not json", "not JSON"),
    (b'["a list"]', "JSON object"),
])
def test_every_bad_body_is_a_4xx_with_one_line(table, body, says):
    status, _, data = table.raw("POST", "/api/new", body, {"X-Simdom-Token": table.token,
                                                          "Content-Type": "application/json"})
    assert 400 <= status < 500, (status, data[:200])
    assert says in _one_line(data)


def test_a_large_body_is_refused_while_it_is_read_and_memory_stays_bounded(table):
    rss0 = psutil.Process(table.proc.pid).memory_info().rss
    status, _, data = table.raw("POST", "/api/new", b"x", {"X-Simdom-Token": table.token,
                                                          "Content-Length": str(200_000_000)})
    assert status == 413 and "100 kB" in _one_line(data)
    # a body sent in chunks with no length: refused once past the limit, the rest never read whole
    c = http.client.HTTPConnection("127.0.0.1", table.port, timeout=30)
    c.putrequest("POST", "/api/new", skip_host=True, skip_accept_encoding=True)
    for k, v in {"Host": f"127.0.0.1:{table.port}", "X-Simdom-Token": table.token,
                 "Transfer-Encoding": "chunked"}.items():
        c.putheader(k, v)
    c.endheaders()
    chunk = b"[" + b" " * 65_534 + b"]"
    try:
        for _ in range(3000):    # up to 200 MB
            c.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    except OSError:
        pass   # the server answered and closed: the rest was never read
    r = c.getresponse()
    assert r.status == 413
    c.close()
    grown = psutil.Process(table.proc.pid).memory_info().rss - rss0
    assert grown < 50_000_000, grown


# -- 3. jobs that never freeze the table -------------------------------------------------------------------
def _wait(table: Table, gid: str, kind: str, cond, timeout: float = 60) -> dict:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        _, g = table.call(f"/api/game/{gid}")
        job = g["jobs"].get(kind)
        if job is not None and cond(job):
            return job
        time.sleep(0.05)
    raise AssertionError(f"{kind}: not reached in {timeout} s: {g['jobs']}")


def test_a_long_job_never_delays_another_games_move_and_a_new_hint_cancels_it(table):
    a = table.new(seed=3)
    table.call(f"/api/game/{a['id']}/play", {"tile": a["legal"][0][0], "end": a["legal"][0][1]})
    status, _ = table.call(f"/api/game/{a['id']}/review", {"rollouts": 200_000, "luck_rollouts": 200_000})
    assert status == 200
    _wait(table, a["id"], "review", lambda j: j["seconds"] >= 0.5 and not j["finished"])
    b = table.new(seed=4)
    for _ in range(3):   # moves in another game, each answered at once
        if not b["legal"]:
            break
        t0 = time.monotonic()
        status, b = table.call(f"/api/game/{b['id']}/play", {"tile": b["legal"][0][0], "end": b["legal"][0][1]})
        assert status == 200 and time.monotonic() - t0 < 1.0, time.monotonic() - t0
    # a new hint in game A cancels its review at the review's next report
    a_now = table.call(f"/api/game/{a['id']}")[1]
    if a_now["turn"] == a_now["seat"] and not a_now["ended"]:
        table.call(f"/api/game/{a['id']}/hint", {"rollouts": 200})
    else:
        table.call(f"/api/game/{a['id']}/cancel", {})
    t0 = time.monotonic()
    job = _wait(table, a["id"], "review", lambda j: j["finished"], timeout=10)
    assert job["error"] == "cancelled" and time.monotonic() - t0 < 5


def test_ctrl_c_stops_the_server_within_2_s_while_a_job_runs():
    t = Table()
    try:
        g = t.new(seed=5)
        t.call(f"/api/game/{g['id']}/play", {"tile": g["legal"][0][0], "end": g["legal"][0][1]})
        t.call(f"/api/game/{g['id']}/review", {"rollouts": 200_000, "luck_rollouts": 200_000})
        _wait(t, g["id"], "review", lambda j: j["seconds"] >= 0.5 and not j["finished"])
    finally:
        took = t.stop()
    assert t.proc.returncode == 0 and took < 2.0, took

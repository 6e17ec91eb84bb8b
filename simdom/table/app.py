"""The web app of ``simdom table`` (Starlette): one page, a JSON API over :mod:`simdom.table.game`.

Each game lives on the server under its id; the page's address carries it (``/game/ID``), so a reload
shows the same game and two tabs hold two games. Every request that changes a game is tried on the
game under its lock and kept only if accepted; a refused one answers 400 with ``{"error": "one
line"}`` and the game is as it was. Hints, the solver and the review run in a background thread (one
at a time: the machine's cores are the rollouts'), and the page polls the game for their progress.
"""
from __future__ import annotations

import json
import threading
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..policies import REGISTRY
from ..rules import PRESETS
from . import game as G
from . import inputs
from .follow import FollowGame
from .page import PAGE

FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 32"><rect x="1" y="1" width="14" height="30" '
           'rx="3" fill="#fffdf6" stroke="#333"/><line x1="2" y1="16" x2="14" y2="16" stroke="#888"/>'
           '<circle cx="8" cy="8" r="2"/><circle cx="5" cy="21" r="2"/><circle cx="11" cy="27" r="2"/></svg>')
#: the most games kept at once (the oldest is dropped beyond it)
MAX_GAMES = 200
#: the policies a bot may play, with their defaults; "expert" is listed when the registry has it
BOT_POLICIES = [name for name, info in REGISTRY.items() if info.fair]


class Store:
    def __init__(self) -> None:
        self.games: dict[str, G.Game] = {}
        self.lock = threading.Lock()
        self.work = threading.Lock()   # one background job at a time

    def add(self, g: G.Game) -> None:
        with self.lock:
            self.games[g.id] = g
            while len(self.games) > MAX_GAMES:
                self.games.pop(next(iter(self.games)))

    def get(self, gid: str) -> G.Game:
        g = self.games.get(gid)
        if g is None:
            raise LookupError(f"no game {gid!r} on this server (it was restarted, or the address is wrong); "
                              "allowed: a new game")
        return g


def _error(msg: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": msg}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > 100_000:
        raise inputs.TableError("malformed request: the body is larger than 100 kB")
    try:
        data = json.loads(raw or b"{}")
    except ValueError as e:
        raise inputs.TableError(f"malformed request: not JSON ({e.msg}); allowed: a JSON object") from None
    if not isinstance(data, dict):
        raise inputs.TableError("malformed request: allowed: a JSON object")
    return data


def _int(data: dict, key: str, default: int, lo: int, hi: int) -> int:
    v = data.get(key, default)
    if v is None or v == "":
        v = default
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        v = int(v)
    if type(v) is not int or not lo <= v <= hi:
        raise inputs.TableError(f"{key} {v!r}; allowed: an integer from {lo} to {hi:,}")
    return v


def create_app() -> Starlette:
    store = Store()

    def handler(fn: Callable) -> Callable:
        async def wrapped(request: Request) -> Response:
            try:
                data = await _body(request) if request.method == "POST" else {}
                g = store.get(request.path_params["gid"]) if "gid" in request.path_params else None
                return await run_in_threadpool(fn, g, data, request)
            except LookupError as e:
                return _error(str(e).strip("'\""), 404)
            except inputs.TableError as e:
                return _error(str(e))
        return wrapped

    def state(g: G.Game) -> JSONResponse:
        with g.lock:
            return JSONResponse(g.as_json())

    def changed(g: G.Game, fn: Callable[[], None]) -> JSONResponse:
        with g.lock:
            fn()
            g.jobs.clear()
            return JSONResponse(g.as_json())

    def start_job(g: G.Game, kind: str, work: Callable[[G.Job], Any]) -> JSONResponse:
        with g.lock:
            old = g.jobs.get(kind)
            if old is not None and not old.finished and old.key == g.version:
                return JSONResponse(g.as_json())
            job = G.Job(kind, g.version)
            g.jobs[kind] = job

        def run() -> None:
            with store.work:
                try:
                    result = work(job)
                    err = None
                except inputs.TableError as e:
                    result, err = None, str(e)
                except Exception as e:  # noqa: BLE001 - shown on the page, the server goes on
                    result, err = None, f"{type(e).__name__}: {e}"
            with g.lock:
                job.result, job.error, job.finished = result, err, True

        threading.Thread(target=run, daemon=True, name=f"table-{kind}").start()
        return state(g)

    # -- pages ----------------------------------------------------------------------------------------
    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE)

    async def favicon(request: Request) -> Response:
        return Response(FAVICON, media_type="image/svg+xml")

    async def options(request: Request) -> Response:
        return JSONResponse({"presets": list(PRESETS), "policies": BOT_POLICIES})

    # -- games ----------------------------------------------------------------------------------------
    def new(_g, data: dict, request: Request) -> Response:
        mode = data.get("mode")
        if mode not in ("play", "follow"):
            raise inputs.TableError(f"mode {mode!r}; allowed: play, follow")
        over = data.get("overrides", "")
        over = inputs.parse_overrides(over) if isinstance(over, str) else over
        rules = inputs.make_rules(data.get("rules", "threes"), _int(data, "players", 4, 2, 4), over)
        seat = inputs.check_seat(_int(data, "seat", 0, 0, 3), rules.players)
        if mode == "play":
            bots = data.get("bots") or ["greedy"] * rules.players
            if isinstance(bots, str):
                bots = [bots] * rules.players
            if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
                raise inputs.TableError("bots: allowed: a list of policies, one per seat")
            if len(bots) == 1:
                bots = bots * rules.players
            g: G.Game = G.PlayGame(rules, seat, list(bots), inputs.check_seed(_int(data, "seed", 1, 0, inputs.MAX_SEED)),
                                   _int(data, "deal", 0, 0, 2**31))
        else:
            g = FollowGame(rules, seat, _int(data, "first", 0, 0, 3), data.get("hand", ""), data.get("scores"))
        store.add(g)
        return state(g)

    def get(g, data, request) -> Response:
        return state(g)

    def play(g, data, request) -> Response:
        if not isinstance(g, G.PlayGame):
            raise inputs.TableError("this game is followed; allowed: an action (act)")
        with g.lock:
            if g.tutor is not None and not data.get("confirm"):
                warn = _tutor(g, data)
                if warn:
                    out = g.as_json()
                    out["warning"] = warn
                    return JSONResponse(out)
            return changed(g, lambda: g.play(data.get("tile"), data.get("end")))

    def act(g, data, request) -> Response:
        if not isinstance(g, FollowGame):
            raise inputs.TableError("this game is played against bots; allowed: a move (play)")
        with g.lock:
            if g.tutor is not None and not data.get("confirm") and data.get("act") == "play" \
                    and data.get("seat") == g.seat:
                warn = _tutor(g, data)
                if warn:
                    out = g.as_json()
                    out["warning"] = warn
                    return JSONResponse(out)
            return changed(g, lambda: g.act(data.get("seat"), data.get("act"), data.get("tile"), data.get("end")))

    def _tutor(g: G.Game, data: dict) -> str | None:
        """The tutor's warning for the move asked, or None: the hint of this position (the one shown if
        it is finished, else one with the default rollouts) says how much the move loses."""
        if not g.my_turn():
            return None
        job = g.jobs.get("hint")
        if job is not None and job.finished and job.result and job.key == g.version:
            hint = job.result
        else:
            with store.work:
                hint = g.hint(G.HINT_ROLLOUTS, 1, "greedy", lambda d, n: None)
            j = G.Job("hint", g.version, hint["rollouts"], hint["rollouts"], hint, None, True)
            g.jobs["hint"] = j
        t, e = inputs.parse_move(data.get("tile"), data.get("end"), g.rules)
        name = f"{G.tile_name(t, g.rules.max_pip)} {e.label}"
        row = next((r for r in hint["rows"] if r["move"] == name), None)
        if row is None or row["loss"] <= g.tutor:
            return None
        best = hint["rows"][0]
        return (f"{name} loses {row['loss']:.2f} points against {best['move']} ({row['loss_lo']:.2f} to "
                f"{row['loss_hi']:.2f}), more than your threshold {g.tutor:g}; play it anyway?")

    def next_deal(g, data, request) -> Response:
        if isinstance(g, FollowGame):
            return changed(g, lambda: g.next_deal(data.get("hand", ""), _int(data, "first", 0, 0, 3),
                                                  data.get("scores")))
        return changed(g, g.next_deal)

    def undo(g, data, request) -> Response:
        return changed(g, g.undo)

    def tutor(g, data, request) -> Response:
        v = data.get("threshold")
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 100):
            raise inputs.TableError(f"threshold {v!r}; allowed: points from 0 to 100, or null (tutor off)")
        with g.lock:
            g.tutor = None if v is None else float(v)
        return state(g)

    def hint(g, data, request) -> Response:
        # no rollouts given: simdom analyze's default, until the best move is separated (at most its budget)
        auto = data.get("rollouts") in (None, "", 0)
        rollouts = None if auto else _int(data, "rollouts", G.HINT_ROLLOUTS, 2, G.MAX_HINT_ROLLOUTS)
        seed = _int(data, "seed", 1, 0, inputs.MAX_SEED)
        then = data.get("then", "greedy") or "greedy"
        if not isinstance(then, str) or then.startswith("python:"):
            raise inputs.TableError(f"then {then!r}; allowed: a compiled policy, e.g. greedy")
        try:
            G.parse_policy(then)
        except G.PolicyError as e:
            raise inputs.TableError(f"then: {e}") from None
        move = data.get("move")
        with g.lock:
            if move is not None:   # a move of the review: the position before it, from the mover's information
                pos = g.review_position(move)
            elif not g.my_turn():
                raise inputs.TableError("it is not your turn; allowed: a hint when you are to place a tile")
            else:
                pos = g.position()  # taken now: a move made meanwhile drops this hint, not mixes it

        def work(job: G.Job):
            def progress(done: int, planned: int) -> None:
                job.done, job.planned = done, planned
            return g.hint(rollouts, seed, then, progress, pos)
        return start_job(g, "hint" if move is None else "move-hint", work)

    def solve(g, data, request) -> Response:
        if not isinstance(g, G.PlayGame):
            raise inputs.TableError("the other hands of a followed game are unknown; allowed: the hint")
        with g.lock:
            if not g.my_turn():
                raise inputs.TableError("it is not your turn; allowed: the values when you are to place a tile")
            snap = g.st.copy()

        def work(job: G.Job):
            return g.solve(snap)
        return start_job(g, "solve", work)

    def review(g, data, request) -> Response:
        rollouts = _int(data, "rollouts", G.REVIEW_ROLLOUTS, 2, G.MAX_HINT_ROLLOUTS)
        luck = _int(data, "luck_rollouts", G.REVIEW_LUCK_ROLLOUTS, 2, G.MAX_HINT_ROLLOUTS)
        seed = _int(data, "seed", 1, 0, inputs.MAX_SEED)
        then = data.get("then", "greedy") or "greedy"
        with g.lock:
            deal, viewer = G.review_subject(g)
            if not deal.plays:
                raise inputs.TableError("no placement to review yet; allowed: the review after a move")

        def work(job: G.Job):
            return G.review_json(g, deal, viewer, rollouts, luck, seed, then)
        return start_job(g, "review", work)

    def export(g, data, request) -> Response:
        kind = request.path_params["kind"]
        with g.lock:
            if kind == "script":
                if not isinstance(g, G.PlayGame):
                    raise inputs.TableError("a followed game has hidden hands; allowed: export/position (what your "
                                       "seat saw), which simdom analyze --position and review --position read")
                text, name = g.script_toml(), f"table-{g.id}.deal.toml"
            elif kind == "position":
                text, name = json.dumps(g.view_dict(), indent=1) + "\n", f"table-{g.id}.position.json"
            else:
                raise inputs.TableError(f"export {kind!r}; allowed: script, position")
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    routes = [
        Route("/", page), Route("/game/{gid}", page), Route("/api/options", options),
        Route("/favicon.ico", favicon),
        Route("/api/new", handler(new), methods=["POST"]),
        Route("/api/game/{gid}", handler(get)),
        Route("/api/game/{gid}/play", handler(play), methods=["POST"]),
        Route("/api/game/{gid}/act", handler(act), methods=["POST"]),
        Route("/api/game/{gid}/undo", handler(undo), methods=["POST"]),
        Route("/api/game/{gid}/next", handler(next_deal), methods=["POST"]),
        Route("/api/game/{gid}/tutor", handler(tutor), methods=["POST"]),
        Route("/api/game/{gid}/hint", handler(hint), methods=["POST"]),
        Route("/api/game/{gid}/solve", handler(solve), methods=["POST"]),
        Route("/api/game/{gid}/review", handler(review), methods=["POST"]),
        Route("/api/game/{gid}/export/{kind}", handler(export)),
    ]
    app = Starlette(routes=routes)
    app.state.store = store
    return app

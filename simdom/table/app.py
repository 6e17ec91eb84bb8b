"""The web app of ``simdom table`` (Starlette): one page, a JSON API over :mod:`simdom.table.game`.

Each game lives on the server under its id; the page's address carries it (``/game/ID``), so a reload
shows the same game and two tabs hold two games. Every request that changes a game is tried on the game
under its lock and kept only if accepted; a refused one answers 400 with ``{"error": "one line"}`` and the
game is as it was. Hints, the solver and the review are jobs (simdom/table/jobs.py): a bounded pool runs
them, one a game, and the page polls the game for their progress. The handlers are plain functions at
module level that read the app's state (``request.app.state``); who may call them is checked before
(simdom/table/guard.py), what they accept by :mod:`simdom.table.inputs`.
"""
from __future__ import annotations

import secrets
import threading
from contextlib import asynccontextmanager
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
from .guard import Guard
from .jobs import Job, Pool, cancel_all
from .page import STATIC, page, static

FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 32"><rect x="1" y="1" width="14" height="30" '
           'rx="3" fill="#fffdf6" stroke="#333"/><line x1="2" y1="16" x2="14" y2="16" stroke="#888"/>'
           '<circle cx="8" cy="8" r="2"/><circle cx="5" cy="21" r="2"/><circle cx="11" cy="27" r="2"/></svg>')
#: the most games kept at once (the oldest is dropped beyond it)
MAX_GAMES = 200
#: the policies a bot may play, with their defaults; "expert" is listed when the registry has it
BOT_POLICIES = [name for name, info in REGISTRY.items() if info.fair]


class Store:
    """The games by id, and the pool that runs their jobs."""

    def __init__(self) -> None:
        self.games: dict[str, G.Game] = {}
        self.lock = threading.Lock()
        self.pool = Pool(known=(inputs.TableError,))

    def add(self, g: G.Game) -> None:
        with self.lock:
            self.games[g.id] = g
            while len(self.games) > MAX_GAMES:
                old = self.games.pop(next(iter(self.games)))
                cancel_all(old.jobs)

    def get(self, gid: str) -> G.Game:
        g = self.games.get(gid)
        if g is None:
            raise LookupError(f"no game {gid[:40]!r} on this server (it was restarted, or the address is wrong); "
                              "allowed: a new game")
        return g


Handler = Callable[[Store, Any, dict, Request], Response]


def api(fn: Handler) -> Callable:
    """An endpoint over ``fn(store, game, body, request)`` run in a worker thread: the body read as a
    JSON object, the game looked up; a refusal is a 4xx with one line."""
    async def endpoint(request: Request) -> Response:
        store: Store = request.app.state.store
        try:
            data = inputs.parse_body(await request.body()) if request.method == "POST" else {}
            g = store.get(request.path_params["gid"]) if "gid" in request.path_params else None
            return await run_in_threadpool(fn, store, g, data, request)
        except LookupError as e:
            return JSONResponse({"error": str(e).strip("'\"")}, status_code=404)
        except inputs.TableError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
    return endpoint


def state(g: G.Game, **extra: Any) -> JSONResponse:
    with g.lock:
        return JSONResponse({**g.as_json(), **extra})


def changed(g: G.Game, fn: Callable[[], None]) -> JSONResponse:
    with g.lock:
        fn()
        cancel_all(g.jobs)
        g.jobs.clear()
        return JSONResponse(g.as_json())


def start_job(store: Store, g: G.Game, kind: str, work: Callable[[Job], Any]) -> JSONResponse:
    """Queue ``work`` as the game's one job (its unfinished jobs cancelled); the same job asked again for
    the same position is left running."""
    with g.lock:
        old = g.jobs.get(kind)
        if old is None or old.finished or old.key != g.version:
            store.pool.submit(g.jobs, Job(kind, g.version), work, g.lock)
    return state(g)


# -- pages ----------------------------------------------------------------------------------------------
async def home(request: Request) -> Response:
    gid = request.path_params.get("gid")
    g = request.app.state.store.games.get(gid) if gid else None
    if g is not None:   # the game's page loaded again: what its last page asked for is dropped (no lock
        cancel_all(g.jobs)  # taken here: the event loop never waits for a game's work)
    return HTMLResponse(page(request.app.state.token))


async def asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return PlainTextResponse("no such file", status_code=404)
    return Response(static(name), media_type=STATIC[name])


async def favicon(request: Request) -> Response:
    return Response(FAVICON, media_type="image/svg+xml")


async def options(request: Request) -> Response:
    return JSONResponse({"presets": list(PRESETS), "policies": BOT_POLICIES})


# -- games ----------------------------------------------------------------------------------------------
def new(store: Store, _g: None, data: dict, request: Request) -> Response:
    mode = data.get("mode")
    if mode not in ("play", "follow"):
        raise inputs.TableError(f"mode {inputs.shown(mode)}; allowed: play, follow")
    over = data.get("overrides", "")
    over = inputs.parse_overrides(over) if isinstance(over, str) else over
    rules = inputs.make_rules(data.get("rules", "threes"), inputs.integer(data, "players", 4, 2, 4), over)
    seat = inputs.check_seat(inputs.integer(data, "seat", 0, 0, 3), rules.players)
    names = inputs.names(data.get("names"), rules.players)
    if mode == "play":
        g: G.Game = G.PlayGame(rules, seat, inputs.bots(data.get("bots"), rules.players),
                               inputs.integer(data, "seed", 1, 0, inputs.MAX_SEED),
                               inputs.integer(data, "deal", 0, 0, 2**31), names)
    else:
        g = FollowGame(rules, seat, inputs.integer(data, "first", 0, 0, 3), data.get("hand", ""), data.get("scores"),
                       names)
    store.add(g)
    return state(g)


def get(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    return state(g)


def play(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    if not isinstance(g, G.PlayGame):
        raise inputs.TableError("this game is followed; allowed: an action (act)")
    with g.lock:
        warn = None if data.get("confirm") else tutor_warning(store, g, data)
        if warn:
            return state(g, warning=warn)
        return changed(g, lambda: g.play(data.get("tile"), data.get("end")))


def act(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    if not isinstance(g, FollowGame):
        raise inputs.TableError("this game is played against bots; allowed: a move (play)")
    with g.lock:
        mine = data.get("act") == "play" and data.get("seat") == g.seat
        warn = None if data.get("confirm") or not mine else tutor_warning(store, g, data)
        if warn:
            return state(g, warning=warn)
        return changed(g, lambda: g.act(data.get("seat"), data.get("act"), data.get("tile"), data.get("end")))


def tutor_warning(store: Store, g: G.Game, data: dict) -> str | None:
    """The tutor's warning for the move asked (the caller holds the game's lock), or None: the hint of
    this position (the one shown if it is finished, else one with the default rollouts, computed here and
    cancelled with the game's other jobs) says how much the move loses."""
    if g.tutor is None or not g.my_turn():
        return None
    job = g.jobs.get("hint")
    if job is not None and job.finished and job.result and job.key == g.version and job.result["by"] == g.by:
        hint = job.result
    else:
        cancel_all(g.jobs)
        job = Job("hint", g.version)
        store.pool.track(job)
        try:
            hint = g.hint(G.HINT_ROLLOUTS, 1, "greedy", job.progress, by=g.by)   # quick: greedy plays on
        finally:
            store.pool.done(job)
        job.result, job.done, job.planned, job.finished = hint, hint["rollouts"], hint["rollouts"], True
        g.jobs["hint"] = job
    t, e = inputs.parse_move(data.get("tile"), data.get("end"), g.rules)
    name = f"{G.tile_name(t, g.rules.max_pip)} {e.label}"
    row = next((r for r in hint["rows"] if r["move"] == name), None)
    if row is None:
        return None
    best, k = hint["rows"][0], 100 if g.by == "win" else 1
    unit = {"win": "percentage points of winning chances", "points": "points", "margin": "points of margin"}[g.by]
    if k * row["loss"] <= g.tutor:
        return None
    return (f"{name} loses {k * row['loss']:.2f} {unit} against {best['move']} ({k * row['loss_lo']:.2f} to "
            f"{k * row['loss_hi']:.2f}), more than your threshold {g.tutor:g}; play it anyway?")


def next_deal(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    if isinstance(g, FollowGame):
        return changed(g, lambda: g.next_deal(data.get("hand", ""), inputs.integer(data, "first", 0, 0, 3),
                                              data.get("scores")))
    return changed(g, g.next_deal)


def undo(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    return changed(g, g.undo)


def tutor(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    v = data.get("threshold")
    if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 100):
        raise inputs.TableError(f"threshold {inputs.shown(v)}; allowed: from 0 to 100 (points, or percentage "
                                "points of winning chances with by win), or null (tutor off)")
    by = inputs.currency(data.get("by", g.by))
    with g.lock:
        g.tutor, g.by = (None if v is None else float(v)), by
    return state(g)


def cancel(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    """The page left (or asked): the game's unfinished jobs are cancelled."""
    with g.lock:
        cancel_all(g.jobs)
    return state(g)


def hint(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    # no rollouts given: simdom analyze's default, until the best move is separated (at most its budget)
    auto = data.get("rollouts") in (None, "", 0)
    rollouts = None if auto else inputs.integer(data, "rollouts", G.HINT_ROLLOUTS, 2, G.MAX_HINT_ROLLOUTS)
    seed = inputs.integer(data, "seed", 1, 0, inputs.MAX_SEED)
    then = inputs.policy(data["then"], "then") if data.get("then") else g.default_then()
    by = inputs.currency(data.get("by"))
    move = data.get("move")
    with g.lock:
        if move is not None:   # a move of the review: the position before it, from the mover's information
            pos = g.review_position(move)
        elif not g.my_turn():
            raise inputs.TableError("it is not your turn; allowed: a hint when you are to place a tile")
        else:
            pos = g.position()  # taken now: a move made meanwhile drops this hint, not mixes it
    return start_job(store, g, "hint" if move is None else "move-hint",
                     lambda job: g.hint(rollouts, seed, then, job.progress, pos, by))


def solve(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    if not isinstance(g, G.PlayGame):
        raise inputs.TableError("the other hands of a followed game are unknown; allowed: the hint")
    with g.lock:
        if not g.my_turn():
            raise inputs.TableError("it is not your turn; allowed: the values when you are to place a tile")
        snap = g.st.copy()
    against = data.get("against") or "minimax"
    if against not in ("minimax", "bots"):
        raise inputs.TableError(f"against {inputs.shown(against)}; allowed: minimax (every other seat against "
                                "you), bots (the bots as themselves)")
    return start_job(store, g, "solve", lambda job: g.solve(snap, against == "bots"))


def review(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    rollouts = inputs.integer(data, "rollouts", G.REVIEW_ROLLOUTS, 2, G.MAX_HINT_ROLLOUTS)
    luck = inputs.integer(data, "luck_rollouts", G.REVIEW_LUCK_ROLLOUTS, 2, G.MAX_HINT_ROLLOUTS)
    seed = inputs.integer(data, "seed", 1, 0, inputs.MAX_SEED)
    then = inputs.policy(data["then"], "then") if data.get("then") else g.default_then()
    by = inputs.currency(data.get("by"))
    with g.lock:
        deal, viewer = G.review_subject(g)
        if not deal.plays:
            raise inputs.TableError("no placement to review yet; allowed: the review after a move")
    return start_job(store, g, "review",
                     lambda job: G.review_json(g, deal, viewer, rollouts, luck, seed, then, job.progress, by))


def board(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    """The board before a placement of the deal (a click on the move list)."""
    move = request.path_params["move"]
    with g.lock:
        return JSONResponse(G.board_before(g, int(move) if move.isascii() and move.isdigit() and len(move) < 4
                                           else move))


def export(store: Store, g: G.Game, data: dict, request: Request) -> Response:
    kind = request.path_params["kind"]
    with g.lock:
        if kind == "script":
            if not isinstance(g, G.PlayGame):
                raise inputs.TableError("a followed game has hidden hands; allowed: export/position (what your "
                                        "seat saw), which simdom analyze --position and review --position read")
            text, name = g.script_toml(), f"table-{g.id}.deal.toml"
        elif kind == "position":
            import json
            text, name = json.dumps(g.view_dict(), indent=1) + "\n", f"table-{g.id}.position.json"
        else:
            raise inputs.TableError(f"export {inputs.shown(kind)}; allowed: script, position")
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})


ROUTES = [
    Route("/", home), Route("/game/{gid}", home), Route("/static/{name}", asset), Route("/favicon.ico", favicon),
    Route("/api/options", options),
    Route("/api/new", api(new), methods=["POST"]),
    Route("/api/game/{gid}", api(get)),
    *[Route(f"/api/game/{{gid}}/{fn.__name__.replace('next_deal', 'next')}", api(fn), methods=["POST"])
      for fn in (play, act, undo, next_deal, tutor, hint, solve, review, cancel)],
    Route("/api/game/{gid}/export/{kind}", api(export)), Route("/api/game/{gid}/board/{move}", api(board)),
]


def create_app(token: str | None = None, host: str = "127.0.0.1", port: int = 8765) -> Guard:
    """The table's app behind its guard (simdom/table/guard.py): ``token`` the server's secret (a new
    random one by default; ``app.token`` tells it), ``host`` and ``port`` the address it is served on."""
    store = Store()

    @asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        store.pool.stop()   # the server stops: every job is cancelled at its next report

    app = Starlette(routes=ROUTES, lifespan=lifespan)
    app.state.store = store
    app.state.token = token or secrets.token_urlsafe(24)
    guarded = Guard(app, app.state.token, host, port)
    guarded.store = store
    return guarded

"""`simdom table` in the real headless Chromium (the Debian package, as tests/test_report_browser.py
launches it) against the real server: the `simdom table` command started as a process on 127.0.0.1,
stopped with Ctrl-C at the end (it must stop cleanly). Issue 42, item 7.

* a whole 2-player Threes deal played against greedy (the seat's moves clicked, tile then end) ends with
  the totals `simdom trace` gives for that deal;
* a hint's values equal `simdom analyze --position` of the exported position file, same seed;
* the seed game's moves 1 to 10 entered in follow mode from Maria's seat give the hint `simdom analyze
  --position` gives at move 10 (the file `simdom view` writes), the tracker shows what she saw, and the
  board's screenshot shows the spinner's four arms;
* bad input (an illegal move, a tile already seen, a draw from an empty boneyard, a malformed request)
  gets a message on the page and leaves the game as it was; a reload keeps the game; two tabs do not
  touch each other's games.
"""
from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simdom.cli import app as cli

#: a real server and browser: seconds a test (make test runs them; make test-fast leaves them out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SEED_GAME = ROOT / "scenarios" / "seed-game.deal.toml"
MARIA_HAND = "1-1 1-5 5-5 3-5 2-2"
ROLLOUTS = 400
#: the address the server printed (with its secret), by the server's base URL
ENTRY: dict[str, str] = {}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    yield from serve_table()


def serve_table():
    """The real `simdom table` process on a free port, as a fixture's generator: yields its base URL (the
    address it printed, with its secret, in ENTRY), then stops it with Ctrl-C and checks the clean stop."""
    port = _free_port()
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, "-m", "simdom", "table", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    line = proc.stdout.readline()   # the URL with the server's secret, printed once the app is built
    assert url + "?token=" in line, line + proc.stderr.read() if proc.poll() is not None else line
    ENTRY[url] = re.search(r"http://\S+", line).group(0)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield url
    proc.send_signal(signal.SIGINT)      # Ctrl-C: a clean stop
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "simdom table stopped." in out and "Error" not in err, (out, err)


def _page(browser, errors: list[str]):
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("dialog", lambda d: d.dismiss())
    return page


def _cli(*args: str) -> str:
    r = CliRunner().invoke(cli, list(args), env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    return r.output


def _new(page, url: str, **form) -> None:
    """The set-up form filled as a person would, then Start; waits for the game's page (first opened at
    the address the server printed, which gives the browser the secret)."""
    page.goto(ENTRY.get(url, url))
    page.wait_for_selector("#rules option", state="attached")
    page.select_option("#mode", form.pop("mode", "play"))
    for key in ("rules", "players"):
        if key in form:
            page.select_option(f"#{key}", str(form.pop(key)))
    for key, value in form.items():
        page.fill(f"#{key}", str(value))
    page.click("#start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board svg")


def _until(page, expression: str, timeout: float = 30.0) -> None:
    """Wait until ``expression`` is true in the page: evaluated from here (the page's content security
    policy forbids the eval that Playwright's wait_for_function uses, and the tests keep the policy on)."""
    t0 = time.monotonic()
    while not page.evaluate(expression):
        assert time.monotonic() - t0 < timeout, f"not true within {timeout} s: {expression}"
        time.sleep(0.05)


def _version(page) -> int:
    return int(page.get_attribute("body", "data-version"))


def _changed(page, before: int) -> None:
    _until(page, f"Number(document.body.dataset.version) > {before}")


def _play(page, tile: str, end: str) -> None:
    v = _version(page)
    page.click(f"#hand-tiles button.tile[data-tile='{tile}']")
    page.click(f"#ends button.end[data-end='{end}']")
    _changed(page, v)


def _enter(page, seat: int, act: str, tile: str | None = None, end: str | None = None) -> None:
    page.select_option("#f-seat", str(seat))
    page.select_option("#f-act", act)
    page.fill("#f-tile", tile or "")
    if end:
        page.select_option("#f-end", end)
    page.click("#f-go")


def _state(page) -> dict:
    gid = page.get_attribute("body", "data-game")
    r = page.request.get(page.url.split("/game/")[0] + f"/api/game/{gid}")
    assert r.ok
    js = r.json()
    js.pop("jobs")
    return js


def _hint(page, rollouts: int | None, seed: int, by: str = "points") -> list[tuple[str, float]]:
    """The page's hint (rollouts None: the field left empty, simdom analyze's stopping rule), its moves
    ranked by ``by`` (the page's *Value by*): (move, expected points) best first."""
    page.fill("#rollouts", "" if rollouts is None else str(rollouts))
    page.fill("#hint-seed", str(seed))
    page.select_option("#by", by)
    page.click("#hint")
    key = f"{rollouts or 'auto'}/{seed}/greedy/{by}"
    page.wait_for_selector(f"#hint-out[data-done='1'][data-key='{key}']", timeout=30_000)
    rows = page.query_selector_all("#hint-out tr.hint-row")
    return [(r.get_attribute("data-move"), float(r.get_attribute("data-points"))) for r in rows]


def _analyze(position: Path, rollouts: int | None, seed: int, by: str = "points") -> list[tuple[str, float]]:
    more = ([] if rollouts is None else ["--rollouts", str(rollouts)]) + ["--by", by]
    out = json.loads(_cli("analyze", "--position", str(position), *more, "--seed", str(seed), "--format", "json"))
    return [(f"{m['tile']} {m['end']}", m["mean_points"]) for m in out["moves"]]


def test_a_whole_deal_against_greedy_ends_with_the_totals_of_simdom_trace(server, browser, tmp_path):
    trace = tmp_path / "t.jsonl"
    _cli("trace", "-r", "threes", "-n", "2", "-p", "greedy", "--seed", "11", "-d", "1", "-o", str(trace))
    rec = json.loads(trace.read_text().splitlines()[0])
    mine = [(a["tile"], a["end"]) for a in rec["actions"] if a["act"] == "play" and a["seat"] == 0]
    errors: list[str] = []
    page = _page(browser, errors)
    _new(page, server, rules="threes", players=2, seat=0, bots="greedy", seed=11, dealno=0)
    assert page.is_visible("#game")
    for tile, end in mine:
        _play(page, tile, end)
    status = page.locator("#status")
    assert status.get_attribute("data-ended") == rec["end"]
    assert [int(x) for x in status.get_attribute("data-totals").split(",")] == rec["totals"]
    assert page.locator("#history li").count() == len(rec["actions"])
    # the review after the deal: the move list with its values, the luck, the graph, a click shows a position
    page.fill("#rv-rollouts", "60")
    page.fill("#rv-luck", "20")
    page.click("#review")
    page.wait_for_selector("#review-out tr.rv-row", timeout=60_000)
    plays = sum(1 for a in rec["actions"] if a["act"] == "play")
    assert page.locator("#review-out tr.rv-row").count() == plays
    assert page.locator("#graph circle").count() == plays  # 2 players: every decision on your margin's graph
    page.click("#review-out tr.rv-row[data-move='3']")
    assert page.locator("#board svg g.tile").count() == 2  # the board before move 3
    assert "Move 3" in page.inner_text("#rv-detail")
    # ... and its hint: simdom analyze of the exported deal at that move
    page.fill("#rollouts", "300")
    page.click("#rv-hint-go")
    page.wait_for_selector("#rv-hint[data-done='1'][data-key='300/1/greedy/win']", timeout=30_000)
    shown = [(r.get_attribute("data-move"), float(r.get_attribute("data-points")))
             for r in page.query_selector_all("#rv-hint tr.hint-row")]
    gid = page.get_attribute("body", "data-game")
    script = tmp_path / "deal.toml"
    script.write_text(page.request.get(server + f"api/game/{gid}/export/script").text())
    out = json.loads(_cli("analyze", "--script", str(script), "--move", "3", "--rollouts", "300", "--seed", "1",
                          "--by", "win", "--format", "json"))   # the page's default currency
    assert [m for m, _ in shown] == [f"{m['tile']} {m['end']}" for m in out["moves"]]
    assert [v for _, v in shown] == pytest.approx([m["mean_points"] for m in out["moves"]], abs=1e-9)
    # next error: the next marked move after the one shown (or, with none marked, the page says so)
    marked = [int(r.get_attribute("data-move")) for r in page.query_selector_all("#review-out tr.rv-row")
              if r.get_attribute("data-mark")]
    page.click("#next-error")
    if marked:
        want = next((m for m in marked if m > 3), marked[0])
        assert page.get_attribute("#review-out tr.rv-row.cur", "data-move") == str(want)
        assert f"Move {want}" in page.inner_text("#rv-detail")
    else:
        assert "no marked error" in page.inner_text("#message")
    assert errors == []


def test_a_match_to_a_target_carries_its_scores_as_simdom_trace_plays_it(server, browser, tmp_path):
    trace = tmp_path / "m.jsonl"
    _cli("trace", "-r", "fives", "-n", "2", "--set", "target=50", "--matches", "3", "--seed", "7", "-o", str(trace))
    deals = [d for d in map(json.loads, trace.read_text().splitlines()) if d["match"]["id"] == 2]
    assert len(deals) >= 2
    errors: list[str] = []
    page = _page(browser, errors)
    _new(page, server, rules="fives", players=2, overrides="target=50", seat=0, bots="greedy", seed=7, dealno=2)
    for i, rec in enumerate(deals):
        if i:
            v = _version(page)
            page.click("#next-deal")
            _changed(page, v)
        for a in rec["actions"]:
            if a["act"] == "play" and a["seat"] == 0:
                _play(page, a["tile"], a["end"])
        st = _state(page)
        assert st["ended"] == rec["end"] and st["match"]["scores"] == rec["match"]["after"]
    assert st["match"]["over"] and st["match"]["winner"] == deals[-1]["match"]["winner"]
    assert page.is_hidden("#next-deal")
    assert errors == []


def test_a_followed_match_carries_its_scores_from_deal_to_deal(server, browser, tmp_path):
    trace = tmp_path / "m.jsonl"
    _cli("trace", "-r", "fives", "-n", "2", "--set", "target=50", "--matches", "3", "--seed", "7", "-o", str(trace))
    deals = [d for d in map(json.loads, trace.read_text().splitlines()) if d["match"]["id"] == 2]
    errors: list[str] = []
    page = _page(browser, errors)
    first = deals[0]
    _new(page, server, mode="follow", rules="fives", players=2, overrides="target=50", seat=0,
         first=first["first"], hand=" ".join(first["hands"][0]))
    for i, rec in enumerate(deals):
        if i:   # the next deal: its hand, its leader, the scores counted at the table (the end bonus included)
            assert page.is_visible("#next-follow")
            assert page.input_value("#nf-scores") != ""
            page.fill("#nf-hand", " ".join(rec["hands"][0]))
            page.fill("#nf-first", str(rec["first"]))
            page.fill("#nf-scores", ", ".join(map(str, deals[i - 1]["match"]["after"])))
            v = _version(page)
            page.click("#nf-go")
            _changed(page, v)
        for a in rec["actions"]:
            v = _version(page)
            tile = a.get("tile") if a["act"] != "draw" or a["seat"] == 0 else None
            _enter(page, a["seat"], a["act"], tile, a.get("end"))
            _changed(page, v)
        st = _state(page)
        assert st["turn"] is None and st["match"]["before"] == rec["match"]["before"]
        assert [x["points"] for x in st["seats"]] == [sum(a["points"] + a["bonus"] for a in rec["actions"]
                                                          if a["act"] == "play" and a["seat"] == s) for s in (0, 1)]
    assert errors == []


def test_a_hint_equals_simdom_analyze_of_the_exported_position(server, browser, tmp_path):
    errors: list[str] = []
    page = _page(browser, errors)
    _new(page, server, rules="fives", players=3, seat=1, bots="greedy", seed=5, dealno=2)
    first = page.query_selector("#hand-tiles button.tile:not([disabled])").get_attribute("data-tile")
    page.click(f"#hand-tiles button.tile[data-tile='{first}']")
    end = page.query_selector("#ends button.end").get_attribute("data-end")
    _play(page, first, end)          # one move, then the hint at the seat's next turn
    hint = _hint(page, ROLLOUTS, 3)
    assert len(hint) >= 1
    gid = page.get_attribute("body", "data-game")
    pos = tmp_path / "pos.json"
    pos.write_text(page.request.get(server + f"api/game/{gid}/export/position").text())
    want = _analyze(pos, ROLLOUTS, 3)
    assert [m for m, _ in hint] == [m for m, _ in want]
    assert [v for _, v in hint] == pytest.approx([v for _, v in want], abs=1e-9)
    # the exported deal is a scripted deal the commands read; with every hand known, the page's values are
    # simdom solve's for it
    script = tmp_path / "deal.toml"
    script.write_text(page.request.get(server + f"api/game/{gid}/export/script").text())
    _cli("replay", "--script", str(script))
    move = _state(page)["move"]
    page.click("#solve")
    page.wait_for_selector("#solve-out tr.solve-row", timeout=30_000)
    shown = [(r.get_attribute("data-move"), int(r.get_attribute("data-value")))
             for r in page.query_selector_all("#solve-out tr.solve-row")]
    solved = json.loads(_cli("solve", "--script", str(script), "--move", str(move), "--format", "json"))
    assert shown == [(f"{m['tile']} {m['end']}", m["value"]) for m in solved["moves"]]
    # the tutor: a move that loses more than the threshold asks first; declined, nothing is played
    assert len(hint) > 1 and dict(_hint_losses(page))[hint[-1][0]] > 0.01  # a move the tutor warns of
    page.fill("#tutor-threshold", "0.01")
    page.check("#tutor-on")
    for _ in range(50):   # the page posts the threshold; the server holds it
        if _state(page)["tutor"] == 0.01:
            break
        page.wait_for_timeout(100)
    before = _state(page)
    assert before["tutor"] == 0.01
    tile, end = hint[-1][0].split()
    page.click(f"#hand-tiles button.tile[data-tile='{tile}']")
    page.click(f"#ends button.end[data-end='{end}']")
    _until(page, "document.getElementById('message').className == 'warning'")
    assert "more than your threshold" in page.inner_text("#message")
    after = _state(page)
    assert after["history"] == before["history"] and after["move"] == before["move"]
    assert errors == []


def _hint_losses(page) -> list[tuple[str, float]]:
    return [(r.get_attribute("data-move"), float(r.get_attribute("data-loss")))
            for r in page.query_selector_all("#hint-out tr.hint-row")]


def _follow_seed_game(page, url: str) -> None:
    _new(page, url, mode="follow", rules="threes", players=4, seat=1, first=0, hand=MARIA_HAND)
    for a in _seed_game_actions():
        v = _version(page)
        _enter(page, a["seat"], a["act"], a.get("tile"), a.get("end"))
        _changed(page, v)


_VIEW: dict = {}


def _seed_game_actions() -> list[dict]:
    return _VIEW["actions"]


@pytest.fixture(scope="module")
def maria(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("maria") / "maria.json"
    _cli("view", "--script", str(SEED_GAME), "--seat", "1", "--move", "10", "-o", str(out))
    _VIEW.update(json.loads(out.read_text()))
    return out


def test_the_seed_game_followed_from_marias_seat_gives_analyzes_hint_at_move_10(server, browser, maria, tmp_path):
    from PIL import Image

    errors: list[str] = []
    page = _page(browser, errors)
    _follow_seed_game(page, server)
    st = _state(page)
    assert st["turn"] == 1 and st["move"] == 10
    # the tracker: what Maria cannot see, and what she showed she lacked when she drew (4 and 6)
    assert int(page.inner_text("#unseen-count")) == 28 - 5 - 9 + 1  # her hand after the draw: 5; 9 placed
    assert page.inner_text("#seats tr[data-seat='1'] td:last-child") == "4, 6"
    # progress while it works: a long hint shows its rollouts done (then a short one is compared below)
    page.fill("#rollouts", "200000")   # about a second here
    page.click("#hint")
    _until(page, "/hint: [0-9]+ of 200000 rollouts/.test(document.getElementById('progress').textContent)")
    page.wait_for_selector("#hint-out[data-done='1']", timeout=30_000)
    hint = _hint(page, ROLLOUTS, 1)
    want = _analyze(maria, ROLLOUTS, 1)
    assert [m for m, _ in hint] == [m for m, _ in want]
    assert [v for _, v in hint] == pytest.approx([v for _, v in want], abs=1e-9)
    assert hint[0][0] == "1-1 L"
    # the hint with the rollouts left empty is simdom analyze's with its defaults (the stopping rule)
    auto = _hint(page, None, 1)
    assert auto == [(m, pytest.approx(v, abs=1e-9)) for m, v in _analyze(maria, None, 1)]
    # ... and ranked by the chance to win the deal (the page's default currency), simdom analyze --by win's
    by_win = _hint(page, None, 1, by="win")
    assert by_win == [(m, pytest.approx(v, abs=1e-9)) for m, v in _analyze(maria, None, 1, by="win")]
    assert "ranked by the chance to win the deal, assuming every seat plays greedy from here" in \
        page.inner_text("#hint-out")
    # the board at move 10: the spinner 4-4 with its four arms, each open end drawn where its arm ends
    board = page.locator("#board svg")
    arms = {e: page.get_attribute(f"#board g.end[data-end='{e}']", "data-value") for e in "LRUD"}
    assert arms == {"L": "1", "R": "5", "U": "0", "D": "4"}
    assert page.get_attribute("#board g.tile[data-arm='spinner']", "data-tile") == "4-4"
    png = tmp_path / "board.png"
    board.screenshot(path=str(png))
    img = Image.open(io.BytesIO(png.read_bytes())).convert("RGB")
    box = board.bounding_box()
    sx, sy = img.width / box["width"], img.height / box["height"]
    spin = page.locator("#board g.tile[data-arm='spinner'] rect").bounding_box()
    cx, cy = spin["x"] + spin["width"] / 2, spin["y"] + spin["height"] / 2
    for e in "LRUD":
        b = page.locator(f"#board g.end[data-end='{e}'] circle").bounding_box()
        ex, ey = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        # the marker lies on the arm's side of the spinner ...
        assert {"L": ex < cx - 20, "R": ex > cx + 20, "U": ey < cy - 20, "D": ey > cy + 20}[e], e
        # ... and is drawn in the screenshot, left of its label: a counted end's light blue (219, 234, 254);
        # D, an empty arm of the spinner not yet counted, light grey (243, 244, 246), dashed; neither is the
        # board's light green (231, 242, 234)
        px = img.getpixel((int((b["x"] + 0.22 * b["width"] - box["x"]) * sx), int((ey - box["y"]) * sy)))
        if e == "D":
            assert page.get_attribute("#board g.end[data-end='D']", "class") == "end uncounted"
            assert abs(px[0] - px[2]) < 8 and px[0] > 236, (e, px)
        else:
            assert px[2] > px[0] + 15 and px[2] > px[1] + 10, (e, px)
    # tiles lie on the three arms that hold any: L (1-4), R (the line), U (4-6, 0-6); D is open and empty
    arm_tiles = {e: page.locator(f"#board g.tile[data-arm='{e}']").count() for e in "LRUD"}
    assert arm_tiles == {"L": 1, "R": 5, "U": 2, "D": 0}
    assert errors == []


def test_bad_input_gets_a_message_and_leaves_the_game_as_it_was(server, browser):
    errors: list[str] = []
    page = _page(browser, errors)
    _new(page, server, mode="follow", rules="threes", players=4, seat=1, first=0, hand=MARIA_HAND)
    _enter(page, 0, "play", "3-6", "lead")
    _until(page, "document.querySelectorAll('#history li').length == 1")
    before = _state(page)
    cases = [((1, "play", "6-6", "L"), "does not hold 6-6"),              # not in Maria's hand
             ((1, "play", "1-1", "L"), "does not fit"),                   # an illegal move
             ((2, "play", "3-6", "L"), "action 2 (seat 2 play 3-6 L) cannot have happened: seat 1 (you) was to act"),
             ((1, "draw", "3-6", None), "could play"),                    # a draw while she could play
             ((1, "play", "3-6", "L"), "seen before")]                    # a tile already seen
    for (seat, act, tile, end), words in cases:
        _enter(page, seat, act, tile, end)
        _until(page, "document.getElementById('message').className == 'error'")
        assert words in page.inner_text("#message"), (words, page.inner_text("#message"))
        assert "actions[" not in page.inner_text("#message")   # the table's words, not the file's indices
        assert _state(page) == before
        page.evaluate("msg('')")
    # a malformed request: the page says so, the game stays
    page.evaluate("post('act', '{not json')")
    _until(page, "document.getElementById('message').className == 'error'")
    assert "malformed request" in page.inner_text("#message")
    assert _state(page) == before
    # a draw from an empty boneyard: every tile dealt (hand_size=7 with 4 players)
    _new(page, server, mode="follow", rules="threes", players=4, overrides="hand_size=7", seat=0, first=0,
         hand="0-0 0-1 0-2 0-3 0-4 0-5 0-6")
    _enter(page, 0, "play", "0-6", "lead")
    _until(page, "document.querySelectorAll('#history li').length == 1")
    before = _state(page)
    _enter(page, 1, "draw")
    _until(page, "document.getElementById('message').className == 'error'")
    assert "no tile to draw" in page.inner_text("#message")
    assert _state(page) == before
    # play mode: a move that is not legal, sent as the page sends moves
    _new(page, server, rules="threes", players=2, seat=0, bots="greedy", seed=11)
    before = _state(page)
    page.evaluate("post('play', {tile: '6-6', end: 'U'})")
    _until(page, "document.getElementById('message').className == 'error'")
    assert "not a legal move" in page.inner_text("#message")
    assert _state(page) == before
    # the browser logs each refused request (400); nothing else went wrong
    assert [e for e in errors if "status of 400" not in e] == []
    assert len(errors) == 8


def test_a_reload_keeps_the_game_and_two_tabs_keep_their_own(server, browser):
    errors: list[str] = []
    one, two = _page(browser, errors), _page(browser, errors)
    _new(one, server, rules="threes", players=2, seat=0, bots="greedy", seed=11)
    _new(two, server, rules="fives", players=2, seat=1, bots="random", seed=4)
    assert one.url != two.url
    for page in (one, two):
        tile = page.query_selector("#hand-tiles button.tile:not([disabled])").get_attribute("data-tile")
        page.click(f"#hand-tiles button.tile[data-tile='{tile}']")
        end = page.query_selector("#ends button.end").get_attribute("data-end")
        _play(page, tile, end)
    a, b = _state(one), _state(two)
    one.reload()
    one.wait_for_selector("#board svg")
    two.reload()
    two.wait_for_selector("#board svg")
    assert _state(one) == a and _state(two) == b
    assert [li.inner_text() for li in one.query_selector_all("#history li")] == a["history"]
    assert a["rules"] == "threes" and b["rules"] == "fives" and a["id"] != b["id"]
    # undo in one tab leaves the other alone
    v = _version(one)
    one.click("#undo")
    _changed(one, v)
    assert _state(two) == b and _state(one)["move"] < a["move"]
    assert errors == []


def test_a_port_in_use_is_one_line_and_exit_code_2():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = CliRunner().invoke(cli, ["table", "--port", str(port)], env={"COLUMNS": "200"})
    assert r.exit_code == 2 and f"--port {port}: cannot listen there" in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1

"""`simdom table` as a player's board, in the real headless Chromium against the real server (the
fixtures and helpers of tests/test_table_browser.py), with the page's content security policy on:

* no sideways scroll from a phone (375 px) to a desktop (1920 px), the board beside the moves on a
  desktop and above them on a phone, the first paint under a second;
* a click on a move shows the position before it on the board, beside the move list;
* the hand drawn with pips as the board draws tiles; the deal's end in words with every player's
  points, the winner and every last hand;
* follow mode with named seats, tiles chosen by clicking, refusals in the table's words;
* two browser contexts: a 200,000-rollout review in one never delays the other's moves (the tutor on),
  and reloading its page cancels it.
"""
from __future__ import annotations

import time

import pytest

from test_table_browser import ENTRY, MARIA_HAND, _new, _page, _play, _until, serve_table

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    """The real `simdom table` process for this module's tests."""
    yield from serve_table()


def _sideways(page) -> int:
    """How many pixels the page scrolls sideways (0: none)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def _first_move(page) -> None:
    tile = page.query_selector("#hand-tiles button.tile:not([disabled])").get_attribute("data-tile")
    page.click(f"#hand-tiles button.tile[data-tile='{tile}']")
    end = page.query_selector("#ends button.end").get_attribute("data-end")
    _play(page, tile, end)


def _play_out(page) -> None:
    """Play the first legal move until the deal is over (play mode)."""
    for _ in range(40):
        if page.get_attribute("#status", "data-ended"):
            return
        _first_move(page)
    raise AssertionError("the deal did not end in 40 moves")


@pytest.mark.parametrize("width, height", [(375, 740), (1280, 800), (1920, 1080)])
def test_no_sideways_scroll_and_the_board_beside_the_moves_on_a_desktop(server, browser, width, height):
    errors: list[str] = []
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(ENTRY[server])
    page.wait_for_selector("#rules option", state="attached")
    fcp = page.evaluate("performance.getEntriesByType('paint').filter((e) => e.name === 'first-contentful-paint')"
                        ".map((e) => e.startTime)[0]")
    assert fcp is not None and fcp < 1000, fcp
    assert _sideways(page) <= 0
    _new(page, server, rules="threes", players=4, seat=0, bots="greedy", seed=11, names="Ann, Boris, Maria, Dima")
    _first_move(page)
    page.fill("#rollouts", "200")
    page.click("#hint")
    page.wait_for_selector("#hint-out[data-done='1']", timeout=30_000)
    page.fill("#rv-rollouts", "20")
    page.fill("#rv-luck", "5")
    page.click("#review")
    page.wait_for_selector("#review-out tr.rv-row", timeout=60_000)
    assert _sideways(page) <= 0, width
    board = page.locator("#board").bounding_box()
    moves = page.locator("#history").bounding_box()
    if width >= 1280:   # side by side: the move list right of the board, level with it
        assert moves["x"] >= board["x"] + board["width"] and moves["y"] < board["y"] + board["height"]
    else:               # one column: the moves below the board
        assert moves["y"] >= board["y"] + board["height"]
    assert errors == []


def test_a_click_on_a_move_shows_its_position_and_the_hand_is_drawn_with_pips(server, browser):
    errors: list[str] = []
    page = _page(browser, errors)
    _new(page, server, rules="threes", players=2, seat=0, bots="greedy", seed=11, names="Ann, Boris")
    assert page.locator("#hand-tiles button.tile svg circle.pip").count() > 0   # pips, as on the board
    assert "you are Ann (seat 0)" in page.inner_text("#status")
    for _ in range(2):
        _first_move(page)
    placed = page.locator("#board svg g.tile").count()
    assert placed >= 3
    page.click("#history li.clk[data-move='2']")
    page.wait_for_selector("#viewing:not([hidden])")
    assert page.locator("#board svg g.tile").count() == 1            # the board before move 2
    assert page.inner_text("#viewing-text") == "The board before move 2."
    assert page.get_attribute("#history li.cur", "data-move") == "2"
    page.click("#live")
    assert page.locator("#board svg g.tile").count() == placed
    assert errors == []


def test_the_deal_ends_in_words_with_the_totals_the_winner_and_every_last_hand(server, browser):
    errors: list[str] = []
    page = _page(browser, errors)
    _new(page, server, rules="threes", players=2, seat=0, bots="greedy", seed=11, names="Ann, Boris")
    _play_out(page)
    page.wait_for_selector("#ending:not([hidden])")
    state = page.request.get(page.url.split("/game/")[0] + f"/api/game/{page.get_attribute('body', 'data-game')}").json()
    end = state["ending"]
    assert end["totals"] == state["totals"]
    top = max(end["totals"])
    assert end["winner"] == [s for s, p in enumerate(end["totals"]) if p == top]
    sentence = page.inner_text("#ending b")
    assert sentence.startswith("The deal is over: ") and "(over)" not in sentence
    assert ("wins the deal" in sentence) == (len(end["winner"]) == 1)
    rows = page.query_selector_all("#ending tr.end-row")
    assert [int(r.get_attribute("data-points")) for r in rows] == end["totals"]
    for s, row in enumerate(rows):   # every last hand, drawn with pips (or "out")
        hand = end["hands"][s]
        assert (row.query_selector_all("svg.hand") != []) == bool(hand)
        assert (row.inner_text().strip().endswith("out")) == (not hand)
    assert errors == []


def test_follow_mode_names_the_seats_takes_tiles_by_click_and_refuses_in_the_tables_words(server, browser):
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))   # a refusal's 400 is logged by the browser: expected
    _new(page, server, mode="follow", rules="threes", players=4, seat=1, first=0, hand=MARIA_HAND,
         names="Ann, Maria, Boris, Dima")
    options = [o.inner_text() for o in page.query_selector_all("#f-seat option")]
    assert options == ["Ann", "Maria (you)", "Boris", "Dima"]
    assert "Ann to act" in page.inner_text("#status")
    # Ann leads 3-6: the tile chosen by clicking it among the unseen tiles, nothing typed
    page.select_option("#f-seat", "0")
    page.click("#f-tiles button.pick[data-tile='3-6']")
    assert page.input_value("#f-tile") == "3-6"
    page.select_option("#f-end", "lead")
    page.click("#f-go")
    _until(page, "document.querySelectorAll('#history li').length == 1")
    assert page.inner_text("#history li") == "Ann: 3-6 lead"
    # a refusal in the table's words: the seat by its name, the action by its number
    page.select_option("#f-seat", "2")
    page.click("#f-tiles button.pick[data-tile='0-6']")
    page.select_option("#f-end", "L")
    page.click("#f-go")
    _until(page, "document.getElementById('message').className == 'error'")
    text = page.inner_text("#message")
    assert "Maria (you) was to act" in text and "action 2" in text and "actions[" not in text
    assert errors == []


def test_a_long_review_in_one_context_never_delays_the_other_and_a_reload_cancels_it(server, browser):
    errors: list[str] = []
    a_ctx, b_ctx = browser.new_context(viewport={"width": 1280, "height": 900}), browser.new_context()
    a, b = a_ctx.new_page(), b_ctx.new_page()
    for p in (a, b):
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.on("dialog", lambda d: d.accept())   # the tutor's question: play it anyway
    _new(a, server, rules="threes", players=2, seat=0, bots="greedy", seed=3)
    _first_move(a)
    a.fill("#rv-rollouts", "200000")
    a.fill("#rv-luck", "200000")
    a.click("#review")
    _until(a, "document.getElementById('progress').dataset.busy == '1'")
    gid = a.get_attribute("body", "data-game")
    _new(b, server, rules="threes", players=2, seat=0, bots="greedy", seed=4)
    b.check("#tutor-on")
    times = []
    for _ in range(3):
        if b.get_attribute("#status", "data-ended"):
            break
        t0 = time.monotonic()
        _first_move(b)
        times.append(time.monotonic() - t0)
    assert times and max(times) < 5.0, times   # the tutor's hint (2,000 rollouts) included
    job = a.request.get(f"{server}api/game/{gid}").json()["jobs"]["review"]
    assert not job["finished"]                 # the review goes on meanwhile
    a.reload()                                 # leaving or reloading cancels the page's work
    a.wait_for_selector("#board svg")
    t0 = time.monotonic()
    while not (job := a.request.get(f"{server}api/game/{gid}").json()["jobs"]["review"])["finished"]:
        assert time.monotonic() - t0 < 10
        time.sleep(0.1)
    assert job["error"] == "cancelled"
    assert errors == []
    a_ctx.close()
    b_ctx.close()

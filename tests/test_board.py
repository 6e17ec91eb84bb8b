"""The board (simdom/board.py): one SVG drawing of the layout, read back from its data attributes, and the
static pages that show it at every move: `simdom review -o review.html`, `simdom replay ... -o
replay.html` (issue 42, item 6)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

import simdom
from simdom.board import state_svg
from simdom.cli import app as cli

ROOT = Path(__file__).resolve().parent.parent
SEED_GAME = ROOT / "scenarios" / "seed-game.deal.toml"
NS = "{http://www.w3.org/2000/svg}"


def _svg(st) -> ET.Element:
    return ET.fromstring(state_svg(st))


def _tiles(svg: ET.Element) -> list[dict]:
    return [g.attrib for g in svg.iter(f"{NS}g") if g.get("class", "").startswith("tile")]


def _ends(svg: ET.Element) -> dict[str, int]:
    return {g.get("data-end"): int(g.get("data-value")) for g in svg.iter(f"{NS}g")
            if g.get("class") in ("end", "end uncounted")}


def test_the_seed_games_board_at_move_10_has_the_spinner_and_its_four_arms():
    pos = simdom.load_deal(SEED_GAME).position(10)
    svg = _svg(pos.state)
    tiles = _tiles(svg)
    assert [t["data-tile"] for t in tiles] == ["3-6", "3-5", "0-5", "0-4", "4-4", "5-6", "4-6", "0-6", "1-4"]
    arms = {t["data-tile"]: t["data-arm"] for t in tiles}
    assert arms["4-4"] == "spinner" and arms["1-4"] == "L" and arms["4-6"] == arms["0-6"] == "U"
    assert {arms[t] for t in ("3-6", "3-5", "0-5", "0-4", "5-6")} == {"R"}
    assert _ends(svg) == pos.state.ends() == {"L": 1, "R": 5, "U": 0, "D": 4}
    # D, an empty arm of the spinner, is not counted yet (docs/rules.md) and is drawn so: grey and dashed
    uncounted = [g.get("data-end") for g in svg.iter(f"{NS}g") if g.get("class") == "end uncounted"]
    assert uncounted == ["D"] and not pos.state.arms_used()[1]
    k, s = pos.state.counted()
    text = next(t for t in svg.iter(f"{NS}text") if t.get("class") == "sum")
    assert (int(text.get("data-counted")), int(text.get("data-sum"))) == (k, s) == (3, 6)
    # each tile's touching half faces the layout: the U arm's 4-6 shows 6 on top, its 4 against the spinner
    assert "move 7: 4-6" in ET.tostring(svg, encoding="unicode")


def test_every_position_of_a_deal_draws_every_tile_placed_and_every_open_end():
    deal = simdom.load_deal(rules="fives", players=3, deal=4, seed=9)
    for pos in deal.positions():
        svg = _svg(pos.state)
        assert len(_tiles(svg)) == pos.move - 1
        assert _ends(svg) == (pos.state.ends() if pos.move > 1 else {})


def test_a_layout_without_a_spinner_is_a_line():
    deal = simdom.load_deal(rules=simdom.preset("threes", players=2, spinner="none", min_ends=2), deal=1, seed=3)
    st = deal.start()
    for t, e in deal.plays:
        st.play(t, e)
    svg = _svg(st)
    assert {t["data-arm"] for t in _tiles(svg)} <= {"lead", "L", "R"}
    assert set(_ends(svg)) == {"L", "R"}


def _run(*args: str) -> str:
    r = CliRunner().invoke(cli, list(args), env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.slow
def test_review_and_replay_pages_show_the_board_at_every_move(tmp_path):
    review, replay = tmp_path / "review.html", tmp_path / "replay.html"
    _run("review", "--script", str(SEED_GAME), "--rollouts", "20", "--luck-rollouts", "5", "-o", str(review))
    _run("replay", "--script", str(SEED_GAME), "-o", str(replay))
    for page, boards in ((review, 11), (replay, 10)):   # before each of the 10 moves and after the last; after each
        html = page.read_text()
        svgs = re.findall(r"<figure class='drawing'><svg[^>]*class=\"board\"", html)
        assert len(svgs) == boards, page.name
        assert "<script" not in html
    assert html.count('data-end="U"') >= 6  # the spinner's arms open from move 5 on


@pytest.mark.parametrize("name, words", [("replay.json", "does not write"), ("replay", "names no format")])
def test_replay_writes_only_html(tmp_path, name, words):
    r = CliRunner().invoke(cli, ["replay", "--script", str(SEED_GAME), "-o", str(tmp_path / name)],
                           env={"COLUMNS": "200"})
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output
    assert not (tmp_path / name).exists()

"""A position as one seat saw it (issue 19, items 1 and 2): simdom/analyze/view.py, `simdom analyze --position`,
`--hand/--seen`, `simdom view`. Hidden tiles are never read by the analysis, so a one-seat view and the
full record of the same position give the same values with the same seed."""
from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simdom.analyze.evaluate import evaluate
from simdom.analyze.position import from_script, from_seed
from simdom.analyze.view import ViewError, full_deal, view_deal, view_of
from simdom.analyze.viewread import view_from_data, view_from_hand
from simdom.cli import app
from simdom.engine.analysis import MoveRollouts
from simdom.rules import preset

SEED_GAME = "scenarios/seed-game.deal.toml"
MARIA = "1-1 1-5 5-5 3-5 2-2"
#: the seed game up to move 10, as Maria (seat 1) saw it, in the --seen notation
SEEN10 = "0:3-6 1:3-5L 2:0-5L 3:0-4L 0:4-4L 1:d5-6 1:5-6R 2:4-6U 3:0-6U 0:1-4L"


def run(*args):
    return CliRunner().invoke(app, [*map(str, args)])


def values(pos, rollouts=500, seed=3):
    a = evaluate(pos, rollouts=rollouts, seed=seed)
    return [(r.name, r.mean_points, r.mean_margin, r.win_rate) for r in a.rows]


def test_seed_game_move_10_seat_1_view_equals_the_full_record():
    deal = from_script(SEED_GAME)
    view = view_from_data(json.loads(json.dumps(view_of(deal, 1, 10))))
    full, mine = deal.position(10), view_deal(view)
    assert mine.move == 10 and mine.seat == 1 and mine.moves == full.moves
    # the filled deal is not the true one, yet every value is the same
    assert full_deal(view).hands != deal.hands
    assert values(mine, 2000, 1) == values(full, 2000, 1)
    # the --seen notation gives the same position
    short = view_deal(view_from_hand(preset("threes", players=4), MARIA, SEEN10, seat=1))
    assert values(short, 2000, 1) == values(full, 2000, 1)


@pytest.mark.parametrize("name,players,deal", [("threes", 4, 2), ("fives", 3, 5), ("all-fives", 2, 1),
                                               ("muggins", 4, 7)])
def test_traced_deals_every_seat_same_rollouts(name, players, deal):
    r = preset(name, players=players)
    d = from_seed(r, ["greedy"] * players, 11, deal)
    checked = 0
    for m in range(1, len(d.plays) + 1):
        full = d.position(m)
        if len(full.moves) < 2:
            continue
        mine = view_deal(view_from_data(view_of(d, full.seat, m)), m)
        a = MoveRollouts(full.state, full.moves, "greedy", 5).run(0, 64)
        b = MoveRollouts(mine.state, mine.moves, "greedy", 5).run(0, 64)
        assert np.array_equal(a.points, b.points) and np.array_equal(a.win, b.win), m
        checked += 1
    assert checked >= 2


def test_the_whole_deal_as_each_seat_saw_it_refills():
    r = preset("threes", players=4)
    for deal in range(6):
        d = from_seed(r, ["greedy"] * 4, 2, deal)
        for s in range(4):
            v = view_from_data(view_of(d, s))
            f = full_deal(v)
            assert f.hands[s] == d.hands[s] and f.plays == d.plays
            assert sorted([t for h in f.hands for t in h] + f.boneyard) == list(range(r.n_tiles))


#: (--seen, words of the one-line refusal); the viewer is Maria (seat 1) of the seed game
REFUSALS = [
    ("0:3-6 1:3-5L 2:3-5L", "actions[2] (seat 2 play 3-5 L) cannot have happened: tile 3-5 was seen before"),
    ("0:3-6 1:1-1L", "actions[1] (seat 1 play 1-1 L) cannot have happened: 1-1 does not fit: end L shows 3"),
    ("0:3-6 1:3-5U", "end U is not open"),
    ("0:3-6 2:0-5L", "actions[1] (seat 2 play 0-5 L) cannot have happened: seat 1 was to act"),
    ("0:3-6 1:d0-0", "actions[1] (seat 1 draw 0-0) cannot have happened: the viewer could play 3-5"),
    ("0:3-6 1:3-5L 2:p", "actions[2] (seat 2 pass) cannot have happened: the boneyard still had 8 tile(s) to draw"),
    ("0:3-6 1:3-5L 2:d1-2", "the viewer cannot see another seat's draw"),
    ("0:3-6 1:3-5L 2:d 2:0-5L 3:0-4L 0:1-4L 1:1-1L 2:4-6R",
     "actions[7] (seat 2 play 4-6 R) cannot have happened: no deal of the unseen tiles fits it"),
    ("0:3-6 1:3-5L 2:d 2:d 2:d 2:d 2:d 2:d 2:d 2:d 2:d", "actions[10] (seat 2 draw) cannot have happened: the "
     "boneyard had no tile to draw (0 left, reserve 0)"),
    ("0:3-6 1:3-5L 2:4-6R 3:p", "the boneyard still had"),
    ("0:3-6 1:3-5L 2:d 2:0-5L 3:0-4L 0:4-4L 1:d5-6 1:d0-0", "the viewer could play"),
]


@pytest.mark.parametrize("seen,words", REFUSALS)
def test_an_impossible_history_is_one_line_naming_the_action(seen, words):
    res = run("analyze", "-r", "threes", "-n", "4", "--hand", MARIA, "--seat", 1, "--seen", seen, "--rollouts", 100)
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], res.output


def test_a_hand_of_the_wrong_size_and_a_domino_then_more():
    res = run("analyze", "-r", "threes", "-n", "4", "--hand", "1-1 1-5 5-5")
    assert res.exit_code == 2 and "hand has 3 tiles; allowed: 5 (hand_size for 4 players)" in res.output
    r = preset("threes", players=2, hand_size=[2, 2, 2])
    acts = [{"seat": 0, "act": "play", "tile": "3-6", "end": "lead"},
            {"seat": 1, "act": "play", "tile": "6-6", "end": "R"},
            {"seat": 0, "act": "play", "tile": "1-3", "end": "L"},
            {"seat": 1, "act": "play", "tile": "1-1", "end": "L"}]
    v = view_from_data({"rules": r.to_dict(), "seat": 0, "first": 0, "hand": ["3-6", "1-3"], "actions": acts})
    with pytest.raises(ViewError, match=r"actions\[3\] \(seat 1 play 1-1 L\) cannot have happened: the deal had "
                                        r"ended \(domino\)"):
        full_deal(v)


def test_not_the_viewers_turn_names_the_allowed_moves():
    res = run("analyze", "-r", "threes", "-n", "4", "--hand", MARIA, "--seat", 1, "--seen", "0:3-6 1:3-5L")
    assert res.exit_code == 2
    assert "after the listed actions: seat 2 is to place tile 3, not the viewer (seat 1); allowed: --move one of 2" \
        in res.output
    res = run("analyze", "-r", "threes", "-n", "4", "--hand", MARIA, "--seat", 1, "--seen", SEEN10, "--move", 9)
    assert res.exit_code == 2 and "--move 9: seat 0 is to place tile 9" in res.output and "2, 6, 10" in res.output


def test_a_viewer_without_a_playable_tile_must_list_its_draw():
    res = run("analyze", "-r", "threes", "-n", "4", "--hand", MARIA, "--seat", 1, "--seen", SEEN10.split(" 1:d")[0])
    assert res.exit_code == 2 and "holds no playable tile after the listed actions" in res.output


def test_view_round_trip_equals_analyze_script(tmp_path):
    for out in (tmp_path / "maria.json", tmp_path / "maria.toml"):
        res = run("view", "--script", SEED_GAME, "--seat", 1, "--move", 10, "-o", out)
        assert res.exit_code == 0 and out.is_file(), res.output
        a = run("analyze", "--position", out, "--rollouts", 2000, "--format", "json")
        b = run("analyze", "--script", SEED_GAME, "--move", 10, "--rollouts", 2000, "--format", "json")
        assert a.exit_code == 0 and b.exit_code == 0, a.output
        strip = lambda ms: [{k: x for k, x in m.items() if k != "played"} for m in ms]  # noqa: E731
        assert strip(json.loads(a.output)["moves"]) == strip(json.loads(b.output)["moves"])
    res = run("view", "--script", SEED_GAME, "--seat", 1, "--move", 10, "-o", tmp_path / "maria.json")
    assert res.exit_code == 2 and "exists" in res.output


def test_view_of_a_trace_deal_round_trip(tmp_path):
    t = tmp_path / "t.jsonl"
    assert run("trace", "-r", "fives", "-n", "3", "--deals", 4, "--seed", 9, "-o", t).exit_code == 0
    d = from_seed(preset("fives", players=3), ["greedy"] * 3, 9, 3)
    m = next(i + 1 for i in range(len(d.plays)) if d.position(i + 1).seat == 2 and len(d.position(i + 1).moves) > 1)
    out = tmp_path / "v.json"
    assert run("view", "--trace", t, "--deal", 3, "--seat", 2, "--move", m, "-o", out).exit_code == 0
    data = json.loads(out.read_text())
    assert all("tile" not in a for a in data["actions"] if a["act"] == "draw" and a["seat"] != 2)
    a = run("analyze", "--position", out, "--rollouts", 300, "--format", "json")
    b = run("analyze", "--trace", t, "--deal", 3, "--move", m, "--rollouts", 300, "--format", "json")
    strip = lambda ms: [{k: x for k, x in m.items() if k != "played"} for m in ms]  # noqa: E731
    assert strip(json.loads(a.output)["moves"]) == strip(json.loads(b.output)["moves"])


@pytest.mark.parametrize("args,words", [
    (["--position", "nope.json"], "nope.json: no such file"),
    (["--position", SEED_GAME], "unknown field 'hands'"),
    (["--hand", MARIA, "--script", SEED_GAME], "one position source"),
    (["--hand", MARIA, "--all"], "--all does not apply"),
    (["--hand", MARIA, "--perfect-information"], "needs the true hidden tiles"),
    (["--hand", "1-1 1-5 5-5 3-5 9-9"], "--hand: tile '9-9' is not in the double-6 set"),
    (["--hand", MARIA, "--seat", 1, "--seen", "0:3-6 1:zz"], "--seen token 2 '1:zz'"),
])
def test_bad_options_are_one_line(args, words):
    res = run("analyze", *args)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and words in res.output, res.output


@pytest.mark.parametrize("args,words", [
    (["--seat", 7], "--seat 7; allowed: a seat 0..3"),
    (["--seat", 1, "--move", 99], "--move 99:"),
    (["--seat", 1, "--format", "yaml"], "--format 'yaml'; allowed: json, toml"),
])
def test_view_bad_options_are_one_line_and_write_nothing(tmp_path, args, words):
    out = tmp_path / "v.json"
    res = run("view", "--script", SEED_GAME, *args, "-o", out)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and words in res.output, res.output
    assert not out.exists()

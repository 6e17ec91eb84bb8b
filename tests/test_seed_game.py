"""The seed game of docs/rules.md section 9 (Threes, 4 players): the golden test.

Every move's points and bonus, the ends and counted ends after it, the totals after move 10
(10/0/6/6) and the alternative moves the seed states, through DealState, the shipped script file,
and the independent referee (tests/reference.py).
"""
from pathlib import Path

import pytest

from reference import Layout, check, score_move
from simdom.engine.codes import End
from simdom.engine.state import DealState
from simdom.rules import preset
from simdom.deal.script import check_expectations, load_script, run_script
from simdom.tiles import parse_tile

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scenarios" / "seed-game.deal.toml"

HANDS = [
    "3-6 1-4 2-3 2-6 4-4",  # seat 0: Evgeny / Alexander
    "1-1 1-5 5-5 3-5 2-2",  # seat 1: Ilya / Maria
    "3-4 0-5 1-6 4-6 1-2",  # seat 2: Pavel / Nikita
    "0-4 3-3 0-6 6-6 0-2",  # seat 3: Gleb / Tatiana
]
BONEYARD = "5-6 0-0 0-1 0-3 1-3 2-4 2-5 4-5"

# (move, seat, tile, end, ends after {L, R, U, D} with used arms only, counted k, sum S, points, bonus)
MOVES = [
    (1, 0, "3-6", "lead", {"L": 3, "R": 6}, 2, 9, 0, 0),
    (2, 1, "3-5", "L", {"L": 5, "R": 6}, 2, 11, 0, 0),
    (3, 2, "0-5", "L", {"L": 0, "R": 6}, 2, 6, 0, 0),     # sum 6, but two ends never score
    (4, 3, "0-4", "L", {"L": 4, "R": 6}, 2, 10, 0, 0),
    (5, 0, "4-4", "L", {"L": 4, "R": 6}, 2, 10, 0, 4),    # the spinner at move 5: bonus 4
    (6, 1, "5-6", "R", {"L": 4, "R": 5}, 2, 9, 0, 0),     # drawn first
    (7, 2, "4-6", "U", {"L": 4, "R": 5, "U": 6}, 3, 15, 6, 0),
    (8, 3, "0-6", "U", {"L": 4, "R": 5, "U": 0}, 3, 9, 6, 0),
    (9, 0, "1-4", "L", {"L": 1, "R": 5, "U": 0}, 3, 6, 6, 0),  # D empty: not counted
    (10, 1, "1-5", "L", {"L": 5, "R": 5, "U": 0}, 3, 10, 0, 0),
]


def T(text: str) -> int:
    return parse_tile(text, 6)


def new_deal() -> DealState:
    rules = preset("threes", players=4)
    return DealState(rules, [[T(x) for x in h.split()] for h in HANDS], [T(x) for x in BONEYARD.split()], 0)


def play_to(st: DealState, move: int) -> DealState:
    """Play the seed's moves before ``move``."""
    for m, seat, tile, end, *_ in MOVES[: move - 1]:
        st.play(T(tile), End.parse(end))
    return st


def shown(st: DealState) -> dict[str, int]:
    """The ends after a move as the seed's table gives them: L, R and the arms that hold a tile."""
    ends = st.ends()
    used = dict(zip("UD", st.arms_used()))
    return {e: v for e, v in ends.items() if e in "LR" or used[e]}


@pytest.fixture(scope="module")
def played():
    st = new_deal()
    out = []
    for m, seat, tile, end, *_ in MOVES:
        assert st.advance() and st.turn == seat, f"move {m}: seat {st.turn} to act, the seed says {seat}"
        res = st.play(T(tile), End.parse(end))
        out.append((res, shown(st), st.counted(), st.arms_used()))
    return st, out


@pytest.mark.parametrize("row", MOVES, ids=[f"move_{r[0]}" for r in MOVES])
def test_s9_move(played, row):
    m, seat, tile, end, ends, k, s, pts, bonus = row
    (got_pts, got_bonus, got_k, got_s), got_ends, counted, _ = played[1][m - 1]
    assert (got_pts, got_bonus) == (pts, bonus)
    assert (got_k, got_s) == (k, s) == counted
    assert got_ends == ends


def test_s9_totals_after_move_10(played):
    st, _ = played
    assert st.totals() == [10, 0, 6, 6]


def test_s9_move_6_seat_1_draws_5_6_then_plays_it(played):
    st, _ = played
    acts = st.actions
    i = next(j for j, a in enumerate(acts) if a["act"] == "draw")
    assert acts[i] == {"seat": 1, "act": "draw", "tile": "5-6"}
    assert acts[i + 1] == {"seat": 1, "act": "play", "tile": "5-6", "end": "R", "points": 0, "bonus": 0}
    assert sum(a["act"] == "draw" for a in acts) == 1 and not any(a["act"] == "pass" for a in acts)


def test_s9_move_5_spinner_arms_empty_not_counted(played):
    _, out = played
    assert out[4][3] == (False, False)          # U, D empty after move 5
    assert out[6][3] == (True, False)           # 4-6 on U at move 7
    assert out[8][3] == (True, False)           # move 9: D still empty, 3 ends


def test_s9_move_7_alternatives():
    st = play_to(new_deal(), 7)
    assert st.score_of(T("3-4"), End.parse("U")) == (6, 0)   # 4 + 5 + 3 = 12
    assert st.score_of(T("4-6"), End.parse("L")) == (0, 0)   # two ends
    assert st.score_of(T("4-6"), End.parse("U")) == (6, 0)   # the move played; state unchanged by score_of
    assert st.counted() == (2, 9)


def test_s9_move_8_alternatives():
    st = play_to(new_deal(), 8)
    assert st.score_of(T("6-6"), End.parse("U")) == (6, 0)   # an inline double counts its face: 15
    assert st.score_of(T("0-6"), End.parse("U")) == (6, 0)


def test_s9_move_10_alternatives():
    st = play_to(new_deal(), 10)
    assert st.score_of(T("1-1"), End.parse("L")) == (6, 0)   # 1 + 5 + 0
    assert st.score_of(T("5-5"), End.parse("R")) == (6, 0)   # 1 + 5 + 0
    assert st.score_of(T("1-5"), End.parse("L")) == (0, 0)   # 5 + 5 + 0 = 10


def test_s9_shipped_script_and_check_expectations():
    sc = load_script(SCRIPT)
    assert sc.first == 0 and sc.rules == preset("threes", players=4)
    assert [[parse_tile(x, 6) for x in h.split()] for h in HANDS] == sc.hands
    assert [(T(t), End.parse(e)) for _, _, t, e, *_ in MOVES] == sc.moves
    st, results = run_script(sc)
    assert [r[0] for r in results] == [m[7] for m in MOVES]
    assert [r[1] for r in results] == [m[8] for m in MOVES]
    assert st.totals() == [10, 0, 6, 6]
    assert check_expectations(sc, st, results) == []
    assert set(sc.expect) == {"points", "bonus", "totals"}


def test_s9_check_expectations_reports_a_wrong_total():
    sc = load_script(SCRIPT)
    st, results = run_script(sc)
    sc.expect["totals"] = [10, 0, 6, 7]
    bad = check_expectations(sc, st, results)
    assert len(bad) == 1 and "totals" in bad[0]


def test_s9_referee_agrees_with_the_seed():
    """The independent referee, fed the engine's record of the 10 moves, finds nothing wrong."""
    st, _ = run_script(load_script(SCRIPT))
    rec = st.record()
    assert rec["end"] is None
    assert check(rec, partial=True) == []


def test_s9_referee_scores_the_seed_by_itself():
    """The referee's layout model alone reproduces the seed's points, bonuses and alternatives."""
    rules = preset("threes", players=4).to_dict()
    lay, done, totals = Layout(rules), False, [0, 0, 0, 0]
    for m, seat, tile, end, ends, k, s, pts, bonus in MOVES:
        t = tuple(int(x) for x in tile.split("-"))
        if m == 7:
            assert score_move(lay, (3, 4), "U", rules, done)[:2] == (6, 0)
            assert score_move(lay, (4, 6), "L", rules, done)[:2] == (0, 0)
        if m == 8:
            assert score_move(lay, (6, 6), "U", rules, done)[:2] == (6, 0)
        if m == 10:
            assert score_move(lay, (1, 1), "L", rules, done)[:2] == (6, 0)
            assert score_move(lay, (5, 5), "R", rules, done)[:2] == (6, 0)
        assert score_move(lay, t, end, rules, done) == (pts, bonus, k, s)
        lay.place(t, end)
        done = done or t[0] == t[1]
        totals[seat] += pts + bonus
    assert totals == [10, 0, 6, 6]


@pytest.mark.parametrize("policy", ["greedy", "random", "heavy"])
def test_s9_seed_game_played_out_follows_the_rules(policy):
    st, _ = run_script(load_script(SCRIPT))
    st.play_out(policy, seed=3)
    rec = st.record()
    assert rec["end"] in ("domino", "blocked")
    assert check(rec) == []

"""simdom analyze --by match (analyze/matchvalue.py, analyze/evaluate.py): a deal of a match valued in
match equity at the sides' scores, each rollout's end read from the match equity table; bad input
refused in one line."""
from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from simdom.analyze.evaluate import STREAM_SALT, evaluate
from simdom.analyze.matchvalue import match_value
from simdom.analyze.viewread import viewer_position
from simdom.cli import app
from simdom.engine.analysis import MoveRollouts
from simdom.rules import preset
from simdom.run.equity import equity

RULES = preset("fives", players=2, target=100)
HAND, SEEN = "0-2 0-6 1-2 1-3 4-5 5-6 2-2", "1:5-5"


def run(*args):
    return CliRunner().invoke(app, [*map(str, args)], env={"COLUMNS": "100"})


@pytest.fixture(scope="module")
def table():
    return equity(RULES, "greedy", 200_000, 1)


def test_a_deals_end_is_read_from_the_equity_table_and_a_won_match_counts_whole(table):
    mv = match_value(RULES, (60, 90), "greedy", equity)
    points = np.array([[0, 10, 25], [35, 40, 5]])
    margin = np.array([[-5, 10, 0], [30, -60, 5]])
    got = mv.equity(0, points, margin)
    for i in range(2):
        for j in range(3):
            a, b = 60 + points[i, j], 90 + points[i, j] - margin[i, j]
            want = (1.0 if a > b else 0.0 if a < b else 0.5) if max(a, b) >= 100 else table.win([a, b])[0]
            assert got[i, j] == pytest.approx(want, abs=1e-12), (a, b)
    # seat 1 moving: its side's column of the table, the scores in seat order
    mv1 = match_value(RULES, (90, 60), "greedy", equity)
    got1 = mv1.equity(1, points, margin)
    for i in range(2):
        for j in range(3):
            mine, theirs = 60 + points[i, j], 90 + points[i, j] - margin[i, j]
            want = (1.0 if mine > theirs else 0.0 if mine < theirs else 0.5) if max(mine, theirs) >= 100 \
                else table.win([theirs, mine])[1]
            assert got1[i, j] == pytest.approx(want, abs=1e-12), (mine, theirs)


def test_analyze_by_match_is_the_mean_equity_of_the_same_rollouts():
    pos = viewer_position(None, RULES, HAND, SEEN, 0, None)
    mv = match_value(RULES, (60, 90), "greedy", equity)
    a = evaluate(pos, rollouts=3000, seed=4, by="match", match=mv)
    r = MoveRollouts(pos.state, pos.moves, "greedy", 4, perfect=False, salt=STREAM_SALT).run(0, 3000)
    eq = mv.equity(pos.seat, r.points, r.margin).mean(axis=0)
    for row in a.rows:
        i = pos.moves.index((row.tile, row.end))
        assert row.match == pytest.approx(eq[i], abs=1e-12)
        assert row.match_diff_vs_best == pytest.approx(eq[i] - a.best.match, abs=1e-12)
    assert [row.match for row in a.rows] == sorted((row.match for row in a.rows), reverse=True)
    # the same rollouts' points, whatever the currency
    p = evaluate(pos, rollouts=3000, seed=4)
    assert {(x.tile, x.end): x.mean_points for x in p.rows} == {(x.tile, x.end): x.mean_points for x in a.rows}
    # far ahead the match is all but won, far behind all but lost
    ahead = evaluate(pos, rollouts=500, seed=4, by="match", match=match_value(RULES, (95, 0), "greedy", equity))
    behind = evaluate(pos, rollouts=500, seed=4, by="match", match=match_value(RULES, (0, 95), "greedy", equity))
    assert ahead.best.match > 0.9 and behind.best.match < 0.1


def test_the_command_answers_in_match_equity_and_refuses_bad_input_in_one_line():
    base = ["analyze", "-r", "fives", "-n", "2", "--set", "target=100", "--hand", HAND, "--seen", SEEN,
            "--rollouts", "500"]
    r = run(*base, "--by", "match", "--score", "60,90")
    assert r.exit_code == 0, r.output
    assert "ranked by match equity at 60-90 in a match to 100" in " ".join(r.output.split())
    assert "match %" in r.output
    for extra, says in ((["--by", "match", "--score", "100,0"], "below the target"),
                        (["--by", "match", "--score", "1,2,3"], "2 scores, one per side"),
                        (["--by", "match", "--score", "a,b"], "e.g. --score 45,70"),
                        (["--by", "points", "--score", "1,2"], "applies with --by match")):
        r = run(*base, *extra)
        assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output, r.output
        assert len(r.output.strip().splitlines()) <= 3
    r = run("analyze", "-r", "fives", "-n", "2", "--hand", HAND, "--seen", SEEN, "--by", "match")
    assert r.exit_code == 2 and "rules without a target" in r.output


def test_a_match_review_by_match_values_each_decision_at_its_hands_scores(tmp_path):
    """review --trace FILE --match K --by match: each decision valued as analyze --by match values its
    position at the scores before its hand (the same rollouts and seed); an error is match equity lost."""
    from simdom.analyze.matchreview import hand_deal, load_match, review_match
    trace = tmp_path / "m.jsonl"
    r = run("trace", "-r", "fives", "-n", "2", "--set", "target=100", "--matches", "1", "--seed", "3", "-o", trace)
    assert r.exit_code == 0, r.output
    hands = load_match(trace, 0)
    m = review_match(hands, rollouts=200, luck_rollouts=5, seed=2, by="match", equity=equity)
    assert m.by == "match" and len(m.hands) == len(hands) >= 2
    for h, x in list(zip(hands, m.hands))[:2]:
        mv = match_value(RULES, list(h.match["before"]), "greedy", equity)
        for d, pos in list(zip(x.review.decisions, hand_deal(h, "hand").positions()))[:4]:
            a = evaluate(pos, seed=2, rollouts=None if d.forced else 200, by="match", match=mv)
            assert d.played[2] == a.row(pos.played).match and d.best[2] == a.best.match
    out = run("review", "--trace", trace, "--match", 0, "--by", "match", "--rollouts", 100, "--luck-rollouts", 5)
    assert out.exit_code == 0, out.output
    assert "percentage points of match equity" in out.output.split("\n\n")[0]
    bad = run("review", "--script", "scenarios/seed-game.deal.toml", "--by", "match")
    assert bad.exit_code == 2 and "--by match reviews a whole match" in bad.output

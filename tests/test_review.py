"""simdom review (simdom/analyze/review.py, cli/review.py): decisions rated with paired intervals and marks,
the luck of every chance event, per-player figures; the seed game reviewed; bad input refused."""
from __future__ import annotations

import json
import math
import re

import pytest
from typer.testing import CliRunner

from simdom.analyze.position import from_script, from_seed
from simdom.analyze.review import MARKS, mark, review, script_names
from simdom.cli import app
from simdom.rules import preset

SEED_GAME = "scenarios/seed-game.deal.toml"


def run(*args):
    return CliRunner().invoke(app, [*map(str, args)])


@pytest.fixture(scope="module")
def seed_review():
    return review(from_script(SEED_GAME), rollouts=2000, luck_rollouts=300, seed=3)


def test_mark_thresholds_and_the_interval():
    assert [n for n, _ in MARKS] == ["blunder", "mistake", "inaccuracy"]
    assert mark(4.0, 0.1) == "blunder" and mark(3.99, 0.1) == "mistake" and mark(2.0, 1.0) == "mistake"
    assert mark(1.0, 0.01) == "inaccuracy" and mark(0.49, 0.2) is None
    assert mark(9.0, 0.0) is None and mark(9.0, -1.0) is None  # the interval must exclude 0


def test_marks_appear_exactly_where_the_interval_excludes_zero(seed_review):
    for d in seed_review.decisions:
        assert d.error_lo <= d.error <= d.error_hi
        expected = None if d.forced or not d.error_lo > 0 else next((n for n, at in MARKS if d.error >= at), None)
        assert d.mark == expected, d
        if d.mark:
            assert d.error_lo > 0


def test_a_forced_move_has_error_zero_and_is_not_counted(seed_review):
    forced = [d for d in seed_review.decisions if d.forced]
    assert [d.move for d in forced] == [2, 6]  # Maria's 3-5 and her drawn 5-6: one legal move each
    assert all(d.error == d.error_lo == d.error_hi == 0 and d.mark is None and d.played == d.best for d in forced)
    maria = seed_review.players[1]
    assert maria.decisions == 1  # of her three placements, moves 2 and 6 were forced


def test_the_seed_game_reviewed(seed_review):
    r = seed_review
    assert r.names == ["Alexander", "Maria", "Nikita", "Tatiana"]
    m10 = r.decisions[9]
    assert (m10.move, m10.seat, m10.played[:2], m10.best[:2]) == (10, 1, ("1-5", "L"), ("1-1", "L"))
    assert m10.mark == "blunder" and 6.5 < m10.error < 8
    assert r.decisions[4].played[:2] == ("4-4", "L") and r.decisions[4].error == 0  # move 5: the best
    draw = [x for x in r.luck if x.event == "draw 5-6"]
    assert len(draw) == 1 and draw[0].move == 6 and draw[0].seat == 1 and draw[0].hi[1] < 0  # bad luck for Maria
    assert [p.points for p in r.players] == [10, 0, 6, 6]
    for p in r.players:
        assert p.adjusted_points == pytest.approx(p.points - p.luck_total)
        assert p.error_total == pytest.approx(sum(d.error for d in r.decisions if d.seat == p.seat))


def test_luck_telescopes_to_the_final_points_for_a_deal_played_by_the_continuation():
    # A deal played by greedy, reviewed with greedy: the expectation at the start plus each seat's luck is
    # its final total, within the rollouts' error (after the last event the rest is determined).
    deal = from_seed(preset("threes", 4), ["greedy"] * 4, 11, 4)
    r = review(deal, rollouts=50, luck_rollouts=400, seed=2)
    assert any(x.event.startswith("draw") for x in r.luck)
    for s, p in enumerate(r.players):
        se = math.sqrt(sum(x.before_se[s] ** 2 + x.after_se[s] ** 2 for x in r.luck))
        gap = r.start_value[s] + p.luck_total - p.points
        assert abs(gap) <= 4 * se + 1e-9, (s, gap, se)
    assert r.luck[-1].after_se == [0.0] * 4 or all(v < 1e-9 for v in r.luck[-1].after_se)


def test_script_names():
    assert script_names("The seed game (Evgeny/Alexander, Ilya/Maria, Pavel/Nikita, Gleb/Tatiana)", 4) == [
        "Alexander", "Maria", "Nikita", "Tatiana"]
    assert script_names("deal 3 of seed 1", 4) is None and script_names("x (a, b)", 4) is None


def test_the_command_json_keys_and_the_answer_first(tmp_path):
    out = tmp_path / "r.json"
    res = run("review", "--script", SEED_GAME, "--rollouts", 500, "--luck-rollouts", 50, "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    j = json.loads(out.read_text())
    assert {"decisions", "luck", "players"} <= set(j)
    d = j["decisions"][0]
    assert set(d) == {"move", "seat", "played", "best", "error", "error_lo", "error_hi", "mark", "forced"}
    assert set(d["played"]) == set(d["best"]) == {"tile", "end", "value"}
    assert {"event", "move", "seat", "luck"} <= set(j["luck"][0]) and len(j["luck"][0]["luck"]) == 4
    assert {"seat", "decisions", "error_total", "error_per_decision", "luck_total", "points",
            "adjusted_points"} <= set(j["players"][0])
    text = run("review", "--script", SEED_GAME, "--rollouts", 500, "--luck-rollouts", 50)
    assert text.exit_code == 0 and text.output.startswith("Maria lost "), text.output
    assert "at move 10 (1-5 L instead of 1-1 L)" in " ".join(text.output.split())
    assert max(len(line) for line in text.output.splitlines()) <= 80
    csv = run("review", "--script", SEED_GAME, "--rollouts", 200, "--luck-rollouts", 20, "-f", "csv")
    assert csv.exit_code == 0 and csv.output.splitlines()[0].startswith("move,seat,played_tile")
    assert len(csv.output.splitlines()) == 11


@pytest.mark.parametrize("args, words", [
    (["--script", "nope.toml"], "no such file"),
    ([], "no deal given"),
    (["--script", SEED_GAME, "-f", "xml"], "allowed: text, table, json, md, csv"),
    (["--script", SEED_GAME, "--rollouts", "1"], "--rollouts 1"),
    (["--script", SEED_GAME, "--names", "a,b"], "allowed: 4 non-empty names"),
    (["--script", SEED_GAME, "--then", "nonsense"], "--then"),
    (["--script", SEED_GAME, "--deal", "2"], "--deal does not apply"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    res = run("review", *args)
    assert res.exit_code == 2, res.output
    assert words in res.output and "Traceback" not in res.output


def test_a_one_seat_file_rates_only_that_seat_with_the_full_records_values(tmp_path):
    view = tmp_path / "maria.json"
    assert run("view", "--script", SEED_GAME, "--seat", 1, "-o", view).exit_code == 0
    args = ["--rollouts", 300, "--luck-rollouts", 40, "--seed", 5, "-f", "json"]
    one = run("review", "--position", view, *args)
    full = run("review", "--script", SEED_GAME, *args)
    assert one.exit_code == 0 and full.exit_code == 0, one.output
    a, b = json.loads(one.output), json.loads(full.output)
    assert a["viewer"] == 1 and [d["move"] for d in a["decisions"]] == [2, 6, 10]
    assert a["decisions"] == [d for d in b["decisions"] if d["seat"] == 1]  # analysis never reads hidden tiles
    assert [p["seat"] for p in a["players"]] == [1]
    assert [(x["event"], x["seat"]) for x in a["luck"]] == [("draw 5-6", 1)]
    assert a["luck"][0]["luck"][0] is None and isinstance(a["luck"][0]["luck"][1], float)
    bad = run("review", "--position", view, "--script", SEED_GAME)
    assert bad.exit_code == 2 and "one deal source" in bad.output


def test_a_deal_of_a_trace_is_reviewed(tmp_path):
    t = tmp_path / "t.jsonl"
    made = run("trace", "--rules", "threes", "--players", 3, "--deals", 2, "--seed", 4, "-o", t)
    assert made.exit_code == 0, made.output
    res = run("review", "--trace", t, "--deal", 1, "--rollouts", 100, "--luck-rollouts", 20, "-f", "json")
    assert res.exit_code == 0, res.output
    j = json.loads(res.output)
    assert len(j["players"]) == 3 and j["luck"][0]["event"] == "deal"
    assert [p["name"] for p in j["players"]] == ["seat 0", "seat 1", "seat 2"]
    missing = run("review", "--trace", t, "--deal", 9)
    assert missing.exit_code == 2 and "no deal 9" in missing.output


# ---- a whole match (simdom review --trace FILE --match K; analyze/matchreview.py) ----------------------------
FAST = ["--rollouts", 60, "--luck-rollouts", 20, "--seed", 3]


@pytest.fixture(scope="module")
def match_trace(tmp_path_factory):
    t = tmp_path_factory.mktemp("match") / "m.jsonl"
    made = run("trace", "-r", "threes", "-n", 3, "--set", "target=40", "--matches", 2, "--seed", 5, "-o", t)
    assert made.exit_code == 0, made.output
    return t


def test_a_match_is_reviewed_hand_by_hand_and_the_players_totals_are_the_sums(match_trace):
    recs = [json.loads(line) for line in match_trace.read_text().splitlines()]
    mine = [r for r in recs if r["match"]["id"] == 1]
    res = run("review", "--trace", match_trace, "--match", 1, *FAST, "-f", "json")
    assert res.exit_code == 0, res.output
    j = json.loads(res.output)
    assert j["values"] == "per deal" and j["target"] == 40 and j["match"] == 1
    assert len(j["hands"]) == len(mine) >= 2
    for h, rec in zip(j["hands"], mine):
        assert (h["before"], h["after"], h["points"]) == (rec["match"]["before"], rec["match"]["after"], rec["totals"])
        assert len(h["review"]["decisions"]) == sum(a["act"] == "play" for a in rec["actions"])
    assert j["final"] == mine[-1]["match"]["after"] and j["winner"] == mine[-1]["match"]["winner"]
    for p in j["players"]:
        s = p["seat"]
        per = [q for h in j["hands"] for q in h["review"]["players"] if q["seat"] == s]
        assert p["decisions"] == sum(q["decisions"] for q in per) > 0
        assert p["error_total"] == pytest.approx(sum(q["error_total"] for q in per))
        assert p["error_total"] == pytest.approx(sum(d["error"] for h in j["hands"] for d in h["review"]["decisions"]
                                                     if d["seat"] == s))
        assert p["luck_total"] == pytest.approx(sum(q["luck_total"] for q in per))
        assert p["points"] == sum(h["points"][s] for h in j["hands"])
        assert p["adjusted_points"] == pytest.approx(p["points"] - p["luck_total"])
        assert p["error_per_decision"] == pytest.approx(p["error_total"] / p["decisions"])


def test_a_match_of_one_hand_gives_the_decisions_of_that_deal_reviewed_alone(tmp_path):
    m = tmp_path / "one.jsonl"
    made = run("trace", "-r", "threes", "-n", 4, "--set", "target=500", "--set", "max_deals=1", "--matches", 1,
               "--seed", 9, "-o", m)
    assert made.exit_code == 0, made.output
    rec = json.loads(m.read_text())
    assert rec["match"]["over"] and rec["match"]["hand"] == 0
    # the same deal as a single-deal record: no match object, the rules without the match parameters
    single = {k: v for k, v in rec.items() if k != "match"}
    single["rules"] = preset("threes", 4).to_dict()
    single["seed"] = None
    d = tmp_path / "single.jsonl"
    d.write_text(json.dumps(single) + "\n")
    a = run("review", "--trace", m, "--match", 0, *FAST, "-f", "json")
    b = run("review", "--trace", d, "--deal", rec["deal"], *FAST, "-f", "json")
    assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
    ja, jb = json.loads(a.output), json.loads(b.output)
    hand = ja["hands"][0]["review"]
    assert hand["decisions"] == jb["decisions"] and hand["luck"] == jb["luck"]
    assert [p["error_total"] for p in ja["players"]] == [p["error_total"] for p in jb["players"]]
    assert [p["points"] for p in ja["players"]] == [p["points"] for p in jb["players"]] == rec["totals"]


def test_the_match_review_for_people(match_trace, tmp_path):
    res = run("review", "--trace", match_trace, "--match", 0, *FAST, "--names", "Ann,Bob,Cy")
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert re.match(r"Match 0 \(to 40; \w+ won \d+ to [\d, ]+ in \d deals\): \w+ lost \d+\.\d points to errors in "
                    r"\d+ decisions, \w+ \d+\.\d in \d+, \w+ \d+\.\d in \d+; luck measured against greedy continuation: "
                    r"\w+( and \w+)* had the (most luck|least bad luck)", text), text
    assert "Values are expected points of each deal, not of the match" in text
    assert "scores before" in res.output and "Players over the match" in res.output
    assert max(len(line) for line in res.output.splitlines()) <= 80
    md, csv = tmp_path / "r.md", tmp_path / "r.csv"
    assert run("review", "--trace", match_trace, "--match", 0, *FAST, "-f", "md", "-o", md).exit_code == 0
    assert md.read_text().startswith("Match 0 (to 40; ") and "| hand | scores before |" in md.read_text()
    assert run("review", "--trace", match_trace, "--match", 0, *FAST, "-f", "csv", "-o", csv).exit_code == 0
    lines = csv.read_text().splitlines()
    assert lines[0].startswith("hand,before,move,seat,played_tile") and lines[1].startswith("0,0-0-0,1,")


@pytest.mark.parametrize("args, words", [
    (["--match", 7], "no match 7; allowed: 0..1"),
    (["--match", 0, "--deal", 1], "--match and --deal both given"),
    (["--deal", 1], "simdom review --trace FILE --match 0"),
])
def test_bad_match_input_is_one_line_and_exit_2(match_trace, args, words):
    res = run("review", "--trace", match_trace, *args)
    assert res.exit_code == 2, res.output
    assert words in res.output and "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


def test_a_deal_trace_or_no_trace_given_to_match_is_refused(tmp_path):
    t = tmp_path / "d.jsonl"
    assert run("trace", "--deals", 1, "-o", t).exit_code == 0
    for args, words in ((["--trace", t], "no match records"), ([], "--match needs a match trace"),
                        (["--script", SEED_GAME], "--match with --script")):
        res = run("review", *args, "--match", 0)
        assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output, res.output


def test_a_review_by_win_values_every_decision_as_analyze_by_win_does():
    """--by win: each decision's value and error are the chance to win the deal (analyze's by="win", the
    same rollouts and seed), the best move is the one with the most wins, the marks in winning chances."""
    from simdom.analyze.evaluate import evaluate
    from simdom.analyze.review import MARKS_BY
    deal = from_script(SEED_GAME)
    r = review(deal, rollouts=600, luck_rollouts=20, seed=5, by="win")
    assert r.by == "win" and len(r.decisions) == len(deal.plays)
    for d, p in zip(r.decisions, deal.positions()):
        a = evaluate(p, seed=5, rollouts=None if d.forced else 600, by="win")
        played, best = a.row(p.played), a.best
        assert d.played[2] == played.win_rate and d.best[2] == best.win_rate == max(x.win_rate for x in a.rows)
        if not d.forced and played is not best:
            assert d.error == pytest.approx(-played.win_diff_vs_best)
        expected = None if d.forced or not d.error_lo > 0 else \
            next((n for n, at in MARKS_BY["win"] if d.error >= at), None)
        assert d.mark == expected
    out = run("review", "--script", SEED_GAME, "--by", "win", "--rollouts", 300, "--luck-rollouts", 20)
    assert out.exit_code == 0, out.output
    assert "percentage points of winning chances" in out.output.splitlines()[0]
    bad = run("review", "--script", SEED_GAME, "--by", "wins")
    assert bad.exit_code == 2 and "points, margin, win" in bad.output.replace("'", "")

"""simdom equity (issue 56.1, docs/equity.md): the match equity table by dynamic programming over exact scores.

* the DP exactly on small hand-checked deal distributions (deal_end with its tie, immediate, exact with a
  credit that would pass the target);
* the sample: each deal's credits in order add up to what deal_end credits;
* the table against matches played to the end from chosen scores with MatchState: every value inside the
  played matches' 99.9% interval (deal_end and immediate; a known lead under hand_winner; partners);
* bad input: one line, exit code 2; the JSON schema; csv and parquet; the HTML page.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simdom.cli import app
from simdom.rules import preset
from simdom.run.equity import equity, play_from, sample_deals
from simdom.stats.inference import wilson
from simdom.stats.matches.met import DealSample, solve_table


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "100"})


def hand_sample(rules, credit, events=None, first=None, nxt=None, cond=None):
    n = len(credit)
    ev = {}
    if events is not None:
        off = np.cumsum([0] + [len(e) for e in events]).astype(np.int64)
        ev = dict(ev_off=off, ev_side=np.array([s for e in events for s, _ in e], np.int8),
                  ev_pts=np.array([p for e in events for _, p in e], np.int32))
    z = np.zeros(n, np.int8)
    return DealSample(rules, "greedy", 1, n, cond=z if cond is None else np.array(cond, np.int8),
                      first=np.array(first if first is not None else [i % 2 for i in range(n)], np.int8),
                      nxt=z if nxt is None else np.array(nxt, np.int8), credit=np.array(credit, np.int32), **ev)


def test_dp_deal_end_by_hand():
    """Side 0 scores 5 in half the deals, side 1 in a quarter, nobody in a quarter; to 10: the scoring deals
    are 2:1, so P(side 0 wins) = 2/3 from 5-5, 8/9 from 5-0, 4/9 from 0-5, 20/27 from 0-0."""
    s = hand_sample(preset("fives", 2, target=10), [[5, 0], [5, 0], [0, 5], [0, 0]], first=[0, 1, 0, 1])
    t = solve_table(s)
    assert t.step == 5 and t.size == 2 and t.leads == [None]
    want = {(0, 0): 20 / 27, (0, 5): 4 / 9, (5, 0): 8 / 9, (5, 5): 2 / 3}
    for sc, p in want.items():
        assert t.win(sc) == pytest.approx([p, 1 - p], abs=1e-12)
    # the first deal given who the rules made lead it: seat 0's deals 5-0 and 5-0... here [5,0] and [5,0]? no:
    # seat 0 led deals 0 and 2 ([5,0] and [0,5]): (8/9 + 4/9) / 2; seat 1 led 1 and 3 ([5,0], nothing)
    assert t.first_lead[0] == pytest.approx([2 / 3, 1 / 3], abs=1e-12)
    assert t.first_lead[1][0] == pytest.approx((8 / 9 + 20 / 27) / 2, abs=1e-12)
    assert sum(r["win"][0] + r["win"][1] for r in t.rows()) == pytest.approx(4)


def test_dp_deal_end_tie_at_the_target_plays_on():
    """To 10: deal A credits 10-5, deal B 0-10. From 0-5, A ties 10-10 (the next deal decides: A gives side 0
    more, B side 1, so 1/2 each) and B wins for side 1: P(side 0) = 1/2 * 1/2."""
    s = hand_sample(preset("fives", 2, target=10), [[10, 5], [0, 10]])
    t = solve_table(s)
    assert t.win([0, 5]) == pytest.approx([0.25, 0.75], abs=1e-12)
    assert t.win([5, 5]) == pytest.approx([0.5, 0.5], abs=1e-12)


def test_dp_immediate_cuts_the_deal_at_the_first_side_to_reach_the_target():
    """The same deals with their credits in order: A = side 0 +5, side 1 +5, side 0 +5; B = side 1 +10. From
    0-5 under immediate, A's second credit takes side 1 to 10 first: side 1 wins either deal."""
    rules = preset("fives", 2, target=10, match_end="immediate")
    s = hand_sample(rules, [[10, 5], [0, 10]], events=[[(0, 5), (1, 5), (0, 5)], [(1, 10)]])
    t = solve_table(s)
    assert t.win([0, 5]) == pytest.approx([0, 1], abs=1e-12)
    assert t.win([0, 0]) == pytest.approx([0.5, 0.5], abs=1e-12)   # A: side 0 reaches 10 first; B: side 1
    assert t.win([5, 0]) == pytest.approx([0.5, 0.5], abs=1e-12)   # A: side 0's first credit; B: side 1


def test_dp_exact_does_not_count_a_credit_past_the_target():
    """exact to 10 from 5-0: A (side 0 +5) wins for side 0, B (side 1 +10) for side 1, C (side 0 +10) would
    pass 10 and is not counted, so C leaves 5-0 as it was: P = 1/2 each. Under immediate C wins for side 0."""
    credit, events = [[5, 0], [0, 10], [10, 0]], [[(0, 5)], [(1, 10)], [(0, 10)]]
    ex = solve_table(hand_sample(preset("fives", 2, target=10, match_end="exact"), credit, events))
    assert ex.win([5, 0]) == pytest.approx([0.5, 0.5], abs=1e-12)
    im = solve_table(hand_sample(preset("fives", 2, target=10, match_end="immediate"), credit, events))
    assert im.win([5, 0]) == pytest.approx([2 / 3, 1 / 3], abs=1e-12)


def test_dp_known_leads_follow_next_lead():
    """hand_winner to 10: a deal led by seat s scores 5 for s, and s leads the next: the leader always wins;
    the rules' lead (condition 0) picks seat 0 or 1 evenly, each winning its deal."""
    rules = preset("fives", 2, target=10, next_lead="hand_winner")
    s = hand_sample(rules, [[5, 0], [0, 5], [5, 0], [0, 5]], cond=[1, 2, 0, 0], first=[0, 1, 0, 1],
                    nxt=[1, 2, 1, 2])
    t = solve_table(s)
    assert t.leads == [None, 0, 1]
    assert t.win([0, 0], 0) == pytest.approx([1, 0]) and t.win([0, 0], 1) == pytest.approx([0, 1])
    assert t.win([0, 0], None) == pytest.approx([0.5, 0.5])
    assert t.first_lead[0] == pytest.approx([1, 0])


def reference(rules, events, scores):
    """P(each side wins) from ``scores``, by a plain recursion over the deals (equally likely, their credits
    in order), written apart from the DP: deal_end adds the totals (the highest at >= T alone wins; a tie
    at the top splits equally: the deals below are drawn without one), immediate / exact replay the
    credits; a deal that leaves the score as it was is taken out and the rest renormalised."""
    from functools import lru_cache
    T, mode = rules.target, rules.match_end

    @lru_cache(maxsize=None)
    def v(sc):
        tot, stay = np.zeros(len(sc)), 0.0
        for ev in events:
            run = list(sc)
            won = None
            for side, x in ev:
                if mode == "exact" and run[side] + x > T:
                    continue
                run[side] += x
                if mode != "deal_end" and run[side] >= T:
                    won = side
                    break
            if mode == "deal_end" and max(run) >= T:
                top = [j for j, x in enumerate(run) if x == max(run)]
                assert len(top) == 1
                won = top[0]
            if won is not None:
                tot[won] += 1
            elif tuple(run) == sc:
                stay += 1
            else:
                tot += v(tuple(run))
        return tot / (len(events) - stay)
    return v(tuple(scores))


@pytest.mark.parametrize("sides", [2, 3])
@pytest.mark.parametrize("match_end", ["deal_end", "immediate", "exact"])
def test_dp_against_a_plain_recursion(sides, match_end):
    """Random deals of 2 or 3 sides, credits of 5 and 10 in random order, to 20 (deal_end: no tie at the
    top can arise, every credit a side's own): every score of the table as the recursion gives it."""
    rng = np.random.default_rng(sides * 10 + len(match_end))
    events = []
    while len(events) < 12:
        side = int(rng.integers(sides))
        ev = [(side if rng.random() < 0.7 else int(rng.integers(sides)), int(rng.choice([5, 10])))
              for _ in range(int(rng.integers(0, 4)))]
        credit = [sum(x for s, x in ev if s == j) for j in range(sides)]
        if match_end == "deal_end" and sum(c > 0 for c in credit) > 1:
            continue  # only one side scores: no tie at the top
        events.append(ev)
    events.append([(0, 5)])  # a deal that scores (not every deal may leave the score as it was)
    credit = [[sum(x for s, x in ev if s == j) for j in range(sides)] for ev in events]
    rules = preset("fives", sides, target=20, match_end=match_end)
    t = solve_table(hand_sample(rules, credit, events, first=[0] * len(events)))
    for sc in t.scores():
        assert t.win(list(sc)) == pytest.approx(reference(rules, events, tuple(int(x) for x in sc)), abs=1e-9), sc


@pytest.mark.parametrize("match_end", ["immediate", "exact"])
def test_the_sample_credits_in_order_add_up_to_the_deal_totals(match_end):
    rules = preset("fives", 4, target=100, teams="partners", match_end=match_end, next_lead="hand_winner")
    s = sample_deals(rules, "greedy", 3_000, 5)
    assert len(s.credit) == 3_000 and s.credit.shape[1] == 2
    sums = np.zeros_like(s.credit, dtype=np.int64)
    deal = np.repeat(np.arange(len(s.credit)), np.diff(s.ev_off))
    np.add.at(sums, (deal, s.ev_side.astype(np.int64)), s.ev_pts)
    assert (sums == s.credit).all()
    assert set(np.unique(s.cond)) <= set(range(5)) and (s.nxt[s.cond == 0] >= 0).all()


def _within(t, rules, scores, lead, matches, seed):
    won = play_from(rules, "greedy", scores, lead, matches, seed)
    p = t.win(scores, lead)
    assert won[-1] == 0
    for j in range(len(p)):
        lo, hi = wilson(won[j] / matches, matches, level=0.999)
        assert lo <= p[j] <= hi, (scores, lead, j, p[j], won[j], matches)
    return won


CHECKS = [  # (name, rules, positions (scores, lead), matches played from each, deals of the table)
    ("deal_end", dict(), [([0, 0], None), ([60, 85], None), ([90, 70], None)], 1000, 200_000),
    # immediate / exact replay every deal that can end the match at each score: 20,000 deals (about 20 s)
    ("immediate", dict(match_end="immediate"), [([55, 75], None), ([85, 80], None)], 800, 20_000),
    # exact with hand_winner: to 50 (its replay is the slowest DP: to 100 from 20,000 deals took over 10
    # minutes of a core), 300 matches from each position
    ("hand_winner_exact", dict(next_lead="hand_winner", match_end="exact", target=50),
     [([30, 30], 1), ([40, 20], 0)], 300, 5_000),
]


@pytest.mark.parametrize("name,extra,positions,matches,deals", CHECKS, ids=[c[0] for c in CHECKS])
def test_the_table_agrees_with_matches_played_from_chosen_scores(name, extra, positions, matches, deals):
    """2-player Fives to 100: every checked value inside the 99.9% interval of the matches played to the end
    from its scores by MatchState (deals from their own keys, a seed the table's deals do not use)."""
    rules = preset("fives", 2, **{"target": 100, **extra})
    t = equity(rules, "greedy", deals, seed=11)
    for scores, lead in positions:
        _within(t, rules, scores, lead, matches, seed=9001)


def test_partners_table_agrees_with_played_matches():
    rules = preset("fives", 4, target=100, teams="partners")
    t = equity(rules, "greedy", 100_000, seed=12)
    assert t.sides == 2
    _within(t, rules, [50, 80], None, 300, seed=9002)


@pytest.mark.parametrize("players,target,scores", [(3, 61, [30, 44, 50]), (4, 41, [20, 30, 10, 34])])
def test_three_and_four_sides_agree_with_played_matches(players, target, scores):
    """3 and 4 sides, each its own score (Threes: step 2): the same DP over every side's exact score, the
    deals independent given who leads them; checked as above, each side's value in its 99.9% interval."""
    rules = preset("threes", players, target=target)
    t = equity(rules, "greedy", 100_000, seed=13)
    assert t.sides == players and t.step == 2
    _within(t, rules, scores, None, 300, seed=9003)


@pytest.mark.parametrize("args,words", [
    (["-r", "fives", "-n", "2", "--set", "target=100", "--score", "100,20"], "--score 100,20"),
    (["-r", "fives", "-n", "2", "--set", "target=100", "--score", "20,30,40"], "3 score(s) for 2 sides"),
    (["-r", "fives", "-n", "2"], "target = 0 is not a match"),
    (["-r", "fives", "-n", "2", "--set", "target=100", "--policy", "nosuch"], "nosuch"),
    (["-r", "fives", "-n", "2", "--set", "target=100", "--deals", "10"], "--deals 10"),
    (["-r", "fives", "-n", "2", "--set", "target=100", "--score", "a,b"], "--score a,b"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, words):
    r = run("equity", *args)
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and words in lines[0], r.output


def test_the_json_schema(tmp_path):
    out = tmp_path / "eq.json"
    r = run("equity", "-r", "fives", "-n", "2", "--set", "target=50", "--deals", "20000", "--seed", "3", "-o", out)
    assert r.exit_code == 0, r.output
    d = json.loads(out.read_text())
    assert {"players", "target", "policy", "deals", "table", "seed", "sim_version", "method"} <= set(d)
    assert (d["players"], d["target"], d["policy"], d["deals"], d["seed"]) == (2, 50, "greedy", 20_000, 3)
    size = -(-50 // d["step"])
    assert len(d["table"]) == size * size
    for row in d["table"]:
        assert set(row) == {"scores", "lead", "win"} and row["lead"] is None
        assert len(row["scores"]) == 2 and all(0 <= x < 50 and x % d["step"] == 0 for x in row["scores"])
        assert sum(row["win"]) == pytest.approx(1, abs=1e-9)


def test_csv_parquet_html_and_the_terminal(tmp_path):
    import polars as pl
    base = ["equity", "-r", "fives", "-n", "2", "--set", "target=50", "--set", "next_lead=rotate", "--deals", "20000"]
    assert run(*base, "-o", tmp_path / "e.csv").exit_code == 0
    assert run(*base, "-o", tmp_path / "e.parquet").exit_code == 0
    a, b = pl.read_csv(tmp_path / "e.csv"), pl.read_parquet(tmp_path / "e.parquet")
    assert a.columns == b.columns == ["score_0", "score_1", "lead", "win_0", "win_1", "seed", "sim_version"]
    assert a.height == a["score_0"].n_unique() ** 2 * 3 and a["score_0"].max() == 49 and (a["win_0"] - b["win_0"]).abs().max() < 1e-12
    r = run(*base, "-o", tmp_path / "e.html")
    assert r.exit_code == 0, r.output
    page = (tmp_path / "e.html").read_text()
    assert page.count("data:image/png;base64") == 3 and "At 0-0" in page
    r = run(*base, "--score", "20,45")
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert text.startswith("At 0-0") and "20-45" in text and "lead of a deal is worth" in text
    assert "Seed 1; behaviour version" in text

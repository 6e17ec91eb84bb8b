"""Issue 41.2, the course table (results.COURSE): the kernel's per-deal tally of turns, choices, draws and the
lead, written with every run of single deals. Its rows are recomputed here by other means: the tension
columns placement by placement from the moves table (so the scorecard's lead changes, drama and
decisiveness are the same from either table), the turns, choices and draws by replaying deals through the
Python API (``simdom.engine.state``: the trace's actions, each placement's legal moves listed), and the
Python-policy path (engine/pybatch.py) against the kernel's own."""
from __future__ import annotations

import dataclasses
import subprocess

import numpy as np
import polars as pl
import pytest

SCENARIO = """name = "course"
players = 3
policies = ["greedy", "random", "heavy"]
rotation = true
deals = 240
seed = 23
[rules]
preset = "threes"
[sweep]
first_double_bonus = [[[4, 2], [8, 4], [8]], [[4, 8], [8, 16], [32]]]
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    from conftest import run_scenario
    return run_scenario(tmp_path_factory.mktemp("course"), SCENARIO, "--moves", "--course")


@pytest.fixture(scope="module")
def tables(folder):
    read = lambda t: pl.read_parquet(folder / t / "*.parquet")  # noqa: E731
    return read("deals"), read("course"), read("moves")


def test_course_is_declared_and_written_with_course(folder, tables):
    from simdom import results as fmt
    deals, course, _ = tables
    m = fmt.read_manifest(folder)
    assert "course" in m.tables
    assert course.columns == fmt.COURSE.names(3)
    assert course.select("arm", "deal", "rotation").equals(deals.select("arm", "deal", "rotation"))
    assert len(course) == 2 * 240 * 3


def test_tension_columns_equal_the_moves_table_deal_by_deal(tables):
    """Per arm, deal and rotation: lead changes, the winner's largest deficit and the last placement after
    which the winner was not the one seat ahead, by a plain loop over the placements (3 seats)."""
    deals, course, moves = tables
    P = 3
    finals = {(r["arm"], r["deal"], r["rotation"]): [r[f"points_{s}"] for s in range(P)]
              for r in deals.iter_rows(named=True)}
    got = {(r["arm"], r["deal"], r["rotation"]): r for r in course.iter_rows(named=True)}
    n = 0
    for (arm, deal, rot), g in moves.sort("arm", "deal", "rotation", "move").group_by(
            ["arm", "deal", "rotation"], maintain_order=True):
        f = finals[(arm, deal, rot)]
        w = f.index(max(f)) if f.count(max(f)) == 1 else None
        score, prev, changes, deficit, behind = [0] * P, None, 0, 0, 0
        for mv, seat, p, b in zip(g["move"], g["seat"], g["points"], g["bonus"]):
            score[seat] += p + b
            top = max(score)
            leader = score.index(top) if score.count(top) == 1 else None
            if leader is not None:
                changes += prev is not None and leader != prev
                prev = leader
            if w is not None:
                deficit = max(deficit, max(x for s, x in enumerate(score) if s != w) - score[w])
                if leader != w:
                    behind = mv
        r = got[(arm, deal, rot)]
        assert r["lead_changes"] == changes, (arm, deal, rot)
        assert r["winner_deficit"] == (deficit if w is not None else None), (arm, deal, rot)
        assert r["decided_at"] == (behind if w is not None else None), (arm, deal, rot)
        n += 1
    assert n == len(course)
    assert course["lead_changes"].sum() > 0 and course["winner_deficit"].drop_nulls().sum() > 0
    assert course["decided_at"].null_count() > 0  # ties at the top occur and are left out


def test_scorecard_from_course_equals_scorecard_from_moves(folder):
    """The scorecard reads the course table; without it (older folders) the moves table: the same figures."""
    from simdom.stats.read.folder import open_frames
    from simdom.stats.tables.balance import scorecard
    res = open_frames(folder)
    a, b = scorecard(res), scorecard(dataclasses.replace(res, course=None))
    for arm in a.measures:
        for m in ("lead_changes", "drama", "decisiveness"):
            for k in ("value", "low", "high"):
                assert a.measures[arm][m][k] == pytest.approx(b.measures[arm][m][k], rel=1e-9), (arm, m, k)
    assert {"decision_share", "choices", "draws"} <= set(a.measures[res.arm_names[0]])
    assert "decision_share" in b.missing and "decision_share" not in a.missing
    assert a.draw_quantiles and not b.draw_quantiles


def test_turns_choices_and_draws_from_the_python_api(folder, tables):
    """A few deals replayed from their traces: each placement's legal moves listed by DealState.legal, turns
    = placements + passes, draws counted; the same as the course rows, and the scorecard's decision_share
    and choices are these counts' ratios over the arm."""
    from simdom.engine.state import DealState, trace
    from simdom.rules import preset
    from simdom.stats.read.folder import open_frames
    from simdom.stats.tables.balance import scorecard
    _, course, _ = tables
    rules, pols = preset("threes", 3), ["greedy", "random", "heavy"]
    base = course.filter(pl.col("arm") == "first_double_bonus=4.2-8.4-8")
    got = {(r["deal"], r["rotation"]): r for r in base.iter_rows(named=True)}
    for deal in range(4):
        for rot in range(3):
            rec = trace(rules, [pols[(s + rot) % 3] for s in range(3)], 23, deal)
            st = DealState.dealt(rules, 23, deal)
            turns = choice = choices = draws = 0
            for a in rec["actions"]:
                if a["act"] == "draw":
                    draws += 1
                    continue
                turns += 1
                if a["act"] == "pass":
                    st.advance()
                    continue
                moves = st.advance()
                assert moves == st.legal()
                choices += len(moves)
                choice += len(moves) >= 2
                t = next(m for m in moves if _name(m, rules) == (a["tile"], a["end"]))
                st.play(*t)
            r = got[(deal, rot)]
            assert (r["turns"], r["choice_turns"], r["choices"], r["draws"]) == (turns, choice, choices, draws)
    card = scorecard(open_frames(folder))
    m = card.measures["first_double_bonus=4.2-8.4-8"]
    deals = pl.read_parquet(folder / "deals" / "*.parquet").filter(pl.col("arm") == "first_double_bonus=4.2-8.4-8")
    assert m["decision_share"]["value"] == pytest.approx(base["choice_turns"].sum() / base["turns"].sum())
    assert m["choices"]["value"] == pytest.approx(base["choices"].sum() / deals["tiles_placed"].sum())
    assert m["draws"]["value"] == pytest.approx(base["draws"].mean())
    assert 0 < m["decision_share"]["value"] < 1 and m["choices"]["value"] > 1
    assert card.draw_quantiles["first_double_bonus=4.2-8.4-8"]["p50"] == int(
        np.quantile(base["draws"].to_numpy(), 0.5, method="lower"))


def _name(move, rules):
    from simdom.tiles import tile_name
    t, e = move
    return tile_name(t, rules.max_pip), e.label


def test_python_policy_path_tallies_as_the_kernel():
    """engine/pybatch.py steps deals from Python and tallies them there (pybatch.Course): with the example
    Python greedy (it plays as the compiled greedy) the course columns equal the kernel's."""
    from simdom.engine.api import simulate_deals as simulate
    from simdom.engine.pybatch import simulate_deals_any as py_simulate
    from simdom.rules import preset
    rules = preset("threes", 4)
    k = simulate(rules, ["greedy", "random", "greedy", "heavy"], 5, 0, 12, course=True)
    p = py_simulate(rules, ["python:simdom.examples.policies:greedy", "random", "greedy", "heavy"], 5, 0, 12,
                    course=True)
    for c in ("choice_turns", "choices", "lead_changes", "leader", "lead_from", "max_deficit"):
        assert np.array_equal(k.course[c], p.course[c]), c
    for c in ("tiles_placed", "points"):
        assert np.array_equal(k.column(c), p.column(c)), c
    assert k.course["lead_changes"].sum() > 0 and (k.course["max_deficit"] > 0).any()


def test_tallying_the_course_changes_no_deal():
    """The same deals with and without the course's rows in the output blocks (batch.play_tally or play): every
    result column and every placement record equal, for policies with and without random streams."""
    from simdom.engine.api import simulate_deals as simulate
    from simdom.engine.codes import Records
    from simdom.rules import preset
    for rules, pols in ((preset("threes", 4), ["greedy", "random", "rollout:samples=2", "heavy"]),
                        (preset("fives", 3), ["hold:until=9", "defensive", "timing"])):
        a = simulate(rules, pols, 11, 100, 40, records=Records.PLAYS, course=True)
        b = simulate(rules, pols, 11, 100, 40, records=Records.PLAYS)
        assert a.course is not None and b.course is None
        for c in list(b.seats) + list(b.deals):
            assert np.array_equal(a.column(c), b.column(c)), c
        for c in b.records:
            assert np.array_equal(a.records[c], b.records[c]), c


def test_batches_sharing_work_arrays_play_as_fresh_ones():
    """api.batch_work: batches of policies that keep nothing between deals share one set of work arrays per
    thread; interleaved with other rules and policies they give what a fresh set gives."""
    from simdom.engine import api
    from simdom.engine.api import simulate_deals as simulate
    from simdom.rules import preset
    cases = [(preset("threes", 3), ["greedy", "random", "hold:until=never"]),
             (preset("fives", 4), ["heavy", "defensive", "timing", "greedy"]),
             (preset("threes", 2), ["random", "greedy"])]
    shared = [simulate(r, p, 9, 40, 30, course=True) for r, p in cases * 2]
    fresh = []
    for r, p in cases * 2:
        api._SHARED.__dict__.clear()
        fresh.append(simulate(r, p, 9, 40, 30, course=True))
    for a, b in zip(shared, fresh):
        for c in list(a.seats) + list(a.deals):
            assert np.array_equal(a.column(c), b.column(c)), c
        for c in a.course:
            assert np.array_equal(a.course[c], b.course[c]), c


MATCHES = """name = "mbal"
players = 2
policies = "greedy"
rotation = true
deals = 300
seed = 5
[rules]
preset = "threes"
target = 61
[sweep]
first_double_bonus = [[[4, 2], [8, 4], [8]], [[4, 8], [8, 16], [32]]]
"""


def test_match_results_give_deals_per_match(tmp_path):
    """Match results are scored too (clustered by match): deals per match, its quantiles, recomputed from the
    matches table; the course is refused for matches in one line, and its measures are named as left out."""
    from conftest import SIMDOM
    from simdom.stats.tables.balance import studies, to_json
    (tmp_path / "m.toml").write_text(MATCHES)
    bad = subprocess.run([SIMDOM, "run", str(tmp_path / "m.toml"), "--out", str(tmp_path / "x"), "--course", "-q"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "--course" in bad.stderr, bad.stderr
    assert not (tmp_path / "x").exists()
    done = subprocess.run([SIMDOM, "run", str(tmp_path / "m.toml"), "--out", str(tmp_path / "r"), "-q",
                           "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    card = to_json(studies([str(tmp_path / "r")]))
    m = pl.read_parquet(tmp_path / "r" / "matches" / "*.parquet")
    for v in card["variants"]:
        deals = m.filter(pl.col("arm") == v["name"])["deals"]
        assert v["measures"]["deals_per_match"]["value"] == pytest.approx(deals.mean())
        assert v["deals_per_match_quantiles"]["p50"] == int(np.quantile(deals.to_numpy(), 0.5, method="lower"))
    assert "deals_per_match" in card["variants"][1]["vs_baseline"]
    assert "decision_share" in card["left_out"] and "matches" in card["left_out"]["decision_share"]


def test_balance_skill_share_per_variant(folder):
    """--skill: each variant's skill share by wins, simdom skill's machinery on a few deals, shown per variant."""
    from simdom.run.skill import skill_rows
    from simdom.policies import parse_policy
    from simdom.rules import from_dict
    from simdom.stats.tables.balance import studies, to_json
    from simdom import results as fmt
    from simdom.run.skill import balance_skill
    study = studies([f"{folder}:first_double_bonus=4.8-8.16-32"])[0]
    balance_skill(study, 3, workers=1)
    card = to_json([study])
    got = card["variants"][0]["measures"]["skill"]
    arm = next(a for a in fmt.read_manifest(folder).arms if a.name == "first_double_bonus=4.8-8.16-32")
    fictive = {"points": parse_policy("clairvoyant:against=seats,by=points"),
               "wins": parse_policy("clairvoyant:against=seats")}
    rows = skill_rows(from_dict({**arm.rules, "players": 3}), [parse_policy("random")], parse_policy("search"),
                      fictive, [parse_policy("greedy")] * 2, 23, 3, "x", 1)
    want = next(r for r in rows if r["by"] == "wins")
    assert got["value"] == pytest.approx(want["skill"]) and got["deals"] == 3
    assert got["low"] <= got["value"] <= got["high"]


def test_the_course_is_a_view_of_the_python_api_and_export(folder, tables, tmp_path):
    """simdom.open_results(...).view("course") and `simdom export --view course` give the table as written."""
    from conftest import SIMDOM
    from simdom.api import open_results
    _, course, _ = tables
    res = open_results(folder)
    assert "course" in res.views()
    assert res.view("course").collect().equals(course)
    done = subprocess.run([SIMDOM, "export", str(folder), "--view", "course", "-o", str(tmp_path / "c.parquet")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert pl.read_parquet(tmp_path / "c.parquet").equals(course)

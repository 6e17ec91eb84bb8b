"""simdom skill: the relative skill LE / (LE + RE) (simdom/stats/estimate/skill.py, run/skill.py)."""
import json

import numpy as np
import pytest

from simdom.stats.estimate.skill import fieller, skill_share, synthetic


def test_point_estimate_on_exact_data():
    b = np.array([1.0, 2.0, 3.0, 4.0])
    est = skill_share(b, b + 3, b + 4)  # LE = 3, RE = 1 on every deal: no variance
    assert (est.learning_effect, est.random_effect, est.skill, est.deals) == (3.0, 1.0, 0.75, 4)
    assert est.skill_lo == pytest.approx(0.75) and est.skill_hi == pytest.approx(0.75)


def test_rotations_are_averaged_within_a_deal():
    b = np.array([[0.0, 2.0], [4.0, 6.0]])
    est = skill_share(b, b + [1.0, 3.0], b + [4.0, 4.0])  # per deal: LE 2, RE 2
    assert est.beginner_value == 3.0 and est.skill == 0.5 and est.deals == 2


@pytest.mark.parametrize("wins", [False, True])
@pytest.mark.parametrize("method", ["fieller", "delta"])
def test_the_interval_covers_the_known_share(wins, method):
    """Synthetic deals with a known LE and RE (deal and seat luck shared, as in a real run): the point
    estimate is near the truth and the 95% interval covers it in about 95% of 600 replications."""
    rng = np.random.default_rng(20)
    le, re = (0.10, 0.15) if wins else (1.5, 3.0)
    truth = le / (le + re)
    est = [skill_share(*synthetic(rng, 300, 2, le, re, wins=wins), method=method) for _ in range(600)]
    s = np.array([e.skill for e in est])
    cover = np.mean([e.skill_lo <= truth <= e.skill_hi for e in est])
    assert abs(np.median(s) - truth) < 0.02
    assert 0.925 <= cover <= 0.975, cover
    assert np.mean([e.learning_effect_lo <= le <= e.learning_effect_hi for e in est]) > 0.92


def test_fieller_is_unbounded_when_the_denominator_may_be_zero():
    rng = np.random.default_rng(1)
    lo, hi = fieller(rng.normal(0, 1, 20), rng.normal(0, 1, 20))
    assert np.isnan(lo) and np.isnan(hi)


def test_bad_arrays_are_refused():
    with pytest.raises(ValueError, match="the same number"):
        skill_share([1.0, 2.0], [1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="method"):
        skill_share([1.0, 2.0], [1.0, 2.0], [1.0, 2.0], method="boot")


KEYS = ["rules", "players", "by", "beginner", "beginner_value", "optimal", "optimal_value", "fictive_value",
        "learning_effect", "learning_effect_lo", "learning_effect_hi", "random_effect", "random_effect_lo",
        "random_effect_hi", "skill", "skill_lo", "skill_hi", "deals"]


def test_skill_on_a_small_real_run_of_two_player_threes(cli, tmp_path):
    """fictive >= optimal >= beginner by points within the intervals; the JSON rows as the issue gives."""
    out = tmp_path / "skill.json"
    r = cli("skill", "-r", "threes", "-n", "2", "--deals", "30", "--seed", "2", "-f", "json", "-o", out)
    assert r.returncode == 0, r.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [(x["by"], x["beginner"]) for x in rows] == [("points", "random"), ("points", "greedy"),
                                                       ("wins", "random"), ("wins", "greedy")]
    for x in rows:
        assert list(x)[:len(KEYS)] == KEYS and x["deals"] == 30 and x["players"] == 2
        assert x["learning_effect_lo"] <= x["learning_effect"] <= x["learning_effect_hi"]
        assert x["skill"] == pytest.approx(x["learning_effect"] / (x["learning_effect"] + x["random_effect"]))
        assert x["random_effect_hi"] > 0 and x["learning_effect_hi"] > 0  # not contradicted
    assert {x["by"]: x["fictive"] for x in rows} == {"points": "clairvoyant:against=seats,nodes=none,by=points",
                                                     "wins": "clairvoyant:against=seats,nodes=none,by=margin"}
    pts = rows[0]
    assert pts["fictive_value"] > pts["optimal_value"] > pts["beginner_value"]
    assert pts["random_effect_lo"] > 0 and pts["learning_effect_lo"] > 0  # search beats random, clairvoyant search
    assert 0 < pts["skill_lo"] <= pts["skill"] <= pts["skill_hi"] < 1


def test_skill_answers_first_in_text(cli):
    r = cli("skill", "-r", "fives", "-n", "2", "--deals", "6", "--seed", "3")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Fives, 2 players: skill share at least ")
    assert "by points" in r.stdout and "by wins" in r.stdout and "lower bound" in r.stdout
    assert max(map(len, lines)) <= 80


@pytest.mark.parametrize("args, says", [
    (["--optimal", "nosuch"], "--optimal: policy 'nosuch': unknown policy"),
    (["--opponents", "nosuch"], "--opponents: policy"),
    (["--optimal", "clairvoyant"], "not a fair player"),
    (["--opponents", "random"], "--opponents random: "),
    (["--opponents", "greedy", "--opponents", "heavy"], "one per other seat"),
    (["--deals", "0"], "--deals 0"),
    (["--deals", "1"], "--deals 1"),
    (["--seed", "-1"], "--seed -1"),
    (["-r", "nosuch"], "nosuch"),
    (["-n", "7"], "players"),
    (["-f", "xml"], "xml"),
    (["--workers", "0"], "--workers 0 is invalid; allowed: an integer from 1 to"),
    (["--backend", "spark"], "spark"),
    (["--backend", "dask"], "--backend dask needs --scheduler"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler is for --backend dask"),
])
def test_bad_input_is_one_line_exit_2(args, says):
    from typer.testing import CliRunner

    from simdom.cli import app
    r = CliRunner().invoke(app, ["skill", "--deals", "2", *args])
    assert r.exit_code == 2 and (r.exception is None or isinstance(r.exception, SystemExit)), r.output
    err = " ".join(r.output.split())  # the console wraps a long line at the runner's width
    assert err.startswith("Error:") and err.count("Error:") == 1 and says in err and "Traceback" not in err, err


def test_bad_input_from_the_shell_is_one_stderr_line(cli):
    r = cli("skill", "--optimal", "clairvoyant")
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "not a fair player" in r.stderr


@pytest.mark.parametrize("lo, hi, verdict", [(0.2, 0.4, "a lower bound below one half cannot tell"),
                                             (0.6, 0.8, "more by the play"),
                                             (0.3, 0.7, "too few deals"), (float("nan"), float("nan"), "too few")])
def test_the_verdict_follows_the_interval(lo, hi, verdict):
    from simdom import present as P
    from simdom.cli.skill import skill_answer
    rows = [{"rules": "Threes", "players": 2, "by": by, "beginner": beg, "skill": 0.5 if lo != lo else (lo + hi) / 2,
             "skill_lo": lo, "skill_hi": hi, "optimal": "search", "fictive": "clairvoyant", "opponents": "greedy",
             "deals": 10} for by in ("points", "wins") for beg in ("random", "greedy")]
    text = P.text(skill_answer(rows))
    assert text.startswith("Threes, 2 players: skill share at least ") and verdict in " ".join(text.split())
    assert "more by the tiles" not in text  # a lower bound never shows that the tiles decide more


def test_the_rows_are_the_same_on_one_worker_two_workers_and_a_dask_cluster():
    """Every (player, rotation, block of deals) is a task of its own and deal i depends on (seed, i) alone:
    one process, two loky workers and a real dask LocalCluster give the same rows."""
    import distributed

    from simdom.policies import parse_policy
    from simdom.rules import preset
    from simdom.run.skill import skill_rows

    rules = preset("threes", 2)
    pols = [parse_policy(p) for p in ("random", "greedy", "search", "clairvoyant:against=seats,by=points",
                                      "clairvoyant:against=seats")]
    fictive = {"points": pols[3], "wins": pols[4]}

    def rows(**kw):  # as JSON text: an unbounded interval's NaN equals itself there
        return json.dumps(skill_rows(rules, pols[:2], pols[2], fictive, [pols[1]], 4, 9, "Threes", **kw))

    one = rows(workers=1)
    assert one == rows(workers=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        assert one == rows(backend="dask", scheduler=cl.scheduler_address)
    first = json.loads(one)[0]
    assert first["deals"] == 9 and first["fictive_value"] >= first["optimal_value"]


def test_skill_of_matches_counts_whole_matches(cli, tmp_path):
    """With a match target every unit is a match: points are player 0's side's final match score and wins
    the matches its side won, as simdom's match loop plays them (checked against simulate_matches)."""
    from simdom.engine.matches import simulate_matches
    from simdom.rules import preset

    out = tmp_path / "m.json"
    r = cli("skill", "-r", "fives", "-n", "2", "--set", "target=61", "--deals", "6", "--seed", "4", "-w", "1",
            "-f", "json", "-o", out)
    assert r.returncode == 0, r.stderr
    rows = json.loads(out.read_text())["rows"]
    assert {(x["unit"], x["target"], x["deals"]) for x in rows} == {("match", 61, 6)}
    rules = preset("fives", 2, target=61)
    score, won = np.zeros((6, 2)), np.zeros((6, 2))
    for rot in range(2):   # rotation r: player 0 (random) at seat (2 - r) % 2, greedy at the other
        seat = (2 - rot) % 2
        lineup = ["random", "greedy"] if seat == 0 else ["greedy", "random"]
        m = simulate_matches(rules, lineup, 4, 0, 6).matches
        score[:, rot], won[:, rot] = m[f"score_{seat}"], m["winner"] == seat
    by = {(x["by"], x["beginner"]): x for x in rows}
    assert by[("points", "random")]["beginner_value"] == pytest.approx(score.mean())
    assert by[("wins", "random")]["beginner_value"] == pytest.approx(won.mean())
    text = cli("skill", "-r", "fives", "-n", "2", "--set", "target=61", "--deals", "4", "-w", "1")
    assert text.returncode == 0 and text.stdout.startswith("Fives (modified) to 61, 2 players: skill share")
    assert "4 matches, each with player 0 in every seat" in " ".join(text.stdout.split())


@pytest.mark.parametrize("game", ["threes", "fives"])
def test_the_points_fictive_player_scores_the_most_points_deal_by_deal(game):
    """Against deterministic opponents clairvoyant:by=points plays an exact points maximiser: in every deal it
    scores at least what any other player scores in its seat against the same opponents (the margin
    maximiser, search, greedy), and its points equal the solver's value of the deal from the lead."""
    from simdom.engine.api import simulate_deals
    from simdom.engine.solver import solve
    from simdom.engine.state import DealState
    from simdom.rules import preset

    rules = preset(game, 2)
    deals = 12
    pts = {p: simulate_deals(rules, [p, "greedy"], 11, 0, deals).seats["points"][:, 0]
           for p in ("clairvoyant:by=points", "clairvoyant", "search:worlds=16", "greedy")}
    best = pts.pop("clairvoyant:by=points")
    for other in pts.values():
        assert (best >= other).all()
    assert (best > pts["clairvoyant"]).any()  # maximising the margin is not maximising one's points
    for d in range(4):
        st = DealState.dealt(rules, 11, d)
        st.advance()
        if st.turn == 0:
            assert solve(st, by="points", against="greedy").value == best[d]

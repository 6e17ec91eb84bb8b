"""rotation = "all" (simdom.results.seating): every distinct arrangement of the policies over the seats, so
with 3 and 4 players no policy always sits right after another; the statistics follow the seating the
manifest records; rotation = true / false keep their seating and their rows."""
from __future__ import annotations

import itertools
import json
from collections import Counter

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest

from simdom.engine.api import simulate_deals as simulate
from simdom.results.seating import balanced, cyclic, every_arrangement, seating_of
from simdom.rules import preset
from simdom.run.plan import Plan
from simdom.run.runner import RunError, run
from simdom.run.scenario import ScenarioError, from_dict
from simdom.run.summary import by_player
from simdom.stats.read.folder import open_frames as open_results
from simdom.stats.tables.seats import seats_equal_by_construction

THREE = ["greedy", "defensive", "timing"]
SC = {"name": "all3", "players": 3, "policies": THREE, "rotation": "all", "deals": 90, "seed": 4141,
      "chunk_size": 30, "rules": {"preset": "threes"},
      "arms": [{"name": "three"}, {"name": "two", "policies": ["greedy", "greedy", "defensive"]}]}


def _after(seating, pols):
    """Counter of (policy, the policy at the next seat in play order) over the rotations."""
    P = len(pols)
    return Counter((pols[row[s]], pols[row[(s + 1) % P]]) for row in seating for s in range(P))


@pytest.mark.parametrize("pols,count", [(["A", "B", "B"], 3), (["A", "A", "B"], 3), (["A", "B", "C"], 6),
                                        (["A", "B", "B", "B"], 4), (["A", "A", "B", "B"], 6),
                                        (["A", "B", "C", "C"], 12), (["A", "B", "C", "D"], 24),
                                        (["A", "A"], 1), (["A", "B"], 2)])
def test_every_distinct_arrangement_once(pols, count):
    seating = every_arrangement(len(pols), [pols])
    arrangements = [tuple(pols[p] for p in row) for row in seating]
    assert len(arrangements) == count == len(set(arrangements)) == len(set(itertools.permutations(pols)))
    assert all(sorted(row) == list(range(len(pols))) for row in seating)
    assert balanced(seating, pols)
    # no policy always sits right after another: each ordered pair of neighbours as often as over all
    # the permutations of the seats
    perms = list(itertools.permutations(range(len(pols))))
    every = _after(perms, pols)
    assert {k: v * len(perms) for k, v in _after(seating, pols).items()} == \
        {k: v * len(seating) for k, v in every.items()}
    # the cyclic rotations come first, numbered as rotation = true numbers them, when they are distinct
    cyc = cyclic(len(pols), len(pols))
    distinct = len({tuple(pols[p] for p in row) for row in cyc}) == len(pols)
    if distinct:
        assert seating[:len(pols)] == cyc


def test_three_distinct_policies_rotation_true_is_not_balanced_but_all_is():
    """With A, B, C cyclic rotation always seats C right after B: "all" seats it after A as often."""
    after = _after(cyclic(3, 3), ["A", "B", "C"])
    assert after[("B", "C")] == 3 and after[("A", "C")] == 0
    after = _after(every_arrangement(3, [["A", "B", "C"]]), ["A", "B", "C"])
    assert after[("B", "C")] == after[("A", "C")] == 3


def test_arms_share_one_seating_that_balances_each():
    """Players are told apart by their policies in every arm: the seating balances every arm."""
    pols = [("greedy", "defensive", "timing"), ("greedy", "greedy", "defensive")]
    seating = seating_of("all", 3, pols)
    assert len(seating) == 6 and all(balanced(seating, p) for p in pols)
    assert seating_of(True, 4, pols) == cyclic(4, 4) and seating_of(False, 3, pols) == [[0, 1, 2]]
    assert not balanced(seating_of(False, 3, pols), pols[0]) and balanced(seating_of(False, 3, pols), ["g"] * 3)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    base = tmp_path_factory.mktemp("rotall")
    one, two = base / "w1", base / "w2"
    run(from_dict(SC), one, tables=("deals", "moves"), workers=1)
    run(from_dict(SC), two, tables=("deals", "moves"), workers=2)
    return one, two


def test_rows_the_same_whatever_the_workers(folders):
    one, two = folders
    for table in ("deals", "moves"):
        a = pl.read_parquet(one / table / "*.parquet")
        b = pl.read_parquet(two / table / "*.parquet")
        assert a.height > 0 and a.equals(b), table
    m1, m2 = (json.loads((f / "manifest.json").read_text()) for f in folders)
    assert m1["settings_hash"] == m2["settings_hash"] and m1["rotations"] == 6
    assert m1["seating"] == seating_of("all", 3, [THREE, ["greedy", "greedy", "defensive"]])


def test_rows_are_the_engine_results_for_each_arrangement(folders):
    """Every rotation r plays seat s with the policy of player seating[r][s]: the rows are simulate()'s."""
    res = open_results(folders[0])
    seating = res.manifest.seating
    wide = pl.read_parquet(folders[0] / "deals" / "*.parquet").filter(pl.col("arm") == "three")
    for r in (0, 3, 5):
        lineup = [THREE[p] for p in seating[r]]
        b = simulate(preset("threes", 3), lineup, SC["seed"], 30, 10)
        rows = wide.filter((pl.col("rotation") == r) & pl.col("deal").is_between(30, 39)).sort("deal")
        got = np.stack([rows[f"points_{s}"].to_numpy() for s in range(3)], axis=1)
        assert (got == b.seats["points"]).all(), r
    long = res.deals.filter(pl.col("arm") == "three").collect()
    # the player and policy of each row follow the manifest's seating
    want = {(r, s): seating[r][s] for r in range(6) for s in range(3)}
    pairs = long.select("rotation", "seat", "player").unique().rows()
    assert {(r, s): p for r, s, p in pairs} == want
    stored = res.arm("three")["policies"]     # as written: timing with its parameters
    assert (long["policy"] == pl.Series([stored[p] for p in long["player"]])).all()
    # every policy in every seat equally often, in both arms; the seat tests know the seats are fair
    for arm in ("three", "two"):
        counts = res.deals.filter(pl.col("arm") == arm).group_by("policy", "seat").len().collect()
        per = counts.group_by("policy").agg(pl.col("len").n_unique())["len"].to_list()
        assert per == [1] * len(per), arm
    assert seats_equal_by_construction(res)
    moves = res.moves.filter(pl.col("arm") == "three").select("rotation", "seat", "player").unique().collect()
    assert all(want[(r, s)] == p for r, s, p in moves.rows())


def test_the_run_summary_averages_each_player_over_its_seats(folders):
    """summary.by_player with the seating gives each player's mean over rotations, as the long view does."""
    res = open_results(folders[0])
    wide = pl.read_parquet(folders[0] / "deals" / "*.parquet").sort("arm", "deal", "rotation")
    pts = np.stack([wide[f"points_{s}"].to_numpy() for s in range(3)], axis=1).reshape(2, 90, 6, 3)
    mean = by_player(pts, tuple(tuple(r) for r in res.manifest.seating))       # [arm, deal, player]
    long = res.deals.group_by("arm", "player").agg(pl.col("points").mean()).collect()
    for a, arm in enumerate(("three", "two")):
        for p in range(3):
            want = long.filter((pl.col("arm") == arm) & (pl.col("player") == p))["points"].item()
            assert mean[a, :, p].mean() == pytest.approx(want)
    # the cyclic path is unchanged: rotation true's seating as a table gives what np.roll gives
    assert np.allclose(by_player(pts[:, :, :3]), by_player(pts[:, :, :3], tuple(map(tuple, cyclic(3, 3)))))


def test_all_is_rotation_true_when_the_cyclic_rotations_are_every_arrangement(tmp_path):
    """With A, B, B (3 players) the 3 cyclic rotations are every arrangement: the same rows as true, but
    a folder of one is not resumed by the other (the settings differ)."""
    sc = {**SC, "policies": ["defensive", "greedy", "greedy"], "arms": [], "deals": 40, "chunk_size": 40}
    run(from_dict({**sc, "rotation": True}), tmp_path / "t", workers=1)
    run(from_dict(sc), tmp_path / "a", workers=1)
    t, a = (pq.read_table(tmp_path / x / "deals" / "part-00000.parquet") for x in ("t", "a"))
    assert t.num_rows == 40 * 3 and t.drop_columns([]).equals(a)
    with pytest.raises(RunError, match="rotations|seating"):
        run(from_dict({**sc, "rotation": True, "deals": 80}), tmp_path / "a", workers=1)


def test_plan_lineup_is_the_old_rotation_without_all():
    sc = from_dict({**SC, "rotation": True, "arms": []})
    plan = Plan.of(sc, tables=("deals",), settings_hash="x", sim_version=1)
    pols = sc.arms[0].policies
    assert plan.seating == () and plan.lineup(0, 1) == [pols[(s + 1) % 3] for s in range(3)]
    plan = Plan.of(from_dict(SC), tables=("deals",), settings_hash="x", sim_version=1)
    assert [plan.lineup(0, r) for r in range(6)] == [[pols[p] for p in row] for row in plan.seating]


@pytest.mark.parametrize("value", ["every", 3, "ALL", 1.0])
def test_bad_rotation_values_name_the_allowed_ones(value):
    with pytest.raises(ScenarioError) as e:
        from_dict({**SC, "rotation": value}, "bad.toml")
    assert str(e.value).startswith("bad.toml: field 'rotation'") and 'true, false or "all"' in str(e.value)
    assert "\n" not in str(e.value)


def test_all_with_partners_is_refused():
    with pytest.raises(ScenarioError, match="partners"):
        from_dict({**SC, "players": 4, "policies": "greedy", "arms": [],
                   "rules": {"preset": "threes", "teams": "partners", "target": 61}}, "bad.toml")


def test_cli_bad_rotation_one_line_exit_2(cli, tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('name = "x"\nplayers = 3\ndeals = 10\nseed = 1\nrotation = "every"\n')
    r = cli("run", p, "-o", tmp_path / "out")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert 'allowed: true, false or "all"' in r.stderr and not (tmp_path / "out").exists()


# ---- bench/expert_tables.py: one policy against another in balanced tables -----------------------------
ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def two_two(tmp_path_factory):
    """2 defensive and 2 greedy players, every arrangement (6), Threes and Fives."""
    out = tmp_path_factory.mktemp("twotwo") / "r"
    sc = {"name": "twotwo", "players": 4, "policies": ["defensive", "defensive", "greedy", "greedy"],
          "rotation": "all", "deals": 150, "seed": 4040499, "rules": {"preset": "threes"},
          "arms": [{"name": "threes"}, {"name": "fives", "rules": {"preset": "fives"}}]}
    run(from_dict(sc), out, workers=1)
    return out


def test_expert_tables_pairs_the_policies_deal_by_deal(two_two, tmp_path):
    import subprocess
    import sys
    js = tmp_path / "t.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "expert_tables.py"), str(two_two), "--strong",
                           "defensive", "--json", str(js)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("defensive scores significantly more points per deal")
    rows = json.loads(js.read_text())
    assert [r["arm"] for r in rows] == ["threes", "fives"] and all(r["rotations"] == 6 for r in rows)
    long = open_results(two_two).deals.collect()
    for r in rows:
        per = long.filter(pl.col("arm") == r["arm"]).group_by("deal", "policy").agg(pl.col("points").mean(),
                                                                                  pl.col("win").mean())
        d = per.pivot(on="policy", index="deal", values=["points", "win"])
        diff = (d["points_defensive"] - d["points_greedy"]).to_numpy()
        assert r["deals"] == 150 and r["points_difference"]["value"] == pytest.approx(diff.mean())
        lo, hi = r["points_difference"]["low"], r["points_difference"]["high"]
        assert lo < diff.mean() < hi and hi - lo == pytest.approx(2 * 1.976 * diff.std(ddof=1) / np.sqrt(150), 0.01)
        assert r["strong_win_minus_fair"]["value"] == pytest.approx(d["win_defensive"].mean() - 0.25)
        # each seat's win shares over the four seats sum to 1: two seats of each policy, so the means sum to 1/2
        assert d["win_defensive"].mean() + d["win_greedy"].mean() == pytest.approx(0.5)
        for k in ("points_difference", "strong_win_minus_fair"):
            assert r[k]["p"] <= r[k]["p_holm"] <= 1
    bad = subprocess.run([sys.executable, str(ROOT / "bench" / "expert_tables.py"), str(two_two)],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "allowed: two policies, one starting with 'expert'" in bad.stderr


@pytest.mark.slow
def test_hold_value_holm_adjusts_the_family(tmp_path):
    """bench/hold_value.py, 3 deals a row: six rows, and every Holm p-value at least the row's own."""
    import subprocess
    import sys
    js = tmp_path / "h.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "hold_value.py"), "--deals", "3", "--jobs", "1",
                           "--seed", "5", "--json", str(js)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = json.loads(js.read_text())
    assert [(r["player"], r["players"]) for r in rows] == [(p, n) for p in ("expert", "search") for n in (2, 3, 4)]
    p = np.array([r[k][3] for r in rows for k in ("points", "win")])
    adj = np.array([r[k] for r in rows for k in ("points_p_holm", "win_p_holm")])
    assert (adj >= p - 1e-12).all() and (adj <= 1).all()
    order = np.argsort(p)
    assert adj[order[0]] == pytest.approx(min(1.0, 12 * p[order[0]]))
    assert done.stdout.count("\n| `") == 6


def test_match_mode_follows_the_seating(tmp_path):
    """Matches (Fives to 61, 3 players, 3 policies): every arrangement, the match view's player from it."""
    sc = {"name": "m3", "players": 3, "policies": ["greedy", "defensive", "random"], "rotation": "all",
          "deals": 30, "seed": 4040498, "rules": {"preset": "fives", "target": 61}}
    run(from_dict(sc), tmp_path / "m", workers=1)
    res = open_results(tmp_path / "m")
    seating = res.manifest.seating
    assert res.rotations == 6 and seating == every_arrangement(3, [sc["policies"]])
    m = res.matches.collect()
    pairs = {(r, s): p for r, s, p in m.select("rotation", "seat", "player").unique().rows()}
    assert pairs == {(r, s): seating[r][s] for r in range(6) for s in range(3)}
    assert m.group_by("policy", "seat").len()["len"].n_unique() == 1
    deals = res.deals.filter(pl.col("rotation") == 4).select("seat", "policy").unique().sort("seat").collect()
    assert deals["policy"].to_list() == [res.arm("base")["policies"][p] for p in seating[4]]


def test_the_run_sentence_names_one_player_in_every_arm_with_the_same_policies():
    """Arms with the same policies (a game per arm) are answered about one player, the one that wins most in
    most arms, even in an arm where the other wins more: the sentence never switches sides."""
    from types import SimpleNamespace as NS

    from simdom.results.unit import Unit
    from simdom.run.answer import _winners
    ci = lambda v, h: NS(value=v, lo=v - h, hi=v + h)  # noqa: E731
    rows = [NS(arm=a, policy=p, win=ci(w, 0.05), points=ci(20.0, 2.0)) for a, p, w in
            [("threes", "A", 0.40), ("threes", "B", 0.30), ("fives", "A", 0.38), ("fives", "B", 0.31),
             ("muggins", "A", 0.30), ("muggins", "B", 0.35)]]
    plan = NS(policies=[["A", "B", "B"]] * 3, arm_names=["threes", "fives", "muggins"], unit=Unit("deal"))
    out = _winners(rows, plan)
    assert len(out) == 1 and out[0].startswith("Against B (fair share 33%), each A player wins"), out
    assert "in threes" in out[0] and "30% (25-35%) in muggins" in out[0], out

"""`simdom stats`, `doubles`, `compare` on synthetic results with known answers."""
import json

import numpy as np
import polars as pl
import pytest
import typer
from typer.testing import CliRunner

from simdom.cli.stats import register
from simdom.stats.tables.compare import compare_table
from simdom.stats.tables.doubles import by_move_table, detect_sweep, sweep_tables, taker_table
from simdom.stats.read.folder import open_frames
from simdom.testing import move_score_rate
from simdom.stats.tables.stats import moves_table, stats_table
from synthdata import mix_spec, sweep_spec, truth, write

runner = CliRunner()


def app() -> typer.Typer:
    a = typer.Typer()
    register(a)
    return a


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("res")
    specs = {"sweep": sweep_spec(seed=3, moves=True), "threes": mix_spec(seed=4),
             "fives": mix_spec(seed=5, preset="fives", shift=5.0)}
    return {k: (write(root / k, s), s) for k, s in specs.items()}


def _se(row, name):
    return (row[f"{name}_hi"] - row[f"{name}_lo"]) / (2 * 1.96)


def test_stats_estimates_match_the_known_truth(folders):
    path, spec = folders["sweep"]
    df = stats_table(open_frames(path), ["arm", "player"])
    t = truth(spec)
    assert df.height == 16
    for row in df.iter_rows(named=True):
        want = t[row["arm"]]
        for name, key in [("mean_points", "points"), ("win_rate", "win"), ("scoring_rate", "scoring_rate")]:
            assert abs(row[name] - want[key][row["player"]]) < 4 * _se(row, name), (row["arm"], name)
            assert row[f"{name}_lo"] < row[name] < row[f"{name}_hi"]
        assert row["deals"] == spec.deals and row["rows"] == spec.deals * 4


def test_stats_equal_an_independent_recomputation_from_the_rows(folders):
    path, spec = folders["threes"]
    rows = open_frames(path).deals.collect()  # the per-seat view of the lean table
    got = stats_table(open_frames(path), ["seat"]).sort("seat")
    want = rows.group_by("seat").agg(
        deals=pl.col("deal").n_unique(), mean_points=pl.col("points").mean(), points_sd=pl.col("points").std(ddof=0),
        win_rate=pl.col("win").mean(), scoring_rate=pl.col("scoring_plays").sum() / pl.col("plays").sum(),
        points_per_placement=pl.col("play_points").sum() / pl.col("plays").sum(), bonus_mean=pl.col("bonus").mean(),
        bonus_share_2=(pl.col("bonus") == 2).mean(), bonus_share_none=(pl.col("bonus") == 0).mean(),
    ).sort("seat")
    for c in want.columns:
        assert np.allclose(got[c].to_numpy(), want[c].to_numpy(), rtol=1e-12), c
    # per-deal facts: dedupe by (arm, deal, rotation)
    per_deal = rows.unique(["arm", "deal", "rotation"])
    arm = stats_table(open_frames(path), ["arm"]).row(0, named=True)
    assert arm["blocked_share"] == pytest.approx((per_deal["end"] == "blocked").mean(), rel=1e-12)
    assert arm["tiles_placed"] == pytest.approx(per_deal["tiles_placed"].mean(), rel=1e-12)
    assert arm["win_rate"] == pytest.approx(0.25) and arm["win_rate_lo"] == pytest.approx(0.25)


def test_scoring_rate_by_move_matches_the_generator(folders):
    path, _ = folders["sweep"]
    df = moves_table(open_frames(path), ["arm"]).filter(pl.col("placements") > 2000)
    truth_rate = move_score_rate(df["move"].to_numpy())
    se = (df["scoring_rate_hi"] - df["scoring_rate_lo"]).to_numpy() / 3.92
    assert np.all(np.abs(df["scoring_rate"].to_numpy() - truth_rate) < 4.5 * se)


def test_intervals_of_points_never_go_below_zero(folders):
    """Points, bonuses and tiles are never negative: their intervals are cut at 0, even where a bonus is
    rare (late moves), and still hold their estimate."""
    path, _ = folders["sweep"]
    res = open_frames(path)
    for df in (moves_table(res, ["arm"]), stats_table([res], ["arm"])):
        for c in [c for c in df.columns if c.endswith("_lo")]:
            ok = df[c].is_not_nan() & df[c[:-3]].is_not_nan()  # NaN: no interval (one cluster)
            lo, est = df[c].filter(ok), df[c[:-3]].filter(ok)
            assert (lo >= 0).all() and (lo <= est).all(), c


def test_doubles_sweep_paired_differences_and_best_k(folders):
    path, spec = folders["sweep"]
    res = open_frames(path)
    sweep = detect_sweep(res)
    assert sweep.focal == 0 and sweep.ks == ["1", "5", "9", "never"] and sweep.baseline == "K=1"
    per_k, best = sweep_tables(res, sweep)
    t = truth(spec)
    for row in per_k.iter_rows(named=True):
        if row["K"] == "1":  # the baseline against itself: no interval, no test
            assert row["points_diff"] == 0 and np.isnan(row["points_diff_p"]) and np.isnan(row["points_diff_lo"])
        want = t[row["arm"]]["points"][0] - t["K=1"]["points"][0]
        if row["K"] != "1":
            assert abs(row["points_diff"] - want) <= 4 * _se(row, "points_diff")
            assert row["points_diff_p_holm"] >= row["points_diff_p"]
            # common random numbers: the paired interval is much narrower than the unpaired one
            assert (row["points_diff_hi"] - row["points_diff_lo"]) < 0.6 * (
                row["points_diff_unpaired_hi"] - row["points_diff_unpaired_lo"])
        shares = row["bonus_share_none"] + row["bonus_share_2"] + row["bonus_share_4"] + row["bonus_share_8"]
        assert shares == pytest.approx(1.0)
    b = best.row(0, named=True)
    assert (b["best_K"], b["runner_up_K"]) == ("9", "5") and b["significant"] and b["points_diff_lo"] > 0
    rows = open_frames(path).deals.filter(pl.col("player") == 0).collect()
    lost = rows.group_by("arm").agg(pl.col("lost_first_double").mean()).sort("arm")
    assert np.allclose(per_k.sort("arm")["bonus_lost_share"].to_numpy(), lost["lost_first_double"].to_numpy())


def test_doubles_by_move_and_taker(folders):
    path, spec = folders["sweep"]
    res = open_frames(path)
    bm = by_move_table(res)
    # every arm gets every move from the first to the last seen in any arm (the arms side by side);
    # a move an arm never saw has share 0 and no taker, so no bonus earned
    moves = bm.group_by("arm").agg(pl.col("move").sort())["move"].to_list()
    assert all(m == list(range(min(m), max(m) + 1)) for m in moves) and len({tuple(m) for m in moves}) == 1
    unseen = bm.filter(pl.col("deal_plays") == 0)
    assert (unseen["share"] == 0).all() and unseen["bonus"].is_null().all()
    seen = bm.filter(pl.col("deal_plays") > 0)
    expect_bonus = np.where(seen["move"].to_numpy() <= 4, 2, np.where(seen["move"].to_numpy() <= 8, 4, 8))
    assert np.array_equal(seen["bonus"].to_numpy(), expect_bonus)
    total = bm.group_by("arm").agg(pl.col("share").sum())["share"].to_numpy()
    assert np.all(np.abs(total - spec.fd_prob) < 0.03)
    tk = taker_table(res)
    assert set(tk["bonus_tier"].unique()) == {"2", "4", "8"}
    assert tk["deal_plays"].sum() == bm["deal_plays"].sum()


def test_compare_known_differences(folders):
    (pa_, sa), (pb, sb) = folders["threes"], folders["fives"]
    df, notes = compare_table(open_frames(pa_), open_frames(pb))
    got = {r["metric"]: r for r in df.iter_rows(named=True) if r["stratum"] == "all players"}
    ta, tb = truth(sa)["mix"], truth(sb)["mix"]
    checks = {"scoring_rate": np.mean(ta["scoring_rate"]) - np.mean(tb["scoring_rate"]),
              "blocked_share": 0.1 - 0.2,
              "skill_gap": 0.0, "seat_advantage": 0.0}
    for metric, want in checks.items():
        r = got[metric]
        assert abs(r["diff"] - want) < 4 * _se(r, "diff"), metric
    # Threes and Fives score on two scales (issue 22 item 6): no raw points, their ratios within each game
    assert not set(df["metric"]) & {"mean_points", "points_per_placement", "points_sd"}
    pr = got["points_ratio"]
    for key, t in (("a", ta), ("b", tb)):
        want = t["points"][0] / t["points"][1]  # greedy's mean points over random's, by construction
        assert abs(pr[key] - want) < 4 * _se(pr, key), key
    assert got["scoring_rate"]["p_value"] is not None and pr["p_value"] is not None
    assert "Holm-adjusted" in notes[0] and any("raw points not compared" in n for n in notes)
    # players are also compared per policy, never only pooled
    per = df.filter(pl.col("metric") == "points_cv", pl.col("stratum") != "all players")
    assert sorted(per["stratum"]) == ["greedy", "random"]


def test_cli_stats_json_csv_md(folders, tmp_path):
    path, _ = folders["threes"]
    out = tmp_path / "s.json"
    r = runner.invoke(app(), ["stats", str(path), "--by", "arm,policy", "--format", "json", "-o", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert isinstance(data, list) and [d["policy"] for d in data] == ["greedy", "random"]
    for key in ["arm", "deals", "mean_points", "mean_points_lo", "mean_points_hi", "win_rate", "win_rate_lo",
                "win_rate_hi", "scoring_rate", "points_per_placement", "bonus_mean", "blocked_share", "tiles_placed"]:
        assert key in data[0]
    assert data[0]["win_rate"] > data[1]["win_rate"]
    csv = tmp_path / "s.csv"
    assert runner.invoke(app(), ["stats", str(path), "--by", "seat", "-o", str(csv)]).exit_code == 0
    assert pl.read_csv(csv).height == 4
    md = tmp_path / "s.md"
    assert runner.invoke(app(), ["stats", str(path), "--format", "md", "-o", str(md)]).exit_code == 0
    assert "| arm | policy | points |" in md.read_text()
    r = runner.invoke(app(), ["stats", str(path)])
    assert r.exit_code == 0 and "greedy wins" in r.output.splitlines()[0] and "win %" in r.output


def test_cli_doubles_and_compare(folders, tmp_path):
    path, _ = folders["sweep"]
    r = runner.invoke(app(), ["doubles", str(path)])
    assert r.exit_code == 0 and r.output.startswith("Best K for player 0 by the deals won: 9 (K=9)")
    out = tmp_path / "best.json"
    r = runner.invoke(app(), ["doubles", str(path), "--table", "best", "-o", str(out)])
    assert r.exit_code == 0 and json.loads(out.read_text())[0]["best_K"] == "9"
    out = tmp_path / "cmp.json"
    r = runner.invoke(app(), ["compare", str(folders["threes"][0]), str(folders["fives"][0]), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert {d["metric"] for d in json.loads(out.read_text())} >= {"scoring_rate", "skill_gap", "seat_advantage"}


def test_a_bonus_share_the_rules_fix_is_printed_fixed_and_a_share_with_no_event_is_bounded_on_the_deals(tmp_path):
    """Issue 22 item 6: Fives has no first-double tiers (first_double_bonus = []), so its tier shares are
    0 and its share without a bonus 100% by the rules: no interval. A Threes share is estimated."""
    from simdom.testing import SynthArm, SynthSpec
    pol = ("greedy", "random", "greedy", "random")
    arms = tuple(SynthArm(p, pol, (30, 25, 30, 25), (0.3, 0.2, 0.3, 0.2), preset=p) for p in ("threes", "fives"))
    path = write(tmp_path / "tf", SynthSpec(arms=arms, deals=400, chunk_size=200, seed=2, scenario_name="tf"))
    rows = {r["arm"]: r for r in stats_table(open_frames(path), ["arm"]).iter_rows(named=True)}
    fives, threes = rows["fives"], rows["threes"]
    for t in ("2", "4", "8"):
        assert fives[f"bonus_share_{t}"] == 0 and fives[f"bonus_share_{t}_fixed"]
        assert np.isnan(fives[f"bonus_share_{t}_lo"]) and np.isnan(fives[f"bonus_share_{t}_hi"])
        assert threes[f"bonus_share_{t}_lo"] < threes[f"bonus_share_{t}_hi"] and not threes[f"bonus_share_{t}_fixed"]
    assert fives["bonus_share_none"] == 1 and fives["bonus_share_none_fixed"]
    from simdom.present import Col, clean
    assert Col("bonus_share_2", kind="pct").cell(fives) == "0 fixed"
    assert Col("bonus_share_none", kind="pct").cell(fives) == "100 fixed"
    assert Col("bonus_share_2", kind="pct").cell(threes).count("(") == 1  # estimated: an interval
    js = clean(fives)
    assert js["bonus_share_2_lo"] is None and js["bonus_share_2_hi"] is None and js["bonus_share_2_fixed"] is True


def test_the_lead_a_rule_fixes_scores_as_the_rules_say_printed_without_an_interval(tmp_path):
    """Issue 22 item 6: Fives leads the 5-5 (lead = tile:5-5), which always scores 10; "placements score
    at move 1 in 100.00% (99.92-100.00%)" was an interval around a rule. Threes leads any tile."""
    from simdom.run.runner import run
    from simdom.run.scenario import from_dict
    sc = from_dict({"name": "lead", "players": 4, "deals": 200, "seed": 1, "policies": "greedy",
                    "arms": [{"name": "threes", "rules": {"preset": "threes"}},
                             {"name": "fives", "rules": {"preset": "fives"}}]}, "t.toml")
    run(sc, tmp_path / "r", tables=("deals", "moves"), workers=1)
    df = moves_table(open_frames(tmp_path / "r"), ["arm"]).filter(pl.col("move") == 1)
    rows = {r["arm"]: r for r in df.iter_rows(named=True)}
    f, t = rows["fives"], rows["threes"]
    assert f["scoring_rate"] == 1 and f["scoring_rate_fixed"] and f["points_per_placement"] == 10
    for c in ("scoring_rate", "points_per_placement"):
        assert np.isnan(f[f"{c}_lo"]) and np.isnan(f[f"{c}_hi"]) and f[f"{c}_fixed"]
    assert t["scoring_rate"] == 0 and t["scoring_rate_fixed"]  # Threes: 3 counted ends needed, the lead shows 2
    from simdom.stats.views.stats import moves_answer
    said = " ".join(moves_answer([open_frames(tmp_path / "r")], ["arm"]).sentences)
    assert "fives: move 1 scores in 100% (fixed by the rules); of the other moves, placements score" in said
    assert "threes: moves 1 and 2 score in 0% (fixed by the rules); of the other moves" in said
    t2 = moves_table(open_frames(tmp_path / "r"), ["arm"]).filter(pl.col("move") == 2, pl.col("arm") == "threes")
    assert t2["scoring_rate"][0] == 0 and t2["scoring_rate_fixed"][0] and not t2["bonus_per_placement_fixed"][0]
    assert f["bonus_per_placement_fixed"] and not t["bonus_per_placement_fixed"]
    assert "99.9" not in said
    later = moves_table(open_frames(tmp_path / "r"), ["arm"]).filter(pl.col("move") == 2, pl.col("arm") == "fives")
    assert later["scoring_rate_lo"][0] < later["scoring_rate_hi"][0]
    t3 = moves_table(open_frames(tmp_path / "r"), ["arm"]).filter(pl.col("move") == 3, pl.col("arm") == "threes")
    assert not t3["scoring_rate_fixed"][0] and t3["scoring_rate_lo"][0] < t3["scoring_rate_hi"][0]

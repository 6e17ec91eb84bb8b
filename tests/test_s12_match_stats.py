"""Match statistics (docs/rules.md 12, issue 11.4): intervals clustered by match cover the known truth of a
synthetic match model with the real structure; the match-equity table of a real run is monotone and
its two sides' cells are complementary; `simdom stats`, `compare` and `report` answer on match results;
bad input gets one line and exit code 2."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from simdom.cli import app
from simdom.run.runner import run
from simdom.run.scenario import from_dict
from simdom.stats.matches import tables as M
from simdom.stats.matches.equity import compare_matches, equity_grid, equity_table
from simdom.stats.read.folder import open_frames
from synthmatch import Model, truth, write

DRAWS = 100

FIVES = {"name": "fives-100", "players": 2, "rotation": True, "deals": 3000, "seed": 5, "chunk_size": 1000,
         "policies": "greedy", "rules": {"preset": "fives", "target": 100},
         "arms": [{"name": "greedy"}, {"name": "defensive", "policies": ["defensive", "greedy"]}]}


@pytest.fixture(scope="module")
def fives(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fives100")
    run(from_dict(FIVES, "f.toml"), out, workers=1)
    return out


@pytest.mark.slow
def test_s12_match_intervals_cover_the_truth_of_a_synthetic_match_model(tmp_path):
    """100 synthetic folders of 400 matches (two arms on common shuffles, rotation, the last deal's winner
    leads): match win, first-lead value, edge per deal and per match, arms paired by match and equity
    cells cover their exact values (a dynamic program) about 95% of the time."""
    hits: dict[str, list[bool]] = {k: [] for k in ("match_win", "lead", "deal_edge", "match_edge", "gap",
                                                   "d_deal_win", "d_points", "d_match_win", "equity", "deals")}
    cover = lambda row, name, want: row[f"{name}_lo"] <= want <= row[f"{name}_hi"]  # noqa: E731
    for d in range(DRAWS):
        m = Model(seed=100 + d)
        t = truth(m)
        res = open_frames(write(tmp_path / f"d{d}", m))
        for row in M.wins_table(res, ["arm", "player"]).iter_rows(named=True):
            hits["match_win"].append(cover(row, "win_rate", t[row["arm"]]["match_win"][row["player"]]))
            hits["deals"].append(cover(row, "deals_per_match", t[row["arm"]]["deals"]))
        for row in M.lead_table(res).iter_rows(named=True):
            hits["lead"].append(cover(row, "match_lead_value", t[row["arm"]]["lead_value"]))
        for row in M.edges_table(res).iter_rows(named=True):
            k = 0 if row["policy"] == "defensive" else 1
            deal, match = t["edge"]["deal_win"][k] - 0.5, t["edge"]["match_win"][k] - 0.5
            hits["deal_edge"].append(cover(row, "deal_edge", deal))
            hits["match_edge"].append(cover(row, "match_edge", match))
            hits["gap"].append(cover(row, "match_minus_deal", match - deal))
        row = M.arms_table(res).row(0, named=True)
        for name, key in (("d_deal_win", "deal_win"), ("d_points", "points"), ("d_match_win", "match_win")):
            hits[name].append(cover(row, name, t["edge"][key][0] - t["base"][key][0]))
        eq = equity_table(res, bins=m.target)
        for row in eq.filter(pl.col("matches") >= 40).iter_rows(named=True):
            want = t[row["arm"]]["equity"][(row["policy"], row["own_from"], row["opp_from"])]
            hits["equity"].append(cover(row, "p_win", want))
    for name, h in hits.items():
        rate = float(np.mean(h))
        # estimates of one draw are correlated, so the tolerance is wider than a binomial sd over len(h)
        assert abs(rate - 0.95) < max(0.035, 4 * np.sqrt(0.95 * 0.05 / DRAWS)), (name, rate, len(h))


def test_s12_synthetic_model_estimates_land_on_the_truth(tmp_path):
    """A fast check of the same bookkeeping on one large synthetic folder (4000 matches)."""
    m = Model(matches=4000, seed=3)
    t = truth(m)
    res = open_frames(write(tmp_path / "big", m))
    row = M.arms_table(res).row(0, named=True)
    assert row["d_match_win_lo"] <= t["edge"]["match_win"][0] - 0.5 <= row["d_match_win_hi"]
    edge = M.edges_table(res).filter(pl.col("policy") == "defensive").row(0, named=True)
    assert edge["deal_edge_lo"] <= t["edge"]["deal_win"][0] - 0.5 <= edge["deal_edge_hi"]
    assert edge["match_edge"] > edge["deal_edge"] + 0.05       # a match amplifies an edge per deal


def test_s12_match_equity_is_monotone_and_its_sides_complementary(fives):
    """P(win) rises with one's own score and falls with the opponent's (within the intervals); in an arm
    where both sides play greedy, the cells (x, y) and (y, x) hold both sides of the same deals, so they
    add up to exactly 1 (no match is unfinished)."""
    res = open_frames(fives)
    table = equity_table(res, bins=5)
    own, opp, g, half = equity_grid(table, "greedy", "greedy")
    assert len(own) == len(opp) == 5 and np.isfinite(g).all()
    assert np.allclose(g + g.T, 1.0)
    for A, H in ((g, half), (g.T[::-1], half.T[::-1])):   # own score up; opponent's score down
        steps = np.diff(A, axis=0)
        assert (steps >= -(H[1:] + H[:-1])).all()
        assert (steps.sum(axis=0) > 0.3).all()
    assert g[-1, 0] > 0.9 and g[0, -1] < 0.1
    d = equity_grid(table, "defensive", "defensive")[2]
    gr = equity_grid(table, "defensive", "greedy")[2]
    assert np.nanmean(d - gr) > 0                              # the stronger policy converts positions better


def test_s12_stats_on_a_match_folder(fives):
    res = open_frames(fives)
    wins = M.wins_table(res, ["arm", "policy"]).filter(pl.col("arm") == "defensive")
    d = wins.filter(pl.col("policy") == "defensive").row(0, named=True)
    assert d["win_rate_lo"] > 0.5 and d["fair_share"] == 0.5 and d["matches"] == 3000
    length = M.length_table(res)
    assert (length["deals_per_match_lo"] > 2).all() and (length["unfinished"] == 0).all()
    lead = M.lead_table(res).filter(pl.col("arm") == "greedy").row(0, named=True)
    assert lead["first_deal_lead_value_lo"] > 0 and lead["match_lead_value"] < lead["first_deal_lead_value"]
    assert M.answer(res)[0].startswith("greedy: a match to 100 (deal_end, next lead rules) lasts")
    same = compare_matches(res, res)
    assert (same["diff"].fill_null(0).abs() < 1e-12).all()


def test_s12_cli_stats_compare_report_on_match_results(fives, tmp_path):
    runner = CliRunner()
    r = runner.invoke(app, ["stats", str(fives)])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "a match to 100" in text and "Match win probability" in text and "Leading the first deal" in text
    r = runner.invoke(app, ["stats", str(fives), "--table", "equity", "--format", "json"])
    assert r.exit_code == 0 and {"own_from", "opp_from", "p_win", "p_win_lo"} <= set(json.loads(r.output)[0])
    r = runner.invoke(app, ["stats", str(fives), "--table", "deals", "--format", "csv"])
    assert r.exit_code == 0 and "mean_points" in r.output.splitlines()[0]
    r = runner.invoke(app, ["compare", f"{fives}:greedy", f"{fives}:defensive", "--format", "json"])
    assert r.exit_code == 0 and json.loads(r.output)["per_match"][0]["metric"] == "deals_per_match"
    out = tmp_path / "rep.html"
    r = runner.invoke(app, ["report", str(fives), "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    assert "Match equity" in html and "The first lead over a match" in html and html.count("data:image/png") >= 8


@pytest.mark.parametrize("args,says", [
    (["--table", "nope"], "allowed: wins, length, lead, edges, arms, equity, deals"),
    (["--by", "hand"], "allowed: arm, policy, side"),
    (["--table", "equity", "--bins", "1"], "allowed: an integer from 2 to 50"),
])
def test_s12_bad_match_stats_input_is_one_line_and_exit_2(fives, args, says):
    r = CliRunner().invoke(app, ["stats", str(fives), *args])
    assert r.exit_code == 2 and says in " ".join(r.output.split()), r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) <= 3


def test_s12_match_and_single_deal_folders_are_not_mixed(fives, tmp_path):
    single = tmp_path / "single"
    run(from_dict({**FIVES, "name": "single", "deals": 50, "rules": {"preset": "fives"}}, "s.toml"), single, workers=1)
    for args in (["stats", str(fives), str(single)], ["compare", str(fives), str(single)]):
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 2 and "single deals" in r.output, r.output
    r = CliRunner().invoke(app, ["stats", str(single), "--table", "wins"])
    assert r.exit_code == 2 and "match results" in " ".join(r.output.split())


def test_s12_match_tables_list_the_arms_in_the_scenarios_order(fives):
    """The scenario lists greedy before defensive (not the alphabetical order): every match table keeps it."""
    res = open_frames(fives)
    want = ["greedy", "defensive"]
    for df in (M.wins_table(res, ["arm", "policy", "player"]), M.length_table(res), M.lead_table(res)):
        assert list(dict.fromkeys(df["arm"].to_list())) == want

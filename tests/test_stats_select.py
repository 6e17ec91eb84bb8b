"""`simdom compare FOLDER:ARM FOLDER:ARM`: one arm of a results folder as a side of a comparison."""
from __future__ import annotations

import json

import polars as pl
import pytest
import typer
from typer.testing import CliRunner

from simdom.cli.stats import register
from simdom.stats.read.folder import ResultsError, open_frames, open_selection

from synthdata import sweep_spec, write


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    return write(tmp_path_factory.mktemp("sel") / "sweep", sweep_spec(deals=400))


def test_an_arm_of_a_folder_holds_only_that_arm(sweep):
    whole = open_frames(sweep)
    one = open_selection(f"{sweep}:K=5")
    assert [a["name"] for a in one.arms] == ["K=5"]
    assert one.name == f"{whole.name}:K=5"
    arms = one.deals.select(pl.col("arm").unique()).collect()["arm"].to_list()
    assert arms == ["K=5"]
    n_one = one.deals.select(pl.len()).collect().item()
    n_all = whole.deals.select(pl.len()).collect().item()
    assert n_one * len(whole.arms) == n_all


def test_a_plain_folder_is_the_whole_folder(sweep):
    assert len(open_selection(str(sweep)).arms) == len(open_frames(sweep).arms)


def test_an_unknown_arm_names_the_arms(sweep):
    with pytest.raises(ResultsError, match="no arm 'K=7'.*K=1, K=5, K=9, K=never"):
        open_selection(f"{sweep}:K=7")


def test_compare_two_arms_of_one_run_is_paired(sweep):
    app = typer.Typer()
    register(app)
    out = CliRunner().invoke(app, ["compare", f"{sweep}:K=5", f"{sweep}:K=1", "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = {r["metric"]: r for r in json.loads(out.output) if r["stratum"] == "all players"}
    # the focal player gains 1 point in K=5 (synthdata.SWEEP), spread over the 4 players' mean
    mp = rows["mean_points"]
    assert mp["diff_lo"] < 0.25 < mp["diff_hi"]
    # paired on the same deals: the difference is known far better than either side alone
    assert mp["diff_hi"] - mp["diff_lo"] < 0.5 * (mp["a_hi"] - mp["a_lo"])
    bad = CliRunner().invoke(app, ["compare", f"{sweep}:nope", f"{sweep}:K=1"])
    assert bad.exit_code == 2 and "no arm 'nope'" in bad.output

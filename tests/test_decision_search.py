"""`simdom doubles --decisions` searches the groupings itself (simdom.stats.decisions.tables.search_table):
a fixed list of groupings, every cell a test, Holm across every cell tried in the arm."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simdom.run.runner import run
from simdom.run.scenario import from_dict
from simdom.stats.decisions.tables import SITUATIONS, candidate_groupings, grid_table, search_table
from simdom.stats.inference import holm
from simdom.stats.read.folder import open_frames

SIMDOM = str(Path(sys.executable).with_name("simdom"))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("dsearch") / "d3"
    sc = {"name": "d3", "players": 3, "deals": 4000, "seed": 4040501, "rules": {"preset": "threes"},
          "arms": [{"name": "greedy", "policies": "greedy"}, {"name": "hold9", "policies": "hold:until=9"}]}
    run(from_dict(sc), out, tables=("deals", "decisions"), workers=1, decision_rollouts=8)
    return out


def test_the_candidate_groupings_are_a_fixed_list():
    g = candidate_groupings()
    assert len(g) == len(set(g)) == 6 + 15 + 10
    assert all(set(k) <= set(SITUATIONS) and len(set(k)) == len(k) for k in g)
    assert ("lead", "double_support", "doubles_held") in g


def test_every_cell_is_the_grid_of_its_grouping_and_holm_is_over_every_cell_tried(folder):
    res = open_frames(folder)
    s = search_table(res, 100)
    assert set(s["arm"]) == {"greedy", "hold9"} and (s["decisions"] >= 100).all()
    for arm in ("greedy", "hold9"):
        a = s.filter(pl.col("arm") == arm)
        assert a["cells_tried"].to_list() == [a.height] * a.height
        assert np.allclose(a["p_holm"].to_numpy(), holm(a["hold_value_p"].to_numpy()))
        assert (a["p_holm"] >= a["hold_value_p"]).all() and a["hold_value_p"].is_sorted()
    # a cell's value is its grouping's grid cell (the same estimate, the same decisions)
    row = s.filter(pl.col("arm") == "greedy", pl.col("grouping") == "lead,double_support,doubles_held").row(0, named=True)
    levels = dict(kv.split("=") for kv in row["cell"].split(", "))
    grid = grid_table(res, ["lead", "double_support", "doubles_held"]).filter(
        pl.col("arm") == "greedy", *[pl.col(k) == v for k, v in levels.items()]).row(0, named=True)
    assert grid["decisions"] == row["decisions"] and grid["hold_value"] == pytest.approx(row["hold_value"])


def test_the_answer_names_the_search_without_by_and_keeps_to_by_with_it(folder):
    plain = subprocess.run([SIMDOM, "doubles", f"{folder}:greedy", "--decisions"], capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr
    text = " ".join(plain.stdout.split())
    assert "searching 31 groupings" in text.lower() and "Holm-adjusted across all" in text
    assert all(len(line) <= 80 for line in plain.stdout.splitlines())
    s = search_table(open_frames(folder), 100).filter(pl.col("arm") == "greedy")
    pays = s.filter(pl.col("p_holm") < 0.05, pl.col("hold_value") > 0)
    if pays.height:   # cells of the same decisions (1 double held = 6 unseen with 3 players) named once
        distinct = pays.unique(["decisions", "hold_value"]).height
        said = f"holding pays in {pays.height}" + (f", {distinct} of them distinct:" if distinct < pays.height else ":")
        assert said in text, text
    else:
        assert "holding pays in none" in text
    by = subprocess.run([SIMDOM, "doubles", f"{folder}:greedy", "--decisions", "--by", "lead,double_support"],
                        capture_output=True, text=True)
    assert by.returncode == 0 and "groupings" not in by.stdout
    js = subprocess.run([SIMDOM, "doubles", str(folder), "--decisions", "--table", "decision-search", "--format",
                         "json"], capture_output=True, text=True)
    assert js.returncode == 0, js.stderr
    rows = json.loads(js.stdout)
    assert {r["arm"] for r in rows} == {"greedy", "hold9"} and len(rows) == search_table(open_frames(folder)).height
    assert {"grouping", "cell", "hold_value", "hold_value_lo", "hold_value_hi", "p_holm", "cells_tried"} <= set(rows[0])

"""`simdom compare` across games (issue 22 item 6): a Threes arm against a Fives arm scores on two
points scales, so raw points are neither shown nor tested; the scale-free measures are, and the points
enter only as ratios within each game. Two arms of one game compare their points as before. Real,
tiny runs of the kernel."""
from __future__ import annotations

import json

import polars as pl
import pytest
from typer.testing import CliRunner

from simdom.cli import app
from simdom.stats.read.folder import open_frames

SCENARIO = """
name = "games"
players = 4
policies = ["greedy", "random", "greedy", "random"]
rotation = true
deals = 300
seed = 5

[[arms]]
name = "threes"
rules = { preset = "threes" }

[[arms]]
name = "threes-66"
rules = { preset = "threes", lead = "tile:6-6" }

[[arms]]
name = "fives"
rules = { preset = "fives" }
"""
RAW_POINTS = ("mean_points", "points_per_placement", "points_sd")
RAW_LABELS = ("points", "pts/tile", "points sd")


def simdom(*args) -> str:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r.output


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("games")
    (root / "games.toml").write_text(SCENARIO)
    simdom("run", root / "games.toml", "-o", root / "games")
    return root / "games"


def compare(folder, a: str, b: str, tmp_path) -> tuple[str, list[dict]]:
    out = tmp_path / f"{a}-{b}.json"
    simdom("compare", f"{folder}:{a}", f"{folder}:{b}", "--format", "json", "-o", out)
    return simdom("compare", f"{folder}:{a}", f"{folder}:{b}"), json.loads(out.read_text())


def labels(text: str) -> list[str]:
    """The measure of each table row: the words before the first number."""
    import re
    return [m.group(1).strip() for m in re.finditer(r"^ *([a-z][a-z /%,]*?) +[-+]?\d", text, re.M)]


def test_threes_against_fives_tests_no_raw_points(folder, tmp_path):
    text, rows = compare(folder, "threes", "fives", tmp_path)
    metrics = {r["metric"] for r in rows}
    assert not metrics & set(RAW_POINTS), metrics
    assert not set(labels(text)) & set(RAW_LABELS), labels(text)
    assert not any(r["metric"] in RAW_POINTS for r in rows)
    flat = " ".join(text.split())
    # one line saying why, naming the first scoring rule that differs and both values
    assert "threes vs fives: raw points not compared, the games score on different scales (points 'fixed:6' " \
           "against 'sum')" in flat
    # the scale-free measures are tested
    tested = {r["metric"] for r in rows if r["p_value"] is not None}
    assert {"skill_gap", "seat_advantage", "blocked_share", "tiles_placed", "points_ratio", "points_cv"} <= tested
    assert "points ratio: A " in flat
    # the points ratio is greedy's mean points over random's, within each game
    deals = open_frames(folder).deals.collect()
    ratio = {r["metric"]: r for r in rows}["points_ratio"]
    for arm, key in (("threes", "a"), ("fives", "b")):
        m = deals.filter(pl.col("arm") == arm).group_by("policy").agg(pl.col("points").mean())
        m = dict(zip(m["policy"], m["points"]))
        assert ratio[key] == pytest.approx(m["greedy"] / m["random"], rel=1e-9)
        assert ratio[f"{key}_lo"] < ratio[key] < ratio[f"{key}_hi"]


def test_two_arms_of_one_game_compare_their_points(folder, tmp_path):
    text, rows = compare(folder, "threes", "threes-66", tmp_path)
    by = {r["metric"]: r for r in rows if r["stratum"] == "all players"}
    assert set(RAW_POINTS) <= set(by) and all(by[m]["p_value"] is not None for m in RAW_POINTS)
    assert not {"points_ratio", "points_cv"} & {r["metric"] for r in rows}
    assert {"points", "pts/tile", "points sd"} <= set(labels(text))
    assert "not compared" not in text

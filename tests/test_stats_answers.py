"""What a new user reads: every command opens with its answer, tables fit 80 columns, arms in the
scenario's order, p-values never 0, machines get full precision; seats' JSON shape; no pooling."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
import typer
from typer.testing import CliRunner

from simdom.cli.stats import register
from simdom.stats.tables.compare import compare_table
from simdom.stats.read.folder import open_frames
from simdom.testing import SynthArm, SynthSpec, write_results
from synthdata import mix_spec, write

SIMDOM = Path(sys.executable).parent / "simdom"


def cli(*args):
    app = typer.Typer()
    register(app)
    return CliRunner().invoke(app, [str(a) for a in args], terminal_width=80)


@pytest.fixture(scope="module")
def default_run(tmp_path_factory) -> Path:
    """The default study (scenarios/default.toml), small, played by the real kernel."""
    out = tmp_path_factory.mktemp("default") / "default"
    r = subprocess.run([str(SIMDOM), "run", "scenarios/default.toml", "--deals", "3000", "--out", str(out),
                        "--workers", "1", "--quiet"], capture_output=True, text=True,
                       cwd=Path(__file__).resolve().parents[1])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # the run's summary answers first (after the scenario's description), within 80 columns
    assert any(line.startswith("Holding the first double until K=5 costs player 0") for line in lines[:8]), lines[:8]
    assert max(map(len, lines)) <= 80 and "…" not in r.stdout
    return out


def test_default_study_answer_comes_first_with_its_interval(default_run):
    r = cli("stats", default_run)
    assert r.exit_code == 0, r.output
    first = " ".join(r.output.split("\n\n")[0].split())
    assert first.startswith("Holding the first double until K=5 costs player 0 ")
    assert "points per deal (95% CI " in first and "against 3 greedy players" in first
    assert "Holding the first double until K=9 costs player 0" in first and "Holm-adjusted p" in first


@pytest.mark.parametrize("command", [["stats"], ["seats"], ["doubles"], ["stats", "--by", "arm,turn"],
                                     ["compare", "{run}:K=9", "{run}:K=1"]])
def test_every_command_fits_80_columns_without_cut_cells(default_run, command):
    r = cli(command[0], *[a.format(run=default_run) for a in command[1:]] if len(command) > 1 and "{" in command[1]
            else [default_run, *command[1:]])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(map(len, lines)) <= 80 and "…" not in r.output
    assert lines[0] and not lines[0].startswith(("arm", "─")), "the answer comes before any table"
    assert not re.search(r"\de-(1[7-9]|[2-9]\d|\d{3})", r.output)  # no noise like -1.2e-18


def test_compare_names_its_two_sides_first(default_run):
    r = cli("compare", f"{default_run}:K=9", f"{default_run}:K=1")
    assert r.exit_code == 0, r.output
    name = default_run.name
    assert r.output.splitlines()[0] == f"A = {name}:K=9 against B = {name}:K=1:"


def test_arms_in_the_scenarios_order_not_sorted_as_text(tmp_path):
    names = ["K=1", "K=5", "K=9", "K=13", "K=never"]
    arms = tuple(SynthArm(k, (f"hold:until={k[2:]}", "greedy", "greedy", "greedy"), (30, 30, 30, 30),
                          (0.25,) * 4) for k in names)
    folder = write_results(tmp_path / "sweep13", SynthSpec(arms=arms, deals=200, chunk_size=200))
    r = cli("stats", folder, "--format", "json")
    got = list(dict.fromkeys(row["arm"] for row in json.loads(r.output)))
    assert got == names
    text = cli("stats", folder).output
    assert text.index("K=9 ") < text.index("K=13 ") < text.index("K=never")


def test_stats_default_groups_by_arm_and_policy_where_players_differ(tmp_path):
    folder = write(tmp_path / "mix", mix_spec(deals=300))
    rows = json.loads(cli("stats", folder, "--format", "json").output)
    assert [(r["arm"], r["policy"]) for r in rows] == [("mix", "greedy"), ("mix", "random")]
    assert rows[0]["win_rate"] > 0.25 > rows[1]["win_rate"]  # not the pooled 1/4


def test_seats_json_has_the_issues_shape_and_p_values_are_numbers_or_null(default_run, tmp_path):
    out = tmp_path / "seats.json"
    r = cli("seats", default_run, "--format", "json", "-o", out)
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert set(data) == {"positions", "tests"}
    assert set(data["positions"][0]) == {"arm", "by", "position", "deals", "win_rate", "win_rate_lo", "win_rate_hi",
                                         "mean_points", "mean_points_lo", "mean_points_hi"}
    assert set(data["tests"][0]) == {"arm", "by", "statistic", "df", "p_value"}
    assert {t["by"] for t in data["tests"]} == {"seat", "turn"} and all(t["df"] == 3 for t in data["tests"])
    turn = [t for t in data["tests"] if t["by"] == "turn"]
    assert all(isinstance(t["p_value"], float) and t["p_value"] < 1e-6 for t in turn)  # full value, not "<1e-16"
    text = cli("seats", default_run).output
    assert "<1e-16" in text and " 0.0 " not in text


def test_undefined_comparisons_are_na_and_null(default_run, tmp_path):
    r = cli("doubles", default_run, "--table", "sweep", "--format", "json")
    base = json.loads(r.output)[0]
    assert base["K"] == "1" and base["points_diff_p"] is None and base["points_diff_p_holm"] is None
    text = cli("doubles", default_run).output
    assert "n/a" in text


def test_parquet_and_csv_keep_full_precision(default_run, tmp_path):
    pq, csv = tmp_path / "s.parquet", tmp_path / "s.csv"
    assert cli("stats", default_run, "-o", pq).exit_code == 0
    assert cli("stats", default_run, "-o", csv).exit_code == 0
    a, b = pl.read_parquet(pq), pl.read_csv(csv)
    assert a["mean_points"].to_list() == b["mean_points"].to_list()
    assert len(str(a["mean_points"][0])) > 8  # not rounded for people
    assert cli("stats", default_run, "--format", "parquet").exit_code == 2  # a file format needs -o


def test_conditional_tables_say_association_not_effect(default_run):
    for args in (["stats", default_run, "--by", "arm,went_out"], ["doubles", default_run, "--table", "taker"]):
        text = " ".join(cli(*args).output.split())
        assert "associations, not effects of a choice" in text and "simdom doubles" in text


def test_pooled_and_per_policy_differences_of_opposite_sign_are_flagged(tmp_path):
    def side(seed, rates, preset):
        arm = SynthArm("mix", ("greedy", "random", "greedy", "random"), (30, 25, 30, 25), (0.3, 0.2, 0.3, 0.2),
                       rates, preset=preset)
        return open_frames(write_results(tmp_path / preset, SynthSpec(arms=(arm,), deals=3000, seed=seed)))

    # greedy scores less often in A, random far more: pooled, A scores more often
    a = side(1, (0.30, 0.20, 0.30, 0.20), "threes")
    b = side(2, (0.35, 0.10, 0.35, 0.10), "fives")
    table, notes = compare_table(a, b)
    rows = {(r["stratum"], r["metric"]): r for r in table.iter_rows(named=True)}
    assert rows[("all players", "scoring_rate")]["diff"] > 0 > rows[("greedy", "scoring_rate")]["diff"]
    assert any("Simpson" in n and "scoring_rate" in n and "greedy" in n for n in notes)
    assert ("all players", "win_rate") not in rows  # all players together win 1/players: never compared

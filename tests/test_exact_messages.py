"""Exact messages (issue 22.5): a refused resume names the first setting that differs and both values; a
wrong-seat record names the seat recorded and the seat due; every policy argument is validated; upper
bounds on --workers and --decision-rollouts say why; a scenario that is a FIFO, a device or a symlink
loop is named as what it is; a part with a column added or dropped names the column."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from badinput import build, check, edit_json_line
from simdom.cli import app


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("exact") / "ws")


@pytest.fixture
def ws(pristine, tmp_path) -> Path:
    shutil.copytree(pristine, tmp_path / "ws")
    return tmp_path / "ws"


def scenario(ws: Path, old: str, new: str) -> None:
    text = (ws / "scen.toml").read_text()
    assert old in text
    (ws / "bad.toml").write_text(text.replace(old, new))


RUN = ["run", "bad.toml", "--out", "res", "-q", "--workers", "1"]


@pytest.mark.parametrize("old, new, words", [
    ('"greedy", "random", "greedy", "random"', '"greedy", "greedy", "greedy", "random"',
     ["arms[0].policies[1] is 'random' there but 'greedy' in this run"]),
    ('preset = "threes"', 'preset = "threes"\nmin_ends = 2', ["arms[0].rules.min_ends is 3 there but 2 in this run"]),
    ("chunk_size = 100", "chunk_size = 150", ["chunk_size is 100 there but 150 in this run"]),
    ("seed = 7", "seed = 8", ["seed is 7 there but 8 in this run"]),
])
def test_a_refused_resume_names_the_first_setting_that_differs(ws, old, new, words):
    scenario(ws, old, new)
    check(ws, RUN, ["holds other results", *words, "--overwrite"])


def test_fewer_deals_than_the_folder_holds_are_refused_with_both_counts(ws):
    scenario(ws, "deals = 300", "deals = 200")
    check(ws, RUN, ["res holds 300 deals", "more than the 200 asked for", "--deals 300 or more", "--overwrite"])


def test_a_wrong_seat_record_names_the_seat_recorded_and_the_seat_due(ws):
    rec = json.loads((ws / "good.jsonl").read_text().splitlines()[0])
    i = next(i for i, a in enumerate(rec["actions"]) if i > 0 and a["act"] == "play")
    due = rec["actions"][i]["seat"]
    wrong = (due + 1) % 4
    edit_json_line(ws / "good.jsonl", lambda r: r["actions"][i].__setitem__("seat", wrong))
    line = check(ws, ["replay", "good.jsonl"], [f"action {i}", f"seat {wrong}", f"seat {due}"])
    assert f"recorded seat {wrong}" in line and f"seat {due} is due" in line, line


@pytest.mark.parametrize("args, words", [
    (["compare", "res", "mres", "--strong", "bogus"], ["--strong", "unknown policy", "bogus"]),
    (["compare", "res", "mres", "--strong", "hold:until=0"], ["--strong", "until"]),
    (["compare", "res", "res2", "--strong", "heavy"], ["--strong heavy", "no arm where heavy plays beside random",
                                                       "greedy"]),
    (["compare", "res:base", "res2", "--strong", "rollout"], ["--strong rollout", "allowed: greedy"]),
    (["compare", "mres", "mres2", "--strong", "heavy"], ["--strong heavy", "allowed: greedy"]),
])
def test_every_policy_argument_is_validated(ws, args, words):
    shutil.copytree(ws / "res", ws / "res2")
    shutil.copytree(ws / "mres", ws / "mres2")
    check(ws, args, words)


def test_a_strong_policy_that_plays_beside_random_is_accepted(ws):
    shutil.copytree(ws / "res", ws / "res2")
    r = CliRunner().invoke(app, ["compare", str(ws / "res"), str(ws / "res2"), "--strong", "greedy"])
    assert r.exit_code == 0, r.output


def test_workers_have_an_upper_bound_with_its_reason(ws):
    most = 4 * (os.cpu_count() or 1)
    check(ws, ["run", "scen.toml", "--out", "new", "-q", "--workers", str(most + 1)],
          ["--workers", f"from 1 to {most}", "per core", "start-up time"])
    check(ws, ["run", "scen.toml", "--out", "new", "-q", "--workers", "1000000000000"], ["--workers"])


def test_decision_rollouts_have_an_upper_bound(ws):
    check(ws, ["run", "scen.toml", "--out", "new", "-q", "--decision-rollouts", "100000"],
          ["--decision-rollouts 100000", "0 to 10,000"])


def invoke(cwd: Path, *args: str):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        r = CliRunner().invoke(app, list(args))
    finally:
        os.chdir(old)
    text = r.output + (r.stderr if r.stderr and r.stderr not in r.output else "")
    errors = [x for x in text.splitlines() if x.startswith("Error:")]
    assert r.exit_code == 2 and len(errors) == 1 and "Traceback" not in text, text
    return errors[0]


def test_run_names_a_fifo_a_device_a_loop_and_a_dangling_link(tmp_path):
    os.mkfifo(tmp_path / "s.fifo")
    (tmp_path / "loop.toml").symlink_to(tmp_path / "loop.toml")
    (tmp_path / "gone.toml").symlink_to(tmp_path / "nowhere.toml")
    assert "s.fifo is a FIFO, not a regular file; allowed: a scenario file" in invoke(tmp_path, "run", "s.fifo")
    assert "/dev/null is a device, not a regular file" in invoke(tmp_path, "run", "/dev/null")
    assert "loop.toml is a symlink loop" in invoke(tmp_path, "run", "loop.toml")
    assert "nowhere.toml, which does not exist" in invoke(tmp_path, "run", "gone.toml")
    assert "nope.toml: no such scenario file" in invoke(tmp_path, "run", "nope.toml")
    assert "loop.toml is a symlink loop" in invoke(tmp_path, "replay", "--script", "loop.toml")
    assert "loop.toml is a symlink loop" in invoke(tmp_path, "replay", "loop.toml")


@pytest.mark.parametrize("change, words", [
    (lambda t: t.append_column("colour", t.column(0)), ["deals/part-00000.parquet", "column colour added"]),
    (lambda t: t.drop_columns(["end_bonus"]), ["deals/part-00000.parquet", "column end_bonus missing"]),
])
def test_a_part_with_a_column_added_or_dropped_names_it(ws, change, words):
    p = ws / "res" / "deals" / "part-00000.parquet"
    t = pq.read_table(p)
    pq.write_table(change(t).replace_schema_metadata(t.schema.metadata), p)
    line = check(ws, ["stats", "res"], words)
    assert " is its " not in line


def test_a_stray_file_that_simdom_did_not_write_says_how_to_remove_it(ws):
    shutil.copy(ws / "res" / "deals" / "part-00000.parquet", ws / "res" / "deals" / "my-backup.parquet")
    check(ws, ["stats", "res"], ["my-backup.parquet", "simdom did not write it", "mv "])


def test_analyze_of_a_match_deal_suggests_only_what_exists(ws):
    line = check(ws, ["analyze", "--trace", "match.jsonl", "--move", "3"], ["a deal of match 0", "single deals",
                                                                           "simdom replay", "--match 0"])
    assert "allowed: --match" not in line  # analyze has no --match


@pytest.mark.parametrize("args, words", [
    (["policies", "rollout:samples=" + "9" * 5000], ["samples", "1 to 10,000"]),
    (["policies", "x" * 5000], ["unknown policy", "greedy"]),
    (["rules", "threes", "--set", "lead=tile:" + "9" * 5000 + "-1"], ["lead", "tile:a-b"]),
    (["rules", "threes", "--set", "points=fixed:" + "9" * 5000], ["points", "1 to 300"]),
])
def test_a_huge_value_is_named_short(ws, args, words):
    line = check(ws, args, words)
    assert len(line) < 500, len(line)

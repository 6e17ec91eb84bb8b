"""Hardening, third round (issue 43): nothing a person put in a results folder is lost, a deal with an
illegal placement is refused in one line by every command that reads it, a worker's error is one line, every
-o writes the format its suffix names, and the inputs that are not what they seem are refused. Every case
runs the real command on the bad-input workspace (tests/badinput.py): one line, exit code 2, nothing changed."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from badinput import build, check, snapshot
from simdom.cli import app


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("hardening3") / "ws")


@pytest.fixture
def ws(pristine, tmp_path) -> Path:
    shutil.copytree(pristine, tmp_path / "ws")
    return tmp_path / "ws"


def invoke(ws: Path, args: list[str]):
    import os
    cwd = os.getcwd()
    os.chdir(ws)
    try:
        return CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(cwd)


# ---- --overwrite replaces simdom's own files only ------------------------------------------------------
RUN = ["run", "scen.toml", "--out", "res", "--quiet", "--workers", "1"]


@pytest.mark.parametrize("extra", [["--overwrite", "--seed", "9"], ["--overwrite"], []])
def test_a_users_file_in_a_table_folder_is_never_removed(ws, extra):
    shutil.copy(ws / "res" / "deals" / "part-00000.parquet", ws / "res" / "deals" / "my-analysis.parquet")
    line = check(ws, [*RUN, *extra], ["res/deals/my-analysis.parquet", "not simdom's", "mv "])
    assert "--out" in line


def test_overwrite_replaces_simdom_s_parts_and_keeps_other_files_of_the_folder(ws):
    (ws / "res" / "notes.txt").write_text("mine")
    r = invoke(ws, [*RUN, "--overwrite", "--seed", "9", "--deals", "200"])
    assert r.exit_code == 0, r.output
    assert (ws / "res" / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in (ws / "res" / "deals").iterdir()) == ["part-00000.parquet", "part-00001.parquet"]


def test_overwrite_with_fewer_deals_of_the_same_scenario_starts_afresh(ws):
    r = invoke(ws, [*RUN, "--overwrite", "--deals", "200"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (ws / "res" / "deals").iterdir()) == ["part-00000.parquet", "part-00001.parquet"]


# ---- a scripted deal with an illegal placement ---------------------------------------------------------
def illegal(ws: Path) -> None:
    text = (ws / "script.toml").read_text()
    assert '"1-5 L",     # 10' in text
    (ws / "ill.toml").write_text(text.replace('"1-5 L",     # 10', '"2-2 L",     # 10'))


ILLEGAL = ["ill.toml", "move 10", "2-2 L is not a legal move", "1-1 L, 1-5 L, 1-5 R, 5-5 R"]


@pytest.mark.parametrize("args", [
    ["solve", "--script", "ill.toml", "--move", "10"],
    ["solve", "--script", "ill.toml", "--move", "3"],
    ["analyze", "--script", "ill.toml", "--move", "10", "--rollouts", "20"],
    ["analyze", "--script", "ill.toml", "--move", "2", "--rollouts", "20"],
    ["analyze", "--script", "ill.toml", "--all", "--rollouts", "20"],
    ["view", "--script", "ill.toml", "--move", "3", "--seat", "0", "-o", "v.json"],
    ["review", "--script", "ill.toml", "--rollouts", "20", "--luck-rollouts", "20"],
    ["replay", "--script", "ill.toml"],
], ids=lambda a: "-".join(a[:1] + a[3:5]))
def test_an_illegal_scripted_move_is_one_line_for_every_command(ws, args):
    illegal(ws)
    check(ws, args, ILLEGAL)


def test_the_library_refuses_an_illegal_scripted_move_when_the_deal_is_loaded(ws):
    import simdom
    from simdom.analyze.position import PositionError
    illegal(ws)
    with pytest.raises(PositionError, match="move 10: seat 1: 2-2 L is not a legal move"):
        simdom.load_deal(ws / "ill.toml")


# ---- a worker's error ----------------------------------------------------------------------------------
def test_a_python_policy_that_raises_in_a_worker_is_one_line(ws):
    text = (ws / "scen.toml").read_text().replace('policies = ["greedy"', 'policies = ["python:os:system"')
    (ws / "py.toml").write_text(text)
    r = invoke(ws, ["run", "py.toml", "--out", "py", "--quiet", "--workers", "2"])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert "policy python:os:system raised TypeError" in r.output
    assert not (ws / "py" / "deals").is_dir() or not any((ws / "py" / "deals").glob("part-*"))

"""Hardening, third round (issue 43): nothing a person put in a results folder is lost, a deal with an
illegal placement is refused in one line by every command that reads it, a worker's error is one line, every
-o writes the format its suffix names, and the inputs that are not what they seem are refused. Every case
runs the real command on the bad-input workspace (tests/badinput.py): one line, exit code 2, nothing changed."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from badinput import build, check
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


# ---- every -o writes the format its suffix names, or is refused before the work ------------------------
SEED = ["--script", "script.toml", "--move", "10"]


@pytest.mark.parametrize("args, head", [
    (["solve", *SEED, "-o", "x.json"], "{"),
    (["analyze", *SEED, "--rollouts", "20", "-o", "x.json"], "{"),
    (["analyze", *SEED, "--rollouts", "20", "-o", "x.md"], ""),
    (["review", "--script", "script.toml", "--rollouts", "10", "--luck-rollouts", "10", "-o", "x.json"], "{"),
    (["review", "--script", "script.toml", "--rollouts", "10", "--luck-rollouts", "10", "-o", "x.csv"], "move"),
    (["ladder", "greedy", "random", "-n", "2", "--deals", "4", "--workers", "1", "-o", "x.json"], "{"),
    (["skill", "-n", "2", "--deals", "2", "--optimal", "greedy", "--workers", "1", "-o", "x.json"], "{"),
    (["export", "res", "-o", "x.csv"], "arm,"),
    (["view", "--script", "script.toml", "--seat", "1", "--move", "3", "-o", "x.toml"], "players = 4"),
], ids=lambda a: a[0] + "-" + a[-1] if isinstance(a, list) else None)
def test_o_writes_the_format_its_suffix_names(ws, args, head):
    import json
    r = invoke(ws, args)
    assert r.exit_code == 0, r.output
    out = ws / args[-1]
    text = out.read_text()
    assert text.startswith(head), text[:200]
    if out.suffix == ".json":
        json.loads(text)


@pytest.mark.parametrize("args, words", [
    (["solve", *SEED, "-o", "x.csv"], ["-o x.csv names csv", "does not write", ".json (json)"]),
    (["solve", *SEED, "-o", "x.out"], ["-o x.out", "suffix .out names no format", "--format"]),
    (["solve", *SEED, "-o", "x.md", "--format", "json"], ["-o x.md names md but --format is json"]),
    (["ladder", "greedy", "random", "-n", "2", "--deals", "4", "-o", "x.parquet"], ["x.parquet", "does not write"]),
    (["skill", "-n", "2", "--deals", "2", "-o", "x.html"], ["x.html", "does not write"]),
    (["export", "res", "-o", "x.txt"], ["-o x.txt names table", ".csv (csv), .parquet (parquet)"]),
    (["export", "res", "-o", "x.csv", "--format", "parquet"], ["-o x.csv names csv but --format is parquet"]),
    (["view", "--script", "script.toml", "--seat", "1", "-o", "x.txt"], ["x.txt", ".json (json), .toml (toml)"]),
    (["stats", "res", "-o", "x.json", "--format", "csv"], ["-o x.json names json but --format is csv"]),
    (["trace", "-d", "2", "-o", "x.csv"], ["-o x.csv names csv", "JSON Lines", ".jsonl"]),
    (["solve", *SEED, "-o", "no/such/x.json"], ["no/such/x.json", "folder no/such does not exist"]),
], ids=lambda a: "-".join(a[:1] + a[-2:]) if isinstance(a, list) and a and a[0] != "-o" else None)
def test_o_naming_another_format_is_refused_in_one_line(ws, args, words):
    check(ws, args, words)


def test_a_read_only_folder_is_found_before_the_work_starts(tmp_path):
    import subprocess
    import sys
    import time
    from test_faults import remount, tmpfs
    simdom = str(Path(sys.executable).with_name("simdom"))
    with tmpfs(tmp_path / "disk", "1m") as disk:
        remount(disk, "ro")
        for args in (["skill", "-n", "2", "--deals", "2000"], ["ladder", "greedy", "search", "-n", "2", "--deals",
                                                                 "5000"], ["solve", "-n", "4", "--deal", "0"]):
            t0 = time.monotonic()
            done = subprocess.run([simdom, *args, "-o", str(disk / "x.json")], capture_output=True, text=True,
                                  timeout=120)
            assert done.returncode == 2, (args, done.stderr)
            assert time.monotonic() - t0 < 30  # refused at once, not after the work
            line = done.stderr.strip()
            assert len(line.splitlines()) == 1 and "cannot be written" in line and str(disk) in line, line


# ---- the library checks every argument as the command line does (one home: simdom.present.bounded) -----
SCRIPT = Path(__file__).resolve().parents[1] / "scenarios" / "seed-game.deal.toml"


@pytest.fixture(scope="module")
def seed_game():
    import simdom
    return simdom.load_deal(SCRIPT)


@pytest.mark.parametrize("call, kw, words", [
    ("analyze", dict(move=10, rollouts=-1), ["rollouts = -1", "from 2 to 1,000,000"]),
    ("analyze", dict(move=10, rollouts=2.5), ["rollouts = 2.5", "an integer"]),
    ("analyze", dict(move=10, seed=-1), ["seed = -1", "from 0 to"]),
    ("analyze", dict(move=10, by="luck"), ["by = 'luck'", "points, margin, win"]),
    ("analyze", dict(move=True), ["move = True", "an integer"]),
    ("review", dict(rollouts=0, luck_rollouts=0), ["rollouts = 0", "from 2 to"]),
    ("review", dict(rollouts=10, luck_rollouts=-3), ["luck_rollouts = -3", "from 2 to"]),
    ("review", dict(rollouts=10, luck_rollouts=10, names=["Anna", "Boris"]), ["2 names", "4 non-empty names"]),
    ("review", dict(rollouts=10, luck_rollouts=10, seed=2**63), ["seed = 9223372036854775808"]),
    ("solve", dict(move=10, limit=-1), ["limit = -1", "or None (no limit)"]),
], ids=lambda x: x if isinstance(x, str) else None)
def test_the_library_refuses_what_the_command_refuses(seed_game, call, kw, words):
    import simdom
    from simdom.present import OptionError
    with pytest.raises(OptionError) as e:
        getattr(simdom, call)(seed_game, **kw)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


@pytest.mark.parametrize("kw, words", [
    (dict(first_deal=2**63), ["first_deal = 9223372036854775808", "from 0 to"]),
    (dict(seed=2**64), ["seed = 18446744073709551616"]),
    (dict(seed=-1), ["seed = -1"]),
    (dict(deals=10**8), ["deals = 100000000", "5,000,000 a call", "simdom run"]),  # refused before any allocation
    (dict(deals=True), ["deals = True", "an integer"]),
])
def test_simulate_refuses_what_it_cannot_do_and_bounds_what_it_allocates(kw, words):
    import simdom
    from simdom.present import OptionError
    with pytest.raises(OptionError) as e:
        simdom.simulate("threes", "greedy", **{"deals": 2, **kw})
    for w in words:
        assert w in str(e.value), (w, str(e.value))


@pytest.mark.parametrize("args, words", [
    (["analyze", *SEED, "--rollouts", "1"], ["--rollouts 1", "from 2 to 1,000,000"]),
    (["review", "--script", "script.toml", "--luck-rollouts", "0"], ["--luck-rollouts 0", "from 2 to"]),
    (["review", "--script", "script.toml", "--names", "a,b", "--rollouts", "10", "--luck-rollouts", "10"],
     ["--names 'a,b'", "4 non-empty names"]),
    (["solve", *SEED, "--limit", "0"], ["--limit 0", "from 1 to 2,000,000,000 positions"]),
])
def test_the_command_line_says_the_same_in_its_own_words(ws, args, words):
    check(ws, args, words)


# ---- messages ------------------------------------------------------------------------------------------
def _player(name: str, luck: float, seat: int = 0):
    from simdom.analyze.review import Player
    return Player(seat, name, 3, 0.0, 0.0, luck, 10, 10 - luck)


@pytest.mark.parametrize("lucks, says", [
    ([-10.0, -10.0, -2.0], "Cy had the least bad luck (-2.0), Anna and Boris the worst (-10.0 each)"),
    ([3.0, 3.0, -1.0], "Anna and Boris had the most luck (+3.0 each), Cy the worst (-1.0)"),
    ([4.0, 0.5, 1.0], "Anna had the most luck (+4.0), Boris the least (+0.5)"),
    ([-1.0, -1.0, -1.0], "even (-1.0 each)"),
    ([0.04, -0.04, 0.0], "even (+0.0 each)"),  # as shown, one decimal: no "-0.0"
])
def test_the_luck_headline_names_ties_and_bad_luck_and_what_luck_is_measured_against(lucks, says):
    from simdom.analyze.review import luck_clause
    text = luck_clause([_player(n, v, s) for s, (n, v) in enumerate(zip(["Anna", "Boris", "Cy"], lucks))], "greedy")
    assert text == f"luck measured against greedy continuation: {says}", text
    assert "luckiest" not in text


def test_a_position_file_whose_points_the_rules_deny_says_what_was_recorded_and_what_the_rules_give(ws):
    import json
    assert invoke(ws, ["view", "--script", "script.toml", "--seat", "2", "-o", "p.json"]).exit_code == 0
    d = json.loads((ws / "p.json").read_text())
    assert d["actions"][7]["tile"] == "4-6" and d["actions"][7]["points"] == 6
    d["actions"][7]["points"] = 3
    (ws / "p.json").write_text(json.dumps(d))
    check(ws, ["analyze", "--position", "p.json"], ["actions[7]", "recorded seat 2 play 4-6 U, points 3",
                                                    "the rules give seat 2 play 4-6 U, points 6"])


def test_a_tile_is_one_tile_whichever_half_is_written_first(ws):
    text = (ws / "script.toml").read_text()
    swapped = text.replace('["3-6", "1-4",', '["6-3", "4-1",').replace('"3-6 lead"', '"6-3 lead"')
    assert swapped != text
    (ws / "swapped.toml").write_text(swapped)
    a = invoke(ws, ["solve", "--script", "script.toml", "--move", "10", "--format", "json"])
    b = invoke(ws, ["solve", "--script", "swapped.toml", "--move", "10", "--format", "json"])
    assert a.exit_code == b.exit_code == 0, b.output
    import json
    assert [m["value"] for m in json.loads(a.output)["moves"]] == [m["value"] for m in json.loads(b.output)["moves"]]
    from simdom.rules import preset
    assert preset("fives", 4, lead="tile:6-3").lead == preset("fives", 4, lead="tile:3-6").lead
    (ws / "dup.toml").write_text(text.replace('["3-6", "1-4",', '["6-3", "3-6",'))
    check(ws, ["replay", "--script", "dup.toml"], ["dup.toml", "tile 3-6 is dealt twice"])


def test_a_full_disk_during_a_csv_export_is_named(pristine, tmp_path):
    import resource
    import signal
    import subprocess
    import sys

    def child() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
    done = subprocess.run([str(Path(sys.executable).with_name("simdom")), "export", str(pristine / "res"), "-o",
                           str(tmp_path / "big.csv")], capture_output=True, text=True, preexec_fn=child, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == f"Error: {tmp_path / 'big.csv'}: File too large", done.stderr
    assert not (tmp_path / "big.csv").exists()

"""The engine's command line: simdom rules, trace, replay, bench (typer CliRunner and the installed script)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reference import check
from simdom.cli import app
from simdom.rules import PRESETS, preset

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scenarios" / "seed-game.deal.toml"
TRACE_KEYS = {"rules", "deal", "seed", "first", "hands", "boneyard", "actions", "end", "end_bonus", "totals"}
ACTION_KEYS = {"play": {"seat", "act", "tile", "end", "points", "bonus"}, "draw": {"seat", "act", "tile"},
               "pass": {"seat", "act"}}


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def flat(text):
    return " ".join(text.split())


def test_rules_lists_every_preset():
    r = run("rules")
    assert r.exit_code == 0, r.output
    for p in PRESETS:
        assert p in r.output


def test_rules_threes_prints_its_parameters():
    r = run("rules", "threes")
    assert r.exit_code == 0, r.output
    for key in ("min_ends", "first_double_bonus", "fixed:6", "immediately"):
        assert key in r.output


def test_rules_json_is_the_resolved_rules():
    r = run("rules", "fives", "--players", "2", "--set", "min_ends=2", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output.strip().splitlines()[-1]) == preset("fives", players=2, min_ends=2).to_dict()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("trace") / "threes.jsonl"
    r = run("trace", "--rules", "threes", "--players", "4", "--policy", "greedy", "--deals", "6", "--seed", "7",
            "--first-deal", "3", "-o", out)
    assert r.exit_code == 0, r.output
    assert flat(r.output) == (f"wrote 6 deals (threes, 4 players, greedy; seed 7, deals 3-8) to {out}; show one "
                              f"with: simdom replay {out} --deal 3")
    return out


def test_s11_trace_writes_one_line_per_deal_with_every_field(written):
    lines = written.read_text().splitlines()
    assert len(lines) == 6
    for i, line in enumerate(lines):
        rec = json.loads(line)
        assert set(rec) == TRACE_KEYS
        assert rec["deal"] == 3 + i and rec["seed"] == 7
        assert rec["rules"] == preset("threes", players=4).to_dict()
        for a in rec["actions"]:
            assert set(a) == ACTION_KEYS[a["act"]]
            if a["act"] == "play":
                assert a["end"] in ("lead", "L", "R", "U", "D")
        assert rec["end"] in ("domino", "blocked")
        assert check(rec, "greedy") == []


def test_trace_refuses_to_overwrite(written, tmp_path):
    before = written.read_bytes()
    r = run("trace", "--deals", "2", "-o", written)
    assert r.exit_code == 2
    assert "--overwrite" in r.output and "exists" in r.output
    assert written.read_bytes() == before
    copy = tmp_path / "t.jsonl"
    copy.write_bytes(before)
    r = run("trace", "--deals", "2", "-o", copy, "--overwrite")
    assert r.exit_code == 0, r.output
    assert len(copy.read_text().splitlines()) == 2


@pytest.mark.parametrize("args,words", [
    (["--rules", "fivez"], ["preset", "threes", "fives", "all-fives", "muggins", "fives-and-threes"]),
    (["--policy", "greedyy"], ["greedyy", "random", "greedy", "heavy", "hold"]),
    (["--policy", "hold:until=soon"], ["until", "never"]),
    (["--set", "min_ends=0"], ["min_ends", "1", "4"]),
    (["--set", "points=product"], ["points", "sum", "quotient", "fixed:N"]),
    (["--set", "lead=tile:9-9"], ["lead", "tile:A-B"]),
    (["--set", "colour=red"], ["colour", "min_ends", "spinner"]),
    (["--set", "min_ends"], ["PARAMETER=VALUE"]),
    (["--players", "5"], ["players", "2", "4"]),
])
def test_trace_bad_values_exit_2_naming_the_allowed_values(tmp_path, args, words):
    out = tmp_path / "x.jsonl"
    r = run("trace", "--deals", "1", "-o", out, *args)
    assert r.exit_code == 2, r.output
    text = flat(r.output)
    for w in words:
        assert w in text, (w, text)
    assert not out.exists()


def test_replay_script_prints_the_seed_game():
    r = run("replay", "--script", SCRIPT)
    assert r.exit_code == 0, r.output
    text = r.output
    for move in ("3-6 on lead", "4-4 on L", "draws 5-6", "5-6 on R", "4-6 on U", "1-5 on L"):
        assert move in text, move
    assert "expectations of the script hold" in text
    # the answer first: the leader after move 10 and the seed's first-double bonus (4-4 at move 5, 4 points)
    assert flat(text).startswith("The seed game (Evgeny/Alexander, Ilya/Maria, Pavel/Nikita, Gleb/Tatiana): seat 0 has the most points, 10, "
                                 "with the deal not finished after move 10; seat 0 earned the first-double "
                                 "bonus, 4 for 4-4 at move 5."), text[:300]


def test_replay_of_a_trace_opens_with_the_winner_and_the_end(written):
    rec = next(json.loads(x) for x in written.read_text().splitlines() if json.loads(x)["deal"] == 5)
    r = run("replay", written, "--deal", "5")
    assert r.exit_code == 0, r.output
    best = max(rec["totals"])
    top = [s for s, t in enumerate(rec["totals"]) if t == best]
    first = flat(r.output).split(".")[0]
    assert first.startswith(f"Deal 5 (seed {rec['seed']}): seat"), first
    assert f"the most points, {best}, after a {rec['end']} at move" in first and f"{top[0]}" in first, first


def test_replay_script_with_a_broken_expectation_exits_2(tmp_path):
    bad = tmp_path / "seed.deal.toml"
    bad.write_text(SCRIPT.read_text().replace("totals = [10, 0, 6, 6]", "totals = [10, 0, 6, 7]"))
    r = run("replay", "--script", bad)
    assert r.exit_code == 2
    assert "totals" in r.output


def test_replay_a_written_trace_by_deal_number(written):
    r = run("replay", written, "--deal", "5")
    assert r.exit_code == 0, r.output
    assert "Deal 5" in r.output and "End:" in r.output
    rec = next(json.loads(x) for x in written.read_text().splitlines() if json.loads(x)["deal"] == 5)
    first = rec["actions"][0]
    assert f"{first['tile']} on lead" in r.output


def test_replay_a_missing_deal_exits_2(written):
    r = run("replay", written, "--deal", "99")
    assert r.exit_code == 2 and "99" in r.output


def test_replay_a_tampered_trace_exits_2(written, tmp_path):
    rec = json.loads(written.read_text().splitlines()[0])
    plays = [a for a in rec["actions"] if a["act"] == "play"]
    plays[-1]["points"] += 6
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    r = run("replay", bad)
    assert r.exit_code == 2 and "does not replay" in flat(r.output)


def test_bench_json_is_one_json_object():
    r = run("bench", "--seconds", "0.3", "--json", "--players", "3", "--policy", "random")
    assert r.exit_code == 0, r.output
    last = json.loads(r.output)  # the whole output: a pipe into a JSON reader works
    assert last["deals_per_s"] > 0 and last["players"] == 3 and last["policy"] == "random"


def test_installed_script_trace_and_replay(tmp_path):
    exe = Path(sys.executable).parent / "simdom"
    if not exe.exists():
        pytest.skip(f"{exe} is not installed")
    out = tmp_path / "f.jsonl"
    r = subprocess.run([str(exe), "trace", "-r", "all-fives", "-n", "3", "-p", "random", "-d", "4", "-s", "2",
                        "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(recs) == 4 and all(check(rec) == [] for rec in recs)
    r = subprocess.run([str(exe), "replay", "--script", str(SCRIPT)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("damage", ["duplicated tile", "hand too long", "short boneyard"])
def test_s2_replay_refuses_a_record_that_is_not_a_deal_of_its_rules(written, tmp_path, damage):
    """docs/rules.md 2 and 11: a record's hands hold hand_size[n] tiles each and the boneyard the rest of the
    set, each tile once. `simdom replay` says it checks the record; a broken deal must not replay."""
    rec = json.loads(written.read_text().splitlines()[0])
    if damage == "duplicated tile":
        rec["boneyard"][-1] = rec["hands"][0][0]
    elif damage == "hand too long":
        rec["hands"][0].append(rec["boneyard"].pop())
    else:
        rec["boneyard"].pop()
    assert check(rec) != []                       # the referee refuses it
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    r = run("replay", bad)
    assert r.exit_code == 2, f"a record with a {damage} replays:\n{r.output[-400:]}"

"""Issue 41 items 1 and 6: every rule parameter written in TOML (the open-ended last tier of
first_double_bonus too), a scenario's [sweep] expanded into named arms on the same deals, a study over
player counts as one command, `simdom run --set/--players`, and the bad inputs refused in one line."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simdom.cli import app
from simdom.rules import preset
from simdom.run.scenario import ScenarioError, from_dict, load_study
from simdom.run.sweep import MAX_VARIANTS

BASE = {"name": "sw", "players": 2, "policies": "greedy", "rotation": True, "deals": 300, "seed": 5,
        "rules": {"preset": "threes"}}


def _toml(text: str) -> dict:
    return tomllib.loads(text)


def _dump(d: dict) -> str:
    """A scenario dict as TOML (its values are numbers, strings, booleans and lists of them: JSON's form)."""
    top = [f"{k} = {json.dumps(v)}" for k, v in d.items() if not isinstance(v, dict)]
    tables = [f"[{k}]\n" + "\n".join(f"{kk} = {json.dumps(vv)}" for kk, vv in v.items())
              for k, v in d.items() if isinstance(v, dict)]
    return "\n".join(top + tables) + "\n"


@pytest.mark.parametrize("written", ["[[4, 2], [8, 4], [8]]", '[[4, 2], [8, 4], ["end", 8]]'])
def test_open_ended_last_tier_reads_as_threes_bonus(written):
    d = _toml(f"first_double_bonus = {written}")
    r = preset("threes", players=2, **d)
    assert r.first_double_bonus == ((4, 2), (8, 4), (None, 8)) == preset("threes", players=2).first_double_bonus
    assert r == preset("threes", players=2)


def test_open_ended_tier_only_last_and_arms_open_none():
    with pytest.raises(ValueError, match="only the last tier"):
        preset("threes", players=2, first_double_bonus=[[8], [4, 2]])
    with pytest.raises(ValueError, match="only the last tier"):
        preset("threes", players=2, first_double_bonus=[["end", 8], [9, 2]])
    line = preset("threes", players=2, spinner="none", arms_open="none", min_ends=2)
    assert line.arms_open is None


def test_every_rule_parameter_is_writable_in_toml():
    """Each parameter of section 8 (and the match ones) round-trips from TOML text to the same rules."""
    full = preset("fives", players=4, target=100).to_dict()
    text = []
    for k, v in full.items():
        if k == "players":
            continue
        if k == "first_double_bonus":
            v = [[p] if last is None else [last, p] for last, p in [[4, 2], [None, 8]]]
        text.append(f"{k} = {json.dumps(v if v is not None else 'none')}".replace('{"2": ', "{2 = ")
                    .replace(', "3": ', ", 3 = ").replace(', "4": ', ", 4 = "))
    d = _toml("\n".join(text))
    r = preset("fives", players=4, **d)
    assert r.first_double_bonus == ((4, 2), (None, 8))
    assert {k: v for k, v in r.to_dict().items() if k != "first_double_bonus"} == \
        {k: v for k, v in full.items() if k != "first_double_bonus"}


def test_sweep_grid_names_arms_from_values_baseline_first():
    sc = from_dict({**BASE, "sweep": {"min_ends": [3, 2], "hand_size": [6, 5], "baseline": "min_ends=2+hand_size=6"}})
    names = [a.name for a in sc.arms]
    assert names == ["min_ends=2+hand_size=6", "min_ends=3+hand_size=6", "min_ends=3+hand_size=5",
                     "min_ends=2+hand_size=5"]
    by = {a.name: a for a in sc.arms}
    assert by["min_ends=3+hand_size=5"].rules.min_ends == 3 and by["min_ends=3+hand_size=5"].rules.hand == 5
    assert all(a.policies == ("greedy", "greedy") for a in sc.arms)


def test_sweep_zip_bonus_and_seat_policy():
    sc = from_dict({**BASE, "sweep": {"mode": "zip", "first_double_bonus": [[[4, 2], [8]], []],
                                      "policy_0": ["greedy", "random"]}})
    assert [a.name for a in sc.arms] == ["first_double_bonus=4.2-8+policy_0=greedy",
                                         "first_double_bonus=none+policy_0=random"]
    assert sc.arms[1].policies == ("random", "greedy") and sc.arms[1].rules.first_double_bonus == ()
    assert sc.arms[0].rules.first_double_bonus == ((4, 2), (None, 8))


def test_sweep_over_players_is_one_scenario_per_count(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('name = "st"\nplayers = 2\ndeals = 10\nseed = 1\n[sweep]\nplayers = [2, 4]\nmin_ends = [3, 2]\n')
    runs = load_study(p)
    assert [(s.name, s.players, len(s.arms)) for s in runs] == [("st-2p", 2, 2), ("st-4p", 4, 2)]
    one = load_study(p, sets=["min_ends=1"], players=3)
    assert [(s.players, [a.rules.min_ends for a in s.arms]) for s in one] == [(3, [1])]
    assert load_study(p, sets=["first_double_bonus=[[4, 2], [8]]"])[0].arms[0].rules.first_double_bonus == \
        ((4, 2), (None, 8))
    d = load_study(Path(__file__).resolve().parents[1] / "scenarios" / "default.toml", players=2)
    assert [a.policies for a in d[0].arms][:2] == [("hold:until=1", "greedy"), ("hold:until=5", "greedy")]


BAD = [
    ("unknown", {"sweep": {"min_end": [1, 2]}}, [], ["min_end", "allowed", "min_ends"]),
    ("range", {"sweep": {"min_ends": [2, 7]}}, [], ["min_ends", "7", "from 1 to 4"]),
    ("empty", {"sweep": {"min_ends": []}}, [], ["min_ends", "non-empty list"]),
    ("bound", {"sweep": {"hand_size": list(range(1, 10)), "min_ends": [1, 2, 3, 4], "divisors": [2, 3]}}, [],
     ["72 variants", f"at most {MAX_VARIANTS}"]),
    ("baseline", {"sweep": {"min_ends": [2, 3], "baseline": "min_ends=4"}}, [],
     ["baseline", "min_ends=4", "min_ends=2, min_ends=3"]),
    ("zip-lengths", {"sweep": {"mode": "zip", "min_ends": [2, 3], "hand_size": [5]}}, [], ["zip", "equal length"]),
    ("set-unknown", {}, ["--set", "spinners=none"], ["--set spinners", "allowed", "spinner"]),
    ("set-range", {}, ["--set", "min_ends=9"], ["min_ends", "from 1 to 4"]),
    ("players", {}, ["--players", "5"], ["--players 5", "2, 3 or 4"]),
]


@pytest.mark.parametrize("extra,args,words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_sweeps_and_overrides_one_line_exit_2_nothing_written(tmp_path, extra, args, words):
    p = tmp_path / "bad.toml"
    p.write_text(_dump({**BASE, **extra}))
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["run", str(p), "--out", str(out), "-q", *args])
    msg = res.output.strip()
    assert res.exit_code == 2, msg
    assert len(msg.splitlines()) == 1 and "Traceback" not in msg, msg
    for w in words:
        assert w in msg, (w, msg)
    assert not out.exists()


def test_from_dict_refuses_arms_with_sweep():
    with pytest.raises(ScenarioError, match="not both"):
        from_dict({**BASE, "arms": [{"name": "a"}], "sweep": {"min_ends": [2]}})


def test_study_over_players_runs_into_one_folder(tmp_path, cli):
    """One command: a folder per player count (docs/results.md), each arm a variant on the same deals."""
    p = tmp_path / "s.toml"
    p.write_text('name = "st"\nplayers = 2\nrotation = true\ndeals = 200\nseed = 3\n[rules]\npreset = "threes"\n'
                 '[sweep]\nplayers = [2, 3]\nfirst_double_bonus = [[[4, 2], [8, 4], [8]], []]\n')
    res = cli("run", p, "--out", tmp_path / "o", "--workers", "1", "-q", "--format", "json")
    assert res.returncode == 0, res.stderr
    assert set(json.loads(res.stdout)) == {"st-2p", "st-3p"}  # one answer: each count's summary by run
    for n in (2, 3):
        man = json.loads((tmp_path / "o" / f"{n}p" / "manifest.json").read_text())
        assert [a["name"] for a in man["arms"]] == ["first_double_bonus=4.2-8.4-8", "first_double_bonus=none"]
        assert man["arms"][0]["rules"]["first_double_bonus"] == [[4, 2], [8, 4], [None, 8]]
        assert man["players"] == n
    # a command that reads one results folder, given the study's folder, names the folders it holds
    bad = cli("seats", tmp_path / "o")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert "several player counts" in bad.stderr and f"{tmp_path / 'o'}/3p" in bad.stderr


def test_sweep_over_presets_and_policies():
    no_preset = {k: v for k, v in BASE.items() if k != "rules"}  # [rules] preset and a swept preset: refused
    sc = from_dict({**no_preset, "sweep": {"preset": ["threes", "fives"], "policies": ["greedy", ["greedy", "random"]]}})
    assert [a.name for a in sc.arms] == ["preset=threes+policies=greedy", "preset=threes+policies=greedy-random",
                                         "preset=fives+policies=greedy", "preset=fives+policies=greedy-random"]
    assert [a.preset for a in sc.arms] == ["threes", "threes", "fives", "fives"]
    assert sc.arms[1].policies == ("greedy", "random") and sc.arms[2].rules.min_ends == 1
    with pytest.raises(ScenarioError, match="no player 2 with 2 players"):
        from_dict({**BASE, "sweep": {"policy_2": ["greedy", "random"]}})

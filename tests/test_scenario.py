"""Scenario files (issue 3, item 1): the shipped scenarios load; bad files fail with one message that
names the file, the field and the allowed values."""
from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from simdom.cli.run import register
from simdom.rules import PRESETS
from simdom.run.scenario import ScenarioError, from_dict, load

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
SHIPPED = sorted(p for p in SCENARIOS.glob("*.toml") if not p.name.endswith(".deal.toml"))
OK = {"name": "t", "players": 4, "deals": 100, "seed": 1}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_scenarios_load(path):
    from simdom.run.scenario import load_study
    runs = load_study(path)  # a sweep over players: one run per count, named NAME-Np
    for sc in runs:
        assert sc.name == (path.stem if len(runs) == 1 else f"{path.stem}-{sc.players}p")
        assert sc.deals >= 1 and sc.arms


def test_the_required_scenarios_are_shipped():
    names = {p.stem for p in SHIPPED}
    assert {"default", "threes-doubles", "threes-vs-fives", "seed-game"} <= names
    assert {f"balance-{p}p" for p in (2, 3, 4)} <= names
    doubles = load(SCENARIOS / "threes-doubles.toml")
    assert [a.policies[0] for a in doubles.arms] == [f"hold:until={k}" for k in ("1", "5", "9", "13", "never")]
    assert doubles.rotation and all(a.policies[1:] == ("greedy",) * 3 for a in doubles.arms)
    tvf = load(SCENARIOS / "threes-vs-fives.toml")
    assert [a.preset for a in tvf.arms] == ["threes", "fives"] and tvf.players == 4
    for p in (2, 3, 4):
        bal = load(SCENARIOS / f"balance-{p}p.toml")
        assert bal.players == p and [a.preset for a in bal.arms] == list(PRESETS)
    seed = load(SCENARIOS / "seed-game.toml")
    assert seed.players == 4 and seed.arms[0].rules.hand == 5 and seed.arms[0].preset == "threes"


def test_arms_inherit_and_merge():
    sc = from_dict({**OK, "policies": "greedy", "rules": {"preset": "threes", "min_ends": 2},
                    "arms": [{"name": "a"}, {"name": "b", "rules": {"divisors": [3, 5]}},
                             {"name": "c", "rules": {"preset": "fives"}, "policies": ["random"]}]})
    a, b, c = sc.arms
    assert a.policies == ("greedy",) * 4 and a.rules.min_ends == 2
    assert b.rules.min_ends == 2 and b.rules.divisors == (3, 5) and b.rules.preset == "threes"
    assert c.rules.preset == "fives" and c.rules.min_ends == 2 and c.policies == ("random",) * 4


def test_no_arms_means_one_arm_and_auto_chunks():
    sc = from_dict({**OK, "deals": 1_000_000})
    assert [a.name for a in sc.arms] == ["base"] and sc.rotations == 1 and sc.chunk_size == 100_000
    assert from_dict({**OK, "rotation": True, "chunk_size": 7}).chunk_size == 7


def test_slow_policies_get_chunks_of_seconds_and_fast_ones_keep_their_size():
    """A chunk should last seconds whatever the policy: an arm with search, rollout or clairvoyant seats
    gets a chunk as much smaller as its decisions cost (simdom.policies.policy_cost), a greedy run keeps
    its size, and a chunk_size given is kept."""
    from simdom.policies import policy_cost
    fast = from_dict({**OK, "deals": 1_000_000, "rotation": True}).chunk_size
    assert fast == 25_000 and policy_cost("greedy") == policy_cost("hold:until=5") == 1
    for pol, cost in (("search", 1760), ("search:worlds=32", 220), ("rollout:samples=32", 352), ("clairvoyant", 5000)):
        assert policy_cost(pol) == cost
        lineup = [pol, "greedy", "greedy", "greedy"]
        sc = from_dict({**OK, "deals": 1_000_000, "rotation": True, "policies": lineup})
        assert sc.chunk_size == int(100_000 // 4 / ((cost + 3) / 4)), pol
        assert from_dict({**OK, "deals": 100, "rotation": True, "policies": lineup, "chunk_size": 50}).chunk_size == 50
    assert policy_cost("search:depth=0") == 17600


def test_settings_hash_changes_with_every_setting():
    base = from_dict(OK)
    std = dict(tables=("deals",), sim_version=1, results_format=2)
    h = base.settings_hash(**std)
    assert h == from_dict(dict(OK)).settings_hash(**std)
    # more deals extend a folder: the number of deals decides no row (deal i depends on the seed and i)
    assert from_dict({**OK, "deals": 101}).settings_hash(**std) == h
    for change in ({"seed": 2}, {"rotation": True}, {"policies": "random"}, {"chunk_size": 10},
                   {"rules": {"preset": "fives"}}, {"name": "u"}):
        assert from_dict({**OK, **change}).settings_hash(**std) != h, change
    for other in ({"tables": ("deals", "moves")}, {"sim_version": 2}, {"results_format": 3}):
        assert base.settings_hash(**{**std, **other}) != h, other
    assert base.replace(seed=9).seed == 9 and base.replace(deals=5).deals == 5


BAD = [
    ({"players": 5}, ["players", "2, 3 or 4"]),
    ({"name": "a b"}, ["name", "letters, digits"]),
    ({"deals": 0}, ["deals", "integer from 1"]),
    ({"deals": "100"}, ["deals", "integer"]),
    ({"seed": -1}, ["seed", ">= 0"]),
    ({"colour": "red"}, ["unknown field 'colour'", "allowed: name"]),
    ({"rules": {"preset": "threez"}}, ["rules", "preset = 'threez'", "allowed: threes, fives"]),
    ({"rules": {"min_ends": 9}}, ["rules", "min_ends = 9", "allowed: an integer from 1 to 4"]),
    ({"rules": {"colour": 1}}, ["rules", "unknown parameter 'colour'", "allowed:"]),
    ({"rules": {"players": 3}}, ["rules.players", "set once"]),
    ({"policies": ["greedy", "gready", "greedy", "greedy"]}, ["policies", "'gready'", "allowed: random, greedy"]),
    ({"policies": ["greedy", "greedy"]}, ["policies", "2 policies given for 4 players"]),
    ({"policies": "hold:until=0"}, ["policies", "until", "allowed"]),
    ({"arms": [{"name": "x"}, {"name": "x"}]}, ["arms", "used twice"]),
    ({"arms": [{"name": "x", "polices": "greedy"}]}, ["unknown field 'arms[0].polices'", "allowed: name, policies"]),
    ({"arms": [{"name": "x", "rules": {"hand_size": 9}}]}, ["arms[0] (x).rules", "hand_size", "allowed"]),
    ({"arms": [{"name": "x", "policies": ["random"] * 3}]}, ["arms[0] (x).policies", "3 policies"]),
    ({"chunk_size": 0}, ["chunk_size", "automatic"]),
    ({"rotation": "yes"}, ["rotation", "true, false or \"all\""]),
]


@pytest.mark.parametrize("change,words", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_scenarios_name_the_file_field_and_allowed_values(change, words):
    with pytest.raises(ScenarioError) as e:
        from_dict({**OK, **change}, "bad.toml")
    msg = str(e.value)
    assert msg.startswith("bad.toml: ")
    for w in words:
        assert w in msg, (w, msg)


def test_missing_fields_are_named():
    with pytest.raises(ScenarioError, match="field 'deals' is missing"):
        from_dict({"name": "t", "players": 4, "seed": 1}, "f.toml")


def test_file_errors(tmp_path):
    with pytest.raises(ScenarioError, match="no such scenario file"):
        load(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nplayers = 4\ndeals = \n')
    with pytest.raises(ScenarioError, match=r"bad.toml: not valid TOML"):
        load(bad)
    deal = SCENARIOS / "seed-game.deal.toml"
    if deal.exists():
        with pytest.raises(ScenarioError, match="scripted deal"):
            load(deal)


def test_cli_refuses_a_bad_scenario_with_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nplayers = 4\ndeals = 10\nseed = 1\npolicies = "gready"\n')
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)
    res = CliRunner().invoke(app, ["run", str(bad), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "bad.toml" in res.output and "gready" in res.output
    assert not (tmp_path / "o").exists()

"""The five match parameters of docs/rules.md section 12 as fields of the rules object: defaults, validation,
the trace's rules object with and without a match, and `--set` on the command line."""
import dataclasses
import json

import pytest
from typer.testing import CliRunner

from simdom.cli import app
from simdom.rules import (ALL_PARAMETERS, MATCH_PARAMETERS, PARAMETERS, PRESETS, RulesError, from_dict,
                          preset)

SECTION_12 = {"target": 0, "match_end": "deal_end", "next_lead": "rules", "teams": "none", "max_deals": 200}


@pytest.mark.parametrize("name", PRESETS)
def test_s12_every_preset_has_target_0_and_the_default_match_parameters(name):
    r = preset(name, players=4)
    assert {k: getattr(r, k) for k in MATCH_PARAMETERS} == SECTION_12
    assert not r.is_match


@pytest.mark.parametrize("name", PRESETS)
def test_s12_target_0_keeps_the_section_11_rules_object(name):
    """With target = 0 there is no match: a single deal's trace is unchanged (no match keys)."""
    d = preset(name, players=3).to_dict()
    assert not set(MATCH_PARAMETERS) & set(d)
    assert set(d) == set(PARAMETERS)


def test_s12_match_traces_hold_the_five_parameters_and_round_trip():
    r = preset("fives", players=4, target=250, match_end="exact", next_lead="hand_winner", teams="partners",
               max_deals=40)
    d = r.to_dict()
    assert {k: d[k] for k in MATCH_PARAMETERS} == dict(target=250, match_end="exact", next_lead="hand_winner",
                                                        teams="partners", max_deals=40)
    assert from_dict(d) == r and from_dict(d).to_dict() == d
    assert set(ALL_PARAMETERS) == set(PARAMETERS) | set(MATCH_PARAMETERS)


def test_s12_match_parameters_take_effect_only_with_a_target():
    """Valid match parameters with target = 0 are reset to their defaults, so the rules equal the
    plain deal's rules and round-trip through the section 11 rules object."""
    r = preset("threes", players=4, teams="partners", match_end="immediate", next_lead="rotate", max_deals=3)
    assert r == preset("threes", players=4)
    assert from_dict(r.to_dict()) == r
    assert dataclasses.replace(r, target=61).teams == "none"  # reset values stay reset: give them with the target


BAD = [
    ({"target": -1}, ["target", "from 0 to 100000"]),
    ({"target": "100"}, ["target", "integer"]),
    ({"target": True}, ["target", "integer"]),
    ({"match_end": "sudden"}, ["match_end", "deal_end", "immediate", "exact"]),
    ({"next_lead": "loser"}, ["next_lead", "rules", "hand_winner", "rotate"]),
    ({"teams": "pairs"}, ["teams", "none", "partners"]),
    ({"max_deals": 0}, ["max_deals", "from 1 to 10000"]),
    ({"max_deals": 2.5}, ["max_deals", "from 1 to 10000"]),
]


@pytest.mark.parametrize("overrides,words", BAD, ids=[next(iter(b[0])) + "=" + str(next(iter(b[0].values())))
                                                      for b in BAD])
def test_s12_bad_match_values_name_the_parameter_and_allowed_values(overrides, words):
    with pytest.raises(RulesError) as info:
        preset("fives", players=4, **{"target": 100, **overrides})
    msg = str(info.value)
    assert "allowed" in msg
    for w in words:
        assert w in msg, (w, msg)


@pytest.mark.parametrize("players", [2, 3])
def test_s12_partners_need_4_players_naming_both_parameters(players):
    with pytest.raises(RulesError) as info:
        preset("fives", players=players, target=100, teams="partners")
    msg = str(info.value)
    for w in ("teams", "partners", "players", "4", str(players), "allowed"):
        assert w in msg


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})


def test_s12_set_overrides_reach_the_rules_command():
    r = run("rules", "fives", "--set", "target=100", "--set", "teams=\"partners\"", "--set", "next_lead=rotate",
            "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output.strip().splitlines()[-1])
    assert (d["target"], d["teams"], d["next_lead"], d["match_end"], d["max_deals"]) == (
        100, "partners", "rotate", "deal_end", 200)


def test_s12_set_partners_with_3_players_exits_2():
    r = run("rules", "fives", "--players", "3", "--set", "target=100", "--set", "teams=partners")
    assert r.exit_code == 2
    text = " ".join(r.output.split())
    assert "teams" in text and "players" in text


def test_s12_a_run_plays_matches_in_every_arm_or_in_none(tmp_path):
    """A scenario with target > 0 plays matches (``deals`` counts them); arms mixing matches and single
    deals are refused with a clear error naming the arm and the allowed values."""
    from simdom.run.scenario import ScenarioError, from_dict as scenario
    base = {"name": "m", "players": 4, "policies": "greedy", "deals": 10, "seed": 1,
            "rules": {"preset": "fives", "target": 100}}
    sc = scenario(base)
    assert sc.unit == "match" and sc.unit.plural == "matches"
    with pytest.raises(ScenarioError) as info:
        scenario({**base, "arms": [{"name": "a"}, {"name": "single", "rules": {"target": 0}}]})
    msg = str(info.value)
    assert "single" in msg and "target = 0" in msg and "allowed: target > 0 in every arm" in msg

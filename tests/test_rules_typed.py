"""Typed rules, carried whole (issue 17.2): the choices are StrEnums, points / out_bonus / lead parsed once
into typed values, construction by keyword only, and the plan carries Rules objects to the workers (no
module rebuilds them from text); the text forms (to_dict, traces, manifests) are byte for byte those of
plain strings."""
from __future__ import annotations

import ast
import json
import pickle
import tomllib
from pathlib import Path

import pytest

from simdom import rules as R
from simdom.rules import PRESETS, Lead, OutBonus, OutMode, Points, PointsMode, Rules, preset

#: json.dumps(preset(name, 4).to_dict(), sort_keys=True) as it was with plain strings (before the types)
GOLDEN = {
    'threes': '{"arms_open": "immediately", "block_bonus": "none", "boneyard_reserve": {"2": 0, "3": 0, "4": 0}, "bonus_divisor": 1, "bonus_round_to": 1, "divisors": [3], "double_counts": "face", "draw": "until_playable", "first_double_bonus": [[4, 2], [8, 4], [null, 8]], "hand_size": {"2": 6, "3": 6, "4": 5}, "lead": "any", "max_pip": 6, "min_ends": 3, "out_bonus": "none", "players": 4, "points": "fixed:6", "spinner": "first_double"}',
    'fives': '{"arms_open": "after_both_sides", "block_bonus": "opponents_minus_own", "boneyard_reserve": {"2": 0, "3": 0, "4": 0}, "bonus_divisor": 5, "bonus_round_to": 5, "divisors": [5], "double_counts": "both", "draw": "until_playable", "first_double_bonus": [], "hand_size": {"2": 7, "3": 7, "4": 7}, "lead": "tile:5-5", "max_pip": 6, "min_ends": 1, "out_bonus": "opponents_pips", "players": 4, "points": "sum", "spinner": "first_double"}',
    'all-fives': '{"arms_open": "after_both_sides", "block_bonus": "opponents_pips", "boneyard_reserve": {"2": 0, "3": 0, "4": 0}, "bonus_divisor": 1, "bonus_round_to": 5, "divisors": [5], "double_counts": "both", "draw": "until_playable", "first_double_bonus": [], "hand_size": {"2": 7, "3": 5, "4": 5}, "lead": "any", "max_pip": 6, "min_ends": 1, "out_bonus": "opponents_pips", "players": 4, "points": "sum", "spinner": "first_double"}',
    'muggins': '{"arms_open": null, "block_bonus": "opponents_pips", "boneyard_reserve": {"2": 0, "3": 0, "4": 0}, "bonus_divisor": 1, "bonus_round_to": 5, "divisors": [5], "double_counts": "both", "draw": "until_playable", "first_double_bonus": [], "hand_size": {"2": 7, "3": 5, "4": 5}, "lead": "any", "max_pip": 6, "min_ends": 1, "out_bonus": "opponents_pips", "players": 4, "points": "sum", "spinner": "none"}',
    'fives-and-threes': '{"arms_open": null, "block_bonus": "none", "boneyard_reserve": {"2": 0, "3": 0, "4": 0}, "bonus_divisor": 1, "bonus_round_to": 1, "divisors": [3, 5], "double_counts": "both", "draw": "none", "first_double_bonus": [], "hand_size": {"2": 7, "3": 5, "4": 5}, "lead": "any", "max_pip": 6, "min_ends": 1, "out_bonus": "fixed:1", "players": 4, "points": "quotient", "spinner": "none"}',
}
GOLDEN_MATCH = '{"arms_open": "after_both_sides", "block_bonus": "opponents_minus_own", "boneyard_reserve": {"2": 0, "3": 0, "4": 0}, "bonus_divisor": 5, "bonus_round_to": 5, "divisors": [5], "double_counts": "both", "draw": "until_playable", "first_double_bonus": [], "hand_size": {"2": 7, "3": 7, "4": 7}, "lead": "tile:5-5", "match_end": "exact", "max_deals": 200, "max_pip": 6, "min_ends": 1, "next_lead": "rules", "out_bonus": "opponents_pips", "players": 4, "points": "sum", "spinner": "first_double", "target": 100, "teams": "partners"}'

CHOICES = {"draw": R.Draw, "spinner": R.Spinner, "double_counts": R.DoubleCounts, "block_bonus": R.BlockBonus,
            "match_end": R.MatchEnd, "next_lead": R.NextLead, "teams": R.Teams}


@pytest.mark.parametrize("name", PRESETS)
def test_the_text_form_is_unchanged(name):
    assert json.dumps(preset(name, 4).to_dict(), sort_keys=True) == GOLDEN[name]


def test_the_text_form_of_a_match_is_unchanged():
    r = preset("fives", 4, target=100, teams="partners", match_end="exact")
    assert json.dumps(r.to_dict(), sort_keys=True) == GOLDEN_MATCH


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_field_is_typed(name, players):
    r = preset(name, players)
    for field, enum in CHOICES.items():
        assert type(getattr(r, field)) is enum, field
    assert r.arms_open is None or type(r.arms_open) is R.ArmsOpen
    assert type(r.points) is Points and type(r.out_bonus) is OutBonus and type(r.lead) is Lead
    assert repr(r.draw) == repr(r.draw.value)  # messages read as before


@pytest.mark.parametrize("text, mode, n", [("fixed:6", PointsMode.FIXED, 6), ("sum", PointsMode.SUM, 0),
                                           ("quotient", PointsMode.QUOTIENT, 0), ("fixed:300", PointsMode.FIXED, 300)])
def test_points_are_parsed_once(text, mode, n):
    r = preset("threes", 4, points=text)
    assert (r.points.mode, r.points.n, r.points) == (mode, n, text)


def test_out_bonus_and_lead_are_parsed_once():
    r = preset("fives", 4, out_bonus="fixed:12", lead="tile:3-6")
    assert (r.out_bonus.mode, r.out_bonus.n) == (OutMode.FIXED, 12)
    assert r.lead == "tile:3-6" and r.lead.halves == (3, 6)
    assert preset("threes", 4).lead.halves is None


def test_rules_are_built_from_keywords_only():
    with pytest.raises(TypeError):
        Rules(6)  # type: ignore[misc]
    assert Rules(max_pip=6).max_pip == 6


def test_rules_travel_whole_by_pickle():
    r = preset("fives", 4, target=61, next_lead="rotate", lead="tile:2-2", out_bonus="fixed:5")
    back = pickle.loads(pickle.dumps(r))
    assert back == r and hash(back) == hash(r)
    assert back.lead.halves == (2, 2) and back.out_bonus.n == 5 and type(back.next_lead) is R.NextLead


def test_the_plan_carries_rules_objects():
    from simdom.run.plan import Plan
    from simdom.run.scenario import from_dict
    sc = from_dict(tomllib.loads('name = "p"\nplayers = 4\ndeals = 10\nseed = 1\n'
                                'policies = ["greedy", "random", "greedy", "random"]\n[rules]\npreset = "fives"\n'
                                '[[arms]]\nname = "a"\n[[arms]]\nname = "b"\nrules = { min_ends = 2 }\n'))
    plan = Plan.of(sc, tables=("deals",), settings_hash="x", sim_version=1)
    assert all(type(r) is Rules for r in plan.rules)
    assert plan.rules == tuple(a.rules for a in sc.arms)
    assert pickle.loads(pickle.dumps(plan)) == plan


@pytest.mark.parametrize("module", ["run/worker.py", "run/matchworker.py", "run/plan.py"])
def test_no_worker_rebuilds_rules_from_text(module):
    tree = ast.parse((Path(R.__file__).parent / module).read_text())
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not names & {"from_dict", "loads", "_rules"}, module

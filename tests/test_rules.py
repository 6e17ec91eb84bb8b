"""Rules validation and the presets: docs/rules.md sections 1, 2, 4, 6, 7, 8 and 11 (the rules object)."""
import pytest

from simdom.rules import PARAMETERS, PRESETS, Rules, RulesError, from_dict, preset

# docs/rules.md section 8, typed from the table (hand_size / boneyard_reserve keyed by players).
SECTION_8 = {
    "threes": dict(max_pip=6, hand_size={"2": 6, "3": 6, "4": 5}, boneyard_reserve={"2": 0, "3": 0, "4": 0},
                   draw="until_playable", lead="any", spinner="first_double", arms_open="immediately",
                   double_counts="face", divisors=[3], min_ends=3, points="fixed:6",
                   first_double_bonus=[[4, 2], [8, 4], [None, 8]], out_bonus="none", block_bonus="none",
                   bonus_round_to=1, bonus_divisor=1),
    "fives": dict(max_pip=6, hand_size={"2": 7, "3": 7, "4": 7}, boneyard_reserve={"2": 0, "3": 0, "4": 0},
                  draw="until_playable", lead="tile:5-5", spinner="first_double", arms_open="after_both_sides",
                  double_counts="both", divisors=[5], min_ends=1, points="sum", first_double_bonus=[],
                  out_bonus="opponents_pips", block_bonus="opponents_minus_own", bonus_round_to=5,
                  bonus_divisor=5),
    "all-fives": dict(max_pip=6, hand_size={"2": 7, "3": 5, "4": 5}, boneyard_reserve={"2": 0, "3": 0, "4": 0},
                      draw="until_playable", lead="any", spinner="first_double", arms_open="after_both_sides",
                      double_counts="both", divisors=[5], min_ends=1, points="sum", first_double_bonus=[],
                      out_bonus="opponents_pips", block_bonus="opponents_pips", bonus_round_to=5,
                      bonus_divisor=1),
    "muggins": dict(max_pip=6, hand_size={"2": 7, "3": 5, "4": 5}, boneyard_reserve={"2": 0, "3": 0, "4": 0},
                    draw="until_playable", lead="any", spinner="none", arms_open=None, double_counts="both",
                    divisors=[5], min_ends=1, points="sum", first_double_bonus=[], out_bonus="opponents_pips",
                    block_bonus="opponents_pips", bonus_round_to=5, bonus_divisor=1),
    "fives-and-threes": dict(max_pip=6, hand_size={"2": 7, "3": 5, "4": 5},
                             boneyard_reserve={"2": 0, "3": 0, "4": 0}, draw="none", lead="any", spinner="none",
                             arms_open=None, double_counts="both", divisors=[3, 5], min_ends=1, points="quotient",
                             first_double_bonus=[], out_bonus="fixed:1", block_bonus="none", bonus_round_to=1,
                             bonus_divisor=1),
}
SECTION_11_KEYS = {"max_pip", "hand_size", "boneyard_reserve", "draw", "lead", "spinner", "arms_open",
                   "double_counts", "divisors", "min_ends", "points", "first_double_bonus", "out_bonus",
                   "block_bonus", "bonus_round_to", "bonus_divisor", "players"}


def test_s8_preset_names():
    assert set(PRESETS) == set(SECTION_8)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(SECTION_8))
def test_s8_presets_match_the_table(name, players):
    d = preset(name, players=players).to_dict()
    assert d == {**SECTION_8[name], "players": players}


@pytest.mark.parametrize("name", list(SECTION_8))
def test_s11_to_dict_has_exactly_the_trace_keys(name):
    d = preset(name, players=3).to_dict()
    assert set(d) == SECTION_11_KEYS
    assert set(PARAMETERS) == SECTION_11_KEYS
    assert isinstance(d["divisors"], list) and all(isinstance(p, list) for p in d["first_double_bonus"])
    assert set(d["hand_size"]) == {"2", "3", "4"} and set(d["boneyard_reserve"]) == {"2", "3", "4"}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(SECTION_8))
def test_s11_from_dict_round_trips(name, players):
    r = preset(name, players=players, min_ends=2, boneyard_reserve={2: 1, 3: 1, 4: 0}, draw="until_playable")
    back = from_dict(r.to_dict())
    assert back == r and back.to_dict() == r.to_dict()


def test_s8_every_parameter_can_be_overridden():
    r = preset("threes", players=3, max_pip=9, hand_size=[7, 7, 7], boneyard_reserve={2: 2, 3: 0, 4: 0},
               draw="none", lead="tile:0-0", spinner="first_double", arms_open="after_both_sides",
               double_counts="both", divisors=[3, 5], min_ends=2, points="quotient", first_double_bonus=[[3, 1]],
               out_bonus="fixed:2", block_bonus="opponents_minus_own", bonus_round_to=10, bonus_divisor=2)
    d = r.to_dict()
    assert d["max_pip"] == 9 and d["hand_size"] == {"2": 7, "3": 7, "4": 7}
    assert d["boneyard_reserve"] == {"2": 2, "3": 0, "4": 0}
    assert (d["draw"], d["lead"], d["arms_open"], d["double_counts"]) == ("none", "tile:0-0", "after_both_sides", "both")
    assert (d["divisors"], d["min_ends"], d["points"]) == ([3, 5], 2, "quotient")
    assert d["first_double_bonus"] == [[3, 1]]
    assert (d["out_bonus"], d["block_bonus"], d["bonus_round_to"], d["bonus_divisor"]) == (
        "fixed:2", "opponents_minus_own", 10, 2)


# -- every bad value raises RulesError naming the parameter and the allowed values -------------------
BAD = [
    # (id, preset, players, overrides, words the message must contain)
    ("unknown-preset", "threes-and-fives", 4, {}, ["preset", "threes", "fives", "all-fives", "muggins",
                                                   "fives-and-threes"]),
    ("players-5", "threes", 5, {}, ["players", "2", "4"]),
    ("players-1", "threes", 1, {}, ["players", "2", "4"]),
    ("hands-exceed-set", "fives", 4, {"hand_size": 8}, ["hand_size", "28", "7"]),
    ("hands-exceed-set-3", "threes", 3, {"hand_size": [6, 10, 5]}, ["hand_size", "30", "28", "9"]),
    ("hand-size-0", "threes", 4, {"hand_size": 0}, ["hand_size", "from 1 to 91"]),
    ("hand-size-two-values", "threes", 4, {"hand_size": [6, 6]}, ["hand_size", "2, 3, 4"]),
    ("hand-size-missing-key", "threes", 4, {"hand_size": {2: 6, 3: 6}}, ["hand_size", "2, 3, 4"]),
    ("reserve-too-big", "threes", 4, {"boneyard_reserve": 9}, ["boneyard_reserve", "0..8"]),
    ("max-pip-13", "threes", 4, {"max_pip": 13}, ["max_pip", "12"]),
    ("max-pip-1", "threes", 4, {"max_pip": 1}, ["max_pip", "2"]),
    ("min-ends-0", "threes", 4, {"min_ends": 0}, ["min_ends", "1", "4"]),
    ("min-ends-5", "threes", 4, {"min_ends": 5}, ["min_ends", "1", "4"]),
    ("divisors-empty", "threes", 4, {"divisors": []}, ["divisors", "non-empty"]),
    ("divisors-1", "threes", 4, {"divisors": [1]}, ["divisors", "from 2 to 96"]),
    ("divisors-repeated", "threes", 4, {"divisors": [3, 3]}, ["divisors", "distinct"]),
    ("points-unknown", "threes", 4, {"points": "product"}, ["points", "sum", "quotient", "fixed:N"]),
    ("points-fixed-0", "threes", 4, {"points": "fixed:0"}, ["points", "fixed:N"]),
    ("bonus-not-increasing", "threes", 4, {"first_double_bonus": [[4, 2], [4, 3]]},
     ["first_double_bonus", "increasing"]),
    ("bonus-decreasing", "threes", 4, {"first_double_bonus": [[4, 2], [3, 4]]}, ["first_double_bonus", "increasing"]),
    ("bonus-null-not-last", "threes", 4, {"first_double_bonus": [[None, 8], [4, 2]]},
     ["first_double_bonus", "null"]),
    ("bonus-negative-points", "threes", 4, {"first_double_bonus": [[4, -1]]}, ["first_double_bonus", "from 0 to 100"]),
    ("bonus-move-0", "threes", 4, {"first_double_bonus": [[0, 2]]}, ["first_double_bonus", "from 1 to 91"]),
    ("bonus-not-pairs", "threes", 4, {"first_double_bonus": [[4, 2, 1]]}, ["first_double_bonus", "pairs"]),
    ("lead-not-in-set", "fives", 4, {"lead": "tile:7-7"}, ["lead", "tile:A-B", "double-6"]),
    ("lead-not-in-smaller-set", "fives", 4, {"max_pip": 4, "hand_size": 3}, ["lead", "tile:A-B", "double-4"]),
    ("lead-unknown", "fives", 4, {"lead": "first"}, ["lead", "any", "tile:A-B"]),
    ("unknown-parameter", "threes", 4, {"spinners": "none"}, ["spinners", "spinner", "arms_open", "min_ends"]),
    ("draw-unknown", "threes", 4, {"draw": "always"}, ["draw", "until_playable", "none"]),
    ("spinner-unknown", "threes", 4, {"spinner": "every_double"}, ["spinner", "first_double", "none"]),
    ("arms-open-unknown", "threes", 4, {"arms_open": "never"}, ["arms_open", "immediately", "after_both_sides"]),
    ("double-counts-unknown", "threes", 4, {"double_counts": "twice"}, ["double_counts", "face", "both"]),
    ("out-bonus-block-mode", "fives", 4, {"out_bonus": "opponents_minus_own"},
     ["out_bonus", "none", "opponents_pips", "fixed:N"]),
    ("block-bonus-fixed", "fives", 4, {"block_bonus": "fixed:3"},
     ["block_bonus", "none", "opponents_pips", "opponents_minus_own"]),
    ("round-to-0", "fives", 4, {"bonus_round_to": 0}, ["bonus_round_to", "from 1 to 1000"]),
    ("divisor-0", "fives", 4, {"bonus_divisor": 0}, ["bonus_divisor", "from 1 to 1000"]),
    ("min-ends-bool", "threes", 4, {"min_ends": True}, ["min_ends"]),
]


@pytest.mark.parametrize("name,players,overrides,words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_values_raise_rules_error_naming_parameter_and_allowed(name, players, overrides, words):
    with pytest.raises(RulesError) as info:
        preset(name, players=players, **overrides)
    msg = str(info.value)
    assert "allowed" in msg
    for w in words:
        assert w in msg, (w, msg)


def test_s2_hands_may_use_the_whole_set():
    """n * hand_size[n] == set size is valid: an empty boneyard (Fives, 4 players)."""
    r = preset("fives", players=4)
    assert r.players * r.hand == 28


def test_s3_arms_open_with_spinner_none_is_refused_naming_both():
    for value in ("after_both_sides", "immediately"):
        with pytest.raises(RulesError, match="arms_open.*spinner"):
            preset("muggins", players=4, arms_open=value)
    with pytest.raises(RulesError, match="arms_open = 'bogus' is invalid"):
        preset("muggins", players=4, arms_open="bogus")
    # a preset's own arms_open follows an override of spinner
    r = preset("threes", players=4, spinner="none", min_ends=2)
    assert r.arms_open is None and r.to_dict()["arms_open"] is None


def test_s3_spinner_first_double_needs_arms_open():
    with pytest.raises(RulesError, match="arms_open"):
        Rules(spinner="first_double", arms_open=None)
    # a line preset given a spinner gets the Threes arms unless it names its own
    assert preset("muggins", players=4, spinner="first_double").arms_open == "immediately"
    assert preset("muggins", players=4, spinner="first_double",
                  arms_open="after_both_sides").arms_open == "after_both_sides"


def test_s11_from_dict_refuses_unknown_keys():
    d = preset("threes", 4).to_dict()
    d["speed"] = 1
    with pytest.raises(RulesError, match="speed"):
        from_dict(d)


def test_rules_are_frozen_and_hashable():
    r = preset("threes", 4)
    with pytest.raises(Exception):
        r.min_ends = 2  # type: ignore[misc]
    assert hash(r) == hash(preset("threes", 4)) and r == preset("threes", 4)
    assert preset("threes", 4, min_ends=2) != r and r.min_ends == 3

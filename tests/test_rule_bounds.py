"""Every rule parameter has a range (issue 22.1): at its bound a rule set is accepted and its deals fit the
results' integer columns (played, written and read back); just past it the rule set is refused with one
line naming the parameter and its range."""
from __future__ import annotations

import tomllib

import numpy as np
import pyarrow.parquet as pq
import pytest

from simdom import rules as R
from simdom.engine.api import simulate_deals
from simdom.engine.matches import simulate_matches
from simdom.results.tables import COLUMN_TYPES
from simdom.rules import RulesError, preset

INT8, INT16 = 2**7 - 1, 2**15 - 1

#: (parameter, overrides at the bound, overrides just past it, the words of the refusal); the base is
#: the preset named first (players 2), with max_pip 12 where the bound needs the largest set
B = R.MAX_TILES
BOUNDS = [
    ("players-low", "threes", dict(players=2), dict(players=1), ["players = 1", "2 to 4"]),
    ("players-high", "threes", dict(players=4), dict(players=5), ["players = 5", "2 to 4"]),
    ("max_pip-low", "threes", dict(max_pip=2, hand_size=1), dict(max_pip=1, hand_size=1),
     ["max_pip = 1", "2 to 12"]),
    ("max_pip-high", "threes", dict(max_pip=12), dict(max_pip=13), ["max_pip = 13", "2 to 12"]),
    ("hand_size-low", "threes", dict(hand_size=1), dict(hand_size=0), ["hand_size = 0", "1 to 91"]),
    ("hand_size-high", "threes", dict(max_pip=12, hand_size={2: 45, 3: 6, 4: 91}),
     dict(max_pip=12, hand_size={2: 45, 3: 6, 4: 92}), ["hand_size", "1 to 91"]),
    ("hand_size-tiles", "threes", dict(max_pip=12, hand_size=45), dict(max_pip=12, hand_size=46),
     ["hand_size = 46", "91"]),
    ("boneyard_reserve-high", "threes", dict(max_pip=12, hand_size=1, boneyard_reserve={2: 89, 3: 0, 4: 90}),
     dict(max_pip=12, hand_size=1, boneyard_reserve={2: 89, 3: 0, 4: 91}), ["boneyard_reserve", "0 to 90"]),
    ("boneyard_reserve-tiles", "threes", dict(max_pip=12, hand_size=1, boneyard_reserve=89),
     dict(max_pip=12, hand_size=1, boneyard_reserve=90), ["boneyard_reserve = 90", "0..89"]),
    ("divisors-low", "threes", dict(divisors=[2]), dict(divisors=[1]), ["divisors", "2 to 96"]),
    ("divisors-high", "threes", dict(max_pip=12, divisors=[96]), dict(max_pip=12, divisors=[97]),
     ["divisors", "2 to 96"]),
    ("divisors-all", "fives-and-threes", dict(max_pip=12, divisors=list(range(2, 97))),
     dict(max_pip=12, divisors=list(range(2, 98))), ["divisors", "2 to 96"]),
    ("min_ends-low", "threes", dict(min_ends=1), dict(min_ends=0), ["min_ends = 0", "1 to 4"]),
    ("min_ends-high", "threes", dict(min_ends=4), dict(min_ends=5), ["min_ends = 5", "1 to 4"]),
    ("points-low", "threes", dict(points="fixed:1"), dict(points="fixed:0"), ["points", "1 to 300"]),
    ("points-high", "threes", dict(max_pip=12, min_ends=1, divisors=[2], points="fixed:300"),
     dict(max_pip=12, min_ends=1, divisors=[2], points="fixed:301"), ["points = 'fixed:301'", "1 to 300"]),
    ("first_double_bonus-points", "threes", dict(first_double_bonus=[[None, 100]]),
     dict(first_double_bonus=[[None, 101]]), ["first_double_bonus", "0 to 100"]),
    ("first_double_bonus-points-low", "threes", dict(first_double_bonus=[[None, 0]]),
     dict(first_double_bonus=[[None, -1]]), ["first_double_bonus", "0 to 100"]),
    ("first_double_bonus-move", "threes", dict(max_pip=12, first_double_bonus=[[91, 100]]),
     dict(max_pip=12, first_double_bonus=[[92, 100]]), ["first_double_bonus", "1 to 91"]),
    ("first_double_bonus-move-low", "threes", dict(first_double_bonus=[[1, 100]]),
     dict(first_double_bonus=[[0, 100]]), ["first_double_bonus", "1 to 91"]),
    ("out_bonus-low", "threes", dict(out_bonus="fixed:0"), dict(out_bonus="fixed:-1"), ["out_bonus", "0 to 1000"]),
    ("out_bonus-high", "threes", dict(max_pip=12, out_bonus="fixed:1000"), dict(max_pip=12, out_bonus="fixed:1001"),
     ["out_bonus = 'fixed:1001'", "0 to 1000"]),
    ("bonus_round_to-high", "fives", dict(max_pip=12, bonus_round_to=1000, bonus_divisor=1),
     dict(max_pip=12, bonus_round_to=1001, bonus_divisor=1), ["bonus_round_to = 1001", "1 to 1000"]),
    ("bonus_round_to-low", "fives", dict(bonus_round_to=1), dict(bonus_round_to=0), ["bonus_round_to = 0"]),
    ("bonus_divisor-high", "fives", dict(bonus_divisor=1000), dict(bonus_divisor=1001),
     ["bonus_divisor = 1001", "1 to 1000"]),
    ("bonus_divisor-low", "fives", dict(bonus_divisor=1), dict(bonus_divisor=0), ["bonus_divisor = 0"]),
    ("target-low", "fives", dict(target=0), dict(target=-1), ["target = -1", "0 to 100000"]),
    ("target-high", "fives", dict(target=100_000, max_deals=3), dict(target=100_001), ["target = 100001",
                                                                                      "0 to 100000"]),
    ("max_deals-low", "fives", dict(target=61, max_deals=1), dict(target=61, max_deals=0), ["max_deals = 0"]),
    ("max_deals-high", "fives", dict(target=100_000, max_deals=10_000),
     dict(target=100_000, max_deals=10_001), ["max_deals = 10001", "1 to 10000"]),
]

#: the bounded parameters: every parameter of a rule set (the choices have no numbers to bound)
CHOICES = {"draw", "lead", "spinner", "arms_open", "double_counts", "block_bonus", "match_end", "next_lead",
           "teams"}


def make(base: str, over: dict) -> R.Rules:
    over = dict(over)
    return preset(base, players=over.pop("players", 2), **over)


def test_every_numeric_parameter_is_bounded_here():
    named = {name.split("-")[0] for name, *_ in BOUNDS}
    assert named == set(R.ALL_PARAMETERS) - CHOICES


def test_the_bounds_together_fit_the_columns():
    """Every parameter at its bound at once: a seat's deal total fits int16, a bonus int8, a match score
    int32 (two seats of partners over max_deals deals)."""
    fixed = preset("threes", players=2, max_pip=12, min_ends=1, divisors=[2], points="fixed:300",
                   first_double_bonus=[[None, 100]], out_bonus="fixed:1000")
    quotient = preset("fives-and-threes", players=2, max_pip=12, divisors=list(range(2, 97)))
    pips = preset("fives", players=2, max_pip=12, points="fixed:300", first_double_bonus=[[None, 100]],
                  bonus_round_to=1000, bonus_divisor=1)
    worst = max(r.deal_total_bound() for r in (fixed, quotient, pips))
    assert worst == 91 * 300 + 100 + 1000 <= INT16
    assert R.BONUS_POINTS_RANGE[1] <= INT8
    assert 2 * worst * R.MAX_DEALS_RANGE[1] <= 2**31 - 1
    assert pips.end_bonus_bound() == 1000  # 1,092 pips, rounded to the nearest 1,000
    assert COLUMN_TYPES["points_0"].bit_width == 16 and COLUMN_TYPES["tier_now"].bit_width == 8
    assert COLUMN_TYPES["score_0"].bit_width == 32


def play(r: R.Rules, n: int = 40, seed: int = 7) -> np.ndarray:
    """Seat totals of n deals (or of n matches' deals) under ``r``; each fits its bound."""
    if r.is_match:
        d = simulate_matches(r, "greedy", seed, 0, 2).deals
        return np.stack([d[f"points_{s}"] for s in range(r.players)], axis=1)
    return np.asarray(simulate_deals(r, "greedy", seed, 0, n).seats["points"])


@pytest.mark.parametrize("name", [b[0] for b in BOUNDS])
def test_at_the_bound_it_plays_and_fits_past_it_it_is_refused(name):
    _, base, at, past, words = next(b for b in BOUNDS if b[0] == name)
    r = make(base, at)
    pts = play(r)
    assert pts.size and pts.max() <= r.deal_total_bound() <= INT16
    with pytest.raises(RulesError) as e:
        make(base, past)
    text = str(e.value)
    assert "\n" not in text
    for w in words:
        assert w.lower() in text.lower(), (w, text)


def test_the_largest_totals_are_written_and_read_back_whole(tmp_path):
    """A run at the bounds (300 points a placement, 1,000 for going out, double-12, 2 players): the parts
    hold the kernel's totals, never a wrapped int16 (issue 22.1: 40,000 read back as -1,341)."""
    from simdom.run.runner import run
    from simdom.run.scenario import from_dict
    text = ('name = "big"\nplayers = 2\ndeals = 60\nseed = 3\nchunk_size = 30\npolicies = ["greedy", "greedy"]\n'
            '[rules]\npreset = "threes"\nmax_pip = 12\nmin_ends = 1\ndivisors = [2]\npoints = "fixed:300"\n'
            'first_double_bonus = [[4, 100]]\nout_bonus = "fixed:1000"\nhand_size = 20\n')
    run(from_dict(tomllib.loads(text), "big.toml"), tmp_path / "res", workers=1)
    table = pq.read_table(tmp_path / "res" / "deals").sort_by("deal")
    got = np.stack([table["points_0"].to_numpy(), table["points_1"].to_numpy()], axis=1)
    r = preset("threes", players=2, max_pip=12, min_ends=1, divisors=[2], points="fixed:300",
               first_double_bonus=[[4, 100]], out_bonus="fixed:1000", hand_size=20)
    want = play(r, 60, seed=3)
    assert got.max() > 10_000  # the totals are large: the check means something
    assert np.array_equal(got, want)


@pytest.mark.parametrize("item, words", [
    ("points=fixed:99999999999999999999", ["points", "1 to 300"]),
    ("out_bonus=fixed:99999999999", ["out_bonus", "0 to 1000"]),
    ("divisors=[99999999999999999999]", ["divisors", "2 to 96"]),
    ("target=99999999999999999999", ["target", "0 to 100000"]),
    ("max_deals=99999999999999999999", ["max_deals", "1 to 10000"]),
    ("hand_size=99999999999999999999", ["hand_size", "1 to 91"]),
    ("first_double_bonus=[[99999999999999999999, 2]]", ["first_double_bonus", "1 to 91"]),
    ("first_double_bonus=[[null, 99999999999999999999]]", ["first_double_bonus", "0 to 100"]),
    ("bonus_divisor=99999999999999999999", ["bonus_divisor", "1 to 1000"]),
    ("max_pip=" + "9" * 5000, ["max_pip", "2 to 12"]),
    ("points=fixed:" + "9" * 5000, ["points", "1 to 300"]),
    ("points=fixed:\u00b2", ["points", "1 to 300"]),
    ("lead=tile:\u00b2-3", ["lead", "tile:a-b"]),
])
def test_huge_integers_in_set_are_refused(tmp_path, item, words):
    from badinput import check
    rules = "fives" if item.startswith(("bonus_divisor", "target", "max_deals")) else "threes"
    args = ["rules", rules, "--set", item]
    if item.startswith("max_deals"):
        args += ["--set", "target=61"]
    msg = check(tmp_path, args, words)
    assert len(msg) < 400


def test_huge_integers_in_a_scenario_are_refused(tmp_path):
    from badinput import check
    (tmp_path / "s.toml").write_text('name = "s"\nplayers = 2\ndeals = 10\nseed = 1\npolicies = ["greedy", "greedy"]\n'
                                     '[rules]\npreset = "threes"\npoints = "fixed:99999999999999999999"\n'
                                     'divisors = [99999999999999999999]\n')
    check(tmp_path, ["run", "s.toml", "--out", "o", "-q"], ["divisors", "2 to 96"])

"""One invariant harness over every preset x 2, 3, 4 players x every registered policy.

Each case traces deals with :func:`simdom.engine.api.trace` and checks every one with the independent
referee (tests/reference.py: legality, draws, passes, points, bonuses, end of deal, end bonus, totals,
and the choices of the deterministic policies), plus: every tile in exactly one place at every step,
every deal ends, totals add up, every scoring placement's S is divisible by a divisor, and the batch
kernel (:func:`simulate_deals`) gives the same per-seat and per-deal rows as the traces of the same deals.
"""
import numpy as np
import pytest

from reference import Referee, full_set, parse
from simdom.engine.api import simulate_deals
from simdom.engine.state import trace
from simdom.engine.codes import DealEnd
from simdom.policies import REGISTRY
from simdom.rules import PRESETS, preset

DEALS = 36
SEED = 20240611
POLICY_TEXT = {"rollout": "rollout:samples=2", "hold": "hold:until=9",   # the searching ones kept cheap
               "search": "search:worlds=2", "expert": "expert:worlds=2"}
POLICIES = [POLICY_TEXT.get(name, name) for name in REGISTRY]
MIXED = ["greedy", "random", "heavy", "hold:until=never"]


def rows_from_trace(rec):
    """The batch rows (layout.SEAT_COLS subset, DEAL_COLS subset) a trace implies."""
    n = rec["rules"]["players"]
    plays = [a for a in rec["actions"] if a["act"] == "play"]
    seat = []
    for s in range(n):
        mine = [a for a in rec["actions"] if a["seat"] == s]
        seat.append({
            "points": rec["totals"][s],
            "play_points": sum(a["points"] for a in mine if a["act"] == "play"),
            "bonus": sum(a["bonus"] for a in mine if a["act"] == "play"),
            "end_bonus": rec["end_bonus"][s],
            "scoring_plays": sum(a["act"] == "play" and a["points"] > 0 for a in mine),
            "plays": sum(a["act"] == "play" for a in mine),
            "draws": sum(a["act"] == "draw" for a in mine),
            "passes": sum(a["act"] == "pass" for a in mine),
        })
    deal = {"first_seat": rec["first"], "end": DealEnd.parse(rec["end"]),
            "tiles_placed": len(plays)}
    fd = next((i + 1 for i, a in enumerate(plays) if parse(a["tile"])[0] == parse(a["tile"])[1]), 0)
    deal["first_double_move"] = fd
    if rec["rules"]["spinner"] == "first_double":
        deal["spinner_move"] = fd
    return seat, deal


def check_deal(rec, policies):
    """The referee's problems and the harness's own checks; returns (problems, referee)."""
    ref = Referee(rec, policies)
    problems = list(ref.run())
    if problems:
        return problems, ref
    rules = rec["rules"]
    whole = full_set(rules["max_pip"])
    for i, (hands, bone, lay) in enumerate(ref.snapshots):
        where = [t for h in hands for t in h] + list(bone) + list(lay)
        if sorted(where) != whole:
            problems.append(f"after action {i - 1}: the tiles are not each in exactly one place")
    if rec["end"] not in ("domino", "blocked"):
        problems.append(f"the deal did not end: {rec['end']!r}")
    n = rules["players"]
    for s in range(n):
        mine = [a for a in rec["actions"] if a["act"] == "play" and a["seat"] == s]
        want = sum(a["points"] + a["bonus"] for a in mine) + rec["end_bonus"][s]
        if rec["totals"][s] != want:
            problems.append(f"seat {s}: total {rec['totals'][s]} != placements + bonuses + end bonus = {want}")
    for p in ref.plays:
        if p.points > 0 and not (p.k >= rules["min_ends"] and p.s > 0
                                 and any(p.s % d == 0 for d in rules["divisors"])):
            problems.append(f"move {p.move}: scores {p.points} with k = {p.k}, S = {p.s}")
    if rec["end"] == "domino" and sum(not h for h in ref.snapshots[-1][0]) != 1:
        problems.append("a domino with no empty hand")
    return problems, ref


@pytest.mark.parametrize("policy", POLICIES + ["mixed"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", PRESETS)
def test_s2_to_s7_invariants_every_preset_players_and_policy(name, players, policy):
    rules = preset(name, players=players)
    pols = MIXED[:players] if policy == "mixed" else policy
    if policy == "clairvoyant":  # it needs deterministic opponents (against its own kind it is refused)
        pols = ["clairvoyant"] + ["greedy"] * (players - 1)
    deals = DEALS if not policy.startswith(("rollout", "clairvoyant", "search")) else DEALS // 4
    deal0 = 1000 * players
    batch = simulate_deals(rules, pols, SEED, deal0, deals)
    for i in range(deals):
        rec = trace(rules, pols, SEED, deal0 + i)
        assert rec["deal"] == deal0 + i and rec["seed"] == SEED
        problems, ref = check_deal(rec, pols)
        assert not problems, f"deal {deal0 + i}: {problems[:5]}"
        seat_rows, deal_row = rows_from_trace(rec)
        for s, want in enumerate(seat_rows):
            got = {k: int(batch.seats[k][i, s]) for k in want}
            assert got == want, f"deal {deal0 + i} seat {s}: batch {got} != trace {want}"
        got = {k: int(batch.deals[k][i]) for k in deal_row}
        assert got == deal_row, f"deal {deal0 + i}: batch {got} != trace {deal_row}"
        went_out = [int(x) for x in batch.seats["went_out"][i]]
        assert went_out == [int(not h) for h in ref.snapshots[-1][0]]


@pytest.mark.parametrize("name", PRESETS)
def test_same_seed_same_traces(name):
    rules = preset(name, players=3)
    for d in (0, 7):
        assert trace(rules, "random", 5, d) == trace(rules, "random", 5, d)
    assert trace(rules, "random", 5, 1) != trace(rules, "random", 6, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", PRESETS)
def test_deal_i_is_independent_of_chunking(name, players):
    rules = preset(name, players=players)
    for pol in ("random", "greedy"):
        a = simulate_deals(rules, pol, 17, 0, 10)
        b = simulate_deals(rules, pol, 17, 5, 5)
        one = simulate_deals(rules, pol, 17, 7, 1)
        for c in (*a.seats, *a.deals):
            np.testing.assert_array_equal(a.column(c)[5:], b.column(c))
            np.testing.assert_array_equal(a.column(c)[7:8], one.column(c))


def test_s7_pips_left_and_went_out_match_the_trace():
    rules = preset("all-fives", players=3)
    b = simulate_deals(rules, "random", 2, 0, 20)
    for i in range(20):
        ref = Referee(trace(rules, "random", 2, i))
        assert ref.run() == []
        left = [sum(a + c for a, c in h) for h in ref.snapshots[-1][0]]
        assert list(b.seats["pips_left"][i]) == left


# ---- the referee is not vacuous: it catches broken records -------------------------------------------
def _first(rec, pred):
    return next(i for i, a in enumerate(rec["actions"]) if pred(a))


def _find(name, players, pred, policy="random", seed=1):
    rules = preset(name, players=players)
    for d in range(500):
        rec = trace(rules, policy, seed, d)
        if pred(rec):
            return rec
    raise AssertionError("no such deal")


def _mutated(rec, change):
    import copy
    bad = copy.deepcopy(rec)
    change(bad)
    return Referee(bad).run()


def test_referee_catches_broken_records():
    has_draw = _find("threes", 4, lambda r: any(a["act"] == "draw" for a in r["actions"]))
    i_play = _first(has_draw, lambda a: a["act"] == "play" and a["end"] != "lead")
    i_draw = _first(has_draw, lambda a: a["act"] == "draw")
    assert Referee(has_draw).run() == []

    def wrong_points(r):
        r["actions"][i_play]["points"] += 6
    assert any("points" in p for p in _mutated(has_draw, wrong_points))

    def wrong_end(r):
        a = r["actions"][i_play]
        a["end"] = "D" if a["end"] != "D" else "U"
    assert _mutated(has_draw, wrong_end)

    def wrong_draw(r):
        r["actions"][i_draw]["tile"] = r["boneyard"][-1]
    assert _mutated(has_draw, wrong_draw)

    def extra_action(r):
        r["actions"].append({"seat": 0, "act": "pass"})
    assert _mutated(has_draw, extra_action)

    def drop_last(r):
        r["actions"].pop()
    assert _mutated(has_draw, drop_last)

    def wrong_total(r):
        r["totals"][0] += 1
    assert any("totals" in p for p in _mutated(has_draw, wrong_total))

    def swap_boneyard(r):
        r["boneyard"][0], r["boneyard"][1] = r["boneyard"][1], r["boneyard"][0]
    assert _mutated(has_draw, swap_boneyard)

    def wrong_first(r):
        r["first"] = (r["first"] + 1) % 4
    assert _mutated(has_draw, wrong_first)

    def wrong_end_kind(r):
        r["end"] = "blocked" if r["end"] == "domino" else "domino"
    assert _mutated(has_draw, wrong_end_kind)

    blocked = _find("all-fives", 3, lambda r: r["end"] == "blocked" and max(r["end_bonus"]) > 0)

    def wrong_bonus(r):
        r["end_bonus"][r["end_bonus"].index(max(r["end_bonus"]))] += 5
    assert any("end_bonus" in p for p in _mutated(blocked, wrong_bonus))

    # a greedy record presented as heavy (or a random one as greedy) breaks the policy check
    g = _find("threes", 4, lambda r: Referee(r, "heavy").run() != [], policy="greedy")
    assert Referee(g, "greedy").run() == []


def test_s5_referee_catches_a_pass_with_a_playable_tile_and_a_draw_while_holding_one():
    rec = _find("threes", 2, lambda r: any(a["act"] == "pass" for a in r["actions"]), policy="greedy")
    i = _first(rec, lambda a: a["act"] == "play" and a["end"] != "lead")
    import copy
    bad = copy.deepcopy(rec)
    bad["actions"][i] = {"seat": bad["actions"][i]["seat"], "act": "pass"}
    assert any("passes while holding" in p for p in Referee(bad).run())
    bad = copy.deepcopy(rec)
    bad["actions"][i] = {"seat": bad["actions"][i]["seat"], "act": "draw", "tile": bad["boneyard"][0]}
    assert any("draws while holding" in p for p in Referee(bad).run())

"""The policies that search with the exact solver: clairvoyant (sees everything: the solver's best move
against the other seats' policies) and search (fair: determinised search over sampled deals). That
search sees only its information set is checked with every fair policy in tests/test_policies.py."""
import numpy as np
import pytest

from reference import check
from simdom.engine.api import simulate_deals
from simdom.engine.codes import End
from simdom.engine.solver import Solver
from simdom.engine.state import DealState, trace
from simdom.policies import PolicyError, parse_policy, seat_policies
from simdom.rules import preset
from simdom.tiles import parse_tile


def replayed(rules, rec):
    """(state before each placement, the placement) of a trace record."""
    mp = rules.max_pip
    st = DealState(rules, [[parse_tile(t, mp) for t in h] for h in rec["hands"]],
                   [parse_tile(t, mp) for t in rec["boneyard"]], rec["first"])
    for a in rec["actions"]:
        if a["act"] == "play":
            st.advance()
            yield st.copy(), (parse_tile(a["tile"], mp), End.parse(a["end"]))
            st.play(parse_tile(a["tile"], mp), End.parse(a["end"]))


@pytest.mark.parametrize("name,players", [("threes", 2), ("fives", 2), ("threes", 3), ("fives", 4)])
def test_clairvoyant_plays_the_solvers_best_move_against_the_other_seats(name, players):
    """The policy's null-window root (solve.py solve_best) plays the first listed of the moves that
    simdom solve --against values best (every value exact), with two sides and with several."""
    rules = preset(name, players)
    lineup = ["clairvoyant"] + ["greedy"] * (players - 1)
    solver = Solver(rules)
    checked = 0
    for deal in range(4):
        rec = trace(rules, lineup, 3, deal)
        assert check(rec) == []  # the independent referee replays it
        for st, played in replayed(rules, rec):
            if st.turn == 0 and len(st.legal()) > 1:
                sol = solver.solve(st, against="greedy")
                best = [(m.tile, m.end) for m in sol.moves if m.value == sol.value]
                assert played == best[0], (deal, played, sol.moves)
                checked += 1
    assert checked >= 8


def test_clairvoyant_needs_deterministic_opponents_unless_minimax():
    with pytest.raises(PolicyError, match="seat 1 plays random; allowed there: greedy, heavy"):
        seat_policies(["clairvoyant", "random"], 2)
    with pytest.raises(PolicyError, match="seat 2 plays search:worlds=256,model=greedy,depth=1,own=defensive,win=40"):
        seat_policies(["clairvoyant", "greedy", "search"], 3)
    assert len(seat_policies(["clairvoyant:against=minimax", "random"], 2)) == 2
    assert str(parse_policy("search:worlds=8,model=minimax,depth=4")) == "search:worlds=8,model=minimax,depth=4,own=defensive,win=40"
    for bad, says in [("search:worlds=0", "integer from 1 to 1,000"), ("search:model=max", "greedy or minimax"),
                      ("search:depth=93", "from 0 \\(no horizon\\) to 92"), ("clairvoyant:against=x", "seats or minimax")]:
        with pytest.raises(PolicyError, match=says):
            parse_policy(bad)


def test_clairvoyant_budget_does_not_depend_on_the_deals_searched_before():
    """Threes, 2 players, seed 1: deal 9 with clairvoyant in seat 1 needs tens of millions of positions
    at its first decision. Under a small budget the searches stop early and deepen by horizons instead,
    so a deal's play must not depend on what the solver's table held from the deals before it: a batch
    of deals gives every deal exactly as it is alone."""
    rules = preset("threes", 2)
    lineup = ["greedy", "clairvoyant:nodes=20000"]
    batch = simulate_deals(rules, lineup, 1, 0, 12)
    for deal in range(12):
        alone = simulate_deals(rules, lineup, 1, deal, 1)
        assert (alone.seats["points"][0] == batch.seats["points"][deal]).all(), deal
    rec = trace(rules, lineup, 1, 9)
    assert check(rec) == []


def test_clairvoyant_within_its_budget_is_exact_and_its_budget_parses():
    """A budget no decision reaches plays exactly as the default (exact), on 2-player Fives deals; a
    budget that one decision exceeds (seed 5, deal 7, move 2: millions of positions) changes that
    decision only; the budget's spelling round-trips and bad budgets name what is allowed."""
    rules = preset("fives", 2)
    exact = simulate_deals(rules, ["clairvoyant", "greedy"], 5, 0, 7)
    assert (simulate_deals(rules, ["clairvoyant:nodes=1000000", "greedy"], 5, 0, 7).seats["points"]
            == exact.seats["points"]).all()
    st = DealState.dealt(rules, 5, 7)
    st.play(*st.choice("greedy", 0))
    st.advance()
    assert st.turn == 0 and st.move_number + 1 == 2
    full, capped = st.choice("clairvoyant", 0), st.choice("clairvoyant:nodes=100000", 0)
    values = {(m.tile, m.end): m.value for m in Solver(rules).solve(st, against="greedy", limit=None).moves}
    assert values[full] == max(values.values()) and values[capped] <= values[full]
    assert str(parse_policy("clairvoyant")) == "clairvoyant:against=seats,nodes=none,by=margin"
    assert str(parse_policy("clairvoyant:nodes=5000")) == "clairvoyant:against=seats,nodes=5000,by=margin"
    for bad in ("clairvoyant:nodes=999", "clairvoyant:nodes=x", "clairvoyant:nodes=0"):
        with pytest.raises(PolicyError, match="from 1,000 to 10,000,000,000, or none"):
            parse_policy(bad)


@pytest.mark.parametrize("name,players", [("threes", 4), ("fives", 2), ("all-fives", 3)])
def test_search_traces_follow_the_rules_and_repeat(name, players):
    rules = preset(name, players)
    for pol in ("search:worlds=4", "search:worlds=3,model=minimax,depth=3"):
        lineup = [pol] + ["greedy"] * (players - 1)
        for deal in range(3):
            rec = trace(rules, lineup, 5, deal)
            assert check(rec) == []
            assert trace(rules, lineup, 5, deal) == rec  # deterministic from its seat's stream


@pytest.mark.slow
@pytest.mark.parametrize("name", ["threes", "fives"])
def test_search_and_clairvoyant_beat_greedy_paired_with_rotation(name):
    """On the same deals, in both seats (rotation), against greedy: search and clairvoyant gain points
    per deal over greedy (95% intervals above 0; clairvoyant, which solves whole deals, on fewer)."""
    rules = preset(name, 2)

    def gain(pol, n):
        a = simulate_deals(rules, [pol, "greedy"], 11, 0, n).seats["points"].astype(float)
        b = simulate_deals(rules, ["greedy", pol], 11, 0, n).seats["points"].astype(float)
        g = simulate_deals(rules, ["greedy", "greedy"], 11, 0, n).seats["points"].astype(float)
        d = (a[:, 0] - g[:, 0] + b[:, 1] - g[:, 1]) / 2  # per deal: the policy's points minus greedy's there
        return d.mean(), d.std(ddof=1) / np.sqrt(n)

    s, se = gain("search", 600)
    c, ce = gain("clairvoyant", 60)
    assert s - 1.96 * se > 0, (s, se)
    assert c - 1.96 * ce > 0, (c, ce)


@pytest.mark.parametrize("name,players", [("threes", 2), ("fives", 4), ("all-fives", 3)])
def test_search_one_placement_deep_with_greedy_later_moves_is_rollout(name, players):
    """search:depth=1,own=greedy,win=0 places each move in each world and lets greedy play every seat to the
    end, from the same worlds (the seat's stream) as rollout: the same moves, deal for deal, as
    rollout with as many samples. With own=defensive the seat's later moves differ, and so do some of
    its choices."""
    rules = preset(name, players)
    others = ["greedy"] * (players - 1)
    differ = 0
    for deal in range(6):
        rec = trace(rules, ["rollout:samples=8"] + others, 9, deal)
        assert trace(rules, ["search:worlds=8,depth=1,own=greedy,win=0"] + others, 9, deal)["actions"] == rec["actions"]
        mine = trace(rules, ["search:worlds=8,depth=1,own=defensive"] + others, 9, deal)
        assert check(mine) == []
        differ += mine["actions"] != rec["actions"]
    assert differ > 0


def test_search_own_parses_and_bad_values_are_refused():
    assert str(parse_policy("search")) == "search:worlds=256,model=greedy,depth=1,own=defensive,win=40"
    with pytest.raises(PolicyError, match="own = .rollout. is invalid; allowed: greedy or defensive"):
        parse_policy("search:own=rollout")


def test_search_win_bonus_changes_some_choices_and_keeps_the_rules():
    """win=B adds B% of the margins' spread per won world: B=0 is the summed margin alone; a large B
    prefers the moves that win more worlds, and somewhere that is another move."""
    rules = preset("fives", 2)
    differ = 0
    for deal in range(8):
        a = trace(rules, ["search:worlds=16,win=0", "greedy"], 4, deal)
        b = trace(rules, ["search:worlds=16,win=1000", "greedy"], 4, deal)
        assert check(b) == []
        differ += a["actions"] != b["actions"]
    assert differ > 0

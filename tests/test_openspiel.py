"""simdom.openspiel: python_simdom as a pyspiel game (issue 21.3), with the real OpenSpiel."""
from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import simdom.openspiel  # noqa: F401  (registers python_simdom)
from simdom.engine.codes import End
from simdom.engine.state import trace
from simdom.openspiel import N_ENDS
from simdom.rules import PRESETS, preset
from simdom.tiles import parse_tile

END = {e.label: int(e) for e in End}


def load(name="threes", players=4, **extra):
    return pyspiel.load_game("python_simdom", {"rules": name, "players": players, **extra})


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", PRESETS)
def test_random_sim_test_passes_for_every_preset_and_player_count(name, players):
    game = load(name, players)
    assert game.num_players() == players
    assert game.num_distinct_actions() == preset(name, players).n_tiles * N_ENDS
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_overrides_and_zero_sum_margins():
    game = load("fives", 3, overrides='{"min_ends": 2, "max_pip": 9}', returns="margins")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == preset("fives", 3, max_pip=9).n_tiles * N_ENDS
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    with pytest.raises(Exception, match="min_ends"):
        load("threes", 4, overrides='{"min_ends": 9}')
    with pytest.raises(Exception, match="allowed: threes"):
        load("poker", 4)


def replay(game, rec, max_pip):
    """Play a simdom trace record's deal and actions in the pyspiel game; returns the final state."""
    s = game.new_initial_state()
    for hand in rec["hands"]:
        for t in hand:
            assert s.is_chance_node()
            s.apply_action(parse_tile(t, max_pip))
    if s.is_chance_node():            # the lot for the leader
        s.apply_action(rec["first"])
    for a in rec["actions"]:
        if a["act"] == "draw":
            assert s.is_chance_node()
            s.apply_action(parse_tile(a["tile"], max_pip))
        elif a["act"] == "play":
            assert s.current_player() == a["seat"]
            s.apply_action(parse_tile(a["tile"], max_pip) * N_ENDS + END[a["end"]])
    return s


@pytest.mark.parametrize("name,players,deal", [("threes", 4, 3), ("threes", 2, 5), ("fives", 2, 1),
                                               ("fives", 4, 2), ("muggins", 3, 4), ("fives-and-threes", 4, 0)])
def test_returns_equal_simdoms_totals_for_a_traces_actions(name, players, deal):
    rules = preset(name, players)
    rec = trace(rules, "greedy", 11, deal)
    if (name, players) in (("threes", 2), ("fives", 2)):   # these deals draw: the draws' chance nodes are met
        assert any(a["act"] == "draw" for a in rec["actions"])
    s = replay(load(name, players), rec, rules.max_pip)
    assert s.is_terminal()
    assert s.returns() == [float(t) for t in rec["totals"]]
    margins = replay(load(name, players, returns="margins"), rec, rules.max_pip).returns()
    assert margins == pytest.approx([t - np.mean(rec["totals"]) for t in rec["totals"]])


def test_a_seat_sees_only_what_it_may_know():
    """Two deals that differ only in the hidden tiles look the same to a seat: the other hands and
    the boneyard re-dealt by resample_from_infostate leave its observations unchanged, and it differs
    from the true state in what the other seats hold."""
    game = load("threes", 4)
    rng = np.random.RandomState(3)
    s = game.new_initial_state()
    seen_different = 0
    for _ in range(200):
        if s.is_terminal():
            break
        if s.is_chance_node():
            out, p = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(out, p=p)))
            continue
        p = s.current_player()
        w = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert w.information_state_string(p) == s.information_state_string(p)
        assert w.observation_string(p) == s.observation_string(p)
        assert w.information_state_tensor(p) == s.information_state_tensor(p)
        assert w.observation_tensor(p) == s.observation_tensor(p)
        assert w.legal_actions() == s.legal_actions()
        others = [o for o in range(4) if o != p]
        seen_different += any(w.deal.hand(o) != s.deal.hand(o) for o in others)
        for o in others:
            assert len(w.deal.hand(o)) == len(s.deal.hand(o))
            assert w.observation_string(o) != s.observation_string(o) or w.deal.hand(o) == s.deal.hand(o)
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert s.is_terminal() and seen_different > 0


def played_out(game, bot, rng):
    """A deal of ``game`` played to its end by ``bot`` at every seat, chance drawn from ``rng``; every move
    the bot makes is legal."""
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            out, p = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(out, p=p)))
        else:
            a = bot.step(s)
            assert a in s.legal_actions()
            s.apply_action(a)
    return s


def test_ismcts_bot_plays_a_deal():
    game = load("threes", 2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 20,
                           random_state=np.random.RandomState(0))
    rng = np.random.RandomState(5)
    s = played_out(game, bot, rng)
    assert s.returns() == [float(t) for t in s.totals()] and sum(s.returns()) > 0


def test_mcts_bot_plays_a_deal():
    """OpenSpiel's MCTS bot (it searches the true state: a clairvoyant player) plays a Fives deal."""
    game = load("fives", 3)
    bot = mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    rng = np.random.RandomState(2)
    s = played_out(game, bot, rng)
    assert s.returns() == [float(t) for t in s.totals()]

"""simdom.pettingzoo: the AEC environment (issue 21.3), with the real PettingZoo."""
from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from simdom.pettingzoo import env

# api_test warns about every env whose observation is a dict of an observation and an action mask (as
# PettingZoo's own classic games are)
pytestmark = pytest.mark.filterwarnings("ignore:Observation")


@pytest.mark.parametrize("rules,players", [("threes", 4), ("fives", 2), ("fives-and-threes", 3)])
def test_api_test_passes(rules, players):
    api_test(env(rules=rules, players=players), num_cycles=60, verbose_progress=False)


def test_the_same_seed_plays_the_same_deal():
    seed_test(lambda: env(rules="threes", players=4), num_cycles=30)


def play_masked(e, seed):
    """Play a deal choosing uniformly among the masked actions; returns the final rewards."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        final[agent] = reward
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() >= 1 and obs["observation"].dtype == np.float32
        for other in e.agents:            # only the agent to act has legal actions
            if other != agent:
                assert e.observe(other)["action_mask"].sum() == 0
        e.step(int(rng.choice(np.flatnonzero(mask))))
    return final


def test_rewards_are_simdoms_deal_totals_and_margins():
    e = env(rules="threes", players=3)
    final = play_masked(e, 4)
    assert [final[a] for a in e.possible_agents] == [float(t) for t in e.game_state.totals()]
    m = env(rules="threes", players=3, returns="margins")
    margins = play_masked(m, 4)
    assert sum(margins.values()) == pytest.approx(0.0)
    assert [margins[a] for a in m.possible_agents] == pytest.approx(
        [t - np.mean(e.game_state.totals()) for t in e.game_state.totals()])


def test_an_illegal_action_is_refused():
    e = env(rules="threes", players=2)
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)
    with pytest.raises(ValueError, match="is not legal"):
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_the_modules_doctests_pass():
    import doctest

    import simdom.openspiel
    import simdom.pettingzoo
    for module in (simdom.openspiel, simdom.pettingzoo):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__

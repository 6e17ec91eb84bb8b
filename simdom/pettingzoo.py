"""simdom as a PettingZoo AEC environment: ``simdom.pettingzoo.env(rules="threes", players=4)``.

    >>> from simdom.pettingzoo import env
    >>> e = env(rules="threes", players=2)
    >>> e.reset(seed=1)
    >>> e.agent_selection in e.agents, int(e.action_space(e.agents[0]).n)
    (True, 140)

One deal of a simdom rule set (any preset of simdom/rules.py, 2-4 players, ``overrides`` a dict of rule
parameters) played by the agents ``player_0`` .. ``player_{n-1}`` (seat order). It is the OpenSpiel
game of :mod:`simdom.openspiel` with its chance nodes (the deal, the lot, the draws) sampled by the
environment's random generator (``reset(seed=...)``), so the rules are simdom's own engine's:

* action ``tile * 5 + end`` (End: 0 L, 1 R, 2 U, 3 D, 4 lead), ``Discrete(n_tiles * 5)``; passes and
  draws are forced, never an action (docs/rules.md 5);
* observation: ``{"observation": the seat's observation tensor (its hand, the layout, who placed what,
  counts, scores, the values each seat was seen unable to play; nothing it may not know),
  "action_mask": 1 for each legal action of the agent to act}``;
* ``env.game_state``: the underlying :class:`simdom.openspiel.SimdomState` (not AECEnv's ``state()``);
* rewards at the end of the deal only: each seat's deal total (``returns="totals"``, simdom's
  ``totals``) or that total minus the mean of all totals (``returns="margins"``, zero-sum).
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from . import openspiel as _os


def env(rules: str = "threes", players: int = 4, overrides: dict[str, Any] | None = None,
        returns: str = "totals", render_mode: str | None = None) -> "SimdomEnv":
    """The AEC environment of one deal of ``rules`` for ``players`` seats."""
    return SimdomEnv(rules=rules, players=players, overrides=overrides, returns=returns, render_mode=render_mode)


class SimdomEnv(AECEnv):
    """One deal as a native PettingZoo AEC environment with action masks (see the module doc)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "simdom_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "threes", players: int = 4, overrides: dict[str, Any] | None = None,
                 returns: str = "totals", render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode = {render_mode!r}; allowed: None, human, ansi")
        self.game = _os.SimdomGame({"rules": rules, "players": players, "returns": returns,
                                    "overrides": json.dumps(overrides or {})})
        self.rules = self.game.rules
        self.render_mode = render_mode
        self._observer = self.game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
        n_obs, n_act = self._observer.tensor.size, self.game.num_distinct_actions()
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (n_obs,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
        })
        self._act_space = spaces.Discrete(n_act)
        self.np_random, _ = seeding.np_random(None)
        self.game_state: _os.SimdomState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    # -- the deal ------------------------------------------------------------------------------
    def _chance(self) -> None:
        s = self.game_state
        while s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(int(self.np_random.choice(outcomes, p=probs)))

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.game_state = self.game.new_initial_state()
        self._chance()
        self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        self._observer.set_from(self.game_state, seat)
        mask = np.zeros(self._act_space.n, np.int8)
        if not self.game_state.is_terminal() and self.game_state.current_player() == seat:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self._observer.tensor.copy(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.game_state
        if action is None or int(action) not in s.legal_actions():
            raise ValueError(f"{agent}: action {action} is not legal; allowed: {s.legal_actions()}")
        s.apply_action(int(action))
        self._chance()
        self._cumulative_rewards[agent] = 0.0
        if s.is_terminal():
            for a, r in zip(self.possible_agents, s.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[s.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = str(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

"""OpenSpiel's ISMCTS bot against a simdom policy in python_simdom (docs/openspiel.md).

    .venv/bin/python bench/ismcts_tournament.py --deals 12 --sims 100 --policy greedy

Each deal is played twice with the seats swapped (the same chance outcomes both times, so the deal's luck
cancels); prints the bot's mean margin (its total minus the policy's) and its share of wins."""
from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import simdom.openspiel  # noqa: F401  (registers python_simdom)
from simdom.openspiel import N_ENDS


class GreedyRolloutEvaluator(mcts.Evaluator):
    """A leaf's value: the deal played to its end by simdom's greedy for every seat (the boneyard, whose
    order the game draws as chance nodes, shuffled first); uniform priors."""

    def __init__(self, seed: int = 0):
        self._rng = np.random.RandomState(seed)

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        d = state.deal.copy()
        bone = state.boneyard_tiles()
        self._rng.shuffle(bone)
        d.set_hidden({}, bone)
        d.play_out("greedy", int(self._rng.randint(2**31)))
        t = np.array(d.totals(), dtype=float)
        return t - t.mean() if state.margins else t

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def play(game, bot, policy: str, bot_seat: int, deal_seed: int) -> list[float]:
    chance = np.random.RandomState(deal_seed)
    s = game.new_initial_state()
    key = deal_seed * 1000
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(int(chance.choice(outcomes, p=probs)))
        elif s.current_player() == bot_seat:
            s.apply_action(bot.step(s))
        else:
            key += 1
            t, e = s.deal.choice(policy, key)
            s.apply_action(t * N_ENDS + int(e))
    return s.returns()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="threes")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--sims", type=int, default=100)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--evaluator", default="random", choices=("random", "greedy"))
    ap.add_argument("--uct", type=float, default=2.0)
    a = ap.parse_args()
    game = pyspiel.load_game("python_simdom", {"rules": a.rules, "players": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)) if a.evaluator == "random" \
        else GreedyRolloutEvaluator(0)
    bot = ismcts.ISMCTSBot(game, evaluator, a.uct, a.sims, random_state=np.random.RandomState(1))
    margins, wins, t0 = [], [], time.time()
    for d in range(a.deals):
        for seat in (0, 1):
            r = play(game, bot, a.policy, seat, 1 + d)
            m = r[seat] - r[1 - seat]
            margins.append(m)
            wins.append(1.0 if m > 0 else 0.5 if m == 0 else 0.0)
    m = np.array(margins)
    print(f"ISMCTS ({a.sims} simulations, {a.evaluator} rollouts, uct {a.uct}) against {a.policy}, {a.rules} 2 players, "
          f"{len(m)} games: mean margin {m.mean():+.2f} +- {1.96 * m.std(ddof=1) / np.sqrt(len(m)):.2f} (95%), "
          f"wins {np.mean(wins):.3f}, {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()

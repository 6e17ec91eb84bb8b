"""The equilibrium of a small 2-player version, exactly (docs/equilibrium.md): the game tree built by the
engine (simdom.engine.gametree), CFR+ to a stated exploitability, exact best replies to the equilibrium
and to any compiled policy, and the first double's hold at the optimum.

Values are seat 0's, in the two currencies: the margin (seat 0's deal total minus seat 1's, points) and
the win (1, a tie 1/2, 0). An edge is the average over the two seatings, so a win edge is a share of a
deal above one half (0.0532 = 5.32 points of wins).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ..engine.gametree import GameTree, build_tree
from ..engine.treepolicy import policy_strategy
from ..rules import Rules
from . import cfr

#: what the solver maximises: seat 0's margin, or its share of the win
OBJECTIVES = ("margin", "win")
#: the default exploitability the solve stops at: points of margin, share of a deal
TOLERANCE = {"margin": 0.005, "win": 0.0005}
#: the most CFR+ iterations of one solve
MAX_ITERS = 20_000

Progress = Callable[[str, float], None]


def _u(tree: GameTree, objective: str) -> np.ndarray:
    return tree.margin if objective == "margin" else tree.win


def _args(tree: GameTree, objective: str):
    return tree.who, tree.first, tree.nkids, tree.prob, _u(tree, objective), tree.iset, tree.act_off


def best_reply(tree: GameTree, objective: str, strat: np.ndarray, seat: int) -> float:
    """The value to ``seat`` (its margin, or seat 0's win share as seat 0 / minus it as seat 1) of its
    exact best fair reply to ``strat``."""
    return float(cfr.best_response(*_args(tree, objective), tree.levels, seat, strat)[0])


def exploitability(tree: GameTree, objective: str, strat: np.ndarray) -> float:
    """OpenSpiel's exploitability (NashConv / 2) of the profile ``strat``: the mean over the seats of what a
    best reply gains over the game's value, in the objective's units."""
    return (best_reply(tree, objective, strat, 0) + best_reply(tree, objective, strat, 1)) / 2


def mixed(tree: GameTree, seat0: np.ndarray, seat1: np.ndarray) -> np.ndarray:
    """The strategy that plays ``seat0`` at seat 0's information states and ``seat1`` at seat 1's."""
    by_move = np.repeat(tree.iset_seat, tree.iset_nact)
    return np.where(by_move == 0, seat0, seat1)


@dataclass
class Solution:
    objective: str
    strategy: np.ndarray        #: the average strategy (probabilities by move)
    exploitability: float
    iterations: int
    seconds: float
    value: float                #: seat 0's value under the strategy
    lead_value: float           #: the leading seat's value (margin, or share of the win)


def solve(tree: GameTree, objective: str, tol: float | None = None, max_iters: int = MAX_ITERS,
          progress: Progress | None = None) -> Solution:
    """CFR+ until the average strategy's exploitability is at most ``tol`` (checked exactly after each
    block of iterations; blocks grow with the iterations done), or ``max_iters``."""
    tol = TOLERANCE[objective] if tol is None else tol
    t0 = time.perf_counter()
    regret = np.zeros(tree.act_off[-1])
    avg = np.zeros(tree.act_off[-1])
    done, expl, strat = 0, float("inf"), avg
    while done < max_iters:
        block = min(max(8, done // 2), max_iters - done)
        cfr.cfr_plus(*_args(tree, objective), tree.iset_seat, regret, avg, done, block)
        done += block
        strat = cfr.normalised(avg, tree.act_off)
        expl = exploitability(tree, objective, strat)
        if progress:
            progress(f"{objective}: {done:,} iterations, exploitability {expl:.6f}", min(1.0, tol / max(expl, tol)))
        if expl <= tol:
            break
    v = cfr.values(*_args(tree, objective), strat)
    return Solution(objective, strat, expl, done, time.perf_counter() - t0, float(v[0]),
                    _lead_value(tree, objective, v))


def _lead_value(tree: GameTree, objective: str, v: np.ndarray) -> float:
    kids = v[tree.first[0]:tree.first[0] + tree.nkids[0]]
    p = tree.prob[tree.first[0]:tree.first[0] + tree.nkids[0]]
    lead0 = tree.root_first == 0
    mine = np.where(lead0, kids, -kids if objective == "margin" else 1.0 - kids)
    return float(np.sum(p * mine))


def edge(tree: GameTree, objective: str, mine: np.ndarray, theirs: np.ndarray) -> float:
    """``mine``'s edge over ``theirs`` (strategies), both seatings averaged: its margin, or its share of
    the win above one half."""
    v0 = cfr.values(*_args(tree, objective), mixed(tree, mine, theirs))[0]
    v1 = cfr.values(*_args(tree, objective), mixed(tree, theirs, mine))[0]
    return float((v0 - v1) / 2)


def policy_edges(tree: GameTree, policy: str, sols: dict[str, Solution], samples: int = 1,
                 seed: int = 0) -> dict:
    """A compiled policy against the optimum: the best fair reply's edge over it (the policy's
    exploitability, averaged over the two seatings) and the equilibrium's, by margin and win."""
    strat = policy_strategy(tree, policy, samples, seed)
    out: dict = {"policy": policy, "best_reply": {}, "equilibrium": {}}
    for obj, sol in sols.items():
        out["best_reply"][obj] = (best_reply(tree, obj, strat, 0) + best_reply(tree, obj, strat, 1)) / 2
        out["equilibrium"][obj] = edge(tree, obj, sol.strategy, strat)
    return out


def hold_rate(tree: GameTree, strat: np.ndarray) -> tuple[float, float]:
    """(how often the strategy holds the first double when it could place it, per such decision weighted by
    how often it is reached; the share of deals that reach such a decision at least once is not counted:
    the second number is the reached decisions per deal)."""
    r = cfr.reach(tree.who, tree.first, tree.nkids, tree.prob, tree.iset, tree.act_off, strat)
    dec = tree.who >= 0
    spot = np.zeros(tree.nodes, dtype=bool)
    spot[dec] = tree.hold_spot[tree.iset[dec]]
    held = np.add.reduceat(np.where(tree.act_double == 0, strat, 0.0), tree.act_off[:-1]) \
        if tree.act_off[-1] else np.zeros(0)
    w = r[spot]
    if w.sum() == 0:
        return float("nan"), 0.0
    return float(np.sum(w * held[tree.iset[spot]]) / w.sum()), float(w.sum())


@dataclass
class Equilibrium:
    rules: Rules
    nodes: int
    infosets: int
    build_seconds: float
    solutions: dict[str, Solution]
    against: list[dict] = field(default_factory=list)
    hold: dict | None = None


def equilibrium(rules: Rules, against: Sequence[str] = (), tol: dict | None = None, max_nodes: int = 30_000_000,
                samples: int = 1, seed: int = 0, hold: bool = False,
                progress: Progress | None = None) -> Equilibrium:
    """Build the tree of ``rules``, solve it for the margin and for the win, measure ``against``'s
    policies; with ``hold``, the first double's hold at the optimum too (:func:`hold_question`)."""
    t = time.perf_counter()
    if progress:
        progress("building the game tree", 0.0)
    tree = build_tree(rules, max_nodes=max_nodes)
    built = time.perf_counter() - t
    sols = {obj: solve(tree, obj, (tol or {}).get(obj), progress=progress) for obj in OBJECTIVES}
    res = Equilibrium(rules, tree.nodes, tree.infosets, built, sols)
    for p in against:
        if progress:
            progress(f"asking {p} at {tree.infosets:,} information states", 1.0)
        res.against.append(policy_edges(tree, p, sols, samples, seed))
    if hold:
        res.hold = hold_question(rules, tree, sols, tol, max_nodes, progress)
    return res


def hold_question(rules: Rules, tree: GameTree, sols: dict[str, Solution], tol: dict | None, max_nodes: int,
                  progress: Progress | None = None) -> dict:
    """How often the equilibrium holds the first double when it could place it, and what the option is
    worth: the game solved again with seat 1 (then seat 0) bound to place its first double as soon as it
    can; the option's worth is the value of the seat that keeps it, both seatings averaged."""
    out: dict = {"rate": {}, "spots_per_deal": {}, "worth": {}}
    for obj, sol in sols.items():
        out["rate"][obj], out["spots_per_deal"][obj] = hold_rate(tree, sol.strategy)
    vals: dict[str, list[float]] = {obj: [] for obj in OBJECTIVES}
    for bound in (1, 0):
        t = build_tree(rules, nohold=(bound == 0, bound == 1), max_nodes=max_nodes)
        for obj in OBJECTIVES:
            v = solve(t, obj, (tol or {}).get(obj), progress=progress).value
            vals[obj].append(v if bound == 1 else (-v if obj == "margin" else 1.0 - v))
    for obj in OBJECTIVES:
        out["worth"][obj] = sum(vals[obj]) / 2 - (0.5 if obj == "win" else 0.0)
    return out

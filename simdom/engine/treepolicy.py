"""A compiled policy's strategy over a game tree (simdom.engine.gametree): at every information state, the
move the kernel's chooser picks there (docs/equilibrium.md)."""
from __future__ import annotations

import numpy as np

from ._kernel import layout as L
from ._kernel.tables import compile_rules
from ._kernel.work import make_work
from .gametree import GameTree


def policy_strategy(tree: GameTree, policy, samples: int = 1, seed: int = 0) -> np.ndarray:
    """A compiled policy's strategy at every information state (probabilities by move, ``act_off``'s
    layout): the move the kernel's chooser picks at a state of the information state, as one hand of
    the table's bots would be asked. A deterministic policy's choice is a function of what the seat
    sees: exact. A policy with a random stream is asked ``samples`` times with independent streams
    (seeded from ``seed`` and the state's number): the empirical distribution of its choices."""
    from ..policies import parse_policy
    from ._kernel.batch import step_legal
    from ._kernel.kchoose import choose_entry
    from .codes import kernel_arrays
    from . import jitcache
    pol = parse_policy(policy)
    k = 1 if pol.info.deterministic else samples
    ids, par = kernel_arrays([pol, pol])
    work = make_work(tree.rules.n_tiles)
    St, bone, mv_t, mv_e = work[L.W_ST], work[L.W_BONE], work[L.W_MVT], work[L.W_MVE]
    G = compile_rules(tree.rules)
    strat = np.zeros(tree.act_off[-1], dtype=np.float64)
    streams = np.random.default_rng([seed, 61]).integers(0, 2**63, size=(tree.infosets, k, L.N_STREAMS),
                                                         dtype=np.uint64)
    jitcache.notice("choose_entry")
    for i in range(tree.infosets):
        o, n = tree.act_off[i], tree.iset_nact[i]
        if n == 1:
            strat[o] = 1.0
            continue
        St[:], bone[:] = tree._st[i], tree._bone[i]
        s = int(St[L.TURN])
        if step_legal(G, St, s, mv_t, mv_e) != n:
            raise RuntimeError("a policy is asked on the tree of the rules, not of a restricted game")
        for r in range(k):
            j = int(choose_entry(G, St, bone, s, ids, par, streams[i, r].copy(), mv_t, mv_e, n,
                                 work[L.W_SCRATCH], work[L.W_SOLVER]))
            strat[o + j] += 1.0 / k
    return strat

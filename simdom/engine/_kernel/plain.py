"""The deal loops for the plain policies alone (random, greedy, hold:until=K): what the default study plays.

Compiling :func:`batch.run_batch` compiles every policy, because its chooser (kchoose.choose) calls them
all: expert, clairvoyant, search and the solver behind them, rollout, timing, plan, defensive, heavy. That
is most of the kernel's compile (minutes on one core, docs/speed.md). The entries here are the same loops,
the same bytecode (batch.play, play_tally, run_batch; kchoose.choose_entry), with the name ``choose`` bound
to :func:`choose_plain`, which knows only the plain policies, and the first-double decisions' recorder
(`simdom run --decisions`, kdecide.py: its rollouts compile the sampler and the playouts) to one that
records nothing: nothing else is typed or compiled. The Python layer calls them when every seat that
moves by them plays a plain policy (aot.is_plain) and no decision is recorded; for those policies
:func:`choose_plain` is kpolicies.choose's own code, so every deal is played move for move alike.
"""
from __future__ import annotations

import types

from . import batch, kchoose
from .greedy import greedy_move
from .jit import entry, kernel
from .layout import FD_MOVE, NPL, PAR_UNTIL, POL_HOLD, POL_RANDOM, RNG_SEAT
from .moves import n_moves, nth_move
from .rng import below


@kernel
def choose_plain(G, St, bone, s, ids, par, rng, mv_t, mv_e, scratch, V):
    """kchoose.choose for the plain policies (kpolicies.choose's first branches, as written there)."""
    pid = ids[s]
    if pid == POL_RANDOM:
        n = n_moves(G, St, s)
        return nth_move(G, St, s, 0 if n == 1 else below(rng, RNG_SEAT + s, n))
    # hold:until=K = greedy that keeps the first double back before move K
    hold = pid == POL_HOLD and St[FD_MOVE] == 0 and St[NPL] + 1 < par[s, PAR_UNTIL]
    return greedy_move(G, St, s, hold)


@kernel
def no_decision(G, St, s, n, i, mv_t, mv_e, deal, scratch):
    """kdecide.record_decision where none is recorded (never called: the flag it is under is off)."""
    return


def _rebound(disp, name: str, **names):
    """A copy of kernel function ``disp``'s Python function, named ``name`` (numba's cache keeps each
    compiled function under its name, jitcache.cached), with the given global names bound otherwise."""
    f = disp.py_func
    g = types.FunctionType(f.__code__, {**f.__globals__, **names}, name, f.__defaults__, f.__closure__)
    g.__qualname__ = name
    g.__doc__ = f.__doc__
    return g


play_plain = kernel(_rebound(batch.play, "play_plain", choose=choose_plain, record_decision=no_decision))
play_tally_plain = kernel(_rebound(batch.play_tally, "play_tally_plain", choose=choose_plain,
                                   record_decision=no_decision))
#: batch.run_batch for the plain policies
run_batch_plain = entry(_rebound(batch.run_batch, "run_batch_plain", play=play_plain,
                                 play_tally=play_tally_plain))
#: kchoose.choose_entry for a seat playing a plain policy
choose_entry_plain = entry(_rebound(kchoose.choose_entry, "choose_entry_plain", choose=choose_plain))

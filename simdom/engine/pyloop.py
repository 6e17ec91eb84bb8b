"""Deals played from Python with Python policies (simdom/engine/pypolicy.py) among the compiled ones.

The rules are the engine's own: :class:`~simdom.engine.state.DealState` plays the forced draws and
passes, lists the legal moves and places the tiles; this module only asks each seat's policy for its
move. A compiled policy is asked through the kernel's own chooser with the deal's random streams,
seeded as the batch kernel seeds them (rng.py: stream ``1 + s`` is seat s's), so that the compiled seats
of a deal play exactly as in ``simdom trace`` without Python policies. A Python policy's generator is
``random.Random(x)``, ``x`` the initial state of its seat's stream (docs/policies.md).
"""
from __future__ import annotations

import random
from typing import Callable, Sequence

import numpy as np

from ..policies import Policy, parse_policy
from ._kernel import layout as L
from .codes import kernel_arrays

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * M1) & M64
    z = ((z ^ (z >> 27)) * M2) & M64
    return z ^ (z >> 31)


def key_streams(key: int) -> np.ndarray:
    """The streams of a deal whose own key is ``key`` (rng.seed_key)."""
    return np.array([_mix64((int(key) + (s + 1) * M2) & M64) for s in range(L.N_STREAMS)], dtype=np.uint64)


def deal_streams(root: int, deal: int) -> np.ndarray:
    """The streams of deal ``deal`` under root key ``root`` (rng.seed_deal)."""
    return key_streams(_mix64(int(root) ^ _mix64((int(deal) * GAMMA + GAMMA) & M64)))


def has_python(policies: Sequence[object]) -> bool:
    return any(getattr(p, "name", None) == "python" for p in policies)


def compiled_arrays(policies: Sequence[object]) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's policy arrays, a Python seat standing as greedy (the kernel never asks it: only
    clairvoyant:against=seats reads other seats' policies, and it refuses a Python seat)."""
    stand_in = parse_policy("greedy")
    return kernel_arrays([p if isinstance(p, Policy) else stand_in for p in policies])


def play_python(st, policies: Sequence[object], streams: np.ndarray, scores: Sequence[int] = (),
                place: Callable[[int, int], object] | None = None, done: Callable[[], bool] | None = None) -> None:
    """Play the deal in ``st`` to its end: seat s's move from ``policies[s]`` (a parsed
    :class:`~simdom.policies.Policy` or :class:`~simdom.engine.pypolicy.PythonPolicy`). ``streams``: the deal's
    random streams (advanced in place). ``place(tile, end)``: how a move is placed (default ``st.play``;
    a match credits it, matches.py); ``done()``: the deal is over (default: no legal move left)."""
    from .pypolicy import observe
    ids, par = compiled_arrays(policies)
    gens = {s: random.Random(int(streams[L.RNG_SEAT + s])) for s, p in enumerate(policies)
            if not isinstance(p, Policy)}
    place = place or st.play
    while True:
        if done is not None and done():
            break
        moves = st.advance()
        if not moves:
            break
        s = st.turn
        p = policies[s]
        if isinstance(p, Policy):
            t, e = st.choose_with(ids, par, streams, moves)
        else:
            t, e = p.choose(observe(st, s, moves, scores), gens[s])
        place(t, int(e))

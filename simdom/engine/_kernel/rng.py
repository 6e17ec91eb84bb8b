"""Counter-based random streams for the kernel (SplitMix64), seeded from a root key and a deal number.

Deal ``i``'s randomness depends on the root key and ``i`` alone: stream 0 shuffles and draws the lot,
stream ``1 + s`` is seat ``s``'s policy stream. Chunking, workers, arms and rotations never enter.

In a match (docs/rules.md 12), deal ``h`` of match ``m`` has its own 64-bit key, :func:`match_deal_key`
(root key, m, h), distinct from the single deals' keys; :func:`seed_key` turns a key into the same
streams.
"""
from __future__ import annotations

import numpy as np
from .jit import kernel
from .layout import N_STREAMS

GAMMA = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S32 = np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)


@kernel
def mix64(z):
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@kernel
def seed_deal(rng, root, deal):
    """Fill ``rng[0:N_STREAMS]`` (uint64 states) for deal number ``deal`` under root key ``root``."""
    key = mix64(root ^ mix64(np.uint64(deal) * GAMMA + GAMMA))
    for s in range(N_STREAMS):
        rng[s] = mix64(key + np.uint64(s + 1) * M2)


#: Separates the match deals' keys from the single deals' keys.
MATCH_SALT = np.uint64(0x6D61746368657321)


@kernel
def match_deal_key(root, match, hand):
    """The 64-bit key of deal ``hand`` (0-based) of match ``match`` under root key ``root``."""
    mkey = mix64(root ^ MATCH_SALT ^ mix64(np.uint64(match) * GAMMA + GAMMA))
    return mix64(mkey + np.uint64(hand + 1) * GAMMA)


@kernel
def seed_key(rng, key):
    """Fill ``rng[0:N_STREAMS]`` from a deal's own key (as :func:`seed_deal` does from its key)."""
    for s in range(N_STREAMS):
        rng[s] = mix64(key + np.uint64(s + 1) * M2)


@kernel
def next64(rng, s):
    x = rng[s] + GAMMA
    rng[s] = x
    return mix64(x)


@kernel
def below_x(x, n):
    """(j, x'): an unbiased integer j in [0, n) (Lemire's method, 32-bit), n >= 1, from a stream whose
    state ``x`` the caller holds in a local variable (a register, where rng[s] is memory)."""
    un = np.uint64(n)
    x += GAMMA
    m = (mix64(x) >> S32) * un
    low = m & LOW32
    if low < un:
        t = (np.uint64(1) << S32) % un
        while low < t:
            x += GAMMA
            m = (mix64(x) >> S32) * un
            low = m & LOW32
    return np.int64(m >> S32), x


@kernel
def below(rng, s, n):
    """Unbiased integer in [0, n) from stream ``s``: :func:`below_x` on rng[s]."""
    j, x = below_x(rng[s], n)
    rng[s] = x
    return j


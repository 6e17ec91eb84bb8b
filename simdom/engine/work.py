"""The kernel's work arrays, allocated in Python (the kernel never allocates). Plain numpy: the batch
path of `simdom run` needs them without importing numba."""
from __future__ import annotations

import numpy as np

from .layout import AUX_SIZE, DCTL_SIZE, DEC_COLS, DEC_VALS, N_STREAMS, REC_COLS, ST_SIZE, dp_size


def make_work(nt: int, decisions: int = 0) -> tuple:
    """Every array the kernel needs for one deal at a time: (St, bone, perm, rng, mv_t, mv_e, scratch).
    ``decisions``: room for that many first-double decision rows (kdecide.py; recording stays off until
    the caller switches it on in the control vector)."""
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64), np.zeros(nt, dtype=np.int64),
            np.zeros(N_STREAMS, dtype=np.uint64), np.zeros(4 * nt + 4, dtype=np.int64),
            np.zeros(4 * nt + 4, dtype=np.int64), make_scratch(nt, decisions))


def make_scratch(nt, decisions: int = 0):
    """Work arrays of the policies, indexed in the kernel:

    0 state copy, 1 boneyard copy, 2-3 move lists (tiles, ends), 4 tiles (int64[nt]), 5 float64 per
    move, 6-7 end bases k, S, 8 second state copy (a sampled world), 9 tiles (int64[nt]),
    10 a local random stream (uint64[1]), 11 an unused action-record row (int32[1, REC_COLS]),
    12-13 the sampler's counts and tile types (int64[AUX_SIZE + 2 nt]) and counting tables
    (float64[dp_size(nt)]), see sampler.py and layout.py; 14-17 the first-double decisions' control
    vector (recording off), root key, rows (int32[decisions, DEC_COLS]) and rollout values
    (float64[decisions, DEC_VALS]), see kdecide.py. The names: layout.SX_*.
    """
    m = 4 * nt + 4
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64),
            np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64),
            np.zeros(nt, dtype=np.int64), np.zeros(m, dtype=np.float64),
            np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64),
            np.zeros(1, dtype=np.uint64), np.zeros((1, REC_COLS), dtype=np.int32),
            np.zeros(AUX_SIZE + 2 * nt, dtype=np.int64), np.zeros(dp_size(nt), dtype=np.float64),
            np.zeros(DCTL_SIZE, dtype=np.int64), np.zeros(1, dtype=np.uint64),
            np.zeros((max(decisions, 1), DEC_COLS), dtype=np.int32),
            np.zeros((max(decisions, 1), DEC_VALS), dtype=np.float64))


def make_analysis_work(nt: int) -> tuple:
    """Work arrays of the position analysis (kanalyze.py): (W, P, bone2, pool, deck, loc, aux, dp, rng,
    pt, pe, rec, scratch): a world and a playout state, its boneyard, the unseen tiles, the sampler's
    deck, stream, counts and counting tables, the policy streams, a move list, an unused record row,
    the policies' scratch."""
    m = 4 * nt + 4
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64),
            np.zeros(nt, dtype=np.int64), np.zeros(nt, dtype=np.int64), np.zeros(1, dtype=np.uint64),
            np.zeros(AUX_SIZE + 2 * nt, dtype=np.int64), np.zeros(dp_size(nt), dtype=np.float64),
            np.zeros(N_STREAMS, dtype=np.uint64),
            np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64), np.zeros((1, REC_COLS), dtype=np.int32),
            make_scratch(nt))

"""The kernel's work arrays, allocated in Python (the kernel never allocates). Plain numpy: the batch
path of `simdom run` needs them without importing numba."""
from __future__ import annotations

import numpy as np

from .layout import (N_STREAMS, REC_COLS, SCR_ACC, SCR_BONE, SCR_DECK, SCR_KB, SCR_LOC, SCR_MV_E, SCR_MV_T,
                     SCR_REC, SCR_SB, SCR_SIZE, SCR_ST, SCR_TILES, SCR_WORLD, ST_SIZE)


def make_work(nt: int) -> tuple:
    """Every array the kernel needs for one deal at a time: (St, bone, perm, rng, mv_t, mv_e, scratch)."""
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64), np.zeros(nt, dtype=np.int64),
            np.zeros(N_STREAMS, dtype=np.uint64), np.zeros(4 * nt + 4, dtype=np.int64),
            np.zeros(4 * nt + 4, dtype=np.int64), make_scratch(nt))


def make_scratch(nt):
    """Work arrays of the policies, indexed in the kernel by the slots SCR_* of layout.py."""
    m = 4 * nt + 4
    scr = [None] * SCR_SIZE
    scr[SCR_ST], scr[SCR_BONE] = np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64)
    scr[SCR_MV_T], scr[SCR_MV_E] = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64)
    scr[SCR_TILES], scr[SCR_ACC] = np.zeros(nt, dtype=np.int64), np.zeros(m, dtype=np.float64)
    scr[SCR_KB], scr[SCR_SB] = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
    scr[SCR_WORLD], scr[SCR_DECK] = np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64)
    scr[SCR_LOC], scr[SCR_REC] = np.zeros(1, dtype=np.uint64), np.zeros((1, REC_COLS), dtype=np.int32)
    return tuple(scr)

"""The kernel's work arrays, allocated in Python (the kernel never allocates). Plain numpy: the batch
path of `simdom run` needs them without importing numba."""
from __future__ import annotations

import numpy as np

from .layout import (AUX_SIZE, TT_COLS, TT_KEY, DCTL_SIZE, FR_SIZE, DEC_COLS, DEC_VALS, MEM_SIZE, N_PARAMS, N_STREAMS, REC_COLS, ST_SIZE, SV_SIZE,
                     dp_size)


#: transposition-table entries (2^bits) of the solver inside policies (clairvoyant, search): 4M entries,
#: 256 MB of address space, touched only as a search fills it (numpy's zeros are the system's lazy pages).
#: Measured on 30 two-player Threes deals with a clairvoyant seat: 2^16 entries > 600 s (one deal
#: alone > 570 s), 2^20 60 s, 2^22 13 s, 2^24 14 s (docs/speed.md)
POLICY_TABLE_BITS = 22


def make_work(nt: int, decisions: int = 0) -> tuple:
    """Every array the kernel needs for one deal at a time: (St, bone, perm, rng, mv_t, mv_e, scratch, V).
    ``decisions``: room for that many first-double decision rows (kdecide.py; recording stays off until
    the caller switches it on in the control vector). V: the solver's arrays (:func:`make_solver`) for
    the policies that search (clairvoyant, search), sharing the scratch. The slots: layout.W_*."""
    scratch = make_scratch(nt, decisions)
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64), np.zeros(nt, dtype=np.int64),
            np.zeros(N_STREAMS, dtype=np.uint64), np.zeros(4 * nt + 4, dtype=np.int64),
            np.zeros(4 * nt + 4, dtype=np.int64), scratch, make_solver(nt, POLICY_TABLE_BITS, scratch))


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
    pt, pe, rec, scratch, V): a world and a playout state, its boneyard, the unseen tiles, the sampler's
    deck, stream, counts and counting tables, the policy streams, a move list, an unused record row,
    the policies' scratch and solver arrays."""
    m = 4 * nt + 4
    scratch = make_scratch(nt)
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(ST_SIZE, dtype=np.int64), np.zeros(nt, dtype=np.int64),
            np.zeros(nt, dtype=np.int64), np.zeros(nt, dtype=np.int64), np.zeros(1, dtype=np.uint64),
            np.zeros(AUX_SIZE + 2 * nt, dtype=np.int64), np.zeros(dp_size(nt), dtype=np.float64),
            np.zeros(N_STREAMS, dtype=np.uint64),
            np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64), np.zeros((1, REC_COLS), dtype=np.int32),
            scratch, make_solver(nt, POLICY_TABLE_BITS, scratch))


def make_table(bits: int) -> tuple:
    """(ttk, ttv): a transposition table of 2^bits entries, each one 64-byte cache line (layout.TT_COLS
    int64, the row aligned to 64 bytes), ttk the keys as a uint64 view of its column TT_KEY: a probe
    reads the key and the bounds from one line (two arrays cost two cache misses a probe)."""
    n = 1 << bits
    buf = np.zeros(n * TT_COLS + 8, dtype=np.int64)
    off = (-buf.ctypes.data % 64) // 8
    ttv = buf[off:off + n * TT_COLS].reshape(n, TT_COLS)
    return ttv[:, TT_KEY].view(np.uint64), ttv


def make_solver(nt: int, table_bits: int = 20, scratch: tuple | None = None) -> tuple:
    """Work arrays of the exact solver (solve.py): (stk, mt, me, mk, ttk, ttv, ctl, sides, ids, par, rng,
    scratch, fr, fk, rt, re, rv, scratch2, own): the states on the path and the moves at each depth (one more than the tiles), the
    transposition table of 2^table_bits entries (keys; lower bound, upper bound, best move, the root's
    margins over each seat when the entry was stored), the
    controls (layout.SV_*), each seat's side, the seats' policies (against mode), their streams and
    scratch (``scratch``, or new), the search's frame per depth (layout.FR_*) and its table key, and a
    move list with a value per move (the root's, for the policies), and the root seat's own scratch and move
    list where it plays defensive beyond a horizon (kpolicies.defensive_to_end) and the search policy's wins
    per move (in halves: a tie at the top is half a win), and the expert policy's memory of what each seat saw
    (layout.MEM_*: kexpert.py). The slots: layout.V_*. The caller sets ctl, sides, ids and par."""
    depth = nt + 2
    m = 4 * nt + 4
    return (np.zeros((depth, ST_SIZE), dtype=np.int64), np.zeros((depth, m), dtype=np.int64),
            np.zeros((depth, m), dtype=np.int64), np.zeros((depth, m), dtype=np.int64),
            *make_table(table_bits),
            np.zeros(SV_SIZE, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros((4, N_PARAMS), dtype=np.float64), np.zeros(N_STREAMS, dtype=np.uint64),
            make_scratch(nt) if scratch is None else scratch,
            np.zeros((depth, FR_SIZE), dtype=np.int64), np.zeros(depth, dtype=np.uint64),
            np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64),
            make_scratch(nt), np.zeros((3, m), dtype=np.int64), np.zeros((4, MEM_SIZE), dtype=np.int64))

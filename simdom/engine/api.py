"""The readable layer over the kernel: validates, seeds, allocates, decodes (QuantEcon pattern).

* :func:`simulate_deals` plays a batch of deals and returns their per-seat and per-deal results as named
  columns (:class:`Batch`).
* :func:`measure` times the kernel alone.

Outside simdom/engine/ nobody indexes the kernel's arrays: they read ``batch.seats["points"]``,
``batch.records["tile"]`` and the enums of :mod:`simdom.engine.codes`.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from ..policies import Policy, parse_policy, seat_policies
from ..rules import Rules
from ._kernel import layout as L
from ._kernel.aot import run_batch as batch_kernel
from .codes import Records, kernel_arrays
from ._kernel.tables import compile_rules
from ._kernel.work import make_work

#: Behaviour version: changes only when the same rules, policies and seed would give other results.
SIM_VERSION = 11  # 3: the rollout policy draws its worlds with engine/sampler.py (uniform among the consistent deals);
#   4: the solver bounds what is left to score and a larger table, so clairvoyant:nodes=N spends its budget otherwise;
#   5: the search policy's new parameters own and win, and its new default budget (worlds=256, depth=1, own=defensive,
#   win=10; the old default is search:worlds=16,depth=6,own=greedy,win=0);
#   6: the solver's bounds count each tile's most (solvebounds.tiles_max), so clairvoyant:nodes=N spends its budget
#   otherwise (every exact value as before); 7: likewise, the root side's best immediate points in its lower bound;
#   8: likewise, the other side to move scoring its tile's points now, not the tile's most (solvebounds.mover_less)
#   9: likewise, a tile that can never be placed scoring nothing (solvebounds.dead_tiles)
#   10: likewise, the plain ends interchangeable in the exact solver's moves and keys (solvetable.plain_sig)
#   11: likewise, a plain end's double flag left out where doubles count their face (Threes)


def root_key(seed: int) -> np.uint64:
    """The kernel's 64-bit root key for a user seed (numpy SeedSequence)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed = {seed!r} is invalid; allowed: an integer >= 0")
    return np.random.SeedSequence(int(seed)).generate_state(1, dtype=np.uint64)[0]


#: the largest deal number the kernel takes (it counts deals in int64)
MAX_DEAL = 2**63 - 1


class DealNumberError(ValueError):
    """A deal number the kernel cannot take (names it and the range: one line at the command line)."""


def deal_number(deal: int, name: str = "deal") -> int:
    """``deal`` as the kernel takes it: a Python int within int64, so that every call types it the same
    (a number of 2^63 or more, or a numpy integer of another width, made numba compile the entry again);
    DealNumberError naming ``name`` and the range otherwise."""
    if isinstance(deal, bool) or not isinstance(deal, (int, np.integer)) or not 0 <= deal <= MAX_DEAL:
        raise DealNumberError(f"{name} = {deal!r}; allowed: an integer from 0 to {MAX_DEAL}")
    return int(deal)


def max_records(rules: Rules, records: int) -> int:
    """An upper bound on the records of one deal (placements; or every action)."""
    if records == Records.PLAYS:
        return rules.n_tiles
    return (2 + rules.players) * rules.n_tiles + rules.players + 4


def win_shares(points: np.ndarray) -> np.ndarray:
    """float64[..., players]: 1/k for each of the k seats tied on the highest total, else 0."""
    top = points == points.max(axis=-1, keepdims=True)
    return top / top.sum(axis=-1, keepdims=True)


def decode_records(rec: np.ndarray) -> dict[str, np.ndarray]:
    """The kernel's action records as named columns (:data:`simdom.engine.codes.RECORD_COLUMNS`):
    ``deal`` (index in the batch), ``seat``, ``act`` (:class:`Act`), ``tile``, ``end`` (:class:`End`),
    ``points``, ``bonus``, ``ends`` (counted ends k after the placement), ``ends_sum`` (their sum S)."""
    return {name: rec[:, i] for i, name in enumerate(L.REC_NAMES)}


@dataclass
class Batch:
    """Results of deals deal0 .. deal0 + n - 1, as named columns (views of the kernel's output).

    ``seats[name]``: int32[n, players] per seat, names :data:`~simdom.engine.codes.SEAT_COLUMNS`;
    ``deals[name]``: int32[n] per deal, names :data:`~simdom.engine.codes.DEAL_COLUMNS` (a move number
    or seat of 0 / -1 where there is none; ``end`` a :class:`~simdom.engine.codes.DealEnd`);
    ``records``: the placements (or all actions) as :func:`decode_records` columns, or None;
    ``decisions``: the first-double decisions as named columns (:data:`~simdom.engine.codes.DECISION_COLUMNS`,
    ``deal`` the index in the batch; with rollouts also :data:`~simdom.engine.codes.DECISION_VALUE_COLUMNS`),
    or None when they were not recorded.
    """

    rules: Rules
    policies: list[Policy]
    seed: int
    deal0: int
    seats: Mapping[str, np.ndarray]
    deals: Mapping[str, np.ndarray]
    records: Mapping[str, np.ndarray] | None = None
    decisions: Mapping[str, np.ndarray] | None = None
    #: the deal's course (:data:`~simdom.engine.codes.COURSE_SEAT_COLUMNS`, int32[n, players], and
    #: :data:`~simdom.engine.codes.COURSE_DEAL_COLUMNS`, int32[n]); single deals only
    course: Mapping[str, np.ndarray] | None = None

    @property
    def n(self) -> int:
        return len(self.deals["end"])

    def column(self, name: str) -> np.ndarray:
        """A seat column (int32[n, players]) or a deal column (int32[n]) by name."""
        return self.seats[name] if name in self.seats else self.deals[name]

    def win(self) -> np.ndarray:
        """float64[n, players]: 1/k for each of the k seats tied on the highest total, else 0."""
        return win_shares(self.seats["points"])


def row_columns(seat: np.ndarray, deal: np.ndarray, row0: int = 0, stride: int = 1,
                n: int | None = None, course: bool = False) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Named columns (views, no copy) of rows row0, row0 + stride, ... (n of them; all by default) of the
    output blocks from :func:`output_blocks`: per seat int32[n, players] (names SEAT_COLUMNS), per deal
    int32[n] (names DEAL_COLUMNS); with ``course`` also the course columns (COURSE_SEAT_COLUMNS,
    COURSE_DEAL_COLUMNS: single deals). The blocks hold one column after the other, each seat's values of a
    column contiguous: ``seats[name][:, s]`` and ``deals[name]`` of all rows are contiguous arrays."""
    from .codes import DEAL_COLUMNS, SEAT_COLUMNS
    rows = deal.shape[1]
    n = (rows - row0 + stride - 1) // stride if n is None else n
    sl = slice(row0, row0 + (n - 1) * stride + 1, stride)
    return ({c: seat[i][:, sl].T for i, c in enumerate(L.SEAT_COLS[:seat.shape[0]]) if course or c in SEAT_COLUMNS},
            {c: deal[i, sl] for i, c in enumerate(L.DEAL_COLS[:deal.shape[0]]) if course or c in DEAL_COLUMNS})


def batch_of(rules: Rules, policies: list[Policy], seed: int, deal0: int, seat: np.ndarray, deal: np.ndarray,
             rec: np.ndarray | None = None, *, row0: int = 0, stride: int = 1, n: int | None = None) -> Batch:
    """A :class:`Batch` over rows row0, row0 + stride, ... of the output blocks (:func:`row_columns`)."""
    from .codes import COURSE_DEAL_COLUMNS, COURSE_SEAT_COLUMNS
    seats, deals = row_columns(seat, deal, row0, stride, n, course=True)
    course = {**{c: seats.pop(c) for c in COURSE_SEAT_COLUMNS if c in seats},
              **{c: deals.pop(c) for c in COURSE_DEAL_COLUMNS if c in deals}} or None
    return Batch(rules, policies, int(seed), deal0, seats, deals, None if rec is None else decode_records(rec),
                 course=course)


def block_shapes(n_rows: int, players: int, course: bool = False) -> tuple[tuple, tuple]:
    """The shapes of :func:`output_blocks`: with ``course`` the course's rows too (they come last)."""
    from .codes import DEAL_COLUMNS, SEAT_COLUMNS
    return (((len(L.SEAT_COLS) if course else len(SEAT_COLUMNS)), players, n_rows),
            ((len(L.DEAL_COLS) if course else len(DEAL_COLUMNS)), n_rows))


def output_blocks(n_rows: int, players: int, course: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Fresh (seat, deal) output blocks of ``n_rows`` deals, for :func:`simulate_deals`'s ``out``: one block per
    result column (the kernel's layout, engine/layout.py), read through :func:`row_columns`. With ``course``
    the blocks also hold the course's columns, and the batch kernel tallies each deal's course into them
    (``Batch.course``; it costs the kernel about a sixth of its speed, docs/design.md)."""
    a, b = block_shapes(n_rows, players, course)
    return np.zeros(a, dtype=np.int32), np.zeros(b, dtype=np.int32)


#: policies that keep nothing between deals in the work arrays (no solver table, no memory of a seat: every
#: array they read is written first in the same deal), so that batches of them can share one set of work
#: arrays: allocating it anew (a 256 MB solver table among 60 arrays) cost 3 ms a batch, as much as playing
#: 1,000 deals, in `simdom run`'s many small batches (issue 41.5)
SHARED_WORK_POLICIES = frozenset({"random", "greedy", "heavy", "hold", "defensive", "plan", "timing"})
_SHARED = threading.local()


def batch_work(pols: "Sequence[Policy]", nt: int) -> tuple:
    """The work arrays of a batch (work.make_work): this thread's shared set for ``nt`` tiles when every
    policy is one of :data:`SHARED_WORK_POLICIES`, else a new set."""
    if any(p.name not in SHARED_WORK_POLICIES for p in pols):
        return make_work(nt)
    by_nt = _SHARED.__dict__.setdefault("by_nt", {})
    if nt not in by_nt:
        by_nt[nt] = make_work(nt)
    return by_nt[nt]


def simulate_deals(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seed: int, deal0: int = 0,
             n_deals: int = 1, records: int = Records.NONE,
             out: "tuple[np.ndarray, np.ndarray] | None" = None, decisions: int | None = None, *,
             row0: int = 0, stride: int = 1, course: bool = False) -> Batch:
    """Play deals ``deal0 .. deal0 + n_deals - 1`` of the run with root ``seed``. ``records``: a
    :class:`~simdom.engine.codes.Records` mode. ``out``: blocks from :func:`output_blocks` to fill
    instead of new ones (a worker reuses them from chunk to chunk), deal i into row row0 + i * stride
    (several batches can so fill one block in the row order the caller's results need; read them back
    with :func:`row_columns`). ``decisions``: record the first-double decisions (``Batch.decisions``),
    with that many rollouts each (0: none); the deals are the same either way. ``course``: tally each deal's
    course too (``Batch.course``; given ``out``, blocks made with :func:`output_blocks`' ``course`` do)."""
    pols = seat_policies(policies, rules.players)
    ids, par = kernel_arrays(pols)
    G = compile_rules(rules)
    deal0, n_deals, row0, stride = deal_number(deal0, "deal0"), int(n_deals), int(row0), int(stride)
    if not 1 <= n_deals <= MAX_DEAL - deal0 + 1:
        raise DealNumberError(f"n_deals = {n_deals} from deal {deal0}; allowed: 1 to {MAX_DEAL - deal0 + 1}")
    if out is None:
        seat, deal = output_blocks(row0 + (n_deals - 1) * stride + 1, rules.players, course)
    else:
        seat, deal = out
        rows = deal.shape[-1]
        want = block_shapes(rows, rules.players, seat.shape[0] == len(L.SEAT_COLS))
        if (seat.shape, deal.shape) != want or not all(
                a.dtype == np.int32 and a.flags.c_contiguous and a.flags.writeable for a in out):
            raise ValueError(f"out: C-contiguous writable int32 arrays of shapes {want[0]} and "
                             f"{want[1]} (output_blocks) needed")
    if row0 < 0 or stride < 1 or row0 + (n_deals - 1) * stride >= deal.shape[-1]:
        raise ValueError(f"rows {row0} + i * {stride} for {n_deals} deals; allowed: rows of the {deal.shape[-1]} "
                         f"in out, row0 >= 0, stride >= 1")
    cap = max_records(rules, records) * n_deals if records else 1
    rec = np.zeros((cap, L.REC_COLS), dtype=np.int32)
    dec = None
    if decisions is None:
        n = kernel_for(ids)(G, ids, par, root_key(seed), deal0, n_deals, seat, deal, row0, stride, rec, int(records),
                            batch_work(pols, rules.n_tiles), True)
    else:
        from .decisions import play_recording
        n, dec = play_recording(kernel_for(), G, ids, par, root_key(seed), deal0, n_deals, seat, deal, row0,
                                stride, rec, int(records), rules.n_tiles, int(decisions))
    out_batch = batch_of(rules, pols, seed, deal0, seat, deal, rec[:n] if records else None, row0=row0,
                         stride=stride, n=n_deals)
    out_batch.decisions = dec
    return out_batch


def kernel_for(ids: "np.ndarray | None" = None):
    """The batch kernel for seats playing the policy ids ``ids`` (None: any policy, or first-double
    decisions recorded): the ahead-of-time one when it is built, else the just-in-time one, that of the
    plain policies alone when they are (aot.run_batch), said on stderr before its first compile."""
    from ._kernel import aot
    kernel = batch_kernel(ids)
    if aot.load() is None:
        from . import jitcache
        jitcache.notice(kernel.py_func.__name__)
    return kernel


def kernel_kind() -> str:
    """Which compilation of the batch kernel this process uses: ahead-of-time or just-in-time."""
    from ._kernel import aot
    return "ahead-of-time" if aot.load() is not None else "just-in-time"


def check_kernel_mode() -> None:
    """Validate $SIMDOM_KERNEL (auto, aot or jit); ValueError naming the allowed values."""
    from ._kernel import aot
    try:
        aot.mode()
    except RuntimeError as e:
        raise ValueError(str(e)) from None


def plain_policies(policies: "Sequence[str]") -> bool:
    """Whether the policy texts are all plain ones (random, greedy, hold: aot.is_plain), which the batch
    kernel of the plain policies alone plays (a Python policy, or a text that does not parse, is not)."""
    from ._kernel import aot
    try:
        return aot.is_plain(kernel_arrays([parse_policy(p) for p in policies])[0])
    except (KeyError, ValueError):
        return False


def load_kernel(policies: "Sequence[str]" = ("greedy",)) -> None:
    """Load the batch kernel in this process and play one deal: the ahead-of-time module when it is built
    (a millisecond, no numba), else the just-in-time one from numba's cache (or, the first time on this
    machine, compile it; a file lock makes concurrent processes wait for one compile instead of each
    compiling): that of the plain policies alone when ``policies`` (the texts a run plays) are all plain."""
    import contextlib
    from pathlib import Path

    from ..rules import preset
    from ._kernel import aot
    with contextlib.ExitStack() as stack:
        if aot.load() is None:
            from ._kernel.jit import cache_dir
            lock = Path(cache_dir()) / ".simdom-warm.lock"
            try:
                from filelock import FileLock
                lock.parent.mkdir(parents=True, exist_ok=True)
                stack.enter_context(FileLock(lock, preserve_lock_file=True))  # waits for another compile
            except OSError:  # pragma: no cover - no locking: each process compiles
                pass
        simulate_deals(preset("threes", 4), "greedy" if plain_policies(policies) else "heavy", 0, 0, 1,
                       records=Records.PLAYS)


def measure(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seconds: float,
            batch: int = 20_000, seed: int = 1) -> tuple[int, float]:
    """Time the kernel alone on one core: (deals played, seconds). Buffers are allocated once and
    reused, and the kernel is compiled (or loaded) before the clock starts."""
    import time

    pols = seat_policies(policies, rules.players)
    ids, par = kernel_arrays(pols)
    G = compile_rules(rules)
    seat, deal = output_blocks(batch, rules.players)
    rec = np.zeros((1, L.REC_COLS), dtype=np.int32)
    work = make_work(rules.n_tiles)
    key = root_key(seed)
    run_batch = kernel_for(ids)
    run_batch(G, ids, par, key, 0, 1, seat, deal, 0, 1, rec, L.REC_NONE, work, True)
    t0 = time.perf_counter()
    run_batch(G, ids, par, key, 1, 1, seat, deal, 0, 1, rec, L.REC_NONE, work, True)
    # batches of about 0.2 s at most, so that a slow policy (rollout:samples=10000) stops on time
    batch = max(1, min(batch, int(0.2 / max(time.perf_counter() - t0, 1e-9))))
    done = 0
    t0 = time.perf_counter()
    while True:
        run_batch(G, ids, par, key, done, batch, seat, deal, 0, 1, rec, L.REC_NONE, work, True)
        done += batch
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return done, elapsed

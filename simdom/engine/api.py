"""The readable layer over the kernel: validates, seeds, allocates, converts (QuantEcon pattern).

* :func:`simulate` plays a batch of deals and returns their per-seat and per-deal results.
* :func:`trace` plays one deal and returns its record in the format of RULES.md section 11.
* :class:`DealState` steps through one deal move by move (scripted deals, replays, tests).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..policies import Policy, kernel_arrays, seat_policies
from ..rules import Rules
from ..tiles import END_NAMES, parse_tile, tile_name
from . import layout as L
from .aot import run_batch as batch_kernel
from .tables import compile_rules
from .work import make_work


def _steps():
    """The just-in-time kernel module (batch.py): the entries that step one deal from Python. The batch
    path (simulate, measure) does not need it and so imports no numba when the ahead-of-time kernel is built."""
    from . import batch
    return batch

#: Behaviour version: changes only when the same rules, policies and seed would give other results.
SIM_VERSION = 2


def root_key(seed: int) -> np.uint64:
    """The kernel's 64-bit root key for a user seed (numpy SeedSequence)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed = {seed!r} is invalid; allowed: an integer >= 0")
    return np.random.SeedSequence(int(seed)).generate_state(1, dtype=np.uint64)[0]


def max_records(rules: Rules, rec_mode: int) -> int:
    """An upper bound on the records of one deal (placements; or every action)."""
    nt = rules.n_tiles
    if rec_mode == L.REC_PLAYS:
        return nt
    return (2 + rules.players) * nt + rules.players + 4


@dataclass
class Batch:
    """Results of deals deal0 .. deal0 + n - 1.

    seat:  int32[n, players, len(SEAT_COLS)]   per seat, columns layout.SEAT_COLS
    deal:  int32[n, len(DEAL_COLS)]             per deal, columns layout.DEAL_COLS (0 = none for moves)
    records: int32[m, REC_COLS] or None         placements (or all actions), first column = deal - deal0
    """

    rules: Rules
    policies: list[Policy]
    seed: int
    deal0: int
    seat: np.ndarray
    deal: np.ndarray
    records: np.ndarray | None = None

    def column(self, name: str) -> np.ndarray:
        if name in L.SEAT_COLS:
            return self.seat[:, :, L.SEAT_COLS.index(name)]
        return self.deal[:, L.DEAL_COLS.index(name)]

    def win(self) -> np.ndarray:
        """float64[n, players]: 1/k for each of the k seats tied on the highest total, else 0."""
        pts = self.column("points")
        top = pts == pts.max(axis=1, keepdims=True)
        return top / top.sum(axis=1, keepdims=True)


def simulate(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seed: int, deal0: int = 0,
             n_deals: int = 1, records: int = L.REC_NONE,
             out: "tuple[np.ndarray, np.ndarray] | None" = None) -> Batch:
    """Play deals ``deal0 .. deal0 + n_deals - 1`` of the run with root ``seed``. ``out``: the (seat,
    deal) arrays to fill instead of new ones (C-contiguous int32 of the shapes :class:`Batch` gives)."""
    pols = seat_policies(policies, rules.players)
    ids, par = kernel_arrays(pols)
    G = compile_rules(rules)
    if out is None:
        seat = np.zeros((n_deals, rules.players, len(L.SEAT_COLS)), dtype=np.int32)
        deal = np.zeros((n_deals, len(L.DEAL_COLS)), dtype=np.int32)
    else:
        seat, deal = out
        want = ((n_deals, rules.players, len(L.SEAT_COLS)), (n_deals, len(L.DEAL_COLS)))
        if (seat.shape, deal.shape) != want or not all(a.dtype == np.int32 and a.flags.c_contiguous
                                                        and a.flags.writeable for a in out):
            raise ValueError(f"out: C-contiguous writable int32 arrays of shapes {want} needed")
    cap = max_records(rules, records) * n_deals if records else 1
    rec = np.zeros((cap, L.REC_COLS), dtype=np.int32)
    n = batch_kernel()(G, ids, par, root_key(seed), deal0, n_deals, seat, deal, rec, records,
                       make_work(rules.n_tiles), True)
    return Batch(rules, pols, int(seed), deal0, seat, deal, rec[:n] if records else None)


def check_deal(rules: Rules, hands: Sequence[Sequence[int]], boneyard: Sequence[int], first: int) -> None:
    """Raise ValueError unless the hands and boneyard are a deal of ``rules`` (RULES.md 2 and 6):
    every tile of the set exactly once, ``hand_size[n]`` tiles per seat, and the holder of the lead
    tile (lead = tile:A-B) leading."""
    n, mp = rules.players, rules.max_pip
    if len(hands) != n:
        raise ValueError(f"{len(hands)} hands for {n} players; allowed: one hand per seat")
    for s, h in enumerate(hands):
        if len(h) != rules.hand:
            raise ValueError(f"seat {s} holds {len(h)} tiles; allowed: hand_size[{n}] = {rules.hand}")
    dealt = [t for h in hands for t in h] + list(boneyard)
    seen: set[int] = set()
    for t in dealt:
        if not 0 <= t < rules.n_tiles:
            raise ValueError(f"tile index {t} is not in the double-{mp} set")
        if t in seen:
            raise ValueError(f"tile {tile_name(t, mp)} is dealt twice; allowed: every tile exactly once")
        seen.add(t)
    if len(seen) != rules.n_tiles:
        missing = " ".join(tile_name(t, mp) for t in range(rules.n_tiles) if t not in seen)
        raise ValueError(f"tiles missing from the hands and the boneyard: {missing}; allowed: every tile "
                         f"of the double-{mp} set exactly once")
    if not 0 <= first < n:
        raise ValueError(f"first = {first}; allowed: a seat 0..{n - 1}")
    if rules.lead.startswith("tile:"):
        lead = parse_tile(rules.lead[5:], mp)
        holder = next((s for s, h in enumerate(hands) if lead in h), None)
        if holder is not None and holder != first:
            raise ValueError(f"lead = {rules.lead}: seat {holder} holds {rules.lead[5:]} and must lead it, "
                             f"but first = {first}")


class DealState:
    """One deal held in kernel state, stepped from Python (scripted deals, replays, tests)."""

    def __init__(self, rules: Rules, hands: Sequence[Sequence[int]], boneyard: Sequence[int], first: int):
        check_deal(rules, hands, boneyard, first)
        self.rules = rules
        self.G = compile_rules(rules)
        self.work = make_work(rules.n_tiles)
        self.St, self.bone = self.work[0], self.work[1]
        self.rec = np.zeros((max_records(rules, L.REC_ALL), L.REC_COLS), dtype=np.int32)
        self.nrec = 0
        tiles = [t for h in hands for t in h] + list(boneyard)
        seats = [s for s, h in enumerate(hands) for _ in h] + [-1] * len(boneyard)
        _steps().setup_hands(self.G, self.St, self.bone, np.array(tiles, dtype=np.int64),
                             np.array(seats, dtype=np.int64), len(boneyard), first)
        self.hands0 = [list(h) for h in hands]
        self.boneyard0 = list(boneyard)
        self.first = first
        self.actions: list[dict[str, Any]] = []
        self.settled = False

    @classmethod
    def dealt(cls, rules: Rules, seed: int, deal: int) -> "DealState":
        """Deal number ``deal`` of the run with root ``seed``, as the batch kernel deals it."""
        work = make_work(rules.n_tiles)
        St, bone, perm, rng = work[0], work[1], work[2], work[3]
        _steps().new_deal(compile_rules(rules), St, bone, perm, rng, root_key(seed), deal)
        hands = [cls._hand(St, s) for s in range(rules.players)]
        return cls(rules, hands, list(bone[: St[L.BN]]), int(St[L.FIRST]))

    @staticmethod
    def _hand(St: np.ndarray, s: int) -> list[int]:
        base = L.SEAT0 + s * L.SB + L.HAND
        return [w * 64 + b for w in range(2) for b in range(64) if (int(St[base + w]) >> b) & 1]

    # -- reading the state -----------------------------------------------------------------------
    def hand(self, s: int) -> list[int]:
        return self._hand(self.St, s)

    @property
    def turn(self) -> int:
        return int(self.St[L.TURN])

    @property
    def ended(self) -> str | None:
        return {0: None, 1: "domino", 2: "blocked"}[int(self.St[L.ENDED])]

    def seat_value(self, s: int, field: int) -> int:
        return int(self.St[L.SEAT0 + s * L.SB + field])

    def ends(self) -> dict[str, int]:
        """The open ends and their values; arms only when open."""
        n = 0 if self.St[L.NPL] == 0 else (4 if self.St[L.SPIN] >= 0 and self.St[L.ARMS] else 2)
        return {END_NAMES[e]: int(self.St[L.EV + e]) for e in range(n)}

    def counted(self) -> tuple[int, int]:
        k, s = _steps().step_counted(self.G, self.St)
        return int(k), int(s)

    def arms_used(self) -> tuple[bool, bool]:
        return bool(self.St[L.USED]), bool(self.St[L.USED + 1])

    # -- stepping ----------------------------------------------------------------------------------
    def _log(self, start: int) -> None:
        mp = self.rules.max_pip
        for r in self.rec[start:self.nrec]:
            seat, act, t, e, pts, bonus = (int(x) for x in r[1:7])
            if act == L.ACT_DRAW:
                self.actions.append({"seat": seat, "act": "draw", "tile": tile_name(t, mp)})
            elif act == L.ACT_PASS:
                self.actions.append({"seat": seat, "act": "pass"})
            else:
                self.actions.append({"seat": seat, "act": "play", "tile": tile_name(t, mp),
                                     "end": END_NAMES[e], "points": pts, "bonus": bonus})

    def advance(self) -> list[tuple[int, int]]:
        """Play forced draws and passes; return the legal (tile, end) moves of the seat to act
        (empty when the deal has ended)."""
        mv_t, mv_e = self.work[4], self.work[5]
        start = self.nrec
        n, self.nrec = _steps().step_advance(self.G, self.St, self.bone, mv_t, mv_e, self.rec, self.nrec,
                                             L.REC_ALL, 0)
        self._log(start)
        return [(int(mv_t[i]), int(mv_e[i])) for i in range(n)]

    def legal(self) -> list[tuple[int, int]]:
        mv_t, mv_e = self.work[4], self.work[5]
        n = _steps().step_legal(self.G, self.St, self.turn, mv_t, mv_e)
        return [(int(mv_t[i]), int(mv_e[i])) for i in range(n)]

    def play(self, tile: int, end: int) -> tuple[int, int, int, int]:
        """The seat to act places ``tile`` on ``end`` (must be legal). Returns (points, bonus, k, S)."""
        moves = self.advance()
        if (tile, end) not in moves:
            mp = self.rules.max_pip
            allowed = ", ".join(f"{tile_name(t, mp)} {END_NAMES[e]}" for t, e in moves) or "none (deal over)"
            raise ValueError(f"seat {self.turn}: {tile_name(tile, mp)} {END_NAMES[end]} is not a legal move; "
                             f"allowed: {allowed}")
        s = self.turn
        pts, bonus, k, ssum = _steps().step_place(self.G, self.St, s, tile, end)
        self.rec[self.nrec] = (0, s, L.ACT_PLAY, tile, end, pts, bonus, k, ssum)
        self.nrec += 1
        self._log(self.nrec - 1)
        return int(pts), int(bonus), int(k), int(ssum)

    def score_of(self, tile: int, end: int) -> tuple[int, int]:
        """(points, bonus) the seat to act would earn with this move; the state is left unchanged."""
        saved = self.St.copy(), self.nrec, len(self.actions)
        pts, bonus, _, _ = self.play(tile, end)
        self.St[:] = saved[0]
        self.nrec = saved[1]
        del self.actions[saved[2]:]
        return pts, bonus

    def play_out(self, policies: "str | Policy | Sequence[str | Policy]", seed: int, deal: int = 0) -> None:
        """Continue to the end of the deal with the given policies (policy streams from seed, deal)."""
        pols = seat_policies(policies, self.rules.players)
        ids, par = kernel_arrays(pols)
        seat = np.zeros((1, self.rules.players, len(L.SEAT_COLS)), dtype=np.int32)
        deal_out = np.zeros((1, len(L.DEAL_COLS)), dtype=np.int32)
        rec = np.zeros((max_records(self.rules, L.REC_ALL), L.REC_COLS), dtype=np.int32)
        n = batch_kernel()(self.G, ids, par, root_key(seed), deal, 1, seat, deal_out, rec, L.REC_ALL, self.work,
                           False)
        start = self.nrec
        self.rec[start:start + n] = rec[:n]
        self.nrec += n
        self._log(start)
        self.settled = True

    def settle(self) -> None:
        if self.ended and not self.settled:
            _steps().step_finish(self.G, self.St)
            self.settled = True

    def totals(self) -> list[int]:
        return [self.seat_value(s, L.PTS) + self.seat_value(s, L.BON) + self.seat_value(s, L.EB)
                for s in range(self.rules.players)]

    def record(self, seed: Any = None, deal: int = 0) -> dict[str, Any]:
        """The deal in the trace format of RULES.md section 11 (``end`` null while unfinished)."""
        self.settle()
        mp = self.rules.max_pip
        return {
            "rules": self.rules.to_dict(),
            "deal": deal,
            "seed": seed,
            "first": self.first,
            "hands": [[tile_name(t, mp) for t in h] for h in self.hands0],
            "boneyard": [tile_name(t, mp) for t in self.boneyard0],
            "actions": list(self.actions),
            "end": self.ended,
            "end_bonus": [self.seat_value(s, L.EB) for s in range(self.rules.players)],
            "totals": self.totals(),
        }


def trace(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seed: int, deal: int) -> dict[str, Any]:
    """Deal ``deal`` of the run with root ``seed``, played by the batch kernel, as a trace record."""
    st = DealState.dealt(rules, seed, deal)
    st.play_out(policies, seed, deal)
    return st.record(seed=seed, deal=deal)


def measure(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seconds: float,
            batch: int = 20_000, seed: int = 1) -> tuple[int, float]:
    """Time the kernel alone on one core: (deals played, seconds). Buffers are allocated once and
    reused, and the kernel is compiled (or loaded) before the clock starts."""
    import time

    pols = seat_policies(policies, rules.players)
    ids, par = kernel_arrays(pols)
    G = compile_rules(rules)
    seat = np.zeros((batch, rules.players, len(L.SEAT_COLS)), dtype=np.int32)
    deal = np.zeros((batch, len(L.DEAL_COLS)), dtype=np.int32)
    rec = np.zeros((1, L.REC_COLS), dtype=np.int32)
    work = make_work(rules.n_tiles)
    key = root_key(seed)
    run_batch = batch_kernel()
    run_batch(G, ids, par, key, 0, 10, seat, deal, rec, L.REC_NONE, work, True)
    done = 0
    t0 = time.perf_counter()
    while True:
        run_batch(G, ids, par, key, done, batch, seat, deal, rec, L.REC_NONE, work, True)
        done += batch
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return done, elapsed

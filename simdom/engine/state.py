"""One deal held in kernel state and stepped from Python (scripted deals, replays, position analysis).

:class:`DealState` reads the kernel's integer state for its callers: the hands, the open ends, each
seat's counters (:class:`SeatState`), how the deal ended (:class:`~simdom.engine.codes.DealEnd`);
nobody outside the engine needs the state's offsets.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..policies import Policy, parse_policy
from ..rules import Rules
from ..tiles import parse_tile, tile_name
from ._kernel import layout as L
from .api import deal_number, kernel_for, max_records, output_blocks, root_key
from .codes import Act, DealEnd, End, kernel_arrays
from .pyloop import deal_streams, has_python, play_python
from .pypolicy import seat_policies as py_seat_policies
from ._kernel.tables import compile_rules
from ._kernel.work import make_work


def _steps():
    """The just-in-time kernel module (batch.py): the entries that step one deal from Python. The batch
    path (simulate_deals, measure) does not need it and so imports no numba when the ahead-of-time kernel is
    built."""
    from . import jitcache
    jitcache.notice("setup_hands")
    from ._kernel import batch
    return batch


def check_deal(rules: Rules, hands: Sequence[Sequence[int]], boneyard: Sequence[int], first: int) -> None:
    """Raise ValueError unless the hands and boneyard are a deal of ``rules`` (docs/rules.md 2 and 6):
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


def _mask_tiles(words: Sequence[int]) -> list[int]:
    """The tiles of a hand's two mask words, ascending."""
    out = []
    for w in range(2):
        x = int(words[w]) & 0xFFFF_FFFF_FFFF_FFFF
        while x:
            low = x & -x
            out.append(w * 64 + low.bit_length() - 1)
            x ^= low
    return out


@dataclass(frozen=True)
class SeatState:
    """One seat's part of the deal state."""

    hand: tuple[int, ...]        #: tiles in hand (indices, ascending)
    pips: int                    #: pips in hand
    points: int                  #: points scored by placements
    bonus: int                   #: first-double bonus earned
    end_bonus: int               #: out or block bonus earned (after the deal is settled)
    scoring_plays: int           #: placements that scored
    plays: int                   #: tiles placed
    draws: int                   #: tiles drawn
    passes: int                  #: turns passed
    void: frozenset[int]         #: values this seat was seen unable to play (what others know)
    doubles_dealt: int           #: doubles in the initial hand
    lost_first_double: bool      #: another seat placed the first double while this seat held a double

    @property
    def total(self) -> int:
        return self.points + self.bonus + self.end_bonus


class DealState:
    """One deal held in kernel state, stepped from Python (scripted deals, replays, tests)."""

    def __init__(self, rules: Rules, hands: Sequence[Sequence[int]], boneyard: Sequence[int], first: int):
        check_deal(rules, hands, boneyard, first)
        self.rules = rules
        self._G = compile_rules(rules)
        self._work = make_work(rules.n_tiles)
        self._St, self._bone = self._work[L.W_ST], self._work[L.W_BONE]
        self._rec = np.zeros((max_records(rules, L.REC_ALL), L.REC_COLS), dtype=np.int32)
        self._nrec = 0
        tiles = [t for h in hands for t in h] + list(boneyard)
        seats = [s for s, h in enumerate(hands) for _ in h] + [-1] * len(boneyard)
        _steps().setup_hands(self._G, self._St, self._bone, np.array(tiles, dtype=np.int64),
                             np.array(seats, dtype=np.int64), len(boneyard), int(first))
        self.hands0 = [list(h) for h in hands]
        self.boneyard0 = list(boneyard)
        self.first = first
        self.actions: list[dict[str, Any]] = []
        self.settled = False

    @classmethod
    def dealt(cls, rules: Rules, seed: int, deal: int) -> "DealState":
        """Deal number ``deal`` of the run with root ``seed``, as the batch kernel deals it (ValueError for a
        deal number outside 0 .. 2^63 - 1)."""
        deal = deal_number(deal)
        work = make_work(rules.n_tiles)
        St, bone, perm, rng = work[L.W_ST], work[L.W_BONE], work[L.W_PERM], work[L.W_RNG]
        _steps().new_deal(compile_rules(rules), St, bone, perm, rng, root_key(seed), deal)
        hands = [_mask_tiles(St[L.SEAT0 + s * L.SB + L.HAND:][:2]) for s in range(rules.players)]
        return cls(rules, hands, list(bone[: St[L.BN]]), int(St[L.FIRST]))

    # -- reading the state -----------------------------------------------------------------------
    def _seat(self, s: int, field: int) -> int:
        return int(self._St[L.SEAT0 + s * L.SB + field])

    def hand(self, s: int) -> list[int]:
        base = L.SEAT0 + s * L.SB + L.HAND
        return _mask_tiles(self._St[base:base + 2])

    def seat(self, s: int) -> SeatState:
        """Seat ``s``'s hand and counters."""
        void = self._seat(s, L.VOID)
        return SeatState(tuple(self.hand(s)), self._seat(s, L.HPIPS), self._seat(s, L.PTS), self._seat(s, L.BON),
                         self._seat(s, L.EB), self._seat(s, L.SPLAYS), self._seat(s, L.PLAYS),
                         self._seat(s, L.DRAWS), self._seat(s, L.PASSES),
                         frozenset(v for v in range(self.rules.max_pip + 1) if (void >> v) & 1),
                         self._seat(s, L.DDEALT), bool(self._seat(s, L.LOSTFD)))

    def public_seats(self) -> list[tuple[int, int, frozenset[int]]]:
        """What every seat sees of each seat: (tiles in hand, points + first-double bonus so far, the
        values it was seen unable to play)."""
        mp = self.rules.max_pip
        out = []
        for s in range(self.rules.players):
            void = self._seat(s, L.VOID)
            out.append((self._seat(s, L.HCNT), self._seat(s, L.PTS) + self._seat(s, L.BON),
                        frozenset(v for v in range(mp + 1) if (void >> v) & 1)))
        return out

    @property
    def turn(self) -> int:
        """The seat to act."""
        return int(self._St[L.TURN])

    @property
    def move_number(self) -> int:
        """Tiles placed so far (the next placement is move ``move_number + 1``)."""
        return int(self._St[L.NPL])

    @property
    def ended(self) -> DealEnd | None:
        e = DealEnd(int(self._St[L.ENDED]))
        return None if e == DealEnd.PLAYING else e

    @property
    def first_double(self) -> tuple[int, int] | None:
        """(move number, seat) of the deal's first double, or None while none is placed."""
        m = int(self._St[L.FD_MOVE])
        return (m, int(self._St[L.FD_SEAT])) if m else None

    @property
    def boneyard_left(self) -> int:
        """Tiles still in the boneyard (the reserve included)."""
        return int(self._St[L.BN] - self._St[L.BTOP])

    def played(self) -> list[int]:
        """The tiles on the layout."""
        return _mask_tiles(self._St[L.PLAYED:L.PLAYED + 2])

    def ends(self) -> dict[str, int]:
        """The open ends and their values; arms only when open."""
        n = 0 if self._St[L.NPL] == 0 else (4 if self._St[L.SPIN] >= 0 and self._St[L.ARMS] else 2)
        return {End(e).label: int(self._St[L.EV + e]) for e in range(n)}

    def counted(self) -> tuple[int, int]:
        """(k, S): the counted ends and their sum (docs/rules.md 3)."""
        k, s = _steps().step_counted(self._G, self._St)
        return int(k), int(s)

    def arms_used(self) -> tuple[bool, bool]:
        return bool(self._St[L.USED]), bool(self._St[L.USED + 1])

    # -- stepping ----------------------------------------------------------------------------------
    def _log(self, start: int) -> None:
        mp = self.rules.max_pip
        for r in self._rec[start:self._nrec]:
            seat, act, t, e, pts, bonus = (int(x) for x in r[1:7])
            if act == Act.DRAW:
                self.actions.append({"seat": seat, "act": "draw", "tile": tile_name(t, mp)})
            elif act == Act.PASS:
                self.actions.append({"seat": seat, "act": "pass"})
            else:
                self.actions.append({"seat": seat, "act": "play", "tile": tile_name(t, mp),
                                     "end": End(e).label, "points": pts, "bonus": bonus})

    def advance(self) -> list[tuple[int, End]]:
        """Play forced draws and passes; return the legal (tile, end) moves of the seat to act
        (empty when the deal has ended)."""
        mv_t, mv_e = self._work[L.W_MVT], self._work[L.W_MVE]
        start = self._nrec
        n, self._nrec = _steps().step_advance(self._G, self._St, self._bone, mv_t, mv_e, self._rec, self._nrec,
                                              L.REC_ALL, 0)
        self._log(start)
        return [(int(mv_t[i]), End(int(mv_e[i]))) for i in range(n)]

    def legal(self) -> list[tuple[int, End]]:
        mv_t, mv_e = self._work[L.W_MVT], self._work[L.W_MVE]
        n = _steps().step_legal(self._G, self._St, self.turn, mv_t, mv_e)
        return [(int(mv_t[i]), End(int(mv_e[i]))) for i in range(n)]

    def play(self, tile: int, end: int) -> tuple[int, int, int, int]:
        """The seat to act places ``tile`` on ``end`` (must be legal). Returns (points, bonus, k, S)."""
        moves = self.advance()
        if (tile, end) not in moves:
            mp = self.rules.max_pip
            allowed = ", ".join(f"{tile_name(t, mp)} {e.label}" for t, e in moves) or "none (deal over)"
            raise ValueError(f"seat {self.turn}: {tile_name(tile, mp)} {End(end).label} is not a legal move; "
                             f"allowed: {allowed}")
        s = self.turn
        pts, bonus, k, ssum = _steps().step_place(self._G, self._St, s, int(tile), int(end))
        self._rec[self._nrec] = (0, s, Act.PLAY, tile, int(end), pts, bonus, k, ssum)
        self._nrec += 1
        self._log(self._nrec - 1)
        return int(pts), int(bonus), int(k), int(ssum)

    def snapshot(self) -> tuple:
        """An opaque copy of the deal's progress, for :meth:`restore` (try a move, then undo it)."""
        return self._St.copy(), self._nrec, len(self.actions), self.settled

    def restore(self, snap: tuple) -> None:
        St, self._nrec, n_actions, self.settled = snap
        self._St[:] = St
        del self.actions[n_actions:]

    def copy(self) -> "DealState":
        """An independent copy of the deal at this point."""
        new = DealState.__new__(DealState)
        new.__dict__.update(self.__dict__)
        # the deal's arrays are copied; the policies' scratch and solver arrays are work space, shared
        new._work = tuple(w.copy() for w in self._work[:L.W_SCRATCH]) + tuple(self._work[L.W_SCRATCH:])
        new._St, new._bone = new._work[L.W_ST], new._work[L.W_BONE]
        new._rec = self._rec.copy()
        new.actions = list(self.actions)
        new.hands0 = [list(h) for h in self.hands0]
        return new

    def __deepcopy__(self, memo: dict) -> "DealState":
        """:meth:`copy` (what ``copy.deepcopy`` and OpenSpiel's ``clone`` get): the rules' compiled array
        stays the shared read-only one, so the kernel entries keep the signature they were compiled for
        (a writable copy made numba compile them again, 17 s), and the work space is not copied (it was
        11 ms a copy)."""
        return self.copy()

    def set_hidden(self, hands: dict[int, Sequence[int]], boneyard: Sequence[int]) -> None:
        """Give the seats of ``hands`` these tiles (their hand counts change with them) and make
        ``boneyard`` the tiles still to draw, top first (another world of what a seat cannot see)."""
        for s, tiles in hands.items():
            self.set_hand(s, tiles)
        top, bn = int(self._St[L.BTOP]), int(self._St[L.BN])
        if len(boneyard) != bn - top:
            raise ValueError(f"{len(boneyard)} tiles for a boneyard of {bn - top}")
        self._bone[top:bn] = list(boneyard)

    def set_hand(self, s: int, tiles: Sequence[int]) -> None:
        """Seat ``s`` now holds exactly ``tiles`` (count and pips follow)."""
        base = L.SEAT0 + s * L.SB
        words = [0, 0]
        for t in tiles:
            words[t >> 6] |= 1 << (t & 63)
        self._St[base + L.HAND:base + L.HAND + 2] = np.array(words, dtype=np.uint64).view(np.int64)
        self._St[base + L.HCNT] = len(tiles)
        self._St[base + L.HPIPS] = sum(int(self._G[L.PIPS + t]) for t in tiles)

    def choice(self, policy: "str | Policy", key: int, others: "str | Policy" = "greedy") -> tuple[int, End]:
        """The move ``policy`` chooses for the seat to act among :meth:`legal`, with random streams
        seeded by ``key`` (a policy never changes the state: tests check it with :meth:`snapshot`).
        ``others``: the other seats' policy (what clairvoyant plays against)."""
        moves = self.advance()
        if not moves:
            raise ValueError("the deal is over: no move to choose")
        pols = [parse_policy(others)] * self.rules.players
        pols[self.turn] = parse_policy(policy)
        ids, par = kernel_arrays(pols)
        streams = np.random.default_rng(key).integers(0, 2**63, size=L.N_STREAMS, dtype=np.uint64)
        return self.choose_with(ids, par, streams, moves)

    def choose_with(self, ids: np.ndarray, par: np.ndarray, streams: np.ndarray,
                    moves: Sequence[tuple[int, End]]) -> tuple[int, End]:
        """The move the kernel's policy ``ids[turn]`` chooses among ``moves`` (:meth:`advance`'s list),
        drawing from ``streams`` (uint64[N_STREAMS], advanced in place as the batch kernel advances a
        deal's streams)."""
        from . import jitcache
        from ._kernel.aot import is_plain
        if is_plain(ids[self.turn:self.turn + 1]):  # plain.py: the plain policies' chooser alone
            jitcache.notice("choose_entry_plain")
            from ._kernel.plain import choose_entry_plain as choose_entry
        else:
            jitcache.notice("choose_entry")
            from ._kernel.kchoose import choose_entry
        mv_t, mv_e = self._work[L.W_MVT], self._work[L.W_MVE]
        for i, (t, e) in enumerate(moves):
            mv_t[i], mv_e[i] = t, int(e)
        i = int(choose_entry(self._G, self._St, self._bone, self.turn, ids, par, streams, mv_t, mv_e, len(moves),
                             self._work[L.W_SCRATCH], self._work[L.W_SOLVER]))
        return moves[i]

    def score_of(self, tile: int, end: int) -> tuple[int, int]:
        """(points, bonus) the seat to act would earn with this move; the state is left unchanged."""
        snap = self.snapshot()
        pts, bonus, _, _ = self.play(tile, end)
        self.restore(snap)
        return pts, bonus

    def play_out(self, policies: "str | Policy | Sequence[str | Policy]", seed: int, deal: int = 0) -> None:
        """Continue to the end of the deal with the given policies (policy streams from seed, deal). With a
        Python policy among them (simdom/engine/pypolicy.py) the deal is stepped from Python (pyloop.py)."""
        pols = py_seat_policies(policies, self.rules.players)
        deal = deal_number(deal)
        if has_python(pols):
            play_python(self, pols, deal_streams(root_key(seed), deal))
            self.settle()
            return
        ids, par = kernel_arrays(pols)
        seat, deal_out = output_blocks(1, self.rules.players)
        rec = np.zeros((max_records(self.rules, L.REC_ALL), L.REC_COLS), dtype=np.int32)
        n = kernel_for(ids)(self._G, ids, par, root_key(seed), deal, 1, seat, deal_out, 0, 1, rec, L.REC_ALL,
                            self._work, False)
        start = self._nrec
        self._rec[start:start + n] = rec[:n]
        self._nrec += n
        self._log(start)
        self.settled = True

    def settle(self) -> None:
        if self.ended and not self.settled:
            _steps().step_finish(self._G, self._St)
            self.settled = True

    def totals(self) -> list[int]:
        return [self.seat(s).total for s in range(self.rules.players)]

    def record(self, seed: Any = None, deal: int = 0) -> dict[str, Any]:
        """The deal in the trace format of docs/rules.md section 11 (``end`` null while unfinished)."""
        self.settle()
        mp = self.rules.max_pip
        ended = self.ended
        return {
            "rules": self.rules.to_dict(),
            "deal": deal,
            "seed": seed,
            "first": self.first,
            "hands": [[tile_name(t, mp) for t in h] for h in self.hands0],
            "boneyard": [tile_name(t, mp) for t in self.boneyard0],
            "actions": list(self.actions),
            "end": ended.label if ended else None,
            "end_bonus": [self.seat(s).end_bonus for s in range(self.rules.players)],
            "totals": self.totals(),
        }


class LayoutState:
    """The layout alone, stepped by placements without hands (docs/rules.md 3): the engine's open ends
    and which of them a tile fits, for code that knows the placements but not every hand (what a seat
    saw of a deal, simdom.analyze.view). Placements are not checked: :meth:`ends_for` and :meth:`refusal`
    say where a tile may go."""

    #: the seat whose hand the state lends to the tile asked about (nobody's hand is tracked)
    _SEAT = 0

    def __init__(self, rules: Rules):
        self.rules = rules
        self._G = compile_rules(rules)
        work = make_work(rules.n_tiles)
        self._St, self._mv_t, self._mv_e = work[L.W_ST], work[L.W_MVT], work[L.W_MVE]
        none = np.zeros(0, dtype=np.int64)
        _steps().setup_hands(self._G, self._St, work[L.W_BONE], none, none, 0, 0)
        self._hand = L.SEAT0 + self._SEAT * L.SB + L.HAND

    @property
    def placed(self) -> int:
        """Tiles placed so far."""
        return int(self._St[L.NPL])

    def ends(self) -> dict[End, int]:
        """The open ends and their values (L, R, then the spinner's arms once open; none before the lead)."""
        n = 0 if self._St[L.NPL] == 0 else (4 if self._St[L.SPIN] >= 0 and self._St[L.ARMS] else 2)
        return {End(e): int(self._St[L.EV + e]) for e in range(n)}

    def ends_for(self, tile: int) -> list[End]:
        """Where ``tile`` may be placed now (the kernel's legal moves of a hand holding it alone)."""
        h = self._St[self._hand:self._hand + 2]
        h[:] = 0
        h[tile >> 6] = np.uint64(1 << (tile & 63)).view(np.int64)
        n = _steps().step_legal(self._G, self._St, self._SEAT, self._mv_t, self._mv_e)
        h[:] = 0
        return [End(int(self._mv_e[i])) for i in range(n) if self._mv_t[i] == tile]

    def refusal(self, tile: int, end: End) -> str | None:
        """None if ``tile`` may go on ``end`` now, else why not (``end R shows 4``)."""
        if self.placed == 0:
            return None if end == End.LEAD else "the first tile is the lead (end lead)"
        if end == End.LEAD:
            return "the lead is already placed"
        ends = self.ends()
        if end not in ends:
            return f"end {end.label} is not open (open: {', '.join(e.label for e in ends)})"
        return None if end in self.ends_for(tile) else f"end {end.label} shows {ends[end]}"

    def place(self, tile: int, end: int) -> None:
        """``tile`` goes on ``end`` (where :meth:`ends_for` allows it)."""
        _steps().step_place(self._G, self._St, self._SEAT, int(tile), int(end))


def trace(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seed: int, deal: int) -> dict[str, Any]:
    """Deal ``deal`` of the run with root ``seed``, played by the batch kernel, as a trace record (the seed and
    the deal number as Python ints, whatever integers they were given as)."""
    root_key(seed)  # ValueError for a seed that is not an integer >= 0
    seed, deal = int(seed), deal_number(deal)
    st = DealState.dealt(rules, seed, deal)
    st.play_out(policies, seed, deal)
    return st.record(seed=seed, deal=deal)

"""Matches and partnerships (docs/rules.md 12): the Python layer over the match kernel (matchloop.py).

* :func:`simulate_matches` plays whole matches and returns named columns: one row per deal, in play
  order, and one row per match.
* :func:`trace_match` plays one match and returns its deal records (docs/rules.md 12, "Match traces").
* :class:`MatchState` and :class:`MatchDeal` step a match deal by deal from Python (replays): the
  credits, the end rules and the next lead are the kernel's own functions.
* :func:`measure_matches` times the match kernel on one core.

Randomness: deal ``h`` of match ``m`` under root seed ``S`` has its own 64-bit key,
:func:`deal_seed` (S, m, h), derived from the root key and (m, h) alone and distinct from the single
deals' keys. The key fixes that deal's shuffle, lot and policy streams, and is the deal's trace
``seed``. So match m of seed S is the same sequence of shuffles in every arm and rotation.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..policies import Policy, seat_policies
from ..rules import Rules
from ..tiles import tile_name
from ._kernel import layout as L
from .api import DealNumberError, decode_records, max_records, output_blocks, root_key, row_columns
from .codes import Act, DealEnd, End, Records, kernel_arrays
from .pyloop import has_python, key_streams, play_python
from .pypolicy import seat_policies as py_seat_policies
from .state import DealState, _mask_tiles
from ._kernel.tables import compile_rules
from ._kernel.work import make_work


def _steps():
    """The just-in-time match entries (matchloop.py), for stepping and traces."""
    from . import jitcache
    jitcache.notice("new_match_deal")
    from ._kernel import matchloop
    return matchloop


def _kernel():
    from ._kernel.aot import run_matches
    return run_matches()


def check_match(rules: Rules) -> None:
    if not rules.is_match:
        raise ValueError("rules: target = 0 is not a match; allowed: target > 0 (docs/rules.md 12), "
                         "e.g. --set target=100")


def sides(rules: Rules) -> list[list[int]]:
    """The seats of each side: [[0, 2], [1, 3]] for partners, else [[0], [1], ...]."""
    if rules.teams == "partners":
        return [[0, 2], [1, 3]]
    return [[s] for s in range(rules.players)]


def side_of(rules: Rules, seat: int) -> int:
    return seat % 2 if rules.teams == "partners" else seat


def deal_seed(seed: int, match: int, hand: int) -> int:
    """The 64-bit key of deal ``hand`` of match ``match`` under root seed ``seed`` (its trace seed)."""
    if not (0 <= match < 1 << 31 and 0 <= hand < 1 << 31):
        raise DealNumberError(f"match {match}, deal {hand}; allowed: numbers 0 to 2^31 - 1")
    return int(_steps().deal_key(root_key(seed), int(match), int(hand)))


@dataclass
class MatchBatch:
    """Matches match0 .. match0 + n - 1 of root ``seed``.

    deals:   named columns, one row per deal in play order: match, hand, rules_lead (the rules' lead
             of section 6 chose the leader; else next_lead did, any tile), first_seat, end
             (:class:`~simdom.engine.codes.DealEnd` codes: domino, blocked, target), hand_winner
             (-1: none), first_double_move/_seat, spinner_move/_seat, tiles_placed; per seat s
             ``<name>_s`` for every per-seat result (points, play_points, bonus, end_bonus,
             scoring_plays, plays, draws, passes, pips_left, went_out, doubles_dealt,
             lost_first_double; points are the deal's, whatever the match credited); per side j ``before_j``, ``credited_j``, ``after_j``.
    matches: named columns, one row per match: match, deals, winner (side, -1: none), unfinished
             (max_deals reached without a winner), ``score_j`` final score of side j.
    records: the action records (all actions) as named columns (:func:`~simdom.engine.api.decode_records`;
             ``deal`` = the deal's row in ``deals``), or None.
    """

    rules: Rules
    policies: list[Policy]
    seed: int
    match0: int
    deals: dict[str, np.ndarray]
    matches: dict[str, np.ndarray]
    records: dict[str, np.ndarray] | None = None

    @property
    def n_deals(self) -> int:
        return len(self.deals["match"])


def _buffers(rules: Rules, cap: int, n_matches: int, rec_cap: int) -> tuple:
    return (*output_blocks(cap, rules.players), np.zeros((cap, L.MD_SIZE), np.int32),
            np.zeros((n_matches, L.MM_SIZE), np.int32), np.zeros((max(rec_cap, 1), L.REC_COLS), np.int32))


def _columns(rules: Rules, seat, deal, mdeal, match) -> tuple[dict, dict]:
    ns = len(sides(rules))
    d: dict[str, np.ndarray] = {
        "match": mdeal[:, L.MD_MATCH].astype(np.int64),
        "hand": mdeal[:, L.MD_HAND].copy(),
        "rules_lead": mdeal[:, L.MD_LEAD] < 0,
    }
    seats, deals = row_columns(seat, deal)
    for name, v in deals.items():
        d["hand_winner" if name == "winner" else name] = v.copy()
    for s in range(rules.players):
        for name, v in seats.items():
            d[f"{name}_{s}"] = v[:, s].copy()
    for j in range(ns):
        d[f"before_{j}"] = mdeal[:, L.MD_BEFORE + j].copy()
        d[f"credited_{j}"] = mdeal[:, L.MD_CRED + j].copy()
        d[f"after_{j}"] = d[f"before_{j}"] + d[f"credited_{j}"]
    m: dict[str, np.ndarray] = {
        "match": match[:, L.MM_MATCH].astype(np.int64),
        "deals": match[:, L.MM_DEALS].copy(),
        "winner": match[:, L.MM_WINNER].copy(),
        "unfinished": match[:, L.MM_WINNER] < 0,
    }
    for j in range(ns):
        m[f"score_{j}"] = match[:, L.MM_SCORE + j].copy()
    return d, m


def simulate_matches(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seed: int, match0: int = 0,
                     n_matches: int = 1, records: "bool | Records" = False) -> MatchBatch:
    """Play matches ``match0 .. match0 + n_matches - 1`` of the run with root ``seed`` (docs/rules.md 12).
    ``records``: True (every action, for traces) or a :class:`~simdom.engine.codes.Records` mode
    (``Records.PLAYS``: the placements, for the moves table)."""
    check_match(rules)
    if n_matches < 1 or match0 < 0 or match0 + n_matches >= 1 << 31:
        raise DealNumberError(f"matches {match0}..{match0 + n_matches - 1}; allowed: numbers 0 to 2^31 - 1, at least "
                              "one")
    match0, n_matches = int(match0), int(n_matches)  # one type for the kernel's int64 arguments
    pols = seat_policies(policies, rules.players)
    ids, par = kernel_arrays(pols)
    G = compile_rules(rules)
    work = make_work(rules.n_tiles)
    M = np.zeros(L.M_SIZE, np.int64)
    counts = np.zeros(2, np.int64)
    rec_mode = (Records.ALL if records else Records.NONE) if isinstance(records, bool) else Records(records)
    records = rec_mode != Records.NONE
    per_deal = max_records(rules, rec_mode)
    run = _kernel()
    key = root_key(seed)
    parts: list[tuple] = []
    done = 0
    while done < n_matches:
        todo = n_matches - done
        cap = rules.max_deals + min(todo, 4096) * 8
        seat, deal, mdeal, match, rec = _buffers(rules, cap, todo, cap * per_deal if records else 0)
        m = run(G, ids, par, key, match0 + done, todo, seat, deal, mdeal, match, rec, int(rec_mode), work, M, counts)
        nd, nr = int(counts[L.CNT_DEALS]), int(counts[L.CNT_RECORDS])
        parts.append((seat[..., :nd], deal[..., :nd], mdeal[:nd], match[:m], rec[:nr] if records else None))
        done += m
    cat = [np.concatenate([p[i] for p in parts], axis=-1 if i < 2 else 0) for i in range(4)]
    rec_all = None
    if records:
        offsets = np.cumsum([0] + [len(p[2]) for p in parts[:-1]])
        rec_all = np.concatenate([p[4] for p in parts])
        rec_all[:, 0] += np.repeat(offsets, [len(p[4]) for p in parts]).astype(np.int32)
    deals, matches = _columns(rules, *cat)
    return MatchBatch(rules, pols, int(seed), match0, deals, matches,
                      None if rec_all is None else decode_records(rec_all))


def _actions(rec: dict[str, np.ndarray], rows: np.ndarray, max_pip: int) -> list[dict[str, Any]]:
    """Action records (named columns, the given rows) as the trace's action objects (docs/rules.md 11)."""
    out: list[dict[str, Any]] = []
    for i in rows:
        seat, act, t = int(rec["seat"][i]), int(rec["act"][i]), int(rec["tile"][i])
        if act == Act.DRAW:
            out.append({"seat": seat, "act": "draw", "tile": tile_name(t, max_pip)})
        elif act == Act.PASS:
            out.append({"seat": seat, "act": "pass"})
        else:
            out.append({"seat": seat, "act": "play", "tile": tile_name(t, max_pip),
                        "end": End(int(rec["end"][i])).label, "points": int(rec["points"][i]),
                        "bonus": int(rec["bonus"][i])})
    return out


def match_object(rules: Rules, match: int, hand: int, before: Sequence[int], credited: Sequence[int], *, over: bool,
                 winner: int | None) -> dict[str, Any]:
    """The ``match`` object of a deal record (docs/rules.md 12, "Match traces")."""
    return {"id": int(match), "hand": int(hand), "sides": sides(rules), "before": [int(x) for x in before],
            "credited": [int(x) for x in credited], "after": [int(b) + int(c) for b, c in zip(before, credited)],
            "over": bool(over), "winner": None if winner is None else int(winner)}


def trace_match(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seed: int, match: int,
                deal0: int = 0) -> list[dict[str, Any]]:
    """Match ``match`` of the run with root ``seed``, played by the match kernel, as its deal records
    (one per deal; ``deal`` counts from ``deal0``, ``seed`` is the deal's own key). With a Python policy
    among ``policies`` (pypolicy.py), played from Python deal by deal (:func:`trace_match_python`)."""
    pols = py_seat_policies(policies, rules.players)
    if has_python(pols):
        return trace_match_python(rules, pols, seed, match, deal0)
    b = simulate_matches(rules, policies, seed, match, 1, records=True)
    D, mp = b.deals, rules.max_pip
    ns = len(sides(rules))
    winner = int(b.matches["winner"][0])
    recs = b.records
    out = []
    for d in range(b.n_deals):
        hand = int(D["hand"][d])
        key = deal_seed(seed, match, hand)
        lead = None if D["rules_lead"][d] else int(D["first_seat"][d])
        st = MatchDeal.dealt(rules, key, lead)
        if st.first != int(D["first_seat"][d]):  # pragma: no cover - the kernel and the re-deal disagree
            raise RuntimeError(f"match {match} deal {hand}: re-dealt leader {st.first}, played {D['first_seat'][d]}")
        over = d == b.n_deals - 1
        out.append({
            "rules": rules.to_dict(),
            "deal": deal0 + d,
            "seed": key,
            "first": st.first,
            "hands": [[tile_name(t, mp) for t in h] for h in st.hands0],
            "boneyard": [tile_name(t, mp) for t in st.boneyard0],
            "actions": _actions(recs, np.flatnonzero(recs["deal"] == d), mp),
            "end": DealEnd(int(D["end"][d])).label,
            "end_bonus": [int(D[f"end_bonus_{s}"][d]) for s in range(rules.players)],
            "totals": [int(D[f"points_{s}"][d]) for s in range(rules.players)],
            "match": match_object(rules, match, hand, [D[f"before_{j}"][d] for j in range(ns)],
                                  [D[f"credited_{j}"][d] for j in range(ns)], over=over,
                                  winner=winner if over and winner >= 0 else None),
        })
    return out


def trace_match_python(rules: Rules, policies: Sequence[Any], seed: int, match: int,
                       deal0: int = 0) -> list[dict[str, Any]]:
    """:func:`trace_match` stepped from Python, as the match kernel plays it (matchloop.run_matches): each
    deal dealt from its own key, its seats' streams seeded from that key, every placement credited by
    :class:`MatchState`, the next leader by the rules; a Python seat sees the sides' scores before the
    deal (``Observation.scores``)."""
    check_match(rules)
    pols = py_seat_policies(policies, rules.players)
    ms = MatchState(rules)
    lead: int | None = None
    out = []
    for hand in range(rules.max_deals):
        ms.begin_deal()
        key = deal_seed(seed, match, hand)
        deal = MatchDeal.dealt(rules, key, lead)
        play_python(deal, pols, key_streams(key), scores=ms.before,
                    place=lambda t, e, deal=deal: ms.play(deal, t, e),
                    done=lambda deal=deal: deal.ended == DealEnd.TARGET)
        ms.end_deal(deal)
        rec = deal.record(seed=key, deal=deal0 + hand)
        rec["match"] = ms.match_object(match)
        out.append(rec)
        if ms.winner is not None:
            break
        lead = ms.next_leader(deal)
    return out


class MatchDeal(DealState):
    """One deal of a match, stepped from Python. ``lead``: None when the rules' lead (section 6)
    chooses the leader, else the seat next_lead chose, which leads any tile."""

    def __init__(self, rules: Rules, hands: Sequence[Sequence[int]], boneyard: Sequence[int], first: int,
                 lead: int | None = None):
        if lead is not None and first != lead:
            raise ValueError(f"first = {first}, but next_lead = {rules.next_lead} gives seat {lead} the lead")
        self.match_rules = rules
        self.lead = lead
        super().__init__(rules if lead is None else dataclasses.replace(rules, lead="any"), hands, boneyard, first)

    @classmethod
    def dealt(cls, rules: Rules, key: int, lead: int | None = None) -> "MatchDeal":
        """The deal of key ``key`` as the match kernel deals it."""
        if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key < 1 << 64:
            raise ValueError(f"seed = {key!r} is not a deal's key; allowed: an integer 0 .. 2^64 - 1")
        work = make_work(rules.n_tiles)
        St, bone, perm, rng = work[L.W_ST], work[L.W_BONE], work[L.W_PERM], work[L.W_RNG]
        _steps().new_match_deal(compile_rules(rules), St, bone, perm, rng, np.uint64(key),
                                 -1 if lead is None else int(lead))
        hands = [_mask_tiles(St[L.SEAT0 + s * L.SB + L.HAND:][:2]) for s in range(rules.players)]
        return cls(rules, hands, list(bone[: St[L.BN]]), int(St[L.FIRST]), lead)

    @property
    def hand_winner(self) -> int | None:
        """The seat that dominoed or, in a blocked deal, won on pips (with partners: the winning
        side's seat the end bonus is written on); None when nobody did, or the match stopped the deal."""
        w = int(self._St[L.WINNER])
        return None if w < 0 else w

    def stop_at_target(self) -> None:
        """A placement's credit won the match: the deal ends here, no end bonus (docs/rules.md 12)."""
        self._St[L.ENDED] = L.END_TARGET
        self._St[L.WINNER] = -1
        self.settled = True

    def settle(self) -> None:
        """Settle the end of the deal: by seat (section 7) or, with partners, by side (section 12)."""
        if self.ended in (DealEnd.DOMINO, DealEnd.BLOCKED) and not self.settled:
            _steps().step_settle(self._G, self._St)
            self.settled = True

    def record(self, seed: Any = None, deal: int = 0) -> dict[str, Any]:
        rec = super().record(seed=seed, deal=deal)
        rec["rules"] = self.match_rules.to_dict()
        return rec


class MatchState:
    """The scores of one match, stepped from Python deal by deal with the kernel's own credit, end and
    next-lead functions (matchloop.py). ``scores``: the sides' scores to start from (default 0: a new
    match), e.g. to study a position of a match."""

    def __init__(self, rules: Rules, scores: Sequence[int] | None = None):
        check_match(rules)
        self.rules = rules
        self.G = compile_rules(rules)
        self.M = np.zeros(L.M_SIZE, np.int64)
        self.M[L.M_WON] = -1
        self.sides = sides(rules)
        ns = len(self.sides)
        if scores is not None:
            if len(scores) != ns or not all(isinstance(x, (int, np.integer)) and 0 <= x for x in scores):
                raise ValueError(f"scores = {list(scores)!r}; allowed: {ns} integers >= 0, one per side")
            self.M[L.M_SCORE:L.M_SCORE + ns] = scores
        self.deals = 0

    def _get(self, base: int) -> list[int]:
        return [int(x) for x in self.M[base:base + len(self.sides)]]

    @property
    def scores(self) -> list[int]:
        return self._get(L.M_SCORE)

    @property
    def before(self) -> list[int]:
        """The side scores before the current deal."""
        return self._get(L.M_BEFORE)

    @property
    def credited(self) -> list[int]:
        """What the current deal has credited to each side so far."""
        return self._get(L.M_CRED)

    @property
    def winner(self) -> int | None:
        w = int(self.M[L.M_WON])
        return None if w < 0 else w

    @property
    def over(self) -> bool:
        return self.winner is not None or self.deals >= self.rules.max_deals

    def begin_deal(self) -> None:
        ns = len(self.sides)
        self.M[L.M_BEFORE:L.M_BEFORE + ns] = self.M[L.M_SCORE:L.M_SCORE + ns]
        self.M[L.M_CRED:L.M_CRED + ns] = 0
        self.deals += 1

    def play(self, deal: MatchDeal, tile: int, end: int) -> tuple[int, int, int, int, bool]:
        """The seat to act in ``deal`` places ``tile`` on ``end`` (ValueError when illegal); under
        immediate / exact its points plus bonus are credited at once, and a placement that wins the
        match stops the deal there. Returns (points, bonus, k, S, won): the deal's points, whatever
        the match credited."""
        pts, bonus, k, ssum = deal.play(tile, end)
        won = False
        if self.rules.match_end != "deal_end":
            seat = deal.actions[-1]["seat"]
            won = bool(_steps().step_credit(self.G, self.M, side_of(self.rules, seat), pts + bonus))
            if won:
                deal.stop_at_target()
        return pts, bonus, k, ssum, won

    def end_deal(self, deal: MatchDeal) -> bool:
        """After the placements: play the forced draws and passes; when the deal has ended, settle it
        and credit its end bonus (or, under deal_end, its totals, then the deal_end rule). Returns
        False when a seat still has a move to make (nothing credited)."""
        if deal.ended == DealEnd.TARGET:
            return True
        if deal.advance():
            return False
        deal.settle()
        _steps().step_credit_deal_end(self.G, deal._St, self.M)
        return True

    def next_leader(self, deal: MatchDeal) -> int | None:
        """The seat that leads the deal after ``deal`` (any tile), or None for the rules' lead."""
        v = int(_steps().step_next_leader(self.G, deal._St))
        return None if v < 0 else v

    def match_object(self, match: int) -> dict[str, Any]:
        """The current deal's ``match`` object (docs/rules.md 12)."""
        return match_object(self.rules, match, self.deals - 1, self.before, self.credited, over=self.over,
                            winner=self.winner)


def measure_matches(rules: Rules, policies: "str | Policy | Sequence[str | Policy]", seconds: float,
                    batch: int = 2_000, seed: int = 1) -> tuple[int, int, float]:
    """Time the match kernel alone on one core: (deals played, matches played, seconds). Buffers are
    allocated once and reused, and the kernel is compiled (or loaded) before the clock starts."""
    import time

    check_match(rules)
    ids, par = kernel_arrays(seat_policies(policies, rules.players))
    G = compile_rules(rules)
    cap = rules.max_deals + batch * 8
    seat, deal, mdeal, match, rec = _buffers(rules, cap, batch, 0)
    work = make_work(rules.n_tiles)
    M = np.zeros(L.M_SIZE, np.int64)
    counts = np.zeros(2, np.int64)
    key = root_key(seed)
    run = _kernel()
    run(G, ids, par, key, 0, 1, seat, deal, mdeal, match, rec, int(Records.NONE), work, M, counts)
    t0 = time.perf_counter()
    run(G, ids, par, key, 1, 1, seat, deal, mdeal, match, rec, int(Records.NONE), work, M, counts)
    # batches of about 0.2 s at most, so that a slow policy stops on time
    batch = max(1, min(batch, int(0.2 / max(time.perf_counter() - t0, 1e-9))))
    deals = matches = 0
    t0 = time.perf_counter()
    while True:
        matches += run(G, ids, par, key, matches, batch, seat, deal, mdeal, match, rec, int(Records.NONE), work, M,
                       counts)
        deals += int(counts[L.CNT_DEALS])
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return deals, matches, elapsed

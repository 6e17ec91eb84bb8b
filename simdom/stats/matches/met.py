"""The match equity table by dynamic programming over exact scores (``simdom equity``, docs/equity.md).

Input: a sample of deals (:class:`DealSample`, played by simdom.run.equity), each with its lead condition
(the rules' lead, or the seat ``next_lead`` named), the lead condition of the deal after it, each side's
credited points and, under ``immediate`` / ``exact``, its credits in the order the match makes them.
Every credit is a multiple of the sample's step g (the greatest common divisor of the credits seen), so
the scores a deal can leave are the multiples of g: the table holds every one below the target.

The value of a position (the sides' scores before a deal and who leads it) is P(each side wins the
match), the deals independent given who leads them (the policies do not see the scores):

    V(s, L) = sum over the deals d led as L of  1/n_L * (a win, if d ends the match from s,
                                                          else V(s + credited_d(s), next lead of d))

* ``deal_end``: a deal that leaves a side at >= T alone on the highest score wins; a tie for highest at
  >= T plays on: with 2 sides the next deals decide it, the side that gains more in a deal wins (solved
  exactly, by lead); with 3 or 4 sides such a tie is counted as shared equally among the tied sides.
* ``immediate``: a deal whose credits take a side to >= T (the placement or end bonus that does it) wins
  for that side: each such deal is replayed credit by credit from the score, and the first side to
  reach its target wins; the deal is cut there.
* ``exact``: the same replay, a credit that would pass the target not counted (all or nothing), a side
  that reaches T exactly wins; the deal's other credits count.

Deals that no side's credits can end from s are counted once per distinct (credited, next lead); the
others one by one. Scores are visited from the highest (every credit is >= 0, so a deal leads to a score
already solved, or back to the same one: the deals that credit nothing, solved as a small linear system
over the leads). ``max_deals`` is not modelled (a match undecided after it has no winner).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from simdom.rules import Rules
from simdom.stats.matches.metdp import solve_any, solve_rows, tie_values

#: the most scores (positions times sides) a table may hold
MAX_CELLS = 4_000_000
#: the most work (scores times distinct deal outcomes, plus deals replayed) a table may take
MAX_WORK = 100_000_000_000


@dataclass
class DealSample:
    """The deals a table is computed from (simdom.run.equity.sample_deals). ``cond``: 0 = the rules'
    lead, 1 + s = seat s leads (next_lead); ``nxt``: the same for the deal after; ``credit``: int32[n,
    sides] points; ``ev_*``: the credits in order (offsets int64[n + 1], side, points), or None."""

    rules: Rules
    policy: str
    seed: int
    deals: int
    cond: np.ndarray
    first: np.ndarray
    nxt: np.ndarray
    credit: np.ndarray
    ev_off: np.ndarray | None = None
    ev_side: np.ndarray | None = None
    ev_pts: np.ndarray | None = None


@dataclass
class EquityTable:
    """P(each side wins the match) at every score (multiples of ``step`` below ``target``) before a deal
    and each lead in ``leads`` (None: the rules' lead chooses the leader; s: seat s leads any tile).
    ``values``: float64[size ** sides, len(leads), sides], side 0's score the most significant index.
    ``first_lead``: at 0-0, a first deal led by the rules' lead, given the seat it chose: seat -> P(win)."""

    rules: Rules
    policy: str
    seed: int
    deals: int
    step: int
    size: int
    leads: list
    values: np.ndarray
    first_lead: dict
    counts: dict
    seconds: float = 0.0
    extra: dict = dataclasses.field(default_factory=dict)

    @property
    def sides(self) -> int:
        return self.values.shape[-1]

    @property
    def target(self) -> int:
        return self.rules.target

    def scores(self) -> np.ndarray:
        """int64[positions, sides]: the scores of each row of ``values``."""
        idx = np.indices((self.size,) * self.sides).reshape(self.sides, -1).T
        return idx * self.step

    def index(self, scores) -> int:
        if len(scores) != self.sides:
            raise ValueError(f"scores = {list(scores)!r}; allowed: {self.sides} scores, one per side")
        f = 0
        for x in scores:
            x = int(x)
            if not 0 <= x < self.target or x % self.step:
                raise ValueError(f"score {x}: the table holds the scores a deal can leave below the target, "
                                 f"multiples of {self.step} from 0 to {(self.size - 1) * self.step}")
            f = f * self.size + x // self.step
        return f

    def win(self, scores, lead: int | None = None) -> np.ndarray:
        """P(each side wins the match) at ``scores`` before a deal led by ``lead``."""
        if lead not in self.leads:
            raise ValueError(f"lead = {lead!r}; allowed: {', '.join('None' if x is None else str(x) for x in self.leads)}"
                             f" (next_lead = {self.rules.next_lead})")
        return self.values[self.index(scores), self.leads.index(lead)].copy()

    def rows(self) -> list[dict[str, Any]]:
        """One row per score and lead: ``{"scores", "lead", "win"}``."""
        sc = self.scores().tolist()
        out = []
        for i, s in enumerate(sc):
            for li, lead in enumerate(self.leads):
                out.append({"scores": s, "lead": lead, "win": self.values[i, li].tolist()})
        return out


def _step(sample: DealSample) -> int:
    vals = [np.unique(sample.credit)]
    if sample.ev_pts is not None:
        vals.append(np.unique(sample.ev_pts))
    g = 0
    for v in vals:
        for x in v:
            g = math.gcd(g, int(x))
    return g


def method(rules: Rules, sides: int) -> str:
    """How the table was computed, in one paragraph (the notes and docs/equity.md)."""
    end = {"deal_end": "a deal's credited points are its totals by side; a side at >= T alone on the highest "
                       "score wins" + (", a tie for highest at >= T decided by the deals after it (the side "
                                       "that gains more in a deal wins)" if sides == 2 else
                                       ", a tie for highest at >= T counted as shared equally"),
           "immediate": "a deal that can take a side to the target is replayed credit by credit (placements "
                        "as placed, then end bonuses in seat order) from the score: the first side to reach "
                        ">= T wins and the deal is cut there",
           "exact": "a deal that can reach the target is replayed credit by credit from the score: a credit "
                    "that would pass T is not counted, the first side to reach T exactly wins and the deal "
                    "is cut there"}[rules.match_end]
    lead = {"rules": "every deal led as the rules say (who leads is not known before the deal)",
            "hand_winner": "the next deal led by the seat that dominoed (after a block: the rules' lead)",
            "rotate": "the next deal led by the seat after the previous leader"}[rules.next_lead]
    return (f"Dynamic programming over exact scores (multiples of the credits' step), the deals independent "
            f"given who leads them (the policies do not see the match score): {end}; {lead}. "
            f"max_deals ({rules.max_deals}) is not modelled.")


def solve_table(sample: DealSample, progress: Callable[[int, int], None] | None = None) -> EquityTable:
    """The table from the sample (see the module doc); ValueError when it would be too large."""
    import time
    t0 = time.perf_counter()
    rules = sample.rules
    P = rules.players
    N = sample.credit.shape[1]
    mode = {"deal_end": 0, "immediate": 1, "exact": 2}[rules.match_end]
    if (sample.credit < 0).any() or (sample.ev_pts is not None and (sample.ev_pts < 0).any()):
        raise ValueError("a deal credited negative points; the equity table needs credits >= 0")
    g = _step(sample)
    if g == 0:
        raise ValueError("no deal of the sample credited any points, so no match can end")
    T = rules.target
    if mode == 2 and T % g:
        raise ValueError(f"match_end = exact with target {T}: every credit is a multiple of {g}, so no side can "
                         f"reach {T} exactly; allowed: a target that is a multiple of {g}")
    R = -(-T // g)
    if R ** N * N > MAX_CELLS:
        raise ValueError(f"{R ** N:,} score positions ({N} sides, target {T} in steps of {g}) are too many for "
                         f"one table (at most {MAX_CELLS // N:,}); allowed: a lower target"
                         + (", or teams=partners" if rules.players == 4 and N == 4 else ""))
    real = [0] if rules.next_lead == "rules" else list(range(P + 1))
    nr = len(real)
    credit = (sample.credit // g).astype(np.int64)
    # the deals by condition (compact ids): the real leads (0: the rules' lead, 1 + s: seat s), then the
    # first deal's "the rules' lead fell to seat f" (nr + f)
    members = [np.flatnonzero(sample.cond == c) for c in real]
    members += [np.flatnonzero((sample.cond == 0) & (sample.first == f)) for f in range(P)]
    NC = len(members)
    counts = {c: len(m) for c, m in enumerate(members)}
    cmap = np.full(P + 1, -1, np.int64)
    cmap[real] = np.arange(nr)
    nxt = cmap[sample.nxt.astype(np.int64)]
    for c in range(nr):
        if not len(members[c]):
            raise ValueError(f"no deal of the sample was led {_cond_name(real[c])}; allowed: more deals")
    if (nxt[np.concatenate(members[:nr])] < 0).any():  # pragma: no cover - next_lead names a seat
        raise ValueError("a deal's next lead is not one the rules give")
    # distinct (credited, next lead) per condition
    B = int(credit.max()) + 1
    a_off, a_c, a_nxt, a_w = [0], [], [], []
    for c, m in enumerate(members):
        if len(m):
            key = nxt[m]
            for j in range(N - 1, -1, -1):
                key = key * B + credit[m, j]
            u, cnt = np.unique(key, return_counts=True)
            cc = np.zeros((len(u), N), np.int64)
            rest = u.copy()
            for j in range(N):
                cc[:, j] = rest % B
                rest //= B
            a_c.append(cc)
            a_nxt.append(rest)
            a_w.append(cnt / len(m))
        a_off.append(a_off[-1] + (len(a_c[-1]) if len(m) else 0))
    a_c = np.concatenate(a_c) if a_c else np.zeros((0, N), np.int64)
    a_nxt = np.concatenate(a_nxt).astype(np.int64)
    a_w = np.concatenate(a_w).astype(np.float64)
    a_off = np.array(a_off, np.int64)
    # in each condition, the outcomes that credit only side N-1 first (metdp.solve_rows)
    a_pz = ~(a_c[:, :N - 1] != 0).any(axis=1)
    order = np.lexsort((~a_pz, np.repeat(np.arange(NC), np.diff(a_off))))
    a_c, a_nxt, a_w, a_pz = a_c[order], a_nxt[order], a_w[order], a_pz[order]
    a_poff = (a_c[:, :N - 1] * R ** np.arange(N - 2, -1, -1, dtype=np.int64)).sum(axis=1)
    work = R ** N * len(a_w)
    if work > MAX_WORK:
        raise ValueError(f"the table would take about {work:.1e} steps ({R ** N:,} scores times {len(a_w):,} distinct "
                         f"deal outcomes); allowed: fewer deals or a lower target")
    tie = tie_values(N, NC, a_off, a_c, a_nxt, a_w) if mode == 0 else np.zeros((NC, N))
    if mode:
        seg = np.concatenate(members)
        d_off = np.array([0, *np.cumsum([len(m) for m in members])], np.int64)
        d_id = seg.astype(np.int64)
        d_c = credit[seg]
        d_nxt = nxt[seg]
        srt = np.zeros((N, len(seg)), np.int64)
        for c in range(NC):
            lo, hi = d_off[c], d_off[c + 1]
            for j in range(N):
                srt[j, lo:hi] = lo + np.argsort(-d_c[lo:hi, j], kind="stable")
        d_w = np.array([1.0 / max(len(m), 1) for m in members])
        e_off = sample.ev_off.astype(np.int64)
        e_side = sample.ev_side.astype(np.int64)
        e_amt = (sample.ev_pts // g).astype(np.int64)
    else:
        d_off = np.zeros(NC + 1, np.int64)
        d_id = np.zeros(1, np.int64)
        d_c = np.zeros((1, N), np.int64)
        d_nxt = d_id
        srt = np.zeros((N, 1), np.int64)
        d_w = np.zeros(NC)
        e_off, e_side, e_amt = np.zeros(2, np.int64), d_id, d_id
    V = np.zeros((R ** N, nr, N))
    total = R ** N
    conds = np.arange(nr, dtype=np.int64)
    rows = R ** (N - 1)  # a row: the scores of sides 0 .. N-2; along it side N-1's
    block = max(1, rows // 100)
    hi = rows
    while hi > 0:
        lo = max(0, hi - block)
        solve_rows(R, N, mode, hi, lo, V, conds, a_off, a_c, a_nxt, a_w, a_pz, a_poff, d_off, d_id, d_c, d_nxt,
                   d_w, srt, e_off, e_side, e_amt, tie)
        hi = lo
        if progress is not None:
            progress((rows - hi) * R, total)
    pseudo = np.array([nr + f for f in range(P) if counts[nr + f]], np.int64)
    W0 = np.zeros((1, NC, N))
    if len(pseudo):
        solve_any(R, N, mode, 1, 0, V, W0, pseudo, a_off, a_c, a_nxt, a_w, d_off, d_id, d_c, d_nxt, d_w, srt, e_off,
               e_side, e_amt, tie)
    first = {int(c - nr): W0[0, c].copy() for c in pseudo}
    return EquityTable(rules=rules, policy=sample.policy, seed=sample.seed, deals=sample.deals, step=g, size=R,
                       leads=[None if c == 0 else c - 1 for c in real], values=V, first_lead=first,
                       counts={("rules" if c == 0 else c - 1): counts[i] for i, c in enumerate(real)},
                       seconds=time.perf_counter() - t0,
                       extra={"tie": tie[:nr].tolist() if mode == 0 else None, "work": int(work)})


#: the deals are split in this many batches (deal i in batch i % BATCHES), each solved again: the spread of
#: their answers at 0-0 is the precision of the whole sample's (simdom.stats.matches.metview)
BATCHES = 4


def subset(sample: DealSample, idx: np.ndarray) -> DealSample:
    """The deals ``idx`` of the sample, their credits in order kept."""
    ev = {}
    if sample.ev_off is not None:
        lo, hi = sample.ev_off[idx], sample.ev_off[idx + 1]
        lens = hi - lo
        take = np.repeat(lo, lens) + np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
        ev = dict(ev_off=np.concatenate([[0], np.cumsum(lens)]).astype(np.int64), ev_side=sample.ev_side[take],
                  ev_pts=sample.ev_pts[take])
    return DealSample(sample.rules, sample.policy, sample.seed, len(idx), cond=sample.cond[idx],
                      first=sample.first[idx], nxt=sample.nxt[idx], credit=sample.credit[idx], **ev)


def batch_answers(sample: DealSample, batches: int = BATCHES) -> list[tuple[np.ndarray, dict]] | None:
    """Each batch's P(each side wins) at 0-0 (the table's first lead) and its first-lead values, or None
    when a batch is too small to solve (a lead it never saw)."""
    out = []
    for b in range(batches):
        try:
            t = solve_table(subset(sample, np.arange(b, len(sample.cond), batches)))
        except ValueError:
            return None
        out.append((t.values[0, 0].copy(), t.first_lead))
    return out


def _cond_name(c: int) -> str:
    return "by the rules' lead" if c == 0 else f"by seat {c - 1}"


__all__ = ["BATCHES", "DealSample", "EquityTable", "MAX_CELLS", "batch_answers", "method", "solve_table", "subset"]

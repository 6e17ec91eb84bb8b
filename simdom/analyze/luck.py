"""The luck of a deal's chance events (the deal of the hands, every draw), for ``simdom review``
(analyze/review.py's module doc says what it measures): :func:`chance_luck` from the full record,
:func:`viewer_luck` from what one seat knew."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..engine.state import DealState
from ..stats.inference import t_interval
from ..tiles import parse_tile
from .evaluate import LEVEL
from .position import Deal

LUCK_ROLLOUTS = 1000
#: the luck rollouts' streams (apart from the analysis's and the deals' own)
LUCK_SALT = 0x10C4_2BAD


@dataclass
class Luck:
    event: str                       #: "deal" or "draw 5-6"
    move: int                        #: the placement the event comes before (0: the deal)
    seat: int | None                 #: who drew (None for the deal)
    luck: list[float]                #: per seat
    lo: list[float]
    hi: list[float]
    before: list[float] = field(default_factory=list)     #: the expectation just before, per seat
    after: list[float] = field(default_factory=list)      #: ... and just after
    before_se: list[float] = field(default_factory=list)  #: their standard errors
    after_se: list[float] = field(default_factory=list)
    extra_counts: tuple = ()         #: one-seat review: worlds before and after the draw



def _chance_points(deal: Deal) -> list[tuple[str, int, int | None, DealState, list[int], int]]:
    """The deal's chance events: (event, move, seat, state to play from, tiles fixed on top of the
    boneyard before the event, how many of them after). The state is the one just after the previous
    placement (its forced draws not yet made)."""
    out = []
    st = deal.start()
    out.append(("deal", 0, None, st.copy(), [], 0))
    for i, (t, e) in enumerate(deal.plays):
        before = st.copy()
        n0 = len(st.actions)
        st.advance()
        drawn = [a for a in st.actions[n0:] if a["act"] == "draw"]
        tiles = [parse_tile(a["tile"], deal.rules.max_pip) for a in drawn]
        for k, a in enumerate(drawn):
            out.append((f"draw {a['tile']}", i + 1, a["seat"], before, tiles[:k], k + 1))
        st.play(t, e)
    # draws after the last placement (a blocked end): not scored, the deal's result is then fixed
    return out


def _boneyard(st: DealState) -> list[int]:
    """The tiles still to draw, top first (the deal's boneyard is drawn from its top, in order)."""
    left = st.boneyard_left
    return [int(x) for x in st.boneyard0[len(st.boneyard0) - left:]]


def chance_luck(deal: Deal, then, seed: int, rollouts: int, tick: Callable[[int], None]) -> tuple[list[Luck], list[float]]:
    n = deal.rules.players
    out, start = [], [0.0] * n
    for idx, (event, move, seat, st, fixed, n_after) in enumerate(_chance_points(deal)):
        rng = np.random.default_rng(np.random.SeedSequence([seed, LUCK_SALT, idx]))
        vb = np.zeros((rollouts, n))
        va = np.zeros((rollouts, n))
        if event == "deal":
            hands = [list(h) for h in deal.hands]
            sizes = [len(h) for h in hands]
            pool = [t for h in hands for t in h] + list(deal.boneyard)
            for j in range(rollouts):
                if j % 256 == 0:
                    tick(idx)
                perm = list(rng.permutation(pool))
                w, k = {}, 0
                for s in range(n):
                    w[s] = [int(x) for x in perm[k:k + sizes[s]]]
                    k += sizes[s]
                b = st.copy()
                b.set_hidden(w, [int(x) for x in perm[k:]])
                b.play_out(then, seed ^ LUCK_SALT, j)
                vb[j] = b.totals()
                bone = [int(x) for x in perm if int(x) in set(deal.boneyard)]
                a = st.copy()
                a.set_hidden({}, bone)
                a.play_out(then, seed ^ LUCK_SALT, j)
                va[j] = a.totals()
        else:
            bone = _boneyard(st)
            k0 = len(fixed)
            drawn = bone[k0]
            rest = bone[k0:]
            for j in range(rollouts):
                if j % 256 == 0:
                    tick(idx)
                perm = [int(x) for x in rng.permutation(rest)]
                b = st.copy()
                b.set_hidden({}, bone[:k0] + perm)
                b.play_out(then, seed ^ LUCK_SALT, j)
                vb[j] = b.totals()
                a = st.copy()
                a.set_hidden({}, bone[:k0] + [drawn] + [x for x in perm if x != drawn])
                a.play_out(then, seed ^ LUCK_SALT, j)
                va[j] = a.totals()
        if event == "deal":
            start = [float(x) for x in vb.mean(axis=0)]
        d = va - vb
        mu = d.mean(axis=0)
        se = d.std(axis=0, ddof=1) / np.sqrt(rollouts) if rollouts > 1 else np.zeros(n)
        lo, hi = t_interval(mu, se, max(1, rollouts - 1), LEVEL)
        sd = (lambda v: v.std(axis=0, ddof=1) / np.sqrt(rollouts)) if rollouts > 1 else (lambda v: np.zeros(n))
        fl = lambda v: [float(x) for x in np.asarray(v)]  # noqa: E731
        out.append(Luck(event, move, seat, fl(mu), fl(lo), fl(hi), fl(vb.mean(axis=0)), fl(va.mean(axis=0)),
                        fl(sd(vb)), fl(sd(va))))
    return out, start


def viewer_luck(deal: Deal, viewer: int, then, seed: int, rollouts: int) -> list[Luck]:
    """The luck of the viewer's own draws, from what the viewer knew: worlds re-dealt as the viewer saw
    the deal at its turn (engine/analysis.py's sampler); before the draw, the worlds with the viewer's
    earlier draws of the turn in the boneyard, moved to its top; after, those with this draw too. The
    boneyard's order is uniform given its tiles, so the moves keep each world's chance; the luck is the
    difference of the two means (unpaired: a world may count before and not after)."""
    from ..engine.analysis import sample_hidden
    n = deal.rules.players
    out = []
    for idx, (event, move, seat, st, fixed, n_after) in enumerate(_chance_points(deal)):
        if seat != viewer:
            continue
        drawn = _boneyard(st)[:n_after]          # the viewer's draws of this turn so far, top first
        worlds = sample_hidden(st, seed ^ LUCK_SALT, idx * rollouts, rollouts, salt=LUCK_SALT)
        vb, va = [], []
        for j, w in enumerate(worlds):
            vals = []
            for k in (n_after - 1, n_after):      # before: the earlier draws fixed; after: this one too
                bone = list(w.boneyard)
                if any(t not in bone for t in drawn[:k]):
                    vals.append(None)
                    continue
                for i, t in enumerate(drawn[:k]):  # the order of the boneyard is uniform given its tiles
                    p = bone.index(t)
                    bone[i], bone[p] = bone[p], bone[i]
                b = st.copy()
                b.set_hidden(w.hands, bone)
                b.play_out(then, seed ^ LUCK_SALT, j)
                vals.append(b.totals()[viewer])
            if vals[0] is not None:
                vb.append(vals[0])
            if vals[1] is not None:
                va.append(vals[1])
        vb, va = np.array(vb, float), np.array(va, float)
        mu = float(va.mean() - vb.mean()) if len(va) and len(vb) else float("nan")
        se = float(np.sqrt(va.var(ddof=1) / len(va) + vb.var(ddof=1) / len(vb))) if len(va) > 1 and len(vb) > 1 \
            else float("nan")
        per: list = [None] * n
        lo: list = [None] * n
        hi: list = [None] * n
        per[viewer], lo[viewer], hi[viewer] = mu, mu - 1.96 * se, mu + 1.96 * se
        out.append(Luck(event, move, seat, per, lo, hi, extra_counts=(len(vb), len(va))))
    return out

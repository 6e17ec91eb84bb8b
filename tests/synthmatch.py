"""Synthetic match-mode results folders with exactly known answers, for the coverage test of the match
statistics (simdom.stats.matches.tables, simdom.stats.matches.equity).

The folder has the real structure: matches of a variable number of deals, two arms playing the same
shuffles (common random numbers: one uniform per match and deal, shared by every arm and rotation),
rotation on, side scores before each deal, the next deal led by the last deal's winner; it is written
by simdom.results as `simdom run` writes it. The numbers come from a model whose expectations follow
from a dynamic program over (player 0's score, player 1's score, leader):

* two players, each its own side; a deal is won by player 0 with probability ``q + lead`` when player 0
  leads it and ``q - lead`` when player 1 does (arm "base": q = 1/2; arm "edge": q = ``q_edge``);
* the deal's winner scores 1 or 2 points (1/2 each), the loser 0; the first deal's leader is drawn
  1/2 each, then the winner leads; the first side with ``target`` points or more wins.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from simdom import results as fmt
from simdom.engine.api import SIM_VERSION
from simdom.rules import preset

ARMS = (("base", ("greedy", "greedy")), ("edge", ("defensive", "greedy")))


@dataclass(frozen=True)
class Model:
    target: int = 6
    q_edge: float = 0.6
    lead: float = 0.08
    matches: int = 400
    seed: int = 1

    def q(self, arm: str) -> float:
        return self.q_edge if arm == "edge" else 0.5

    def p0(self, arm: str, leader: int) -> float:
        """P(player 0 wins the deal) when ``leader`` leads."""
        return self.q(arm) + (self.lead if leader == 0 else -self.lead)


def _values(m: Model, arm: str):
    """V(a, b, L): P(player 0 wins the match); N: expected deals; W: expected deals won by player 0,
    from scores (a, b) before a deal that player L leads."""
    T = m.target

    @lru_cache(maxsize=None)
    def f(a: int, b: int, L: int) -> tuple[float, float, float]:
        if a >= T:
            return 1.0, 0.0, 0.0
        if b >= T:
            return 0.0, 0.0, 0.0
        p = m.p0(arm, L)
        win0 = [f(a + k, b, 0) for k in (1, 2)]
        win1 = [f(a, b + k, 1) for k in (1, 2)]
        avg = lambda xs, i: 0.5 * (xs[0][i] + xs[1][i])  # noqa: E731
        v = p * avg(win0, 0) + (1 - p) * avg(win1, 0)
        n = 1 + p * avg(win0, 1) + (1 - p) * avg(win1, 1)
        w = p + p * avg(win0, 2) + (1 - p) * avg(win1, 2)
        return v, n, w
    return f


def _visits(m: Model, arm: str) -> dict[tuple[int, int, int], float]:
    """Expected visits of each state (a, b, L) before a deal, per match."""
    T = m.target
    vis: dict[tuple[int, int, int], float] = {(0, 0, 0): 0.5, (0, 0, 1): 0.5}
    for total in range(0, 2 * T):
        for a in range(0, T):
            b = total - a
            if not 0 <= b < T:
                continue
            for L in (0, 1):
                x = vis.get((a, b, L), 0.0)
                if not x:
                    continue
                p = m.p0(arm, L)
                for k in (1, 2):
                    if a + k < T:
                        vis[(a + k, b, 0)] = vis.get((a + k, b, 0), 0.0) + x * p * 0.5
                    if b + k < T:
                        vis[(a, b + k, 1)] = vis.get((a, b + k, 1), 0.0) + x * (1 - p) * 0.5
    return vis


def truth(m: Model) -> dict:
    """Per arm: player 0's match win probability, deal win rate, points per deal, deals per match, the
    first lead's value; and the equity cells P(win | own, opp) per (arm, policy) with one bin per score."""
    out = {}
    for arm, pols in ARMS:
        f = _values(m, arm)
        (v0, n0, w0), (v1, n1, w1) = f(0, 0, 0), f(0, 0, 1)
        n, w = (n0 + n1) / 2, (w0 + w1) / 2
        vis = _visits(m, arm)
        eq: dict[tuple[str, int, int], float] = {}
        num: dict[tuple[str, int, int], float] = {}
        den: dict[tuple[str, int, int], float] = {}
        for (a, b, L), x in vis.items():
            v = f(a, b, L)[0]
            for pol, own, opp, won in ((pols[0], a, b, v), (pols[1], b, a, 1 - v)):
                k = (pol, own, opp)
                num[k] = num.get(k, 0.0) + x * won
                den[k] = den.get(k, 0.0) + x
        eq = {k: num[k] / den[k] for k in num}
        out[arm] = {"match_win": [(v0 + v1) / 2, 1 - (v0 + v1) / 2], "deal_win": [w / n, 1 - w / n],
                    "points": [1.5 * w / n, 1.5 * (1 - w / n)], "deals": n, "lead_value": v0 - v1, "equity": eq}
    return out


def _play(m: Model, arm: str, u: np.ndarray, first: int):
    """One match from its uniforms: per deal (leader, winner player, points, scores before)."""
    scores, leader, deals = [0, 0], first, []
    for h in range(u.shape[0]):
        w = 0 if u[h, 0] < m.p0(arm, leader) else 1
        pts = 1 + int(u[h, 1] < 0.5)
        deals.append((leader, w, pts, tuple(scores)))
        scores[w] += pts
        leader = w
        if scores[w] >= m.target:
            return deals, scores, w
    raise AssertionError("a match longer than 2 * target deals")  # pragma: no cover


def write(folder: Path, m: Model) -> Path:
    """A complete match-mode results folder of ``m.matches`` matches, both arms, rotation on."""
    folder = Path(folder)
    P = R = S = 2
    rng = np.random.default_rng([m.seed, 11])
    U, first = rng.random((m.matches, 2 * m.target, 2)), (rng.random(m.matches) < 0.5).astype(int)
    names = [a for a, _ in ARMS]
    rules = preset("fives", 2, target=m.target, next_lead="hand_winner", max_deals=2 * m.target).to_dict()
    D: dict[str, list] = {k: [] for k in ("arm", "match", "rotation", "hand", "first_seat", "winner", "points_0",
                                          "points_1", "before_0", "before_1", "credited_0", "credited_1",
                                          "match_winner")}
    Mt: dict[str, list] = {k: [] for k in ("arm", "match", "rotation", "deals", "first_seat", "winner", "score_0",
                                           "score_1")}
    for a, (arm, _) in enumerate(ARMS):
        for i in range(m.matches):
            deals, scores, winner = _play(m, arm, U[i], first[i])
            for r in range(R):
                seat = lambda player: (player - r) % P  # noqa: E731 - rotation r: seat s plays (s + r) % P
                D["match_winner"] += [seat(winner)] * len(deals)
                for h, (leader, w, pts, before) in enumerate(deals):
                    pts_seat = [pts if seat(w) == s else 0 for s in range(P)]
                    bef = [before[(s + r) % P] for s in range(P)]
                    for k, v in (("arm", a), ("match", i), ("rotation", r), ("hand", h), ("first_seat", seat(leader)),
                                 ("winner", seat(w)), ("points_0", pts_seat[0]), ("points_1", pts_seat[1]),
                                 ("before_0", bef[0]), ("before_1", bef[1]), ("credited_0", pts_seat[0]),
                                 ("credited_1", pts_seat[1])):
                        D[k].append(v)
                for k, v in (("arm", a), ("match", i), ("rotation", r), ("deals", len(deals)),
                             ("first_seat", seat(deals[0][0])), ("winner", seat(winner)),
                             ("score_0", scores[r % P]), ("score_1", scores[(1 + r) % P])):
                    Mt[k].append(v)
    n = len(D["arm"])
    deals = {k: np.asarray(v) for k, v in D.items()}
    deals["arm"] = fmt.strings(deals["arm"], names)
    deals |= {"rules_lead": deals["hand"] == 0, "end": fmt.strings(np.zeros(n, np.int32), ["domino"]),
              "end_bonus": np.zeros(n), "tiles_placed": np.full(n, 10),
              "first_double_move": np.ma.masked_array(np.zeros(n), np.ones(n, bool)),
              "first_double_seat": np.ma.masked_array(np.zeros(n), np.ones(n, bool))}
    for s in range(P):
        deals |= {f"scoring_plays_{s}": np.zeros(n), f"plays_{s}": np.full(n, 5), f"doubles_dealt_{s}": np.zeros(n),
                  f"lost_first_double_{s}": np.zeros(n, bool)}
    matches = {k: np.asarray(v) for k, v in Mt.items()}
    matches["arm"] = fmt.strings(matches["arm"], names)
    matches["unfinished"] = np.zeros(len(Mt["arm"]), bool)
    man = fmt.Manifest(kind=fmt.KIND, format=fmt.FORMAT, simdom_version="test", sim_version=SIM_VERSION,
                       scenario_name="synthmatch", scenario={}, settings_hash="", seed=m.seed, root_key="0",
                       deals=m.matches, chunk_size=m.matches, n_chunks=1, rotations=R, players=P, unit="match",
                       tables=["deals", "matches"], chunks_done=[0], created="now", complete=True,
                       arms=[fmt.ArmEntry(name=a, rules=rules, preset="fives", policies=list(p)) for a, p in ARMS])
    h = man.settings_hash = fmt.settings_hash(fmt.manifest_settings(man))  # as simdom run's: the readers check it
    for t, spec, cols in (("deals", fmt.MATCH_DEALS, deals), ("matches", fmt.MATCHES, matches)):
        (folder / t).mkdir(parents=True, exist_ok=True)
        data = fmt.encode(spec, P, cols, h, 0, S)
        fmt.write_atomic(fmt.part_path(folder, t, 0), data)
        man.record(t, 0, data)
    (folder / fmt.MANIFEST).write_text(json.dumps(man.model_dump()))
    return folder

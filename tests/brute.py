"""A brute-force minimax of open deals, written from the rule book with the independent referee's model
(tests/reference.py: Layout, legal_moves, score_move), never importing simdom.engine.

Every line of play is enumerated (memoised on the whole state, scores included: nothing is pruned or
bounded), so its values are exact by construction, at a cost that allows only small sets (double-three,
double-four) or late positions. The solver (simdom.engine.solver) must give the same values.
"""
from __future__ import annotations

from typing import Sequence

from reference import Layout, legal_moves, parse, partners_end_bonus, per_players, pips, round_bonus, score_move


class Game:
    """A deal in play: the layout, hands, boneyard position, turn, passes, scores (placements and bonus)."""

    def __init__(self, record: dict, partners: bool = False):
        R = self.R = record["rules"]
        self.n = int(R["players"])
        self.partners = partners
        self.reserve = per_players(R["boneyard_reserve"], self.n)
        self.hands = [frozenset(parse(x) for x in h) for h in record["hands"]]
        self.bone = tuple(parse(x) for x in record["boneyard"])
        self.first = int(record["first"])
        self.forced_lead = None
        if R["lead"].startswith("tile:"):
            lt = parse(R["lead"][5:])
            if any(lt in h for h in self.hands):
                self.forced_lead = lt
        self.layout = Layout(R)
        self.top, self.turn, self.passes = 0, self.first, 0
        self.fd_done, self.ended, self.winner = False, None, None
        self.scores = [0] * self.n

    def copy(self) -> "Game":
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.hands = list(self.hands)
        g.scores = list(self.scores)
        L = self.layout
        g.layout = Layout(L.rules, list(L.line), L.spin, {e: list(v) for e, v in L.arms.items()})
        return g

    def moves(self) -> list:
        lead = self.forced_lead if (not self.layout.line and self.turn == self.first) else None
        return legal_moves(self.layout, self.hands[self.turn], lead)

    def forced(self) -> None:
        """Draws and passes (docs/rules.md 5) until a seat holds a legal move or the deal ends."""
        while self.ended is None:
            if self.moves():
                return
            drew_fit = False
            if self.R["draw"] == "until_playable":
                while len(self.bone) - self.top > self.reserve:
                    t = self.bone[self.top]
                    self.top += 1
                    self.hands[self.turn] = self.hands[self.turn] | {t}
                    if self.moves():
                        drew_fit = True
                        break
            if drew_fit:
                return
            self.passes += 1
            if self.passes >= self.n:
                self.ended = "blocked"
                return
            self.turn = (self.turn + 1) % self.n

    def play(self, t, end) -> None:
        pts, bonus, _, _ = score_move(self.layout, t, end, self.R, self.fd_done)
        self.layout.place(t, end)
        if t[0] == t[1]:
            self.fd_done = True
        s = self.turn
        self.hands[s] = self.hands[s] - {t}
        self.scores[s] += pts + bonus
        self.passes = 0
        if not self.hands[s]:
            self.ended, self.winner = "domino", s
        else:
            self.turn = (s + 1) % self.n

    def totals(self) -> list[int]:
        """Each seat's deal total once the deal has ended: placements, bonus, end bonus (docs/rules.md 7, 12)."""
        R, n = self.R, self.n
        left = [sum(pips(t) for t in h) for h in self.hands]
        q, div = int(R["bonus_round_to"]), int(R["bonus_divisor"])
        eb = [0] * n
        if self.partners:
            eb = partners_end_bonus(R, self.ended, self.winner, left)
        elif self.ended == "domino":
            mode = R["out_bonus"]
            if mode.startswith("fixed:"):
                eb[self.winner] = int(mode.split(":")[1])
            elif mode == "opponents_pips":
                eb[self.winner] = round_bonus(sum(left) - left[self.winner], q, div)
        else:
            low = min(left)
            if left.count(low) == 1:
                w = left.index(low)
                mode = R["block_bonus"]
                if mode == "opponents_pips":
                    eb[w] = round_bonus(sum(left) - low, q, div)
                elif mode == "opponents_minus_own":
                    eb[w] = round_bonus(sum(left) - 2 * low, q, div)
        return [self.scores[s] + eb[s] for s in range(n)]

    def key(self) -> tuple:
        L = self.layout
        return (tuple(self.hands), self.top, self.turn, self.passes, tuple(L.line), L.spin,
                tuple((e, tuple(v)) for e, v in sorted(L.arms.items())), self.fd_done, tuple(self.scores))


def value_of(totals: Sequence[int], sides: Sequence[int], side: int, by: str) -> int:
    own = sum(v for s, v in enumerate(totals) if sides[s] == side)
    if by == "points":
        return own
    others = {}
    for s, v in enumerate(totals):
        if sides[s] != side:
            others[sides[s]] = others.get(sides[s], 0) + v
    return own - max(others.values())


def policy_move(g: Game, policy: str):
    """The move of a deterministic policy (greedy, heavy), as the referee models them: the most
    immediate points, ties to the heavier tile (heavy: the heaviest, ties by points); then the first
    listed."""
    moves = g.moves()
    vals = [sum(score_move(g.layout, t, e, g.R, g.fd_done)[:2]) for t, e in moves]
    if policy == "heavy":
        keys = [(pips(m[0]), v) for m, v in zip(moves, vals)]
    elif policy == "greedy":
        keys = [(v, pips(m[0])) for m, v in zip(moves, vals)]
    else:
        raise ValueError(f"brute force models greedy and heavy, not {policy}")
    top = max(keys)
    return moves[keys.index(top)]


def brute_values(game: Game, by: str = "margin", sides: Sequence[int] | None = None,
                 against: str | None = None) -> dict:
    """{(tile "a-b", end): exact value} of every legal move of the seat to act (after its forced draws
    and passes): its side maximises, every other seat minimises; with ``against``, every other seat
    plays that policy instead and only the mover chooses."""
    sides = list(sides) if sides is not None else list(range(game.n))
    game = game.copy()
    game.forced()
    root = sides[game.turn]
    root_seat = game.turn
    memo: dict = {}

    def minimax(g: Game) -> int:
        g.forced()
        if g.ended is not None:
            return value_of(g.totals(), sides, root, by)
        k = g.key()
        if k in memo:
            return memo[k]
        if against is not None and g.turn != root_seat:
            h = g.copy()
            h.play(*policy_move(g, against))
            memo[k] = minimax(h)
            return memo[k]
        vals = []
        for t, e in g.moves():
            h = g.copy()
            h.play(t, e)
            vals.append(minimax(h))
        v = max(vals) if sides[g.turn] == root else min(vals)
        memo[k] = v
        return v

    out = {}
    for t, e in game.moves():
        h = game.copy()
        h.play(t, e)
        out[(f"{t[0]}-{t[1]}", e)] = minimax(h)
    return out

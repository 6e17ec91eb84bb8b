"""An independent referee for deal traces, written from docs/rules.md alone (it never imports simdom.engine).

Given a trace record (docs/rules.md section 11), :func:`check` rebuilds the deal, replays every action and
returns the list of problems it finds (empty: the deal follows the rules). It checks

* the deal: a full set, each tile once, hands of ``hand_size[n]`` tiles, the rest in the boneyard;
* who leads (section 6) and that every play is legal (sections 3 and 5): the tile is in the hand
  and matches an open end; arms only while open; the lead any tile or the forced lead tile;
* draws (only with no legal move and more than ``boneyard_reserve`` tiles left; the top tile) and
  passes (only with nothing playable and nothing drawable);
* every placement's points and first-double bonus (sections 3 and 4);
* the end of the deal (section 7: domino, or ``n`` consecutive passes), the end bonuses and totals;
* optionally the choice of the deterministic policies (greedy, heavy, hold:until=K).

The layout is modelled literally: a line of oriented tiles (left to right), the spinner's position in
it, and two arms (lists of tiles, spinner outwards). Every end value and every counted end is read
off that structure, so the model shares nothing with the engine's flags.

:class:`Layout` and :func:`legal_moves` are used by the property tests as an independent model.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

Tile = tuple[int, int]
ENDS = ("L", "R", "U", "D")


def parse(text: str) -> Tile:
    a, b = (int(x) for x in str(text).split("-"))
    return (a, b)


def name(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def full_set(max_pip: int) -> list[Tile]:
    """Every tile, in index order 0-0, 0-1 .. 0-m, 1-1 .. m-m."""
    return [(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]


def pips(t: Tile) -> int:
    return t[0] + t[1]


def per_players(value: Any, n: int) -> int:
    """hand_size / boneyard_reserve of the trace: an object keyed "2", "3", "4"."""
    if isinstance(value, dict):
        return int(value[str(n)] if str(n) in value else value[n])
    if isinstance(value, (list, tuple)):
        return int(value[n - 2])
    return int(value)


def round_bonus(p: int, q: int, divisor: int) -> int:
    """docs/rules.md 7: P to the nearest multiple of q, halfway up; then divided, rounding down."""
    r = p % q
    rounded = p - r + (q if 2 * r >= q else 0)
    return rounded // divisor


def first_double_bonus(schedule: Sequence[Sequence[Any]], move: int) -> int:
    """docs/rules.md 4: the points of the first pair whose last_move is at least the move number."""
    for last, pts in schedule:
        if last is None or last >= move:
            return int(pts)
    return 0


def placement_points(rules: dict, k: int, s: int) -> int:
    """docs/rules.md 4: what a placement leaving k counted ends summing to s earns."""
    divs = list(rules["divisors"])
    if k < rules["min_ends"] or s <= 0:
        return 0
    hits = [d for d in divs if s % d == 0]
    if not hits:
        return 0
    mode = rules["points"]
    if mode.startswith("fixed:"):
        return int(mode.split(":")[1])
    if mode == "sum":
        return s
    if mode == "quotient":
        return sum(s // d for d in hits)
    raise ValueError(f"unknown points mode {mode!r}")


@dataclass
class Layout:
    """The layout of docs/rules.md section 3, modelled as tiles on a line and two arms."""

    rules: dict
    line: list[Tile] = field(default_factory=list)  # oriented (left half, right half), left to right
    spin: int | None = None                         # index of the spinner in ``line``
    arms: dict[str, list[Tile]] = field(default_factory=lambda: {"U": [], "D": []})  # oriented (inner, outer)

    @property
    def placed(self) -> int:
        return len(self.line) + len(self.arms["U"]) + len(self.arms["D"])

    def tiles(self) -> list[Tile]:
        """The tiles on the layout, written low half first."""
        return [tuple(sorted(t)) for t in self.line + self.arms["U"] + self.arms["D"]]  # type: ignore[misc]

    def value(self, end: str) -> int:
        if end == "L":
            return self.line[0][0]
        if end == "R":
            return self.line[-1][1]
        arm = self.arms[end]
        return arm[-1][1] if arm else self.line[self.spin][0]  # type: ignore[index]

    def arms_open(self) -> bool:
        if self.spin is None:
            return False
        if self.rules["arms_open"] == "immediately":
            return True
        # after_both_sides: a tile on each main side of the spinner
        return 0 < self.spin < len(self.line) - 1

    def open_ends(self) -> list[str]:
        if not self.line:
            return []
        return ["L", "R", "U", "D"] if self.arms_open() else ["L", "R"]

    def lone_double(self) -> bool:
        return len(self.line) == 1 and self.line[0][0] == self.line[0][1]

    def _count(self, v: int, double: bool) -> int:
        return 2 * v if double and self.rules["double_counts"] == "both" else v

    def counted(self) -> list[int]:
        """The counts of the counted ends (docs/rules.md 3, 'Counting the ends'); k = len, S = sum."""
        if not self.line:
            return []
        left, right = self.line[0], self.line[-1]
        if self.lone_double():
            out = [self._count(left[0], True)]
        else:
            out = [self._count(left[0], left[0] == left[1]), self._count(right[1], right[0] == right[1])]
        for e in ("U", "D"):
            arm = self.arms[e]
            if arm:  # an empty arm is not counted
                out.append(self._count(arm[-1][1], arm[-1][0] == arm[-1][1]))
        return out

    def fits(self, t: Tile, end: str) -> bool:
        if end == "lead":
            return not self.line
        return end in self.open_ends() and self.value(end) in t

    def place(self, t: Tile, end: str) -> None:
        a, b = t
        double = a == b
        make_spinner = double and self.rules["spinner"] == "first_double" and self.spin is None
        if end == "lead":
            self.line = [(a, b)]
            if make_spinner:
                self.spin = 0
            return
        v = self.value(end)
        other = b if a == v else a
        if end == "L":
            self.line.insert(0, (other, v))
            if self.spin is not None:
                self.spin += 1
            if make_spinner:
                self.spin = 0
        elif end == "R":
            self.line.append((v, other))
            if make_spinner:
                self.spin = len(self.line) - 1
        else:
            self.arms[end].append((v, other))


def legal_moves(layout: Layout, hand: Sequence[Tile], forced: Tile | None = None) -> list[tuple[Tile, str]]:
    """The legal (tile, end) moves in the engine's listing order: by end L, R, U, D, then ascending
    tile; before the lead, the forced tile if given, else every tile of the hand (end "lead")."""
    if not layout.line:
        if forced is not None:
            return [(forced, "lead")]
        return [(t, "lead") for t in sorted(hand)]
    out = []
    for e in layout.open_ends():
        v = layout.value(e)
        out.extend((t, e) for t in sorted(hand) if v in t)
    return out


def score_move(layout: Layout, t: Tile, end: str, rules: dict, first_double_done: bool) -> tuple[int, int, int, int]:
    """(points, bonus, k, S) of placing t on end, on a copy of the layout."""
    trial = Layout(rules, list(layout.line), layout.spin, {e: list(v) for e, v in layout.arms.items()})
    trial.place(t, end)
    c = trial.counted()
    k, s = len(c), sum(c)
    bonus = 0
    if t[0] == t[1] and not first_double_done:
        bonus = first_double_bonus(rules["first_double_bonus"], trial.placed)
    return placement_points(rules, k, s), bonus, k, s


@dataclass
class PlayInfo:
    seat: int
    move: int
    tile: Tile
    end: str
    k: int
    s: int
    points: int
    bonus: int


class Referee:
    """Replays one record; ``problems`` lists what breaks the rules, ``plays`` the checked placements,
    ``snapshots`` (hands, boneyard left, layout tiles) after the deal and after every action."""

    def __init__(self, record: dict, policies: "str | Sequence[str] | None" = None, partial: bool = False,
                 free_lead: bool = False, partners: bool = False, on_play=None):
        self.rec = record
        self.partial = partial  # the record may stop before the deal ends (a scripted prefix)
        # a deal of a match (docs/rules.md 12, see reference_match.py): ``free_lead``, next_lead chose the
        # leader, who leads any tile; ``partners``, the end bonus is settled by side; ``on_play(seat,
        # points, bonus)`` returns True when that placement's credit wins the match: the deal ends there
        self.free_lead = free_lead
        self.partners = partners
        self.on_play = on_play
        self.rules = record["rules"]
        self.n = int(self.rules["players"])
        if isinstance(policies, str) or policies is None:
            policies = [policies] * self.n  # type: ignore[list-item]
        self.policies = list(policies)
        self.problems: list[str] = []
        self.plays: list[PlayInfo] = []
        self.snapshots: list[tuple[list[list[Tile]], list[Tile], list[Tile]]] = []

    def bad(self, msg: str) -> None:
        self.problems.append(msg)

    def run(self) -> list[str]:
        try:
            self._run()
        except (KeyError, ValueError, TypeError, IndexError) as e:  # a malformed record
            self.bad(f"malformed record: {type(e).__name__}: {e}")
        return self.problems

    # ------------------------------------------------------------------------------------------
    def _run(self) -> None:
        R, n = self.rules, self.n
        mp = int(R["max_pip"])
        hand_size = per_players(R["hand_size"], n)
        reserve = per_players(R["boneyard_reserve"], n)
        hands = [[parse(x) for x in h] for h in self.rec["hands"]]
        bone = [parse(x) for x in self.rec["boneyard"]]
        every = [t for h in hands for t in h] + bone
        for t in every:
            if not (0 <= t[0] <= t[1] <= mp):
                self.bad(f"tile {name(t)} is not a tile of the double-{mp} set written low half first")
        if sorted(every) != full_set(mp):
            self.bad("the hands and the boneyard are not the full set, each tile once")
        if len(hands) != n:
            self.bad(f"{len(hands)} hands for {n} players")
        for s, h in enumerate(hands):
            if len(h) != hand_size:
                self.bad(f"seat {s} is dealt {len(h)} tiles, hand_size[{n}] = {hand_size}")
        hands_set = [set(h) for h in hands]

        # -- who leads (section 6)
        first = int(self.rec["first"])
        forced: Tile | None = None
        if R["lead"].startswith("tile:") and not self.free_lead:
            lt = parse(R["lead"][5:])
            holders = [s for s in range(n) if lt in hands_set[s]]
            if holders:
                forced = lt
                if first != holders[0]:
                    self.bad(f"lead {R['lead']}: seat {holders[0]} holds it and must lead, but seat {first} acts first")
        if not 0 <= first < n:
            self.bad(f"first = {first} is not a seat")
            return

        layout = Layout(R)
        top = 0
        turn = first
        passes = 0
        ended: str | None = None
        winner: int | None = None
        fd_done = False
        scores = [0] * n
        bonuses = [0] * n
        self.snapshots.append(([sorted(h) for h in hands_set], bone[top:], layout.tiles()))

        for i, a in enumerate(self.rec["actions"]):
            where = f"action {i} ({a})"
            if ended:
                self.bad(f"{where}: the deal had already ended ({ended})")
                break
            seat = int(a["seat"])
            if seat != turn:
                self.bad(f"{where}: seat {seat} acts, but it is seat {turn}'s turn")
                break
            hand = hands_set[seat]
            lead_forced = forced if (not layout.line and seat == first) else None
            moves = legal_moves(layout, hand, lead_forced)
            can_draw = R["draw"] == "until_playable" and len(bone) - top > reserve
            act = a["act"]
            if act == "play":
                t, end = parse(a["tile"]), a["end"]
                if t not in hand:
                    self.bad(f"{where}: seat {seat} does not hold {name(t)}")
                    break
                if (t, end) not in moves:
                    self.bad(f"{where}: {name(t)} on {end} is not legal; legal: "
                             f"{[name(m[0]) + ' ' + m[1] for m in moves]}")
                    break
                self._check_policy(where, seat, moves, layout, fd_done, (t, end))
                pts, bonus, k, s = score_move(layout, t, end, R, fd_done)
                if (a.get("points"), a.get("bonus")) != (pts, bonus):
                    self.bad(f"{where}: recorded points/bonus {a.get('points')}/{a.get('bonus')}, the rules give "
                             f"{pts}/{bonus} (k = {k}, S = {s})")
                layout.place(t, end)
                if t[0] == t[1]:
                    fd_done = True
                hand.discard(t)
                scores[seat] += pts
                bonuses[seat] += bonus
                self.plays.append(PlayInfo(seat, layout.placed, t, end, k, s, pts, bonus))
                passes = 0
                if self.on_play is not None and self.on_play(seat, pts, bonus):
                    ended, winner = "target", None
                elif not hand:
                    ended, winner = "domino", seat
                else:
                    turn = (seat + 1) % n
            elif act == "draw":
                if moves:
                    self.bad(f"{where}: seat {seat} draws while holding a legal move")
                    break
                if not can_draw:
                    self.bad(f"{where}: seat {seat} draws, but drawing is not allowed (draw = {R['draw']}, "
                             f"{len(bone) - top} left, reserve {reserve})")
                    break
                t = parse(a["tile"])
                if t != bone[top]:
                    self.bad(f"{where}: drew {name(t)}, but the top of the boneyard is {name(bone[top])}")
                    break
                top += 1
                hand.add(t)
            elif act == "pass":
                if moves:
                    self.bad(f"{where}: seat {seat} passes while holding a legal move")
                    break
                if can_draw:
                    self.bad(f"{where}: seat {seat} passes while it could draw ({len(bone) - top} left)")
                    break
                passes += 1
                if passes >= n:
                    ended = "blocked"
                turn = (seat + 1) % n
            else:
                self.bad(f"{where}: unknown act {act!r}")
                break
            self.snapshots.append(([sorted(h) for h in hands_set], bone[top:], layout.tiles()))

        self.scores, self.bonuses = scores, bonuses
        if self.problems or (self.partial and ended is None):
            return
        if ended is None:
            self.bad("the actions stop before the deal has ended")
            return
        if self.rec.get("end") != ended:
            self.bad(f"end = {self.rec.get('end')!r}, the rules give {ended!r}")

        # -- end bonus (section 7; section 12 for partners and for a deal the match stopped)
        left = [sum(pips(t) for t in h) for h in hands_set]
        eb = [0] * n
        q, div = int(R["bonus_round_to"]), int(R["bonus_divisor"])
        if ended == "target":
            pass  # no end bonus
        elif self.partners:
            eb = partners_end_bonus(R, ended, winner, left)
        elif ended == "domino":
            mode = R["out_bonus"]
            opp = sum(left) - left[winner]  # type: ignore[index]
            if mode.startswith("fixed:"):
                eb[winner] = int(mode.split(":")[1])  # type: ignore[index]
            elif mode == "opponents_pips":
                eb[winner] = round_bonus(opp, q, div)  # type: ignore[index]
            elif mode != "none":
                self.bad(f"unknown out_bonus {mode!r}")
        else:
            low = min(left)
            if left.count(low) == 1:
                w = left.index(low)
                opp = sum(left) - low
                mode = R["block_bonus"]
                if mode == "opponents_pips":
                    eb[w] = round_bonus(opp, q, div)
                elif mode == "opponents_minus_own":
                    eb[w] = round_bonus(opp - low, q, div)
                elif mode != "none":
                    self.bad(f"unknown block_bonus {mode!r}")
        if list(self.rec.get("end_bonus", [])) != eb:
            self.bad(f"end_bonus = {self.rec.get('end_bonus')}, the rules give {eb} (pips left {left})")
        totals = [scores[s] + bonuses[s] + eb[s] for s in range(n)]
        if list(self.rec.get("totals", [])) != totals:
            self.bad(f"totals = {self.rec.get('totals')}, the rules give {totals}")
        self.end_bonus, self.totals, self.pips_left = eb, totals, left

    # ------------------------------------------------------------------------------------------
    def _check_policy(self, where: str, seat: int, moves: list, layout: Layout, fd_done: bool, got: tuple) -> None:
        """The deterministic policies: greedy, heavy, hold:until=K (random ones are not checked)."""
        pol = self.policies[seat]
        if pol is None or len(moves) < 2:
            return
        name_, _, params = str(pol).partition(":")
        if name_ not in ("greedy", "heavy", "hold"):
            return
        vals = [sum(score_move(layout, t, e, self.rules, fd_done)[:2]) for t, e in moves]

        def best(idx: list[int], key) -> int:
            top = max(key(i) for i in idx)
            return next(i for i in idx if key(i) == top)  # the first listed among the best

        idx = list(range(len(moves)))
        if name_ == "heavy":
            want = best(idx, lambda i: (pips(moves[i][0]), vals[i]))
        else:
            if name_ == "hold":
                k = params.partition("=")[2]
                until = float("inf") if k == "never" else int(k)
                if not fd_done and layout.placed + 1 < until:
                    others = [i for i in idx if moves[i][0][0] != moves[i][0][1]]
                    idx = others or idx
            want = best(idx, lambda i: (vals[i], pips(moves[i][0])))
        if moves[want] != got:
            self.bad(f"{where}: {pol} should play {name(moves[want][0])} {moves[want][1]} "
                     f"(value {vals[want]}), it played {name(got[0])} {got[1]} (value {vals[moves.index(got)]})")


def partners_end_bonus(R: dict, ended: str, domino_seat: int | None, left: list[int]) -> list[int]:
    """docs/rules.md 12, 'Partners' and 'Match traces': seats 0, 2 against 1, 3. After a domino the
    dominoing seat's side earns the bonus, opponents_pips being the other side's two hands; in a
    blocked deal the side with fewer pips wins (a tie: nobody), opponents_minus_own is the other
    side's pips minus its own, and the bonus is written on its seat with fewer pips (lower seat on a tie)."""
    q, div = int(R["bonus_round_to"]), int(R["bonus_divisor"])
    side_pips = [left[0] + left[2], left[1] + left[3]]
    eb = [0, 0, 0, 0]
    if ended == "domino":
        opp = side_pips[1 - domino_seat % 2]  # type: ignore[operator]
        mode = R["out_bonus"]
        if mode.startswith("fixed:"):
            eb[domino_seat] = int(mode.split(":")[1])  # type: ignore[index]
        elif mode == "opponents_pips":
            eb[domino_seat] = round_bonus(opp, q, div)  # type: ignore[index]
        return eb
    if side_pips[0] == side_pips[1]:
        return eb
    w = 0 if side_pips[0] < side_pips[1] else 1
    seat = w if left[w] <= left[w + 2] else w + 2
    own, opp = side_pips[w], side_pips[1 - w]
    if R["block_bonus"] == "opponents_pips":
        eb[seat] = round_bonus(opp, q, div)
    elif R["block_bonus"] == "opponents_minus_own":
        eb[seat] = round_bonus(opp - own, q, div)
    return eb


def check(record: dict, policies: "str | Sequence[str] | None" = None, partial: bool = False) -> list[str]:
    """The problems of one trace record (empty list: it follows docs/rules.md). ``policies``: one per seat
    (or one for all) to also check the choices of greedy, heavy and hold:until=K. ``partial``: the
    record may stop before the end of the deal."""
    return Referee(record, policies, partial).run()

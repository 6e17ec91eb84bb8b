"""A played deal reviewed: every decision rated, the luck of every chance event, one figure per player.

Decisions. Every placement of the deal is a decision of the seat that made it. Its legal moves are
valued as ``simdom analyze`` values them (analyze/evaluate.py): rollouts that re-deal what the seat
could not see, consistently with what it had seen, play every move out in the same worlds (common
random numbers) with the ``then`` policy for every seat. The error of the move played is the best
move's mean final points minus the played move's; its 95% interval is the t interval of the paired
difference (the same worlds for both moves). The best move is the one with the highest mean, so a
played move that is the best has error 0 exactly. A move is marked ``blunder`` (error >= 4 points),
``mistake`` (>= 2) or ``inaccuracy`` (>= 0.5) only when its interval excludes 0 (``MARKS``). A forced
move (a single legal move) is listed with error 0 and not counted.

Luck. The chance events of a deal are the deal of the hands and every draw from the boneyard. The
luck of an event for seat s is E[s's final points | just after the event] minus E[... | just before
it], both expectations over the chance the review does not fix, estimated from the full record:
before a draw, the boneyard still to draw is re-shuffled (the tiles drawn earlier in the same turn
stay on top); after it, the drawn tile is fixed on top and the rest re-shuffled in the same order
(paired rollouts). Before the deal, all the tiles are dealt at random (the same seat leads); after
it, the hands are the deal's and the boneyard is re-shuffled. Each world is played to its end from
the position where the event happens by the ``then`` policy for every seat (the decisions of the
record after that point are not replayed: the expectation is that of the continuation policy).

From a one-seat file (``viewer``): only the viewer's decisions, and the luck of its own draws from
what it knew (analyze/luck.py).
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence


from ..tiles import tile_name
from .evaluate import evaluate
from .luck import LUCK_ROLLOUTS, Luck, chance_luck, viewer_luck
from .position import Deal, Position

#: the marks, worst first: a move's error must reach the threshold (points) with its interval above 0
MARKS = (("blunder", 4.0), ("mistake", 2.0), ("inaccuracy", 0.5))
#: ... by the currency the decisions are valued in (``by``): the win's as a share of deals won (0.05: 5
#: percentage points of wins, backgammon's "bad" move in equity is about 0.08)
MARKS_BY = {"points": MARKS, "margin": MARKS, "win": (("blunder", 0.10), ("mistake", 0.05), ("inaccuracy", 0.02)),
            "match": (("blunder", 0.10), ("mistake", 0.05), ("inaccuracy", 0.02))}
ROLLOUTS = 4000


def mark(error: float, lo: float, by: str = "points") -> str | None:
    """The mark of an error whose 95% interval starts at ``lo``: none unless the interval excludes 0."""
    if not lo > 0:
        return None
    return next((name for name, at in MARKS_BY[by] if error >= at), None)


#: the unit of an error in each currency, as the answers say it, and its scale (shares in percent)
UNIT = {"points": "points", "margin": "points of margin", "win": "percentage points of winning chances",
        "match": "percentage points of match equity"}
SCALE = {"win": 100, "match": 100}


def amount(x: float, by: str) -> str:
    """An error or a value in its currency, as the answers say it."""
    return f"{SCALE.get(by, 1) * x:.1f} {UNIT[by]}"


@dataclass
class Decision:
    move: int
    seat: int
    played: tuple[str, str, float]   #: tile, end, its value (mean final points, margin or win rate: ``by``)
    best: tuple[str, str, float]
    error: float
    error_lo: float
    error_hi: float
    mark: str | None
    forced: bool
    margin: float = float("nan")     #: the played move's expected final margin for the mover


@dataclass
class Player:
    seat: int
    name: str
    decisions: int
    error_total: float
    error_per_decision: float | None
    luck_total: float
    points: int
    adjusted_points: float


@dataclass
class Review:
    deal: Deal
    names: list[str]
    decisions: list[Decision]
    luck: list[Luck]
    players: list[Player]
    start_value: list[float]         #: each seat's expected final points before the deal
    then: str
    rollouts: int
    luck_rollouts: int
    seed: int
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    by: str = "points"               #: the currency of the values and errors: points, margin or win


def check_options(*, rollouts: int, luck_rollouts: int, seed: int, names: "str | Sequence[str] | None",
                  players: int, cli: bool = False) -> list[str] | None:
    """The options of a review, one home for simdom review and the library (``cli``: named as the command's
    options): OptionError, one line naming the value and what is allowed. The names, one per seat (a
    comma-separated text, or a sequence), or None."""
    from ..present import OptionError, bounded
    from .evaluate import MAX_ROLLOUTS, MAX_SEED
    bounded("rollouts", rollouts, 2, MAX_ROLLOUTS, cli=cli)
    bounded("luck_rollouts", luck_rollouts, 2, MAX_ROLLOUTS, cli=cli)
    bounded("seed", seed, 0, MAX_SEED, cli=cli)
    if names is None:
        return None
    listed = [x.strip() for x in names.split(",")] if isinstance(names, str) else \
        [x.strip() if isinstance(x, str) else x for x in names]
    if len(listed) != players or not all(isinstance(x, str) and x for x in listed):
        shown = f"--names {names!r}" if cli else f"names = {names!r}"
        raise OptionError(f"{shown}: {len(listed)} names; allowed: {players} non-empty names"
                          + (", comma-separated" if cli else " (one per seat)"))
    return listed


def script_names(label: str, players: int) -> list[str] | None:
    """Names from a deal's title ending in ``(A, B, C, D)`` (one per seat; ``Evgeny/Alexander`` gives
    the last name), as the seed game's title has them; None otherwise."""
    m = re.search(r"\(([^()]*)\)\s*$", label or "")
    if not m:
        return None
    parts = [p.strip().split("/")[-1].strip() for p in m.group(1).split(",")]
    return parts if len(parts) == players and all(parts) else None


def _decision(p: Position, then, seed: int, rollouts: int, progress=None, by: str = "points",
              match=None) -> Decision:
    mp = p.rules.max_pip
    forced = len(p.moves) == 1
    a = evaluate(p, then=then, seed=seed, rollouts=None if forced else rollouts, progress=progress, by=by,
                 match=match)
    best = a.best
    pl = a.row(p.played)
    value, diff = {"points": ("mean_points", "diff_vs_best"), "margin": ("mean_margin", "margin_diff_vs_best"),
                   "win": ("win_rate", "win_diff_vs_best"), "match": ("match", "match_diff_vs_best")}[by]
    cell = lambda r: (tile_name(r.tile, mp), r.end.label, getattr(r, value))  # noqa: E731
    if forced or pl is best:
        err, lo, hi = 0.0, 0.0, 0.0
    else:
        err, lo, hi = -getattr(pl, diff), -getattr(pl, diff + "_hi"), -getattr(pl, diff + "_lo")
    return Decision(p.move, p.seat, cell(pl), cell(best), err, lo, hi, None if forced else mark(err, lo, by), forced,
                    pl.mean_margin)


def review(deal: Deal, then: str | Sequence[str] = "greedy", seed: int = 1, rollouts: int = ROLLOUTS,
           luck_rollouts: int = LUCK_ROLLOUTS, names: Sequence[str] | None = None,
           viewer: int | None = None, progress: "Callable[[int, int], None] | None" = None,
           by: str = "points", match=None) -> Review:
    """Review every decision and chance event of ``deal`` (module doc); with ``viewer`` (a one-seat file,
    ``deal`` one full deal consistent with it), only that seat's decisions and its own draws, each
    valued from what it knew; ``progress(done, planned)`` hears of its steps (an exception it raises stops it);
    ``by`` the currency of the decisions (points, margin, win: the share of deals won, or match: the match
    equity of ``match``, analyze/matchvalue.py)."""
    t0 = time.perf_counter()
    n = deal.rules.players
    names = check_options(rollouts=rollouts, luck_rollouts=luck_rollouts, seed=seed, names=names, players=n)
    names = list(names or deal.names or script_names(deal.label, n) or [f"seat {s}" for s in range(n)])
    mine = [p for p in deal.positions() if viewer is None or p.seat == viewer]
    steps = len(mine) + (len(deal.plays) + 1 if viewer is None else 0)
    report = progress or (lambda done, planned: None)
    decisions = [_decision(p, then, seed, rollouts, progress and (lambda d, m, k=k: report(k, steps)), by, match)
                 for k, p in enumerate(mine)]
    if viewer is None:
        luck, start = chance_luck(deal, then, seed, luck_rollouts, lambda idx: report(len(mine) + idx, steps))
    else:
        luck, start = viewer_luck(deal, viewer, then, seed, luck_rollouts), [float("nan")] * n
    st = deal.start()
    for t, e in deal.plays:
        st.play(t, e)
    st.advance()
    st.settle()
    points = st.totals()
    extra = {"finished": bool(st.ended)}
    extra["viewer"] = viewer
    players = []
    for s in range(n):
        if viewer is not None and s != viewer:
            continue
        mine = [d for d in decisions if d.seat == s and not d.forced]
        err = float(sum(d.error for d in mine))
        lk = float(sum(x.luck[s] for x in luck if x.luck[s] is not None and not math.isnan(x.luck[s])))
        players.append(Player(s, names[s], len(mine), err, err / len(mine) if mine else None, lk, int(points[s]),
                              points[s] - lk))
    then_text = then if isinstance(then, str) else ", ".join(then)
    return Review(deal, names, decisions, luck, players, start, then_text, rollouts, luck_rollouts, seed,
                  time.perf_counter() - t0, extra, by)


def to_json(r: Review) -> dict:
    """The review as docs/analysis.md (Review) documents it."""
    return {
        "deal": r.deal.label, "then": r.then, "rollouts": r.rollouts, "luck_rollouts": r.luck_rollouts,
        "seed": r.seed, "by": r.by,
        "decisions": [{"move": d.move, "seat": d.seat,
                       "played": dict(zip(("tile", "end", "value"), d.played)),
                       "best": dict(zip(("tile", "end", "value"), d.best)),
                       "error": d.error, "error_lo": d.error_lo, "error_hi": d.error_hi, "mark": d.mark,
                       "forced": d.forced} for d in r.decisions],
        "luck": [{"event": x.event, "move": x.move, "seat": x.seat, "luck": x.luck, "luck_lo": x.lo,
                  "luck_hi": x.hi} for x in r.luck],
        "players": [{"seat": p.seat, "name": p.name, "decisions": p.decisions, "error_total": p.error_total,
                     "error_per_decision": p.error_per_decision, "luck_total": p.luck_total, "points": p.points,
                     "adjusted_points": p.adjusted_points, "expected_at_start": None if math.isnan(r.start_value[p.seat]) else r.start_value[p.seat]}
                    for p in r.players],
        **({"viewer": r.extra["viewer"]} if r.extra.get("viewer") is not None else {}),
    }


# ---- for people --------------------------------------------------------------------------------------
def _move_text(cell: tuple[str, str, float]) -> str:
    return cell[0] if cell[1] == "lead" else f"{cell[0]} {cell[1]}"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def luck_clause(players: Sequence[Player], then: str) -> str:
    """Who had the most luck and who the least, as the headline says it: the luck as shown (one decimal),
    ties named together, a negative luck called bad luck, and what luck is measured against (the
    expected final points with ``then`` playing on, before and after each chance event)."""
    shown = [(p.name, round(p.luck_total, 1) + 0.0) for p in players]
    hi, lo = max(v for _, v in shown), min(v for _, v in shown)
    top = [n for n, v in shown if v == hi]
    bottom = [n for n, v in shown if v == lo]
    each = " each" if len(top) > 1 else ""
    how = f"luck measured against {then} continuation"
    if hi == lo:
        return f"{how}: even ({hi:+.1f} each)"
    most = "had the most luck" if hi > 0 else "had the least bad luck"
    least = "the least" if lo > 0 else "the worst"
    each_low = " each" if len(bottom) > 1 else ""
    return f"{how}: {_names(top)} {most} ({hi:+.1f}{each}), {_names(bottom)} {least} ({lo:+.1f}{each_low})"


def summary(r: Review) -> list[str]:
    """The answer: who lost most to errors (and where), then who was the luckiest."""
    counted = [d for d in r.decisions if not d.forced]
    worst = max(r.players, key=lambda p: (p.error_total, -p.seat))
    out = []
    if worst.error_total <= 0:
        out.append(f"Every one of the {len(counted)} decisions rated was the best move found.")
    else:
        top = max((d for d in counted if d.seat == worst.seat), key=lambda d: d.error)
        out.append(f"{worst.name} lost {amount(worst.error_total, r.by)} to errors, "
                   f"{SCALE.get(r.by, 1) * top.error:.1f} of them at move {top.move} "
                   f"({_move_text(top.played)} instead of {_move_text(top.best)}).")
    if len(r.players) == 1:
        me = r.players[0]
        out[-1] = out[-1][:-1] + f"; {me.name}'s luck in their own draws: {me.luck_total:+.1f} (measured against " \
                                 f"{r.then} continuation)."
    else:
        out[-1] = out[-1][:-1] + f"; {luck_clause(r.players, r.then)}."
    marked = [d for d in r.decisions if d.mark]
    if marked:
        out.append("Marked: " + ", ".join(f"move {d.move} ({r.names[d.seat]}, {d.mark})" for d in marked) + ".")
    nd, ne = len(counted), len(r.luck)
    out.append(f"{nd} decision{'s' * (nd != 1)} rated ({len(r.decisions) - nd} forced) by {r.rollouts:,} "
               f"rollouts each, {ne} chance event{'s' * (ne != 1)} by {r.luck_rollouts:,}, played out by {r.then} for "
               f"every seat.")
    if not r.extra.get("finished", True):
        out[-1] += " The record stops before the end of the deal: points are those scored so far."
    return out


def answer(r: Review):
    from .. import present as P
    rows = []
    k, unit = SCALE.get(r.by, 1), UNIT[r.by]
    for d in r.decisions:
        rows.append({"move": d.move, "player": r.names[d.seat], "played": _move_text(d.played),
                     "value": k * d.played[2], "best": "" if d.played[:2] == d.best[:2] else _move_text(d.best),
                     "best_value": k * d.best[2],
                     "error": "forced" if d.forced else P.est(k * d.error, k * d.error_lo, k * d.error_hi)
                     if d.error_hi > d.error_lo else f"{k * d.error:.1f}",
                     "mark": d.mark or ""})
    dcols = [P.Col("move", kind="int"), P.Col("player"), P.Col("played"), P.Col("value", kind="num"),
             P.Col("best"), P.Col("best_value", "value", kind="num"),
             P.Col("error", "error (95% CI)", align="right"), P.Col("mark")]
    lrows = []
    for x in r.luck:
        row = {"event": x.event, "move": x.move, "by": "" if x.seat is None else r.names[x.seat]}
        for s in range(len(r.names)):
            v = x.luck[s]
            row[f"s{s}"] = "" if v is None else "n/a" if math.isnan(v) else f"{v:+.1f}"
        lrows.append(row)
    lcols = [P.Col("event"), P.Col("move", kind="int"), P.Col("by")] + \
            [P.Col(f"s{s}", r.names[s][:10], align="right") for s in range(len(r.names))]
    prows = [{"player": p.name, "decisions": p.decisions, "error": f"{k * p.error_total:.1f}",
              "per": "" if p.error_per_decision is None else f"{k * p.error_per_decision:.2f}",
              "luck": f"{p.luck_total:+.1f}", "points": p.points, "adjusted": f"{p.adjusted_points:.1f}"}
             for p in r.players]
    pcols = [P.Col("player"), P.Col("decisions", kind="int"), P.Col("error", align="right"),
             P.Col("per", "per decision", align="right"), P.Col("luck", align="right"),
             P.Col("points", kind="int"), P.Col("adjusted", "points - luck", align="right")]
    ans = P.Answer(summary(r), data=to_json(r))
    ans.add(P.Table("Players", prows, pcols))
    what = {"points": "expected final points", "margin": "expected final margin", "win": "chance to win the deal, %",
            "match": "match equity, %"}
    ans.add(P.Table(f"Decisions (value: {what[r.by]} of the mover)", rows, dcols, keys=2))
    ans.add(P.Table("Luck of each chance event (expected final points after minus before)", lrows, lcols))
    ans.notes.append("Marks (error with its 95% interval above 0): " +
                     ", ".join(f"{n} >= {k * at:g}" for n, at in MARKS_BY[r.by]) + f" {unit}.")
    return ans


def csv_rows(r: Review) -> list[dict]:
    """One flat row per decision (for --format csv)."""
    return [{"move": d["move"], "seat": d["seat"], "played_tile": d["played"]["tile"], "played_end": d["played"]["end"],
             "played_value": d["played"]["value"], "best_tile": d["best"]["tile"], "best_end": d["best"]["end"],
             "best_value": d["best"]["value"], "error": d["error"], "error_lo": d["error_lo"],
             "error_hi": d["error_hi"], "mark": d["mark"] or "", "forced": d["forced"]}
            for d in to_json(r)["decisions"]]

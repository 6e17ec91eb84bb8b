"""An analysis for people (the verdict in a sentence, then a compact table) and for machines (JSON).

Numbers are rounded to what their 95% interval supports (as simdom's other answers): ``7.14 (7.08-7.20)``.
"""
from __future__ import annotations

from typing import Any, Sequence

from .. import present as P
from .evaluate import Analysis, MoveValue

UNITS = {"points": "points", "margin": "points of margin", "win": "percentage points of win rate",
         "match": "percentage points of match equity"}
PCT = ("win", "match")   # the currencies shown in percent
#: the JSON fields of a move, in order (RULES-independent; docs/analysis.md)
MOVE_FIELDS = ("tile", "end", "played", "mean_points", "mean_points_lo", "mean_points_hi", "diff_vs_best",
               "diff_vs_best_lo", "diff_vs_best_hi", "win_rate", "win_rate_lo", "win_rate_hi", "win_diff_vs_best",
               "win_diff_vs_best_lo", "win_diff_vs_best_hi", "mean_margin", "mean_margin_lo", "mean_margin_hi",
               "margin_diff_vs_best", "margin_diff_vs_best_lo", "margin_diff_vs_best_hi")
#: ... and with --by match
MATCH_FIELDS = ("match", "match_lo", "match_hi", "match_diff_vs_best", "match_diff_vs_best_lo",
                "match_diff_vs_best_hi")


# ---- numbers (simdom.present: rounded to what their interval supports) ----------------------------
def est(x: float, lo: float, hi: float, *, signed: bool = False, pct: bool = False) -> str:
    """``7.14 (7.08-7.20)``; an exact value (no width) as it is."""
    return P.est(x, lo, hi, signed=signed, pct=pct)


def ci(x: float, lo: float, hi: float, *, signed: bool = False, pct: bool = False, unit: str = "") -> str:
    """For a sentence: ``+7.14 points (95% CI 7.08-7.20)``; ``(exact)`` when the interval has no width."""
    text = P.ci(x, lo, hi, signed=signed, pct=pct, unit=unit)
    return text if "(95% CI" in text else text + " (exact)"


# ---- the verdict -------------------------------------------------------------------------------------
def _on(r: MoveValue) -> str:
    return f"{r.name.split()[0]} on {r.end.label}" if r.end.label != "lead" else f"{r.name.split()[0]} as the lead"


def _gain(a: Analysis, r: MoveValue) -> tuple[float, float, float]:
    """The best move's advantage over r in the ranking metric: (estimate, lo, hi)."""
    key = {"points": "diff_vs_best", "margin": "margin_diff_vs_best", "win": "win_diff_vs_best",
           "match": "match_diff_vs_best"}[a.by]
    d, lo, hi = getattr(r, key), getattr(r, key + "_lo"), getattr(r, key + "_hi")
    return -d, -hi, -lo


def verdict(a: Analysis) -> str:
    """``Best: 1-1 on L, +7.14 points over 1-5 on L, the move played (95% CI 7.08-7.20).``"""
    best, rival = a.best, a.rival
    if rival is None:
        return (f"Forced: {_on(best)} is the only legal move; expected final points "
                f"{ci(best.mean_points, best.mean_points_lo, best.mean_points_hi)}.")
    g, lo, hi = _gain(a, rival)
    num = est(g, lo, hi, signed=True, pct=a.by in PCT)
    value, interval = num.split(" (", 1) if " (" in num else (num, "exact)")
    head = f"Best: {_on(best)}" + (" (the move played)" if best.played else "")
    tag = ", the move played" if rival.played else (", the next best" if a.position.played is not None else "")
    text = f"{head}, {value} {UNITS[a.by]} over {_on(rival)}{tag} ({'95% CI ' if ' (' in num else ''}{interval}"
    if a.stopped in ("budget", "fixed") and not lo > 0 and not (lo == hi):
        text += f"; not separated after {a.rollouts:,} rollouts"
    return text + "."


def context(a: Analysis) -> str:
    """What was evaluated and how: the second sentence."""
    p = a.position
    s = p.seat
    world = ("the true hidden tiles (perfect information)" if a.perfect else
             f"re-deals of the {p.unseen} tiles seat {s} cannot see, consistent with what it knows")
    why = {"separated": "stopped once the best move separated from the others",
           "budget": "the budget was spent before the best move separated",
           "fixed": "a fixed number", "forced": "one legal move"}[a.stopped]
    ranked = {"points": "mean final points", "margin": "mean final margin", "win": "win rate",
              "match": a.currency}[a.by]
    return (f"Seat {s} to act at move {p.move} of {p.deal.label}: {len(p.moves)} legal moves, "
            f"{a.rollouts:,} rollouts ({why}), each in {world}, played out by {a.then} for every seat; "
            f"ranked by {ranked}.")


def answer(a: Analysis) -> P.Answer:
    """The verdict, the context, the table of moves (best first); machines get :func:`to_json`."""
    rows = []
    for r in a.rows:
        d = {"move": r.name + (" *" if r.played else ""),
             "vs_best": "best" if r is a.best else est(r.diff_vs_best, r.diff_vs_best_lo, r.diff_vs_best_hi,
                                                         signed=True)}
        for f in ("mean_points", "mean_margin", "win_rate") + (("match",) if a.by == "match" else ()):
            d.update({f: getattr(r, f), f + "_lo": getattr(r, f + "_lo"), f + "_hi": getattr(r, f + "_hi")})
        if a.by == "match":
            d["vs_best"] = "best" if r is a.best else est(r.match_diff_vs_best, r.match_diff_vs_best_lo,
                                                          r.match_diff_vs_best_hi, signed=True, pct=True)
        rows.append(d)
    cols = [P.Col("move"), P.Col("mean_points", "points", "round"), P.Col("vs_best", "vs best (95% CI)", align="right"),
            P.Col("mean_margin", "margin", "round"), P.Col("win_rate", "win %", "pctround")]
    if a.by == "match":   # the currency first, its difference against the best beside it
        cols = [P.Col("move"), P.Col("match", "match %", "pctround"),
                P.Col("vs_best", "vs best, pp (95% CI)", align="right"), P.Col("win_rate", "deal win %", "pctround"),
                P.Col("mean_points", "points", "round")]
    ans = P.Answer([verdict(a), context(a)], data=to_json(a))
    ans.add(P.Table(f"Seat {a.position.seat}'s legal moves at move {a.position.move}, best first", rows, cols))
    if a.position.played is not None:
        ans.notes.append("* the move played in the deal")
    return ans


def to_json(a: Analysis) -> dict[str, Any]:
    """``{"seat", "move", "rollouts", "moves": [...]}``, one entry per legal move, best first."""
    moves = []
    for r in a.rows:
        d: dict[str, Any] = {"tile": r.name.split()[0], "end": r.end.label}
        for f in MOVE_FIELDS[2:] + (MATCH_FIELDS if a.by == "match" else ()):
            d[f] = getattr(r, f)
        moves.append(d)
    out = {"seat": a.position.seat, "move": a.position.move, "rollouts": a.rollouts, "moves": moves}
    if a.by == "match":
        out.update(by="match", currency=a.currency)
    return out


# ---- every move of a deal ----------------------------------------------------------------------------
def cost(a: Analysis) -> tuple[float, float, float] | None:
    """Points the move played gave up against the best: (estimate <= 0, lo, hi); None if unknown."""
    if a.position.played is None:
        return None
    r = a.row(a.position.played)
    return r.diff_vs_best, r.diff_vs_best_lo, r.diff_vs_best_hi


def summary(analyses: Sequence[Analysis]) -> str:
    """The answer for a whole deal: which moves were not the best, and the costliest one."""
    label = analyses[0].position.deal.label if analyses else "the deal"
    worse = [a for a in analyses if a.position.played is not None and not a.best.played
             and a.row(a.position.played).diff_vs_best_hi < 0]
    if not worse:
        return f"Every move of {label} ({len(analyses)} moves) was the best or within the noise of it."
    top = min(worse, key=lambda a: a.row(a.position.played).diff_vs_best)
    c, lo, hi = cost(top)
    played = top.row(top.position.played)
    which = [str(a.position.move) for a in worse]
    listed = which[0] if len(which) == 1 else ", ".join(which[:-1]) + " and " + which[-1]
    return (f"Of {len(analyses)} moves of {label}, {len(worse)} gave up points against the best (move"
            f"{'s' if len(worse) > 1 else ''} {listed}); the costliest was move {top.position.move} (seat "
            f"{top.position.seat} played {_on(played)}, best {_on(top.best)}: "
            f"{ci(c, lo, hi, signed=True, unit='points')}).")


def all_answer(analyses: Sequence[Analysis]) -> P.Answer:
    """Every move of a deal: which gave up points, then one line per move; machines get a list of
    :func:`to_json` objects."""
    rows = []
    for a in analyses:
        c = cost(a)
        if a.stopped == "forced" or len(a.rows) < 2:
            text = "forced"
        elif c is None:
            text = ""
        elif a.best.played:
            g, lo, hi = _gain(a, a.rows[1])
            text = "best, by " + est(g, lo, hi, signed=True, pct=a.by in PCT)
        else:
            text = est(*c, signed=True)
        rows.append({"move": a.position.move, "seat": a.position.seat,
                     "played": a.position.name(a.position.played) if a.position.played else "",
                     "best": a.best.name, "cost": text, "rollouts": a.rollouts})
    cols = [P.Col("move", kind="int"), P.Col("seat", kind="int"), P.Col("played"), P.Col("best"),
            P.Col("cost", "played vs best (95% CI)", align="right"), P.Col("rollouts", kind="int")]
    label = analyses[0].position.deal.label if analyses else "the deal"
    ans = P.Answer([summary(analyses)], data=[to_json(a) for a in analyses])
    return ans.add(P.Table(f"Every move of {label}", rows, cols, keys=2))

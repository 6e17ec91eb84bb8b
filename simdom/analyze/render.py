"""An analysis for people (the verdict in a sentence, then a compact table) and for machines (JSON).

Numbers are rounded to what their 95% interval supports (as simdom's other answers): ``7.14 (7.08-7.20)``.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from .evaluate import Analysis, MoveValue

UNITS = {"points": "points", "margin": "points of margin", "win": "percentage points of win rate"}
#: the JSON fields of a move, in order (RULES-independent; README "simdom analyze")
MOVE_FIELDS = ("tile", "end", "played", "mean_points", "mean_points_lo", "mean_points_hi", "diff_vs_best",
               "diff_vs_best_lo", "diff_vs_best_hi", "win_rate", "win_rate_lo", "win_rate_hi", "win_diff_vs_best",
               "win_diff_vs_best_lo", "win_diff_vs_best_hi", "mean_margin", "mean_margin_lo", "mean_margin_hi",
               "margin_diff_vs_best", "margin_diff_vs_best_lo", "margin_diff_vs_best_hi")


# ---- numbers ---------------------------------------------------------------------------------------
def _decimals(lo: float, hi: float) -> int | None:
    half = (hi - lo) / 2
    if not math.isfinite(half) or half <= 0:
        return None
    return min(6, max(0, -math.floor(math.log10(half))))


def _fixed(x: float, d: int) -> str:
    s = f"{x:.{d}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def _plain(x: float) -> str:
    if x == int(x):
        return str(int(x))
    return f"{x:.3g}"


def est(x: float, lo: float, hi: float, *, signed: bool = False, scale: float = 1.0, bare: bool = False) -> str:
    """``7.14 (7.08-7.20)``, or ``7.14`` with ``bare``; an exact value (no width) as it is."""
    x, lo, hi = x * scale, lo * scale, hi * scale
    d = _decimals(lo, hi)
    if d is None:
        text = _plain(x)
        return ("+" if signed and x > 0 else "") + text
    sx = ("+" if signed and round(x, d) > 0 else "") + _fixed(x, d)
    if bare:
        return sx
    slo, shi = _fixed(lo, d), _fixed(hi, d)
    sep = " to " if slo.startswith("-") or shi.startswith("-") else "-"
    return f"{sx} ({slo}{sep}{shi})"


def ci(x: float, lo: float, hi: float, *, signed: bool = False, scale: float = 1.0, unit: str = "") -> str:
    """For a sentence: ``+7.14 points (95% CI 7.08-7.20)``."""
    text = est(x, lo, hi, signed=signed, scale=scale)
    u = f" {unit}" if unit else ""
    if " (" not in text:
        return text + u + " (exact)"
    head, tail = text.split(" (", 1)
    return f"{head}{u} (95% CI {tail}"


# ---- the verdict -------------------------------------------------------------------------------------
def _on(r: MoveValue) -> str:
    return f"{r.name.split()[0]} on {r.end.label}" if r.end.label != "lead" else f"{r.name.split()[0]} as the lead"


def _gain(a: Analysis, r: MoveValue) -> tuple[float, float, float]:
    """The best move's advantage over r in the ranking metric: (estimate, lo, hi)."""
    key = {"points": "diff_vs_best", "margin": "margin_diff_vs_best", "win": "win_diff_vs_best"}[a.by]
    d, lo, hi = getattr(r, key), getattr(r, key + "_lo"), getattr(r, key + "_hi")
    return -d, -hi, -lo


def verdict(a: Analysis) -> str:
    """``Best: 1-1 on L, +7.14 points over 1-5 on L, the move played (95% CI 7.08-7.20).``"""
    best, rival = a.best, a.rival
    if rival is None:
        return (f"Forced: {_on(best)} is the only legal move; expected final points "
                f"{ci(best.mean_points, best.mean_points_lo, best.mean_points_hi)}.")
    g, lo, hi = _gain(a, rival)
    num = est(g, lo, hi, signed=True, scale=100.0 if a.by == "win" else 1.0)
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
    return (f"Seat {s} to act at move {p.move} of {p.deal.label}: {len(p.moves)} legal moves, "
            f"{a.rollouts:,} rollouts ({why}), each in {world}, played out by {a.then} for every seat; "
            f"ranked by mean final {'points' if a.by == 'points' else 'margin' if a.by == 'margin' else 'win rate'}.")


def table_rows(a: Analysis) -> tuple[list[str], list[list[str]]]:
    """The compact table: move, mean final points, paired difference with the best, margin, win %."""
    head = ["move", "points", "vs best (95% CI)", "margin", "win %"]
    rows = []
    for r in a.rows:
        diff = "best" if r is a.best else est(r.diff_vs_best, r.diff_vs_best_lo, r.diff_vs_best_hi, signed=True)
        rows.append([r.name + (" *" if r.played else ""),
                     est(r.mean_points, r.mean_points_lo, r.mean_points_hi, bare=True), diff,
                     est(r.mean_margin, r.mean_margin_lo, r.mean_margin_hi, bare=True),
                     est(r.win_rate, r.win_rate_lo, r.win_rate_hi, scale=100.0, bare=True)])
    return head, rows


def to_json(a: Analysis) -> dict[str, Any]:
    """``{"seat", "move", "rollouts", "moves": [...]}``, one entry per legal move, best first."""
    moves = []
    for r in a.rows:
        d: dict[str, Any] = {"tile": r.name.split()[0], "end": r.end.label}
        for f in MOVE_FIELDS[2:]:
            d[f] = getattr(r, f)
        moves.append(d)
    return {"seat": a.position.seat, "move": a.position.move, "rollouts": a.rollouts, "moves": moves}


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


def all_rows(analyses: Sequence[Analysis]) -> tuple[list[str], list[list[str]]]:
    head = ["move", "seat", "played", "best", "played vs best (95% CI)", "rollouts"]
    rows = []
    for a in analyses:
        c = cost(a)
        played = a.position.name(a.position.played) if a.position.played else ""
        if a.stopped == "forced":
            text = "forced"
        elif c is None:
            text = ""
        elif a.best.played:
            g, lo, hi = _gain(a, a.rows[1])
            text = "best, by " + est(g, lo, hi, signed=True, scale=100.0 if a.by == "win" else 1.0)
        else:
            text = est(*c, signed=True)
        rows.append([str(a.position.move), str(a.position.seat), played, a.best.name, text, f"{a.rollouts:,}"])
    return head, rows

"""`simdom doubles --exact`: what holding the first double is worth with every hand known.

Each deal is played by a policy (``simdom trace`` plays the same deal) up to its first first-double
decision: no double is down yet, and the seat to act can place a double and can place another tile. That
position is solved exactly (simdom.engine.solver, as ``simdom solve`` solves it: minimax, or the other
seats playing a deterministic policy), and the best move that places no double ("holding") is compared
with the best double. One position per deal, so deals are independent units: Wilson intervals for the
shares, Student t for the mean difference. A position the solver cannot finish within ``limit``
positions is counted as skipped, never dropped silently.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from .. import present as P
from ..engine.solver import DEFAULT_LIMIT, SolveLimit, Solver
from ..rules import Rules
from ..tiles import halves, tile_name
from .position import Position, PositionError, from_seed

#: the situations of the table, in order: at the lead or later; the support of the best double (other tiles
#: of its suit in the mover's hand); the doubles in the mover's hand
SITUATIONS = ("lead", "double_support", "doubles_held")


@dataclass(frozen=True)
class ExactDecision:
    """One first first-double decision, solved."""
    deal: int
    move: int
    seat: int
    double: str              #: the best double move (``4-4 L``)
    double_value: int
    hold: str                #: the best move placing no double
    hold_value: int
    support: int             #: other tiles of the best double's suit in the mover's hand
    doubles_held: int        #: doubles in the mover's hand (the best double included)

    @property
    def difference(self) -> int:
        return self.hold_value - self.double_value


def first_decision(rules: Rules, policies: Sequence[Any], seed: int, deal: int) -> Position | None:
    """The deal's first first-double decision as played by ``policies``, or None when it has none."""
    lo, hi = halves(rules.max_pip)
    for pos in from_seed(rules, policies, seed, deal).positions():
        if pos.state.first_double is not None:
            return None  # a double is down: no first-double decision can come later
        doubles = [t for t, _ in pos.moves if lo[t] == hi[t]]
        if doubles and len(doubles) < len(pos.moves):
            return pos
    return None


def decisions(rules: Rules, policies: Sequence[Any], seed: int, deals: int, *, against: str = "minimax",
              limit: int = DEFAULT_LIMIT, progress=None) -> Iterator[ExactDecision | int]:
    """Each deal's solved decision, or the deal's number when the solver stopped at ``limit``."""
    solver = Solver(rules)
    lo, hi = halves(rules.max_pip)
    mp = rules.max_pip
    for d in range(deals):
        pos = first_decision(rules, policies, seed, d)
        if progress is not None:
            progress()
        if pos is None:
            continue
        try:
            sol = solver.solve(pos.state, against=None if against == "minimax" else against, limit=limit)
        except SolveLimit:
            yield d
            continue
        dbl = next(m for m in sol.moves if lo[m.tile] == hi[m.tile])  # best first
        hold = next(m for m in sol.moves if lo[m.tile] != hi[m.tile])
        hand = pos.state.hand(pos.seat)
        suit = int(lo[dbl.tile])
        support = sum(1 for t in hand if t != dbl.tile and suit in (lo[t], hi[t]))
        held = sum(1 for t in hand if lo[t] == hi[t])
        yield ExactDecision(d, pos.move, pos.seat, f"{tile_name(dbl.tile, mp)} {dbl.end.label}", dbl.value,
                            f"{tile_name(hold.tile, mp)} {hold.end.label}", hold.value, support, held)


def _summary(diffs: np.ndarray) -> dict[str, Any]:
    from ..stats.inference import mean_ci, wilson
    n = len(diffs)
    share = float((diffs > 0).mean()) if n else float("nan")
    lo, hi = wilson(share, n) if n else (float("nan"), float("nan"))
    tie = float((diffs == 0).mean()) if n else float("nan")
    tlo, thi = wilson(tie, n) if n else (float("nan"), float("nan"))
    if n >= 2 and diffs.std() > 0:
        m, mlo, mhi = mean_ci(diffs)
    else:
        m, mlo, mhi = (float(diffs.mean()) if n else float("nan")), float("nan"), float("nan")
    return {"positions": n, "hold_better": {"share": share, "low": float(lo), "high": float(hi)},
            "tie_share": tie, "tie_interval": (float(tlo), float(thi)),
            "mean_difference": {"value": m, "low": mlo, "high": mhi}}


def _situations(x: ExactDecision) -> list[str]:
    """The rows of the table that this decision counts in: one per situation of SITUATIONS."""
    return ["at the lead" if x.move == 1 else "after the lead",
            f"double's support {x.support}" if x.support < 2 else "double's support 2+",
            f"doubles held {x.doubles_held}" if x.doubles_held < 3 else "doubles held 3+"]


def exact_answer(rules: Rules, policy: str, seed: int, deals: int, found: list, *, against: str) -> P.Answer:
    """The answer: the share of positions where holding is strictly better, then the table by situation."""
    solved = [x for x in found if isinstance(x, ExactDecision)]
    skipped = [x for x in found if not isinstance(x, ExactDecision)]
    diffs = np.array([x.difference for x in solved], float)
    top = _summary(diffs)
    game = f"{rules.players}-player {(rules.preset or 'custom').replace('-', ' ').capitalize()}"
    who = "minimax after it" if against == "minimax" else f"the other seats playing {against} after it"
    if solved:
        hb = top["hold_better"]
        md = top["mean_difference"]
        head = (f"With every hand known, holding is strictly better in "
                f"{P.ci(hb['share'], hb['low'], hb['high'], pct=True, level=None)} of {game} positions at the first "
                f"first-double decision ({len(solved):,} of {deals:,} deals; {policy} play to it, {who}); "
                f"the double and holding tie in {P.ci(top['tie_share'], *top['tie_interval'], pct=True, level=None)}, "
                f"and holding minus the "
                f"double averages {P.est(md['value'], md['low'], md['high'], signed=True)} points of margin.")
    else:
        head = f"No {game} deal of the {deals:,} reached a first-double decision that could be solved."
    by_rows = []
    groups: dict[str, list[ExactDecision]] = {}
    for x in solved:
        for label in _situations(x):
            groups.setdefault(label, []).append(x)
    order = ["at the lead", "after the lead"] + sorted(k for k in groups if not k.endswith("lead"))
    for label in [k for k in order if k in groups]:
        summ = _summary(np.array([x.difference for x in groups[label]], float))
        hb, md = summ["hold_better"], summ["mean_difference"]
        by_rows.append({"situation": label, "positions": summ["positions"], "hold_better": hb["share"],
                        "hold_better_lo": hb["low"], "hold_better_hi": hb["high"],
                        "mean_difference": md["value"], "mean_difference_lo": md["low"],
                        "mean_difference_hi": md["high"]})
    cols = [P.Col("situation"), P.Col("positions", kind="int"), P.Col("hold_better", "hold better %", "pct"),
            P.Col("mean_difference", "hold - double", "diff")]
    ans = P.Answer([head], [P.Table("by situation (each position counts once in each group of rows)", by_rows,
                                    cols)])
    ans.notes.append(f"Exact values by margin (the side's deal total minus the best other side's); one position "
                     f"per deal, 95% intervals (Wilson; Student t for the mean). Seed {seed}; deals 0-{deals - 1}.")
    if skipped:
        ans.notes.append(f"{len(skipped):,} position(s) skipped: not solved within the solver's limit (deals "
                         f"{', '.join(map(str, skipped[:5]))}{', ...' if len(skipped) > 5 else ''}).")
    from ..engine.api import SIM_VERSION
    ans.data = {"players": rules.players, "rules": rules.preset, "policy": policy, "against": against,
                "seed": seed, "sim_version": SIM_VERSION, "deals": deals, "positions": len(solved),
                "skipped": len(skipped), **{k: v for k, v in top.items() if k not in ("positions", "tie_interval")},
                "by": [{"situation": r["situation"], "positions": r["positions"],
                        "hold_better": {"share": r["hold_better"], "low": r["hold_better_lo"],
                                        "high": r["hold_better_hi"]},
                        "mean_difference": {"value": r["mean_difference"], "low": r["mean_difference_lo"],
                                            "high": r["mean_difference_hi"]}} for r in by_rows],
                "decisions": [{"deal": x.deal, "move": x.move, "seat": x.seat, "double": x.double,
                               "double_value": x.double_value, "hold": x.hold, "hold_value": x.hold_value}
                              for x in solved]}
    return ans


__all__ = ["ExactDecision", "PositionError", "SITUATIONS", "decisions", "exact_answer", "first_decision"]

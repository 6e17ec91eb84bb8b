"""The report's section on first-double decisions (results of `simdom run --decisions`): the answer
and tables of `simdom doubles --decisions`, and a heatmap of the value of holding by bonus tier and the
double's support, one panel per arm."""
from __future__ import annotations

import numpy as np
import polars as pl

from simdom.report import plots
from simdom.report.data import Figure, Section
from simdom.stats.read.folder import ResultFrames


def _prefix(results: list[ResultFrames], r: ResultFrames) -> str:
    return f"{r.name}: " if len(results) > 1 else ""


def decisions(results: list[ResultFrames]) -> Section | None:
    """None when no folder has a decisions table."""
    from simdom.stats.decisions.views import decisions_answer

    with_table = [r for r in results if r.decisions is not None]
    if not with_table:
        return None
    sec = Section("When to hold the first double")
    for r in with_table:
        ans = decisions_answer(r)
        sec.take(ans, _prefix(results, r))
        grid = pl.DataFrame(ans.data["decision-grid"])
        if grid.is_empty():
            continue
        tiers = sorted(set(grid["tier"]), key=lambda t: tuple(int(x) for x in t.split("->")))
        sups = sorted(set(grid["double_support"]), key=lambda s: int(s.rstrip("+")))
        panels, counts = [], []
        for arm in [a for a in r.arm_names if a in set(grid["arm"])][:6]:
            g = grid.filter(pl.col("arm") == arm)
            mats = [np.full((len(tiers), len(sups)), np.nan) for _ in range(4)]
            for row in g.iter_rows(named=True):
                i, j = tiers.index(row["tier"]), sups.index(row["double_support"])
                for m, k in zip(mats, ("hold_value", "hold_value_lo", "hold_value_hi", "decisions")):
                    m[i, j] = row[k]
            panels.append((arm, tiers, sups, *mats[:3]))
            counts.append(mats[3])
        method = f"rollouts, {r.manifest.decision_then or 'greedy'} continuation" if r.manifest.decision_rollouts \
            else "as played: an association"
        sec.figures.append(Figure(f"hold_{len(sec.figures)}", f"{r.name}: value of holding the first double "
                                  f"({method}); * the 95% interval excludes 0; n: decisions in the cell", plots.heatmap_panels(
                                      panels, title=f"Value of holding the first double ({r.name})",
                                      xlabel="other tiles of its suit in hand", ylabel="bonus now -> a round later",
                                      cbar="points per decision (> 0: holding pays)", counts=counts)))
    return sec

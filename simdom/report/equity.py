"""``simdom equity -o FILE.html``: the match equity table as one self-contained page, the answer, the heatmap
of every score and the compact table (simdom.stats.matches.metview)."""
from __future__ import annotations

import numpy as np

from simdom import present as P
from simdom.report import plots
from simdom.report.data import Figure, Section
from simdom.report.html import render_html
from simdom.stats.matches.met import EquityTable
from simdom.stats.matches.metview import side_name


@plots.png
def equity_heatmap(t: EquityTable, lead, title: str):
    """P(side 0 wins) at every score: side 0's score up, the other sides' (each at the same) across."""
    import matplotlib.pyplot as plt
    n = t.size
    grid = np.empty((n, n))
    for a in range(n):
        for b in range(n):
            grid[a, b] = t.win([a * t.step] + [b * t.step] * (t.sides - 1), lead)[0]
    fig, ax = plt.subplots(figsize=(6.4, 5.4))
    top = (n - 1) * t.step
    im = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1, aspect="auto",
                   extent=(-t.step / 2, top + t.step / 2, -t.step / 2, top + t.step / 2))
    cs = ax.contour(np.arange(n) * t.step, np.arange(n) * t.step, grid, levels=[0.25, 0.5, 0.75], colors="k",
                    linewidths=0.6)
    ax.clabel(cs, fmt=lambda v: f"{v:.0%}", fontsize=7)
    ax.set(title=title, xlabel=f"the other side{'s' if t.sides > 2 else ''}' score before the deal",
           ylabel=f"{side_name(t, 0)}'s score before the deal")
    fig.colorbar(im, ax=ax, label=f"P({side_name(t, 0)} wins the match)")
    return fig


def equity_html(t: EquityTable, ans: P.Answer) -> str:
    """The page: the answer's sentences, one heatmap per lead, its tables and notes."""
    sec = Section("Match equity")
    sec.take(ans)
    for lead in t.leads:
        who = "the rules' lead" if lead is None else f"seat {lead} leading"
        cap = f"P({side_name(t, 0)} wins the match) at every score before a deal ({who}); contours at 25, 50, 75%."
        sec.figures.append(Figure(f"equity_{lead}", cap, equity_heatmap(t, lead, title=f"Match equity, {who}")))
    rules = t.rules
    title = (f"simdom equity: {rules.players}-player {(rules.preset or 'custom').capitalize()} to {t.target}, "
             f"{t.policy}")
    return render_html([sec], title, by="simdom equity")


__all__ = ["equity_heatmap", "equity_html"]

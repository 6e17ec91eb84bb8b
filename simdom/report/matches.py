"""The report's match sections (docs/rules.md 12): who wins the match, how long it lasts, what the first lead
is worth, whether a policy's edge per deal carries over to the match, and the match-equity heatmaps.
Every estimate is clustered by match (simdom.stats.matches.tables, simdom.stats.matches.equity)."""
from __future__ import annotations

import numpy as np
import polars as pl

from simdom import present as P
from simdom.report import plots
from simdom.report.data import Figure, Section
from simdom.stats.matches import tables as M
from simdom.stats.matches.equity import equity_grid, equity_table
from simdom.stats.read.folder import ResultFrames
from simdom.stats.matches.views import frame_table


def match_sections(results: list[ResultFrames]) -> list[Section]:
    """The match sections of the match-mode folders among ``results`` (none: no section)."""
    results = [r for r in results if r.unit.is_match]
    if not results:
        return []
    edges = _edges(results)
    return [_wins(results), _lead(results)] + ([edges] if edges.tables or edges.figures else []) + [_equity(results)]


#: compact equity tables at the head of the match sections, per folder (the rest: the Match equity section)
EQUITY_TABLES = 4


def equity_rows(table: pl.DataFrame, arm: str, policy: str) -> tuple[list[dict], list[P.Col]]:
    """The match-equity grid of one arm and policy as table rows: own score (bin start) down, the
    opponent's across, P(win the match) in percent (blank: no deal in the cell)."""
    own, opp, grid, _ = equity_grid(table, arm, policy)
    rows = [{"own": str(o), **{f"opp{c}": "" if not np.isfinite(grid[i, j]) else f"{100 * grid[i, j]:.0f}"
                               for j, c in enumerate(opp)}} for i, o in enumerate(own)]
    return rows, [P.Col("own", "own \\ opp"), *[P.Col(f"opp{c}", str(c), align="right") for c in opp]]


def _wins(results: list[ResultFrames]) -> Section:
    sec = Section("Matches: how long a match lasts, what the first lead is worth, who wins")
    for r in results:
        said = M.answer(r)
        sec.paragraphs += said
        sec.answers += said
        table = equity_table(r)
        cells = table.select("arm", "policy").unique(maintain_order=True).rows()
        for arm, pol in cells[:EQUITY_TABLES]:
            rows, cols = equity_rows(table, arm, pol)
            sec.tables.append(P.Table(f"{r.name}, arm {arm}, {pol}: P(win the match) %, by own score (rows) and the "
                                      "opponent's (columns) before a deal", rows, cols, 1))
        if len(cells) > EQUITY_TABLES:
            sec.paragraphs.append(f"{r.name}: the equity of {len(cells) - EQUITY_TABLES} more arms and policies is in "
                                  "the Match equity section.")
        wins = M.wins_table(r, ["arm", "policy"])
        length = M.length_table(r)
        sec.tables += [frame_table(f"{r.name}: match win probability by arm and policy", wins, "wins"),
                       frame_table(f"{r.name}: deals per match", length, "length")]
        panels = [(arm, d["policy"].to_list(), d["win_rate"], d["win_rate_lo"], d["win_rate_hi"])
                  for arm in r.arm_names for d in [wins.filter(pl.col("arm") == arm)] if d.height]
        sec.figures.append(Figure(f"match_wins_{len(sec.figures)}", f"{r.name}: match win probability, per arm",
                                  plots.dot_panels(panels, title=f"Match win probability ({r.name})",
                                                   xlabel="P(win the match), %", ref=float(wins["fair_share"][0]),
                                                   ref_label="fair share 1/sides", scale=100)))
        sec.figures.append(Figure(f"match_length_{len(sec.figures)}", f"{r.name}: deals per match",
                                  plots.dot_panels([("deals per match", length["arm"].to_list(),
                                                     length["deals_per_match"], length["deals_per_match_lo"],
                                                     length["deals_per_match_hi"])],
                                                   title=f"Deals per match ({r.name})", xlabel="mean deals per match")))
    sec.notes.append(
        "A match is played deal after deal until a side reaches the target (docs/rules.md 12). Match win "
        "probabilities, deals per match and the equity carry 95% intervals clustered by match: a match's arms, "
        "rotations, seats and deals are one unit. The fair share of a side is 1/sides. Equity: scores binned "
        "in tenths of the target, the last bin holding the target and above.")
    return sec


def _lead(results: list[ResultFrames]) -> Section:
    sec = Section("The first lead over a match", [
        "match_lead_value: P(win the match | one's side led the first deal) minus P(win | it did not); "
        "first_deal_lead_value and deal_lead_value: the same difference for winning the first deal, and any "
        "deal (the side that led it against the others). Differences carry 95% intervals and p-values."])
    for r in results:
        lead = M.lead_table(r)
        sec.tables.append(frame_table(f"{r.name}: the value of the first lead", lead, "lead"))
        labels = [f"{a} / {p}" for a, p in zip(lead["arm"], lead["policy"])]
        metrics = [(name, labels, 100 * lead[c], 100 * lead[f"{c}_lo"], 100 * lead[f"{c}_hi"]) for name, c in (
            ("over the match, points of %", "match_lead_value"), ("the first deal", "first_deal_lead_value"),
            ("any deal", "deal_lead_value"))]
        sec.figures.append(Figure(f"lead_{len(sec.figures)}", f"{r.name}: what leading is worth",
                                  plots.metric_panels(metrics, title=f"Value of the lead, win % led minus not "
                                                      f"({r.name})", ref=[0.0] * 3)))
    return sec


def _edges(results: list[ResultFrames]) -> Section:
    sec = Section("A policy's edge per deal and per match", [
        "Within an arm: a policy's deal win rate and match win rate over the fair share, measured on the same "
        "matches, and their difference (match_minus_deal). Between arms: each arm against the first arm with "
        "the same rules, for the players whose policy differs, paired match by match."])
    for r in results:
        edges, arms = M.edges_table(r), M.arms_table(r)
        if edges.height:
            sec.tables.append(frame_table(f"{r.name}: edge per deal and per match", edges, "edges"))
            labels = [f"{a} / {p}" for a, p in zip(edges["arm"], edges["policy"])]
            sec.figures.append(Figure(f"edges_{len(sec.figures)}", f"{r.name}: edge per deal and per match",
                                      plots.position_plot({
                                          "per deal": (edges["deal_edge"], edges["deal_edge_lo"],
                                                       edges["deal_edge_hi"]),
                                          "per match": (edges["match_edge"], edges["match_edge_lo"],
                                                        edges["match_edge_hi"])}, labels,
                                          title=f"Edge over the fair share ({r.name})", xlabel="arm / policy",
                                          ylabel="win % minus the fair share", ref=0.0, scale=100)))
        if arms.height:
            sec.tables.append(frame_table(f"{r.name}: arms against their baseline (paired by match)", arms, "arms"))
        if not edges.height and not arms.height:
            sec.paragraphs.append(f"{r.name}: every arm plays one policy and no two arms share their rules: "
                                  "nothing to compare.")
    return sec


def _equity(results: list[ResultFrames]) -> Section:
    sec = Section("Match equity", [
        "P(win the match | own side's score, opponent's score) before a deal, from every deal of every match "
        "(scores binned in tenths of the target; the last bin holds the target and above). Each cell shows the "
        "estimate, the half-width of its 95% interval (clustered by match) and n, the matches that passed "
        "through it; blank cells saw no deal. "
        "The full table with intervals: simdom stats FOLDER --table equity."])
    for r in results:
        table = equity_table(r)
        for arm, pol in table.select("arm", "policy").unique(maintain_order=True).iter_rows():
            own, opp, grid, half = equity_grid(table, arm, pol)
            n = cell_counts(table, arm, pol, own, opp)
            sec.figures.append(Figure(f"equity_{len(sec.figures)}", f"{r.name}: match equity, arm {arm}, {pol} "
                                      "(n: matches that passed through the cell)",
                                      heatmap(own, opp, grid, half, n, title=f"P(win the match): {r.name}, {arm}, {pol}")))
    return sec


def cell_counts(table: pl.DataFrame, arm: str, policy: str, own: list[int], opp: list[int]) -> np.ndarray:
    """The matches of each equity cell (``equity_grid``'s layout; NaN where a cell holds no deal)."""
    n = np.full((len(own), len(opp)), np.nan)
    for r in table.filter((pl.col("arm") == arm) & (pl.col("policy") == policy)).iter_rows(named=True):
        n[own.index(r["own_from"]), opp.index(r["opp_from"])] = r["matches"]
    return n


@plots.png
def heatmap(own: list[int], opp: list[int], grid: np.ndarray, half: np.ndarray, counts: np.ndarray | None = None, *,
            title: str):
    """P(win) by own score (rows) and opponent's score (columns), each cell annotated with the estimate,
    its interval's half-width and (``counts``) the matches it holds."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(1.0 + 0.62 * len(opp), 1.0 + (0.62 if counts is not None else 0.5) * len(own)))
    im = ax.imshow(np.ma.masked_invalid(grid), origin="lower", cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    for i in range(len(own)):
        for j in range(len(opp)):
            if np.isfinite(grid[i, j]):
                dark = abs(grid[i, j] - 0.5) > 0.3
                n = f"\nn={int(counts[i, j]):,}" if counts is not None and np.isfinite(counts[i, j]) else ""
                ax.text(j, i, f"{grid[i, j]:.2f}\n±{half[i, j]:.2f}{n}", ha="center", va="center",
                        fontsize=5 if n else 6, color="white" if dark else "black")
    ax.set_xticks(range(len(opp)), [str(v) for v in opp], fontsize=7)
    ax.set_yticks(range(len(own)), [str(v) for v in own], fontsize=7)
    ax.set(title=title, xlabel="opponent's score before the deal (bin start)",
           ylabel="own side's score before the deal (bin start)")
    fig.colorbar(im, ax=ax, label="P(win the match)")
    return fig


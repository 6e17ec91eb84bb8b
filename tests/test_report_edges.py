"""`simdom report` at its edges (issue 22 item 6), on tiny real runs: a single-deal study and a match study
are never compared as if alike; a match study's report opens with what it answers; log-scale plots mark
zeros; heatmap cells show their count; the points histogram follows the game's points lattice; the seat
plots do not magnify noise."""
from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from simdom.cli import app

SINGLE = """
name = "ts"
players = 2
policies = "greedy"
deals = 600
seed = 4

[[arms]]
name = "threes"
rules = { preset = "threes" }
"""
FOUR = """
name = "t4"
players = 4
policies = ["greedy", "random", "greedy", "random"]
rotation = true
deals = 300
seed = 35

[[arms]]
name = "threes"
rules = { preset = "threes" }

[[arms]]
name = "fives"
rules = { preset = "fives" }
"""
MATCH = """
name = "fm"
players = 2
policies = "greedy"
deals = 120
seed = 4

[[arms]]
name = "100"
rules = { preset = "fives", target = 100 }
"""


def simdom(*args) -> str:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("edges")
    out = {}
    for name, text in (("ts", SINGLE), ("fm", MATCH), ("t4", FOUR)):
        (root / f"{name}.toml").write_text(text)
        simdom("run", root / f"{name}.toml", "-o", root / name)
        out[name] = root / name
    return out


def sections(md: str) -> dict[str, str]:
    parts = re.split(r"^## (.+)$", md, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_single_deals_and_deals_inside_matches_are_not_compared(runs, tmp_path):
    out = tmp_path / "r.md"
    said = " ".join(simdom("report", runs["ts"], runs["fm"], "-o", out).split())
    md = out.read_text()
    versus = " ".join(sections(md)["Threes against Fives"].split())
    assert versus.startswith("Not compared, single deals against deals inside matches: ts:threes with fm:100.")
    assert "A = " not in versus and "leader edge" not in versus and "| measure |" not in versus
    assert "leader edge: A" not in said and "ts: ts:" not in md


def test_a_match_study_opens_with_match_length_first_lead_and_equity(runs, tmp_path):
    out = tmp_path / "m.md"
    said = " ".join(simdom("report", runs["fm"], "-o", out).split())
    assert said.startswith("100: a match to 100 (deal_end, next lead rules) lasts ")
    md = out.read_text()
    heads = list(sections(md))
    assert heads[:2] == ["Overview", "Matches: how long a match lasts, what the first lead is worth, who wins"]
    first = " ".join(sections(md)[heads[1]].split())
    assert first.startswith("100: a match to 100") and "Leading the first deal is worth" in first
    assert "P(win the match) %, by own score (rows)" in first and "| own \\ opp | 0 | 10 | 20 |" in first
    assert first.index("Leading the first deal") < first.index("P(win the match) %")
    assert "by construction" not in md and "0 clusters" not in md and "matchs" not in md
    assert "95% intervals clustered by match (each match one cluster;" in " ".join(md.split())


def test_log_scale_plots_mark_zero_shares_at_their_upper_bound(runs):
    import numpy as np

    from simdom.report import plots
    from simdom.stats.read.folder import open_frames
    from simdom.stats.tables.doubles import by_move_table
    bm = by_move_table(open_frames(runs["ts"])).sort("move")
    zero = bm.filter(bm["share"] == 0)
    assert zero.height and (zero["share_hi"] > 0).all()  # the run has moves where no first double fell
    fig = plots.line_panels.figure({"threes": {"first double": (bm["move"], bm["share"], bm["share_lo"],
                                                                bm["share_hi"])}},
                                   title="t", xlabel="x", ylabel="y", logy=True, scale=100)
    ax = fig.axes[0]
    from matplotlib.collections import PathCollection
    marked = np.vstack([c.get_offsets() for c in ax.collections if isinstance(c, PathCollection)])
    assert sorted(marked[:, 0]) == sorted(zero["move"].to_list())
    assert np.allclose(sorted(marked[:, 1]), sorted(100 * zero["share_hi"].to_numpy()))
    line = ax.lines[0].get_xydata()
    seen = bm.filter(bm["share"] > 0)
    assert np.isfinite(line[:, 1]).sum() == seen.height  # every share seen is drawn, the zeros are not lines
    assert "none seen: its 95% upper bound" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_heatmap_cells_show_their_count(runs):
    import numpy as np

    from simdom.report import plots
    from simdom.report.matches import cell_counts, heatmap
    from simdom.stats.matches.equity import equity_grid, equity_table
    from simdom.stats.read.folder import open_frames
    table = equity_table(open_frames(runs["fm"]))
    own, opp, grid, half = equity_grid(table, "100", "greedy")
    n = cell_counts(table, "100", "greedy", own, opp)
    texts = [t.get_text() for t in heatmap.figure(own, opp, grid, half, n, title="t").axes[0].texts]
    assert len(texts) == np.isfinite(grid).sum()
    want = sorted(f"n={int(m):,}" for m in table.filter(table["policy"] == "greedy")["matches"])
    assert sorted(t.rsplit("\n", 1)[1] for t in texts) == want
    assert f"n={table['matches'].max():,}" in " ".join(texts)  # the start, 0 against 0: every match
    v = np.array([[0.5, -1.0], [np.nan, 2.0]])
    fig = plots.heatmap_panels.figure([("arm", ["a", "b"], ["x", "y"], v, v - 1, v + 1)], title="t", xlabel="x",
                                      ylabel="y", cbar="c", counts=[np.array([[12, 3], [np.nan, 1500]])])
    assert sorted(t.get_text() for t in fig.axes[0].texts) == ["+0.5\nn=12", "+2.0*\nn=1,500", "-1.0\nn=3"]


def test_seat_plots_do_not_zoom_noise_into_structure(runs, tmp_path):
    from simdom.report import plots
    from simdom.report.sections import SEAT_MIN_HALF
    noise = {"arm": ([24.6, 25.4], [23.9, 24.7], [25.3, 26.1])}  # within a point of the fair 25%
    fig = plots.position_plot.figure(noise, ["seat 0", "seat 1"], title="t", xlabel="x", ylabel="y", ref=25,
                                     min_half=100 * SEAT_MIN_HALF / 4)
    assert fig.axes[0].get_ylim() == (20, 30)
    edge = {"arm": ([40.0, 10.0], [38.0, 8.0], [42.0, 12.0])}  # a real leader's edge is shown whole, centred
    lo, hi = plots.position_plot.figure(edge, ["1st", "2nd"], title="t", xlabel="x", ylabel="y", ref=25,
                                        min_half=5).axes[0].get_ylim()
    assert lo < 8 and hi > 42 and abs((lo + hi) / 2 - 25) < 1e-9
    # the report draws the seats so: its caption says the scale
    out = tmp_path / "s.md"
    simdom("report", runs["ts"], "-o", out)
    assert "against the fair share (centred; at least ±10 percentage points)" in out.read_text()


def test_points_histogram_bins_follow_the_points_lattice(runs, tmp_path):
    import polars as pl

    from simdom.stats.estimate.distribution import binned_distribution, bin_widths, points_distribution, points_lattice
    from simdom.stats.read.folder import open_frames
    r = open_frames(runs["t4"])
    lattice = {a["name"]: points_lattice(a["rules"]) for a in r.arms}
    assert lattice == {"threes": (6, 2), "fives": (5, 1)}  # fixed:6 and bonuses 2, 4, 8; sums of 5, bonuses / 5
    dist = points_distribution(r)
    assert all(v % 2 == 0 for v in dist.filter((pl.col("arm") == "threes") & (pl.col("rows") > 0))["points"])
    widths = bin_widths(dist, lattice=lattice)
    assert widths["threes"] % 6 == 0 and widths["fives"] % 5 == 0, widths  # not 5 in Threes: 0,2,4 | 6,8
    binned = binned_distribution(r, widths)
    for arm, w in widths.items():
        assert (binned.filter(pl.col("arm") == arm)["bin"] % w == 0).all()
    out = tmp_path / "p.md"
    simdom("report", runs["t4"], "-o", out)
    text = " ".join(out.read_text().split())
    assert (f"in threes a player's points come in multiples of 2 (placements score in multiples of 6): bins of "
            f"{widths['threes']}; in fives a player's points come in whole numbers (placements score in multiples "
            f"of 5): bins of {widths['fives']}.") in text
    assert points_lattice({"points": "quotient"}) == (1, 1)
    assert points_lattice({"points": "sum", "divisors": [3, 5]}) == (1, 1)

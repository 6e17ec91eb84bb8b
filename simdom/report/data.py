"""The balance report's content: sections of text, tables and figures, independent of the output format."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from simdom.report import plots
from simdom.stats.compare import compare_table
from simdom.stats.doubles import by_move_table, detect_sweep, sweep_tables
from simdom.stats.estimators import chi2_equal, t_interval, wilson, wilson_clustered
from simdom.stats.io import Results
from simdom.stats.moments import ROWS, Moments, cluster_sums, moments_from_sums, ratio_pairs
from simdom.stats.tables import moves_table

FINE_KEYS = ["arm", "policy", "seat", "leader"]
QUANTITIES = {"points": pl.col("points"), "win": pl.col("win"), "sp": pl.col("scoring_plays"),
              "plays": pl.col("plays"), "blocked": pl.col("end") == "blocked", "tiles": pl.col("tiles_placed")}


@dataclass
class Figure:
    name: str
    caption: str
    png: bytes


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[tuple[str, pl.DataFrame]] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)


def _fine_sums(res: Results) -> pl.DataFrame:
    lf = res.deals.with_columns(leader=pl.col("seat") == pl.col("first_seat"))
    return cluster_sums(lf, FINE_KEYS, QUANTITIES, res.block)


def _rates(sums: pl.DataFrame, keys: list[str], players: int) -> pl.DataFrame:
    pairs = [p for y, x in [("points", ROWS), ("win", ROWS), ("sp", "plays"), ("blocked", ROWS), ("tiles", ROWS)]
             for p in ratio_pairs(y, x)]
    df = moments_from_sums(sums, keys, list(QUANTITIES), pairs)
    m = Moments(df)
    rows = m.S(ROWS)
    pts, pse = m.ratio("points")
    plo, phi = t_interval(pts, pse, m.G - 1)
    win, wse = m.ratio("win")
    wlo, whi = wilson_clustered(win, wse, rows)
    sr, sse = m.ratio("sp", "plays")
    slo, shi = wilson_clustered(sr, sse, m.S("plays"))
    return df.select(keys).with_columns(
        rows=pl.Series(rows.astype(np.int64)), mean_points=pts, mean_points_lo=plo, mean_points_hi=phi,
        win_rate=win, win_rate_lo=wlo, win_rate_hi=whi, win_edge=win - 1.0 / players,
        scoring_rate=sr, scoring_rate_lo=slo, scoring_rate_hi=shi,
        blocked_share=m.ratio("blocked")[0], tiles_placed=m.ratio("tiles")[0])


def build_sections(results: list[Results]) -> list[Section]:
    fine = {r.path: _fine_sums(r) for r in results}
    out = [_overview(results)]
    out += _scores(results, fine)
    out.append(_seats(results, fine))
    out.append(_first_player(results, fine))
    out.append(_points(results))
    out.append(_by_move(results))
    out.append(_doubles(results))
    threes = [r for r in results if "threes" in r.presets()]
    fives = [r for r in results if "fives" in r.presets()]
    if threes and fives:
        out.append(_versus(threes[0], fives[0]))
    from simdom.report.matches import match_sections  # imports this module's Section
    return out + match_sections(results)


def _overview(results: list[Results]) -> Section:
    rows = [{"results": r.name, "folder": str(r.path), "presets": ", ".join(r.presets()), "players": r.players,
             "deals": r.n_deals, "rotations": r.rotations, "arm": a["name"],
             "policies": ", ".join(a["policies"])} for r in results for a in r.arms]
    return Section("Overview", [
        "Every estimate carries a 95% interval. Deals are the independent units: intervals are cluster-robust "
        "over blocks of deal numbers, so rotations of a deal, competing seats and arms replaying the same deals "
        "are accounted for. Win rates share ties (1/k each); a fair share is 1/players."],
        [("Results folders and arms", pl.DataFrame(rows))])


def _scores(results, fine) -> list[Section]:
    tables, figs = [], []
    for r in results:
        df = _rates(fine[r.path], ["arm", "policy"], r.players)
        tables.append((f"{r.name}: by arm and policy", df))
        labels = [f"{a} / {p}" for a, p in zip(df["arm"], df["policy"])]
        figs.append(Figure(f"matchups_{len(figs)}", f"{r.name}: win rate of each policy in each arm",
                           plots.bars(labels, df["win_rate"], df["win_rate_lo"], df["win_rate_hi"],
                                      title=f"Policy match-ups: win rate ({r.name})", xlabel="arm / policy",
                                      ylabel="win rate (ties shared)", ref=1.0 / r.players,
                                      ref_label=f"fair share 1/{r.players}")))
    return [Section("Policy match-ups", [
        "Mean points per player per deal, win rate and scoring rate (share of placements that score) of each "
        "policy in each arm; win_edge is the win rate minus the fair share 1/players."], tables, figs)]


def _seats(results, fine) -> Section:
    sec = Section("Seat advantage")
    for r in results:
        df = _rates(fine[r.path], ["seat"], r.players)
        wins = moments_from_sums(fine[r.path], ["seat"], ["win"], [])["S_win"].to_numpy()
        stat, dof, p = chi2_equal(wins)
        sec.paragraphs.append(f"{r.name}: chi-square test of the seats' win counts against equal seats: "
                              f"chi2 = {stat:.2f}, df = {dof}, p = {p:.3g} "
                              f"({'seats differ' if p < 0.05 else 'no evidence that seats differ'} at the 5% level).")
        sec.tables.append((f"{r.name}: by seat (all arms)", df))
        sec.figures.append(Figure(f"seats_{len(sec.figures)}", f"{r.name}: win rate by seat",
                                  plots.bars([str(s) for s in df["seat"]], df["win_rate"], df["win_rate_lo"],
                                             df["win_rate_hi"], title=f"Win rate by seat ({r.name})", xlabel="seat",
                                             ylabel="win rate (ties shared)", ref=1.0 / r.players,
                                             ref_label=f"equal seats 1/{r.players}")))
    return sec


def _first_player(results, fine) -> Section:
    sec = Section("First-player advantage", [
        "Win rate of the seat that led the deal (leader = true) against the others, per arm."])
    for r in results:
        df = _rates(fine[r.path], ["arm", "leader"], r.players)
        sec.tables.append((f"{r.name}: leader against the rest", df))
        lead = df.filter(pl.col("leader"))
        sec.figures.append(Figure(f"leader_{len(sec.figures)}", f"{r.name}: the leader's win rate per arm",
                                  plots.bars(lead["arm"].to_list(), lead["win_rate"], lead["win_rate_lo"],
                                             lead["win_rate_hi"], title=f"Leader's win rate ({r.name})", xlabel="arm",
                                             ylabel="win rate of the leader", ref=1.0 / r.players,
                                             ref_label=f"no advantage 1/{r.players}")))
    return sec


def _points(results) -> Section:
    sec = Section("Distribution of points", [
        "Share of player-deals with each points total; the bands are 95% Wilson intervals per bin "
        "(treating player-deals as independent, so slightly narrow)."])
    dists, rows = {}, []
    for r in results:
        h = r.deals.group_by("points").agg(n=pl.len()).sort("points").collect(engine="streaming")
        v, n = h["points"].to_numpy(), h["n"].to_numpy().astype(float)
        total = n.sum()
        lo, hi = wilson(n / total, total)
        dists[r.name] = (v, n / total, lo, hi)
        cum = np.cumsum(n) / total
        q = {f"p{int(100 * x)}": int(v[np.searchsorted(cum, x)]) for x in (0.1, 0.25, 0.5, 0.75, 0.9)}
        mean = float((v * n).sum() / total)
        rows.append({"results": r.name, "player_deals": int(total), "mean": mean,
                     "sd": float(np.sqrt((n * (v - mean) ** 2).sum() / (total - 1))), **q,
                     "share_zero": float(n[v == 0].sum() / total)})
    sec.tables.append(("Points per player per deal", pl.DataFrame(rows)))
    sec.figures.append(Figure("points_hist", "Distribution of a player's points in a deal",
                              plots.histogram(dists, title="Points per player per deal", xlabel="points",
                                              ylabel="share of player-deals")))
    return sec


def _by_move(results) -> Section:
    sec = Section("Scoring rate by move")
    series = {}
    for r in results:
        if r.moves is None:
            sec.paragraphs.append(f"{r.name}: no move data (run the scenario with `simdom run --moves`).")
            continue
        df = moves_table(r, ["arm"])
        sec.tables.append((f"{r.name}: scoring rate by move number", df))
        for arm in df["arm"].unique(maintain_order=True):
            d = df.filter(pl.col("arm") == arm)
            series[f"{r.name} / {arm}"] = (d["move"], d["scoring_rate"], d["scoring_rate_lo"], d["scoring_rate_hi"])
    if series:
        sec.paragraphs.insert(0, "Share of placements at each move number that score, with 95% bands.")
        sec.figures.append(Figure("scoring_by_move", "Scoring rate by move number",
                                  plots.lines(series, title="Scoring rate by move number", xlabel="move number",
                                              ylabel="share of placements that score")))
    return sec


def _doubles(results) -> Section:
    sec = Section("Double timing")
    threes = [r for r in results if r.bonus_tiers()]
    if not threes:
        sec.paragraphs.append("No results with a first-double bonus (Threes).")
    for r in threes:
        bm = by_move_table(r)
        sec.tables.append((f"{r.name}: first double by move number", bm))
        series = {a: (d["move"], d["share"], d["share_lo"], d["share_hi"])
                  for a in bm["arm"].unique(maintain_order=True) for d in [bm.filter(pl.col("arm") == a)]}
        sec.figures.append(Figure(f"fd_move_{len(sec.figures)}", f"{r.name}: when the first double is placed",
                                  plots.lines(series, title=f"First double by move number ({r.name})",
                                              xlabel="move number of the first double", ylabel="share of deals")))
        sweep = detect_sweep(r)
        if sweep is None:
            continue
        per_k, best = sweep_tables(r, sweep)
        b = best.row(0, named=True)
        sec.paragraphs.append(
            f"{r.name}: double-timing sweep of player {sweep.focal} against baseline {sweep.baseline}; best K = "
            f"{b['best_K']}, {b['points_diff']:+.3f} points per deal over K = {b['runner_up_K']} "
            f"[{b['points_diff_lo']:+.3f}, {b['points_diff_hi']:+.3f}] "
            f"({'significant' if b['significant'] else 'not significant'}, p = {b['points_diff_p']:.3g}).")
        sec.tables.append((f"{r.name}: sweep (differences against the baseline, paired by deal)", per_k.select(
            "arm", "K", "mean_points", "points_diff", "points_diff_lo", "points_diff_hi", "points_diff_p",
            "win_rate", "win_diff", "win_diff_lo", "win_diff_hi", "bonus_lost_share", "bonus_mean")))
        sec.tables.append((f"{r.name}: best K", best))
        sec.figures.append(Figure(f"sweep_{len(sec.figures)}", f"{r.name}: change in mean points by K",
                                  plots.errorbar_points(per_k["K"].to_list(), {
                                      "points": (per_k["points_diff"], per_k["points_diff_lo"],
                                                 per_k["points_diff_hi"])},
                                      title=f"Holding the first double ({r.name})", xlabel="hold until move K",
                                      ylabel="change in mean points vs baseline", ref=0.0)))
    return sec


def _versus(a: Results, b: Results) -> Section:
    df, notes = compare_table(a, b)
    sec = Section("Threes against Fives", notes, [(f"{a.name} (A) against {b.name} (B)", df)])
    keep = df.filter(pl.col("metric").is_in(["scoring_rate", "seat_advantage", "blocked_share", "skill_gap"]))
    sec.figures.append(Figure("versus", "Threes against Fives", plots.errorbar_points(
        keep["metric"].to_list(), {f"A: {a.name}": (keep["a"], keep["a_lo"], keep["a_hi"]),
                                   f"B: {b.name}": (keep["b"], keep["b_lo"], keep["b_hi"])},
        title="Threes against Fives", xlabel="measure", ylabel="estimate (share or rate difference)", ref=0.0)))
    return sec

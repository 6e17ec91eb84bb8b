"""The report's sections after the overview, one function each (see simdom.report.data)."""
from __future__ import annotations

import polars as pl

from simdom import present as P
from simdom.report import plots
from simdom.report.data import Figure, Section
from simdom.stats.read.folder import ResultFrames

MAX_PANELS = 6
#: the seat plots span at least this share of the fair share either side of it (0.2 of 25%: 20-30%), so
#: that a percentage point of noise does not fill the plot
SEAT_MIN_HALF = 0.2
ORD = ["1st", "2nd", "3rd", "4th"]


def _prefix(results: list[ResultFrames], r: ResultFrames) -> str:
    return f"{r.name}: " if len(results) > 1 else ""


def _chunks(items: list, n: int = MAX_PANELS) -> list[list]:
    return [items[i:i + n] for i in range(0, len(items), n)] or [[]]


def matchups(results: list[ResultFrames]) -> Section:
    from simdom.stats.tables.stats import default_by, stats_table
    from simdom.stats.views.stats import stats_answer

    sec = Section("Policy match-ups")
    for r in results:
        if r.unit.is_match and all(len(set(a["policies"])) == 1 for a in r.arms):
            sec.paragraphs.append(f"{r.name}: a match study with one policy in every seat; what it answers (how "
                                  "long a match lasts, what the first lead is worth, the match equity) is in the "
                                  "match sections.")
            continue
        sec.take(stats_answer([r]), _prefix(results, r))
        by = default_by([r])
        if "policy" not in by:
            sec.paragraphs.append(f"{r.name}: every arm has one policy in every seat, so each player's win rate is "
                                  f"1/{r.players} by construction (no match-up figure).")
            continue
        df = stats_table(r, by)
        arms = r.arm_names
        panels = []
        for group in _chunks(arms, 12):
            d = df.filter(pl.col("arm").is_in(group))
            panels.append((f"{r.name}" + (f" (arms {group[0]} to {group[-1]})" if len(arms) > 12 else ""),
                           [f"{a}: {p}" for a, p in zip(d["arm"], d["policy"])], d["win_rate"], d["win_rate_lo"],
                           d["win_rate_hi"]))
        sec.figures.append(Figure(f"matchups_{len(sec.figures)}", f"{r.name}: win rate of each policy in each arm",
                                  plots.dot_panels(panels, title=f"Win rate by arm and policy ({r.name})",
                                                   xlabel="win rate, % (ties shared)", ref=1 / r.players,
                                                   ref_label=f"fair share 1/{r.players}", scale=100)))
    return sec


def seats(results: list[ResultFrames]) -> Section:
    from simdom.stats.views.stats import seats_answer

    sec = Section("Seat and turn order")
    for r in results:
        ans = seats_answer(r)
        sec.take(ans, _prefix(results, r))
        pos = pl.DataFrame(ans.data["positions"])
        for by, xl in (("turn", "turn order (1st = the leader)"), ("seat", "absolute seat")):
            d = pos.filter(pl.col("by") == by)
            series = {a: (g["win_rate"], g["win_rate_lo"], g["win_rate_hi"])
                      for a in r.arm_names for g in [d.filter(pl.col("arm") == a).sort("position")]}
            labels = ORD[:r.players] if by == "turn" else [f"seat {i}" for i in range(r.players)]
            sec.figures.append(Figure(f"{by}_{len(sec.figures)}", f"{r.name}: win rate by {xl}, against the fair "
                                      f"share (centred; at least ±{100 * SEAT_MIN_HALF / r.players:.0f} percentage points)",
                                      plots.position_plot(
                series, labels, title=f"Win rate by {xl} ({r.name})", xlabel=xl, ylabel="win rate, %",
                ref=1 / r.players, ref_label=f"fair share 1/{r.players}", scale=100,
                min_half=SEAT_MIN_HALF * 100 / r.players)))
    return sec


def points(results: list[ResultFrames]) -> Section:
    from simdom.stats.estimate.distribution import (binned_distribution, bin_widths, points_distribution, points_lattice,
                                                    quantiles, seen_lattice)

    sec = Section("Distribution of points", [
        "Share of player-deals with each points total, per arm and policy (never pooled over games or "
        "policies), with 95% bands clustered by deal; one panel per arm, each on its own scale (cut where "
        "99.5% of the player-deals lie)."])
    for r in results:
        dist = points_distribution(r, ["arm", "policy"])
        q = quantiles(dist, ["arm", "policy"])
        sec.tables.append(P.Table(f"{r.name}: points per player per deal", q.to_dicts(), [
            P.Col("arm"), P.Col("policy"), *[P.Col(c, c.replace("p50", "median"), "int") for c in
                                              ("p10", "p25", "p50", "p75", "p90")],
            P.Col("share_zero", "zero %", "pctround")], 2))
        lattice = {a["name"]: points_lattice(a["rules"]) for a in r.arms}
        widths = bin_widths(dist, lattice=lattice)
        seen = {a: seen_lattice(dist.filter(pl.col("arm") == a), lattice[a]) for a in widths}
        sec.paragraphs.append(f"{r.name}: " + "; ".join(
            f"in {a} a player's points come in "
            f"{f'multiples of {seen[a][1]}' if seen[a][1] > 1 else 'whole numbers'} (placements score in "
            f"multiples of {seen[a][0]}): bins of {widths[a]}" for a in r.arm_names if a in widths) + ".")
        binned = binned_distribution(r, widths)
        for group in _chunks(r.arm_names):
            names = {a: f"{a} (bins of {widths[a]})" if widths[a] > 1 else a for a in group}
            panels = {names[a]:
                      {p: (g["bin"], g["share"], g["share_lo"], g["share_hi"])
                       for (p,), g in binned.filter(pl.col("arm") == a).group_by("policy", maintain_order=True)}
                      for a in group}
            sec.figures.append(Figure(f"points_{len(sec.figures)}", f"{r.name}: distribution of a player's points",
                                      plots.line_panels(panels, title=f"Points per player per deal ({r.name})",
                                                        xlabel="points in the deal (bin start)",
                                                        ylabel="share of player-deals, %", scale=100, mass=0.995,
                                                        steps={names[a]: widths[a] for a in group})))
    return sec


def moves(results: list[ResultFrames]) -> Section | None:
    """The scoring rate by move number; None (left out) when no results have the moves table."""
    from simdom.stats.views.stats import moves_answer

    if all(r.moves is None for r in results):
        return None
    sec = Section("Scoring rate by move")
    for r in results:
        if r.moves is None:
            sec.paragraphs.append(f"{r.name}: no move data (run the scenario with `simdom run --moves`).")
            continue
        ans = moves_answer([r], ["arm"])
        sec.take(ans, _prefix(results, r))
        df = pl.DataFrame(ans.data)
        for group in _chunks(r.arm_names):
            panels = {a: {"scoring rate": (d["move"], d["scoring_rate"], d["scoring_rate_lo"], d["scoring_rate_hi"])}
                      for a in group for d in [df.filter(pl.col("arm") == a)]}
            sec.figures.append(Figure(f"moves_{len(sec.figures)}", f"{r.name}: scoring rate by move number",
                                      plots.line_panels(panels, title=f"Scoring rate by move number ({r.name})",
                                                        xlabel="move number", ylabel="placements that score, %",
                                                        scale=100)))
    return sec


def doubles(results: list[ResultFrames]) -> Section:
    from simdom.stats.tables.doubles import detect_sweep
    from simdom.stats.views.pairs import doubles_answer

    sec = Section("Double timing")
    threes = [r for r in results if r.bonus_tiers()]
    if not threes:
        sec.paragraphs.append("No results with a first-double bonus (Threes).")
    for r in threes:
        sweep = detect_sweep(r)
        ans = doubles_answer(r, (["sweep"] if sweep else []) + ["by-move", "taker"])
        sec.take(ans, _prefix(results, r))
        bm = pl.DataFrame(ans.data["by-move"])
        for group in _chunks([a for a in r.arm_names if a in set(bm["arm"])]):
            panels = {a: {"first double": (d["move"], d["share"], d["share_lo"], d["share_hi"])}
                      for a in group for d in [bm.filter(pl.col("arm") == a)]}
            sec.figures.append(Figure(f"fd_move_{len(sec.figures)}", f"{r.name}: when the first double is placed "
                                      "(log scale: the shares span decades)", plots.line_panels(
                                          panels, title=f"First double by move number ({r.name})",
                                          xlabel="move number of the first double", ylabel="share of deal-plays, %",
                                          logy=True, scale=100)))
        if sweep:
            per_k = pl.DataFrame(ans.data["sweep"]).filter(pl.col("arm") != sweep.baseline)
            sec.figures.append(Figure(f"sweep_{len(sec.figures)}", f"{r.name}: change in player {sweep.focal}'s "
                                      f"points against {sweep.baseline}", plots.dot_panels(
                                          [(r.name, [f"K={k}" for k in per_k["K"]], per_k["points_diff"],
                                            per_k["points_diff_lo"], per_k["points_diff_hi"])],
                                          title=f"Holding the first double: player {sweep.focal} against "
                                                f"{sweep.baseline}", xlabel="change in points per deal (paired)",
                                          ref=0.0, ref_label="no difference")))
    return sec


def _twins(results: list[ResultFrames]) -> list[tuple[ResultFrames, dict, ResultFrames, dict]]:
    """Every (folder, Threes arm, folder, Fives arm) with the same policies."""
    arms = [(r, a) for r in results for a in r.arms if a.get("preset") in ("threes", "fives")]
    return [(rt, t, rf, f) for rt, t in arms for rf, f in arms
            if t.get("preset") == "threes" and f.get("preset") == "fives" and t["policies"] == f["policies"]]


def unlike_pairs(results: list[ResultFrames]) -> list[tuple[str, str]]:
    """Threes and Fives arms with the same policies that are not compared: one plays single deals, the
    other deals inside matches (``folder:arm`` names)."""
    return [(f"{rt.name}:{t['name']}", f"{rf.name}:{f['name']}") for rt, t, rf, f in _twins(results)
            if rt.unit != rf.unit]


def versus_pairs(results: list[ResultFrames]) -> list[tuple[ResultFrames, ResultFrames]]:
    """Threes arm against Fives arm with the same policies: within a folder first (paired), then across
    folders for the arms left; never a folder against itself, never pooled over arms."""
    pairs, used = [], set()
    for same in (True, False):
        for rt, t, rf, f in _twins(results):
            if rt.unit != rf.unit:
                continue  # single deals and deals inside matches are not alike (versus() says so)
            if (rt is rf) != same or (id(rt), t["name"]) in used or (id(rf), f["name"]) in used:
                continue
            pairs.append((rt.select(t["name"]), rf.select(f["name"])))
            used |= {(id(rt), t["name"]), (id(rf), f["name"])}
    return pairs


def versus(results: list[ResultFrames]) -> Section | None:
    from simdom.stats.views.pairs import METRIC_LABEL, compare_answer

    pairs = versus_pairs(results)
    has = {p for r in results for p in r.presets()}
    unlike = unlike_pairs(results)
    why = ("Not compared, single deals against deals inside matches: " + ", ".join(f"{a} with {b}" for a, b in unlike)
           + ". A deal inside a match is played for the match (its lead, its scores so far, its end), so its "
           "rates are not those of a single deal; compare two single-deal results or two match results.")
    if not pairs:
        if unlike:
            return Section("Threes against Fives", [why])
        if {"threes", "fives"} <= has:
            return Section("Threes against Fives", ["Threes and Fives arms are given, but none with the same "
                                                    "policies on both sides: no comparison without pooling."])
        return None
    sec = Section("Threes against Fives", ["Each Threes arm against the Fives arm with the same policies, paired "
                                           "by deal when both come from one run; measures of players per policy."]
                  + ([why] if unlike else []))
    for a, b in pairs:
        ans = compare_answer(a, b)
        sec.take(ans)
        df = pl.DataFrame(ans.data).filter(pl.col("stratum") == "all players")
        metrics = []
        for m in ("skill_gap", "points_ratio", "seat_advantage", "blocked_share", "scoring_rate", "mean_points",
                  "tiles_placed"):
            d = df.filter(pl.col("metric") == m)
            if d.is_empty() or d["a"][0] is None:
                continue
            label, pct = METRIC_LABEL[m]
            k = 100 if pct else 1
            row = d.row(0, named=True)
            metrics.append((label, ["A", "B"], [k * row["a"], k * row["b"]],
                            [k * row["a_lo"], k * row["b_lo"]], [k * row["a_hi"], k * row["b_hi"]]))
        sec.figures.append(Figure(f"versus_{len(sec.figures)}", f"{a.name} against {b.name}", plots.metric_panels(
            metrics, title=f"A = {a.name} against B = {b.name}",
            ref=[0.0 if m[0] in ("skill gap %", "leader edge %") else None for m in metrics])))
    return sec

"""What `simdom doubles` and `simdom compare` say: sentences first, then compact tables."""
from __future__ import annotations

import polars as pl

from simdom import present as P
from simdom.stats.tables.compare import PERCENT
from simdom.stats.estimate.families import ADJUSTMENT, Family
from simdom.stats.read.folder import ResultFrames
from simdom.stats.views.stats import clusters_note, family_sentences, selection_note



def doubles_answer(res: ResultFrames, wanted: list[str]) -> P.Answer:
    """`simdom doubles`: the sweep's paired effects (Holm over the K arms), the best K, the first
    double by move number and by taker (associations, flagged)."""
    from simdom.stats.tables.doubles import by_move_table, detect_sweep, sweep_tables, taker_table

    sweep = detect_sweep(res)
    ans = P.Answer()
    data = {}
    if sweep and {"sweep", "best"} & set(wanted):
        per_k, best = sweep_tables(res, sweep)
        data["sweep"], data["best"] = per_k.to_dicts(), best.to_dicts()
        b = best.row(0, named=True)
        verdict = "clearly" if b["significant"] else "not clearly"
        wins = P.ci(100 * b["win_diff"], 100 * b["win_diff_lo"], 100 * b["win_diff_hi"],
                    unit="percentage points of the deals won", signed=True)
        ans.sentences.append(
            f"Best K for player {sweep.focal} by the deals won: {b['best_K']} ({b['best_arm']}), {verdict} ahead of "
            f"K = {b['runner_up_K']} by {wins}, and by "
            f"{P.ci(b['points_diff'], b['points_diff_lo'], b['points_diff_hi'], unit='points per deal', signed=True)}.")
        fam = Family("policy", sweep.arms, [(f"player {sweep.focal}", str(sweep.focal))], sweep.focal)
        ans.sentences += family_sentences(res, fam, per_k)
        if "sweep" in wanted:
            ans.add(P.Table(f"Player {sweep.focal} by K, paired against {sweep.baseline} on the same deals "
                            f"(p: {ADJUSTMENT}, {P.nouns(len(sweep.arms) - 1, 'arm')})", per_k.to_dicts(), [
                                P.Col("K"), P.Col("mean_points", "points", "round"),
                                P.Col("points_diff", "Δ points", "diff"), P.Col("points_diff_p_holm", "p", "p"),
                                P.Col("win_rate", "win %", "pctround"), P.Col("win_diff", "Δ win %", "pctdiff"),
                                P.Col("win_diff_p_holm", "p", "p"), P.Col("bonus_lost_share", "lost %", "pctround"),
                                P.Col("bonus_mean", "bonus", "num")], 1))
        if "best" in wanted and wanted == ["best"]:
            ans.add(P.Table("Best K against the runner-up (paired)", best.to_dicts(), [
                P.Col("best_K", "best K"), P.Col("runner_up_K", "runner-up"), P.Col("points_diff", "Δ points", "diff"),
                P.Col("points_diff_p", "p", "p"), P.Col("win_diff", "Δ win %", "pctdiff")], 1))
    if "by-move" in wanted:
        bm = by_move_table(res)
        data["by-move"] = bm.to_dicts()
        arms = [a for a in res.arm_names if a in set(bm["arm"])]
        first = bm.filter(pl.col("arm") == arms[0]).sort("share", descending=True) if arms else bm
        if first.height:
            top = first.row(0, named=True)
            ans.sentences.append(f"In arm {top['arm']} the first double falls most often at move {top['move']}: "
                                 f"{P.ci(top['share'], top['share_lo'], top['share_hi'], pct=True, level=None)} "
                                 "of the deal-plays.")
        ans.add(P.Table("First double by move number: share of deal-plays, % (95% CI)", by_move_rows(bm, arms),
                        [P.Col("move", "move", "int"), P.Col("bonus", "bonus", "num"),
                         *[P.Col(f"share@{a}", a, "pct") for a in arms]], 2))
    if "taker" in wanted:
        tk = taker_table(res)
        data["taker"] = tk.to_dicts()
        ans.add(P.Table("Outcome by who took the first double", tk.to_dicts(), [
            P.Col("arm"), P.Col("taker_policy", "taker"), P.Col("bonus_tier", "bonus"),
            P.Col("taker_win_rate", "win %", "pct"), P.Col("taker_mean_points", "points", "est"),
            P.Col("deal_plays", "deal-plays", "int")], 3))
    if {"by-move", "taker"} & set(wanted):
        ans.notes.append(selection_note(["who took the first double and when"]).replace(
            "Grouped by", "The by-move and taker tables group by"))
    if not ans.sentences and not sweep:
        ans.sentences.append(f"{res.name} has no double-timing sweep (arms differing only in one player's "
                             "hold:until=K); the tables describe when the first double falls and who takes it.")
    ans.notes.append(clusters_note([res]))
    ans.data = data.get(wanted[0], []) if len(wanted) == 1 else data
    return ans


def by_move_rows(bm: pl.DataFrame, arms: list[str]) -> list[dict]:
    """One row per move number with each arm's share side by side (``share@ARM``, ``_lo``, ``_hi``)."""
    rows: dict[int, dict] = {}
    for r in bm.iter_rows(named=True):
        row = rows.setdefault(r["move"], {"move": r["move"], "bonus": None})
        row["bonus"] = row["bonus"] if r["bonus"] is None else r["bonus"]
        for k in ("", "_lo", "_hi"):
            row[f"share@{r['arm']}{k}"] = r[f"share{k}"]
    return [rows[m] for m in sorted(rows)]


LABEL = {"scoring_rate": "scoring %", "points_per_placement": "pts/tile", "mean_points": "points",
         "points_sd": "points sd", "win_rate": "win %", "seat_advantage": "leader edge %", "blocked_share": "blocked %",
         "tiles_placed": "tiles", "skill_gap": "skill gap %", "points_ratio": "points ratio",
         "points_cv": "points cv"}
#: each measure's label and whether it is shown in percent (compare.PERCENT)
METRIC_LABEL = {m: (label, m in PERCENT) for m, label in LABEL.items()}
HEADLINE = ("skill_gap", "points_ratio", "seat_advantage", "blocked_share", "scoring_rate")


def compare_answer(a: ResultFrames, b: ResultFrames, strong: str | None = None) -> P.Answer:
    from simdom.stats.tables.compare import ALL, compare_table, side_names

    df, notes = compare_table(a, b, strong)
    ans = P.Answer(data=df.to_dicts())
    rows = []
    for r in df.iter_rows(named=True):
        label, pct = METRIC_LABEL[r["metric"]]
        rows.append({**r, "what": label if r["stratum"] == ALL else f"  {label}, {r['stratum']}",
                     "A": P.rounded(r["a"], r["a_lo"], r["a_hi"], pct=pct),
                     "B": P.rounded(r["b"], r["b_lo"], r["b_hi"], pct=pct),
                     "A - B": P.est(r["diff"], r["diff_lo"], r["diff_hi"], pct=pct, signed=True)})
    pairs = df["pair"].unique(maintain_order=True).to_list()
    na, nb = side_names(a, b)
    ans.sentences.append(f"A = {na} against B = {nb}:")
    for metric in HEADLINE:
        label, pct = METRIC_LABEL[metric]
        name, k = label.replace(" %", ""), (100 if pct else 1)
        unit = "%" if pct else ""
        d = df.filter((pl.col("metric") == metric) & (pl.col("stratum") == ALL) & pl.col("diff").is_not_null())
        if d.is_empty():
            continue
        if len(pairs) == 1:
            r = d.row(0, named=True)
            diff = P.ci(k * r["diff"], k * r["diff_lo"], k * r["diff_hi"], signed=True,
                        unit="percentage points" if pct else "")
            ans.sentences.append(
                f"{name}: A {P.rounded(r['a'], r['a_lo'], r['a_hi'], pct=pct)}{unit} against B "
                f"{P.rounded(r['b'], r['b_lo'], r['b_hi'], pct=pct)}{unit}, A - B = {diff} "
                f"({P.p_clause(r['p_holm'], 'Holm-adjusted p')}).")
            continue
        parts = [f"{P.est(k * r['diff'], k * r['diff_lo'], k * r['diff_hi'], signed=True)} in {r['pair']}"
                 for r in d.iter_rows(named=True)]
        smallest = min((r["p_holm"] for r in d.iter_rows(named=True) if r["p_holm"] is not None), default=None)
        ans.sentences.append(f"{name}, A - B{' in percentage points' if pct else ''} (95% CI): {', '.join(parts)} "
                             f"(smallest {P.p_clause(smallest, 'Holm-adjusted p')}).")
    ans.sentences += [n for n in notes if "Simpson" in n]
    several = df["pair"].n_unique() > 1
    cols = ([P.Col("pair", "arms")] if several else []) + [
        P.Col("what", "measure"), P.Col("A", "A", align="right"), P.Col("B", "B", align="right"),
        P.Col("A - B", "A - B (95% CI)", align="right"), P.Col("p_holm", "p (Holm)", "p")]
    ans.add(P.Table(f"{na} (A) against {nb} (B)", rows, cols, 2 if several else 1))
    ans.notes += [n for n in notes if "Simpson" not in n]
    ans.notes.append("Shares and their differences in percent (percentage points); indented rows: one policy only.")
    ans.notes.append("leader edge: the leader's win rate - 1 / players; skill gap: the win rate of "
                     f"{strong or 'greedy'} - that of random; tiles: tiles placed per deal.")
    return ans

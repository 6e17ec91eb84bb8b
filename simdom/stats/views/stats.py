"""What `simdom stats` and `simdom seats` say: the answer in sentences, then compact tables
(simdom.present), from the estimates of simdom.stats.tables.stats, .families and .seats."""
from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from simdom import present as P
from simdom.stats.inference import holm
from simdom.stats.estimate.families import ADJUSTMENT, Family, families, family_sums, paired_table
from simdom.stats.read.folder import ResultFrames
from simdom.stats.tables.stats import CONDITIONAL, RESULTS_KEY, default_by, moves_table, stats_table
from simdom.stats.views.words import change_phrase, others

BY_HEADER = {"arm": "arm", "policy": "policy", "seat": "seat", "player": "player", "rotation": "rot",
             "turn": "turn", "first_seat": "leader seat", "leader": "leads", RESULTS_KEY: "results"}


def clusters_note(results: Sequence[ResultFrames]) -> str:
    r = max(results, key=lambda x: x.n_deals)
    unit = r.unit
    block = r.match_block if unit.is_match else r.block  # a match folder's block counts deal slots
    plural = unit.plural
    if block > 1:
        how = f"{r.n_deals // block:,} clusters of {block} consecutive {plural}"
    else:
        how = f"each {unit} one cluster"
    return (f"95% intervals clustered by {unit} ({how}; every rotation and arm of a {unit} is in its "
            f"{unit}'s cluster). Win rates share ties; a fair share is 1/players.")


def family_sentences(res: ResultFrames, fam: Family, table: pl.DataFrame) -> list[str]:
    """One sentence per arm of a policy family (at most 4; else the best and the worst)."""
    rows = [r for r in table.iter_rows(named=True) if r["arm"] != fam.baseline]
    if len(rows) > 4:
        rows = sorted(rows, key=lambda r: r["points_diff"])
        rows = [rows[-1], rows[0]]
    base_pol = res.arm(fam.baseline)["policies"][fam.focal]
    out = []
    for i, r in enumerate(rows):
        subject, ref = change_phrase(base_pol, r["policy"])
        what = _effect(r, "win", fam.focal, first=True) + " and " + _effect(r, "points", fam.focal, first=False)
        tail = f" against {others(res.arm(r['arm'])['policies'], fam.focal)}" if i == 0 else ""
        cmp = f", compared with {ref}" if i == 0 else ""
        ps = f"{P.p_clause(r['win_diff_p_holm'], 'Holm-adjusted p')} for the wins, " \
             f"{P.p_clause(r['points_diff_p_holm'], 'p')} for the points"
        out.append(f"{subject} {what}{tail}{cmp} ({ps}).")
    return out


def _effect(r: dict, currency: str, focal: int, first: bool) -> str:
    """A paired difference in words: the deals won (percentage points, the currency a deal is won in)
    or the points, a cost or a gain where its interval excludes 0."""
    d, lo, hi = (r[f"{currency}_diff{k}"] for k in ("", "_lo", "_hi"))
    k, unit = (100, "percentage points of the deals won") if currency == "win" else (1, "points per deal")
    if lo > 0 or hi < 0:
        a, b, c = (k * d, k * lo, k * hi) if d > 0 else (-k * d, -k * hi, -k * lo)
        return f"{'gains' if d > 0 else 'costs'} {f'player {focal} ' if first else ''}{P.ci(a, b, c, unit=unit)}"
    what = f"player {focal}'s " if first else "its "
    return (f"changes {what}{'deals won' if currency == 'win' else 'points'} by "
            f"{P.ci(k * d, k * lo, k * hi, unit=unit, signed=True)}, no clear difference")


def _winner_sentences(df: pl.DataFrame, res: ResultFrames) -> list[str]:
    """Mixed arms without a family: the best policy's win rate per arm (at most 4 arms)."""
    out = []
    if not {"arm", "policy"} <= set(df.columns):
        return out
    arms = [a for a in res.arm_names if len(set(res.arm(a)["policies"])) > 1]
    for arm in arms[:4]:
        d = df.filter(pl.col("arm") == arm).sort("win_rate", descending=True)
        if d.height < 2 or "policy" not in d.columns:
            continue
        top, rest = d.row(0, named=True), d["policy"].to_list()[1:]
        out.append(f"In arm {arm}, {top['policy']} wins "
                   f"{P.ci(top['win_rate'], top['win_rate_lo'], top['win_rate_hi'], pct=True)} of the deals "
                   f"against {', '.join(rest)} (fair share {100 / res.players:.0f}%), scoring "
                   f"{P.ci(top['mean_points'], top['mean_points_lo'], top['mean_points_hi'], unit='points per deal')}.")
    if len(arms) > 4:
        out.append(f"({len(arms) - 4} more arms in the table.)")
    return out


def rules_sentence(r: ResultFrames, fam: Family, full: pl.DataFrame, adjusted: pl.DataFrame) -> list[str]:
    """Arms that differ only in their rules: the strongest policy's win rate in the first arm and its
    paired change in each other arm (percentage points, Holm-adjusted over the folder's rules families)."""
    base = full.filter(pl.col("arm") == fam.baseline).sort("win_rate", descending=True)
    if base.height < 2:
        return []
    top, rest = base.row(0, named=True), [p for p in base["stratum"].to_list()[1:]]
    adj = adjusted.filter(pl.col("stratum") == top["stratum"], pl.col("baseline") == fam.baseline)
    rows = list(adj.iter_rows(named=True))
    if not rows:
        return []
    worst = max(x["win_diff_p_holm"] for x in rows)
    head = (f"Against {' and '.join(rest)}, {top['stratum']} wins "
            f"{P.ci(top['win_rate'], top['win_rate_lo'], top['win_rate_hi'], pct=True)} of the deals in {fam.baseline}")
    if len(rows) == 1:
        x = rows[0]
        d = P.ci(100 * x["win_diff"], 100 * x["win_diff_lo"], 100 * x["win_diff_hi"], signed=True,
                 unit="percentage points")
        return [f"{head}; paired against that, its win rate changes in {x['arm']} by {d} "
                f"({P.p_clause(worst, 'Holm-adjusted p')})."]
    parts = [f"{P.est(100 * x['win_diff'], 100 * x['win_diff_lo'], 100 * x['win_diff_hi'], signed=True)} in {x['arm']}"
             for x in rows]
    return [f"{head}; paired against that, its win rate changes by, in percentage points (95% CI): "
            f"{', '.join(parts)} (largest {P.p_clause(worst, 'Holm-adjusted p')})."]


def _diff_cols() -> list[P.Col]:
    return [P.Col("points_diff", "Δ points", "diff"), P.Col("points_diff_p_holm", "p", "p"),
            P.Col("win_diff", "Δ win %", "pctdiff"), P.Col("win_diff_p_holm", "p", "p")]


def _family_tables(results: Sequence[ResultFrames], ans: P.Answer) -> tuple[list[P.Table], list[pl.DataFrame]]:
    """Tables (and sentences, added to ``ans``) of the paired comparisons between arms: one table per
    policy family; the rules families of a folder in one table, Holm-adjusted together."""
    tables, frames = [], []
    for r in results:
        fams = families(r)
        if not fams:
            continue
        sums = family_sums(r)
        pol = [f for f in fams if f.kind == "policy"]
        for fam in pol:
            pt = paired_table(r, fam, sums)
            frames.append(pt)
            where = f"{r.arm(fam.baseline).get('preset') or fam.baseline}, against arm {fam.baseline}: " \
                if len(pol) > 1 else ""
            where = (f"{r.name}: " if len(results) > 1 else "") + where
            ans.sentences += [where + s_[0].lower() + s_[1:] if where else s_
                              for s_ in family_sentences(r, fam, pt)]
            n = int(pt["points_diff_p"].is_not_nan().sum())
            tables.append(P.Table(f"{r.name}: player {fam.focal} against arm {fam.baseline}, paired "
                                  f"(p: {ADJUSTMENT}, {n} tests)", pt.filter(pl.col("arm") != fam.baseline).to_dicts(),
                                  [P.Col("arm"), *_diff_cols()], 1))
        full = [(f, paired_table(r, f, sums)) for f in fams if f.kind == "rules"]
        rules = [t.filter(pl.col("arm") != f.baseline) for f, t in full]
        if rules:
            pt = pl.concat(rules)
            pt = pt.with_columns(points_diff_p_holm=pl.Series(holm(pt["points_diff_p"].to_numpy())),
                                 win_diff_p_holm=pl.Series(holm(pt["win_diff_p"].to_numpy())))
            frames.append(pt)
            if not pol:  # the policy families answer first; these sentences only when there are none
                for f, t in full[:3]:
                    ans.sentences += [(f"{r.name}: " if len(results) > 1 else "") + x
                                      for x in rules_sentence(r, f, t, pt)]
            tables.append(P.Table(f"{r.name}: arms that differ only in the rules, each policy against the first "
                                  f"arm (paired; p: {ADJUSTMENT}, {int(pt['points_diff_p'].is_not_nan().sum())} tests)",
                                  pt.to_dicts(), [P.Col("stratum", "policy"), P.Col("arm"),
                                                  P.Col("baseline", "against"), *_diff_cols()[2:]], 3))
    return tables, frames


def stats_answer(results: Sequence[ResultFrames], by: Sequence[str] | None = None, table: str = "groups") -> P.Answer:
    """`simdom stats`: sentences (paired effects of the arms' policy changes, or who wins), the table
    per group, the paired differences of each family with Holm-adjusted p-values."""
    results = list(results)
    keys = default_by(results) if by is None else list(by)
    ans = P.Answer()
    if "arm" not in keys and any(len(r.arms) > 1 for r in results):
        keys.insert(0, "arm")
        ans.notes.append("arm added to the groups: the arms of a run differ in rules or policies and are never "
                         "pooled.")
    mixed = any(len(set(a["policies"])) > 1 for r in results for a in r.arms)
    if mixed and not {"policy", "player", "seat", "turn", "leader", "first_seat"} & set(keys):
        ans.notes.append("Players of different policies are pooled within each arm here (their win rates average "
                         "to 1/players): add policy to --by to separate them.")
    df = stats_table(results, keys)
    diffs, paired = _family_tables(results, ans)
    if not ans.sentences:
        for r in results:
            if all(len(set(a["policies"])) == 1 for a in r.arms):
                pol = r.arms[0]["policies"][0]
                sub = df.filter(pl.col(RESULTS_KEY) == r.name) if RESULTS_KEY in df.columns else df
                if sub.height != len(r.arms):
                    continue
                row = sub.row(0, named=True)
                ans.sentences.append(
                    f"{r.name}: every player plays {pol}, so each wins 1/{r.players} of the deals by construction; "
                    f"a player scores {P.ci(row['mean_points'], row['mean_points_lo'], row['mean_points_hi'])} "
                    f"points per deal{' in arm ' + str(row['arm']) if 'arm' in row else ''}. "
                    f"Turn order and seats: simdom seats {r.path}.")
            else:
                ans.sentences += _winner_sentences(df, r)
    key_cols = [P.Col(k, BY_HEADER.get(k, k)) for k in ([RESULTS_KEY] if RESULTS_KEY in df.columns else []) + keys]
    cols = key_cols + [P.Col("mean_points", "points", "est"), P.Col("win_rate", "win %", "pct"),
                       P.Col("scoring_rate", "scoring %", "pctround"),
                       P.Col("points_per_placement", "pts/tile", "round")]
    if "bonus_share_none" in df.columns:
        cols.append(P.Col("bonus_mean", "bonus", "round"))
    cols += [P.Col("blocked_share", "blocked %", "pctround"), P.Col("tiles_placed", "tiles", "round")]
    main = P.Table("Per " + " and ".join(BY_HEADER.get(k, k) for k in keys), df.to_dicts(), cols, len(key_cols))
    if table == "paired":
        if not diffs:
            from simdom.stats.tables.stats import InputError
            raise InputError("no arms to pair: --table paired needs arms of one run that differ in one player's "
                             "policy or in their rules only")
        ans.tables += diffs
        ans.data = pl.concat(paired, how="diagonal_relaxed").to_dicts()
    else:
        ans.tables += [main, *diffs]
        ans.data = df.to_dicts()
    ans.notes.append(clusters_note(results) + " A number without an interval is rounded to what its "
                     "interval supports; --format json gives every interval.")
    if diffs:
        ans.notes.append(f"Δ: paired difference against the baseline arm on the same deals; p-values two-sided, "
                         f"{ADJUSTMENT}-adjusted within each family of arms.")
    cond = [k for k in keys if k in CONDITIONAL]
    if cond:
        ans.notes.append(selection_note(cond))
    return ans


def selection_note(keys: Sequence[str]) -> str:
    return (f"Grouped by {', '.join(keys)}: what happened in the deal selects the rows, so differences between "
            "groups are associations, not effects of a choice (a strong hand both takes the double and wins). "
            "The effect of a choice is measured by arms that differ only in it, on the same deals: "
            "`simdom doubles` on a hold:until=K sweep (scenarios/default.toml), `simdom stats` paired tables.")


def moves_answer(results: Sequence[ResultFrames], by: Sequence[str]) -> P.Answer:
    df = moves_table(list(results), by)
    keys = ([RESULTS_KEY] if RESULTS_KEY in df.columns else []) + list(by) + ["move"]
    cols = [P.Col(k, BY_HEADER.get(k, k)) for k in keys] + [
        P.Col("scoring_rate", "scoring %", "pct"), P.Col("points_per_placement", "pts/tile", "est"),
        P.Col("bonus_per_placement", "bonus/tile", "est"), P.Col("placements", "placements", "int")]
    ans = P.Answer(data=df.to_dicts())
    for (grp,), d in df.group_by(keys[0], maintain_order=True):
        fixed = d.filter(pl.col("scoring_rate_fixed"))
        free = d.filter(~pl.col("scoring_rate_fixed"))
        lead = ""
        if fixed.height:  # moves whose scoring the rules decide (Fives' 5-5 lead, Threes' first two tiles)
            parts = []
            for (v,), g in fixed.group_by("scoring_rate", maintain_order=True):
                mv = g["move"].to_list()
                where = f"move {mv[0]}" if len(mv) == 1 else f"moves {', '.join(map(str, mv[:-1]))} and {mv[-1]}"
                parts.append(f"{where} score{'s' if len(mv) == 1 else ''} in {P.fixed(v, pct=True)}")
            lead = f"{'; '.join(parts)}; of the other moves, "
        if free.height:
            hi = free.sort("scoring_rate", descending=True).row(0, named=True)
            ans.sentences.append(f"{grp}: {lead}placements score most often at move {hi['move']}, "
                                 f"{P.ci(hi['scoring_rate'], hi['scoring_rate_lo'], hi['scoring_rate_hi'], pct=True)}.")
        else:
            ans.sentences.append(f"{grp}: {lead.removesuffix('; of the other moves, ')}.")
        if len(ans.sentences) == 4:
            break
    ans.add(P.Table("Scoring rate by move number", df.to_dicts(), cols, len(keys)))
    ans.notes.append(clusters_note(results))
    return ans


# ---- seats ---------------------------------------------------------------------------------------
def ordinal(j: int) -> str:
    return {0: "1st", 1: "2nd", 2: "3rd"}.get(j, f"{j + 1}th")


def seats_answer(res: ResultFrames) -> P.Answer:
    """`simdom seats`: turn-order and seat effects per arm, with Wald tests of equal positions."""
    from simdom.stats.tables.seats import position_tables, seats_equal_by_construction, seats_json

    pos, tests = position_tables(res)
    fair = 1 / res.players
    ans = P.Answer(data=seats_json(pos, tests))
    turn = pos.filter(pl.col("by") == "turn")
    tt = {r["arm"]: r for r in tests.filter(pl.col("by") == "turn").iter_rows(named=True)}
    ts = {r["arm"]: r for r in tests.filter(pl.col("by") == "seat").iter_rows(named=True)}
    arms = res.arm_names
    leads = {a: turn.filter((pl.col("arm") == a) & (pl.col("position") == 0)).row(0, named=True) for a in arms}
    if len(arms) == 1:
        arm = arms[0]
        lead, t = leads[arm], tt[arm]
        worst = turn.filter(pl.col("arm") == arm).sort("win_rate").row(0, named=True)
        verdict = "no test possible" if t["p_value"] != t["p_value"] else \
            "turn order matters" if t["p_value"] < 0.05 else "no clear turn-order effect"
        ans.sentences.append(
            f"The leader (1st to act) wins {P.ci(lead['win_rate'], lead['win_rate_lo'], lead['win_rate_hi'], pct=True)}"
            f" of the deals against a fair {100 * fair:.0f}%; the {ordinal(worst['position'])} to act wins least, "
            f"{P.ci(worst['win_rate'], worst['win_rate_lo'], worst['win_rate_hi'], pct=True, level=None)} "
            f"({verdict}: Wald chi2 = {P.num(t['statistic'])}, df = {t['df']}, {P.p_clause(t['p_value'])}).")
    else:
        above = all(r["win_rate_lo"] > fair for r in leads.values())
        below = all(r["win_rate_hi"] < fair for r in leads.values())
        how = "more than" if above else "less than" if below else "against"
        parts = [f"{P.ci(r['win_rate'], r['win_rate_lo'], r['win_rate_hi'], pct=True, level=None if i else 95)} "
                 f"in {a}" for i, (a, r) in enumerate(list(leads.items())[:6])]
        ans.sentences.append(f"The leader (1st to act) wins {how} the fair {100 * fair:.0f}% of the deals: "
                             f"{', '.join(parts)}{', ...' if len(arms) > 6 else ''}.")
        n = sum(1 for a in arms if tt[a]["p_holm"] < 0.05)
        ans.sentences.append(f"Positions by turn differ in {n} of {len(arms)} arms (Wald tests, Holm-adjusted "
                             "p < 0.05).")
    differ = [a for a in arms if ts[a]["p_holm"] < 0.05]
    if differ:
        ans.sentences.append(f"Absolute seats differ in arm{'s' if len(differ) > 1 else ''} {', '.join(differ)} "
                             f"({'; '.join(P.p_clause(ts[a]['p_holm'], 'Holm-adjusted p') for a in differ)}).")
    else:
        ps = [ts[a]["p_holm"] for a in arms if ts[a]["p_holm"] == ts[a]["p_holm"]]
        ans.sentences.append("No evidence that the absolute seats differ"
                             + (f" (smallest Holm-adjusted p = {P.pval(min(ps))})." if ps else "."))
    if not seats_equal_by_construction(res):
        ans.notes.append("Rotation is off and the players differ: each seat always holds the same policy, so a seat "
                         "difference mixes the seat and the policy.")
    for by, title in (("turn", "By turn order (1st = the leader)"), ("seat", "By absolute seat")):
        rows = [{**r, "label": ordinal(r["position"]) if by == "turn" else f"seat {r['position']}"}
                for r in pos.filter(pl.col("by") == by).iter_rows(named=True)]
        ans.add(P.Table(title, rows, [P.Col("arm"), P.Col("label", by), P.Col("win_rate", "win %", "pct"),
                                      P.Col("mean_points", "points", "est")], 2))
    ans.add(P.Table(f"Tests that all positions are equal (Wald, cluster-robust; Holm over {P.nouns(len(arms), 'arm')})",
                    tests.to_dicts(), [P.Col("arm"), P.Col("by"), P.Col("statistic", "chi2", "num"),
                                       P.Col("df", "df", "int"), P.Col("p_value", "p", "p"),
                                       P.Col("p_holm", "p (Holm)", "p")], 2))
    ans.notes.append(clusters_note([res]))
    ans.notes.append("Win shares of the positions sum to 1, so the test uses players - 1 contrasts; "
                     "its p-value is from the F form of the statistic (Hotelling).")
    return ans

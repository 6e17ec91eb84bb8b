"""The answer of `simdom balance`: the words first (which variants change the balance, and how much),
then the scorecard, one row per variant, within 80 columns (simdom.present splits it, the variant
column repeated). The figures come from simdom.stats.tables.balance."""
from __future__ import annotations

from simdom import present as P
from simdom.stats.tables.balance import FAIRNESS, MEASURES, PERCENT, Study, rows, to_json

#: how a measure reads in the table's header and in a sentence
LABEL = {
    "leader_win": ("leader win %", "the leader's win rate"), "last_win": ("last win %", "the last seat's win rate"),
    "balance": ("balance %", "the balance (1 - the widest win-rate gap)"),
    "blocked": ("blocked %", "the share of blocked deals"), "ties": ("ties %", "the share of ties at the top"),
    "placements": ("placements", "placements per deal"), "draws": ("draws", "draws per deal"),
    "lead_changes": ("lead changes", "lead changes per deal"), "drama": ("drama", "the winner's largest deficit"),
    "decisiveness": ("decided %", "the share of the deal before the winner leads for good"),
    "decision_share": ("decisions %", "the share of turns with two or more legal moves"),
    "choices": ("choices", "legal moves per placement"),
    "deals_per_match": ("deals/match", "deals per match"),
    "points": ("points", "points per player per deal"), "scoring_share": ("scoring %", "the share of scoring placements"),
    "double_move": ("double move", "the first double's move"), "double_bonus": ("double bonus", "the bonus per deal"),
    "greedy_edge": ("greedy edge %", "greedy's edge over random"),
    "skill": ("skill %", "the skill share (Dreef, by wins)"),
}


def _cell(s: Study, arm: str, m: str) -> str:
    """The baseline's figure, or a variant's difference, rounded to what its interval supports; * flags."""
    pct = m in PERCENT
    if arm == s.baseline or m == "skill":  # the skill share: each variant's own figure (not compared)
        e = s.measures[arm].get(m)
        return P.NA if e is None else P.rounded(e["value"], e["low"], e["high"], pct=pct)
    d = s.vs[arm].get(m)
    if d is None:
        return P.NA
    text = P.est(d["value"], d["low"], d["high"], pct=pct, signed=True).split(" (", 1)[0]
    return text + ("*" if d.get("flag") else "")


def short_names(names: list[str]) -> tuple[dict[str, str], str]:
    """Variant names without the KEY= they all share (``first_double_bonus=4.2-8`` -> ``4.2-8``), and the
    header naming the key(s); names of another form are kept."""
    split = [[part.partition("=") for part in n.split("+")] for n in names]
    keys = {tuple(k for k, _, _ in parts) for parts in split}
    if len(keys) == 1 and all(sep for parts in split for _, sep, _ in parts):
        ks = next(iter(keys))
        return {n: "+".join(v for _, _, v in parts) for n, parts in zip(names, split)}, "+".join(ks)
    return {n: n for n in names}, "variant"


def _fig(e: dict, pct: bool) -> str:
    return P.rounded(e["value"], e["low"], e["high"], pct=pct) + ("%" if pct else "")


def _points(threshold: float) -> str:
    return f"{P.num(threshold)} point" + ("" if threshold == 1 else "s")


def _sentence(s: Study, threshold: float, label: dict[str, str], header: str) -> str:
    variants = [a["name"] for a in s.arms[1:]]
    what = f"{s.players}-player {'/'.join(x.capitalize() for x in s.preset.split('/'))}"
    if not variants:
        e = s.measures[s.baseline]["leader_win"]
        return (f"{what} ({s.baseline}, one variant): the leader wins "
                f"{P.ci(e['value'], e['low'], e['high'], pct=True, level=None)} of the deals; nothing to compare.")
    changed = []
    key = "" if header == "variant" else f"{header} "
    for v in variants:
        flagged = [m for m in FAIRNESS if s.vs[v].get(m, {}).get("flag")]
        if not flagged:
            continue
        m = flagged[0]
        base, new, d = s.measures[s.baseline][m], s.measures[v][m], s.vs[v][m]
        verb = "raises" if d["value"] > 0 else "lowers"
        changed.append(f"{key}{label[v]} {verb} {LABEL[m][1]} from {_fig(base, True)} to "
                       f"{P.ci(new['value'], new['low'], new['high'], pct=True, level=None)}")
    n, k = len(variants), len(changed)
    head = f"Of {n} variant{'s' if n != 1 else ''} of {what} against the baseline {key}{label[s.baseline]}, "
    if not changed:
        return head + (f"none is shown to change the balance by more than {_points(threshold)} (Holm-adjusted; "
                       f"the table has each difference's interval).")
    rest = n - k
    tail = (f"; the other {rest} {'are' if rest != 1 else 'is'} not shown to change it by more than "
            f"{_points(threshold)}") if rest else ""
    return head + f"{k} change{'s' if k == 1 else ''} the balance: " + "; ".join(changed) + tail + "."


def _beyond(s: Study) -> str | None:
    counts = {}
    for v in [a["name"] for a in s.arms[1:]]:
        for m, d in s.vs[v].items():
            if m not in FAIRNESS and d.get("flag"):
                counts[m] = counts.get(m, 0) + 1
    if not counts:
        return None
    parts = [f"{LABEL[m][0].removesuffix(' %')} {c}" for m, c in counts.items()]
    return f"Other measures flagged ({s.players} players; variants): " + ", ".join(parts) + "."


def balance_answer(ss: list[Study], threshold: float, flat: bool = False) -> P.Answer:
    """The answer; its machine data the JSON object of issue 41.2, or with ``flat`` (csv, parquet) one row
    per variant and measure."""
    ans = P.Answer(data=rows(ss) if flat else to_json(ss))
    label, header = short_names(list(dict.fromkeys(a["name"] for s in ss for a in s.arms)))
    for s in ss:
        ans.sentences.append(_sentence(s, threshold, label, header))
        more = _beyond(s)
        if more:
            ans.sentences.append(more)
    several = len(ss) > 1
    shown = [m for m in MEASURES if any(m in s.measures[s.baseline] for s in ss)]
    table_rows, flagged = [], []
    for s in ss:
        for a in s.arms:
            n = a["name"]
            r = {"variant": label[n] + (" (base)" if n == s.baseline else ""), "players": s.players}
            r |= {m: _cell(s, n, m) for m in shown}
            r["seat_p"] = (s.seat_test.get(n) or {}).get("p_holm")
            table_rows.append(r)
            for m, d in s.vs.get(n, {}).items():
                if d.get("flag"):
                    pct = m in PERCENT
                    flagged.append({"variant": label[n], "players": s.players, "measure": LABEL[m][0],
                                    "base": _cell(s, s.baseline, m), "diff": d["value"], "diff_lo": d["low"],
                                    "diff_hi": d["high"], "p": d["p_holm"], "_pct": pct})
    cols = [P.Col("variant", header)] + ([P.Col("players", "n", "int")] if several else []) + \
        [P.Col(m, LABEL[m][0], align="right") for m in shown] + [P.Col("seat_p", "seat test p", "p")]
    ans.add(P.Table("Scorecard: the baseline's figures, then each variant's paired difference (* flagged)",
                    table_rows, cols, keys=2 if several else 1))
    qcols = [P.Col(k, k.replace("p50", "median"), "int") for k in ("p10", "p25", "p50", "p75", "p90")]
    kcols = [P.Col("variant", header)] + ([P.Col("players", "n", "int")] if several else [])
    for what, attr in (("Placements", "quantiles"), ("Draws", "draw_quantiles"), ("Deals per match", "match_quantiles")):
        qrows = [{"variant": label[a["name"]], "players": s.players, **getattr(s, attr).get(a["name"], {})}
                 for s in ss for a in s.arms]
        if any(len(r) > 2 for r in qrows):
            per = "" if attr == "match_quantiles" else " per deal"
            ans.add(P.Table(f"{what}{per}: quantiles (the {'matches' if per == '' else 'deals'}' own values)",
                            qrows, kcols + qcols,
                            keys=2 if several else 1))
    if flagged:
        for r in flagged:
            r["diff_text"] = P.est(r["diff"], r["diff_lo"], r["diff_hi"], pct=r["_pct"], signed=True)
        fcols = [P.Col("variant", header)] + ([P.Col("players", "n", "int")] if several else []) + \
            [P.Col("measure"), P.Col("base", "baseline", align="right"), P.Col("diff_text", "difference (95% CI)",
                                                                              align="right"),
             P.Col("p", "p Holm", "p")]
        ans.add(P.Table("The flagged differences with their intervals", flagged, fcols, keys=3 if several else 2))
    ans.notes.append("seat test p: the Wald test that every turn position wins alike (simdom seats), per "
                     "variant, Holm-adjusted over the variants.")
    ans.notes.append(f"Shares in percent, differences in percentage points; paired on the same deals and "
                     f"rotations, 95% intervals clustered by deal (by match in match results); * = significant "
                     f"after Holm's adjustment over each folder's variants x measures and larger than {_points(threshold)} (a share) or "
                     f"{P.num(threshold)}% of the baseline (a mean).")
    if any("skill" in s.measures[s.baseline] for s in ss):
        n = next(s.measures[s.baseline]["skill"]["deals"] for s in ss if "skill" in s.measures[s.baseline])
        ans.notes.append(f"skill %: each variant's own skill share LE / (LE + RE) by wins (simdom skill: random, "
                         f"search, clairvoyant against greedy) on {n:,} deals in every rotation; not compared.")
    left = {m: why for s in ss for m, why in s.missing.items()}
    for m, why in left.items():
        ans.notes.append(f"{m}: left out, {why}.")
    return ans

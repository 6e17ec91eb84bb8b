"""What `simdom stats` and `simdom compare` say about match results (docs/rules.md 12): the answer in
sentences, then compact tables (simdom.present), from the estimates of simdom.stats.matches.tables and .equity."""
from __future__ import annotations

import polars as pl

from simdom import present as P
from simdom.stats.names import BY_COLUMNS, MATCH_BY_COLUMNS, MATCH_TABLES
from simdom.stats.read.folder import ResultFrames

TITLES = {
    "wins": "Match win probability (95% CI, clustered by match)",
    "length": "Deals per match",
    "lead": "The first lead: P(win the match | own side led the first deal) against not",
    "edges": "A policy's edge per deal against its edge per match (over the fair share 1/sides)",
    "arms": "Arms against their baseline, paired by match: per deal and per match",
    "equity": "Match equity: P(win the match | own score, opponent's score) before a deal",
    "deals": "Per deal, clustered by match",
}
KEYS = ("arm", "policy", "side", "seat", "player", "rotation", "first_seat", "led_first", "side_led_first")
#: what a person sees of each table: (column, header, kind of simdom.present.Col); machines get every
#: column at full precision
VIEW = {
    "wins": [("matches", "matches", "int"), ("win_rate", "match win %", "pct"), ("fair_share", "fair %", "pctround"),
             ("final_score", "final score", "est"), ("deals_per_match", "deals", "est")],
    "length": [("matches", "matches", "int"), ("deals_per_match", "deals", "est"), ("sd", "sd", "num"),
               ("p10", "p10", "int"), ("p50", "p50", "int"), ("p90", "p90", "int"), ("most", "most", "int"),
               ("unfinished", "unfinished %", "pct")],
    "lead": [("win_if_led", "win % led", "pct"), ("win_if_not", "win % not", "pct"),
             ("match_lead_value", "match lead", "pctdiff"), ("first_deal_lead_value", "1st deal", "pctdiff"),
             ("deal_lead_value", "any deal", "pctdiff")],
    "edges": [("deal_edge", "edge per deal", "pctdiff"), ("match_edge", "edge per match", "pctdiff"),
              ("match_minus_deal", "match - deal", "pctdiff")],
    "arms": [("baseline", "vs", "text"), ("players", "players", "text"), ("d_deal_win", "Δ deal win", "pctdiff"),
             ("d_points", "Δ points/deal", "diff"), ("d_match_win", "Δ match win", "pctdiff")],
    "equity": [("own_from", "own from", "int"), ("opp_from", "opp from", "int"), ("matches", "matches", "int"),
               ("p_win", "P(win) %", "pct")],
    "compare": [("a", "A", "est"), ("b", "B", "est"), ("diff", "A - B", "diff"), ("p_value", "p", "p")],
}


def frame_table(title: str, df: pl.DataFrame, view: str) -> P.Table:
    """A table of a statistics frame for people: its key columns, then the view's columns."""
    rows = df.to_dicts()
    keys = [c for c in df.columns if c in KEYS or c == "metric"]
    cols = [P.Col(k) for k in keys] + [P.Col(c, h, kind) for c, h, kind in VIEW[view] if c in df.columns]
    return P.Table(title, rows, cols, max(len(keys), 1))


def stats_answer(res: ResultFrames, by: list[str] | None, table: str | None, bins: int, people: bool) -> P.Answer:
    """`simdom stats` on one match-mode folder; ``people``: sentences and every table that applies, else
    (a file in a machine format) the one table asked for, whole."""
    from simdom.stats.matches import tables as M
    from simdom.stats.matches.equity import equity_table
    from simdom.stats.tables.stats import InputError, parse_by
    if table is not None and table not in MATCH_TABLES:
        raise InputError(f"bad --table {table!r} for match results; allowed: {', '.join(MATCH_TABLES)}")
    if table == "deals":
        from simdom.stats.views.stats import stats_answer as deal_answer
        return deal_answer([res], None if by is None else parse_by(by, BY_COLUMNS), "groups")
    wanted = [table] if table else (["wins", "length", "lead", "edges", "arms"] if people else ["wins"])
    keys = parse_by(by, MATCH_BY_COLUMNS, ("arm", "policy", "player")) if table in (None, "wins") else None
    ans, done = P.Answer(), {}
    for t in wanted:
        if t == "wins":
            df = M.wins_table(res, keys)
        elif t == "equity":
            df = equity_table(res, bins)
        else:
            df = {"length": M.length_table, "lead": M.lead_table, "edges": M.edges_table, "arms": M.arms_table}[t](res)
        done[t] = df
        if df.height or table:
            ans.add(frame_table(f"{TITLES[t]}: {res.name}", df, t))
    if people:
        wins = done["wins"] if keys == ["arm", "policy"] else None
        ans.sentences = M.answer(res, wins, done.get("length"), done.get("lead"))
    ans.data = done[wanted[0]].to_dicts()
    ans.notes.append("95% intervals clustered by match: a match's arms, rotations, seats and deals are one unit.")
    return ans


def compare_answer(a: ResultFrames, b: ResultFrames, strong: str | None) -> P.Answer:
    """`simdom compare` of two match-mode folders: the match-level measures, then the per-deal ones
    (clustered by match; paired when both runs play the same matches: same seed and match ids)."""
    from simdom.stats.matches.equity import compare_matches
    from simdom.stats.tables.stats import InputError
    from simdom.stats.views.pairs import compare_answer as deal_compare
    if a.unit != b.unit:
        single = b if a.unit.is_match else a
        raise InputError(f"{single.name}: single deals, the other side plays matches; compare two match results "
                         "or two single-deal results")
    match = compare_matches(a, b, strong)
    deals = deal_compare(a, b, strong)
    ans = P.Answer(sentences=deals.sentences)
    for r in match.iter_rows(named=True):
        if r["metric"] == "deals_per_match" and r["a"] is not None:
            ans.sentences.insert(0, f"A match lasts {P.ci(r['a'], r['a_lo'], r['a_hi'], unit='deals')} in {a.name} "
                                    f"and {P.ci(r['b'], r['b_lo'], r['b_hi'], unit='deals', level=None)} in "
                                    f"{b.name} ({P.p_clause(r['p_value'])}).")
    ans.add(frame_table(f"{a.name} (A) against {b.name} (B), per match", match, "compare"))
    ans.tables += deals.tables
    ans.notes += ["Per match and per deal: A - B with its 95% interval and two-sided p-value, clustered by match.",
                  *deals.notes]
    ans.data = {"per_match": match.to_dicts(), "per_deal": deals.machine()}
    return ans

"""`simdom stats` and `simdom compare` on match-mode results (RULES.md 12): the answer in sentences, then
the match tables. Called by simdom.cli.stats when a folder plays matches."""
from __future__ import annotations

from pathlib import Path

#: --table of `simdom stats` on match results (copied in simdom.cli.stats's help)
MATCH_TABLES = ("wins", "length", "lead", "edges", "arms", "equity", "deals")
TITLES = {
    "wins": "Match win probability (95% intervals clustered by match)",
    "length": "Deals per match",
    "lead": "The first lead: P(win the match | own side led the first deal) against not",
    "edges": "A policy's edge per deal against its edge per match (over the fair share 1/sides)",
    "arms": "Arms against their baseline, paired by match: per deal and per match",
    "equity": "Match equity: P(win the match | own score, opponent's score) before a deal",
    "deals": "Per deal, clustered by match",
}

#: what a person sees of each table: (column, header, kind); kinds as simdom.present's Col (pct: a share
#: with _lo/_hi shown in percent, pctdiff: a signed one, est: a number with _lo/_hi, int, text); machines
#: get every column at full precision
VIEW = {
    "wins": [("matches", "matches", "int"), ("win_rate", "match win %", "pct"), ("fair_share", "fair %", "pct"),
             ("final_score", "final score", "est"), ("deals_per_match", "deals", "est")],
    "length": [("matches", "matches", "int"), ("deals_per_match", "deals", "est"), ("sd", "sd", "num"),
               ("p10", "p10", "int"), ("p50", "p50", "int"), ("p90", "p90", "int"), ("most", "most", "int"),
               ("unfinished", "unfinished %", "pct")],
    "lead": [("win_if_led", "win % led", "pct"), ("win_if_not", "win % not", "pct"),
             ("match_lead_value", "match lead value", "pctdiff"), ("first_deal_lead_value", "1st deal", "pctdiff"),
             ("deal_lead_value", "any deal", "pctdiff")],
    "edges": [("deal_edge", "edge per deal", "pctdiff"), ("match_edge", "edge per match", "pctdiff"),
              ("match_minus_deal", "match - deal", "pctdiff")],
    "arms": [("baseline", "vs", "text"), ("players", "players", "text"), ("d_deal_win", "Δ deal win", "pctdiff"),
             ("d_points", "Δ points/deal", "est"), ("d_match_win", "Δ match win", "pctdiff")],
}


def people_view(name: str, df):
    """The columns a person reads (keys, then VIEW's, each estimate with its interval)."""
    if name not in VIEW or not df.height:
        return df
    shown = [c for c, _, _ in VIEW[name]]
    keys = [c for c in df.columns if c in ("arm", "policy", "side", "seat", "player", "rotation", "first_seat",
                                           "led_first", "side_led_first") and c not in shown]
    cols = [x for c in shown for x in (c, f"{c}_lo", f"{c}_hi") if x in df.columns]
    return df.select(keys + cols)


def match_tables(res, by: list[str] | None, table: str | None, bins: int, people: bool):
    """(sentences, [(title, DataFrame)]) of one match-mode folder; ``people``: for a person (terminal or
    Markdown): the answer in sentences and every table that applies, else the one table asked for."""
    from simdom.stats import matches as M
    from simdom.stats.equity import equity_table
    from simdom.stats.tables import InputError, parse_by, stats_table
    if table is not None and table not in MATCH_TABLES:
        raise InputError(f"bad --table {table!r}; allowed: {', '.join(MATCH_TABLES)}")
    wanted = [table] if table else (["wins", "length", "lead", "edges", "arms"] if people else ["wins"])
    keys = parse_by(by, M.MATCH_BY_COLUMNS, ("arm", "policy", "player")) if table in (None, "wins") else None
    out, done = [], {}
    for t in wanted:
        if t == "wins":
            df = M.wins_table(res, keys)
        elif t == "deals":
            from simdom.stats.tables import BY_COLUMNS
            df = stats_table(res, parse_by(by, BY_COLUMNS))
        elif t == "equity":
            df = equity_table(res, bins)
        else:
            df = {"length": M.length_table, "lead": M.lead_table, "edges": M.edges_table, "arms": M.arms_table}[t](res)
        done[t] = df
        if df.height or table:
            out.append((f"{TITLES[t]}: {res.name}", people_view(t, df) if people else df))
    if not people:
        return [], out
    wins = done["wins"] if keys == ["arm", "policy"] else None
    return M.answer(res, wins, done.get("length"), done.get("lead")), out


def stats_matches(results, by, table, bins, fmt: str, out: Path | None) -> None:
    """`simdom stats` on match-mode folders: sentences first (terminal), then the tables."""
    from simdom.stats.output import emit
    from simdom.stats.tables import InputError
    single = [str(r.path) for r in results if r.unit != "match"]
    if single:
        raise InputError(f"{single[0]}: single deals, but the other folders hold matches; give folders of one kind "
                         "(match results have target > 0)")
    terminal = fmt == "table" and out is None
    sentences, tables = [], []
    for r in results:
        s, t = match_tables(r, by, table, bins, fmt in ("table", "md"))
        sentences += s
        tables += t
    if terminal:
        from rich.console import Console
        console = Console()
        for s in sentences:
            console.print(s, highlight=False)
        emit(tables, fmt, None, console)
    else:
        emit(tables, fmt, out, notes=sentences if fmt in ("md", "table") else ())


def compare_matches_cmd(a, b, strong: str | None, fmt: str, out: Path | None) -> None:
    """`simdom compare` of two match-mode folders: match-level metrics, then the per-deal ones (clustered
    by match)."""
    from simdom.stats.compare import compare_table
    from simdom.stats.equity import compare_matches
    from simdom.stats.output import emit
    from simdom.stats.tables import InputError
    if (a.unit == "match") != (b.unit == "match"):
        single = a if a.unit != "match" else b
        raise InputError(f"{single.name}: single deals, the other side plays matches; compare two match results or "
                         "two single-deal results")
    match = compare_matches(a, b, strong)
    deals, notes = compare_table(a, b, strong)
    notes = [f"A = {a.name}, B = {b.name}; diff = A - B with its 95% interval and two-sided p-value, clustered by "
             "match (paired when both runs play the same matches: same seed and match ids)", *notes[1:]]
    emit([(f"{a.name} (A) against {b.name} (B), per match", match),
          (f"{a.name} (A) against {b.name} (B), per deal", deals)], fmt, out, notes=notes)

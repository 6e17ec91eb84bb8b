"""What `simdom doubles --decisions` says: when holding the first double pays, in sentences, then the
conditional hold table and its grid (simdom.stats.decisions.tables)."""
from __future__ import annotations

import polars as pl

from simdom import present as P
from simdom.stats.decisions.tables import (GRID, SITUATIONS, candidate_groupings, cell_words, grid_table, hold_table,
                                          level_words, method_of, search_table)
from simdom.stats.inference import one_sided_none
from simdom.stats.names import SITUATION_SHORT as SHORT
from simdom.stats.read.folder import ResultFrames
from simdom.stats.views.stats import clusters_note

#: The situations' short names in the table.
#: A cell needs this many decisions to be named in a sentence.
MIN_DECISIONS = 100
DECISION_TABLES = ("decisions", "decision-grid", "decision-search")
#: Cells the search names in its sentence, and rows its table shows (beyond the significant ones)
SEARCH_NAMED, SEARCH_ROWS = 3, 5


def _v(r: dict, key: str = "hold_value", **kw) -> str:
    return P.ci(r[key], r[f"{key}_lo"], r[f"{key}_hi"], signed=True, **kw)


def double_share_words(r: dict) -> str:
    """How often the players placed the double: fixed by the policies (hold:until=never: never; greedy
    under rules where no other move scores before the first double: always), seen in
    every decision or in none (said so, with the exact one-sided bound on the deals: a share of 1 on
    finite data is no proof), or the estimate with its interval."""
    x = r["double_share"]
    if r.get("double_share_fixed"):
        return f"in {P.fixed(x, pct=True, by='rules and policies' if x == 1 else 'policy')} of them"
    if x in (0.0, 1.0) and r.get("deals"):
        b = float(one_sided_none(r["deals"]))
        return f"in {'all' if x == 1 else 'none'} of them: {P.every(x, 1 - b if x == 1 else b, r['deals'])}"
    return f"in {P.ci(x, r['double_share_lo'], r['double_share_hi'], pct=True)} of them"


def arm_sentences(arm: str, table: pl.DataFrame, grid: pl.DataFrame, method: str, several: bool,
                  keys: tuple[str, ...] = GRID, then: str = "greedy") -> list[str]:
    """The answer for one arm: the average value of holding, where it pays, and its win share."""
    out = []
    where = f"In arm {arm}, " if several else ""
    top = table.filter(pl.col("arm") == arm, pl.col("situation") == "all").row(0, named=True)
    how = f"played out by {then}" if method == "rollouts" else "as played (an association)"
    lead = (f"{where}{P.count(top['decisions'])} first-double decisions; the players placed the double "
            f"{double_share_words(top)}. "
            f"Holding it instead ({how}) is worth {_v(top, unit='points')} per decision")
    if top["hold_value_hi"] < 0:
        lead += ": on average, place it at once."
    elif top["hold_value_lo"] > 0:
        lead += ": on average, holding pays."
    elif method == "observed" and not top["decisions"] * (1 - top["double_share"]):
        lead += (": no player held, so as played holding has no value to observe (simdom run "
                 "--decision-rollouts N values it).")
    else:
        lead += "."
    out.append(lead[0].upper() + lead[1:])
    # a cell without a value (as played, nobody held there: n/a) neither pays nor costs (NaN > 0 in polars)
    cells = grid.filter(pl.col("arm") == arm, pl.col("decisions") >= MIN_DECISIONS, pl.col("hold_value").is_finite())
    where_ = " by ".join(SHORT.get(k, k) for k in keys)
    pays = cells.filter(pl.col("hold_value_lo").is_finite() & (pl.col("hold_value_lo") > 0)).sort("hold_value", descending=True)
    if pays.height:
        named = "; ".join(f"{cell_words(r, keys)}: {_v(r, level=None)}" for r in pays.head(3).iter_rows(named=True))
        more = f" (and {pays.height - 3} more cells)" if pays.height > 3 else ""
        share = pays["decisions"].sum() / max(1, cells["decisions"].sum())
        out.append(f"Holding pays (interval above 0) in {pays.height} of {cells.height} situations ({where_}), "
                   f"{100 * share:.0f}% of the decisions: {named}{more}.")
    else:
        best = cells.sort("hold_value_hi", descending=True)
        if best.height:
            b = best.row(0, named=True)
            out.append(f"Holding pays in none of the {cells.height} situations ({where_}) with at least "
                       f"{MIN_DECISIONS} decisions; the closest is {cell_words(b, keys)}: {_v(b, level=None)}.")
    oneway = table.filter(pl.col("arm") == arm, pl.col("situation") != "all", pl.col("decisions") >= MIN_DECISIONS,
                          pl.col("hold_value").is_finite())
    costly = oneway.sort("hold_value").head(1)
    if costly.height:
        c = costly.row(0, named=True)
        out.append(f"Holding costs most ({level_words(c['situation'], c['level'])}): {_v(c, level=None)} points.")
    w = top
    out.append(f"In win share, holding changes the mover's chance by "
               f"{P.ci(100 * w['hold_value_win'], 100 * w['hold_value_win_lo'], 100 * w['hold_value_win_hi'], signed=True, unit='percentage points')}"
               " per decision.")
    return out


def search_sentence(arm: str, search: pl.DataFrame, several: bool) -> str | None:
    """Where holding pays without a grouping given: the search's significant cells after Holm across every
    cell tried (:func:`search_table`), or the strongest cell when none is."""
    a = search.filter(pl.col("arm") == arm)
    if not a.height:
        return None
    n = a["cells_tried"][0]
    head = (f"{'In arm ' + arm + ', s' if several else 'S'}earching {len(candidate_groupings())} groupings "
            f"(every situation, pair, and triple with the lead: {n} cells with at least {MIN_DECISIONS} "
            f"decisions, Holm-adjusted across all {n})")
    pays = a.filter(pl.col("p_holm") < 0.05, pl.col("hold_value") > 0).sort("hold_value", descending=True)
    if pays.height:
        # cells of the same decisions (with 3 players, 1 double in hand is 6 an opponent may hold) once
        distinct = pays.unique(["decisions", "hold_value", "hold_value_lo", "hold_value_hi"], keep="first",
                               maintain_order=True)
        named = "; ".join(f"{r['words']}: {_v(r, level=None)}, p = {P.pval(r['p_holm'])}"
                          for r in distinct.head(SEARCH_NAMED).iter_rows(named=True))
        more = f" (and {distinct.height - SEARCH_NAMED} more)" if distinct.height > SEARCH_NAMED else ""
        same = f", {distinct.height} of them distinct" if distinct.height < pays.height else ""
        return f"{head}, holding pays in {pays.height}{same}: {named}{more}."
    b = a.sort("hold_value", descending=True, nulls_last=True).row(0, named=True)
    return (f"{head}, holding pays in none; where it does best is {b['words']}: {_v(b, level=None)}, "
            f"p = {P.pval(b['p_holm'])} after the adjustment.")


def decisions_answer(res: ResultFrames, wanted: list[str] | None = None, by: list[str] | None = None) -> P.Answer:
    """`simdom doubles --decisions`: per arm, the sentences of :func:`arm_sentences`, then the table by
    situation and the grid: the situations ``by`` crossed (default: bonus tier by the double's support)."""
    wanted = wanted or list(DECISION_TABLES)
    keys = tuple(by or GRID)
    method = method_of(res)
    table = hold_table(res)
    grid = grid_table(res, keys)
    search = search_table(res, MIN_DECISIONS) if by is None or "decision-search" in wanted else None
    ans = P.Answer()
    arms = [a for a in res.arm_names if a in set(table["arm"])]
    if not arms:
        ans.sentences.append(f"{res.name}: no first-double decision in these deals (no double was ever placeable "
                             "beside another tile before the first double).")
    for arm in arms[:4]:
        ans.sentences += arm_sentences(arm, table, grid, method.name, len(arms) > 1, keys, method.then)
        found = search_sentence(arm, search, len(arms) > 1) if search is not None and by is None else None
        if found:
            ans.sentences.append(found)
    if len(arms) > 4:
        ans.sentences.append(f"({len(arms) - 4} more arms in the table.)")
    unit = "points" if method.name == "rollouts" else "points (as played)"
    if "decisions" in wanted:
        rows = [{**r, "short": SHORT.get(r["situation"], r["situation"])} for r in table.iter_rows(named=True)]
        ans.add(P.Table(f"Value of holding the first double by situation, {unit} per decision (95% CI)", rows,
                        [P.Col("arm"), P.Col("short", "situation"), P.Col("level"), P.Col("decisions", "n", "int"),
                         P.Col("double_share", "double %", "pct"), P.Col("hold_value", "hold value", "diff"),
                         P.Col("hold_value_win", "Δ win %", "pctround")], 3))
    if "decision-grid" in wanted:
        ans.add(P.Table(f"Value of holding by {' and '.join(SHORT[k] for k in keys)}, {unit}", grid.to_dicts(),
                        [P.Col("arm"), *[P.Col(k, SHORT[k]) for k in keys], P.Col("decisions", "n", "int"),
                         P.Col("hold_value", "hold value", "diff"),
                         P.Col("hold_value_win", "Δ win %", "pctround")], 1 + len(keys)))
    if "decision-search" in wanted and search is not None:
        # the cells where holding gains, most significant first: every one significant after Holm, and
        # at least SEARCH_ROWS (JSON/CSV: every cell tried, either sign)
        gains = [search.filter(pl.col("arm") == a, pl.col("hold_value") > 0) for a in arms]
        shown = [g.filter((pl.col("p_holm") < 0.05) | (pl.int_range(pl.len()) < SEARCH_ROWS)) for g in gains]
        rows = [{**r, "short": ", ".join(f"{SHORT.get(k, k)}={v}" for k, v in
                                         (kv.split("=", 1) for kv in r["cell"].split(", ")))}
                for g in shown for r in g.iter_rows(named=True)]
        ans.add(P.Table(f"The searched cells where holding gains, by p after Holm across every cell tried in the "
                        f"arm, {unit} per decision", rows,
                        [P.Col("arm"), P.Col("short", "cell"), P.Col("decisions", "n", "int"),
                         P.Col("hold_value", "hold value", "diff"), P.Col("p_holm", "p Holm", "p")], 2))
    ans.notes.append(method.text)
    ans.notes.append("Hold value: the mover's final points after its best other move minus after its best double "
                     "now (greedy's choice within each kind); > 0: holding pays; Δ win %: the same for its win "
                     "share. Situations: " + "; ".join(f"{SHORT[k]}: {v[0]}" for k, v in SITUATIONS.items()) + ".")
    ans.notes.append(clusters_note([res]))
    data = {"decisions": table.to_dicts(), "decision-grid": grid.to_dicts()}
    if search is not None:
        data["decision-search"] = search.to_dicts()
    ans.data = data[wanted[0]] if len(wanted) == 1 else data
    return ans

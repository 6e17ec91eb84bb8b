"""`simdom balance`'s one screen (issue 58.1): the study's answer in sentences (which variants change the
balance most, and which significantly), then one compact table, one row per variant and one column per key
measure, each figure rounded to what its 95% interval supports and ``*`` where the variant's paired
difference from its baseline passes the threshold. A study of 18 variants fits in 60 lines of 80 columns;
``simdom balance --full`` prints the whole scorecard (simdom.stats.views.balance), and the machine formats
are the scorecard's either way. The figures are the scorecard's (simdom.stats.tables.balance): clustered by
deal, paired on the same deals, Holm-adjusted over each folder's variants x measures."""
from __future__ import annotations

import math

from simdom import present as P
from simdom.stats.tables.balance import ALPHA, FAIRNESS, MEASURES, PERCENT, Study, rows, to_json
from simdom.stats.tables.stats import InputError

#: the columns of the one screen by default (``skill`` joins them with ``--skill``)
KEY = ("leader_win", "seat_spread", "decision_share", "draws")
#: every column ``--measures`` may name: the scorecard's measures, and ``seat_spread`` (1 - ``balance``: the
#: widest gap between the win rates of two turn positions)
CHOICES = ("leader_win", "seat_spread", *(m for m in MEASURES if m != "leader_win"))
#: a column's header (a share in percent, a difference of shares in points)
HEAD = {"leader_win": "leader %", "last_win": "last %", "seat_spread": "spread %", "balance": "balance %",
        "blocked": "blocked %", "ties": "ties %", "placements": "placed", "draws": "draws",
        "lead_changes": "leads", "drama": "drama", "decisiveness": "decided %", "decision_share": "decisions %",
        "choices": "choices", "deals_per_match": "deals/match", "points": "points", "scoring_share": "scoring %",
        "double_move": "dbl move", "double_bonus": "dbl bonus", "greedy_edge": "edge %", "skill": "skill %"}
#: variants named in the sentence "most"
TOP = 3


def parse_measures(text: str | None, skill: bool) -> tuple[str, ...] | None:
    """``--measures a,b,c`` as column names (None: the default); InputError naming the allowed ones."""
    if text is None:
        return None
    names = tuple(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))
    bad = [n for n in names if n not in CHOICES]
    if bad or not names:
        raise InputError(f"--measures {text!r}: {'unknown ' + ', '.join(bad) if bad else 'names no measure'}; "
                         f"allowed: a comma-separated list of {', '.join(CHOICES)}")
    if "skill" in names and not skill:
        raise InputError("--measures skill needs the skill shares; allowed: --skill with --measures skill, or "
                         "leave skill out")
    return names


def entry(s: Study, arm: str, m: str) -> tuple[dict | None, dict | None]:
    """The arm's figure and its difference from the baseline (None for the baseline) on measure ``m``;
    ``seat_spread`` is 1 - ``balance``, its interval and difference turned over."""
    if m != "seat_spread":
        return s.measures[arm].get(m), s.vs.get(arm, {}).get(m)
    e, d = s.measures[arm].get("balance"), s.vs.get(arm, {}).get("balance")
    e = e and {**e, "value": 1 - e["value"], "low": 1 - e["high"], "high": 1 - e["low"]}
    d = d and {**d, "value": -d["value"], "low": -d["high"], "high": -d["low"]}
    return e, d


def _pct(m: str) -> bool:
    return m in PERCENT or m == "seat_spread"


def _cell(s: Study, arm: str, m: str) -> str:
    e, d = entry(s, arm, m)
    if e is None:
        return P.NA
    return P.rounded(e["value"], e["low"], e["high"], pct=_pct(m)) + ("*" if d and d.get("flag") else "")


def _spread_move(s: Study, arm: str) -> tuple[dict, dict] | None:
    """The variant's seat spread and its difference from the baseline's (None: no test)."""
    e, d = entry(s, arm, "seat_spread")
    return None if e is None or d is None or not math.isfinite(d["value"]) else (e, d)


def _points(threshold: float) -> str:
    return f"{P.num(threshold)} point" + ("" if threshold == 1 else "s")


def _changes(s: Study, arm: str) -> bool:
    return any(s.vs[arm].get(m, {}).get("flag") for m in FAIRNESS)


def _what(ss: list[Study]) -> str:
    presets = sorted({p for s in ss for p in s.preset.split("/")})
    counts = [str(s.players) for s in ss]
    players = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " and " + counts[-1]
    return f"{'/'.join(p.capitalize() for p in presets)} at {players} players"


def _move(s: Study, name: str, several: bool, e: dict, d: dict) -> str:
    base = entry(s, s.baseline, "seat_spread")[0]
    where = f" at {s.players} players" if several else ""
    head, _, tail = P.est(d["value"], d["low"], d["high"], pct=True, signed=True).partition(" (")
    p = d.get("p_holm", math.nan)
    flag = "" if d.get("flag") else ", within the threshold" if p < ALPHA else ", not significant"
    return (f"{name}{where}, {P.rounded(base['value'], base['low'], base['high'], pct=True)}% -> "
            f"{P.rounded(e['value'], e['low'], e['high'], pct=True)}% ({head} points"
            f"{', 95% CI ' + tail[:-1] if tail else ''}{flag})")


#: the most variants that change the balance named in the first sentence (more: counted per player count)
NAMED = 8


def sentences(ss: list[Study], threshold: float, label: dict[str, str] | None = None,
              header: str = "variant") -> list[str]:
    """Which variants change the balance (a fairness measure flagged), per player count (named, by ``label``,
    when there are few), and the largest moves with their intervals."""
    several = len(ss) > 1
    variants = [(s, a["name"]) for s in ss for a in s.arms[1:]]
    what = _what(ss)
    points = _points(threshold)
    if not variants:
        s = ss[0]
        e = s.measures[s.baseline]["leader_win"]
        return [f"{what}, one variant ({s.baseline}): the leader wins "
                f"{P.ci(e['value'], e['low'], e['high'], pct=True, level=None)} of the deals; nothing to compare."]
    changed = [(s, n) for s, n in variants if _changes(s, n)]
    keys = f" ({header})" if header != "variant" and label else ""
    head = (f"Of {len(variants)} variant{'s' if len(variants) != 1 else ''}{keys} of {what}, {len(changed) or 'none'} "
            f"change{'s' if len(changed) <= 1 else ''} the balance by more than {points} "
            f"(significant after Holm's adjustment)")
    def which(s: Study) -> str:
        names = [n for t, n in changed if t is s]
        shown = f" ({', '.join((label or {}).get(n, n) for n in names)})" if names and len(changed) <= NAMED else ""
        return f"{len(names)} of {len(s.arms) - 1}" + (f" at {s.players} players" if several else "") + shown
    if changed and (several or len(changed) <= NAMED):
        head += ": " + ", ".join(which(s) for s in ss)
    out = [head + "."]
    moves = sorted(((s, n, *mv) for s, n in variants if (mv := _spread_move(s, n))), key=lambda x: -abs(x[3]["value"]))
    if moves:
        top = moves[:TOP]
        lead = f"The {len(top)} largest moves" if len(top) > 1 else "The largest move"
        out.append(f"{lead} of the seat spread (the widest gap between two turn positions' win rates): "
                   + "; ".join(_move(s, (label or {}).get(n, n), several, e, d) for s, n, e, d in top) + ".")
    return out


def glance_answer(ss: list[Study], threshold: float, measures: tuple[str, ...] | None = None,
                  flat: bool = False) -> P.Answer:
    """The one screen; its machine data the scorecard's (the JSON object of issue 41.2, or with ``flat`` one
    row per variant and measure)."""
    from .balance import short_names
    label, header = short_names(list(dict.fromkeys(a["name"] for s in ss for a in s.arms)))
    ans = P.Answer(sentences(ss, threshold, label, header), data=rows(ss) if flat else to_json(ss))
    has = {m for s in ss for m in s.measures[s.baseline]} | {"seat_spread"}
    asked = measures is not None
    if measures is None:
        measures = KEY + (("skill",) if "skill" in has else ())
    shown = [m for m in measures if asked or m in has or m == "seat_spread"]
    several = len(ss) > 1
    long_key = len(header) > 24
    table = [{"variant": label[a["name"]] + (" (base)" if a["name"] == s.baseline else ""), "players": s.players,
              **{m: _cell(s, a["name"], m) for m in shown}} for s in ss for a in s.arms]
    cols = [P.Col("variant", "variant" if long_key else header)] + \
        ([P.Col("players", "n", "int")] if several else []) + [P.Col(m, HEAD[m], align="right") for m in shown]
    ans.add(P.Table("Balance by variant: each figure, * where it differs from its baseline", table, cols,
                    keys=2 if several else 1))
    ans.notes.append(f"Each variant's figure, rounded to its 95% interval (clustered by deal); * = its paired "
                     f"difference from the baseline of its player count is significant (Holm over each count's "
                     f"variants x measures) and larger than {_points(threshold)} for a share or "
                     f"{P.num(threshold)}% of the baseline for a mean.")
    if "seat_spread" in shown:
        ans.notes.append("spread %: the widest gap between the win rates of two turn positions (1 - balance).")
    if long_key:
        ans.notes.append(f"variant: {header}.")
    why = {m: w for s in ss for m, w in s.missing.items() if m in measures}
    ans.notes += [f"{m}: {'' if m in shown else 'left out, '}{w}." for m, w in why.items()]
    if "skill" in shown:
        n = next(s.measures[s.baseline]["skill"]["deals"] for s in ss if "skill" in s.measures[s.baseline])
        ans.notes.append(f"skill %: each variant's own skill share by wins (simdom skill) on {n:,} deals in every "
                         "rotation, not compared; its interval: --format json.")
    ans.notes.append("Every measure, each difference with its interval: --full; every figure: --format json.")
    return ans

"""The answer of ``simdom equity`` (docs/equity.md): who is ahead at 0-0, what a deal's lead is worth, a
compact table, a heatmap for the terminal; the machine rows (JSON object, or flat rows for csv/parquet)."""
from __future__ import annotations

from typing import Any

import numpy as np

from simdom import present as P
from simdom.stats.inference import t_quantile
from simdom.stats.matches.met import EquityTable, method

#: rows and columns of the compact table and the terminal heatmap (scores evenly spread, 0 first)
COMPACT = 10
HEAT = 20


def side_name(t: EquityTable, j: int) -> str:
    if t.rules.teams == "partners":
        return "seats 0+2" if j == 0 else "seats 1+3"
    return f"seat {j}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _game(t: EquityTable) -> str:
    name = (t.rules.preset or "custom").replace("-", " ").capitalize()
    extra = [f"match_end {t.rules.match_end}" if t.rules.match_end != "deal_end" else "",
             f"next_lead {t.rules.next_lead}" if t.rules.next_lead != "rules" else "",
             "partners" if t.rules.teams == "partners" else ""]
    more = ", ".join(x for x in extra if x)
    return f"{t.rules.players}-player {name} to {t.target}" + (f" ({more})" if more else "")


def _seat_side(t: EquityTable, seat: int) -> int:
    return seat % 2 if t.rules.teams == "partners" else seat


def _worth(t: EquityTable, by: dict) -> float | None:
    """Seat 0's side's P(win) when seat 0 leads minus its mean when a seat of another side leads."""
    own = _seat_side(t, 0)
    others = [by[s][own] for s in by if _seat_side(t, s) != own]
    return float(by[0][own] - np.mean(others)) if 0 in by and others else None


def precision(t: EquityTable) -> dict[str, Any] | None:
    """95% half-widths at 0-0 from the batches of the deals (each solved again; Student t on batches - 1
    degrees of freedom): of each side's P(win) and of the first lead's worth; None when not estimated."""
    b = t.extra.get("batches")
    if not b:
        return None
    q = float(t_quantile(len(b) - 1))
    zero = np.array([x[0] for x in b])
    half = q * zero.std(axis=0, ddof=1) / np.sqrt(len(b))
    worths = [_worth(t, x[1]) for x in b]
    w = None if any(x is None for x in worths) else float(q * np.std(worths, ddof=1) / np.sqrt(len(b)))
    return {"batches": len(b), "win_halfwidth": half.tolist(), "first_lead_worth_halfwidth": w}


def lead_worth(t: EquityTable) -> dict[str, Any]:
    """At 0-0: P(each side wins) when the rules' lead falls to each seat, and, where next_lead names the
    leader, when each seat leads; ``worth``: seat 0's side's equity leading minus the mean not leading."""
    out: dict[str, Any] = {}
    for key, by in (("first_deal", t.first_lead),
                    ("known_lead", {s: t.win([0] * t.sides, s) for s in t.leads if s is not None})):
        w = _worth(t, by) if len(by) >= 2 else None
        if w is not None:
            out[key] = {"win_by_leader": {str(s): by[s].tolist() for s in sorted(by)}, "worth": w}
    return out


def _grid(t: EquityTable, n: int, top: bool = True) -> list[int]:
    """Scores 0, T/n, 2T/n, ... below the target (each on the table's step), and (``top``) the highest below it."""
    high = (t.size - 1) * t.step
    out = sorted({(i * t.target // n) // t.step * t.step for i in range(n)} | ({high} if top else set()))
    return [x for x in out if x <= high]


def compact_rows(t: EquityTable, lead=None, n: int = COMPACT) -> tuple[list[dict], list[P.Col]]:
    """P(side 0 wins) by side 0's score (rows) and the other sides' (columns, each side at that score)."""
    g = _grid(t, n, top=False)
    cols = [P.Col("own", "own\\opp", "text")]
    cols += [P.Col(f"s{b}", str(b), "text") for b in g]
    rows = []
    for a in g:
        row = {"own": str(a)}
        for b in g:
            row[f"s{b}"] = f"{100 * t.win([a] + [b] * (t.sides - 1), lead)[0]:.1f}"
        rows.append(row)
    return rows, cols


def heatmap_text(t: EquityTable, lead=None, n: int = HEAT):
    """The terminal heatmap (rich Text): P(side 0 wins) by side 0's score down and the others' across, each
    cell its tens of percent (0 to 9, + for 95% and over, . under 5%) on a colour, red below 50%, blue above."""
    from rich.text import Text
    g = _grid(t, n)
    width = max(len(str(x)) for x in g)
    other = "others'" if t.sides > 2 else "other's"
    out = Text()
    out.append(f"P({side_name(t, 0)} wins the match): its score down, the {other} across; lead: "
               f"{'the rules' if lead is None else 'seat ' + str(lead)}\n", style="bold")
    for a in g:
        out.append(f"{a:>{width}} ")
        for b in g:
            p = float(t.win([a] + [b] * (t.sides - 1), lead)[0])
            d = min(1.0, abs(p - 0.5) * 2)
            v = int(255 - 200 * d)
            colour = f"rgb({v},{v},255)" if p >= 0.5 else f"rgb(255,{v},{v})"
            mark = "+" if p >= 0.95 else "." if p < 0.05 else str(int(p * 10))
            out.append(f" {mark} ", style=f"black on {colour}")
        out.append("\n")
    out.append(" " * (width + 1) + "".join(f"{b:^3}"[:3] for b in g) + "\n")
    out.append(" " * (width + 1) + "a cell: tens of percent (4 = 40-49%), + 95% and over, . under 5%", style="dim")
    return out


def flat_rows(t: EquityTable, version: int) -> list[dict[str, Any]]:
    """csv / parquet: one row per score and lead, a column per side's score and win."""
    sc = t.scores()
    out = []
    for i in range(len(sc)):
        for li, lead in enumerate(t.leads):
            row: dict[str, Any] = {f"score_{j}": int(sc[i, j]) for j in range(t.sides)}
            row["lead"] = lead
            row.update({f"win_{j}": float(t.values[i, li, j]) for j in range(t.sides)})
            row.update(seed=t.seed, sim_version=version)
            out.append(row)
    return out


def machine(t: EquityTable, version: int) -> dict[str, Any]:
    """The JSON object: players, target, policy, deals, the stamp, how it was computed, and the table."""
    return {"players": t.rules.players, "target": t.target, "policy": t.policy, "deals": t.deals, "seed": t.seed,
            "sim_version": version, "rules": t.rules.preset, "match_end": t.rules.match_end,
            "next_lead": t.rules.next_lead, "teams": t.rules.teams, "sides": t.sides,
            "side_seats": [[s for s in range(t.rules.players) if _seat_side(t, s) == j] for j in range(t.sides)],
            "step": t.step, "method": method(t.rules, t.sides), "deals_by_lead": {str(k): v for k, v in t.counts.items()},
            "lead_worth": lead_worth(t), "precision": precision(t), "table": t.rows()}


def equity_answer(t: EquityTable, version: int, *, flat: bool = False, focus: list | None = None) -> P.Answer:
    """The answer in sentences, the positions asked for (``focus``: scores), the compact table."""
    zero = t.win([0] * t.sides, None if None in t.leads else t.leads[0])
    best = int(np.argmax(zero))
    start = ("before the first deal (its leader chosen by the rules)" if None in t.leads
             else f"before a deal led by seat {t.leads[0]}")
    pr = precision(t)
    hw = pr["win_halfwidth"] if pr else [0.0] * t.sides

    def pm(x: float) -> str:
        return f" ± {100 * x:.1f}" if pr else ""
    chances = ", ".join(f"{side_name(t, j)} {_pct(zero[j])}{pm(hw[j])}" for j in range(t.sides))
    if pr and abs(zero[best] - 1 / t.sides) <= hw[best]:
        who = f"no side is ahead beyond the sampling error ({pr['batches']} batches of the deals, 95%)"
    elif pr:
        who = f"{side_name(t, best)} is ahead"
    else:
        who = f"{side_name(t, best)} has the higher estimate (its precision not estimated)"
    ans = P.Answer([f"At 0-0 {start}, {who}: P(win the match) {chances} "
                    f"({_game(t)}, {t.policy} in every seat, from {t.deals:,} deals)."])
    lw = lead_worth(t)
    if "first_deal" in lw:
        by = lw["first_deal"]["win_by_leader"]
        wh = pr and pr["first_lead_worth_halfwidth"]
        ans.sentences.append(
            f"The lead of a deal is worth {100 * lw['first_deal']['worth']:+.1f}{pm(wh) if wh else ''} points of "
            "match equity at 0-0: "
            f"{side_name(t, 0)} wins {_pct(by['0'][0])} of matches when the rules give seat 0 the first lead, "
            + ", ".join(f"{_pct(by[s][0])} when seat {s} leads" for s in by if s != "0") + ".")
    if "known_lead" in lw:
        ans.sentences.append(
            f"Once next_lead = {t.rules.next_lead} names the leader, leading a deal at 0-0 is worth "
            f"{100 * lw['known_lead']['worth']:+.1f} points of match equity to {side_name(t, 0)}.")
    if focus:
        rows = []
        for sc in focus:
            for lead in t.leads:
                w = t.win(sc, lead)
                rows.append({"scores": "-".join(map(str, sc)), "lead": "rules" if lead is None else f"seat {lead}",
                             **{f"w{j}": _pct(w[j]) for j in range(t.sides)}})
        ans.add(P.Table("The positions asked for: P(each side wins the match)", rows,
                        [P.Col("scores", kind="text"), P.Col("lead", kind="text")]
                        + [P.Col(f"w{j}", side_name(t, j), "text") for j in range(t.sides)]))
    lead = None if None in t.leads else t.leads[0]
    rows, cols = compact_rows(t, lead)
    ans.add(P.Table(f"P({side_name(t, 0)} wins the match), %, by its score (own) and the "
                    f"{'others' if t.sides > 2 else 'other side'}'s (opp) before a deal"
                    + (" led by the rules" if lead is None else f" led by seat {lead}")
                    + ("; every other side at the column's score" if t.sides > 2 else ""), rows, cols))
    ans.notes.append(method(t.rules, t.sides))
    ans.notes.append(f"Scores in steps of {t.step} (every credit seen was a multiple of it); {t.size ** t.sides:,} "
                     f"positions, {len(t.leads)} lead(s) each; deals by lead: "
                     + ", ".join(f"{k}: {v:,}" for k, v in t.counts.items())
                     + f". Seed {t.seed}; behaviour version {version}; solved in {t.seconds:.1f} s. "
                     + (f"±: 95% half-widths from the deals in {pr['batches']} batches, each solved again. " if pr else
                        "No precision estimated (a large table: its batches were not solved again). ")
                     + "The full table: "
                     "--format json|csv|parquet -o FILE.")
    ans.data = flat_rows(t, version) if flat else machine(t, version)
    return ans


__all__ = ["equity_answer", "flat_rows", "heatmap_text", "lead_worth", "machine", "side_name"]

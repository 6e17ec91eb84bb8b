"""simdom run's answer: what the run's summary says (paired policy changes, or who wins how often),
then mean points and win rate per arm and policy (cli/run.py prints it)."""
from __future__ import annotations


def _ci(e, prefix: str) -> dict:
    """An Estimate (value, lo, hi) as the row fields present.Col reads: x, x_lo, x_hi."""
    return {prefix: None} if e is None else {prefix: e.value, f"{prefix}_lo": e.lo, f"{prefix}_hi": e.hi}


def _winners(rows, plan) -> list[str]:
    """Without policy changes to report: who wins how often in each arm (arms with the same policies in
    one sentence), or that every player plays the same policy."""
    from .. import present as P

    fair = 100 / len(plan.policies[0])
    groups: dict[tuple, list[str]] = {}
    best = {}
    # arms with the same policies name the same player in every arm: the one that wins most in most of them
    tops: dict[frozenset, list[str]] = {}
    for arm in plan.arm_names:
        mine = [r for r in rows if r.arm == arm]
        tops.setdefault(frozenset(r.policy for r in mine), []).append(max(mine, key=lambda r: r.win.value).policy)
    subject = {k: max(v, key=v.count) for k, v in tops.items()}
    for arm in plan.arm_names:
        mine = [r for r in rows if r.arm == arm]
        pol = subject[frozenset(r.policy for r in mine)]
        top = next(r for r in mine if r.policy == pol)
        best[arm] = top
        groups.setdefault((top.policy, tuple(sorted({r.policy for r in mine} - {top.policy}))), []).append(arm)
    out = []
    for (pol, rest), arms in groups.items():
        if not rest:
            pts = best[arms[0]].points
            what = ("of the matches by construction and ends a match on"
                    if plan.unit.is_match else "of the deals by construction and scores")
            per = f"points per {plan.unit}"
            out.append(f"Every player plays {pol} in {', '.join(arms)}: each wins {fair:.0f}% {what} "
                       f"{P.ci(pts.value, pts.lo, pts.hi)} {per}"
                       f"{' in ' + arms[0] if len(arms) > 1 else ''}; turn order: simdom seats.")
            continue
        parts = [f"{P.ci(w.value, w.lo, w.hi, pct=True, level=None if i else 95)}"
                 f"{' of the ' + plan.unit.plural if i == 0 else ''}"
                 f" in {a}" for i, a in enumerate(arms) for w in [best[a].win]]
        out.append(f"Against {' and '.join(rest)} (fair share {fair:.0f}%), each {pol} player wins "
                   f"{', '.join(parts)}.")
    return out


def _clause(d, unit: str, who: str, what: str) -> str:
    """A paired difference in words: a gain or a cost where its interval excludes 0, else within noise."""
    from .. import present as P
    if d.lo > 0 or d.hi < 0:
        x, lo, hi = (d.value, d.lo, d.hi) if d.value > 0 else (-d.value, -d.hi, -d.lo)
        return f"{'gains' if d.value > 0 else 'costs'} {who + ' ' if who else ''}{P.ci(x, lo, hi, unit=unit)}"
    owner = f"{who}'s" if who else "its"
    return f"changes {owner} {what} by {P.ci(d.value, d.lo, d.hi, unit=unit, signed=True)}, within noise"


def summary_answer(summary):
    """The run's answer (simdom.present): one sentence per arm whose policy change moves its player's
    points (paired against the first arm with the same rules), or who wins how often; then mean points
    and win rate per arm and policy, and the paired differences."""
    from .. import present as P
    from .summary import summary_rows
    from ..stats.views.words import change_phrase, others

    plan = summary.plan
    found = summary_rows(plan, summary.sums)
    rows = []
    ans = P.Answer()
    match, unit = plan.unit.is_match, plan.unit
    for r in found:
        rows.append({"arm": r.arm, "policy": f"{r.policy} ({','.join(map(str, r.players))})",
                     **_ci(r.points, "points"), **_ci(r.win, "win"), **_ci(r.d_points, "d_points"),
                     **_ci(r.d_win, "d_win")})
        if len(r.players) == plan.players:  # one policy in every seat: its win share is 1/players by construction
            rows[-1]["win_fixed"] = True
        if r.d_points is None:
            continue
        a = plan.arm_names.index(r.arm)
        b = plan.baseline(a)
        if {plan.policies[b][p] for p in r.players} == {r.policy}:
            continue
        who = f"player {r.players[0]}" if len(r.players) == 1 else "players " + ",".join(map(str, r.players))
        subject, ref = change_phrase(plan.policies[b][r.players[0]], r.policy)
        # the currency first: the match won, or the deal won (a deal of Threes is won by the most points);
        # the points beside it for a deal
        dw = type(r.d_win)(100 * r.d_win.value, 100 * r.d_win.lo, 100 * r.d_win.hi)
        what = _clause(dw, "points of match win rate" if match else "percentage points of the deals won",
                       who, "match win rate" if match else "deals won")
        if not match:
            what += " and " + _clause(r.d_points, "points per deal", "", "points")
        vs = others(list(plan.policies[a]), r.players[0]) if len(r.players) == 1 else ""
        ans.sentences.append(f"{subject} {what}{' against ' + vs if vs else ''}, compared with {ref} "
                             f"(arm {r.arm} against {r.baseline}, paired by {unit}).")
    if not ans.sentences:
        ans.sentences = _winners(found, plan)
    cols = [P.Col("arm"), P.Col("policy", "policy (players)"),
            P.Col("points", "final score" if match else "points", "est"),
            P.Col("win", "match win %" if match else "win %", "pct")]
    several = any(r["d_points"] is not None for r in rows)
    if several:
        cols += [P.Col("d_points", "Δ score" if match else "Δ points", "diff"), P.Col("d_win", "Δ win %", "pctdiff")]
    turns = "arrangement(s)" if plan.seating else "rotation(s)"  # rotation = "all": every arrangement of the seats
    title = (f"{plan.deals:,} matches x {plan.rotations} {turns}, {summary.played:,} deals: per match (95% CI)"
             if match else f"{plan.deals:,} deals x {plan.rotations} {turns}: mean per deal (95% CI)")
    ans.add(P.Table(title, rows, cols, 2))
    bases = sorted({r.baseline for r in found}, key=plan.arm_names.index)
    if several:
        ans.notes.append("Δ: paired difference against the first arm with the same rules "
                         f"({', '.join(bases)}) on the same {unit.plural}; n/a: the baseline itself.")
    return ans

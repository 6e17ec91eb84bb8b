"""The report's balance scorecard (issue 41.3): for the results whose arms vary the rules (a sweep), the
scorecard of `simdom balance` (the same sentences and tables) and each key measure plotted per variant,
in the scenario's order, with its 95% interval."""
from __future__ import annotations

from simdom.report import plots
from simdom.report.data import Figure, Section
from simdom.stats.read.folder import ResultFrames

#: the measures plotted per variant: name, axis label, in percent
PLOTTED = (("leader_win", "leader's win rate, %", True), ("balance", "balance, %", True),
           ("lead_changes", "lead changes per deal", False),
           ("decisiveness", "share of the deal before the winner leads for good, %", True),
           ("decision_share", "turns with two or more legal moves, %", True),
           ("points", "points per player per deal", False), ("blocked", "blocked deals, %", True))


def rules_study(r: ResultFrames) -> bool:
    """Single-deal results with two or more arms whose rules differ (a rule sweep)."""
    import json
    return not r.unit.is_match and len({json.dumps(a.get("rules") or {}, sort_keys=True) for a in r.arms}) > 1


#: measure columns per scorecard table in the report (the variant column repeated in each)
PER_TABLE = 5


def _split(t):
    from simdom import present as P
    keys, cols = t.cols[:t.keys], t.cols[t.keys:]
    parts = [cols[i:i + PER_TABLE] for i in range(0, len(cols), PER_TABLE)]
    return [P.Table(f"{t.title} ({j + 1}/{len(parts)})", t.rows, keys + c, t.keys) for j, c in enumerate(parts)]


def scorecard_section(results: list[ResultFrames]) -> Section | None:
    """The section, or None when no results vary the rules (a section with nothing to show is left out)."""
    from simdom.stats.tables.balance import THRESHOLD, scorecard
    from simdom.stats.views.balance import balance_answer, short_names

    studies = [scorecard(r) for r in results if rules_study(r)]
    if not studies:
        return None
    sec = Section("Balance scorecard", [
        "Each rule variant against the baseline (the first arm) on every balance measure, paired on the same "
        "deals and rotations; * marks a difference significant after Holm's adjustment and larger than 1 "
        "percentage point (a share) or 1% of the baseline (a mean)."])
    ans = balance_answer(studies, THRESHOLD)
    first, *rest = ans.tables
    ans.tables = _split(first) + rest  # a page is narrower than the terminal's folded tables: a few measures each
    sec.take(ans)
    from simdom.report.sweepplot import sweep_plot
    sec.figures.append(Figure("sweep", "Each key measure against each swept parameter, one line per player count, "
                              "95% intervals, the baseline ringed (simdom balance --plot)", sweep_plot(studies)))
    label, header = short_names([a["name"] for s in studies for a in s.arms])
    for s in studies:
        names = [a["name"] for a in s.arms]
        panels = []
        for m, axis, pct in PLOTTED:
            if m not in s.measures[names[0]]:
                continue
            k = 100.0 if pct else 1.0
            e = [s.measures[n][m] for n in names]
            panels.append((axis, [label[n] for n in names], [k * x["value"] for x in e], [k * x["low"] for x in e],
                           [k * x["high"] for x in e]))
        sec.figures.append(Figure(f"scorecard_{len(sec.figures)}", f"{s.name}: each measure per variant of "
                                  f"{header}, 95% intervals", plots.dot_panels(
                                      panels, title=f"{s.name}: the measures per variant ({header})",
                                      xlabel="estimate (95% interval)")))
    return sec

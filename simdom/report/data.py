"""The balance report's content model: sections of sentences, tables and figures, independent of the format.

The sentences and tables are those of the commands (simdom.stats.views.stats, simdom.stats.views.pairs), so the report
and the terminal say the same thing. Nothing is pooled across games, rule sets or policies: every
figure has one series or panel per arm (and policy), and Threes is compared with Fives arm against arm.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from simdom import present as P
from simdom.report import plots
from simdom.stats.read.folder import ResultFrames


@dataclass
class Figure:
    name: str
    caption: str
    png: bytes


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[P.Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)  #: the section's answers in sentences (also in paragraphs)
    drawings: list[tuple[str, str]] = field(default_factory=list)  #: (inline SVG made by simdom, caption): boards

    def take(self, ans: P.Answer, prefix: str = "") -> "Section":
        said = [s if s.startswith(prefix) else prefix + s for s in ans.sentences]  # never "ts: ts: ..."
        self.paragraphs += said
        self.answers += said
        self.tables += [P.Table(prefix + t.title, t.rows, t.cols, t.keys) for t in ans.tables]
        self.notes += [n for n in ans.notes if n not in self.notes]
        return self


def overrides(arm: dict, players: int) -> str:
    """An arm's rules where they differ from its preset's (``min_ends=2, first_double_bonus=[]``), or ``-``."""
    import json

    from simdom.rules import RulesError, preset
    try:
        base = preset(str(arm.get("preset")), players=players).to_dict()
    except RulesError:
        return "-"
    rules = arm.get("rules") or {}
    diff = [f"{k}={json.dumps(v, separators=(',', ':')) if isinstance(v, (list, dict)) else v}"
            for k, v in rules.items() if k in base and base[k] != v]
    return ", ".join(diff) or "-"


def overview(results: list[ResultFrames]) -> Section:
    rows = [{"results": r.name, "arm": a["name"], "preset": a.get("preset") or "", "players": r.players,
             "deals": r.n_deals, "rotations": r.rotations, "policies": ", ".join(a["policies"]),
             "overrides": overrides(a, r.players)}
            for r in results for a in r.arms]
    cols = [P.Col("results"), P.Col("arm"), P.Col("preset"), P.Col("players", kind="int"),
            P.Col("deals", kind="int"), P.Col("rotations", kind="int"), P.Col("policies"),
            P.Col("overrides", "rule overrides")]
    return Section("Overview", [
        "Every estimate carries a 95% interval clustered by deal: all the rotations and arms of one deal are one "
        "cluster (blocks of consecutive deals in large runs), so a deal replayed in several rotations or arms "
        "counts once. Arms of one run play the same deals, so comparisons between them are paired. Nothing is "
        "pooled across games, rule sets or policies. Win rates share ties (1/k each); a fair share is "
        "1/players. Families of tests (a K sweep, a policy ladder, a preset sweep, the arms of a seat test) "
        "carry Holm-adjusted p-values."], [P.Table("Results folders and arms", rows, cols, 2)])


def arm_policy_label(arm: str, policy: str) -> str:
    return f"{arm}: {policy}"


def fig(name: str, caption: str, png: bytes) -> Figure:
    return Figure(name, caption, png)


__all__ = ["Figure", "Section", "overview", "plots", "pl", "fig", "arm_policy_label"]

"""`simdom stats` and `simdom compare` on match-mode results (docs/rules.md 12), called by simdom.cli.stats
when a folder plays matches; what they say is simdom.stats.matches.views."""
from __future__ import annotations

from pathlib import Path


def stats_matches(results, by, table, bins, fmt: str, out: Path | None) -> None:
    """`simdom stats` on match-mode folders: sentences first, then the tables."""
    from simdom import present as P
    from simdom.stats.matches.views import stats_answer
    from simdom.stats.tables.stats import InputError
    single = [str(r.path) for r in results if not r.unit.is_match]
    if single:
        raise InputError(f"{single[0]}: single deals, but the other folders hold matches; give folders of one kind "
                         "(match results have target > 0)")
    answers = [stats_answer(r, by, table, bins, fmt in ("table", "md")) for r in results]
    ans = answers[0]
    for other in answers[1:]:
        ans.sentences += other.sentences
        ans.tables += other.tables
        ans.data = (ans.data or []) + (other.data or [])
    P.emit(ans, fmt, out)


def compare_matches_cmd(a, b, strong: str | None, fmt: str, out: Path | None) -> None:
    from simdom import present as P
    from simdom.stats.matches.views import compare_answer
    P.emit(compare_answer(a, b, strong), fmt, out)

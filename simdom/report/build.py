"""The balance report's sections in their order: overview, match-ups, seats, points, moves, doubles,
decisions, versus and the match sections (each built by its module from the results)."""
from __future__ import annotations

from simdom.report.data import Section, overview
from simdom.report.decisions import decisions
from simdom.report.matches import match_sections
from simdom.report.sections import doubles, matchups, moves, points, seats, versus
from simdom.stats.read.folder import Results


def build_sections(results: list[Results]) -> list[Section]:
    out = [matchups(results), seats(results), points(results), moves(results), doubles(results)]
    d = decisions(results)
    if d is not None:
        out.append(d)
    v = versus(results)
    if v is not None:
        out.append(v)
    matches = match_sections(results)
    if all(r.unit == "match" for r in results):  # a match study answers first what matches answer
        return [overview(results), *matches, *out]
    return [overview(results), *out, *matches]

"""The balance report's sections in their order: overview, the balance scorecard (a rule study), match-ups,
seats, points, moves, doubles, decisions, versus, luck and skill and the match sections (each built by its
module from the results; a section with nothing to show is left out)."""
from __future__ import annotations

from simdom.report.balance import scorecard_section
from simdom.report.data import Section, overview
from simdom.report.decisions import decisions
from simdom.report.matches import match_sections
from simdom.report.skill import luck_and_skill
from simdom.report.sections import doubles, matchups, moves, points, seats, versus
from simdom.stats.read.folder import Results


def build_sections(results: list[Results], skill: list[tuple[str, dict]] = (),
                   ladder: list[tuple[str, dict]] = ()) -> list[Section]:
    """The sections; ``skill`` and ``ladder``: (name, JSON data) of `simdom skill` and `simdom ladder`
    files, answered in the luck-and-skill section (with the seat and lead under strong play)."""
    card = scorecard_section(results)  # a rule study answers first what its variants change
    out = ([card] if card is not None else []) + [matchups(results), seats(results), points(results)]
    mv = moves(results)
    if mv is not None:
        out.append(mv)
    out.append(doubles(results))
    d = decisions(results)
    if d is not None:
        out.append(d)
    v = versus(results)
    if v is not None:
        out.append(v)
    ls = luck_and_skill(results, list(skill), list(ladder))
    if ls is not None:
        out.append(ls)
    matches = match_sections(results)
    if all(r.unit.is_match for r in results):  # a match study answers first what matches answer
        return [overview(results), *matches, *out]
    return [overview(results), *out, *matches]

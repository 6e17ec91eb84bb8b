"""The balance report's sections in their order: overview, the balance scorecard (a rule study), match-ups,
seats, points, moves, doubles, decisions, versus, luck and skill and the match sections (each built by its
module from the results; a section with nothing to show is left out)."""
from __future__ import annotations

from typing import Callable

from simdom.report.balance import scorecard_section
from simdom.report.data import Section, overview
from simdom.report.decisions import decisions
from simdom.report.matches import match_sections
from simdom.report.skill import luck_and_skill
from simdom.report.sections import doubles, matchups, moves, points, seats, versus
from simdom.stats.read.folder import ResultFrames


def build_sections(results: list[ResultFrames], skill: list[tuple[str, dict]] = (),
                   ladder: list[tuple[str, dict]] = (),
                   progress: "Callable[[int, int], None] | None" = None) -> list[Section]:
    """The sections; ``skill`` and ``ladder``: (name, JSON data) of `simdom skill` and `simdom ladder`
    files, answered in the luck-and-skill section (with the seat and lead under strong play).
    ``progress(done, total)``: after each section is built (a report takes tens of seconds)."""
    steps = [lambda: scorecard_section(results), lambda: matchups(results), lambda: seats(results),
             lambda: points(results), lambda: moves(results), lambda: doubles(results), lambda: decisions(results),
             lambda: versus(results), lambda: luck_and_skill(results, list(skill), list(ladder)),
             lambda: match_sections(results), lambda: overview(results)]
    built = []
    for i, step in enumerate(steps):
        built.append(step())
        if progress is not None:
            progress(i + 1, len(steps))
    *parts, matches, first = built  # a section that does not apply is None (the scorecard: a rule study)
    out = [x for x in parts if x is not None]
    if all(r.unit.is_match for r in results):  # a match study answers first what matches answer
        return [first, *matches, *out]
    return [first, *out, *matches]

"""A review as report sections: ``simdom review --format html`` writes one self-contained HTML page (the
report's own renderer, simdom.report.html) with the same answer and tables as the text review.

A deal: one section (the answer, the players, the decisions with their marks, the luck of each chance
event). A match: the match's section (the answer, the players over the match, the hands, the marked
decisions), then one section per hand, that hand's review in full, titled with the scores before it.
"""
from __future__ import annotations

from simdom.report.data import Section


def deal_sections(r) -> list[Section]:
    """The sections of a deal's review (simdom.analyze.review.Review)."""
    from simdom.analyze.review import answer
    return [Section(f"Review of {r.deal.label}").take(answer(r))]


def match_sections(m) -> list[Section]:
    """The sections of a match's review (simdom.analyze.matchreview.MatchReview): the match, then every hand."""
    from simdom.analyze.matchreview import answer_match
    from simdom.analyze.review import answer
    out = [Section(f"Match {m.match}").take(answer_match(m))]
    for x in m.hands:
        before = "-".join(map(str, x.before))
        sec = Section(f"Hand {x.hand} (scores before {before})")
        if x.review is None:
            sec.paragraphs.append("No placement to review in this hand.")
        else:
            sec.take(answer(x.review))
        out.append(sec)
    return out


def review_html(sections: list[Section], title: str) -> str:
    """One self-contained HTML page of these sections (no scripts, no network, prints on A4)."""
    from simdom.report.html import render_html
    return render_html(sections, title, by="simdom review")

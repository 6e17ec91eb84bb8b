"""A review as report sections: ``simdom review --format html`` writes one self-contained HTML page (the
report's own renderer, simdom.report.html) with the same answer and tables as the text review.

A deal: one section (the answer, the players, the decisions with their marks, the luck of each chance
event). A match: the match's section (the answer, the players over the match, the hands, the marked
decisions), then one section per hand, that hand's review in full, titled with the scores before it.
"""
from __future__ import annotations

from simdom.report.data import Section


def deal_sections(page: dict) -> list[Section]:
    """The sections of a deal's review: ``page`` {"label", "answer"} (the answer of simdom.analyze.review)."""
    return [Section(f"Review of {page['label']}").take(page["answer"])]


def match_sections(page: dict) -> list[Section]:
    """The sections of a match's review: ``page`` {"match", "answer", "hands": [{"hand", "before", "answer"}]}
    (the answers of simdom.analyze.matchreview and of each hand's review, None for a hand with no
    placement): the match, then every hand."""
    out = [Section(f"Match {page['match']}").take(page["answer"])]
    for x in page["hands"]:
        before = "-".join(map(str, x["before"]))
        sec = Section(f"Hand {x['hand']} (scores before {before})")
        if x["answer"] is None:
            sec.paragraphs.append("No placement to review in this hand.")
        else:
            sec.take(x["answer"])
        out.append(sec)
    return out


def review_html(sections: list[Section], title: str) -> str:
    """One self-contained HTML page of these sections (no scripts, no network, prints on A4)."""
    from simdom.report.html import render_html
    return render_html(sections, title, by="simdom review")

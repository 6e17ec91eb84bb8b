"""A review as report sections: ``simdom review --format html`` writes one self-contained HTML page (the
report's own renderer, simdom.report.html) with the same answer and tables as the text review.

A deal: one section (the answer, the players, the decisions with their marks, the luck of each chance
event). A match: the match's section (the answer, the players over the match, the hands, the marked
decisions), then one section per hand, that hand's review in full, titled with the scores before it.
"""
from __future__ import annotations

from simdom.report.data import Section


def deal_sections(page: dict) -> list[Section]:
    """The sections of a deal's review: ``page`` {"label", "answer", "boards"} (the answer of
    simdom.analyze.review; the board before every move, simdom/board.py, as (svg, caption) pairs)."""
    out = [Section(f"Review of {page['label']}").take(page["answer"])]
    if page.get("boards"):
        sec = Section("The board at every move")
        sec.paragraphs.append("The layout before each placement (the last tile placed is shaded), then after the "
                              "last one: the line, the spinner with its four arms, every open end with its value, "
                              "and the counted ends' sum.")
        sec.drawings += page["boards"]
        out.append(sec)
    return out


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


def replay_html(title: str, headline: str, record: dict, steps: list, totals: list[dict],
                boards: list[tuple[str, str]]) -> str:
    """``simdom replay ... -o replay.html``: one self-contained page of a replayed deal (its answer, the hands,
    the moves, the totals; simdom.deal.replay's steps) with the board after every move."""
    from simdom import present as P
    from simdom.report.html import render_html
    sec = Section(title)
    sec.paragraphs.append(headline)
    hands = [{"seat": f"{s}{' (leads)' if s == record['first'] else ''}", "hand": " ".join(h)}
             for s, h in enumerate(record["hands"])]
    sec.tables.append(P.Table("Hands", hands, [P.Col("seat"), P.Col("hand")]))
    rows = []
    for x in steps:
        what = {"play": f"{x.tile} on {x.end}", "draw": f"draws {x.tile}"}.get(x.act, "passes")
        rows.append({"move": "" if x.move is None else x.move, "seat": x.seat, "action": what, "ends": x.ends,
                     "counted": x.counted, "points": x.points or "", "bonus": x.bonus or ""})
    sec.tables.append(P.Table("Moves", rows, [P.Col("move", align="right"), P.Col("seat", align="right"),
                                             P.Col("action"), P.Col("ends", "ends after"), P.Col("counted"),
                                             P.Col("points", align="right"), P.Col("bonus", align="right")]))
    sec.tables.append(P.Table("Totals", totals, [P.Col(k, align="right") for k in totals[0]] if totals else []))
    board = Section("The board after every move")
    board.paragraphs.append("The layout after each placement (the tile just placed is shaded): the line, the "
                            "spinner with its four arms, every open end with its value, the counted ends' sum.")
    board.drawings += boards
    return render_html([sec, board], title, by="simdom replay")

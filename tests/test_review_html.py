"""simdom review --format html (simdom/report/review.py): the review as a self-contained report page, with the
answer, the players, one row per decision with its mark, and the luck; a match's page has a section per hand.
Written whole (a temporary file renamed over the target), never over a file without --overwrite."""
from __future__ import annotations

import html
import json
import os
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

from simdom.analyze.position import from_script
from simdom.analyze.review import review, summary
from simdom.cli import app

SEED_GAME = "scenarios/seed-game.deal.toml"
FAST = ["--rollouts", 60, "--luck-rollouts", 20, "--seed", 3]


def run(*args):
    return CliRunner().invoke(app, [*map(str, args)])


class Page(HTMLParser):
    """The page's sections (h2 titles, paragraphs) and tables: caption -> header rows and body rows of cells."""

    def __init__(self, text: str):
        super().__init__()
        self.sections: list[dict] = []
        self.outside = 0           # scripts, and links or images from the network
        self._open: list[str] = []
        self._part = "body"
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self._open.append(tag)
        if tag == "script" or any(k in ("src", "href") and (v or "").startswith("http") for k, v in attrs):
            self.outside += 1
        if tag == "section":
            self.sections.append({"title": "", "paragraphs": [], "tables": {}})
        elif tag == "p" and self.sections:
            self.sections[-1]["paragraphs"].append("")
        elif tag == "table":
            self._table = {"caption": "", "head": [], "rows": []}
        elif tag in ("thead", "tbody"):
            self._part = tag
        elif tag == "tr":
            self._table["head" if self._part == "thead" else "rows"].append([])
        elif tag in ("td", "th"):
            self._table["head" if self._part == "thead" else "rows"][-1].append("")

    def handle_endtag(self, tag):
        if tag == "table":
            self.sections[-1]["tables"][self._table["caption"]] = self._table
        while self._open and self._open.pop() != tag:
            pass

    def handle_data(self, data):
        here = self._open[-1] if self._open else None
        if here in ("td", "th"):
            self._table["head" if self._part == "thead" else "rows"][-1][-1] += data
        elif here == "caption":
            self._table["caption"] += data
        elif here == "h2":
            self.sections[-1]["title"] += data
        elif here == "p" and self.sections:
            self.sections[-1]["paragraphs"][-1] += data


def table(section: dict, starts: str) -> dict:
    (t,) = [v for k, v in section["tables"].items() if k.startswith(starts)]
    return t


def test_a_deal_review_page_has_the_answer_and_one_row_per_decision(tmp_path):
    out = tmp_path / "review.html"
    res = run("review", "--script", SEED_GAME, *FAST, "--format", "html", "-o", out)
    assert res.exit_code == 0, res.output
    assert "Wrote the review of The seed game" in res.output
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "by simdom review." in text
    r = review(from_script(SEED_GAME), rollouts=60, luck_rollouts=20, seed=3)  # the same review, in Python
    page = Page(text)
    assert page.outside == 0 and len(page.sections) == 2
    sec, board = page.sections
    assert board["title"] == "The board at every move"   # simdom/board.py: before each move, after the last
    assert text.count("<svg") == len(r.decisions) + 1
    assert sec["title"].startswith("Review of The seed game")
    assert sec["paragraphs"][:len(summary(r))] == summary(r)  # the answer first, sentence by sentence
    assert html.escape(summary(r)[0]) in text
    dec = table(sec, "Decisions")
    assert dec["head"][0][:3] == ["move", "player", "played"] and dec["head"][0][-1] == "mark"
    assert len(dec["rows"]) == len(r.decisions) == 10
    assert [int(row[0]) for row in dec["rows"]] == [d.move for d in r.decisions]
    assert [row[-1] for row in dec["rows"]] == [d.mark or "" for d in r.decisions]
    assert any(d.mark for d in r.decisions)
    assert [row[0] for row in table(sec, "Players")["rows"]] == ["Alexander", "Maria", "Nikita", "Tatiana"]
    assert [row[0] for row in table(sec, "Luck")["rows"]] == [x.event for x in r.luck]
    # without -o the page goes to standard output, the same page but for its time stamp
    res = run("review", "--script", SEED_GAME, *FAST, "-f", "html")
    assert res.exit_code == 0 and Page(res.output).sections == page.sections


def test_the_page_is_not_written_over_a_file_without_overwrite_and_is_replaced_whole(tmp_path):
    out = tmp_path / "review.html"
    out.write_text("mine")
    res = run("review", "--script", SEED_GAME, *FAST, "-f", "html", "-o", out)
    assert res.exit_code == 2 and "exists; allowed: a new file name, or --overwrite" in res.output
    assert len(res.output.strip().splitlines()) == 1 and out.read_text() == "mine"
    link = tmp_path / "old.html"
    os.link(out, link)  # a second name of the old file: an in-place write would change it too
    res = run("review", "--script", SEED_GAME, *FAST, "-f", "html", "-o", out, "--overwrite")
    assert res.exit_code == 0, res.output
    assert out.read_text().startswith("<!DOCTYPE html>") and link.read_text() == "mine"  # a new file renamed over it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html", "review.html"]  # no temporary left
    res = run("review", "--script", SEED_GAME, *FAST, "-f", "xml")
    assert res.exit_code == 2 and "--format 'xml'; allowed: text, table, json, md, csv, html" in res.output


@pytest.fixture(scope="module")
def match_trace(tmp_path_factory):
    t = tmp_path_factory.mktemp("match") / "m.jsonl"
    made = run("trace", "-r", "threes", "-n", 3, "--set", "target=40", "--matches", 1, "--seed", 5, "-o", t)
    assert made.exit_code == 0, made.output
    return t


def test_a_match_review_page_has_the_match_then_a_section_per_hand(match_trace, tmp_path):
    out = tmp_path / "match.html"
    res = run("review", "--trace", match_trace, "--match", 0, *FAST, "--names", "Ann,Bob,Cy", "-f", "html", "-o", out)
    assert res.exit_code == 0, res.output
    j = json.loads(run("review", "--trace", match_trace, "--match", 0, *FAST, "--names", "Ann,Bob,Cy", "-f",
                       "json").output)
    page = Page(out.read_text())
    assert len(page.sections) == 1 + len(j["hands"]) >= 2
    first = page.sections[0]
    assert first["title"] == "Match 0" and first["paragraphs"][0].startswith("Match 0 (to 40; ")
    assert len(table(first, "Hands")["rows"]) == len(j["hands"])
    for sec, h in zip(page.sections[1:], j["hands"]):
        assert sec["title"] == f"Hand {h['hand']} (scores before {'-'.join(map(str, h['before']))})"
        rows = table(sec, "Decisions")["rows"]
        assert [int(row[0]) for row in rows] == [d["move"] for d in h["review"]["decisions"]]
        assert [row[-1] for row in rows] == [d["mark"] or "" for d in h["review"]["decisions"]]
        assert [row[0] for row in table(sec, "Players")["rows"]] == ["Ann", "Bob", "Cy"]

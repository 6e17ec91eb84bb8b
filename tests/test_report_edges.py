"""`simdom report` at its edges (issue 22 item 6), on tiny real runs: a single-deal study and a match study
are never compared as if alike; a match study's report opens with what it answers; log-scale plots mark
zeros; heatmap cells show their count; the points histogram follows the game's points lattice; the seat
plots do not magnify noise."""
from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from simdom.cli import app

SINGLE = """
name = "ts"
players = 2
policies = "greedy"
deals = 600
seed = 4

[[arms]]
name = "threes"
rules = { preset = "threes" }
"""
MATCH = """
name = "fm"
players = 2
policies = "greedy"
deals = 120
seed = 4

[[arms]]
name = "100"
rules = { preset = "fives", target = 100 }
"""


def simdom(*args) -> str:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("edges")
    out = {}
    for name, text in (("ts", SINGLE), ("fm", MATCH)):
        (root / f"{name}.toml").write_text(text)
        simdom("run", root / f"{name}.toml", "-o", root / name)
        out[name] = root / name
    return out


def sections(md: str) -> dict[str, str]:
    parts = re.split(r"^## (.+)$", md, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_single_deals_and_deals_inside_matches_are_not_compared(runs, tmp_path):
    out = tmp_path / "r.md"
    said = " ".join(simdom("report", runs["ts"], runs["fm"], "-o", out).split())
    md = out.read_text()
    versus = " ".join(sections(md)["Threes against Fives"].split())
    assert versus.startswith("Not compared, single deals against deals inside matches: ts:threes with fm:100.")
    assert "A = " not in versus and "leader edge" not in versus and "| measure |" not in versus
    assert "leader edge: A" not in said and "ts: ts:" not in md


def test_a_match_study_opens_with_match_length_first_lead_and_equity(runs, tmp_path):
    out = tmp_path / "m.md"
    said = " ".join(simdom("report", runs["fm"], "-o", out).split())
    assert said.startswith("100: a match to 100 (deal_end, next lead rules) lasts ")
    md = out.read_text()
    heads = list(sections(md))
    assert heads[:2] == ["Overview", "Matches: how long a match lasts, what the first lead is worth, who wins"]
    first = " ".join(sections(md)[heads[1]].split())
    assert first.startswith("100: a match to 100") and "Leading the first deal is worth" in first
    assert "P(win the match) %, by own score (rows)" in first and "| own \\ opp | 0 | 10 | 20 |" in first
    assert first.index("Leading the first deal") < first.index("P(win the match) %")
    assert "by construction" not in md

"""`simdom report`: a self-contained HTML balance report and its Markdown twin."""
import re

import pytest
import typer
from typer.testing import CliRunner

from simdom.cli.stats import register
from synthdata import mix_spec, sweep_spec, write

SECTIONS = ["Seat advantage", "First-player advantage", "Policy match-ups", "Distribution of points",
            "Scoring rate by move", "Double timing", "Threes against Fives"]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("rep")
    return [write(root / "threes", sweep_spec(seed=7, deals=400, moves=True)),
            write(root / "fives", mix_spec(seed=8, deals=400, preset="fives"))]


def run(*args):
    app = typer.Typer()
    register(app)
    return CliRunner().invoke(app, [str(a) for a in args])


def test_html_report_is_self_contained_with_plots_and_sections(folders, tmp_path):
    out = tmp_path / "report.html"
    r = run("report", *folders, "-o", out)
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert not re.search(r"""(src|href)\s*=\s*['"]?\s*(https?:)?//""", text), "external resource"
    assert "<script" not in text and "<link" not in text
    images = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", text)
    assert len(images) >= 8
    import base64
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    for s in SECTIONS:
        assert f"<h2>{s}</h2>" in text, s
    assert "chi-square" in text and "best K = 9" in text


def test_markdown_twin_writes_images_next_to_it(folders, tmp_path):
    out = tmp_path / "report.md"
    r = run("report", *folders, "-o", out)
    assert r.exit_code == 0, r.output
    text = out.read_text()
    for s in SECTIONS:
        assert f"## {s}" in text
    links = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", text)
    assert len(links) >= 8 and all((tmp_path / link).is_file() for link in links)
    assert "| metric | a |" in text


def test_report_refuses_to_overwrite(folders, tmp_path):
    out = tmp_path / "report.html"
    out.write_text("old")
    r = run("report", folders[1], "-o", out)
    assert r.exit_code == 2 and out.read_text() == "old"

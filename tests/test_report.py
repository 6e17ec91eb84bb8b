"""`simdom report`: a self-contained HTML balance report and its Markdown twin."""
import re

import pytest
import typer
from typer.testing import CliRunner

from simdom.cli.stats import register
from synthdata import mix_spec, sweep_spec, write

SECTIONS = ["Overview", "Policy match-ups", "Seat and turn order", "Distribution of points", "Scoring rate by move",
            "Double timing", "Threes against Fives"]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("rep")
    return [write(root / "sweep", sweep_spec(seed=7, deals=400, moves=True)),
            write(root / "threes", mix_spec(seed=9, deals=400)),
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
    assert "Wald" in text and "Best K for player 0 by the deals won: 9" in text and "Holm" in text
    # Threes against Fives: the arms with the same policies, across folders (the sweep has no Fives twin)
    assert "A = threes-mix:mix, B = fives-mix:mix" in text and "A = sweep" not in text
    # the command answers first: the report's first answer, then the file and its sections
    lines = " ".join(r.output.split()).split(f" Wrote the report {out}: ")
    assert len(lines) == 2 and lines[0].startswith("sweep: Holding the first double until K=5")
    assert lines[0] in " ".join(text.split())
    assert lines[1] == f"{len(SECTIONS)} sections ({', '.join(SECTIONS)})."


def test_markdown_twin_writes_images_next_to_it(folders, tmp_path):
    out = tmp_path / "report.md"
    r = run("report", *folders, "-o", out)
    assert r.exit_code == 0, r.output
    text = out.read_text()
    for s in SECTIONS:
        assert f"## {s}" in text
    links = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", text)
    assert len(links) >= 8 and all((tmp_path / link).is_file() for link in links)
    assert "| measure | A | B | A - B (95% CI) |" in text


def test_report_refuses_to_overwrite(folders, tmp_path):
    out = tmp_path / "report.html"
    out.write_text("old")
    r = run("report", folders[1], "-o", out)
    assert r.exit_code == 2 and out.read_text() == "old"


def test_one_folder_holding_both_games_compares_its_arms_never_itself(tmp_path):
    from simdom.report.sections import versus_pairs
    from simdom.stats.read.folder import open_frames
    from simdom.testing import SynthArm, SynthSpec, write_results

    pols = ("greedy", "random", "greedy", "random")
    arms = tuple(SynthArm(p, pols, (30, 25, 30, 25), (0.3, 0.2, 0.3, 0.2), preset=p) for p in ("threes", "fives"))
    folder = write_results(tmp_path / "both", SynthSpec(arms=arms, deals=300, scenario_name="both"))
    pairs = versus_pairs([open_frames(folder)])
    assert [(a.name, b.name) for a, b in pairs] == [("both:threes", "both:fives")]
    out = tmp_path / "r.html"
    assert run("report", folder, "-o", out).exit_code == 0
    text = out.read_text()
    assert "A = both:threes, B = both:fives" in text and "both:threes against both:fives" in text

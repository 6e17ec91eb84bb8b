"""`simdom report` opened in a real headless Chromium (the Debian package, installed by `make venv`):
no console errors, every image loads, nothing overflows sideways at 1280 px, and the A4 print holds
every section with nothing cut."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from simdom.cli.stats import register
from synthdata import mix_spec, sweep_spec, write

SECTIONS = ["Overview", "Policy match-ups", "Seat and turn order", "Distribution of points", "Scoring rate by move",
            "Double timing", "Threes against Fives"]
A4_PRINTABLE_PX = 703  # 210 mm - 2 x 12 mm margins, at 96 px per inch


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    folders = [write(root / "sweep", sweep_spec(seed=7, deals=400, moves=True)),
               write(root / "threes", mix_spec(seed=9, deals=400)),
               write(root / "fives", mix_spec(seed=8, deals=400, preset="fives"))]
    app = typer.Typer()
    register(app)
    out = root / "report.html"
    r = CliRunner().invoke(app, ["report", *map(str, folders), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _open(browser, report: Path, width: int, errors: list[str]):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    page.goto(report.as_uri(), wait_until="load")
    return page


@pytest.mark.slow
def test_report_in_chromium_has_no_errors_every_image_loads_and_nothing_overflows_at_1280(browser, report):
    errors: list[str] = []
    page = _open(browser, report, 1280, errors)
    images = page.evaluate("Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.alt])")
    assert len(images) >= 10 and all(done and width > 0 for done, width, _ in images), images
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    wide = page.evaluate("Array.from(document.querySelectorAll('.tw')).filter(d => d.scrollWidth > d.clientWidth)"
                         ".map(d => d.querySelector('caption').textContent)")
    assert wide == [], f"tables that scroll sideways at 1280 px: {wide}"
    heads = page.evaluate("Array.from(document.querySelectorAll('h2')).map(h => h.textContent)")
    assert heads == SECTIONS
    assert errors == []


@pytest.mark.slow
def test_report_prints_on_a4_with_every_section_and_nothing_cut(browser, report, tmp_path):
    from pypdf import PdfReader

    errors: list[str] = []
    page = _open(browser, report, A4_PRINTABLE_PX, errors)
    page.emulate_media(media="print")
    cut = page.evaluate("""() => {
        const w = document.body.clientWidth;
        const out = [];
        for (const el of document.querySelectorAll('table, img, figure, p')) {
            const r = el.getBoundingClientRect();
            if (r.right > w + 1 || el.scrollWidth > el.clientWidth + 1) out.push(el.tagName + ' ' + (el.alt || el.textContent.slice(0, 40)));
        }
        return out;
    }""")
    assert cut == [], f"cut in print at A4 width: {cut}"
    pdf = page.pdf(format="A4", print_background=True)
    (tmp_path / "report.pdf").write_bytes(pdf)
    reader = PdfReader(io.BytesIO(pdf))
    text = " ".join(p.extract_text() for p in reader.pages)
    flat = " ".join(text.split())
    missing = [s for s in SECTIONS if s not in flat]
    assert not missing, f"sections missing from the PDF: {missing}"
    assert len(reader.pages) >= 5 and errors == []

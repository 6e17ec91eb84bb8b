"""The docs (issue 21.4): a README of at most 250 lines that points into docs/, one page per topic, the
project's own rule book as docs/rules.md (which the code cites), and a site that `mkdocs build --strict`
builds with no warning (every page in the nav, every link and anchor found). tests/test_readme_examples.py
runs the pages' commands."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: the shared rule book: beside the checkout (../shared), or the workplace's (/work/shared), as
#: tests/test_aggregates.py finds the C program
SHARED_RULES = next((p for p in (ROOT.parent / "shared" / "RULES.md", Path("/work/shared/RULES.md")) if p.is_file()),
                    ROOT.parent / "shared" / "RULES.md")


def nav_pages() -> list[str]:
    """The pages of mkdocs.yml's nav, in order."""
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    return [page for entry in nav for page in entry.values()]


def test_the_readme_is_short_and_opens_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    first_block = re.search(r"```sh\n(.*?)```", text, flags=re.S).group(1)
    assert [line.split()[:2] for line in first_block.splitlines()] == [["make", "run"], ["make", "test"]]


def test_the_readme_links_every_docs_page_and_every_link_resolves():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert links
    for target in links:
        assert (ROOT / target).exists(), f"README.md links {target}, which is not there"
    linked = {Path(t).name for t in links if t.startswith("docs/")}
    assert {p.name for p in DOCS.glob("*.md")} - {"index.md"} <= linked


def test_every_docs_page_is_in_the_nav_once():
    pages = nav_pages()
    assert len(pages) == len(set(pages))
    assert sorted(pages) == sorted(p.name for p in DOCS.glob("*.md"))


def test_the_rule_book_page_is_the_shared_rule_book():
    assert SHARED_RULES.is_file(), f"the shared rule book {SHARED_RULES} is not beside the checkout"
    page = (DOCS / "rules.md").read_text(encoding="utf-8")
    book = SHARED_RULES.read_text(encoding="utf-8")
    title, body = book.split("\n", 1)
    assert page.startswith(title + "\n") and body.strip() in page, "docs/rules.md differs from shared/RULES.md"
    assert "shared/RULES.md" in page.split(body.strip()[:40])[0]  # the note at the top says where it comes from
    assert "(decisions.md)" in page.split(body.strip()[-40:])[1]  # and the decisions page follows it


def test_every_citation_names_docs_rules_md():
    """Citations of the rule book name the project's own, docs/rules.md."""
    files = [p for sub in ("simdom", "tests", "bench", "scenarios", "docs") for p in (ROOT / sub).rglob("*")
             if p.suffix in (".py", ".toml", ".md")]
    files = [p for p in files if p != Path(__file__).resolve()] + [README, ROOT / "Makefile", ROOT / "mkdocs.yml"]
    assert sum("docs/rules.md" in p.read_text(encoding="utf-8") for p in files) > 40   # the citations are there
    citing = [str(p.relative_to(ROOT)) for p in files
              if re.search(r"(?<![/\w])RULES\.md", p.read_text(encoding="utf-8").replace("shared/RULES.md", ""))]
    assert citing == []


def test_mkdocs_builds_the_site_strictly(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(site)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "WARNING" not in done.stderr
    for page in nav_pages():
        html = (site / page.replace(".md", ".html")).read_text(encoding="utf-8")
        assert "<h1" in html, page
    assert "Decisions where the rule book is silent" in (site / "decisions.html").read_text(encoding="utf-8")

"""The library's examples run (issue 21.1): the doctests of simdom/api.py and the >>> examples of
docs/library.md, for real."""
from __future__ import annotations

import doctest
from pathlib import Path

import simdom.api

DOCS = Path(__file__).resolve().parents[1] / "docs" / "library.md"


def test_the_api_module_doctests_pass(monkeypatch):
    monkeypatch.chdir(DOCS.parents[1])  # the examples read scenarios/seed-game.deal.toml
    result = doctest.testmod(simdom.api, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


def test_the_library_page_examples_pass(tmp_path, monkeypatch):
    import os
    import sys
    monkeypatch.chdir(tmp_path)  # the page writes a tiny scenario and its results here
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")  # simdom
    result = doctest.testfile(str(DOCS), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0

"""Shared fixtures of the tests: the installed `simdom` command, a command line run in a subprocess, and
a copy of a folder that a test may damage (module-scoped results folders stay untouched)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

#: every command's output is laid out for an 80-column terminal, whatever runs the tests (a terminal of
#: another width, CI's pipes, pytest-xdist's workers, whose stdin is not a terminal): the same text everywhere
os.environ["COLUMNS"] = "80"

#: the `simdom` console script of the interpreter running the tests
SIMDOM = str(Path(sys.executable).with_name("simdom"))


def run_scenario(folder: Path, scenario: str, *flags: str) -> Path:
    """Write ``scenario`` (TOML text) into ``folder`` and run it there with ``simdom run`` and ``flags`` on one
    worker, quietly; the results folder (``folder/r``). A module fixture's set-up: it fails on a non-zero exit."""
    (folder / "s.toml").write_text(scenario)
    done = subprocess.run([SIMDOM, "run", str(folder / "s.toml"), "--out", str(folder / "r"), "-q", "--workers", "1",
                           *flags], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return folder / "r"


@pytest.fixture(scope="session")
def simdom_exe() -> str:
    return SIMDOM


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess]:
    """``cli("stats", folder, ...)``: run simdom with these arguments, its output captured as text."""
    def run(*args, timeout: float = 300, **kw) -> subprocess.CompletedProcess:
        return subprocess.run([SIMDOM, *map(str, args)], capture_output=True, text=True, timeout=timeout, **kw)
    return run


@pytest.fixture
def copy_of(tmp_path) -> Callable[[Path, str], Path]:
    """``copy_of(folder, name)``: a copy of ``folder`` under the test's tmp_path, to damage freely."""
    def copy(src: Path, name: str = "copy") -> Path:
        return Path(shutil.copytree(src, tmp_path / name))
    return copy


#: the real headless Chromium (the Debian package, installed by `make venv`) that the browser tests drive
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    """Playwright's Chromium driving /usr/bin/chromium, one per test module."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make venv` installs it (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()

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

"""The simulation engine: a numba kernel over integer data (see layout.py for the data).

Numba's on-disk cache checks only the source file of the function it compiled, not the files of
the helpers inlined into it. So that a change anywhere in the engine can never run stale machine
code, the cache lives in a folder named after a hash of every engine source file and the numba
version (api.py, pure Python, is left out): ``$SIMDOM_CACHE_DIR`` (default ``~/.cache/simdom``) ``/numba-<hash>``. An explicit
``NUMBA_CACHE_DIR`` wins.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba


def _cache_dir() -> str:
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(numba.__version__.encode())
    for p in sorted(here.glob("*.py")):
        if p.name in ("__init__.py", "api.py"):  # no compiled code in these
            continue
        h.update(p.name.encode())
        h.update(p.read_bytes())
    base = Path(os.environ.get("SIMDOM_CACHE_DIR", Path.home() / ".cache" / "simdom"))
    return str(base / f"numba-{h.hexdigest()[:16]}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()

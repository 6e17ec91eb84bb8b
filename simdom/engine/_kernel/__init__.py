"""The compiled kernel: numba functions over integer data (layout.py) and everything that knows a layout.

Nothing outside simdom/engine/ imports this package (tests/test_architecture.py derives that boundary
from this folder); the engine's named façade (codes, api, state, matches, analysis, decisions) does.

The kernel's source is compiled two ways, both keyed by :func:`engine_hash`, a hash of every engine
source file that holds compiled code and of the numba version:

* ahead of time (``python -m simdom.engine._kernel.aot``, run by ``make``): the batch entry ``run_batch`` as a
  C extension, ``$SIMDOM_CACHE_DIR/aot/_kernel_<hash>_<cpu>.so``. Importing it takes a millisecond and needs no
  numba, so `simdom run`'s workers start playing at once (see aot.py);
* just in time (jit.py): every entry, cached on disk in ``$SIMDOM_CACHE_DIR`` (default
  ``~/.cache/simdom``) ``/numba-<hash>`` (an explicit ``NUMBA_CACHE_DIR`` wins). Numba's own cache
  checks only the file of the function it compiled, not the files of the helpers inlined into it;
  the hash in the folder's name makes sure a change anywhere in the engine never runs stale code.

This module imports no numba: the batch path (layout, tables, work, api.simulate_deals) is plain numpy.
Files without compiled code (PURE) do not enter the hash.
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

#: Engine files without compiled code: they do not enter the hash.
PURE = ("__init__.py", "aot.py", "tables.py", "work.py")


def cache_root() -> Path:
    """simdom's cache folder (compiled kernels): ``$SIMDOM_CACHE_DIR``, or ``~/.cache/simdom``."""
    return Path(os.environ.get("SIMDOM_CACHE_DIR") or Path.home() / ".cache" / "simdom")


@lru_cache(maxsize=1)
def engine_hash() -> str:
    """16 hex digits: the engine's compiled sources and the numba version."""
    here = Path(__file__).resolve().parent
    try:
        nb = version("numba")
    except PackageNotFoundError:  # pragma: no cover - numba is a dependency
        nb = "?"
    h = hashlib.sha256(nb.encode())
    for p in sorted(here.glob("*.py")):
        if p.name in PURE:
            continue
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]

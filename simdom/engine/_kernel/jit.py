"""The decorators of kernel functions, and numba's cache folder (see simdom/engine/_kernel/__init__.py).

``_nrt=False``: kernel functions never allocate (the Python layer allocates every array and passes it
in), so numba's reference counting is switched off. Without it, every call between kernel functions
increfs and decrefs each array argument, which costs ~10 ns per array per call and made the kernel
10x slower. ``cache=True``: compiled once per machine, reused by every worker process.

``kernel`` marks helpers: they are inlined into their callers at the numba IR level (numba does not
inline across its compiled functions otherwise, and a call passing the game tuple costs tens of ns).
``entry`` marks the functions called from Python. Loop vectorization is off (see below).
"""
import os

import numba
from numba import njit

from . import cache_root, engine_hash


def cache_dir() -> str:
    return str(cache_root() / f"numba-{engine_hash()}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = cache_dir()

# LLVM's loop vectorizer turns the kernel's short loops (over the 2 or 4 open ends, a hand's mask words)
# into masked gathers and vector popcounts that cost more than they save (measured: random 1.18M ->
# 1.55M deals/s without it); the kernel has no long loops to vectorize. NUMBA_LOOP_VECTORIZE in numba's
# documentation; numba reads it whenever it compiles, so this covers the ahead-of-time build too.
numba.config.LOOP_VECTORIZE = 0

kernel = njit(cache=True, _nrt=False, inline="always", error_model="numpy")
entry = njit(cache=True, _nrt=False, error_model="numpy")

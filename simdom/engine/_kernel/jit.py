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
from numba.core.caching import CacheImpl, UserProvidedCacheLocator

from . import cache_root, engine_hash


def cache_dir() -> str:
    return str(cache_root() / f"numba-{engine_hash()}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = cache_dir()

_HERE = os.path.dirname(os.path.abspath(__file__))


class _KernelLocator(UserProvidedCacheLocator):
    """The kernel's functions cached in one subfolder of the cache folder, whatever the checkout's path.

    numba's own locator names the subfolder after the source folder's path, so every clone (a CI
    checkout, a second worktree) compiled the whole kernel again though its sources are the same. The
    cache folder is already named after the hash of every kernel source (engine_hash), and numba
    stamps each entry with its source file's contents, so one subfolder is safe for every checkout."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, "kernel")

    @classmethod
    def from_function(cls, py_func, py_file):
        if os.path.dirname(os.path.abspath(py_file)) != _HERE:
            return None
        return super().from_function(py_func, py_file)


if _KernelLocator not in CacheImpl._locator_classes:
    CacheImpl._locator_classes.insert(0, _KernelLocator)

# LLVM's loop vectorizer turns the kernel's short loops (over the 2 or 4 open ends, a hand's mask words)
# into masked gathers and vector popcounts that cost more than they save (measured: random 1.18M ->
# 1.55M deals/s without it); the kernel has no long loops to vectorize. NUMBA_LOOP_VECTORIZE in numba's
# documentation; numba reads it whenever it compiles, so this covers the ahead-of-time build too.
numba.config.LOOP_VECTORIZE = 0

kernel = njit(cache=True, _nrt=False, inline="always", error_model="numpy")
# An entry (what Python calls) releases the GIL while it runs (nogil): a solve or a batch can run for
# minutes, and simdom's signal watchdog (simdom/signals.py) must be able to run meanwhile to answer
# SIGTERM, SIGHUP or Ctrl-C within a second. The kernel never touches Python objects, and every call
# gets its own work arrays (work.py), so releasing it changes no result.
entry = njit(cache=True, _nrt=False, error_model="numpy", nogil=True)
#: ``called`` marks the large helpers run once per decision, playout or sampled world: compiled once
#: and called, not inlined into every caller (inlining them everywhere was most of the compile time)
called = njit(cache=True, _nrt=False, error_model="numpy")

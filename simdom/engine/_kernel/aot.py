"""The batch kernel compiled ahead of time: ``run_batch`` as a C extension module.

Why: a process that calls the just-in-time kernel first imports numba (~0.4 s) and loads the
compiled code from numba's cache (~0.5-0.9 s). `simdom run`'s workers and `simdom bench` instead
load ``_kernel_<key>.so`` from the cache folder, built from the same source by numba's ahead-of-time
compiler (``numba.pycc``) for this machine's CPU: a millisecond, no numba. It is one engine compiled
two ways, not a second copy: the module exports the same ``run_batch`` (batch.py) and ``run_matches``
(matchloop.py, docs/rules.md 12) with their argument types fixed, and tests check that both give identical
results.

``key`` is the engine hash (simdom/engine/_kernel/__init__.py) plus the CPU it was built for, so editing the
engine or moving to another CPU never runs a stale or foreign module: :func:`load` then finds none
and the caller falls back to the just-in-time kernel (same results, slower start).

The module lives in the cache folder (``$SIMDOM_CACHE_DIR``, default ``~/.cache/simdom``, under
``aot/``), never in the source tree, so an installed (non-editable) simdom works the same.

``numba.pycc`` is pending deprecation (since numba 0.57, still so in 0.68); pyproject.toml pins numba
below 0.70, and only that one warning is silenced while building.

    python -m simdom.engine._kernel.aot          # build it (``make`` does): ~10 s with a warm numba cache
    SIMDOM_KERNEL=jit simdom run ...     # never use it; =aot: fail when it is missing

This module imports numba only to build.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from . import cache_root, engine_hash

PREFIX = "_kernel_"
MODES = ("auto", "aot", "jit")
#: Builds of other engine sources kept in the cache folder (other checkouts may still use them).
KEEP = 12


def build_dir() -> Path:
    return cache_root() / "aot"


def _cpu() -> str:
    """The CPU the module is built for: its model and instruction-set flags (Linux), else the platform."""
    try:
        with open("/proc/cpuinfo") as fh:
            lines = [ln for ln in fh.read(1 << 16).splitlines() if ln.startswith(("model name", "flags"))]
        return "\n".join(lines[:2])
    except OSError:  # pragma: no cover - not Linux
        return platform.processor() or platform.machine()


@lru_cache(maxsize=1)
def module_name() -> str:
    cpu = hashlib.sha256(_cpu().encode()).hexdigest()[:8]
    return f"{PREFIX}{engine_hash()}_{cpu}"


def module_path() -> Path:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return build_dir() / f"{module_name()}{suffix}"


def mode() -> str:
    m = os.environ.get("SIMDOM_KERNEL", "auto").strip().lower() or "auto"
    if m not in MODES:
        raise RuntimeError(f"SIMDOM_KERNEL={m!r} is invalid; allowed: {', '.join(MODES)}")
    return m


@lru_cache(maxsize=1)
def load() -> ModuleType | None:
    """The ahead-of-time module of the current engine on this CPU, or None (not built, stale, or
    SIMDOM_KERNEL=jit)."""
    m = mode()
    if m == "jit":
        return None
    path = module_path()
    try:
        spec = importlib.util.spec_from_file_location(module_name(), path)
        if spec is None or spec.loader is None or not path.is_file():
            raise ImportError(f"no file {path}")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    except ImportError as e:
        if m == "aot":
            raise RuntimeError(f"SIMDOM_KERNEL=aot but the ahead-of-time kernel {module_name()} is not built "
                               f"({e}); build it with `python -m simdom.engine._kernel.aot` (make does)") from None
        return None


def is_plain(ids) -> bool:
    """Whether every policy id in ``ids`` is one of the plain policies (random, greedy, hold), which
    plain.py's entries play without compiling the others."""
    from .layout import POL_GREEDY, POL_HOLD, POL_RANDOM
    return all(int(i) in (POL_RANDOM, POL_GREEDY, POL_HOLD) for i in ids)


def run_batch(ids=None):
    """The batch kernel: the ahead-of-time one when it is built, else the just-in-time one; that of the
    plain policies alone (plain.py: a fraction of the compile) when the policy ids ``ids`` are given and
    all plain (a caller recording first-double decisions gives none)."""
    mod = load()
    if mod is not None:
        return mod.run_batch
    if ids is not None and is_plain(ids):
        from .plain import run_batch_plain
        return run_batch_plain
    from .batch import run_batch as jit_run_batch
    return jit_run_batch


def run_matches():
    """The match kernel (matchloop.run_matches): ahead of time when built, else just in time."""
    mod = load()
    if mod is not None:
        return mod.run_matches
    from .matchloop import run_matches as jit_run_matches
    return jit_run_matches


def _types(**arrays):
    """numba types of arrays shaped as the Python layer passes them: the game G, the policies' ids and
    parameters, and any ``name=array`` given (read off with ``typeof``)."""
    import numpy as np
    from numba import typeof

    from . import layout as L
    from .tables import build_game

    with np.errstate(divide="ignore"):  # all-zero rules divide by bonus_round_to = bonus_divisor = 0: only
        G = build_game(np.zeros(L.R_SIZE, np.int64), 6, (3,), ())  # G's type is read, never its values
    base = {"G": G, "ids": np.zeros(4, np.int64), "par": np.zeros((4, L.N_PARAMS), np.float64)}
    return {k: typeof(v) for k, v in {**base, **arrays}.items()}


def signature():
    """run_batch's argument types (api.simulate_deals passes these arrays)."""
    import numpy as np
    from numba import types

    from . import layout as L
    from .work import make_work
    t = _types(seat=np.zeros((len(L.SEAT_COLS), 4, 1), np.int32), deal=np.zeros((len(L.DEAL_COLS), 1), np.int32),
               rec=np.zeros((1, L.REC_COLS), np.int32), work=make_work(28))
    return types.int64(t["G"], t["ids"], t["par"], types.uint64, types.int64, types.int64, t["seat"], t["deal"],
                       types.int64, types.int64, t["rec"], types.int64, t["work"], types.boolean)


def match_signature():
    """run_matches' argument types (engine.matches passes these arrays)."""
    import numpy as np
    from numba import types

    from . import layout as L
    from .work import make_work
    t = _types(seat=np.zeros((len(L.SEAT_COLS), 4, 1), np.int32), deal=np.zeros((len(L.DEAL_COLS), 1), np.int32),
               mdeal=np.zeros((1, L.MD_SIZE), np.int32), match=np.zeros((1, L.MM_SIZE), np.int32),
               rec=np.zeros((1, L.REC_COLS), np.int32), work=make_work(28), M=np.zeros(L.M_SIZE, np.int64),
               sides=np.zeros(2, np.int64))
    return types.int64(t["G"], t["ids"], t["par"], types.uint64, types.int64, types.int64, t["seat"], t["deal"],
                       t["mdeal"], t["match"], t["rec"], types.int64, t["work"], t["M"], t["sides"])


def _prune(keep: int = KEEP) -> None:
    """Remove the oldest builds of other engine sources beyond ``keep`` (other checkouts sharing the cache
    folder may still use recent ones)."""
    mine = module_name()
    others = sorted((p for p in build_dir().glob(f"{PREFIX}*") if not p.name.startswith(mine)),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for p in others[keep:]:
        p.unlink(missing_ok=True)


def build(force: bool = False, quiet: bool = False) -> Path:
    """Compile the module into the cache folder (if it is not there yet)."""
    out = module_path()
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, file=sys.stderr))
    if out.is_file() and not force:
        say(f"simdom: ahead-of-time kernel {module_name()} is up to date ({out})")
        return out
    import warnings

    from numba.core.errors import NumbaPendingDeprecationWarning
    out.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        # the one known warning: numba.pycc is pending deprecation (see the module doc)
        warnings.filterwarnings("ignore", category=NumbaPendingDeprecationWarning, message=".*pycc.*")
        from numba.pycc import CC

    from .batch import run_batch as kernel_run_batch
    from .matchloop import run_matches as kernel_run_matches

    cc = CC(module_name())
    cc.output_dir = str(out.parent)
    cc.target_cpu = "host"
    cc.verbose = False

    @cc.export("run_batch", signature())
    def _run_batch(G, ids, par, root, deal0, n, seat, deal, row0, stride, rec, rec_mode, work,
                   fresh):  # pragma: no cover
        return kernel_run_batch(G, ids, par, root, deal0, n, seat, deal, row0, stride, rec, rec_mode, work, fresh)

    @cc.export("run_matches", match_signature())
    def _run_matches(G, ids, par, root, match0, n, seat, deal, mdeal, match, rec, rec_mode, work, M,
                     counts):  # pragma: no cover
        return kernel_run_matches(G, ids, par, root, match0, n, seat, deal, mdeal, match, rec, rec_mode, work,
                                  M, counts)

    say(f"simdom: compiling the ahead-of-time kernel {module_name()} (a few minutes when numba's cache is cold)")
    with _releasing_the_gil():
        cc.compile()
    _prune()
    load.cache_clear()
    say(f"simdom: built {out}")
    return out


@contextlib.contextmanager
def _releasing_the_gil():
    """numba.pycc builds its exports with default compiler flags, which hold the GIL; the module's
    functions release it as the just-in-time entries do (jit.py, ``nogil``), so that the signal watchdog
    (simdom/signals.py) runs during a long batch. pycc has no option for it: its Flags class is swapped,
    for the build only, for one that sets ``release_gil``."""
    import numba.pycc.compiler as pcc
    plain = pcc.Flags

    class Releasing(plain):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    pcc.Flags = Releasing
    try:
        yield
    finally:
        pcc.Flags = plain


if __name__ == "__main__":
    build(force="--force" in sys.argv[1:])

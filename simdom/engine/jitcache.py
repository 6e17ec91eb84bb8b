"""Whether numba's cache holds the kernel, and the one line a command prints before it compiles.

The façade (state, analysis, solver, matches) calls :func:`notice` with the name of the just-in-time
entry it is about to call; ``make kernel`` (warm.py) compiles them all ahead, so normally nothing is said.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from ._kernel import cache_root, engine_hash

#: minutes a cold compile takes on this project's 2-core machine, about (docs/speed.md, 2026-12-03:
#: `make kernel` 2.5 minutes in parallel processes; a command compiling what it uses, in one, 2.5-3)
COLD_MINUTES = 3
#: what each just-in-time entry the façade announces is, and about how long its compile takes on this
#: machine from an empty cache, with what it calls (docs/speed.md, "First use"): the plain policies' entries
#: compile alone (_kernel/plain.py), the others with every policy
ABOUT = {
    "run_batch_plain": ("the deal loop of the plain policies (random, greedy, hold)", "1 minute"),
    "choose_entry_plain": ("the plain policies' choice of a move", "half a minute"),
    "run_batch": ("the deal loop of every policy (expert, search, the solver, rollout, ...)", "6 minutes"),
    "choose_entry": ("every policy's choice of a move (expert, search, the solver, rollout, ...)", "5 minutes"),
    "setup_hands": ("the steps of a deal played from Python", "1 minute"),
    "solve_root": ("the exact solver", "4 minutes"),
    "rollout_moves": ("the analysis rollouts", "3 minutes"),
    "new_match_deal": ("the match loop", "2 minutes"),
}
_noticed = False
_checked: set[str] = set()


def cache_dir() -> Path:
    """numba's cache folder of this engine (jit.py sets it; an explicit NUMBA_CACHE_DIR wins)."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or cache_root() / f"numba-{engine_hash()}")


def cached(func: str) -> bool:
    """Whether numba's cache holds a compile of the kernel function named ``func`` (jit.py keeps every
    kernel function in the subfolder ``kernel``, the same for every checkout of the same sources)."""
    return any((cache_dir() / "kernel").glob(f"*.{func}-*.nbi"))


def notice(func: str) -> None:
    """Say once per process, before a compile of ``func`` that is about to happen, that it happens
    (checked once per function and process: the façade calls this before every kernel step)."""
    global _noticed
    if func in _checked:
        return
    _checked.add(func)
    if _noticed or cached(func):
        return
    _noticed = True
    what, about = ABOUT.get(func, (f"the kernel's {func}", f"{COLD_MINUTES} minutes"))
    print(f"simdom: compiling {what}, its first use on this machine, about {about} (less with what is "
          f"compiled already; once: numba keeps it in {cache_dir()}; `make kernel` compiles all ahead)",
          file=sys.stderr, flush=True)


def quiet() -> None:
    """Say nothing in this process (warm.py's compiling processes: their parent says it)."""
    global _noticed
    _noticed = True

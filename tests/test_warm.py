"""The kernel is compiled once, ahead (`make kernel`: simdom/engine/warm.py), and a command that must still
compile says so first. Real subprocesses and numba's real cache folders."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simdom.engine import jitcache

SIMDOM = [str(Path(sys.executable).parent / "simdom")]


def _run(args, **env):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, env={**os.environ, **env})


def test_a_compile_that_happens_is_announced_once(tmp_path):
    """With an empty numba cache folder the first entry announces the compile, in one line, and no later
    entry repeats it; nothing is compiled by the check itself."""
    code = ("from simdom.engine import jitcache as j; j.notice('solve_root'); j.notice('choose_entry'); "
            "j.notice('solve_root')")
    r = _run([sys.executable, "-c", code], NUMBA_CACHE_DIR=str(tmp_path))
    assert r.returncode == 0, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simdom: compiling the kernel once for this machine, about ")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["solve", "--rules", "threes", "--players", "2", "--seed", "3", "--deal", "0", "--against", "greedy"],
    ["analyze", "--script", "scenarios/seed-game.deal.toml", "--move", "4", "--rollouts", "50"],
    ["trace", "--rules", "fives", "--players", "2", "--seed", "1", "--deals", "1", "--policy", "search",
     "--out", "{tmp}/t.jsonl"],
])
def test_after_make_kernel_the_stepping_commands_compile_nothing(args, tmp_path):
    """`make kernel` (which `make test` runs first) compiled every entry these commands use: none of them
    announces a compile, and every entry warm.py names is in numba's cache."""
    for func in ("setup_hands", "choose_entry", "solve_root", "rollout_moves", "new_match_deal"):
        assert jitcache.cached(func), func
    r = _run(SIMDOM + [a.format(tmp=tmp_path) for a in args])
    assert r.returncode == 0, r.stderr
    assert "compiling" not in r.stderr, r.stderr


def _signatures(index: Path) -> int:
    """How many compiled signatures numba's index file of one function holds (numba.core.caching's
    IndexDataCacheFile: a pickled version stamp, then the pickled (source stamp, {key: data name}))."""
    import pickle
    with open(index, "rb") as fh:
        pickle.load(fh)
        _, overloads = pickle.loads(fh.read())
    return len(overloads)


def test_every_kernel_function_is_compiled_once():
    """One signature per kernel function in numba's cache: a call passing a literal (0, False, a
    constant) where another passes a variable made numba compile the same function again for each
    (the solver's frame loop twice: 40 s of the compile), and warm.py's two processes of the policies
    compile each function from the argument types the façade's arrays have, which must be the types
    the kernel's own calls pass."""
    index = sorted((jitcache.cache_dir() / "kernel").glob("*.nbi"))
    names = {p.name.split("-")[0] for p in index}
    for func in ("solve.search", "kpolicies.policy_move", "kchoose.search_pick", "sampler.sample_world",
                 "kanalyze.world_of", "batch.run_batch", "matchloop.run_matches", "kanalyze.rollout_moves"):
        assert func in names, func
    twice = [p.name for p in index if _signatures(p) > 1]
    assert twice == [], twice

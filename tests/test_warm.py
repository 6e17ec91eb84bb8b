"""The kernel is compiled once, ahead (`make kernel`: simdom/engine/warm.py), and a command that must still
compile says so first. Real subprocesses and numba's real cache folders, each made by the test that checks it
(never the user's: a day of real commands must not fail the suite)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simdom.engine import jitcache

SIMDOM = [str(Path(sys.executable).parent / "simdom")]
ROOT = Path(__file__).resolve().parents[1]


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
    # what is compiled, why (its first use) and for about how long (jitcache.ABOUT; issue 60)
    assert len(lines) == 1 and lines[0].startswith("simdom: compiling the exact solver, its first use on this "
                                                   "machine, about 4 minutes"), lines
    assert list(tmp_path.iterdir()) == []


#: commands that step deals from Python: after `make kernel` none of them compiles (or says it does)
STEPPING = [
    ["solve", "--rules", "threes", "--players", "2", "--seed", "3", "--deal", "0", "--against", "greedy"],
    ["analyze", "--script", "scenarios/seed-game.deal.toml", "--move", "4", "--rollouts", "50"],
    ["trace", "--rules", "fives", "--players", "2", "--seed", "1", "--deals", "1", "--policy", "search",
     "--out", "{tmp}/t.jsonl"],
]


def _signatures(index: Path) -> int:
    """How many compiled signatures numba's index file of one function holds (numba.core.caching's
    IndexDataCacheFile: a pickled version stamp, then the pickled (source stamp, {key: data name}))."""
    import pickle
    with open(index, "rb") as fh:
        pickle.load(fh)
        _, overloads = pickle.loads(fh.read())
    return len(overloads)


@pytest.mark.slow
def test_every_kernel_function_is_compiled_once(tmp_path):
    """In a cache folder of its own (SIMDOM_CACHE_DIR), `make kernel` (warm.py) compiles every kernel function
    once, quietly; the commands that step deals then compile nothing; and every public entry point, driven
    with the integers callers pass (tests/entry_points.py: numpy integers of every width, the largest deal
    numbers, one past them; the batch and match loops just in time), compiles no function a second time:
    one signature per function in numba's cache. A call passing a literal where another passes a variable
    compiled the solver's frame loop twice (40 s of the compile); a deal number of 2^63 passed as uint64
    compiled batch.new_deal again, in the user's cache, and broke this test there (issue 59.5). A full
    compile: about 8 minutes on 2 quiet cores."""
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SIMDOM_KERNEL")}
    env["SIMDOM_CACHE_DIR"] = str(cache)
    r = subprocess.run([sys.executable, "-m", "simdom.engine.warm"], capture_output=True, text=True, timeout=3600,
                       env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "Warning" not in r.stderr, r.stderr  # issue 60.3: set-up and compile print no warning
    kernel = cache / f"numba-{jitcache.engine_hash()}" / "kernel"
    for func in ("setup_hands", "choose_entry", "solve_root", "rollout_moves", "new_match_deal"):
        assert any(kernel.glob(f"*.{func}-*.nbi")), func
    for args in STEPPING:
        r = subprocess.run(SIMDOM + [a.format(tmp=tmp_path) for a in args], capture_output=True, text=True,
                           timeout=600, env=env, cwd=ROOT)
        assert r.returncode == 0 and "compiling" not in r.stderr, (args, r.stderr)
    ws = tmp_path / "ws"  # the batch and match loops just in time too: every entry typed by numba, none loaded
    ws.mkdir()           # ahead of time (whose arguments are converted, never compiled again)
    r = subprocess.run([sys.executable, str(Path(__file__).parent / "entry_points.py"), str(ws)], capture_output=True,
                       text=True, timeout=3600, env={**env, "SIMDOM_KERNEL": "jit"})
    assert r.returncode == 0, r.stderr[-3000:]
    driven = json.loads(r.stdout.strip().splitlines()[-1])
    assert driven["failed"] == [] and driven["several_signatures"] == {}, driven
    index = sorted(kernel.glob("*.nbi"))
    names = {p.name.split("-")[0] for p in index}
    for func in ("solve.search", "kpolicies.policy_move", "kchoose.search_pick", "sampler.sample_world",
                 "kanalyze.world_of", "batch.run_batch", "batch.new_deal", "matchloop.run_matches",
                 "kanalyze.rollout_moves"):
        assert func in names, func
    twice = [p.name for p in index if _signatures(p) > 1]
    assert twice == [], twice

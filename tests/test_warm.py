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

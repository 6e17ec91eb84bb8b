"""The plain policies' kernel (simdom/engine/_kernel/plain.py, issue 60): `make run` compiles it alone, and it
plays every deal as the whole kernel does."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simdom.engine import api, jitcache
from simdom.engine._kernel import aot
from simdom.engine._kernel import layout as L
from simdom.engine._kernel.work import make_work
from simdom.engine.codes import kernel_arrays
from simdom.policies import parse_policy
from simdom.rules import preset
from simdom.engine._kernel.tables import compile_rules

ROOT = Path(__file__).resolve().parents[1]
MIXES = [["hold:until=5", "greedy", "greedy", "greedy"], ["random", "hold:until=never", "greedy", "random"],
         ["greedy"] * 4]


def _play(kernel, rules, pols, course, records):
    ids, par = kernel_arrays([parse_policy(p) for p in pols][:rules.players])
    seat, deal = api.output_blocks(300, rules.players, course)
    rec = np.zeros((api.max_records(rules, records) * 300, L.REC_COLS), np.int32)
    n = kernel(compile_rules(rules), ids, par, api.root_key(7), 11, 300, seat, deal, 0, 1, rec, records,
               make_work(rules.n_tiles), True)
    return seat, deal, rec[:n]


@pytest.mark.parametrize("pols", MIXES, ids=["hold", "random-hold", "greedy"])
@pytest.mark.parametrize("name,players", [("threes", 4), ("fives", 2), ("all-fives", 3)])
def test_the_plain_kernel_plays_every_deal_as_the_whole_kernel(pols, name, players):
    """Same seats' results, deals' results, the course's tallies and every action record, deal for deal."""
    from simdom.engine._kernel.batch import run_batch
    from simdom.engine._kernel.plain import run_batch_plain
    rules = preset(name, players=players)
    for course, records in ((False, L.REC_NONE), (True, L.REC_ALL)):
        whole, plain = (_play(k, rules, pols, course, records) for k in (run_batch, run_batch_plain))
        for a, b in zip(whole, plain):
            assert np.array_equal(a, b)


def test_the_plain_kernel_is_taken_only_for_plain_policies(monkeypatch):
    monkeypatch.setenv("SIMDOM_KERNEL", "jit")
    aot.load.cache_clear()
    try:
        plain = kernel_arrays([parse_policy(p) for p in ("greedy", "hold:until=3", "random")])[0]
        other = kernel_arrays([parse_policy(p) for p in ("greedy", "heavy")])[0]
        assert api.kernel_for(plain).py_func.__name__ == "run_batch_plain"
        assert api.kernel_for(other).py_func.__name__ == "run_batch"
        assert api.kernel_for().py_func.__name__ == "run_batch"  # first-double decisions recorded
        assert api.plain_policies(["greedy", "hold:until=9"]) and not api.plain_policies(["greedy", "search"])
    finally:
        aot.load.cache_clear()


@pytest.mark.slow
def test_make_run_compiles_the_plain_batch_kernel_alone_quietly(tmp_path):
    """`python -m simdom.engine.warm plain` (make run) in an empty cache folder compiles run_batch_plain,
    once, and no other function: none of the policies, the solver, the decisions' rollouts (about 1.5
    minutes of one core, docs/speed.md); a run of plain policies then compiles nothing more."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SIMDOM_KERNEL")}
    env["SIMDOM_CACHE_DIR"] = str(tmp_path / "cache")
    r = subprocess.run([sys.executable, "-m", "simdom.engine.warm", "plain"], capture_output=True, text=True,
                       timeout=1800, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "Warning" not in r.stderr and "compiling the kernel" in r.stderr, r.stderr
    kernel = tmp_path / "cache" / f"numba-{jitcache.engine_hash()}" / "kernel"
    assert sorted(p.name.split("-")[0] for p in kernel.glob("*.nbi")) == ["batch.run_batch_plain"]
    assert len(list(kernel.glob("*.nbc"))) == 1  # one signature
    out = tmp_path / "out"
    r = subprocess.run([str(Path(sys.executable).parent / "simdom"), "run", "scenarios/default.toml", "--deals", "2000",
                        "--workers", "2", "--out", str(out)],
                       capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert r.returncode == 0 and "compiling" not in r.stderr, r.stderr
    assert sorted(p.name.split("-")[0] for p in kernel.glob("*.nbi")) == ["batch.run_batch_plain"]

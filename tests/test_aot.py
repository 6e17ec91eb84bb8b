"""The ahead-of-time kernel (simdom/engine/_kernel/aot.py): built by `make`, the same results as the
just-in-time kernel bit for bit, and a batch path that never imports numba."""
import os
import subprocess
import sys

import numpy as np
import pytest

from simdom.engine._kernel import aot
from simdom.engine._kernel import layout as L
from simdom.engine.api import root_key
from simdom.engine._kernel.tables import compile_rules
from simdom.engine._kernel.work import make_work
from simdom.engine.codes import kernel_arrays
from simdom.policies import seat_policies
from simdom.rules import PRESETS, preset

needs_aot = pytest.mark.skipif(aot.mode() == "jit", reason="SIMDOM_KERNEL=jit: the ahead-of-time kernel is off")


@needs_aot
def test_the_module_of_the_current_engine_is_built():
    mod = aot.load()
    assert mod is not None, (f"the ahead-of-time kernel {aot.module_name()} is not built: "
                             "run `make` (or `python -m simdom.engine._kernel.aot`)")
    assert mod.__name__.endswith(aot.module_name())
    assert aot.run_batch() is mod.run_batch


def _play(fn, rules, pols, seed, deal0, n, rec_mode):
    ids, par = kernel_arrays(seat_policies(pols, rules.players))
    seat = np.full((len(L.SEAT_COLS), rules.players, n), -7, dtype=np.int32)
    deal = np.full((len(L.DEAL_COLS), n), -7, dtype=np.int32)
    per = rules.n_tiles if rec_mode == L.REC_PLAYS else (2 + rules.players) * rules.n_tiles + rules.players + 4
    rec = np.full((per * n if rec_mode else 1, L.REC_COLS), -7, dtype=np.int32)
    nrec = fn(compile_rules(rules), ids, par, root_key(seed), deal0, n, seat, deal, 0, 1, rec, rec_mode,
              make_work(rules.n_tiles), True)
    return seat, deal, rec[:nrec]


CASES = [(name, players, pols, rec_mode)
         for name in PRESETS for players in (2, 3, 4)
         for pols, rec_mode in ((["greedy", "random", "heavy", "hold:until=5"][:players], L.REC_NONE),
                                ("defensive", L.REC_PLAYS),
                                (["rollout:samples=3", "greedy", "hold:until=never", "random"][:players], L.REC_ALL))]


@needs_aot
@pytest.mark.parametrize("name,players,pols,rec_mode", CASES)
def test_ahead_of_time_and_just_in_time_kernels_agree(name, players, pols, rec_mode):
    from simdom.engine._kernel.batch import run_batch as jit_run_batch
    mod = aot.load()
    assert mod is not None
    rules = preset(name, players)
    n = 60 if rec_mode == L.REC_ALL else 400
    a = _play(mod.run_batch, rules, pols, 11, 1000, n, rec_mode)
    b = _play(jit_run_batch, rules, pols, 11, 1000, n, rec_mode)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert (a[0] != -7).all() and (a[1] != -7).all()  # every row written


def _python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)


@needs_aot
def test_the_batch_path_of_simdom_run_imports_no_numba():
    code = ("import sys\n"
            "import simdom.cli, simdom.cli.run, simdom.run.runner\n"
            "from simdom.run.worker import warm\n"
            "warm()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))\n")
    out = _python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_simdom_kernel_selects_the_kernel_and_refuses_bad_values():
    out = _python("from simdom.engine._kernel import aot; print(type(aot.run_batch()).__name__)", SIMDOM_KERNEL="jit")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "CPUDispatcher"  # numba's just-in-time dispatcher
    bad = _python("from simdom.engine._kernel import aot; aot.run_batch()", SIMDOM_KERNEL="fast")
    assert bad.returncode != 0
    assert "SIMDOM_KERNEL='fast' is invalid; allowed: auto, aot, jit" in bad.stderr


def test_a_missing_module_falls_back_or_fails_as_asked(monkeypatch):
    monkeypatch.setattr(aot, "module_name", lambda: "_kernel_not_built")
    aot.load.cache_clear()
    try:
        monkeypatch.setenv("SIMDOM_KERNEL", "auto")
        assert aot.load() is None
        assert type(aot.run_batch()).__name__ == "CPUDispatcher"
        aot.load.cache_clear()
        monkeypatch.setenv("SIMDOM_KERNEL", "aot")
        with pytest.raises(RuntimeError, match="python -m simdom.engine._kernel.aot"):
            aot.load()
    finally:
        aot.load.cache_clear()


def test_simulate_fills_given_arrays_as_it_fills_its_own():
    """Two batches interleaved in one pair of blocks (rows row0 + i * stride, as simdom run fills a chunk's
    rows in the order arm, deal, rotation) give the batches' own results, and row_columns reads them."""
    from simdom.engine.api import output_blocks, row_columns, simulate_deals
    rules = preset("fives", 3)
    own = [simulate_deals(rules, pols, 5, 100, 50) for pols in ("greedy", "random")]
    seat, deal = output_blocks(100, 3)
    got = [simulate_deals(rules, pols, 5, 100, 50, out=(seat, deal), row0=r, stride=2)
           for r, pols in enumerate(("greedy", "random"))]
    assert np.shares_memory(got[0].seats["points"], seat)
    seats, deals = row_columns(seat, deal)
    for r in range(2):
        for c in (*own[r].seats, *own[r].deals):
            np.testing.assert_array_equal(got[r].column(c), own[r].column(c))
        for c in own[r].seats:
            np.testing.assert_array_equal(seats[c][r::2], own[r].seats[c])
            assert seats[c][:, 0].flags.c_contiguous  # a seat's column of all rows: contiguous
        for c in own[r].deals:
            np.testing.assert_array_equal(deals[c][r::2], own[r].deals[c])
    with pytest.raises(ValueError, match="C-contiguous writable int32"):
        simulate_deals(rules, "greedy", 5, 100, 50, out=(seat.astype(np.int64), deal))
    with pytest.raises(ValueError, match="shapes"):
        simulate_deals(rules, "greedy", 5, 100, 50, out=(seat[:, :2], deal))
    with pytest.raises(ValueError, match="rows"):
        simulate_deals(rules, "greedy", 5, 100, 51, out=(seat, deal), row0=0, stride=2)

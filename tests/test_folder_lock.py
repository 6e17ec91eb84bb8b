"""The results folder's lock (filelock, simdom/run/folder.py locked()): a second run on the same folder
is refused at once with one line, and a run that dies frees the folder even while a worker it forked
still lives (the worker's copy of the lock file is closed in the child)."""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from pathlib import Path

import typer
from typer.testing import CliRunner

from simdom.cli.run import register
from simdom.run.folder import RunError, locked

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "default.toml"


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    app.command("noop", hidden=True)(lambda: None)  # a group, so that "run" is a subcommand
    return app


def test_a_second_run_on_a_locked_folder_is_refused_at_once_with_one_line(tmp_path):
    out = tmp_path / "res"
    with locked(out):
        t0 = time.perf_counter()
        r = CliRunner().invoke(_app(), ["run", str(SCENARIO), "--deals", "100", "--workers", "1", "--quiet",
                                        "--out", str(out)])
        seconds = time.perf_counter() - t0
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert lines == [f"Error: another simdom run is writing into {out}; wait for it or use --out"], r.output
    assert seconds < 10  # refused, not blocked until the lock is free
    with locked(out):  # released: the folder can be locked again
        pass


def test_the_lock_is_refused_in_the_same_process_and_freed_on_the_way_out(tmp_path):
    with locked(tmp_path / "f"):
        try:
            with locked(tmp_path / "f"):
                raise AssertionError("the folder was locked twice")
        except RunError as e:
            assert "another simdom run is writing into" in str(e)
    with locked(tmp_path / "f"):
        pass


def _hold_then_fork(folder: str, ready) -> None:
    with locked(Path(folder)):
        child = mp.get_context("fork").Process(target=time.sleep, args=(30,), daemon=False)
        child.start()
        ready.put(child.pid)
        time.sleep(60)


def test_a_killed_run_frees_the_folder_although_its_forked_worker_lives(tmp_path):
    ctx = mp.get_context("fork")
    ready = ctx.Queue()
    holder = ctx.Process(target=_hold_then_fork, args=(str(tmp_path / "f"), ready))
    holder.start()
    worker = ready.get(timeout=30)
    try:
        try:
            with locked(tmp_path / "f"):
                raise AssertionError("the folder was not locked by the holder")
        except RunError:
            pass
        os.kill(holder.pid, signal.SIGKILL)
        holder.join(10)
        os.kill(worker, 0)  # the forked worker still lives
        with locked(tmp_path / "f"):
            pass
    finally:
        for pid in (holder.pid, worker):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

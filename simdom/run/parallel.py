"""Blocks of deals on parallel workers, for the commands that play their deals outside a results folder
(`simdom skill`, `simdom ladder`): joblib's loky processes on this machine, or the workers of a dask cluster.

A block's result depends on its arguments alone (deal i of a root seed on (seed, i)), and the results come
back in the blocks' order, so an answer is the same whatever the workers or the backend. A worker that
dies is reported by loky (TerminatedWorkerError) or dask (KilledWorker) and ends the command with one
line (simdom/cli/guard.py).
"""
from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from .faults import tracker_ignoring_sighup
from .runner import RunError, check_options


def check_parallel(workers: int | None, backend: str, scheduler: str | None) -> None:
    """--workers, --backend and --scheduler of a command that plays blocks: OptionError (one line) if bad."""
    from ..present import OptionError
    try:
        check_options(workers, backend)
    except RunError as e:
        raise OptionError(str(e)) from None
    if scheduler and backend != "dask":
        raise OptionError("--scheduler is for --backend dask; allowed: --backend dask --scheduler tcp://HOST:PORT, "
                          "or neither")


def n_workers(workers: int | None) -> int:
    """Local workers: ``workers``, or every core."""
    return workers or os.cpu_count() or 1


def run_blocks(fn: Callable[..., Any], blocks: Sequence[tuple], *, workers: int | None = None,
               backend: str = "local", scheduler: str | None = None) -> list:
    """[fn(*b) for b in blocks], on ``workers`` loky processes (local; 1: in this process) or on the dask
    cluster at ``scheduler``."""
    check_options(workers, backend)
    if backend == "dask":
        if not scheduler:
            raise RunError("--backend dask needs --scheduler tcp://HOST:PORT (the address of a running dask "
                           "scheduler)")
        from distributed import Client
        try:
            client = Client(scheduler, timeout="20s")
        except Exception as e:  # noqa: BLE001 - any failure to connect is the address's problem
            raise RunError(f"cannot reach the dask scheduler at {scheduler!r}: {e}; allowed: tcp://HOST:PORT of "
                           "a running dask scheduler") from None
        with client:
            futures = [client.submit(fn, *b, pure=False) for b in blocks]
            return client.gather(futures)
    if backend != "local":
        raise RunError(f"--backend {backend!r} is invalid; allowed: local, dask")
    n = min(n_workers(workers), len(blocks))
    if n <= 1:
        return [fn(*b) for b in blocks]
    from joblib import Parallel, delayed
    tracker_ignoring_sighup()
    return Parallel(n_jobs=n, backend="loky", batch_size=1, inner_max_num_threads=1)(delayed(fn)(*b) for b in blocks)



def deal_blocks(deals: int, workers: int, per_worker: int = 8, most: int = 50) -> list[tuple[int, int]]:
    """(first deal, count) blocks covering 0 .. deals - 1: about ``per_worker`` blocks a worker (a hard deal
    then holds up one block, not a worker's share), at most ``most`` deals each."""
    size = max(1, min(most, -(-deals // (per_worker * max(1, workers)))))
    return [(d0, min(size, deals - d0)) for d0 in range(0, deals, size)]

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
from .runner import RunError, SchedulerLost, _dask, _watched, check_options, dask_tasks


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
               backend: str = "local", scheduler: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> list:
    """[fn(*b) for b in blocks], on ``workers`` loky processes (local; 1: in this process) or on the dask
    cluster at ``scheduler``; ``progress(done, total)`` after each block. A lost worker or scheduler is
    one line (WorkerLost, SchedulerLost: as simdom run's)."""
    check_options(workers, backend)
    total = len(blocks)

    def tick(done: int) -> None:
        if progress is not None:
            progress(done, total)
    if backend == "dask":
        cluster = _dask(workers, scheduler)  # distributed's logs quiet
        stack, client, address, n = cluster.stack, cluster.client, cluster.address, cluster.n
        out: list = [None] * total
        done = 0

        def lost() -> SchedulerLost:
            return SchedulerLost(f"the dask scheduler at {address} was lost after {done} of {total} blocks; "
                                 "nothing was written; allowed: the same command again once the cluster is back")
        with stack:
            for i, res in _watched(dask_tasks(client, fn, blocks, n, lost)):
                out[i] = res
                done += 1
                tick(done)
        return out
    if backend != "local":
        raise RunError(f"--backend {backend!r} is invalid; allowed: local, dask")
    n = min(n_workers(workers), total)
    if n <= 1:
        out = []
        for b in blocks:
            out.append(fn(*b))
            tick(len(out))
        return out
    from joblib import Parallel, delayed
    tracker_ignoring_sighup()
    out = []
    for res in _watched(Parallel(n_jobs=n, backend="loky", batch_size=1, inner_max_num_threads=1,
                                 return_as="generator")(delayed(fn)(*b) for b in blocks)):
        out.append(res)  # in the blocks' order
        tick(len(out))
    return out


#: how size_text marks a job long enough to be announced wherever the command's errors go (not only on a terminal)
ESTIMATE = "(an estimate)"
#: the time of one unit of simdom.policies.policy_cost on one core, as the expensive policies spend it (they
#: decide the size of a long job): measured 2026-12-04 on this machine, 2-player Threes against greedy, per
#: unit: search 0.88 us, clairvoyant 1.9 us, rollout:samples=8 0.11 us, greedy 0.08 us
COST_UNIT_SECONDS = 1e-6


def size_text(decisions: float, workers: int) -> str:
    """A job's size in words before it starts: its play in greedy decisions (policy_cost) as time on
    ``workers`` workers, e.g. ``about 16 hours on 2 workers (an estimate)``."""
    s = decisions * COST_UNIT_SECONDS / max(1, workers)
    for unit, length in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if s >= 1.5 * length:
            return f"about {s / length:,.0f} {unit}s on {workers} worker{'s' * (workers != 1)} {ESTIMATE}"
    return "under a minute" if s < 60 else f"about a minute on {workers} worker{'s' * (workers != 1)}"


def deal_blocks(deals: int, workers: int, per_worker: int = 8, most: int = 50) -> list[tuple[int, int]]:
    """(first deal, count) blocks covering 0 .. deals - 1: about ``per_worker`` blocks a worker (a hard deal
    then holds up one block, not a worker's share), at most ``most`` deals each."""
    size = max(1, min(most, -(-deals // (per_worker * max(1, workers)))))
    return [(d0, min(size, deals - d0)) for d0 in range(0, deals, size)]

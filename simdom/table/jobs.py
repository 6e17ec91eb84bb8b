"""The table's long work (a hint, the solver, a review) as jobs: a bounded pool serves every game, each
game runs at most one job at a time, and any job can be cancelled.

A job reports its progress through :meth:`Job.progress`, which raises :class:`Cancelled` once the job is
cancelled (a newer job of its game, the page left or reloaded, the server stopping): the work stops at its
next report (a hint's rollouts report every twentieth of their budget, a review after every decision).
Waiting jobs hold no thread: the pool's few threads take them in order.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable


class Cancelled(Exception):
    """The job was cancelled; its work stops where it reports progress."""


@dataclass(eq=False)
class Job:
    """Work of one game (a hint, the solver, a review): its progress, its result, its cancellation."""

    kind: str
    key: Any
    done: int = 0
    planned: int = 0
    result: Any = None
    error: str | None = None
    finished: bool = False
    started: float = field(default_factory=time.monotonic)
    stop: threading.Event = field(default_factory=threading.Event, repr=False)

    def progress(self, done: int, planned: int) -> None:
        """The work's report: ``done`` of ``planned``; raises :class:`Cancelled` once cancelled."""
        self.done, self.planned = done, planned
        if self.stop.is_set():
            raise Cancelled

    def cancel(self) -> None:
        self.stop.set()

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "stamp": self.started, "done": self.done, "planned": self.planned,
                "finished": self.finished, "error": self.error, "result": self.result,
                "seconds": round(time.monotonic() - self.started, 1)}


def run_job(job: Job, work: Callable[[Job], Any], known: tuple[type[Exception], ...]) -> tuple[Any, str | None]:
    """Run ``work`` for ``job``: (its result, None) or (None, its error in one line: an exception of
    ``known`` as it is, a cancellation as such, anything else with its type)."""
    if job.stop.is_set():
        return None, "cancelled"
    try:
        return work(job), None
    except Cancelled:
        return None, "cancelled"
    except known as e:
        return None, str(e)
    except Exception as e:  # noqa: BLE001 - shown on the page, the server goes on
        return None, f"{type(e).__name__}: {e}"


class Pool:
    """A few daemon threads (one a core, at least two) that run the games' jobs in order."""

    def __init__(self, known: tuple[type[Exception], ...] = (), workers: int | None = None):
        self.known = known
        self.queue: queue.Queue = queue.Queue()
        self.live: set[Job] = set()
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        n = workers or max(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2)
        self.threads = [threading.Thread(target=self._serve, daemon=True, name=f"table-job-{i}") for i in range(n)]
        for t in self.threads:
            t.start()

    def submit(self, jobs: dict[str, Job], job: Job, work: Callable[[Job], Any], lock: Any) -> None:
        """Queue ``job`` as its game's one job (``jobs``: the game's, guarded by ``lock``, which the caller
        holds): every unfinished job of the game is cancelled first."""
        cancel_all(jobs)
        jobs[job.kind] = job
        self.track(job)
        self.queue.put((job, work, lock))

    def track(self, job: Job) -> None:
        """Count ``job`` among the live ones (cancelled if the server stops), also one run outside the pool."""
        with self.lock:
            self.live.add(job)
        if self.stopping.is_set():
            job.cancel()

    def done(self, job: Job) -> None:
        with self.lock:
            self.live.discard(job)

    def _serve(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            job, work, lock = item
            result, err = run_job(job, work, self.known)
            with lock:
                job.result, job.error, job.finished = result, err, True
            self.done(job)

    def stop(self) -> None:
        """Cancel every job and let the threads end (each at its job's next report)."""
        self.stopping.set()
        with self.lock:
            for job in self.live:
                job.cancel()
        for _ in self.threads:
            self.queue.put(None)


def cancel_all(jobs: dict[str, Job]) -> None:
    """Cancel a game's unfinished jobs (safe without the game's lock: it reads a copy)."""
    for j in list(jobs.values()):
        if not j.finished:
            j.cancel()

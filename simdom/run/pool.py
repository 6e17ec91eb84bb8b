"""The local workers of `simdom run`: processes forked once the run has loaded the kernel (they start in
milliseconds with the kernel in memory), each with its own pipe.

The parent hands every worker at most two chunks at a time and knows which chunk each worker is
playing, so a worker that dies (killed, out of memory, crashed) is seen at once through its process
sentinel: the run stops within a second with :class:`WorkerLost` naming the lost chunk, never waits for
a result that will not come. Workers ignore Ctrl-C and SIGTERM (the parent stops them), leave the
folder's lock to the parent, and exit when the parent dies.

Why not joblib's loky (which the runner uses where fork is not available, and which reports a dead
worker too): measured by bench/pool_vs_loky.py (2 workers, 2026-12-02), a 20,000-deal run takes 0.62-0.80 s
either way once loky's workers exist, but the first run of a process, which every `simdom run` is,
waits 2.7 s for loky to spawn its workers and import simdom in each, against 0.6-0.9 s here; 2M deals
take the same time (median 49.9 s here, 49.3 s with loky, ABBA order under the same load).
"""
from __future__ import annotations

import contextlib
import os
import signal
import traceback
from collections import deque
from typing import Iterator

from .plan import Plan
from .worker import ChunkResult, exit_with_parent, play_chunk, warm

#: chunks handed to a worker ahead: one playing, one waiting (no worker idles while the parent writes)
AHEAD = 2


class WorkerLost(RuntimeError):
    """A worker process died while playing a chunk; the run stops (exit code 1) and resumes when started again."""
    exit_code = 1


class ChunkRefused(ValueError):
    """A worker's chunk stopped on an error simdom names (a Python policy that raised, a bad move it
    returned): its one line, as the command gives it when it plays the chunk itself (exit code 2)."""


def _ours(e: BaseException) -> bool:
    """An error of a class simdom defines (its message is the one line for the person), not a bug."""
    return any(c.__module__.split(".")[0] == "simdom" for c in type(e).__mro__)


def _serve(conn, parent: int, others: list) -> None:
    """A worker: play the chunks the parent sends, answer ("ok", chunk, result) or ("error", chunk, text)."""
    import pyarrow as pa
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.set_wakeup_fd(-1)  # the parent's signal watchdog pipe (simdom.signals) is the parent's
    for other in others:  # the parent's ends of the other workers' pipes
        with contextlib.suppress(OSError):
            other.close()
    pa.set_memory_pool(pa.system_memory_pool())
    exit_with_parent(parent)
    plan = None
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        if isinstance(msg, Plan):
            plan = msg
            continue
        try:
            answer = ("ok", msg, play_chunk(plan, msg))
        except MemoryError:
            answer = ("memory", msg, "out of memory")
        except Exception as e:  # noqa: BLE001 - reported to the parent, which stops the run
            answer = ("refused", msg, str(e)) if _ours(e) else ("error", msg, traceback.format_exc())
        except BaseException:  # noqa: BLE001 - reported to the parent, which stops the run
            answer = ("error", msg, traceback.format_exc())
        try:
            conn.send(answer)
        except OSError:  # the parent is gone or stopping: nothing to tell
            return


class _Worker:
    def __init__(self, proc, conn) -> None:
        self.proc, self.conn = proc, conn
        self.chunks: deque[int] = deque()


def _death(code: int | None) -> str:
    if code is None:
        return "stopped answering"
    if code < 0:
        name = signal.Signals(-code).name
        return f"was killed by {name}" + (" (out of memory?)" if code == -signal.SIGKILL else "")
    return f"exited with code {code}"


class LocalPool:
    """``n`` forked workers. Create it before the process starts any thread (the progress bar, Arrow's
    thread pools): forking a process with live threads can deadlock."""

    def __init__(self, n: int, plan: "Plan | None" = None) -> None:
        import multiprocessing as mp
        warm(plan)  # the batch kernel the run needs, loaded (or compiled) once, before the fork
        ctx = mp.get_context("fork")
        self.n = n
        self.workers: list[_Worker] = []
        for _ in range(n):
            ours, theirs = ctx.Pipe(duplex=True)
            proc = ctx.Process(target=_serve, args=(theirs, os.getpid(), [w.conn for w in self.workers]),
                               daemon=True, name="simdom-worker")
            proc.start()
            theirs.close()
            self.workers.append(_Worker(proc, ours))

    def results(self, plan: Plan, todo: list[int]) -> Iterator[ChunkResult]:
        """The chunks' results as they finish; WorkerLost when a worker dies with a chunk."""
        from multiprocessing.connection import wait
        left = deque(todo)

        def send(w: _Worker, msg) -> None:
            try:
                w.conn.send(msg)
            except OSError:  # the worker died since its last answer
                self._lost(plan, w, msg if isinstance(msg, int) else None)

        def feed(w: _Worker) -> None:
            while left and len(w.chunks) < AHEAD:
                c = left.popleft()
                send(w, c)
                w.chunks.append(c)

        for w in self.workers:
            send(w, plan)

        for w in self.workers:
            feed(w)
        while any(w.chunks for w in self.workers):
            busy = [w for w in self.workers if w.chunks]
            ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=1.0))
            for w in busy:
                if w.conn in ready or (w.proc.sentinel in ready and w.conn.poll()):
                    try:
                        kind, chunk, payload = w.conn.recv()
                    except (EOFError, OSError):
                        self._lost(plan, w)
                    w.chunks.popleft()
                    if kind == "memory":
                        raise WorkerLost(f"chunk {chunk} ran out of memory in a worker; allowed: a smaller "
                                         "chunk_size in the scenario, fewer --workers, or more memory")
                    if kind == "refused":
                        raise ChunkRefused(payload)
                    if kind == "error":
                        raise RuntimeError(f"chunk {chunk} failed in a worker process:\n{payload}")
                    feed(w)
                    yield payload
                elif w.proc.sentinel in ready:
                    self._lost(plan, w)

    def _lost(self, plan: Plan, w: _Worker, sending: int | None = None) -> None:
        w.proc.join(timeout=1.0)
        if not w.chunks and sending is None:
            raise WorkerLost(f"worker process {w.proc.pid} {_death(w.proc.exitcode)} before its first chunk; "
                             "the run stopped")
        c = w.chunks[0] if w.chunks else sending
        d0, d1 = plan.chunk_range(c)
        raise WorkerLost(f"worker process {w.proc.pid} {_death(w.proc.exitcode)} while playing chunk {c} "
                         f"({plan.unit.plural} {d0}..{d1 - 1}); the run stopped")

    def close(self) -> None:
        """Stop every worker (SIGKILL: they hold nothing worth saving), then close the pipes."""
        for w in self.workers:
            if w.proc.is_alive():
                with contextlib.suppress(OSError):
                    os.kill(w.proc.pid, signal.SIGKILL)
        for w in self.workers:
            w.proc.join(timeout=5)
            with contextlib.suppress(OSError):
                w.conn.close()

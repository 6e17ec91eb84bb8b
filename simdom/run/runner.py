"""`simdom run`: a scenario's deals in chunks on worker processes (local: forked from the run once it has
loaded the kernel, so they start in milliseconds; or a dask cluster's workers), written as a
results folder (simdom.results) that resumes after any crash.

* Workers play a chunk (simdom.run.worker) and return its Parquet parts as bytes plus the summary
  sums; the parent, the only writer, writes each part atomically (simdom.results.write_atomic), so a
  part under its final name is always whole, and it never holds more than a few chunks.
* Each part carries the run's settings hash, its chunk number and row count in its footer, and page
  checksums. A new start verifies the parts it finds and computes only the missing or damaged chunks;
  a folder holding other results is refused unless ``overwrite``.
"""
from __future__ import annotations

import contextlib
import itertools
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import numpy as np

from .. import results as fmt
from ..engine.api import SIM_VERSION
from ..policies import PolicyError, parse_policy
from .folder import Folder, ReadOnly, RunError, check_folder, locked, manifest_for, now, save_manifest, write_part
from .plan import Plan
from .summary import SUMS
from . import faults
from .pool import LocalPool, WorkerLost
from .worker import PARENT_ENV, ChunkResult, play_chunk

if TYPE_CHECKING:
    from .scenario import Scenario


class RunInterrupted(Exception):
    """The run stopped early (Ctrl-C: exit code 130, SIGTERM: 143); the parts written so far are kept."""

    def __init__(self, message: str, exit_code: int = 130) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass
class RunSummary:
    plan: Plan
    path: Path
    sums: np.ndarray         #: float64[groups, len(SUMS)], simdom.run.summary
    computed: int
    reused: int
    seconds: float
    played: int = 0          #: deals played in this session and reused, every arm and rotation counted
    removed: int = 0         #: stray parts removed (files named as parts of no chunk of this run)


@dataclass
class Cluster:
    """A dask cluster reached for a run: its jobs at once, the stack that holds the client, the client and the
    scheduler's address."""
    n: int
    stack: contextlib.ExitStack
    client: object
    address: str


def _loky(workers: int | None):
    """joblib's loky workers (where fork is not available): (number of jobs, the context manager that
    configures them)."""
    from joblib import parallel_config
    n = workers or os.cpu_count() or 1
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")  # freed buffers go back to the OS
    os.environ[PARENT_ENV] = str(os.getpid())
    faults.tracker_ignoring_sighup()
    return n, parallel_config(backend="loky", n_jobs=n, inner_max_num_threads=1)


def _dask(workers: int | None, scheduler: str | None) -> Cluster:
    """The dask cluster at ``scheduler``, reached (RunError in one line when it cannot be)."""
    if not scheduler:
        raise RunError("--backend dask needs --scheduler tcp://HOST:PORT (the address of a running dask scheduler)")
    from distributed import Client
    stack = contextlib.ExitStack()
    # a lost scheduler is told in one line (SchedulerLost), not by distributed's log of tracebacks
    loggers = [logging.getLogger(name) for name in ["distributed", *logging.Logger.manager.loggerDict]
               if name == "distributed" or name.startswith("distributed.")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    stack.callback(lambda: [lg.setLevel(v) for lg, v in zip(loggers, levels)])
    try:
        client = stack.enter_context(Client(scheduler, timeout=DASK_RECONNECT))
    except Exception as e:  # noqa: BLE001 - any failure to connect is the scheduler address's problem
        stack.close()
        raise RunError(f"cannot reach the dask scheduler at {scheduler!r}: {e}; allowed: tcp://HOST:PORT of a "
                       "running dask scheduler") from None
    n = workers or max(1, sum(client.nthreads().values()))
    return Cluster(n, stack, client, scheduler)


class SchedulerLost(WorkerLost):
    """The dask scheduler went away during a run (exit code 1): the parts written are kept, the same command
    resumes."""


#: how long a dask run waits for its client to reconnect to a lost scheduler before it stops
DASK_RECONNECT = "20s"


def _dask_results(cluster: Cluster, plan: Plan, todo: list[int], done: Callable[[], int]) -> Iterator[ChunkResult]:
    """The chunks ``todo`` played on the dask cluster, in the order they finish (dask_tasks)."""
    client, address = cluster.client, cluster.address

    def lost() -> SchedulerLost:
        return SchedulerLost(f"the dask scheduler at {address} was lost after {done()} of {plan.n_chunks} chunks")
    for _, res in dask_tasks(client, play_chunk, [(plan, c) for c in todo], cluster.n, lost):
        yield res


def dask_tasks(client, fn: Callable[..., Any], tasks: Sequence[tuple], n_jobs: int,
               lost: Callable[[], Exception]) -> Iterator[tuple[int, Any]]:
    """(i, fn(*tasks[i])) on the dask cluster of ``client`` as they finish, at most ``n_jobs + 2`` in flight:
    the one dask loop of simdom run, skill and ladder. A scheduler that goes away (the client closes after
    it fails to reconnect, or the tasks' futures are cancelled or lost) raises ``lost()`` (one line); a
    worker killed too often, KilledWorker (reported as WorkerLost by :func:`_watched`)."""
    from concurrent.futures import CancelledError

    pending = iter(enumerate(tasks))
    flying = {client.submit(fn, *t, pure=False): i for i, t in itertools.islice(pending, n_jobs + 2)}
    try:
        while flying:
            ready = [f for f in flying if f.done()]
            if not ready:
                if client.status not in ("running", "connecting", "newly-created"):
                    raise lost()
                time.sleep(0.02)
                continue
            for f in ready:
                i = flying.pop(f)
                if f.status in ("cancelled", "lost"):
                    raise lost()
                if f.status == "error":
                    f.result()  # the task's own error (KilledWorker, another behaviour version, ...), raised here
                try:
                    res = f.result()
                except (CancelledError, OSError, TimeoutError):  # its result could not be fetched
                    raise lost() from None
                nxt = next(pending, None)
                if nxt is not None:
                    flying[client.submit(fn, *nxt[1], pure=False)] = nxt[0]
                yield i, res
    finally:
        for f in flying:
            with contextlib.suppress(Exception):
                f.release()


def _fork_available() -> bool:
    import multiprocessing as mp
    return sys.platform.startswith("linux") and "fork" in mp.get_all_start_methods()


#: local workers per core at most: more only add start-up time and memory (2,000 deals on 1,000 workers
#: took 287 s on 2 cores, against 1 s on 2)
WORKERS_PER_CORE = 4
#: a dask cluster's workers at most (tasks in flight beyond this only queue)
MAX_DASK_WORKERS = 4096
#: rollouts per first-double decision at most (the rollout policy's own limit of samples)
MAX_DECISION_ROLLOUTS = 10_000


def continuation(text: str) -> str:
    """The canonical text of the decision rollouts' continuation policy (RunError naming it otherwise:
    a compiled policy only, the decisions are recorded by the kernel)."""
    try:
        return str(parse_policy(text))
    except PolicyError as e:
        raise RunError(f"--then: {e}") from None


def check_options(workers: int | None, backend: str = "local", decision_rollouts: int = 0) -> None:
    """RunError unless ``workers`` is None (every core) or from 1 to the backend's limit, and
    ``decision_rollouts`` from 0 to MAX_DECISION_ROLLOUTS (run() checks them; the CLI calls this first,
    before it prints anything)."""
    if not 0 <= decision_rollouts <= MAX_DECISION_ROLLOUTS:
        raise RunError(f"--decision-rollouts {decision_rollouts} is invalid; allowed: an integer from 0 to "
                       f"{MAX_DECISION_ROLLOUTS:,} (each decision plays 2 x N deals: beyond that a run takes "
                       "hours per thousand deals)")
    if workers is None:
        return
    if backend == "dask":
        if not 1 <= workers <= MAX_DASK_WORKERS:
            raise RunError(f"--workers {workers} is invalid; allowed: an integer from 1 to {MAX_DASK_WORKERS:,} "
                           "with --backend dask (more tasks in flight only queue)")
        return
    cores = os.cpu_count() or 1
    most = WORKERS_PER_CORE * cores
    if not 1 <= workers <= most:
        raise RunError(f"--workers {workers} is invalid; allowed: an integer from 1 to {most} ({WORKERS_PER_CORE} "
                       f"per core on this machine's {cores}: more workers only add start-up time and memory)")


def check_run(sc: "Scenario", tables: tuple[str, ...], workers: int | None = None, backend: str = "local",
              scheduler: str | None = None, decision_rollouts: int = 0, decision_then: str = "greedy") -> None:
    """RunError unless the options fit each other and the scenario (:func:`check_options`; --scheduler only
    with dask; the decisions table only for single deals). run() checks them; the CLI calls this first,
    before it prints anything."""
    check_options(workers, backend, decision_rollouts)
    if scheduler and backend != "dask":
        raise RunError("--scheduler is only used with --backend dask")
    if decision_then != "greedy" and not decision_rollouts:
        raise RunError("--then is the continuation of the decision rollouts; allowed: with --decision-rollouts N "
                       "(N >= 1)")
    if "decisions" in tables and sc.unit.is_match:
        raise RunError("--decisions records the first-double decisions of single deals; allowed: rules with "
                       f"target = 0 ({sc.path or 'the scenario'} plays matches)")
    if "course" in tables and sc.unit.is_match:
        raise RunError("--course tallies the course of single deals; allowed: rules with target = 0 "
                       f"({sc.path or 'the scenario'} plays matches)")


def check_folders(runs: "Sequence[tuple[Scenario, Path]]", root: Path, tables: tuple[str, ...], *,
                  overwrite: bool = False, decision_rollouts: int = 0, decision_then: str = "greedy") -> None:
    """Every folder of a command's runs checked before any is written (a study over player counts writes
    ``root/2p``, ``root/3p``, ...): RunError when ``root`` holds another study's layout (a study's count
    folders under one run, one run's results under a study, or a count this study does not play, which
    ``simdom balance ROOT`` would read beside it), or when a count's folder holds other results."""
    counts = [sc.players for sc, _ in runs] if len(runs) > 1 else None
    subs = sorted(d.name for d in root.iterdir() if d.is_dir() and len(d.name) == 2 and d.name[1] == "p"
                  and d.name[0].isdigit() and (d / fmt.MANIFEST).exists()) if root.is_dir() else []
    if counts is None and subs:
        raise RunError(f"{root} holds a study over player counts ({', '.join(subs)}); allowed: --out another folder")
    if counts is not None and (root / fmt.MANIFEST).exists():
        raise RunError(f"{root} holds the results of one run, not a study over player counts (this one writes "
                       f"{', '.join(f'{n}p' for n in counts)}); allowed: --out another folder")
    stray = [s for s in subs if counts is not None and int(s[0]) not in counts]
    if stray:
        raise RunError(f"{root} holds another study: {root / stray[0]} is not one of this study's player counts "
                       f"({', '.join(map(str, counts))}) and simdom balance {root} would read it; allowed: --out "
                       "another folder")
    for sc, folder in runs[1:] if counts else ():  # the first is checked by run(), after these
        kept = tuple(t for t in sc.unit.tables if t in set(tables) | {"deals", "matches"})
        try:
            check_folder(folder, manifest_for(sc, kept, SIM_VERSION, decision_rollouts,
                                              continuation(decision_then)), overwrite=overwrite)
        except OSError as e:
            raise RunError(f"cannot read the results folder: {faults.io_problem(e)}") from None


def run(sc: "Scenario", out: Path, *, tables: tuple[str, ...] = ("deals",), workers: int | None = None,
        backend: str = "local", scheduler: str | None = None, overwrite: bool = False, decision_rollouts: int = 0,
        decision_then: str = "greedy", on_start: Callable[[int, int], None] | None = None,
        on_chunk: Callable[[int], None] | None = None) -> RunSummary:
    """Run the scenario into ``out``; resume what is there. ``tables``: deals and any of seats, moves,
    decisions (``decision_rollouts`` rollouts per first-double decision, played on by ``decision_then`` for
    every seat; single deals only).
    ``on_start(deals_total, deals_already_done)`` and ``on_chunk(deals)`` report progress. Raises RunError
    before touching anything or when the folder cannot be written (disk full: the parts written are kept),
    RunInterrupted on Ctrl-C or SIGTERM, WorkerLost when a worker dies; the folder then resumes."""
    t0 = time.perf_counter()
    decision_then = continuation(decision_then)
    check_run(sc, tables, workers, backend, scheduler, decision_rollouts, decision_then)
    py = next((p for a in sc.arms for p in a.policies if p.startswith("python:")), None)
    if "decisions" in tables and py is not None:
        raise RunError(f"--decisions records the first-double decisions in the compiled kernel, but an arm plays "
                       f"{py}; allowed: --decisions with compiled policies only")
    tables = tuple(t for t in sc.unit.tables if t in set(tables) | {"deals", "matches"})
    new = manifest_for(sc, tables, SIM_VERSION, decision_rollouts, decision_then)
    out = Path(out)
    try:
        old = check_folder(out, new, overwrite=overwrite)
    except OSError as e:
        raise RunError(f"cannot read the results folder: {faults.io_problem(e)}") from None
    plan = Plan.of(sc, tables=tables, settings_hash=new.settings_hash, sim_version=SIM_VERSION,
                   decision_rollouts=decision_rollouts if "decisions" in tables else 0, decision_then=decision_then)
    if backend not in ("local", "dask"):
        raise RunError(f"--backend {backend!r} is invalid; allowed: local, dask")
    # a cluster is reached before the folder is touched: a wrong address changes nothing
    cluster = _dask(workers, scheduler) if backend == "dask" else None
    try:
        with locked(out), contextlib.ExitStack() as stack, faults.stopping():
            if cluster is not None:
                stack.callback(cluster.stack.close)
            return _run_locked(plan, out, new, old, stack, workers, cluster, on_start, on_chunk, t0)
    except ReadOnly:
        if old is None or not old.complete:
            raise
        return _summary_only(plan, out, old, t0)  # a complete folder that cannot be written: nothing to write


def _run_locked(plan: Plan, out: Path, new: fmt.Manifest, old: fmt.Manifest | None, stack: contextlib.ExitStack,
                workers: int | None, cluster: Cluster | None, on_start, on_chunk, t0: float) -> RunSummary:
    folder = Folder(out, new)
    resume = f"{{}} of {plan.n_chunks} chunks are written in {out}; run the same command again to resume"
    try:
        if old is None:  # fresh start (or --overwrite): remove simdom's own files only, then say what this is
            for f in faults.own_files(out):
                f.unlink()
            folder.write_manifest()
        else:  # a resume: until the parts are verified, the progress is the old manifest's (never less)
            new.created, new.chunks_done = old.created, sorted(old.chunks_done)
        for sub in plan.tables:
            (out / sub).mkdir(exist_ok=True)
            for f in (out / sub).glob(".*.tmp"):
                f.unlink()  # left by a killed run
        stray = faults.stray_parts(out, plan.tables, plan.n_chunks) if old is not None else []
        for f in stray:
            f.unlink()  # a part of no chunk of this run: readers would refuse the folder
        new.parts = dict(old.parts) if old is not None else {}  # the records the parts are checked against
        done, sums, played = folder.reusable(plan) if old is not None else \
            ([], np.zeros((len(plan.groups()), len(SUMS))), 0)
        todo = [c for c in range(plan.n_chunks) if c not in set(done)]
        new.chunks_done = sorted(done)
        new.keep_parts(done)
        folder.write_manifest()
        pool = None
        n_local = workers or os.cpu_count() or 1
        if cluster is None and n_local > 1 and len(todo) > 1 and _fork_available():
            # before anything starts a thread (the caller's progress bar; the reads above start none)
            pool = LocalPool(min(n_local, len(todo)), plan)
            stack.callback(pool.close)
        if on_start:
            on_start(plan.deals, sum(plan.chunk_deals(c) for c in done))
        new.last_session = {"started": now(), "backend": "local" if cluster is None else "dask", "workers": workers,
                            "chunks_computed": 0, "seconds": None, "first_chunk_seconds": None}
        results = _chunk_results(plan, folder, todo, workers, cluster, pool)
        stack.callback(results.close)  # its workers' context ends with the run, whatever stops it
        computed, more = _compute(plan, folder, results, sums, on_chunk, t0) if todo else (0, 0)
        played += more
        new.last_session.update(chunks_computed=computed, seconds=round(time.perf_counter() - t0, 3))
        new.chunks_done, new.finished, new.complete = list(range(plan.n_chunks)), now(), True
        folder.write_manifest()
    except KeyboardInterrupt as e:
        save_manifest(folder)
        term = isinstance(e, faults.Terminated)
        raise RunInterrupted(f"{f'terminated ({e.signal})' if term else 'interrupted'}: "
                             + resume.format(len(new.chunks_done)), e.exit_code if term else 130) from None
    except SchedulerLost as e:
        save_manifest(folder)
        raise SchedulerLost(f"{e}; the {len(new.chunks_done)} written chunks are kept in {out}; run the same "
                            "command again to resume") from None
    except WorkerLost as e:
        save_manifest(folder)
        raise WorkerLost(f"{e}: " + resume.format(len(new.chunks_done))) from None
    except OSError as e:
        save_manifest(folder)
        raise RunError(f"cannot write {faults.io_problem(e)}: " + resume.format(len(new.chunks_done))
                       + " once the folder can be written") from None
    return RunSummary(plan, out, sums, computed, len(done), time.perf_counter() - t0, played, len(stray))


def _watched(results: Iterator[ChunkResult]) -> Iterator[ChunkResult]:
    """The results of joblib's or dask's workers, a dead worker reported as WorkerLost (as the local pool's)."""
    try:
        yield from results
    except Exception as e:
        if type(e).__name__ in ("TerminatedWorkerError", "KilledWorker"):  # loky; dask after its retries
            raise WorkerLost(f"a worker process died ({str(e).splitlines()[0][:120]}); the run stopped") from None
        raise


def _summary_only(plan: Plan, out: Path, old: fmt.Manifest, t0: float) -> RunSummary:
    """A complete folder that cannot be written: its summary when every part is whole, else RunError."""
    done, sums, played = Folder(out, old).reusable(plan)
    if len(done) != plan.n_chunks or faults.stray_parts(out, plan.tables, plan.n_chunks):
        raise RunError(f"{out} is damaged ({plan.n_chunks - len(done)} chunk(s) to recompute) and cannot be "
                       "written (read-only); allowed: a writable folder, or copy it somewhere writable and run there")
    return RunSummary(plan, out, sums, 0, len(done), time.perf_counter() - t0, played)


def _chunk_results(plan: Plan, folder: Folder, todo: list[int], workers: int | None, cluster: Cluster | None,
                   pool: LocalPool | None) -> Iterator[ChunkResult]:
    """The chunks ``todo`` played, in the order they finish: by the forked local workers (``pool``), the dask
    cluster, this process (one worker), or joblib's loky workers where fork is not available."""
    if pool is not None:
        yield from pool.results(plan, todo)
    elif cluster is not None:
        yield from _dask_results(cluster, plan, todo, lambda: len(folder.manifest.chunks_done))
    else:
        n_jobs, ctx = _loky(workers)
        with ctx:
            if n_jobs == 1 or len(todo) == 1:  # in this process: no worker to start (loky's take 0.5 s and more)
                yield from (play_chunk(plan, c) for c in todo)
            else:
                from joblib import Parallel, delayed
                yield from Parallel(return_as="generator_unordered", pre_dispatch="n_jobs + 2")(
                    delayed(play_chunk)(plan, c) for c in todo)


def _compute(plan: Plan, folder: Folder, results: Iterator[ChunkResult], sums: np.ndarray,
             on_chunk: Callable[[int], None] | None, t0: float) -> tuple[int, int]:
    """Write the parts of the chunks ``results`` brings: (chunks computed, deals played)."""
    computed, played, last = 0, 0, time.monotonic()
    m = folder.manifest
    for res in _watched(results):
        for table, data in res.parts.items():
            m.record(table, res.chunk, data)  # what every reader checks the part against
        for table, data in res.parts.items():  # the deals part last: it marks the chunk whole
            if table != "deals":
                write_part(fmt.part_path(folder.path, table, res.chunk), data)
        write_part(fmt.part_path(folder.path, "deals", res.chunk), res.parts["deals"])
        sums += res.sums
        computed += 1
        played += res.played
        if computed == 1:
            m.last_session["first_chunk_seconds"] = round(time.perf_counter() - t0, 3)
        m.chunks_done = sorted([*m.chunks_done, res.chunk])
        if time.monotonic() - last > 2.0:
            folder.write_manifest()
            last = time.monotonic()
        if on_chunk:
            on_chunk(res.n_deals)
    return computed, played

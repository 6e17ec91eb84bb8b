"""`simdom run`: a scenario's deals in chunks on worker processes (local: forked from the run once it has
loaded the kernel, so they start in milliseconds; or a dask cluster through joblib), written as a
Parquet dataset that resumes after any crash.

* A chunk is the deal range ``[c * chunk_size, (c + 1) * chunk_size)`` played for every arm and
  rotation. Deal i's randomness comes from the root seed (numpy SeedSequence -> root key) and i
  alone, so the rows never depend on the chunking, the workers, their order or the backend.
* Workers play a chunk (simdom/chunk.py, the worker side) and return its Parquet files as bytes plus a few sums for the summary; the
  parent (the only writer) writes each part under a temporary name and renames it, so a part under
  its final name is always whole, and the parent never holds more than a few chunks.
* Each part carries the run's settings hash, its chunk number and row count in its Parquet footer
  and page checksums. A new start verifies the parts it finds and computes only the missing or
  damaged chunks; a folder holding other results is refused unless ``overwrite``.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import sys
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..results import DEALS_DIR, MANIFEST, MOVES_DIR

if TYPE_CHECKING:  # the scenario module (pydantic) is not needed by the workers
    from .scenario import Scenario

KIND, FORMAT = "simdom-results", 1
PART = "part-{:05d}.parquet"
LOCK = ".simdom.lock"


class RunError(Exception):
    """A run that cannot start (folder in use, other results, bad option): a clear message."""


class RunInterrupted(Exception):
    """The run stopped early (Ctrl-C); the parts written so far are kept for a resume."""


def simdom_version() -> str:
    try:
        return version("simdom")
    except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
        return "0+unknown"


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")

from .worker import AGG, META_KEY, PARENT_ENV, ChunkResult, Plan, _exit_with_parent, _warm, aggregate, play_chunk


# ---- parent side: the folder ---------------------------------------------------------------------
def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` under a temporary name in the same folder, then rename: never half-written."""
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_part(path: Path, plan: Plan, chunk: int, rows: int | None) -> pa.Table | None:
    """The part's table if it is whole and belongs to this run (footer, metadata, rows, page CRCs)."""
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        meta = json.loads((pf.schema_arrow.metadata or {}).get(META_KEY, b"{}"))
        if meta.get("settings_hash") != plan.settings_hash or meta.get("chunk") != chunk:
            return None
        n = pf.metadata.num_rows
        if n != meta.get("rows") or (rows is not None and n != rows):
            return None
        table = pf.read(use_threads=False)  # no Arrow thread pool: workers are forked later
        return table if table.num_rows == n else None
    except Exception:  # a truncated or corrupt file: anything pyarrow refuses
        return None


@dataclass
class Folder:
    """A results folder: its lock, manifest and parts."""

    path: Path
    manifest: dict[str, Any] = field(default_factory=dict)

    def part(self, kind: str, c: int) -> Path:
        return self.path / kind / PART.format(c)

    def write_manifest(self) -> None:
        write_atomic(self.path / MANIFEST, (json.dumps(self.manifest, indent=1) + "\n").encode())


def _describe(m: dict[str, Any]) -> str:
    return (f"scenario {m.get('scenario_name')!r}, {m.get('deals')} deals, seed {m.get('seed')}, "
            f"chunk size {m.get('chunk_size')}, moves {m.get('moves')}, arms "
            f"{[a.get('name') for a in m.get('arms') or []]}, behaviour version {m.get('sim_version')}")


def _our_files(path: Path) -> list[Path]:
    out = [path / MANIFEST] if (path / MANIFEST).exists() else []
    for sub in (DEALS_DIR, MOVES_DIR):
        d = path / sub
        if d.is_dir():
            out += [f for f in d.iterdir() if f.name.endswith((".parquet", ".tmp"))]
    return out


def check_folder(path: Path, new_manifest: dict[str, Any], overwrite: bool) -> dict[str, Any] | None:
    """The old manifest to resume from, or None for a fresh start; RunError when the folder holds other
    results and ``overwrite`` is off. Touches nothing."""
    if path.exists() and not path.is_dir():
        raise RunError(f"--out {path} is a file, not a folder; choose a folder")
    if not path.is_dir() or not any(f for f in path.iterdir() if f.name != LOCK):
        return None
    mpath = path / MANIFEST
    old: Any = None
    if mpath.is_file():
        try:
            old = json.loads(mpath.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            old = None
    if isinstance(old, dict) and old.get("kind") == KIND and old.get("settings_hash") == new_manifest["settings_hash"]:
        return old
    if overwrite:
        return None
    if isinstance(old, dict) and old.get("kind") == KIND:
        raise RunError(f"{path} holds other results: {_describe(old)}; this run is {_describe(new_manifest)}. "
                       "Use --overwrite to replace them, or --out to write elsewhere")
    raise RunError(f"{path} is not empty and holds no simdom results of this scenario ({MANIFEST} missing or "
                   "not a simdom manifest); use --out to write elsewhere, or --overwrite to write into it "
                   "(only simdom's own files are replaced)")


@contextlib.contextmanager
def locked(path: Path) -> Iterator[int | None]:
    """Hold the folder's lock; yields its file descriptor (forked workers close their copy)."""
    path.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        yield None
        return
    with open(path / LOCK, "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise RunError(f"another simdom run is writing into {path}; wait for it or use --out") from None
        yield fh.fileno()


# ---- the run -------------------------------------------------------------------------------------
@dataclass
class RunSummary:
    plan: Plan
    path: Path
    agg: np.ndarray
    computed: int
    reused: int
    seconds: float
    complete: bool
    deals_done: int = 0


def manifest_for(sc: Scenario, moves: bool) -> dict[str, Any]:
    from ..engine.api import SIM_VERSION, root_key
    h = sc.settings_hash(moves, SIM_VERSION)
    return {"kind": KIND, "format": FORMAT, "simdom_version": simdom_version(), "sim_version": SIM_VERSION,
            "scenario_name": sc.name, "scenario": sc.source, "description": sc.description,
            "settings_hash": h, "seed": sc.seed, "root_key": format(int(root_key(sc.seed)), "016x"),
            "deals": sc.deals, "chunk_size": sc.chunk_size, "n_chunks": sc.n_chunks,
            "rotations": sc.rotations, "players": sc.players, "moves": bool(moves),
            "arms": [a.to_manifest() for a in sc.arms], "chunks_done": [], "created": now(), "finished": None,
            "complete": False}


def _parallel(backend: str, workers: int | None, scheduler: str | None):
    """(joblib Parallel kwargs, context manager) for the backend."""
    from joblib import parallel_config
    if backend == "local":
        n = workers or os.cpu_count() or 1
        # Arrow's system allocator returns freed chunk buffers to the OS: flat worker memory
        os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
        os.environ[PARENT_ENV] = str(os.getpid())
        return n, parallel_config(backend="loky", n_jobs=n, inner_max_num_threads=1)
    if backend != "dask":
        raise RunError(f"--backend {backend!r} is invalid; allowed: local, dask")
    if not scheduler:
        raise RunError("--backend dask needs --scheduler tcp://HOST:PORT (the address of a running dask scheduler)")
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover
        raise RunError("--backend dask needs the distributed package: pip install 'dask[distributed]'") from None
    stack = contextlib.ExitStack()
    try:
        client = stack.enter_context(Client(scheduler, timeout="20s"))
    except (OSError, TimeoutError) as e:
        raise RunError(f"cannot reach the dask scheduler at {scheduler}: {e}") from None
    n = workers or max(1, sum(client.nthreads().values()))
    stack.enter_context(parallel_config(backend="dask", n_jobs=n))
    return n, stack


def _fork_available() -> bool:
    import multiprocessing as mp
    return sys.platform.startswith("linux") and "fork" in mp.get_all_start_methods()


def _worker_init(parent: int, close_fd: int | None) -> None:
    """A forked local worker: Ctrl-C is the parent's business (it stops the pool), the folder lock stays
    with the parent alone (a worker finishing its chunk after a kill -9 must not hold it), freed Arrow
    buffers go back to the OS, and the worker exits when the parent dies."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if close_fd is not None:
        with contextlib.suppress(OSError):
            os.close(close_fd)
    pa.set_memory_pool(pa.system_memory_pool())
    _exit_with_parent(parent)


class LocalPool:
    """Local workers forked from this process once it has loaded the kernel: they start in milliseconds
    with the kernel in memory (no interpreter start, no imports, no cache load). Created before the
    process starts any thread (the progress bar, Arrow's thread pools): forking a process with live
    threads can deadlock."""

    def __init__(self, n: int, lock_fd: int | None) -> None:
        import multiprocessing as mp
        _warm()
        self.n = n
        self.pool = mp.get_context("fork").Pool(n, _worker_init, (os.getpid(), lock_fd))

    def results(self, plan: Plan, todo: list[int]) -> Iterator[ChunkResult]:
        """The chunks' results as they finish; at most ``n + 2`` chunks in flight (bounded memory)."""
        import queue
        done: queue.SimpleQueue = queue.SimpleQueue()
        left = iter(todo)

        def submit() -> int:
            c = next(left, None)
            if c is None:
                return 0
            self.pool.apply_async(play_chunk, (plan, c), callback=done.put, error_callback=done.put)
            return 1

        busy = sum(submit() for _ in range(self.n + 2))
        while busy:
            try:
                res = done.get(timeout=0.5)  # a timeout keeps Ctrl-C responsive
            except queue.Empty:
                continue
            if isinstance(res, BaseException):
                raise res
            busy += submit() - 1  # the workers never wait for the parent's writes
            yield res

    def close(self) -> None:
        self.pool.terminate()


def run(sc: Scenario, out: Path, *, moves: bool = False, workers: int | None = None, backend: str = "local",
        scheduler: str | None = None, overwrite: bool = False,
        on_start: Callable[[int, int], None] | None = None,
        on_chunk: Callable[[int], None] | None = None) -> RunSummary:
    """Run the scenario into ``out``; resume what is there. ``on_start(deals_total, deals_already_done)``
    and ``on_chunk(deals)`` report progress. Raises RunError before touching anything, RunInterrupted
    on Ctrl-C (the parts written are kept)."""
    import time
    t0 = time.perf_counter()
    if workers is not None and workers < 1:
        raise RunError(f"--workers {workers} is invalid; allowed: an integer >= 1")
    new = manifest_for(sc, moves)
    out = Path(out)
    old = check_folder(out, new, overwrite)
    plan = Plan.of(sc, moves, new["settings_hash"])
    groups = len(plan.groups())
    agg = np.zeros((groups, len(AGG)))
    with locked(out) as lock_fd, contextlib.ExitStack() as stack:
        folder = Folder(out, new)
        if old is None:  # fresh start (or --overwrite): remove simdom's own files only
            for f in _our_files(out):
                f.unlink()
        else:
            folder.manifest["created"] = old.get("created", new["created"])
        for sub in (DEALS_DIR, MOVES_DIR) if moves else (DEALS_DIR,):
            (out / sub).mkdir(exist_ok=True)
            for f in (out / sub).glob(".*.tmp"):
                f.unlink()  # left by a killed run
        done: list[int] = []
        if old is not None:
            for c in range(plan.n_chunks):
                t = read_part(folder.part(DEALS_DIR, c), plan, c, plan.deal_rows(c))
                if t is None or (moves and read_part(folder.part(MOVES_DIR, c), plan, c, None) is None):
                    continue
                d0, d1 = plan.chunk_range(c)
                shape = (len(plan.arm_names), d1 - d0, plan.rotations, plan.players)
                agg += aggregate(plan, t.column("points").to_numpy().reshape(shape),
                                 t.column("win").to_numpy().reshape(shape))
                done.append(c)
        todo = [c for c in range(plan.n_chunks) if c not in set(done)]
        folder.manifest["chunks_done"] = sorted(done)
        folder.write_manifest()
        deals_done = sum(plan.chunk_range(c)[1] - plan.chunk_range(c)[0] for c in done)
        pool = None
        n_local = workers or os.cpu_count() or 1
        if backend == "local" and n_local > 1 and len(todo) > 1 and _fork_available():
            # before anything starts a thread (the caller's progress bar; the reads above start none)
            pool = LocalPool(min(n_local, len(todo)), lock_fd)
            stack.callback(pool.close)
        if on_start:
            on_start(plan.deals, int(deals_done))
        computed = 0
        folder.manifest["last_session"] = {"started": now(), "backend": backend, "workers": workers,
                                           "chunks_computed": 0, "seconds": None, "first_chunk_seconds": None}
        if todo:
            try:
                computed = _compute(plan, folder, todo, agg, backend, workers, scheduler, on_chunk, t0, pool)
            except KeyboardInterrupt:
                folder.write_manifest()
                raise RunInterrupted(f"interrupted: {len(folder.manifest['chunks_done'])} of {plan.n_chunks} "
                                     "chunks are written; run the same command again to finish") from None
        folder.manifest["last_session"].update(chunks_computed=computed,
                                               seconds=round(time.perf_counter() - t0, 3))
        folder.manifest.update(chunks_done=list(range(plan.n_chunks)), finished=now(), complete=True)
        folder.write_manifest()
    return RunSummary(plan, out, agg, computed, len(done), time.perf_counter() - t0, True, plan.deals)


def _compute(plan: Plan, folder: Folder, todo: list[int], agg: np.ndarray, backend: str, workers: int | None,
             scheduler: str | None, on_chunk: Callable[[int], None] | None, t0: float,
             pool: LocalPool | None = None) -> int:
    import time
    computed, last = 0, time.monotonic()
    if pool is not None:
        n_jobs, ctx = pool.n, contextlib.nullcontext()
    else:
        n_jobs, ctx = _parallel(backend, workers, scheduler)
    with ctx:
        if pool is not None:
            results: Iterator[ChunkResult] = pool.results(plan, todo)
        elif n_jobs == 1 and backend == "local":
            results = (play_chunk(plan, c) for c in todo)  # in this process: no worker to start
        else:
            from joblib import Parallel, delayed
            results = Parallel(return_as="generator_unordered", pre_dispatch="n_jobs + 2")(
                delayed(play_chunk)(plan, c) for c in todo)
        for res in results:
            if res.moves is not None:
                write_atomic(folder.part(MOVES_DIR, res.chunk), res.moves)
            write_atomic(folder.part(DEALS_DIR, res.chunk), res.deals)
            agg += res.agg
            computed += 1
            if computed == 1:
                folder.manifest["last_session"]["first_chunk_seconds"] = round(time.perf_counter() - t0, 3)
            folder.manifest["chunks_done"] = sorted([*folder.manifest["chunks_done"], res.chunk])
            if time.monotonic() - last > 2.0:
                folder.write_manifest()
                last = time.monotonic()
            if on_chunk:
                on_chunk(res.n_deals)
    return computed


# ---- the summary ---------------------------------------------------------------------------------
def summary_rows(s: RunSummary) -> list[dict[str, Any]]:
    """Per (arm, policy): deals, mean points and win rate per deal (players of that policy averaged,
    rotations averaged) with 95% intervals, and the paired difference against the first arm with the
    same rules (none for that arm itself)."""
    rows = []
    for (a, pol, players), v in zip(s.plan.groups(), s.agg):
        n = max(v[0], 1.0)

        def mean_ci(s1: float, s2: float) -> tuple[float, float]:
            m = s1 / n
            var = max(s2 / n - m * m, 0.0) * n / max(n - 1, 1)
            return m, 1.96 * (var / n) ** 0.5

        rows.append({"arm": s.plan.arm_names[a], "policy": pol, "players": list(players), "deals": int(v[0]),
                     "points": mean_ci(v[1], v[2]), "win": mean_ci(v[3], v[4]),
                     "d_points": mean_ci(v[5], v[6]) if a != s.plan.baseline(a) else None,
                     "d_win": mean_ci(v[7], v[8]) if a != s.plan.baseline(a) else None})
    return rows

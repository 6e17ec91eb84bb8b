"""What `simdom run` does when the world gets in the way: SIGTERM, a full disk, a read-only or missing
target, a folder that is not simdom's, stray parts. Each ends the run with one line and leaves a
folder that the same command resumes (see simdom.run.runner).
"""
from __future__ import annotations

import errno
import json
import re
import signal
import threading
from pathlib import Path

from .. import results as fmt
from ..signals import Terminated, stopping  # noqa: F401 - where the runner finds them


def io_problem(e: OSError) -> str:
    """An OSError as a person reads it: the file and the reason."""
    where = f"{e.filename}: " if e.filename else ""
    reason = e.strerror or str(e)
    if e.errno == errno.ENOSPC:
        reason += " (the disk is full)"
    return f"{where}{reason}"


def is_simdom_folder(path: Path) -> bool:
    """The folder holds a manifest of simdom's kind (of any format version), or, its manifest damaged,
    parts that simdom wrote (their footers carry simdom's metadata)."""
    try:
        if not (path / fmt.MANIFEST).is_file():  # a FIFO under its name is not read (it would wait)
            raise OSError("not a regular file")
        data = json.loads((path / fmt.MANIFEST).read_bytes())
        return isinstance(data, dict) and data.get("kind") == fmt.KIND
    except (OSError, ValueError, RecursionError):
        pass
    import pyarrow.parquet as pq
    for part in sorted((path / "deals").glob("part-*.parquet"))[:1] if (path / "deals").is_dir() else []:
        try:
            return fmt.META_KEY.encode() in (pq.read_schema(part).metadata or {})
        except Exception:  # noqa: BLE001 - an unreadable file is not evidence of simdom
            return False
    return False


def holds_nothing(path: Path) -> bool:
    """No file but the lock, and no folder but empty table folders (a run stopped before its manifest)."""
    for f in path.iterdir():
        if f.name == fmt.LOCK:
            continue
        if f.is_dir() and (f.name in fmt.TABLES or f.name in fmt.MATCH_TABLES) and not any(f.iterdir()):
            continue
        return False
    return True


#: the names simdom gives the files of a table folder: a part (results/folder.py PART) and the temporary
#: file it is written to (safeio.atomic_open); any other file there is not simdom's
PART_NAME = re.compile(r"part-\d{5}\.parquet")
PART_TMP_NAME = re.compile(r"\.part-\d{5}\..*\.tmp")


def _table_files(path: Path) -> list[Path]:
    out: list[Path] = []
    for sub in {**fmt.TABLES, **fmt.MATCH_TABLES}:
        d = path / sub
        if d.is_dir():
            out += sorted(d.iterdir())
    return out


def own_files(path: Path) -> list[Path]:
    """simdom's own files in a results folder, which --overwrite replaces: the manifest, and in the table
    folders the files named as simdom names a part or a part being written. Nothing else."""
    out = [path / fmt.MANIFEST] if (path / fmt.MANIFEST).is_file() else []
    return out + [f for f in _table_files(path)
                  if f.is_file() and (PART_NAME.fullmatch(f.name) or PART_TMP_NAME.fullmatch(f.name))]


def foreign_files(path: Path) -> list[Path]:
    """What a table folder holds that simdom did not write (a user's file or folder): a run never removes it,
    and readers refuse a folder holding it."""
    own = set(own_files(path))
    return [f for f in _table_files(path) if f not in own]


def stray_parts(path: Path, tables: tuple[str, ...], n_chunks: int) -> list[Path]:
    """Files named like a part of one of the run's tables that are not one of its chunks."""
    want = {fmt.PART.format(c) for c in range(n_chunks)}
    out = []
    for t in tables:
        d = path / t
        if d.is_dir():
            out += [f for f in d.iterdir() if PART_NAME.fullmatch(f.name) and f.name not in want and f.is_file()]
    return sorted(out)


def tracker_ignoring_sighup() -> None:
    """Start loky's resource tracker with SIGHUP ignored. It is a process of the command's process group
    and ignores SIGINT and SIGTERM, not SIGHUP: a closed terminal killed it, and the tracker loky started
    in its place printed a KeyError traceback for every shared-memory folder (bench/held_out_signals.py).
    An ignored signal stays ignored across exec; the command's own handlers are back at once."""
    from joblib.externals.loky.backend import resource_tracker
    if threading.current_thread() is not threading.main_thread():
        resource_tracker.ensure_running()
        return
    old = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        resource_tracker.ensure_running()
    finally:
        signal.signal(signal.SIGHUP, old)

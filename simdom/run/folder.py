"""The results folder a run writes into: the manifest of a scenario's run, what a folder already there
holds (resumed, refused, or replaced with --overwrite, touching only simdom's own files), the folder's lock
(filelock), the chunks it can reuse and their summary sums, and the atomic writes of parts and manifest."""
from __future__ import annotations

import contextlib
import datetime as _dt
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import numpy as np

from .. import results as fmt
from ..engine.api import root_key, win_shares
from ..rules import shown
from . import faults
from .matchworker import match_sums
from .plan import Plan
from .summary import SUMS, chunk_sums

if TYPE_CHECKING:
    import polars as pl

    from .scenario import Scenario


class RunError(Exception):
    """A run that cannot start (folder in use, other results, bad option): a clear message."""


def simdom_version() -> str:
    try:
        return version("simdom")
    except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
        return "0+unknown"


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def manifest_for(sc: "Scenario", tables: tuple[str, ...], sim_version: int, decision_rollouts: int = 0,
                 decision_then: str = "greedy") -> fmt.Manifest:
    """The manifest of a fresh run of ``sc`` by this simdom (behaviour version ``sim_version``)."""
    extra = {"decision_rollouts": decision_rollouts} if "decisions" in tables else {}
    if extra and decision_then != "greedy":   # greedy, the kernel's own, is not written (older folders match)
        extra["decision_then"] = decision_then
    return fmt.Manifest(
        kind=fmt.KIND, format=fmt.FORMAT, simdom_version=simdom_version(), sim_version=sim_version,
        scenario_name=sc.name, scenario=sc.source, description=sc.description,
        settings_hash=sc.settings_hash(tables=tables, sim_version=sim_version, results_format=fmt.FORMAT, **extra),
        seed=sc.seed, root_key=format(int(root_key(sc.seed)), "016x"), deals=sc.deals, chunk_size=sc.chunk_size,
        n_chunks=-(-sc.deals // sc.chunk_size), rotations=sc.rotations, seating=sc.manifest_seating(),
        players=sc.players, unit=sc.unit,
        tables=list(tables), decision_rollouts=extra.get("decision_rollouts"), decision_then=extra.get("decision_then"),
        arms=[fmt.ArmEntry(**a.to_manifest()) for a in sc.arms], chunks_done=[], created=now(), complete=False)


def _describe(m: fmt.Manifest) -> str:
    return (f"scenario {m.scenario_name!r}, {m.deals} {m.unit.plural}, seed {m.seed}, "
            f"chunk size {m.chunk_size}, tables "
            f"{', '.join(m.tables)}, arms {[a.name for a in m.arms]}, behaviour version {m.sim_version}")


def check_folder(path: Path, new: fmt.Manifest, *, overwrite: bool) -> fmt.Manifest | None:
    """The old manifest to resume from, or None for a fresh start; RunError when the folder holds other
    results and ``overwrite`` is off, or is not a simdom results folder at all. Touches nothing."""
    if path.exists() and not path.is_dir():
        raise RunError(f"--out {path} is a file, not a folder; allowed: a new or empty folder, or a simdom "
                       "results folder")
    if not path.is_dir() or faults.holds_nothing(path):
        return None
    foreign = faults.foreign_files(path)
    if foreign and faults.is_simdom_folder(path):
        f = foreign[0]
        raise RunError(f"{f} is not simdom's (not named as simdom names a part): a run removes or replaces only "
                       f"simdom's own files, and readers refuse a folder holding it; allowed: move it out of the "
                       f"folder (mv {f} SOMEWHERE), or --out another folder")
    try:
        old, problem = fmt.read_manifest(path), ""
    except fmt.ResultsError as e:
        old, problem = None, str(e)
    if old is not None and old.settings_hash == new.settings_hash:
        if new.deals < old.deals and overwrite:
            return None  # --overwrite: a fresh start with fewer deals
        if new.deals < old.deals:  # more deals extend the folder (deal i depends only on the seed and i)
            unit = new.unit.plural
            raise RunError(f"{path} holds {old.deals:,} {unit} of this scenario and seed, more than the {new.deals:,} "
                           f"asked for; allowed: --deals {old.deals} or more (more adds the missing {unit}), "
                           "--overwrite to replace them, or --out to write elsewhere")
        return old
    if old is not None and not overwrite:
        diff = fmt.first_difference(fmt.manifest_settings(old), fmt.manifest_settings(new))
        what = (f"{diff[0]} is {shown(diff[1])} there but {shown(diff[2])} in this run" if diff else
                f"{_describe(old)}; this run is {_describe(new)}")
        raise RunError(f"{path} holds other results: {what}. Use --overwrite to replace them, or --out to write "
                       "elsewhere")
    if faults.is_simdom_folder(path):
        if overwrite:
            return None
        raise RunError(f"{problem}; use --overwrite to replace the folder's results, or --out to write elsewhere")
    raise RunError(f"{path} is not empty and is not a simdom results folder ({fmt.MANIFEST} missing or not "
                   "simdom's); allowed: --out a new or empty folder" +
                   (" (--overwrite replaces simdom's results only)" if overwrite else ""))


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the folder's lock (filelock: refused at once when another run holds it; a forked worker's
    copy of the lock file is closed by filelock in the child, so a run that dies frees the folder)."""
    from filelock import FileLock, Timeout
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RunError(f"cannot create the results folder {path}: {e.strerror or e}; allowed: --out a "
                       "folder you can write") from None
    lock = FileLock(path / fmt.LOCK, blocking=False, preserve_lock_file=True)
    try:
        lock.acquire()
    except Timeout:
        raise RunError(f"another simdom run is writing into {path}; wait for it or use --out") from None
    except OSError as e:
        raise ReadOnly(f"cannot write into {path}: {e.strerror or e}; allowed: --out a folder you can "
                       "write") from None
    try:
        yield
    finally:
        lock.release()


class ReadOnly(RunError):
    """The results folder cannot be written (a complete folder can still be summarised)."""


class Folder:
    """The results folder being written: its manifest, kept on disk as chunks finish."""

    def __init__(self, path: Path, manifest: fmt.Manifest):
        self.path, self.manifest = path, manifest

    def write_manifest(self) -> None:
        write_part(self.path / fmt.MANIFEST, self.manifest.to_json())

    def reusable(self, plan: Plan) -> tuple[list[int], np.ndarray, int]:
        """The chunks whose parts are all the ones simdom wrote (each read once and checked against the
        manifest's records: simdom.results.verify), their summary sums and deals played."""
        done, sums, played = [], np.zeros((len(plan.groups()), len(SUMS))), 0
        shape = lambda c: (plan.arms, plan.chunk_deals(c), plan.rotations, plan.players)  # noqa: E731
        for c in range(plan.n_chunks):
            parts, _ = fmt.check_chunk(self.path, self.manifest, c)
            if parts is None:
                continue
            if plan.unit.is_match:
                sums += self._match_sums(plan, parts["matches"].frame)
            else:
                deals = parts["deals"].frame
                points = np.stack([deals[f"points_{s}"].to_numpy() for s in range(plan.players)],
                                  axis=-1).reshape(shape(c))
                sums += chunk_sums(plan, points, win_shares(points))
            played += parts["deals"].frame.height
            done.append(c)
        return done, sums, played

    @staticmethod
    def _match_sums(plan: Plan, matches: "pl.DataFrame") -> np.ndarray:
        """A match-mode chunk's summary sums, from its matches part."""
        def masked(name: str) -> np.ma.MaskedArray:
            v = matches[name].fill_null(-1).to_numpy()
            return np.ma.masked_array(v, v < 0)

        cols = {"match": matches["match"].to_numpy(), "winner": masked("winner"),
                **{f"score_{j}": masked(f"score_{j}") for j in range(plan.sides)}}
        return match_sums(plan, cols)


def write_part(path: Path, data: bytes) -> None:
    """Write a part atomically; an OSError names the part (a full disk's error carries no file name)."""
    try:
        fmt.write_atomic(path, data)
    except OSError as e:
        e.filename = e.filename or str(path)
        raise


def save_manifest(folder: Folder) -> None:
    """Write the manifest as far as the run got, if the disk lets us (a resume verifies every part anyway)."""
    with contextlib.suppress(OSError):
        folder.write_manifest()

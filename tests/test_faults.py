"""Faults (issue 12.1, 12.2, 12.6): a worker killed mid-run, SIGTERM, a deleted, extra or corrupted part, a
full disk and a read-only target. Each ends `simdom run` within seconds with one error line and no
traceback, and the same command then resumes the folder to rows identical to an uninterrupted run.
Real processes, real signals, real Parquet; the disk cases mount a small tmpfs (skipped where the machine
does not allow `mount`)."""
from __future__ import annotations

import contextlib
import json
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simdom.run.runner import run
from simdom.run.scenario import from_dict

SIMDOM = str(Path(sys.executable).with_name("simdom"))
SLOW = 'name = "faults"\nplayers = 4\ndeals = 60000\nseed = 11\nchunk_size = 500\n' \
       'policies = ["defensive", "random", "greedy", "random"]\n'   # about 3 s on 2 workers: time to hit it
QUICK = 'name = "quick"\nplayers = 4\ndeals = 2000\nseed = 5\nchunk_size = 250\nrotation = true\n' \
        'policies = ["greedy", "random", "greedy", "random"]\n'


def rows(folder: Path, table: str = "deals") -> pa.Table:
    files = sorted((folder / table).glob("*.parquet"))
    return pa.concat_tables([pq.read_table(f) for f in files]).replace_schema_metadata(None)


def parts(folder: Path) -> int:
    return len(list((folder / "deals").glob("part-*.parquet"))) if (folder / "deals").is_dir() else 0


def reference(text: str, out: Path) -> Path:
    run(from_dict(tomllib.loads(text), "ref.toml"), out, workers=1)
    return out


def one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    errors = [x for x in stderr.splitlines() if x.startswith("Error:")]
    assert len(errors) == 1, stderr
    return errors[0]


def start(scen: Path, out: Path, *more: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([SIMDOM, "run", str(scen), "--out", str(out), "--quiet", *more],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def wait_for_parts(proc: subprocess.Popen, out: Path, n: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while proc.poll() is None and parts(out) < n and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before the fault could hit it"


def finish(scen: Path, out: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([SIMDOM, "run", str(scen), "--out", str(out), "--quiet"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "manifest.json").read_text())["complete"] is True
    assert not list(out.glob("*/.*.tmp"))
    return done


@pytest.fixture(scope="module")
def slow_ref(tmp_path_factory) -> Path:
    return reference(SLOW, tmp_path_factory.mktemp("slow") / "ref")


@pytest.mark.slow
def test_a_killed_worker_ends_the_run_in_seconds_naming_its_chunk_then_resumes(tmp_path, slow_ref):
    scen = tmp_path / "slow.toml"
    scen.write_text(SLOW)
    out = tmp_path / "out"
    proc = start(scen, out, "--workers", "2")
    wait_for_parts(proc, out, 3)
    worker = psutil.Process(proc.pid).children()[0]
    worker.kill()                                                    # what the out-of-memory killer does
    t0 = time.monotonic()
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 5, "the run did not notice its dead worker"
    assert proc.returncode == 1, err
    line = one_error_line(err)
    assert f"worker process {worker.pid}" in line and "SIGKILL" in line and "chunk" in line and "resume" in line
    assert not psutil.pid_exists(worker.pid) or psutil.Process(worker.pid).status() == psutil.STATUS_ZOMBIE
    assert json.loads((out / "manifest.json").read_text())["complete"] is False
    finish(scen, out)
    assert rows(out).equals(rows(slow_ref))


@pytest.mark.slow
def test_sigterm_to_the_process_group_stops_with_one_line_then_resumes(tmp_path, slow_ref):
    scen = tmp_path / "slow.toml"
    scen.write_text(SLOW)
    out = tmp_path / "out"
    proc = start(scen, out, "--workers", "2", start_new_session=True)
    wait_for_parts(proc, out, 3)
    import os
    os.killpg(proc.pid, signal.SIGTERM)                              # a service manager stopping the job
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143
    line = one_error_line(err)
    assert "SIGTERM" in line and "run the same command again" in line
    assert "BrokenPipe" not in err
    finish(scen, out)
    assert rows(out).equals(rows(slow_ref))


def test_run_repairs_a_deleted_an_extra_and_a_corrupted_part_recomputing_only_them(tmp_path):
    ref = reference(QUICK, tmp_path / "ref")
    out = tmp_path / "out"
    shutil.copytree(ref, out)
    deals = out / "deals"
    (deals / "part-00002.parquet").unlink()
    shutil.copy(deals / "part-00000.parquet", deals / "part-00042.parquet")
    p = deals / "part-00005.parquet"
    b = bytearray(p.read_bytes())
    b[len(b) // 2: len(b) // 2 + 64] = bytes(64)
    p.write_bytes(bytes(b))
    untouched = {f.name: f.stat().st_mtime_ns for f in deals.glob("*.parquet") if f.name not in
                 ("part-00005.parquet", "part-00042.parquet")}
    for cmd in ("stats", "doubles", "compare", "report"):               # no reader answers from it
        args = [SIMDOM, cmd, str(out)] + ([str(ref)] if cmd == "compare" else []) + \
            (["-o", str(tmp_path / "r.html")] if cmd == "report" else [])
        done = subprocess.run(args, capture_output=True, text=True)
        assert done.returncode == 2 and "part-000" in one_error_line(done.stderr), (cmd, done.stderr)
    scen = tmp_path / "quick.toml"
    scen.write_text(QUICK)
    done = finish(scen, out)
    assert "2 chunk(s) computed, 6 reused" in " ".join(done.stdout.split()) and "1 stray part(s) removed" in \
        " ".join(done.stdout.split())
    assert not (deals / "part-00042.parquet").exists()
    assert all((deals / f).stat().st_mtime_ns == t for f, t in untouched.items())  # good parts not rewritten
    assert rows(out).equals(rows(ref))
    assert subprocess.run([SIMDOM, "stats", str(out)], capture_output=True).returncode == 0


@contextlib.contextmanager
def tmpfs(path: Path, size: str):
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def remount(path: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True)


def test_a_full_disk_ends_with_one_line_and_resumes_once_there_is_room(tmp_path):
    text = QUICK.replace("deals = 2000", "deals = 100000").replace("chunk_size = 250", "chunk_size = 5000")
    ref = reference(text, tmp_path / "ref")
    scen = tmp_path / "s.toml"
    scen.write_text(text)
    with tmpfs(tmp_path / "disk", "1m") as disk:
        out = disk / "out"
        done = subprocess.run([SIMDOM, "run", str(scen), "--out", str(out), "--quiet", "--workers", "2"],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 2
        line = one_error_line(done.stderr)
        assert "No space left on device" in line and "part-" in line and "resume" in line
        assert not list(out.glob("*/.*.tmp")) and 0 < parts(out) < 16
        remount(disk, "size=64m")
        finish(scen, out)
        assert rows(out).equals(rows(ref))


def test_a_read_only_target_ends_with_one_line_and_a_complete_one_is_summarised(tmp_path):
    scen = tmp_path / "s.toml"
    scen.write_text(QUICK)
    with tmpfs(tmp_path / "ro", "16m") as disk:
        finish(scen, disk / "done")
        before = {f: f.read_bytes() for f in (disk / "done").rglob("*") if f.is_file()}
        remount(disk, "ro")
        again = subprocess.run([SIMDOM, "run", str(scen), "--out", str(disk / "done")], capture_output=True, text=True)
        assert again.returncode == 0 and "0 chunk(s) computed, 8 reused" in " ".join(again.stdout.split())
        fresh = subprocess.run([SIMDOM, "run", str(scen), "--out", str(disk / "new"), "-q"], capture_output=True,
                               text=True)
        assert fresh.returncode == 2 and "Read-only file system" in one_error_line(fresh.stderr)
        remount(disk, "rw")
        (disk / "done" / "deals" / "part-00003.parquet").unlink()
        del before[disk / "done" / "deals" / "part-00003.parquet"]
        remount(disk, "ro")
        damaged = subprocess.run([SIMDOM, "run", str(scen), "--out", str(disk / "done"), "-q"], capture_output=True,
                                 text=True)
        assert damaged.returncode == 2 and "read-only" in one_error_line(damaged.stderr)
        assert {f: f.read_bytes() for f in (disk / "done").rglob("*") if f.is_file()} == before
        remount(disk, "rw")

"""Nothing lost (issue 22.3, 22.4): every file a command writes goes through one atomic writer
(simdom.safeio). A device, FIFO or socket as a target is written to directly or refused, never replaced;
a folder is refused; a full disk never leaves a truncated file under the final name nor destroys a good
old one; SIGTERM and SIGHUP stop a command with one line and leave no temporary file. Real processes,
real signals, real devices; the full disk is a file-size limit (RLIMIT_FSIZE) in the child, which fails
its writes as a full disk does."""
from __future__ import annotations

import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from badinput import build
from test_faults import one_error_line

SIMDOM = str(Path(sys.executable).with_name("simdom"))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("outputs") / "ws")


def simdom(*args: str, cwd: Path, limit: int | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    def child() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) as on a full disk
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([SIMDOM, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=child)


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob(".*.tmp")]


# ---- devices, FIFOs, sockets, folders ------------------------------------------------------------------
def test_trace_to_dev_full_reports_the_device_and_leaves_it_a_device(tmp_path):
    done = simdom("trace", "-d", "50", "-o", "/dev/full", "--overwrite", cwd=tmp_path)
    assert done.returncode == 2
    line = one_error_line(done.stderr)
    assert "/dev/full" in line and "no space left" in line.lower()
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_trace_to_dev_null_needs_no_overwrite_and_stays_a_device(tmp_path):
    done = simdom("trace", "-d", "5", "-o", "/dev/null", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("args", [["stats", "res", "--format", "csv", "--force"],
                                  ["seats", "res", "--format", "csv", "--force"],
                                  ["doubles", "res", "--format", "json", "--force"],
                                  ["stats", "res", "--format", "parquet", "--force"]])
def test_stats_commands_to_dev_full_report_it_with_one_line(pristine, args):
    done = simdom(*args, "-o", "/dev/full", cwd=pristine)
    assert done.returncode == 2, done.stdout
    line = one_error_line(done.stderr)
    assert "/dev/full" in line and "no space left" in line.lower()
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_report_through_a_symlink_to_dev_full_is_reported_and_the_link_kept(pristine, tmp_path):
    link = tmp_path / "r.html"
    link.symlink_to("/dev/full")
    done = simdom("report", str(pristine / "res"), "-o", str(link), "--force", cwd=tmp_path)
    assert done.returncode == 2
    assert "/dev/full" in one_error_line(done.stderr)
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_symlink_to_a_file_keeps_the_link_and_replaces_the_file(tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    (tmp_path / "t.jsonl").symlink_to(real)
    done = simdom("trace", "-d", "2", "-o", "t.jsonl", "--overwrite", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "t.jsonl").is_symlink() and real.read_text().count("\n") == 2


def test_a_fifo_nobody_reads_is_refused_and_one_being_read_is_written(tmp_path):
    fifo = tmp_path / "t.fifo"
    os.mkfifo(fifo)
    done = simdom("trace", "-d", "3", "-o", str(fifo), cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    line = one_error_line(done.stderr)
    assert "t.fifo" in line and "no process reads" in line
    got: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as fh:
            got.append(fh.read())
    t = threading.Thread(target=reader)
    t.start()
    time.sleep(0.2)
    done = simdom("trace", "-d", "3", "-o", str(fifo), cwd=tmp_path, timeout=60)
    t.join(30)
    assert done.returncode == 0, done.stderr
    assert got and got[0].count(b"\n") == 3 and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_socket_as_target_is_refused_and_kept(tmp_path):
    path = tmp_path / "s.sock"
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(str(path))
    try:
        done = simdom("trace", "-d", "2", "-o", str(path), "--overwrite", cwd=tmp_path)
        assert done.returncode == 2
        assert "s.sock" in one_error_line(done.stderr)
        assert stat.S_ISSOCK(os.stat(path).st_mode)
    finally:
        srv.close()


@pytest.mark.parametrize("args", [["trace", "-d", "2", "--overwrite", "-o"],
                                  ["stats", "res", "--format", "csv", "--force", "-o"],
                                  ["report", "res", "--force", "-o"]])
def test_a_folder_as_target_is_refused(pristine, tmp_path, args):
    target = tmp_path / "out.html"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    done = simdom(*args, str(target), cwd=pristine)
    assert done.returncode == 2
    assert "is a folder" in one_error_line(done.stderr)
    assert (target / "keep.txt").read_text() == "mine"


# ---- a full disk ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, args", [
    ("t.jsonl", ["trace", "-d", "400", "--overwrite", "-o"]),
    ("s.csv", ["stats", "res", "--by", "arm,seat", "--format", "csv", "--force", "-o"]),
    ("s.json", ["stats", "res", "--format", "json", "--force", "-o"]),
    ("r.html", ["report", "res", "--force", "-o"]),
    ("r.md", ["report", "res", "--force", "-o"]),
])
def test_a_full_disk_keeps_the_good_old_file_and_names_the_new_one(pristine, tmp_path, name, args):
    work = tmp_path / "ws"
    import shutil
    shutil.copytree(pristine, work)
    old = work / name
    old.write_text("good old contents\n")
    done = simdom(*args, name, cwd=work, limit=200)
    assert done.returncode == 2, (done.stdout, done.stderr)
    line = one_error_line(done.stderr)
    assert name.split(".")[0] in line, line
    assert old.read_text() == "good old contents\n"
    assert not leftovers(work)


def test_a_full_disk_leaves_no_new_file_under_its_name(pristine, tmp_path):
    done = simdom("stats", str(pristine / "res"), "--format", "csv", "-o", "new.csv", cwd=tmp_path, limit=10)
    assert done.returncode == 2
    assert "new.csv" in one_error_line(done.stderr)
    assert not (tmp_path / "new.csv").exists() and not leftovers(tmp_path)
    again = simdom("stats", str(pristine / "res"), "--format", "csv", "-o", "new.csv", cwd=tmp_path)
    assert again.returncode == 0, again.stderr  # no 0-byte file asks for --force


# ---- signals --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_stops_trace_with_one_line_and_no_temporary_file(tmp_path, sig):
    old = tmp_path / "t.jsonl"
    old.write_text("good old trace\n")
    proc = subprocess.Popen([SIMDOM, "trace", "-d", "2000000", "-o", "t.jsonl", "--overwrite"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not leftovers(tmp_path) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    assert proc.poll() is None and leftovers(tmp_path), "the trace never started writing"
    time.sleep(0.3)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == (130 if sig == signal.SIGINT else 128 + sig), err
    line = one_error_line(err)
    assert (signal.Signals(sig).name if sig != signal.SIGINT else "interrupted") in line
    assert "no partly written file" in line
    assert not leftovers(tmp_path)
    assert old.read_text() == "good old trace\n"


def test_a_killed_trace_s_temporary_file_is_removed_by_the_next_one(tmp_path):
    proc = subprocess.Popen([SIMDOM, "trace", "-d", "2000000", "-o", "t.jsonl"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not leftovers(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.kill()
    proc.wait(30)
    assert leftovers(tmp_path)  # SIGKILL: nothing could clean up
    done = simdom("trace", "-d", "2", "-o", "t.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not leftovers(tmp_path) and (tmp_path / "t.jsonl").read_text().count("\n") == 2

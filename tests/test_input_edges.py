"""Inputs at their edges (issue 59.6, 60.3): a byte-order mark read past, a FIFO that no process writes refused
at once (a pipe being written still read), the argument a library error names, deal numbers bounded and given
to the kernel as one type, a results folder of another behaviour version read with a one-line note, and the
kernel's type probe compiled without a warning."""
from __future__ import annotations

import fcntl
import json
import os
import struct
import subprocess
import sys
import termios
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import simdom
from simdom.cli import app
from simdom.engine.api import MAX_DEAL, SIM_VERSION, DealNumberError, simulate_deals
from simdom.engine.state import DealState, trace
from simdom.policies import PolicyError
from simdom.rules import preset
from simdom.run.scenario import load
from simdom.safeio import loads_json, loads_toml
from simdom.stats.read import PLAYING

ROOT = Path(__file__).resolve().parents[1]
SIMDOM = str(Path(sys.executable).parent / "simdom")
BOM = b"\xef\xbb\xbf"
SCENARIO = 'name = "bom"\nplayers = 2\ndeals = 40\nseed = 3\npolicies = "greedy"\n[rules]\npreset = "threes"\n'


def cli(cwd: Path, *args: str):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(old)


# ---- a byte-order mark (Notepad's UTF-8) -----------------------------------------------------------------
def test_a_byte_order_mark_is_read_past_in_toml_and_json():
    assert loads_toml("\ufeffa = 1\n", "x.toml") == {"a": 1}
    assert loads_json("\ufeff{\"a\": 1}", "x.json") == {"a": 1}
    assert loads_json(BOM + b'{"a": 1}', "x.json") == {"a": 1}


def test_a_scenario_a_script_and_a_trace_saved_with_a_byte_order_mark_are_read(tmp_path):
    (tmp_path / "plain.toml").write_text(SCENARIO)
    (tmp_path / "bom.toml").write_bytes(BOM + SCENARIO.encode())
    assert load(tmp_path / "bom.toml").source == load(tmp_path / "plain.toml").source
    r = cli(tmp_path, "run", "bom.toml", "--out", "res", "-q", "--workers", "1")
    assert r.exit_code == 0 and (tmp_path / "res" / "manifest.json").is_file(), r.output
    (tmp_path / "s.toml").write_bytes(BOM + (ROOT / "scenarios" / "seed-game.deal.toml").read_bytes())
    r = cli(tmp_path, "replay", "--script", "s.toml")
    assert r.exit_code == 0 and "all 3 expectations of the script hold" in r.output, r.output
    line = (json.dumps(trace(preset("threes", 2), "greedy", 7, 0)) + "\n").encode()
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "t.jsonl").write_bytes(line)
    (tmp_path / "t.jsonl").write_bytes(BOM + line)
    r, plain = cli(tmp_path, "replay", "t.jsonl"), cli(tmp_path / "plain", "replay", "t.jsonl")
    assert r.exit_code == 0 and plain.exit_code == 0 and r.output == plain.output, r.output


# ---- a FIFO ---------------------------------------------------------------------------------------------
def test_replay_of_a_fifo_that_no_process_writes_is_refused_at_once(tmp_path):
    """It waited forever: the open of a FIFO blocks until a writer comes."""
    os.mkfifo(tmp_path / "f.jsonl")
    r = subprocess.run([SIMDOM, "replay", "f.jsonl"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip().splitlines() == ["Error: f.jsonl is a FIFO that no process writes; allowed: a JSON "
                                             "Lines trace file, or a pipe a process writes: <(simdom trace ...)"]


def test_replay_of_a_fifo_being_written_reads_it(tmp_path):
    """A pipe that a process writes (a shell's <(simdom trace ...)) streams its records as before."""
    fifo = tmp_path / "f.jsonl"
    os.mkfifo(fifo)
    text = "".join(json.dumps(trace(preset("fives", 2), "greedy", 5, d)) + "\n" for d in range(3))
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "f.jsonl").write_text(text)
    fd = os.open(fifo, os.O_RDWR)  # a writer from now on (and a reader, so the write below never waits)
    try:
        os.write(fd, text.encode())
        reader = subprocess.Popen([SIMDOM, "replay", "f.jsonl", "--deal", "2"], cwd=tmp_path,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        t0 = time.monotonic()  # the writer leaves once simdom has read what it wrote
        while _unread(fd) and reader.poll() is None and time.monotonic() - t0 < 300:
            time.sleep(0.05)
    finally:
        os.close(fd)
    out, err = reader.communicate(timeout=300)
    plain = subprocess.run([SIMDOM, "replay", "f.jsonl", "--deal", "2"], cwd=tmp_path / "plain", capture_output=True,
                           text=True, timeout=300)
    assert reader.returncode == 0 and plain.returncode == 0, err
    assert out == plain.stdout and "End: " in out


def _unread(fd: int) -> int:
    """Bytes written to a pipe and not read yet (FIONREAD)."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]


# ---- the library names its argument ---------------------------------------------------------------------
@pytest.mark.parametrize("policies, shown", [(None, "None"), ([None, "greedy"], "[None, 'greedy']"), (3, "3"),
                                             (b"greedy", "b'greedy'")])
def test_simulate_names_the_policies_argument(policies, shown):
    with pytest.raises(PolicyError) as e:
        simdom.simulate("threes", policies, deals=2)
    assert str(e.value) == (f"policies = {shown}; allowed: a policy (\"greedy\", \"hold:until=9\"), or a list of one "
                            "per seat (4)")


def test_a_generator_of_policies_is_still_taken():
    df = simdom.simulate("fives", (p for p in ["greedy", "random"]), deals=2, players=2)
    assert df.shape[0] == 2


# ---- deal numbers ---------------------------------------------------------------------------------------
def test_a_deal_number_past_the_kernels_int64_is_refused_naming_it():
    rules = preset("threes", 2)
    for bad in (MAX_DEAL + 1, -1, 2**64, True, 3.0):
        with pytest.raises(DealNumberError, match=r"deal = .*; allowed: an integer from 0 to 9223372036854775807"):
            DealState.dealt(rules, 1, bad)
    with pytest.raises(DealNumberError, match="n_deals = 2 from deal 9223372036854775807; allowed: 1 to 1"):
        simulate_deals(rules, "greedy", 1, MAX_DEAL, 2)
    assert DealState.dealt(rules, 1, MAX_DEAL).record()["deal"] == 0  # the last deal number is dealt


@pytest.mark.parametrize("kind", [np.int8, np.int32, np.uint32, np.int64, np.uint64])
def test_a_numpy_deal_number_deals_as_the_python_int(kind):
    """The kernel is given a Python int whatever integer type the caller has (one type: one compile)."""
    rules = preset("fives", 3)
    assert DealState.dealt(rules, 4, kind(77)).record() == DealState.dealt(rules, 4, 77).record()
    a = simulate_deals(rules, "greedy", 4, kind(70), np.int16(9))
    b = simulate_deals(rules, "greedy", 4, 70, 9)
    assert all((a.seats[k] == b.seats[k]).all() for k in a.seats)


# ---- a folder of another behaviour version --------------------------------------------------------------
def test_a_results_folder_of_another_behaviour_version_is_read_with_a_note(tmp_path, monkeypatch, capsys):
    """Only workers compared the version: stats read a folder of version 10 as if this simdom had played it."""
    from simdom.run import runner, worker
    monkeypatch.setitem(PLAYING, "sim_version", None)  # the command line sets it (and the test leaves it as it was)
    (tmp_path / "s.toml").write_text(SCENARIO)
    for module in (runner, worker):  # a folder as the simdom before this one wrote it
        monkeypatch.setattr(module, "SIM_VERSION", SIM_VERSION - 1)
    assert cli(tmp_path, "run", "s.toml", "--out", "old", "-q", "--workers", "1").exit_code == 0
    monkeypatch.undo()
    monkeypatch.setitem(PLAYING, "sim_version", None)
    assert cli(tmp_path, "run", "s.toml", "--out", "new", "-q", "--workers", "1").exit_code == 0
    old, new = cli(tmp_path, "stats", "old"), cli(tmp_path, "stats", "new")
    assert old.exit_code == 0 and new.exit_code == 0
    notes = [x for x in old.stderr.splitlines() if x.strip()]
    assert notes == [f"Note: old was played by behaviour version {SIM_VERSION - 1}, this simdom plays version "
                     f"{SIM_VERSION}: its numbers are version {SIM_VERSION - 1}'s (simdom run SCENARIO --out old "
                     "--overwrite plays it again)"]
    assert new.stderr.strip() == "" and old.stdout == new.stdout.replace(" new", " old")
    monkeypatch.setitem(PLAYING, "sim_version", None)
    simdom.open_results(tmp_path / "new")
    assert capsys.readouterr().err == ""
    simdom.open_results(tmp_path / "old")  # the library: the same note
    assert capsys.readouterr().err.count(f"was played by behaviour version {SIM_VERSION - 1}, this simdom") == 1


# ---- quiet ----------------------------------------------------------------------------------------------
def test_the_kernels_type_probe_warns_nothing():
    """Issue 60.3: `make kernel` printed numpy's "divide by zero encountered in floor_divide" (tables.py) from
    the all-zero rules whose game table aot.py builds only for its type."""
    from simdom.engine._kernel import aot
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sig, msig = aot.signature(), aot.match_signature()
    assert len(sig.args) == 14 and len(msig.args) > 0

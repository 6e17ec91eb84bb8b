"""A dask run whose scheduler is lost (issue 22, faults): one line, exit code 1, no traceback, the parts written
kept, and the same command resumes to the rows of an uninterrupted run. A real distributed.LocalCluster, closed
while a real `simdom run` process uses it."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simdom.run.runner import run
from simdom.run.scenario import load

SIMDOM = str(Path(sys.executable).with_name("simdom"))
SCENARIO = """name = "lost"
players = 4
policies = "greedy"
deals = 20_000
chunk_size = 50
seed = 5
[rules]
preset = "threes"
"""


def parts(folder: Path) -> list[Path]:
    return sorted((folder / "deals").glob("part-*.parquet"))


def test_a_lost_scheduler_ends_the_run_with_one_line_and_the_same_command_resumes(tmp_path):
    distributed = pytest.importorskip("distributed")
    scen = tmp_path / "lost.toml"
    scen.write_text(SCENARIO)
    out = tmp_path / "res"
    cl = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    address = cl.scheduler_address
    try:
        proc = subprocess.Popen([SIMDOM, "run", str(scen), "--out", str(out), "--backend", "dask", "--scheduler",
                                 address, "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not (out.is_dir() and len(parts(out)) >= 2) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert proc.poll() is None and parts(out), "the run never wrote a part (or ended before the cluster closed)"
    finally:
        cl.close()
    t0 = time.monotonic()
    _, err = proc.communicate(timeout=120)
    waited = time.monotonic() - t0
    assert proc.returncode == 1, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    m = re.fullmatch(rf"Error: the dask scheduler at {re.escape(address)} was lost after (\d+) of 400 chunks; the "
                     rf"(\d+) written chunks are kept in {re.escape(str(out))}; run the same command again to resume",
                     " ".join(err.split()))
    assert m and m.group(1) == m.group(2), err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False and len(manifest["chunks_done"]) == int(m.group(1)) == len(parts(out)) < 400
    assert not list(out.rglob(".*.tmp")) and waited < 60
    # the same scenario resumed (locally, as a restarted cluster would play it) equals an uninterrupted run
    sc = load(scen)
    s = run(sc, out, workers=1)
    assert s.reused == int(m.group(1)) and s.computed == 400 - s.reused
    ref = tmp_path / "ref"
    run(sc, ref, workers=1)
    table = lambda f: pa.concat_tables([pq.read_table(p).replace_schema_metadata(None) for p in parts(f)])  # noqa: E731
    assert table(out).equals(table(ref))

"""`simdom run` (issue 3): identical rows whatever the workers, chunk order or backend; resume after a
crash or a kill -9; damaged parts recomputed; other results refused; the result schema."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from simdom.cli.run import register
from simdom.engine.api import SIM_VERSION, simulate_deals
from simdom.results import DEALS, MOVES, SEATS
from simdom.rules import preset
from simdom.run.plan import Plan
from simdom.run.runner import RunError, run
from simdom.run.scenario import from_dict
from simdom.run.worker import play_chunk
from simdom.stats.read.folder import open_frames

SIMDOM = str(Path(sys.executable).with_name("simdom"))
SMALL = {
    "name": "small", "players": 4, "rotation": True, "deals": 1200, "seed": 7, "chunk_size": 200,
    "policies": ["greedy", "greedy", "greedy", "greedy"], "rules": {"preset": "threes"},
    "arms": [{"name": "K=1", "policies": ["hold:until=1", "greedy", "greedy", "greedy"]},
             {"name": "K=9", "policies": ["hold:until=9", "random", "greedy", "greedy"]},
             {"name": "no-bonus", "rules": {"first_double_bonus": []}}],
}
ALL = ("deals", "seats", "moves")


def scenario(**changes):
    return from_dict({**SMALL, **changes}, "test.toml")


def read(folder: Path, kind: str = "deals") -> pa.Table:
    files = sorted((folder / kind).glob("*.parquet"))
    return pa.concat_tables([pq.read_table(f) for f in files])


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """The uninterrupted run of SMALL, in this process (one worker), with every table."""
    out = tmp_path_factory.mktemp("ref")
    run(scenario(), out, tables=ALL, workers=1)
    return out


def test_schema_and_manifest(reference):
    deals, seats, moves = read(reference), read(reference, "seats"), read(reference, "moves")
    assert deals.schema.names == DEALS.names(4) and seats.schema.names == SEATS.names(4)
    assert moves.schema.names == MOVES.names(4)
    assert deals.num_rows == 1200 * 3 * 4 and seats.num_rows == 4 * deals.num_rows
    m = json.loads((reference / "manifest.json").read_text())
    for key in ("kind", "format", "simdom_version", "sim_version", "scenario_name", "scenario", "settings_hash",
                "seed", "root_key", "deals", "chunk_size", "n_chunks", "rotations", "players", "tables", "arms",
                "chunks_done", "created", "finished", "complete"):
        assert key in m, key
    assert m["complete"] is True and m["chunks_done"] == list(range(6)) and m["rotations"] == 4
    assert m["tables"] == list(ALL)
    assert [a["name"] for a in m["arms"]] == ["K=1", "K=9", "no-bonus"]
    assert m["arms"][2]["rules"]["first_double_bonus"] == [] and m["arms"][0]["preset"] == "threes"
    # any Parquet reader reads the dataset as it is
    assert pl.scan_parquet(str(reference / "deals" / "*.parquet")).select(pl.len()).collect().item() == deals.num_rows


def test_rows_are_the_engine_results(reference):
    """Arm K=9, rotation 2, deals 400..409: the rows are what simulate_deals() gives for that seating."""
    t = pl.from_arrow(read(reference))
    pols = ["hold:until=9", "random", "greedy", "greedy"]
    seated = [pols[(s + 2) % 4] for s in range(4)]
    b = simulate_deals(preset("threes", 4), seated, 7, 400, 10)
    rows = t.filter((pl.col("arm") == "K=9") & (pl.col("rotation") == 2) & pl.col("deal").is_between(400, 409))
    for c in ("points", "scoring_plays", "plays", "doubles_dealt", "lost_first_double"):
        got = np.stack([rows[f"{c}_{s}"].to_numpy() for s in range(4)], axis=1)
        assert (got == b.seats[c]).all(), c
    assert (rows["first_seat"].to_numpy() == b.deals["first_seat"]).all()
    assert (rows["tiles_placed"].to_numpy() == b.deals["tiles_placed"]).all()
    long = open_frames(reference).deals.filter(
        (pl.col("arm") == "K=9") & (pl.col("rotation") == 2) & pl.col("deal").is_between(400, 409)
    ).sort("deal", "seat").collect()
    assert long["policy"].to_list()[:4] == seated and long["player"].to_list()[:4] == [2, 3, 0, 1]
    assert (long["win"].to_numpy().reshape(10, 4) == b.win()).all()


def test_arms_play_the_same_deals(reference):
    """Deal i's shuffle and lot come from the seed and i alone: the same in every arm."""
    t = pl.from_arrow(read(reference))
    by_arm = {a: t.filter(pl.col("arm") == a).sort("deal", "rotation") for a in ("K=1", "K=9", "no-bonus")}
    for col in ("doubles_dealt_0", "doubles_dealt_3", "first_seat"):
        assert by_arm["K=1"][col].equals(by_arm["K=9"][col]) and by_arm["K=1"][col].equals(by_arm["no-bonus"][col])


def test_the_long_view_derives_what_the_seats_table_records(reference):
    """The statistics' per-seat view of the lean deals table (win, bonus, end bonus, placement points,
    went_out) equals the kernel's own per-seat detail in the seats table."""
    keys = ["arm", "deal", "rotation", "seat"]
    long = open_frames(reference).deals.collect().sort(keys)
    seats = pl.from_arrow(read(reference, "seats")).sort(keys)
    assert long.height == seats.height
    for c in ("bonus", "end_bonus", "play_points", "went_out"):
        assert long[c].cast(pl.Int64).equals(seats[c].cast(pl.Int64)), c
    shares = long.group_by("arm", "deal", "rotation").agg(pl.col("win").sum())["win"].to_numpy()
    assert np.allclose(shares, 1.0)
    assert long["spinner_move"].is_null().equals(long["spinner_seat"].is_null())
    assert long["first_double_move"].is_null().equals(long["first_double_seat"].is_null())
    assert set(long["end"].unique()) <= {"domino", "blocked"}


def test_moves_table_matches_deals(reference):
    d, m = open_frames(reference).deals.collect(), pl.from_arrow(read(reference, "moves"))
    keys = ["arm", "deal", "rotation", "seat"]
    per_seat = m.group_by(keys).agg(pl.len().alias("n"), pl.col("points").sum().alias("pts"),
                                    pl.col("bonus").sum().alias("bon"))
    j = d.join(per_seat, on=keys, how="left").fill_null(0)
    assert (j["plays"] == j["n"]).all() and (j["play_points"] == j["pts"]).all() and (j["bonus"] == j["bon"]).all()
    per_deal = m.group_by("arm", "deal", "rotation").agg(pl.col("move").max().alias("last"),
                                                          pl.col("move").min().alias("first"))
    tiles = d.group_by("arm", "deal", "rotation").agg(pl.col("tiles_placed").first())
    j = per_deal.join(tiles, on=["arm", "deal", "rotation"])
    assert (j["last"] == j["tiles_placed"]).all() and (j["first"] == 1).all()
    assert (m.filter(pl.col("move") == 1)["end"] == "lead").all()


def test_two_workers_give_identical_rows(reference, tmp_path):
    run(scenario(), tmp_path, tables=ALL, workers=2)
    for t in ALL:
        assert read(tmp_path, t).equals(read(reference, t))


def test_chunk_order_and_chunk_size_never_matter(reference, tmp_path):
    sc = scenario(chunk_size=450)
    plan = Plan.of(sc, tables=("deals",), settings_hash="h", sim_version=SIM_VERSION)
    parts = {c: pq.read_table(pa.BufferReader(play_chunk(plan, c).parts["deals"]))
             for c in reversed(range(plan.n_chunks))}
    keys = ["arm", "deal", "rotation"]
    got = pl.from_arrow(pa.concat_tables([parts[c] for c in sorted(parts)])).sort(keys)
    assert got.equals(pl.from_arrow(read(reference)).sort(keys))


def test_resume_recomputes_only_missing_or_damaged_parts(reference, tmp_path):
    import shutil
    shutil.copytree(reference, tmp_path / "r")
    out = tmp_path / "r"
    (out / "deals" / "part-00001.parquet").unlink()                       # missing
    p2 = out / "deals" / "part-00002.parquet"
    p2.write_bytes(p2.read_bytes()[: p2.stat().st_size // 2])              # truncated
    p3 = out / "moves" / "part-00003.parquet"
    raw = bytearray(p3.read_bytes())
    raw[200:260] = bytes(60)                                              # corrupt, footer intact
    p3.write_bytes(bytes(raw))
    (out / "deals" / ".part-00004.999.tmp").write_bytes(b"half a part")   # left by a killed run
    m = json.loads((out / "manifest.json").read_text())
    m.update(complete=False, finished=None)
    (out / "manifest.json").write_text(json.dumps(m))
    s = run(scenario(), out, tables=ALL, workers=1)
    assert (s.computed, s.reused) == (3, 3)
    assert not list(out.glob("*/.*.tmp"))
    for t in ALL:
        assert read(out, t).equals(read(reference, t))
    assert run(scenario(), out, tables=ALL, workers=1).computed == 0      # complete: nothing to do


def test_other_settings_are_refused_unless_overwrite(reference, tmp_path):
    import shutil
    shutil.copytree(reference, tmp_path / "r")
    out = tmp_path / "r"
    before = {f: f.stat().st_mtime_ns for f in out.rglob("*")}
    for other in (scenario(seed=8), scenario(name="other"), scenario(chunk_size=300)):
        with pytest.raises(RunError, match="holds other results"):
            run(other, out, tables=ALL, workers=1)
    with pytest.raises(RunError, match="holds 1,200 deals of this scenario and seed, more than the 1,000"):
        run(scenario(deals=1000), out, tables=ALL, workers=1)            # fewer deals than the folder holds
    with pytest.raises(RunError, match="holds other results"):
        run(scenario(), out, workers=1)                                   # other settings: no moves, no seats
    assert {f: f.stat().st_mtime_ns for f in out.rglob("*")} == before  # nothing touched
    # the CLI: one clear message, exit code 2
    scen = tmp_path / "s.toml"
    scen.write_text('name = "small"\nplayers = 4\ndeals = 100\nseed = 1\n')
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)
    res = CliRunner().invoke(app, ["run", str(scen), "--out", str(out), "--quiet"])
    assert res.exit_code == 2 and "holds other results" in res.output and "--overwrite" in res.output
    assert {f: f.stat().st_mtime_ns for f in out.rglob("*")} == before
    s = run(scenario(seed=8), out, workers=1, overwrite=True)
    assert s.computed == 6 and not (out / "moves").exists() or not list((out / "moves").glob("*.parquet"))
    assert json.loads((out / "manifest.json").read_text())["seed"] == 8


def test_a_foreign_folder_is_refused_even_with_overwrite(tmp_path):
    """--overwrite replaces simdom's results only: a folder that is not a simdom results folder is refused."""
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "deals").mkdir()
    (tmp_path / "deals" / "part-00000.parquet").write_bytes(b"not simdom's")
    for overwrite in (False, True):
        with pytest.raises(RunError, match="not a simdom results folder"):
            run(scenario(deals=10, chunk_size=10), tmp_path, workers=1, overwrite=overwrite)
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (tmp_path / "deals" / "part-00000.parquet").read_bytes() == b"not simdom's"
    assert not (tmp_path / "manifest.json").exists()


def test_cli_run_prints_the_summary(tmp_path):
    scen = tmp_path / "s.toml"
    scen.write_text('name = "cli"\nplayers = 3\ndeals = 300\nseed = 1\nrotation = true\n'
                    'policies = ["greedy", "random", "random"]\n[rules]\npreset = "fives"\n')
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)
    res = CliRunner().invoke(app, ["run", str(scen), "--out", str(tmp_path / "o"), "--workers", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert "greedy" in res.output and "random" in res.output and "win %" in res.output
    bad = CliRunner().invoke(app, ["run", str(scen), "--workers", "0"])
    assert bad.exit_code == 2 and "--workers" in bad.output


def _parts(folder: Path) -> int:
    return len(list((folder / "deals").glob("*.parquet")))


@pytest.mark.slow
def test_kill_9_then_resume_equals_an_uninterrupted_run(tmp_path):
    """A real `simdom run` stopped by Ctrl-C, then by SIGKILL at a random moment, then started again."""
    scen = tmp_path / "k.toml"
    scen.write_text('name = "kill"\nplayers = 4\ndeals = 300000\nseed = 3\nchunk_size = 1500\n'
                    'policies = ["defensive", "random", "greedy", "random"]\n')  # slow enough to be caught
    out = tmp_path / "out"
    cmd = [SIMDOM, "run", str(scen), "--out", str(out), "--workers", "2", "--quiet"]
    rng = random.Random(int(os.environ.get("SIMDOM_TEST_SEED", "0")) or None)
    stopped = []
    for sig in (signal.SIGINT, signal.SIGKILL):
        before = _parts(out) if out.exists() else 0
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while proc.poll() is None and (not out.exists() or _parts(out) <= before) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.3))
        if proc.poll() is None:
            os.kill(proc.pid, sig)
            stopped.append(proc.wait())
        proc.wait()
    assert len(stopped) == 2, "the run finished before it could be interrupted"
    assert stopped[0] in (130, -signal.SIGKILL)
    m = json.loads((out / "manifest.json").read_text())
    assert m["complete"] is False and _parts(out) < 200
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "manifest.json").read_text())["complete"] is True
    assert not list(out.glob("*/.*.tmp"))
    ref = tmp_path / "ref"
    run(from_dict(__import__("tomllib").loads(scen.read_text()), str(scen)), ref, workers=1)
    assert read(out).replace_schema_metadata(None).equals(read(ref).replace_schema_metadata(None))


def test_dask_cluster_gives_identical_rows(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        run(scenario(), tmp_path, tables=ALL, backend="dask", scheduler=cl.scheduler_address)
    for t in ALL:
        assert read(tmp_path, t).equals(read(reference, t))


def test_the_cli_lists_the_statistics_names_without_loading_polars():
    """The names the statistics commands accept have one home (simdom/stats/names.py) that the CLI and
    the statistics modules import; loading the CLI (every command, `simdom run` too) does not load polars."""
    import subprocess
    import sys
    code = ("import sys, simdom.cli, simdom.cli.stats as c, simdom.stats.names as n; "
            "assert c.BY_COLUMNS is n.BY_COLUMNS and c.DOUBLES_TABLES is n.DOUBLES_TABLES; "
            "print('polars' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    from simdom import present
    from simdom.stats import names
    from simdom.stats.matches import views as matchviews
    from simdom.stats.views import doubles
    assert names.FORMATS is present.FORMATS
    assert matchviews.MATCH_TABLES is names.MATCH_TABLES and doubles.DOUBLES_TABLES is names.DOUBLES_TABLES


@pytest.mark.slow
@pytest.mark.parametrize("first,more,chunk", [(1100, 1500, 200), (300, 2500, None)])
def test_more_deals_extend_a_folder_as_a_run_of_that_size_from_scratch(tmp_path, first, more, chunk):
    """Deal i depends only on the seed and i: more --deals on a finished folder add the missing deals (the
    partial last chunk is recomputed), and every table is identical to a run of that size from scratch; with
    an automatic chunk size too (it does not depend on the number of deals)."""
    changes = {} if chunk else {"chunk_size": None}
    small = {k: v for k, v in {**SMALL, **changes}.items() if v is not None}
    sc = lambda n: from_dict({**small, "deals": n}, "test.toml")  # noqa: E731
    ext, fresh = tmp_path / "ext", tmp_path / "fresh"
    run(sc(first), ext, tables=ALL, workers=1)
    s = run(sc(more), ext, tables=ALL, workers=1)
    full = first // sc(more).chunk_size
    assert s.reused == full and s.computed == -(-more // sc(more).chunk_size) - full
    run(sc(more), fresh, tables=ALL, workers=1)
    for t in ALL:
        assert read(ext, t).equals(read(fresh, t)), t
    a, b = (json.loads((f / "manifest.json").read_text()) for f in (ext, fresh))
    assert {k: v for k, v in a.items() if k not in ("created", "finished", "last_session")} == \
        {k: v for k, v in b.items() if k not in ("created", "finished", "last_session")}
    assert run(sc(more), ext, tables=ALL, workers=1).computed == 0

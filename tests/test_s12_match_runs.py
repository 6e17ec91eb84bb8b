"""`simdom run` in match mode (docs/rules.md 12, issue 11.3): a scenario with target > 0 plays ``deals``
matches; its matches table and deal rows are what simulate_matches / trace_match give; the rows never
depend on workers, chunking or backend; resume recomputes only what is missing or damaged; readers
check a deals part against its matches part."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from simdom import results as fmt
from simdom.cli.run import register
from simdom.engine.api import SIM_VERSION
from simdom.engine.matches import simulate_matches, trace_match
from simdom.results import MATCH_TABLES, ResultsError
from simdom.run.plan import Plan
from simdom.run.runner import run
from simdom.run.scenario import from_dict
from simdom.run.worker import play_chunk
from simdom.stats.read.folder import open_frames

#: partners to exactly 61 (every match parameter at work), two arms on the same matches, rotation
SMALL = {
    "name": "mini-match", "players": 4, "rotation": True, "deals": 240, "seed": 11, "chunk_size": 60,
    "policies": "greedy", "rules": {"preset": "fives", "target": 61, "match_end": "exact", "teams": "partners",
                                    "next_lead": "hand_winner", "max_deals": 12},
    "arms": [{"name": "greedy"}, {"name": "mixed", "policies": ["random", "greedy", "defensive", "greedy"]}],
}
ALL = ("deals", "seats", "moves")


def scenario(**changes):
    return from_dict({**SMALL, **changes}, "test.toml")


def read(folder: Path, kind: str = "deals") -> pa.Table:
    return pa.concat_tables([pq.read_table(f) for f in sorted((folder / kind).glob("*.parquet"))])


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("mref")
    run(scenario(), out, tables=ALL, workers=1)
    return out


def test_s12_run_writes_the_match_mode_tables_and_manifest(reference):
    m = json.loads((reference / "manifest.json").read_text())
    assert m["unit"] == "match" and m["deals"] == 240 and m["tables"] == ["deals", "matches", "seats", "moves"]
    for t in ("deals", "matches", "seats", "moves"):
        assert read(reference, t).schema.names == MATCH_TABLES[t].names(4, 2), t
    matches = pl.from_arrow(read(reference, "matches"))
    assert matches.height == 240 * 2 * 4 and matches["deals"].sum() == read(reference).num_rows
    assert read(reference, "seats").num_rows == 4 * read(reference).num_rows


def test_s12_matches_and_deal_rows_are_what_simulate_matches_gives(reference):
    """Arm mixed, rotation 3, matches 100..119: every column equals the engine's named columns."""
    pols = ["random", "greedy", "defensive", "greedy"]
    seated = [pols[(s + 3) % 4] for s in range(4)]
    rules = scenario().arms[1].rules
    b = simulate_matches(rules, seated, 11, 100, 20)
    sel = (pl.col("arm") == "mixed") & (pl.col("rotation") == 3) & pl.col("match").is_between(100, 119)
    mt = pl.from_arrow(read(reference, "matches")).filter(sel)
    assert mt["match"].to_list() == b.matches["match"].tolist()
    assert mt["deals"].to_list() == b.matches["deals"].tolist()
    assert mt["winner"].fill_null(-1).to_list() == b.matches["winner"].tolist()
    assert mt["unfinished"].to_list() == b.matches["unfinished"].tolist()
    for j in range(2):
        assert mt[f"score_{j}"].to_list() == b.matches[f"score_{j}"].tolist()
    dt = pl.from_arrow(read(reference)).filter(sel)
    assert dt["match"].to_list() == b.deals["match"].tolist() and dt["hand"].to_list() == b.deals["hand"].tolist()
    for c in ("first_seat", "tiles_placed", "rules_lead"):
        assert dt[c].to_list() == b.deals[c].tolist(), c
    assert dt["winner"].fill_null(-1).to_list() == b.deals["hand_winner"].tolist()
    for s in range(4):
        assert dt[f"points_{s}"].to_list() == b.deals[f"points_{s}"].tolist()
    for j in range(2):
        assert dt[f"before_{j}"].to_list() == b.deals[f"before_{j}"].tolist()
        assert dt[f"credited_{j}"].to_list() == b.deals[f"credited_{j}"].tolist()
    assert mt["first_seat"].to_list() == b.deals["first_seat"][b.deals["hand"] == 0].tolist()


def test_s12_deal_rows_are_the_match_trace(reference):
    """Match 7 of arm greedy, rotation 0: each deal row is the traced deal (end, totals, scores)."""
    rules = scenario().arms[0].rules
    trace = trace_match(rules, "greedy", 11, 7)
    dt = pl.from_arrow(read(reference)).filter((pl.col("arm") == "greedy") & (pl.col("rotation") == 0)
                                               & (pl.col("match") == 7)).sort("hand")
    assert dt.height == len(trace)
    for row, rec in zip(dt.iter_rows(named=True), trace):
        assert row["hand"] == rec["match"]["hand"] and row["end"] == rec["end"]
        assert [row[f"points_{s}"] for s in range(4)] == rec["totals"]
        assert [row[f"before_{j}"] for j in range(2)] == rec["match"]["before"]
        assert [row[f"credited_{j}"] for j in range(2)] == rec["match"]["credited"]
        assert row["first_seat"] == rec["first"]
    last = pl.from_arrow(read(reference, "matches")).filter(
        (pl.col("arm") == "greedy") & (pl.col("rotation") == 0) & (pl.col("match") == 7)).row(0, named=True)
    assert [last["score_0"], last["score_1"]] == trace[-1]["match"]["after"]
    assert last["winner"] == trace[-1]["match"]["winner"]


def test_s12_every_arm_and_rotation_plays_the_same_shuffles(reference):
    """Common random numbers: hand 0 of match m is dealt alike in every arm and rotation."""
    d = pl.from_arrow(read(reference)).filter(pl.col("hand") == 0)
    per_seat = [f"doubles_dealt_{s}" for s in range(4)]
    ref = d.filter((pl.col("arm") == "greedy") & (pl.col("rotation") == 0)).sort("match")
    for (arm, rot), g in d.group_by("arm", "rotation"):
        g = g.sort("match")
        assert g.select(per_seat, "first_seat").equals(ref.select(per_seat, "first_seat")), (arm, rot)


def test_s12_moves_and_seats_agree_with_the_deal_rows(reference):
    d = open_frames(reference).deals.collect()
    mv = pl.from_arrow(read(reference, "moves"))
    keys = ["arm", "match", "rotation", "hand", "seat"]
    per_seat = mv.group_by(keys).agg(pl.len().alias("n"), pl.col("points").sum().alias("pts"))
    j = d.join(per_seat, on=keys, how="left").fill_null(0)
    assert (j["plays"] == j["n"]).all() and (j["play_points"] == j["pts"]).all()
    first = mv.group_by("arm", "match", "rotation", "hand").agg(pl.col("move").min(), pl.col("move").max().alias("m"))
    assert (first["move"] == 1).all()
    seats = pl.from_arrow(read(reference, "seats"))
    j = d.join(seats.select(*keys, pl.col("end_bonus").alias("eb")), on=keys)
    assert j.height == d.height and (j["end_bonus"] == j["eb"]).all()


def test_s12_two_workers_and_any_chunking_give_identical_rows(reference, tmp_path):
    run(scenario(), tmp_path / "w2", tables=ALL, workers=2)
    for t in ("deals", "matches", "seats", "moves"):
        assert read(tmp_path / "w2", t).equals(read(reference, t)), t
    sc = scenario(chunk_size=70)
    plan = Plan.of(sc, tables=("deals", "matches"), settings_hash="h", sim_version=SIM_VERSION)
    parts = {c: pq.read_table(pa.BufferReader(play_chunk(plan, c).parts["matches"]))
             for c in reversed(range(plan.n_chunks))}
    keys = ["arm", "match", "rotation"]
    got = pl.from_arrow(pa.concat_tables([parts[c] for c in sorted(parts)])).sort(keys)
    assert got.equals(pl.from_arrow(read(reference, "matches")).sort(keys))


def test_s12_resume_recomputes_only_missing_or_damaged_match_parts(reference, tmp_path):
    out = tmp_path / "r"
    shutil.copytree(reference, out)
    (out / "matches" / "part-00001.parquet").unlink()                    # missing
    p2 = out / "deals" / "part-00002.parquet"
    p2.write_bytes(p2.read_bytes()[: p2.stat().st_size // 2])             # truncated
    m = json.loads((out / "manifest.json").read_text())
    m.update(complete=False, finished=None)
    (out / "manifest.json").write_text(json.dumps(m))
    s = run(scenario(), out, tables=ALL, workers=1)
    assert (s.computed, s.reused) == (2, 2) and s.played == read(reference).num_rows
    for t in ("deals", "matches", "seats", "moves"):
        assert read(out, t).equals(read(reference, t)), t


def test_s12_a_deals_part_that_disagrees_with_its_matches_part_is_refused(reference, tmp_path):
    """A deals part of the right run and chunk but other rows than its matches part counts is damage."""
    out = tmp_path / "r"
    shutil.copytree(reference, out)
    part = out / "deals" / "part-00001.parquet"
    pf = pq.ParquetFile(part)
    meta = dict(pf.schema_arrow.metadata)
    t = pf.read().slice(0, pf.metadata.num_rows - 1)
    info = json.loads(meta[b"simdom"])
    info["rows"] = t.num_rows
    meta[b"simdom"] = json.dumps(info).encode()
    pq.write_table(t.replace_schema_metadata(meta), part)
    with pytest.raises(ResultsError, match=r"deals/part-00001.parquet is not the file simdom wrote"):
        open_frames(out)
    m = json.loads((out / "manifest.json").read_text())  # the manifest's record forged too: the rows disagree
    data = part.read_bytes()
    m["parts"]["deals/part-00001.parquet"].update(blake2b=fmt.digest(data), size=len(data), rows=t.num_rows)
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(ResultsError, match=rf"deals/part-00001.parquet has {t.num_rows} rows, expected "
                                           rf"{t.num_rows + 1}"):
        open_frames(out)


def test_s12_dask_cluster_gives_identical_match_rows(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        run(scenario(), tmp_path, tables=ALL, backend="dask", scheduler=cl.scheduler_address)
    for t in ("deals", "matches", "seats", "moves"):
        assert read(tmp_path, t).equals(read(reference, t)), t


def test_s12_cli_run_says_matches(tmp_path):
    scen = tmp_path / "m.toml"
    scen.write_text('name = "cli-match"\nplayers = 2\ndeals = 300\nseed = 1\nrotation = true\n'
                    '[rules]\npreset = "fives"\ntarget = 100\n')
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)
    res = CliRunner().invoke(app, ["run", str(scen), "--out", str(tmp_path / "o"), "--workers", "1"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "300 matches" in text and "match win %" in text
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nplayers = 2\ndeals = 3\nseed = 1\n[rules]\npreset = "fives"\ntarget = 100\n'
                   'max_deals = 100000\n')
    res = CliRunner().invoke(app, ["run", str(bad), "--out", str(tmp_path / "b"), "-q"])
    assert res.exit_code == 2 and "max_deals" in res.output and "allowed" in res.output
    assert len(res.output.strip().splitlines()) <= 2  # one message (wrapped at most once), no traceback


def test_s12_the_long_views_of_a_match_run(reference):
    """Win by side (partners share their side's deal win), the side's scores before the deal, and the
    match won, each agreeing with the wide rows."""
    res = open_frames(reference)
    d = res.deals.collect()
    per_deal = d.group_by("arm", "match", "rotation", "hand").agg(pl.col("win").sum(), pl.col("side").n_unique())
    assert np.allclose(per_deal["win"].to_numpy(), 2.0)       # both partners of the winning side(s)
    row = d.filter((pl.col("arm") == "greedy") & (pl.col("seat") == 1)).sort("match", "rotation", "hand")
    wide = pl.from_arrow(read(reference)).filter(pl.col("arm") == "greedy").sort("match", "rotation", "hand")
    assert row["before"].to_list() == wide["before_1"].to_list()
    assert row["opp_before"].to_list() == wide["before_0"].to_list()
    mv = res.matches.collect()
    assert mv.height == 240 * 2 * 4 * 4
    assert np.allclose(mv.group_by("arm", "match", "rotation").agg(pl.col("won").sum())["won"].to_numpy() % 2, 0)


def test_s12_matches_longer_than_the_output_blocks_are_played_on_whole(tmp_path):
    """Fives to 500 lasts ~16 deals a match, more than the kernel's first output block holds for a chunk
    (max_deals + 8 rows a match): the worker plays on in new blocks, and the rows equal a chunking that
    never fills a block."""
    sc = dict(SMALL, name="long", players=2, rotation=False, deals=300, policies="greedy", arms=[],
              rules={"preset": "fives", "target": 500, "max_deals": 40})
    a, b = tmp_path / "a", tmp_path / "b"
    run(from_dict({**sc, "chunk_size": 300}, "l.toml"), a, workers=1)
    run(from_dict({**sc, "chunk_size": 20}, "l.toml"), b, workers=1)
    keys = ["arm", "match", "rotation"]
    ma, mb = pl.from_arrow(read(a, "matches")).sort(keys), pl.from_arrow(read(b, "matches")).sort(keys)
    assert ma.equals(mb) and ma["deals"].mean() > 8 and ma["winner"].null_count() == 0
    da, db = pl.from_arrow(read(a)).sort(keys + ["hand"]), pl.from_arrow(read(b)).sort(keys + ["hand"])
    assert da.equals(db) and da.height == ma["deals"].sum()


def test_s12_the_manifest_unit_must_agree_with_tables_and_rules(reference):
    from simdom.results import parse_manifest
    m = json.loads((reference / "manifest.json").read_text())
    assert parse_manifest(m, "here").unit == "match"
    for change in ({"unit": "deal"}, {"tables": ["deals"]}, {"unit": "round"}):
        with pytest.raises(ResultsError, match="unit"):
            parse_manifest({**m, **change}, "here")

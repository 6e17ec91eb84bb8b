"""The statistics on real runs of the kernel (`simdom run`, real Parquet): the seat test's false-positive
rate where the seats are equal by construction, its power on the real turn-order effect, and the
coverage of the intervals of many small runs against one large reference run.

A small run is a range of DEALS consecutive deals of one run: deal i's randomness comes from the root
seed and i alone (docs/rules.md section 11, contract 4), so disjoint ranges are independent runs, exactly as
runs with other seeds would be."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from coverage_study import Hits, rejections
from simdom.stats.estimate.distribution import points_distribution
from simdom.stats.tables.doubles import by_move_table, detect_sweep, sweep_tables
from simdom.stats.inference import wilson
from simdom.stats.read.folder import ResultFrames, open_frames
from simdom.stats.tables.seats import position_tables
from simdom.stats.tables.stats import stats_table

SIMDOM = Path(sys.executable).parent / "simdom"
DEALS = 200

EQUAL_SEATS = """
name = "equal-seats"
players = 4
rotation = true
deals = 1
seed = 1

[[arms]]
name = "threes-greedy"
rules = { preset = "threes" }
policies = ["greedy", "greedy", "greedy", "greedy"]

[[arms]]
name = "fives-mixed"
rules = { preset = "fives" }
policies = ["greedy", "random", "greedy", "random"]
"""

SWEEP = """
name = "small-sweep"
players = 4
rotation = true
deals = 1
seed = 1

[rules]
preset = "threes"

[[arms]]
name = "K=1"
policies = ["hold:until=1", "greedy", "greedy", "greedy"]

[[arms]]
name = "K=5"
policies = ["hold:until=5", "greedy", "greedy", "greedy"]

[[arms]]
name = "K=9"
policies = ["hold:until=9", "greedy", "greedy", "greedy"]

[[arms]]
name = "K=never"
policies = ["hold:until=never", "greedy", "greedy", "greedy"]
"""


def simdom_run(tmp: Path, text: str, deals: int, seed: int, name: str) -> ResultFrames:
    scenario = tmp / f"{name}.toml"
    scenario.write_text(text)
    out = tmp / name
    subprocess.run([str(SIMDOM), "run", str(scenario), "--deals", str(deals), "--seed", str(seed), "--out", str(out),
                    "--workers", "1", "--quiet"], check=True, capture_output=True)
    return open_frames(out)


def small_runs(res: ResultFrames, reps: int, deals: int = DEALS):
    """``reps`` independent small runs of ``deals`` deals each, in memory."""
    unused = ["draws", "passes", "pips_left", "went_out", "doubles_dealt", "spinner_move", "spinner_seat", "end_bonus"]
    df = res.deals.drop(unused, strict=False).collect()
    manifest = res.manifest.model_copy(update={"deals": deals})
    for i, part in enumerate(df.with_columns(_rep=pl.col("deal") // deals).partition_by("_rep", maintain_order=True)):
        if i == reps:
            break
        yield ResultFrames.in_memory(manifest, part.drop("_rep"), name=f"{res.name}-{i}")


@pytest.mark.slow
def test_seat_test_false_positive_rate_on_real_runs_with_equal_seats_and_power_on_turn_order(tmp_path):
    reps = 400
    res = simdom_run(tmp_path, EQUAL_SEATS, reps * DEALS, 7, "equal")
    p = {(arm, by): [] for arm in res.arm_names for by in ("seat", "turn")}
    leader = []
    for small in small_runs(res, reps):
        pos, tests = position_tables(small)
        for r in tests.iter_rows(named=True):
            p[(r["arm"], r["by"])].append(r["p_value"])
        leader.append(pos.filter(pl.col("by") == "turn", pl.col("position") == 0, pl.col("arm") == "threes-greedy")
                      ["win_rate"][0])
    out = {k: rejections(v) for k, v in p.items()}
    print("\nrejection rates at 5% over", reps, "runs of", DEALS, "deals:", {f"{a} {b}": round(r, 3)
                                                                           for (a, b), (r, _) in out.items()})
    print("leader's win share, Threes all greedy:", round(float(np.mean(leader)), 3))
    for arm in res.arm_names:
        # equal by construction: about 5% (binomial sd over 400 runs: 1.1%)
        assert 0.025 <= out[(arm, "seat")][0] <= 0.08, (arm, out[(arm, "seat")])
    # the real turn-order effect: the leader's win share is far from 1/4 and the test finds it
    assert abs(np.mean(leader) - 0.25) > 0.05
    assert out[("threes-greedy", "turn")][0] >= 0.6  # 200 deals: the effect (0.32 against 0.25) is often found
    big = [position_tables(small, ["turn"])[1].filter(pl.col("arm") == "threes-greedy")["p_value"][0]
           for small in small_runs(res, reps // 5, 5 * DEALS)]
    power, n = rejections(big)
    print(f"turn test, Threes all greedy, runs of {5 * DEALS} deals: rejects in {power:.3f} of {n}")
    assert power >= 0.95


@pytest.fixture(scope="module")
def sweep_runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("real")
    return simdom_run(tmp, SWEEP, 250_000, 11, "reference"), simdom_run(tmp, SWEEP, 500 * DEALS, 12, "small")


def _truth(df: pl.DataFrame, keys: list[str], col: str) -> dict:
    return {tuple(r[k] for k in keys): r[col] for r in df.iter_rows(named=True)}


@pytest.mark.slow
def test_intervals_of_small_real_runs_cover_the_large_run(sweep_runs):
    ref, runs = sweep_runs
    keys = ["arm", "policy"]
    t_stats = stats_table(ref, keys)
    t_sweep, _ = sweep_tables(ref, detect_sweep(ref))
    t_pos, _ = position_tables(ref)
    t_move = by_move_table(ref)
    t_hist = points_distribution(ref)
    truths = {"stats": {m: _truth(t_stats, keys, m) for m in ("mean_points", "win_rate", "scoring_rate")},
              "sweep": {m: _truth(t_sweep, ["arm"], m) for m in ("points_diff", "win_diff")},
              "pos": {m: _truth(t_pos, ["arm", "by", "position"], m) for m in ("mean_points", "win_rate")},
              "move": _truth(t_move, ["arm", "move"], "share"),
              "hist": {k: v for k, v in _truth(t_hist, [*keys, "points"], "share").items() if v >= 1e-3}}
    h = Hits()
    upper0 = float(wilson(0.0, DEALS, df=DEALS - 1)[1])
    for small in small_runs(runs, 500):
        df = stats_table(small, keys)
        for m, t in truths["stats"].items():
            h.frame(df, f"stats {m}", m, [t[k] for k in zip(df["arm"], df["policy"])])
        per_k, _ = sweep_tables(small, detect_sweep(small))
        per_k = per_k.filter(pl.col("arm") != "K=1")
        for m, t in truths["sweep"].items():
            h.frame(per_k, f"paired {m}", m, [t[(a,)] for a in per_k["arm"]])
        pos, _ = position_tables(small)
        for m, t in truths["pos"].items():
            h.frame(pos, f"seats {m}", m, [t[k] for k in zip(pos["arm"], pos["by"], pos["position"])])
        for name, table, key, truth in (("first double by move", by_move_table(small), "move", truths["move"]),
                                        ("points histogram band", points_distribution(small), "points",
                                         truths["hist"])):
            cols = ["arm", "policy", key] if key == "points" else ["arm", key]
            got = {tuple(r[c] for c in cols): (r["share_lo"], r["share_hi"]) for r in table.iter_rows(named=True)}
            cells = [k for k, v in truth.items() if v >= 1e-3]  # every cell of at least 0.1%, seen or not
            lo, hi = zip(*[got.get(k, (0.0, upper0)) for k in cells])
            h.add(name, lo, hi, [truth[k] for k in cells])
    print("\ncoverage on real runs:", h.report())
    h.check()

"""Decision rollouts under a chosen continuation (`simdom run --decision-rollouts N --then POLICY`, issue 20
item 3): valued from Python through the analysis kernel, they equal the kernel's own greedy rollouts
exactly when the continuation is greedy (the same position, the same two candidates, the same worlds);
under search they go through the runner like every table (the same rows for 1 and 2 workers, resumable,
the continuation in the manifest and the settings); bad input is one line and exit 2."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simdom.engine.api import simulate_deals
from simdom.engine.codes import DECISION_VALUE_COLUMNS
from simdom.engine.revalue import value_decisions
from simdom.rules import preset
from simdom.run.runner import RunError, run
from simdom.run.scenario import from_dict as scenario_from_dict
from simdom.stats.read.folder import open_frames

SIMDOM = str(Path(sys.executable).with_name("simdom"))
ROOT = Path(__file__).parents[1]


@pytest.mark.parametrize("name,pols,rollouts", [
    ("threes", ["greedy", "hold:until=9"], 6),
    ("fives", ["timing", "random", "hold:until=13"], 4),
    ("threes", ["greedy", "hold:until=9", "random", "timing"], 5),
])
def test_greedy_continuation_from_python_equals_the_kernels_rollouts(name, pols, rollouts):
    rules = preset(name, len(pols))
    seed, d0, n = 41, 7, 40
    dec = simulate_deals(rules, pols, seed, d0, n, decisions=rollouts).decisions
    assert len(dec["deal"]) > 10
    got = np.zeros((len(dec["deal"]), 4))
    for d in np.unique(dec["deal"]):
        rows = np.flatnonzero(dec["deal"] == d)
        got[rows] = value_decisions(rules, pols, seed, d0 + int(d),
                                    [(int(dec["seat"][i]), int(dec["move"][i])) for i in rows], rollouts, "greedy")
    want = np.column_stack([dec[c] for c in DECISION_VALUE_COLUMNS])
    assert np.array_equal(got, want)


def test_another_continuation_changes_the_values_and_a_decision_not_in_the_trace_is_refused():
    rules = preset("threes", 2)
    pols = ["greedy", "greedy"]
    dec = simulate_deals(rules, pols, 3, 0, 20, decisions=8).decisions
    d, seat, move = int(dec["deal"][0]), int(dec["seat"][0]), int(dec["move"][0])
    greedy = value_decisions(rules, pols, 3, d, [(seat, move)], 8, "greedy")
    other = value_decisions(rules, pols, 3, d, [(seat, move)], 8, "random")
    assert np.array_equal(greedy[0], [dec[c][0] for c in DECISION_VALUE_COLUMNS])
    assert not np.array_equal(greedy, other)
    with pytest.raises(RuntimeError, match="not in its trace"):
        value_decisions(rules, pols, 3, d, [(1 - seat, move)], 8, "greedy")


#: search at a fast budget (its default until behaviour version 4): the runner's path is what is tested
FAST = "search:worlds=16,depth=6,own=greedy,win=0"
SMALL = {"name": "decthen", "players": 2, "rotation": True, "deals": 24, "seed": 9, "chunk_size": 12,
         "rules": {"preset": "threes"},
         "arms": [{"name": "search", "policies": [FAST, FAST]}]}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    sc = scenario_from_dict(SMALL, "decthen.toml")
    out = {}
    for w in (1, 2):
        out[w] = tmp_path_factory.mktemp(f"then{w}")
        run(sc, out[w], tables=("deals", "decisions"), workers=w, decision_rollouts=3, decision_then=FAST)
    out["greedy"] = tmp_path_factory.mktemp("greedy")
    run(sc, out["greedy"], tables=("deals", "decisions"), workers=1, decision_rollouts=3)
    return out


@pytest.mark.slow
def test_search_continuation_through_the_runner_is_the_same_for_one_and_two_workers(folders):
    a = pl.read_parquet(folders[1] / "decisions" / "*.parquet")
    b = pl.read_parquet(folders[2] / "decisions" / "*.parquet")
    g = pl.read_parquet(folders["greedy"] / "decisions" / "*.parquet")
    assert a.height > 10 and a.equals(b)
    assert a["hold_gain"].null_count() == 0
    # the same decisions (the deals are the arm's own), valued under another continuation
    assert a.drop(*DECISION_VALUE_COLUMNS).equals(g.drop(*DECISION_VALUE_COLUMNS))
    assert not a.select(DECISION_VALUE_COLUMNS).equals(g.select(DECISION_VALUE_COLUMNS))
    m = open_frames(folders[1]).manifest
    assert m.decision_then == "search:worlds=16,model=greedy,depth=6,own=greedy,win=0" and m.decision_rollouts == 3
    assert open_frames(folders["greedy"]).manifest.decision_then is None


@pytest.mark.slow
def test_the_continuation_is_a_setting_resume_and_method(folders, tmp_path):
    sc = scenario_from_dict(SMALL, "decthen.toml")
    out = tmp_path / "r"
    run(sc, out, tables=("deals", "decisions"), workers=1, decision_rollouts=3, decision_then=FAST)
    (out / "decisions" / "part-00001.parquet").unlink()
    s = run(sc, out, tables=("deals", "decisions"), workers=1, decision_rollouts=3, decision_then=FAST)
    assert s.computed == 1 and s.reused == 1
    assert pl.read_parquet(out / "decisions" / "*.parquet").equals(
        pl.read_parquet(folders[1] / "decisions" / "*.parquet"))
    with pytest.raises(RunError, match="decision_then"):
        run(sc, out, tables=("deals", "decisions"), workers=1, decision_rollouts=3)
    doubles = subprocess.run([SIMDOM, "doubles", str(folders[1]), "--decisions", "--format", "json"],
                             capture_output=True, text=True)
    assert doubles.returncode == 0, doubles.stderr
    notes = subprocess.run([SIMDOM, "doubles", str(folders[1]), "--decisions"], capture_output=True, text=True)
    said = " ".join(notes.stdout.split())
    assert "Holding it instead (played out by search:worlds=16,model=greedy,depth=6,own=greedy,win=0)" in said, notes.stdout
    assert "played out by greedy" not in said and "under search:worlds=16,model=greedy,depth=6,own=greedy,win=0 continuation" in said
    assert json.loads(doubles.stdout)


@pytest.mark.parametrize("args,words", [
    (["--decisions", "--then", "search"], "allowed: with --decision-rollouts N"),
    (["--decision-rollouts", "4", "--then", "python:simdom.examples.policies:greedy"],
     "--then: policy 'python:simdom.examples.policies:greedy'"),
    (["--decision-rollouts", "4", "--then", "serch"], "--then: "),
])
def test_bad_continuation_is_one_line_and_exit_2(tmp_path, args, words):
    out = subprocess.run([SIMDOM, "run", "scenarios/decisions-2p.toml", "--deals", "10", "-o", str(tmp_path / "o"),
                          *args], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2, out.stdout + out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and not (tmp_path / "o").exists()

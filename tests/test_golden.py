"""The golden traces (tests/golden_traces.py): every preset x player count x compiled policy plays exactly
as stored, or the behaviour version says that it changed; a resumed folder never mixes two behaviours."""
from __future__ import annotations

import copy
import json

import pytest

import golden_traces as golden
from simdom.engine.api import SIM_VERSION

HEAD, STORED = golden.read()
HOW = ("if the change is meant, raise SIM_VERSION in simdom/engine/api.py and write the file anew: "
       ".venv/bin/python tests/golden_traces.py --write")


def test_the_stored_traces_are_of_this_behaviour_version_and_cover_every_policy():
    assert HEAD["sim_version"] == SIM_VERSION, (
        f"the golden traces are of behaviour version {HEAD['sim_version']}, simdom's is {SIM_VERSION}: write them "
        "anew (.venv/bin/python tests/golden_traces.py --write)")
    assert HEAD["policies"] == golden.policies(), "a compiled policy was added or removed: write the traces anew"
    assert HEAD["groups"] == [f"{p}/{n}" for p, n in golden.groups()]
    # two deals alone, one in every seat (not clairvoyant), a match and a batch: for every policy and group
    per_group = 5 * len(golden.policies()) - 1
    assert len(STORED) == per_group * len(golden.groups())


@pytest.mark.slow
@pytest.mark.parametrize("preset_name,players", golden.groups(), ids=[f"{p}-{n}p" for p, n in golden.groups()])
def test_every_policy_plays_as_stored(preset_name, players):
    played = list(golden.cases(preset_name, players))
    missing = [c["case"] for c in played if c["case"] not in STORED]
    assert not missing, f"{missing[0]} is not stored: write the traces anew"
    changes = [ch for c in played if (ch := golden.first_change(STORED, c))]
    assert not changes, (f"{len(changes)} of {len(played)} cases changed, the first {changes[0]}, with the "
                         f"behaviour version still {SIM_VERSION}; {HOW}")


def test_a_changed_result_is_named_and_refused_at_the_same_version():
    """first_change finds a difference in a trace and in a batch's sums, and names where it is."""
    name = next(k for k, v in STORED.items() if "trace" in v and "/deal" in k)
    case = {"case": name, **copy.deepcopy(STORED[name])}
    assert golden.first_change(STORED, case) is None
    case["trace"]["totals"][0] += 1
    assert golden.first_change(STORED, case) == f"{name}: deal 0 of the case, field 'totals' differs"
    batch = next(k for k, v in STORED.items() if "sums" in v)
    case = {"case": batch, **copy.deepcopy(STORED[batch])}
    case["sums"]["seats.points"][1] -= 1
    assert golden.first_change(STORED, case) == f"{batch}: column sums differ in seats.points"


def test_a_folder_of_another_behaviour_version_is_not_resumed(tmp_path, monkeypatch):
    """A results folder written by one behaviour version is never extended by another: its settings (the
    behaviour version among them) differ, so the run is refused and nothing in the folder changes."""
    from simdom.run import runner
    from simdom.run.scenario import from_dict

    sc = {"name": "v", "players": 2, "rotation": True, "deals": 200, "seed": 3, "chunk_size": 100,
          "policies": ["greedy", "greedy"], "rules": {"preset": "threes"}}
    out = tmp_path / "r"
    runner.run(from_dict(sc, "v.toml"), out, workers=1)
    before = {f: f.read_bytes() for f in out.rglob("*") if f.is_file() and f.name != ".lock"}
    monkeypatch.setattr(runner, "SIM_VERSION", SIM_VERSION + 1)
    with pytest.raises(runner.RunError, match=f"sim_version is {SIM_VERSION} there but {SIM_VERSION + 1}"):
        runner.run(from_dict({**sc, "deals": 400}, "v.toml"), out, workers=1)
    assert {f: f.read_bytes() for f in out.rglob("*") if f.is_file() and f.name != ".lock"} == before
    assert json.loads((out / "manifest.json").read_text())["sim_version"] == SIM_VERSION


# ---- the solver's exact values on whole deals (tests/golden_solve.py) ----------------------------------------

import golden_solve  # noqa: E402

SOLVE_HEAD, SOLVE_STORED = golden_solve.read()


@pytest.mark.slow
@pytest.mark.parametrize("preset_name,players", golden_solve.groups(),
                         ids=[f"{p}-{n}p" for p, n in golden_solve.groups()])
def test_the_solver_gives_every_stored_value_on_whole_deals(preset_name, players):
    """Every legal lead of the stored deals is worth what it was worth: the solver's speed-ups (bounds, table,
    equivalences) change the positions it visits, never a value."""
    solved = list(golden_solve.cases(preset_name, players))
    assert solved and all(c["values"] for c in solved)
    changes = [ch for c in solved if (ch := golden_solve.first_change(SOLVE_STORED, c))]
    assert not changes, f"{len(changes)} of {len(solved)} cases differ, the first {changes[0]}"


def test_the_stored_solver_values_cover_every_group_and_a_change_is_named():
    assert SOLVE_HEAD["groups"] == [f"{p}/{n}" for p, n in golden_solve.groups()]
    per_group = {g: sum(k.startswith(g + "/") for k in SOLVE_STORED) for g in SOLVE_HEAD["groups"]}
    assert per_group["fives/4"] == 2 and per_group["threes/2"] == 40 + 10 + 10 and per_group["muggins/3"] == 10
    name = "threes/2/margin/deal 0"
    case = {"case": name, "values": dict(SOLVE_STORED[name])}
    assert golden_solve.first_change(SOLVE_STORED, case) is None
    move = next(iter(case["values"]))
    case["values"][move] += 1
    assert golden_solve.first_change(SOLVE_STORED, case) == (
        f"{name}: move {move} is worth {case['values'][move]}, stored {case['values'][move] - 1}")
    del case["values"][move]
    assert golden_solve.first_change(SOLVE_STORED, case) == f"{name}: the legal moves differ ({move})"

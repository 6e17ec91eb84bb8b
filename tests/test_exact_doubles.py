"""simdom doubles --exact: first first-double decisions solved with every hand known; its values are
simdom solve's for the same positions, its shares are counted from them, a position over the limit is
skipped and counted, and bad input gets one line."""
from __future__ import annotations

import json

import pytest

from simdom.analyze.exactdoubles import first_decision
from simdom.rules import preset
from simdom.tiles import halves

SEED = 20261204


@pytest.fixture(scope="module")
def exact(tmp_path_factory):
    out = tmp_path_factory.mktemp("exact") / "exact.json"
    from conftest import SIMDOM
    import subprocess
    r = subprocess.run([SIMDOM, "doubles", "--exact", "-r", "threes", "-n", "2", "--deals", "40", "--seed",
                        str(SEED), "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text())


def test_the_answer_counts_what_it_solved(exact):
    d = exact["decisions"]
    assert exact["positions"] == len(d) and exact["skipped"] == 0 and exact["deals"] == 40
    diffs = [x["hold_value"] - x["double_value"] for x in d]
    assert exact["hold_better"]["share"] == pytest.approx(sum(x > 0 for x in diffs) / len(d))
    assert exact["tie_share"] == pytest.approx(sum(x == 0 for x in diffs) / len(d))
    assert exact["mean_difference"]["value"] == pytest.approx(sum(diffs) / len(d))
    lo, hi = exact["hold_better"]["low"], exact["hold_better"]["high"]
    assert lo <= exact["hold_better"]["share"] <= hi
    by = {b["situation"]: b for b in exact["by"]}
    assert by["at the lead"]["positions"] + by.get("after the lead", {"positions": 0})["positions"] == len(d)


def test_each_position_is_a_first_first_double_decision(exact):
    rules = preset("threes", 2)
    lo, hi = halves(rules.max_pip)
    for x in exact["decisions"][:10]:
        pos = first_decision(rules, ["greedy", "greedy"], SEED, x["deal"])
        assert pos.move == x["move"] and pos.seat == x["seat"] and pos.state.first_double is None
        kinds = {bool(lo[t] == hi[t]) for t, _ in pos.moves}
        assert kinds == {True, False}  # a double and another tile both legal
        for earlier in range(1, pos.move):  # no earlier decision of the deal was one
            p = pos.deal.position(earlier)
            assert {bool(lo[t] == hi[t]) for t, _ in p.moves} != {True, False} or p.state.first_double


def test_values_equal_simdom_solves_for_the_same_positions(exact, cli):
    for x in exact["decisions"][:2]:
        r = cli("solve", "-r", "threes", "-n", "2", "--seed", SEED, "--deal", x["deal"], "--move", x["move"],
                "--format", "json")
        assert r.returncode == 0, r.stderr
        moves = json.loads(r.stdout)["moves"]
        value = {f"{m['tile']} {m['end']}": m["value"] for m in moves}
        doubles = [m["value"] for m in moves if m["tile"][0] == m["tile"][-1]]
        others = [m["value"] for m in moves if m["tile"][0] != m["tile"][-1]]
        assert value[x["double"]] == x["double_value"] == max(doubles)
        assert value[x["hold"]] == x["hold_value"] == max(others)


def test_positions_over_the_limit_are_skipped_and_counted(cli):
    r = cli("doubles", "--exact", "-r", "threes", "-n", "2", "--deals", "5", "--seed", SEED, "--limit", "1",
            "--format", "json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["positions"] == 0 and d["skipped"] >= 4 and d["decisions"] == []


@pytest.mark.parametrize("args,needle", [
    (["results/x", "--exact"], "--exact plays and solves its own deals"),
    (["--exact", "--against", "random"], "--against 'random'; allowed: minimax, greedy"),
    ([], "a results folder is needed"),
    (["--exact", "--decisions"], "--exact plays and solves its own deals"),
])
def test_bad_input_gets_one_line(cli, args, needle):
    r = cli("doubles", *args)
    assert r.returncode == 2 and needle in r.stdout + r.stderr and "Traceback" not in r.stdout + r.stderr

"""The expert policy (issue 40): it sees only its information set, what it remembers of the deal
included (its inference reads the opponent's placements it saw); it is deterministic whatever the
batches or workers; its traces replay; hold=never never holds (expert and search); bad budgets get one
line and exit 2. Its strength is measured by bench/expert_paired.py (docs/policies.md), not here."""
from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from reference import check
from simdom.cli import app
from simdom.engine._kernel import layout as L
from simdom.engine.api import simulate_deals
from simdom.engine.codes import kernel_arrays
from simdom.engine.state import DealState, trace
from simdom.policies import PolicyError, parse_policy
from simdom.rules import preset
from simdom.tiles import halves, parse_tile
from test_policies import reshuffled
from test_search import replayed

CHEAP = "expert:worlds=8"


def walk(rules, pol, seed, deal, visit):
    """Play the deal with ``pol`` in seat 0 and greedy elsewhere, asking seat 0's policy at every
    placement of its own (so its memory sees the whole deal), calling visit(st, moves, key) first."""
    st = DealState.dealt(rules, seed, deal)
    ids, par = kernel_arrays([parse_policy(pol)] + [parse_policy("greedy")] * (rules.players - 1))
    rng = np.random.default_rng(deal)
    while True:
        moves = st.advance()
        if not moves:
            return st
        if st.turn == 0:
            key = int(rng.integers(0, 2**62))
            visit(st, moves, key)
            streams = np.random.default_rng(key).integers(0, 2**63, size=L.N_STREAMS, dtype=np.uint64)
            st.play(*st.choose_with(ids, par, streams, moves))
        else:
            st.play(*st.choice("greedy", 0))


@pytest.mark.parametrize("name", ["threes", "fives"])
def test_expert_sees_only_its_information_set_with_its_memory(name):
    """At every decision of a 2-player deal, the other hand and the boneyard dealt anew (consistently
    with what the seat has seen) leave the expert's choice unchanged, with its memory of the deal in
    place; and the inference is in play (records of the opponent's placements) at some of them."""
    rules = preset(name, 2)
    pol = parse_policy(CHEAP)
    ids, par = kernel_arrays([pol, parse_policy("greedy")])
    rng = np.random.default_rng(3)
    seen = {"compared": 0, "inferred": 0}

    def visit(st, moves, key):
        if len(moves) < 2:
            return
        picks = set()
        for w in [st] + [x for x in (reshuffled(rules, st, 0, rng) for _ in range(2)) if x]:
            streams = np.random.default_rng(key).integers(0, 2**63, size=L.N_STREAMS, dtype=np.uint64)
            picks.add(w.choose_with(ids, par, streams, w.advance()))
            seen["compared"] += w is not st
        assert len(picks) == 1, (name, st.move_number, picks)
        seen["inferred"] += int(st._work[7][19][0][L.MEM_NREC] > 0)

    for deal in range(6):
        walk(rules, CHEAP, 21, deal, visit)
    assert seen["compared"] >= 20 and seen["inferred"] >= 5, seen


def test_expert_infers_and_its_inference_changes_some_choices():
    """infer=0 is uniform worlds: expert then plays as search with the same worlds (no endgame in these
    deals), move for move; with inference some choices differ."""
    rules = preset("fives", 2)
    differ = 0
    for deal in range(8):
        plain = trace(rules, ["expert:worlds=16,infer=0,exact=0", "greedy"], 4, deal)
        assert plain["actions"] == trace(rules, ["search:worlds=16", "greedy"], 4, deal)["actions"]
        mine = trace(rules, ["expert:worlds=16", "greedy"], 4, deal)
        assert check(mine) == []
        differ += mine["actions"] != plain["actions"]
    assert differ > 0


@pytest.mark.parametrize("players", [2, 4])
def test_expert_own_plan_plays_its_later_moves_by_plan(players):
    """own=plan with plan's weights set to defensive's (reply=1, the rest 0) is the default expert move for
    move; with plan's own weights some choices differ, and every trace follows the rules."""
    rules = preset("threes", players)
    rest = ["greedy"] * (players - 1)
    differ = 0
    for deal in range(6):
        plain = trace(rules, ["expert:worlds=16"] + rest, 7, deal)
        same = trace(rules, ["expert:worlds=16,own=plan,reply=1,next=0,keep=0,pips=0"] + rest, 7, deal)
        assert same["actions"] == plain["actions"]
        mine = trace(rules, ["expert:worlds=16,own=plan"] + rest, 7, deal)
        assert check(mine) == []
        differ += mine["actions"] != plain["actions"]
    assert differ > 0


@pytest.mark.parametrize("name,players", [("threes", 2), ("fives", 2), ("threes", 3), ("fives", 4)])
def test_expert_traces_follow_the_rules_and_repeat(name, players):
    rules = preset(name, players)
    lineup = [CHEAP] + ["greedy"] * (players - 1)
    for deal in range(3):
        rec = trace(rules, lineup, 5, deal)
        assert check(rec) == []  # the independent referee replays it
        assert trace(rules, lineup, 5, deal) == rec  # deterministic from its seat's stream


def test_an_expert_trace_replays_through_the_cli(tmp_path):
    """simdom trace writes expert's deals and simdom replay re-plays one through the engine (which checks
    every move), ending on the trace's totals."""
    import json
    out = tmp_path / "ex.jsonl"
    r = CliRunner().invoke(app, ["trace", "-r", "fives", "-n", "2", "-p", CHEAP, "-p", "greedy", "-d", "3",
                                 "--seed", "6", "-o", str(out)])
    assert r.exit_code == 0, r.output
    recs = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
    assert len(recs) == 3 and all(check(x) == [] for x in recs)
    r = CliRunner().invoke(app, ["replay", str(out), "--deal", "1"])
    assert r.exit_code == 0, r.output
    assert all(str(t) in r.output for t in recs[1]["totals"])


def test_expert_deals_do_not_depend_on_batches_or_workers():
    """A batch of deals gives every deal as it is alone or in another batch, whatever ran before in the
    process (the expert's memory carries nothing from one deal to the next), and a run in two workers
    writes what one writes."""
    rules = preset("threes", 2)
    lineup = [CHEAP, "search:worlds=4"]
    whole = simulate_deals(rules, lineup, 8, 0, 10).seats["points"]
    late = simulate_deals(rules, lineup, 8, 5, 5).seats["points"]
    early = simulate_deals(rules, lineup, 8, 0, 5).seats["points"]
    assert (np.vstack([early, late]) == whole).all()
    for deal in (7, 2):
        assert (simulate_deals(rules, lineup, 8, deal, 1).seats["points"][0] == whole[deal]).all()


def test_expert_runs_the_same_in_one_or_two_workers(tmp_path):
    import polars as pl

    import simdom
    text = ('name = "ex"\nplayers = 2\nrotation = true\ndeals = 12\nseed = 31\n[rules]\npreset = "fives"\n'
            f'[[arms]]\nname = "a"\npolicies = ["{CHEAP}", "search:worlds=4"]\n')
    (tmp_path / "ex.toml").write_text(text)
    out = {}
    for jobs in (1, 2):
        r = CliRunner().invoke(app, ["run", str(tmp_path / "ex.toml"), "--out", str(tmp_path / f"r{jobs}"),
                                     "--workers", str(jobs)])
        assert r.exit_code == 0, r.output
        out[jobs] = simdom.open_results(tmp_path / f"r{jobs}").players().collect()
    keys = [c for c in out[1].columns if c not in ("points", "win")]
    a, b = (out[j].sort(keys).select(*keys, "points") for j in (1, 2))
    assert a.equals(b)
    assert out[1].height == 12 * 2 * 2 and pl.Series(out[1]["points"]).sum() > 0


@pytest.mark.parametrize("pol", ["expert:worlds=6,hold=never", "search:worlds=6,hold=never"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_hold_never_never_holds(pol, players):
    """Checked move by move on the traces: whenever no double is down and the seat has a legal double,
    the hold=never seat places a double."""
    rules = preset("threes", players)
    a, b = halves(rules.max_pip)
    lineup = [pol] + ["greedy"] * (players - 1)
    checked = 0
    for deal in range(12):
        rec = trace(rules, lineup, 17, deal)
        assert check(rec) == []
        for st, (tile, _end) in replayed(rules, rec):
            if st.turn != 0 or st.first_double is not None:
                continue
            doubles = [t for t, _ in st.legal() if a[t] == b[t]]
            if doubles and len({t for t, _ in st.legal()}) > 1:
                assert a[tile] == b[tile], (pol, deal, st.move_number, tile)
                checked += 1
    assert checked >= 3, checked


def test_hold_is_written_only_when_set_and_allow_keeps_the_texts():
    assert str(parse_policy("search")) == "search:worlds=256,model=greedy,depth=1,own=defensive,win=40"
    assert str(parse_policy("search:hold=allow")) == str(parse_policy("search"))
    assert str(parse_policy("search:hold=never")).endswith(",hold=never")
    assert str(parse_policy("expert")) == "expert:worlds=512,infer=50,exact=16,win=40,model=greedy"
    assert parse_policy(str(parse_policy("expert:worlds=9,hold=never"))) == parse_policy("expert:worlds=9,hold=never")


@pytest.mark.parametrize("bad,says", [("expert:worlds=0", "integer from 1 to 1,000"),
                                      ("expert:infer=-1", "integer from 0 to 1,000"),
                                      ("expert:exact=99", "from 0 \\(never\\) to 40"),
                                      ("expert:hold=sometimes", "allow or never"),
                                      ("expert:model=minimax", "greedy or defensive"),
                                      ("expert:depth=3", "allowed parameters: worlds, infer, exact, win, hold, model")])
def test_bad_budgets_get_one_line_and_exit_2(bad, says):
    with pytest.raises(PolicyError, match=says):
        parse_policy(bad)
    r = CliRunner().invoke(app, ["policies", bad])
    assert r.exit_code == 2
    lines = [x for x in r.output.strip().splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in r.output, r.output


def test_tile_names_parse_for_the_checks():
    """The tests above compare tiles by their halves: the double 6-6 has equal halves."""
    a, b = halves(6)
    t = parse_tile("6-6", 6)
    assert a[t] == b[t] == 6

"""simdom equilibrium: the game tree of small 2-player versions, CFR+ and exact best replies
(simdom/engine/gametree.py, simdom/equilibrium/, docs/equilibrium.md).

The solver is checked against an independent brute force (the sequence-form linear program of the tiny
game, solved by scipy), the tree against the batch kernel (a pair of deterministic policies' exact value on
the tree is what simulated deals average), the equilibrium against its tolerance."""
from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from typer.testing import CliRunner

from simdom.cli import app
from simdom.engine.api import simulate_deals
from simdom.engine.gametree import CHANCE, TERMINAL, build_tree, deals, estimate_nodes
from simdom.engine.treepolicy import policy_strategy
from simdom.equilibrium import cfr
from simdom.equilibrium.solve import edge, equilibrium, exploitability, mixed, solve
from simdom.rules import preset

TINY = preset("fives-and-threes", players=2, max_pip=2, hand_size=[2, 5, 5])
#: a version with draws and a first-double bonus (Threes' rules, the double-2 set)
DRAWS = preset("threes", players=2, max_pip=2, hand_size=[2, 6, 5])


@pytest.fixture(scope="module")
def tiny():
    return build_tree(TINY)


@pytest.fixture(scope="module")
def draws():
    return build_tree(DRAWS)


def lp_value(tr, u) -> float:
    """Seat 0's value by the sequence-form linear program (von Stengel): max f'q s.t. F'q <= A'x, Ex = e."""
    seq = np.zeros((tr.nodes, 2), dtype=np.int64)
    chance = np.ones(tr.nodes)
    parent, pay = {}, {}
    for i in range(tr.nodes):
        w = tr.who[i]
        if w == TERMINAL:
            key = (seq[i, 0], seq[i, 1])
            pay[key] = pay.get(key, 0.0) + chance[i] * u[i]
            continue
        for c in range(tr.first[i], tr.first[i] + tr.nkids[i]):
            seq[c], chance[c] = seq[i], chance[i] * (tr.prob[c] if w == CHANCE else 1.0)
            if w >= 0:
                parent[tr.iset[i]] = seq[i, w]
                seq[c, w] = 1 + tr.act_off[tr.iset[i]] + c - tr.first[i]
    m = int(tr.act_off[-1]) + 1
    A = sp.csr_matrix((list(pay.values()), tuple(zip(*pay.keys()))), shape=(m, m))

    def constraints(seat):
        states = [i for i in range(tr.infosets) if tr.iset_seat[i] == seat]
        r, c, v = [0], [0], [1.0]
        for j, s in enumerate(states, 1):
            r.append(j), c.append(parent[s]), v.append(-1.0)
            for a in range(tr.iset_nact[s]):
                r.append(j), c.append(1 + tr.act_off[s] + a), v.append(1.0)
        e = np.zeros(len(states) + 1)
        e[0] = 1.0
        return sp.csr_matrix((v, (r, c)), shape=(len(states) + 1, m)), e
    (E, e), (F, f) = constraints(0), constraints(1)
    res = linprog(np.concatenate([np.zeros(m), -f]), A_ub=sp.hstack([-A.T, F.T]), b_ub=np.zeros(m),
                  A_eq=sp.hstack([E, sp.csr_matrix((E.shape[0], F.shape[0]))]), b_eq=e,
                  bounds=[(0, None)] * m + [(None, None)] * F.shape[0], method="highs")
    assert res.status == 0
    return -res.fun


def test_tree_is_a_game(tiny, draws):
    for tr, rules in ((tiny, TINY), (draws, DRAWS)):
        assert tr.nkids[0] == 2 * deals(rules)          # every deal, each seat leading by the lot
        r = cfr.reach(tr.who, tr.first, tr.nkids, tr.prob, tr.iset, tr.act_off,
                      cfr.normalised(np.ones(tr.act_off[-1]), tr.act_off))
        assert r[tr.who == TERMINAL].sum() == pytest.approx(1.0)
        dec = tr.who >= 0
        assert (tr.nkids[dec] == tr.iset_nact[tr.iset[dec]]).all()
        assert (tr.iset_seat[tr.iset[dec]] == tr.who[dec]).all()
        assert (np.diff(tr.depth) >= 0).all() and (tr.first[tr.nkids > 0] > np.flatnonzero(tr.nkids > 0)).all()
    assert (draws.who == CHANCE).sum() > 1             # draws are chance nodes
    assert estimate_nodes(TINY, sample=1000) == tiny.nodes    # few deals: the estimate is the count


@pytest.mark.parametrize("objective", ["margin", "win"])
def test_cfr_matches_the_linear_program(tiny, draws, objective):
    for tr in (tiny, draws):
        u = tr.margin if objective == "margin" else tr.win
        exact = lp_value(tr, u)
        sol = solve(tr, objective, tol=1e-5)
        assert sol.exploitability <= 1e-5
        assert abs(sol.value - exact) <= 2e-5
        # a symmetric game: seat 0's value is 0 by margin, one half by the win
        assert exact == pytest.approx(0.0 if objective == "margin" else 0.5, abs=1e-7)


def test_best_reply_to_uniform_is_exact(tiny):
    """The uniform strategy's best replies, checked against the brute force: a best reply can gain no more
    than the best pure reply found by the linear program with the uniform seat fixed, and its value is
    at least the uniform strategy's own."""
    uni = cfr.normalised(np.ones(tiny.act_off[-1]), tiny.act_off)
    e = exploitability(tiny, "margin", uni)
    assert e > 0.1
    sol = solve(tiny, "margin", tol=1e-6)
    assert edge(tiny, "margin", sol.strategy, uni) <= e + 1e-9   # the equilibrium gains at most a best reply


def test_deterministic_policies_value_matches_simulation(draws):
    """greedy in seat 0 against heavy: the exact value on the tree is what the batch kernel's deals average."""
    g, h = policy_strategy(draws, "greedy"), policy_strategy(draws, "heavy")
    exact = cfr.values(draws.who, draws.first, draws.nkids, draws.prob, draws.margin, draws.iset, draws.act_off,
                       mixed(draws, g, h))[0]
    b = simulate_deals(DRAWS, ["greedy", "heavy"], seed=5, deal0=0, n_deals=200_000)
    pts = b.seats["points"].astype(float)
    m = pts[:, 0] - pts[:, 1]
    assert abs(m.mean() - exact) < 4 * m.std() / np.sqrt(len(m))


def test_equilibrium_and_policies(draws):
    res = equilibrium(DRAWS, ["greedy"], {"margin": 0.001, "win": 0.0001}, hold=True)
    assert res.solutions["margin"].exploitability <= 0.001 and res.solutions["win"].exploitability <= 0.0001
    a = res.against[0]
    for obj in ("margin", "win"):
        tol = res.solutions[obj].exploitability
        assert a["best_reply"][obj] >= a["equilibrium"][obj] - 2 * tol >= -2 * tol
    h = res.hold
    assert 0.0 <= h["rate"]["win"] <= 1.0 and h["spots_per_deal"]["win"] > 0
    assert h["worth"]["win"] >= -0.001          # an option is worth something or nothing


def test_no_hold_tree_places_the_first_double(draws):
    bound = build_tree(DRAWS, nohold=(True, False))
    assert bound.nodes < draws.nodes
    spots = bound.hold_spot & (bound.iset_seat == 0)
    for i in np.flatnonzero(spots):
        assert bound.act_double[bound.act_off[i]:bound.act_off[i + 1]].all()


def test_cli_json_and_errors(tmp_path):
    r = CliRunner().invoke(app, ["equilibrium", "-r", "fives-and-threes", "--set", "max_pip=2", "--set",
                                 "hand_size=[2,5,5]", "--against", "greedy", "--format", "json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert {"nodes", "infosets", "exploitability", "value", "against"} <= set(d)
    assert d["against"][0]["policy"] == "greedy" and set(d["against"][0]["best_reply"]) == {"margin", "win"}
    out = tmp_path / "eq.csv"
    r = CliRunner().invoke(app, ["equilibrium", "-r", "fives-and-threes", "--set", "max_pip=2", "--set",
                                 "hand_size=[2,5,5]", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("what,policy,margin,win")
    for args, says in ((["--set", "max_pip=6"], "the limit is"), (["-n", "3"], "allowed: 2"),
                       (["--set", "max_pip=2", "--set", "hand_size=[2,5,5]", "--against", "clairvoyant"],
                        "not a fair player")):
        r = CliRunner().invoke(app, ["equilibrium", "-r", "fives-and-threes", *args])
        assert r.exit_code == 2 and says in r.output and len(r.output.strip().splitlines()) == 1, r.output

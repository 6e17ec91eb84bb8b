"""The bot policies of issue 4: every policy plays only legal moves, greedy's choices are maximal,
hold:until=K keeps the first double back exactly as defined, defensive follows its definition, no
policy looks at what its seat cannot know, and rollout beats greedy (slow).

Deals are played by the kernel (:func:`trace`) and re-stepped move by move with :class:`DealState`,
which lists the legal moves and scores any of them independently of the policy's own code.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from simdom.engine.api import simulate_deals
from simdom.engine.state import trace
from simdom.engine.codes import End
from simdom.engine.state import DealState
from simdom.policies import NEVER, REGISTRY, PolicyError, parse_policy
from simdom.rules import PRESETS, from_dict, preset
from simdom.stats.inference import paired_diff_ci
from simdom.tiles import halves, parse_tile

SEED = 4242
PLAYERS = (2, 3, 4)
CHEAP = {"rollout": "rollout:samples=3", "hold": "hold:until=9", "search": "search:worlds=2",
         "expert": "expert:worlds=2"}
#: the fair policies (clairvoyant reads every hand: tests/test_search.py checks it apart)
POLICIES = [CHEAP.get(name, name) for name, info in REGISTRY.items() if info.fair] + [
    "hold:until=never", "hold:until=3", "expert:worlds=2,own=plan", "expert:worlds=2,model=defensive,own=plan"]


# ---- helpers ------------------------------------------------------------------------------------
def restep(rec, visit=None):
    """Re-play a trace record with DealState, checking that every placement is among the legal moves
    listed at that point; ``visit(st, seat, moves, chosen)`` is called before each placement.
    Returns the DealState at the end."""
    rules = from_dict(rec["rules"])
    mp = rules.max_pip
    hands = [[parse_tile(t, mp) for t in h] for h in rec["hands"]]
    st = DealState(rules, hands, [parse_tile(t, mp) for t in rec["boneyard"]], rec["first"])
    for a in rec["actions"]:
        if a["act"] != "play":
            continue
        moves = st.advance()
        chosen = (parse_tile(a["tile"], mp), End.parse(a["end"]))
        assert st.turn == a["seat"]
        assert chosen in moves, f"deal {rec['deal']}: seat {a['seat']} plays {a['tile']} {a['end']}, not legal"
        if visit is not None:
            visit(st, a["seat"], moves, chosen)
        st.play(*chosen)
    assert st.advance() == [], "the deal goes on after the trace's last placement"
    assert st.actions == rec["actions"], "the draws and passes differ from the trace's"
    return st


def pips(rules, t):
    a, b = halves(rules.max_pip)
    return int(a[t] + b[t])


def is_double(rules, t):
    a, b = halves(rules.max_pip)
    return bool(a[t] == b[t])


def value(st, move):
    pts, bonus = st.score_of(*move)
    return pts + bonus


def best_of(st, rules, moves):
    """Greedy's order over ``moves``: the most immediate points, then the heavier tile, then first."""
    return max(moves, key=lambda m: (value(st, m), pips(rules, m[0]), -moves.index(m)))


# ---- legality -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", PRESETS)
def test_s5_every_policy_plays_only_legal_moves(name, players):
    rules = preset(name, players=players)
    for k, pol in enumerate(POLICIES):
        others = ["greedy", "random", "heavy"]
        lineups = [[pol] * players, [pol] + others[: players - 1]]
        for j, lineup in enumerate(lineups):
            for deal in range(2):
                restep(trace(rules, lineup, SEED + k, 10 * j + deal))


# ---- greedy and hold ----------------------------------------------------------------------------
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", PRESETS)
def test_greedy_choices_are_maximal(name, players):
    """No legal move scores more than greedy's; among the equal best, none is heavier."""
    rules = preset(name, players=players)
    checked = []

    def visit(st, seat, moves, chosen):
        if seat % 2 == 0 and len(moves) > 1:
            assert chosen == best_of(st, rules, moves)
            checked.append(1)

    for deal in range(6):
        restep(trace(rules, ["greedy", "random"] * 2 if players == 4 else ["greedy", "random", "greedy"][:players],
                     SEED, deal), visit)
    assert len(checked) > 5


HOLD_KS = (1, 3, 5, 9, 13, NEVER)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", ["threes", "all-fives", "muggins"])  # fives leads 5-5: no holding
def test_hold_never_places_the_first_double_before_move_k(name, players):
    """hold:until=K: before move K, while no double is down, a double is placed only when every legal
    move is a double; every choice is greedy's among the moves it allows itself (all of them once
    the first double is down or from move K on)."""
    rules = preset(name, players=players)
    held = []
    for K in HOLD_KS:
        text = "hold:until=" + ("never" if K == NEVER else str(K))

        def visit(st, seat, moves, chosen):
            if seat != 0 or len(moves) < 2:
                return
            fd_done = st.first_double is not None
            move_no = st.move_number + 1
            allowed = moves
            if not fd_done and move_no < K:
                singles = [m for m in moves if not is_double(rules, m[0])]
                if singles:
                    assert not is_double(rules, chosen[0]), f"{text}: first double placed at move {move_no}"
                    allowed = singles
                    if len(singles) < len(moves):
                        held.append(K)
            assert chosen == best_of(st, rules, allowed)

        for deal in range(8):
            restep(trace(rules, [text] + ["greedy"] * (players - 1), SEED, deal), visit)
    assert held, "no deal tested the holding"


def test_hold_until_1_is_greedy():
    for name, players in itertools.product(PRESETS, PLAYERS):
        rules = preset(name, players=players)
        for deal in range(4):
            a = trace(rules, "hold:until=1", SEED, deal)
            b = trace(rules, "greedy", SEED, deal)
            assert a["actions"] == b["actions"]


# ---- defensive ----------------------------------------------------------------------------------
def expected_reply_brute(st, rules, seat):
    """E[the next seat's best immediate reply], by brute force over every hand it may hold: the
    unseen tiles without its void values (all unseen tiles when those are too few), each subset of
    its hand count equally likely, a hand with no scoring move counting 0. None when too many."""
    nxt = st.turn
    if st.ended:
        return 0.0
    void, h = st.seat(nxt).void, len(st.seat(nxt).hand)
    own = set(st.hand(seat))
    played = set(st.played())
    unseen = [t for t in range(rules.n_tiles) if t not in own and t not in played]
    a, b = halves(rules.max_pip)
    may = [t for t in unseen if int(a[t]) not in void and int(b[t]) not in void]
    cand = may if len(may) >= h else unseen
    if math.comb(len(cand), h) > 20000:
        return None
    saved = st.snapshot()
    best = {}
    for t in cand:  # the best reply with t alone in the hand
        st.set_hand(nxt, [t])
        best[t] = max([value(st, m) for m in st.legal()] + [0])
        st.restore(saved)
    total = sum(max(best[t] for t in hand) for hand in itertools.combinations(cand, h))
    return total / math.comb(len(cand), h)


def check_by_formula(rules, pol, value_after):
    """Replay 5 deals of ``pol`` (seat 0) against greedy and random, and check each of seat 0's choices
    among 2+ moves: the best by ``value_after(st, seat, move, pts, bonus)`` (called with the move played;
    None: not checkable by brute force), ties to the heavier tile, then the first listed. Returns how
    many choices were checked (ties between equal values apart)."""
    checked = []

    def visit(st, seat, moves, chosen):
        if seat != 0 or len(moves) < 2:
            return
        scores = {}
        for m in moves:
            saved = st.snapshot()
            pts, bonus, _, _ = st.play(*m)
            v = value_after(st, seat, m, pts, bonus)
            st.restore(saved)
            if v is None:
                return
            scores[m] = v
        top = max(scores.values())
        near = [m for m in moves if scores[m] > top - 1e-9]
        want = max(near, key=lambda m: (pips(rules, m[0]), -moves.index(m)))
        if all(abs(scores[m] - top) > 1e-6 or m == want for m in near):
            assert chosen == want, f"{pol} chose {chosen}, its definition gives {want}: {scores}"
            checked.append(1)

    for deal in range(5):
        restep(trace(rules, [pol, "greedy", "random"], SEED, deal), visit)
    return len(checked)


@pytest.mark.parametrize("name", ["threes", "fives", "all-fives", "fives-and-threes"])
def test_defensive_is_points_minus_the_expected_best_reply(name):
    rules = preset(name, players=3)

    def value_after(st, seat, m, pts, bonus):
        e = expected_reply_brute(st, rules, seat)
        return None if e is None else pts + bonus - e

    assert check_by_formula(rules, "defensive", value_after) >= 5


# ---- plan -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["threes", "fives"])
def test_plan_with_reply_weight_one_and_nothing_else_is_defensive(name):
    """plan:reply=1,next=0,keep=0,pips=0 plays defensive's every move (its definition with the other weights 0)."""
    for n in (2, 4):
        rules = preset(name, players=n)
        a = simulate_deals(rules, ["plan:reply=1,next=0,keep=0,pips=0"] + ["greedy"] * (n - 1), SEED, 0, 400)
        b = simulate_deals(rules, ["defensive"] + ["greedy"] * (n - 1), SEED, 0, 400)
        c = simulate_deals(rules, ["plan"] + ["greedy"] * (n - 1), SEED, 0, 400)
        for k in a.seats:
            assert (a.seats[k] == b.seats[k]).all(), k
        assert any((c.seats[k] != b.seats[k]).any() for k in c.seats), "the default weights play as defensive"


@pytest.mark.parametrize("name", ["threes", "fives"])
def test_plan_follows_its_definition(name):
    """Each of plan's moves is the best by its formula: points, less R times the next seat's expected best
    reply (brute force, as defensive's test), plus N times the best its own tiles then score on the ends
    as they stand, K times how many of its tiles fit there, P times the tile's pips; ties to the heavier."""
    rules = preset(name, players=3)
    w = {"reply": 0.75, "next": 0.5, "keep": 1.5, "pips": -0.25}

    def value_after(st, seat, m, pts, bonus):
        v = pts + bonus + w["pips"] * pips(rules, m[0])
        if st.ended:
            return v
        e = expected_reply_brute(st, rules, seat)
        if e is None:
            return None
        c = st.copy()  # the seat's own tiles in the hand of the seat to act: their moves there
        c.set_hand(c.turn, st.hand(seat))
        own = c.legal()
        best = max([value(c, x) for x in own] + [0])
        fit = len({t for t, _ in own})
        return v + w["next"] * best + w["keep"] * fit - w["reply"] * e

    assert check_by_formula(rules, "plan:" + ",".join(f"{k}={v}" for k, v in w.items()), value_after) >= 5


def test_plan_weights_are_checked():
    assert str(parse_policy("plan")) == "plan:reply=1.125,next=0.125,keep=0.5,pips=-0.05"
    assert str(parse_policy("expert:own=plan")) == "expert:worlds=512,infer=50,exact=16,win=40,model=greedy,own=plan"
    for bad in ("plan:keep=21", "plan:next=x", "plan:reply=nan", "plan:keep=1e1", "plan:keep=.5", "plan:pips=1_0", "plan:next=0.1234",
                "expert:own=greedy", "plan:keep=1,keep=2", "rollout:samples=3,samples=4", "expert:pips=1",
                "expert:own=defensive,reply=3"):
        with pytest.raises(PolicyError):
            parse_policy(bad)


# ---- what a policy may know ---------------------------------------------------------------------
def reshuffled(rules, st, seat, rng):
    """A copy of the deal whose other hands and boneyard still to draw are dealt anew from the same
    tiles, each seat keeping its hand count and holding none of its void values; None if no such
    deal was found."""
    n, a, b = rules.players, *halves(rules.max_pip)
    others = [o for o in range(n) if o != seat]
    own, played = set(st.hand(seat)), set(st.played())
    hidden = [t for t in range(rules.n_tiles) if t not in own and t not in played]
    for _ in range(200):
        perm = [int(t) for t in rng.permutation(hidden)]
        hands, ok = {}, True
        for o in others:
            seen = st.seat(o)
            take, perm = perm[:len(seen.hand)], perm[len(seen.hand):]
            if any(int(a[t]) in seen.void or int(b[t]) in seen.void for t in take):
                ok = False
                break
            hands[o] = take
        if ok:
            world = st.copy()
            world.set_hidden(hands, perm)
            return world
    return None


def positions(rules, deals, rng):
    """Mid-deal states (DealState at a turn with several legal moves), after random play."""
    for deal in range(deals):
        st = DealState.dealt(rules, SEED, deal)
        stop = int(rng.integers(0, 3 * rules.n_tiles // 4))
        for _ in range(rules.n_tiles):
            moves = st.advance()
            if not moves:
                break
            if len(moves) > 1 and len(st.actions) >= stop:
                yield st, moves
                break
            st.play(*moves[int(rng.integers(len(moves)))])


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", ["threes", "fives", "fives-and-threes"])
def test_policies_see_only_what_their_seat_may_know(name, players):
    """Dealing the other hands and the boneyard anew, consistently with what the seat knows (hand
    counts, boneyard size, void values), changes no policy's choice (with the same random stream)."""
    rules = preset(name, players=players)
    rng = np.random.default_rng(7)
    pols = [parse_policy(p) for p in POLICIES]
    compared = 0
    for st, moves in positions(rules, 14, rng):
        seat = st.turn
        key = int(rng.integers(0, 2**62))
        worlds = [st] + [w for w in (reshuffled(rules, st, seat, rng) for _ in range(3)) if w]
        for p in pols:
            picks = set()
            for w in worlds:
                before = w.snapshot()[0].copy()
                picks.add(w.choice(p, key))
                assert np.array_equal(w.snapshot()[0], before), f"{p} changed the state"
            assert len(picks) == 1, f"{name}, {players} players, {p}: the choice depends on hidden tiles"
        compared += len(worlds) - 1
    assert compared >= 10


# ---- names --------------------------------------------------------------------------------------
def test_the_kernel_reads_each_policy_parameter_where_policies_puts_it():
    """The kernel's par[PAR_*] (engine/layout.py) are the positions of the parameters in the registry."""
    from simdom.engine._kernel import layout as L
    where = {("hold", "until"): L.PAR_UNTIL, ("rollout", "samples"): L.PAR_SAMPLES,
             ("timing", "support"): L.PAR_SUPPORT, ("timing", "lead"): L.PAR_LEAD, ("timing", "wait"): L.PAR_WAIT,
             ("timing", "players"): L.PAR_PLAYERS, ("search", "worlds"): L.PAR_WORLDS,
             ("search", "model"): L.PAR_MODEL, ("search", "depth"): L.PAR_DEPTH, ("search", "own"): L.PAR_OWN,
             ("search", "win"): L.PAR_WIN, ("search", "hold"): L.PAR_HOLD,
             ("expert", "worlds"): L.PAR_E_WORLDS, ("expert", "infer"): L.PAR_E_INFER,
             ("expert", "exact"): L.PAR_E_EXACT, ("expert", "win"): L.PAR_E_WIN, ("expert", "hold"): L.PAR_E_HOLD,
             ("expert", "model"): L.PAR_E_MODEL, ("expert", "own"): L.PAR_E_OWN,
             **{("expert", w): L.PAR_E_PLAN + k for k, w in enumerate(("reply", "next", "keep", "pips"))},
             ("plan", "reply"): L.PAR_PL_REPLY, ("plan", "next"): L.PAR_PL_NEXT, ("plan", "keep"): L.PAR_PL_KEEP,
             ("plan", "pips"): L.PAR_PL_PIPS,
             ("clairvoyant", "against"): L.PAR_AGAINST, ("clairvoyant", "nodes"): L.PAR_NODES,
             ("clairvoyant", "by"): L.PAR_BY}
    found = {(name, p.name): k for name, info in REGISTRY.items() for k, p in enumerate(info.params)}
    assert found == where
    assert all(len(info.params) <= L.N_PARAMS for info in REGISTRY.values())
    # every declared policy has its kernel id POL_<NAME>, and the kernel none that is not declared
    from simdom.engine.codes import PolicyId
    assert {name.upper() for name in REGISTRY} == set(PolicyId.__members__)
    assert parse_policy("search:worlds=8,depth=0")["depth"] == 0 and parse_policy("search")["worlds"] == 256


def test_policy_names_and_errors():
    assert str(parse_policy("rollout:samples=64")) == "rollout:samples=64"
    assert str(parse_policy("hold:until=never")) == "hold:until=never"
    assert str(parse_policy("defensive")) == "defensive"
    for bad, says in [("alphabeta", "unknown policy"), ("rollout:samples=0", "integer from 1 to 10,000"),
                      ("rollout:depth=3", "allowed parameters: samples"), ("hold:until=-2", "'never'")]:
        with pytest.raises(PolicyError, match=says) as e:
            parse_policy(bad)
        if "unknown policy" in says:
            assert all(name in str(e.value) for name in REGISTRY)


def test_cli_lists_the_policies():
    from typer.testing import CliRunner

    from simdom.cli import app

    r = CliRunner().invoke(app, ["policies"])
    assert r.exit_code == 0, r.output
    for name in REGISTRY:
        assert name in r.output
    r = CliRunner().invoke(app, ["policies", "rollout:samples=8"])
    assert r.exit_code == 0 and "samples = 8" in r.output
    r = CliRunner().invoke(app, ["policies", "rollout:smaples=8"])
    assert r.exit_code == 2


# ---- strength -----------------------------------------------------------------------------------
ROTATED_DEALS = {"threes": 3000, "fives": 1000}  # rollout's edge in points is smaller in Threes


def focal(rules, policy, deals):
    """Per deal, over the seat rotations: the points and the win share of ``policy`` in one seat
    against greedy in the others."""
    n = rules.players
    pts, win = np.zeros(deals), np.zeros(deals)
    for r in range(n):
        lineup = ["greedy"] * n
        lineup[r] = policy
        b = simulate_deals(rules, lineup, SEED, n_deals=deals)
        pts += b.column("points")[:, r]
        win += b.win()[:, r]
    return pts / n, win / n


@pytest.mark.slow
@pytest.mark.parametrize("name", ["threes", "fives"])
def test_rollout_beats_greedy(name):
    """rollout:samples=32 against three greedy seats scores more points and wins more often than
    greedy in its place, on the same deals and seats (paired, seat-rotated), at the 5% level."""
    rules = preset(name, players=4)
    pts, win = focal(rules, "rollout:samples=32", ROTATED_DEALS[name])
    base_pts, base_win = focal(rules, "greedy", ROTATED_DEALS[name])
    d, lo, hi, p = paired_diff_ci(pts, base_pts)
    assert lo > 0, f"{name}: rollout - greedy = {d:+.2f} points [{lo:+.2f}, {hi:+.2f}], p = {p:.2g}"
    d, lo, hi, p = paired_diff_ci(win, base_win)
    assert lo > 0, f"{name}: rollout - greedy = {d:+.3f} win rate [{lo:+.3f}, {hi:+.3f}], p = {p:.2g}"

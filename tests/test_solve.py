"""The exact solver (simdom.engine.solver) against brute force (tests/brute.py, built on the independent
referee's model of the rules): every legal move's value, exactly, on small sets and late positions."""
import pytest

from brute import Game, brute_values
from reference import parse
from simdom.engine.codes import End
from simdom.engine.solver import Solver, sides_of
from simdom.engine.state import DealState, trace
from simdom.policies import PolicyError
from simdom.rules import preset
from simdom.tiles import parse_tile, tile_name

SMALL = [  # (preset, players, overrides): sets small enough for brute force from the lead
    ("threes", 2, dict(max_pip=3, hand_size=3, min_ends=2, divisors=[3])),
    ("threes", 3, dict(max_pip=3, hand_size=3, min_ends=2, divisors=[3])),
    ("fives", 2, dict(max_pip=4, hand_size=4, lead="any")),
    ("fives", 3, dict(max_pip=3, hand_size=2, lead="any")),
    ("all-fives", 2, dict(max_pip=4, hand_size=4)),
    ("muggins", 2, dict(max_pip=4, hand_size=4)),
    ("fives-and-threes", 2, dict(max_pip=4, hand_size=4)),
    ("fives", 4, dict(max_pip=3, hand_size=2, lead="any", target=100, teams="partners")),
    ("threes", 4, dict(max_pip=4, hand_size=2, min_ends=2, target=100, teams="partners")),
    # four sides by margin (the table's shifted bounds), spinners and doubles led: mirror images shared
    ("threes", 4, dict(max_pip=3, hand_size=2, min_ends=2)),
    ("fives", 4, dict(max_pip=3, hand_size=2, lead="any")),
]


def named(values: dict, mp: int) -> dict:
    return {(tile_name(t, mp), e.label if hasattr(e, "label") else e): v for (t, e), v in values.items()}


def solver_values(solver, state, by, against=None) -> dict:
    sol = solver.solve(state, by=by, against=against)
    mp = state.rules.max_pip
    return {(tile_name(m.tile, mp), m.end.label): m.value for m in sol.moves}


def positions(rules, seed, deal, policy="random"):
    """The positions of one deal (played by ``policy``): (record, state, n placements played)."""
    rec = trace(rules, policy, seed, deal)
    plays = [a for a in rec["actions"] if a["act"] == "play"]
    st = DealState(rules, [[_t(x, rules) for x in h] for h in rec["hands"]],
                   [_t(x, rules) for x in rec["boneyard"]], rec["first"])
    for i, a in enumerate(plays):
        if st.advance() == []:
            break
        yield rec, st, i
        st.play(_t(a["tile"], rules), End.parse(a["end"]))


def _t(text, rules):
    return parse_tile(text, rules.max_pip)


def late_positions_equal_brute_force(rules, solver, seed, deals, left_at_most):
    """Every position of greedy's play of ``deals`` deals with at most ``left_at_most`` tiles in hands and
    boneyard: the solver's margins equal brute force's. Returns how many were checked."""
    sides = sides_of(rules)
    checked = 0
    for deal in range(deals):
        for rec, st, i in positions(rules, seed, deal, "greedy"):
            left = sum(len(st.hand(s)) for s in range(rules.players)) + st.boneyard_left
            if left <= left_at_most:
                assert solver_values(solver, st, "margin") == brute_at(rec, i, "margin", sides), (deal, i)
                checked += 1
    return checked


def brute_at(rec, i, by, sides, against=None):
    g = Game(rec, partners=len(set(sides)) == 2 and len(sides) == 4)
    for a in [a for a in rec["actions"] if a["act"] == "play"][:i]:
        g.forced()
        g.play(parse(a["tile"]), a["end"])
    return brute_values(g, by, sides, against)


@pytest.mark.parametrize("name,players,over", SMALL, ids=lambda x: str(x))
def test_solver_equals_brute_force_on_small_sets(name, players, over):
    rules = preset(name, players, **over)
    solver = Solver(rules, table_bits=12)  # a small table: collisions of slots are exercised too
    sides = sides_of(rules)
    checked = 0
    for deal in range(6):
        for rec, st, i in positions(rules, 7, deal):
            for by in ("margin", "points"):
                assert solver_values(solver, st, by) == brute_at(rec, i, by, sides), (name, deal, i, by)
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("name,players", [("threes", 2), ("threes", 4), ("fives", 2), ("fives", 3),
                                          ("all-fives", 4)])
def test_solver_equals_brute_force_late_in_double_six_deals(name, players):
    rules = preset(name, players)
    assert late_positions_equal_brute_force(rules, Solver(rules), 11, 12, 10) >= 5


@pytest.mark.parametrize("name,players", [("fives", 2), ("threes", 2), ("all-fives", 2)])
def test_a_line_end_and_an_arm_alike_equal_brute_force(name, players):
    """Positions where a line end and an arm with a tile show one value (in Threes, whatever tiles show
    it): the solver searches a tile on the two once and keys their arrangements as one position
    (docs/decisions.md); every listed move's value, on either end, still equals brute force's."""
    rules = preset(name, players)
    solver = Solver(rules)
    sides = sides_of(rules)
    checked = 0
    for deal in range(80):
        for rec, st, i in positions(rules, 5, deal, "greedy"):
            if sum(len(st.hand(s)) for s in range(players)) + st.boneyard_left > 10:
                continue
            ends = st.ends()
            arms = [e for e, used in zip("UD", st.arms_used()) if used and e in ends]
            if not any(ends[a] == ends[e] for a in arms for e in "LR"):
                continue
            assert solver_values(solver, st, "margin") == brute_at(rec, i, "margin", sides), (deal, i)
            checked += 1
    assert checked >= 10


SEVERAL_SIDES = [  # three or four sides by margin, hands big enough that a position recurs at other margins
    ("threes", 4, dict(max_pip=4, hand_size=3, min_ends=2)),
    ("fives", 4, dict(max_pip=4, hand_size=3, lead="any")),
    ("threes", 3, dict(max_pip=4, hand_size=4, min_ends=2)),
    ("fives", 3, dict(max_pip=4, hand_size=4, lead="any")),
    ("fives", 4, dict(max_pip=5, hand_size=4, lead="any")),
]


@pytest.mark.parametrize("name,players,over", SEVERAL_SIDES, ids=lambda x: str(x))
@pytest.mark.parametrize("bits", [10, 20])
def test_several_sides_by_margin_equal_brute_force(name, players, over, bits):
    """The table's entries keep each seat's lower bound of the margin (read at a position's own margins)
    and mirrored moves are searched once: every value still brute force's, with a table small enough
    that entries are overwritten and one large enough that they are reused."""
    rules = preset(name, players, **over)
    assert late_positions_equal_brute_force(rules, Solver(rules, table_bits=bits), 3, 20, 12) >= 60


@pytest.mark.parametrize("name,players,over", SMALL[:5], ids=lambda x: str(x))
@pytest.mark.parametrize("policy", ["greedy", "heavy"])
def test_against_a_policy_equals_brute_force(name, players, over, policy):
    rules = preset(name, players, **over)
    solver = Solver(rules, table_bits=12)
    sides = sides_of(rules)
    for deal in range(5):
        for rec, st, i in positions(rules, 3, deal):
            assert solver_values(solver, st, "margin", policy) == brute_at(rec, i, "margin", sides, policy)


def test_against_greedy_is_at_least_the_minimax_value_and_what_greedy_got():
    """Against fixed opponents the clairvoyant mover does at least as well as against the worst
    opponents (the paranoid value), and at least as well as greedy did in the deal greedy played."""
    for name, players in (("threes", 4), ("fives", 2), ("threes", 2)):
        rules = preset(name, players)
        solver = Solver(rules)
        for deal in range(10):
            st = DealState.dealt(rules, 5, deal)
            for _ in range(rules.n_tiles // 3):  # a third of the set placed by greedy: minimax is quick there
                moves = st.advance()
                if moves:
                    st.play(*moves[0])
            if not st.advance():
                continue
            seat = st.turn
            vs = solver.solve(st, by="margin", against="greedy").value
            para = solver.solve(st, by="margin").value
            played = st.copy()
            played.play_out("greedy", 5, deal)
            tot = played.totals()
            got = tot[seat] - max(t for s, t in enumerate(tot) if s != seat)
            assert vs >= para and vs >= got, (name, deal, vs, para, got)


def test_against_refuses_policies_with_randomness_and_bad_counts():
    st = DealState.dealt(preset("threes", 4), 1, 0)
    for bad in ("random", "rollout:samples=4"):
        with pytest.raises(PolicyError, match="randomness cannot be solved against; allowed: greedy"):
            Solver(st.rules).solve(st, against=bad)
    with pytest.raises(PolicyError, match="3 --against policies for 4 players"):
        Solver(st.rules).solve(st, against=["greedy"] * 3)
    with pytest.raises(ValueError, match="by = 'pts'; allowed: margin, points"):
        Solver(st.rules).solve(st, by="pts")


def test_solution_is_ordered_best_first_and_counts_nodes():
    st = DealState.dealt(preset("threes", 2), 2, 3)
    sol = Solver(st.rules).solve(st)
    vals = [m.value for m in sol.moves]
    assert vals == sorted(vals, reverse=True) and sol.value == vals[0]
    assert sol.nodes > 0 and sol.seat == st.turn and sol.move == 1
    assert {(m.tile, m.end) for m in sol.moves} == set(st.advance())


def fives4_after_greedy(deal: int, placements: int) -> DealState:
    """4-player Fives, seed 1, the deal after that many greedy placements."""
    st = DealState.dealt(preset("fives", 4), 1, deal)
    for _ in range(placements):
        st.play(*st.choice("greedy", 0))
    return st


def test_a_placements_bound_sees_what_the_ends_can_still_show():
    """The quick bounds charge a placement to come what the four largest counts the ends can still
    reach add up to (docs/speed.md), not the most the rules allow (45 in Fives): 4-player Fives, seed 1,
    deal 1 after six greedy placements takes 216,753 positions (289,409 before the moves were ordered by
    the replies they leave, 2,603,739 when every placement could score 45). Exactness is the brute-force
    tests' (above); this checks the bound is in force."""
    sol = Solver(preset("fives", 4)).solve(fives4_after_greedy(1, 6), limit=10**8)
    assert sol.nodes < 1_000_000, sol.nodes


def test_proofs_take_the_move_that_leaves_the_fewest_replies():
    """A proof of "at least v" takes one move of the root side and every reply of the others, so exact
    solves try first the move that leaves the other team the fewest replies, and keep in each bucket of
    the table the entry whose search took longest (docs/speed.md): 4-player Fives, seed 1, deal 0 after six
    greedy placements takes 750,731 positions (2,645,878 before both). Exactness is the brute-force tests';
    here a table of 64K entries, whose buckets are replaced all the time, gives every lead the same value."""
    rules = preset("fives", 4)
    st = fives4_after_greedy(0, 6)
    sol = Solver(rules).solve(st, limit=10**8)
    assert sol.nodes < 1_500_000, sol.nodes
    small = Solver(rules, table_bits=16).solve(st, limit=10**8)
    assert [(m.tile, m.end, m.value) for m in small.moves] == [(m.tile, m.end, m.value) for m in sol.moves]

# ---- simdom solve ----------------------------------------------------------------------------------
SEED_GAME = "scenarios/seed-game.deal.toml"


def test_simdom_solve_answers_first_and_writes_json(cli, tmp_path):
    import json
    r = cli("solve", "--script", SEED_GAME, "--move", "10")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Exact: ") and " margin " in lines[0]
    assert all(len(ln) <= 80 for ln in lines)
    out = tmp_path / "s.json"
    r = cli("solve", "--script", SEED_GAME, "--move", "10", "--format", "json", "-o", out)
    assert r.returncode == 0, r.stderr
    d = json.loads(out.read_text())
    assert set(d) >= {"seat", "move", "by", "value", "moves", "nodes", "seconds"} and d["seat"] == 1 and d["move"] == 10
    vals = [m["value"] for m in d["moves"]]
    assert vals == sorted(vals, reverse=True) and d["value"] == vals[0]
    assert {(m["tile"], m["end"]) for m in d["moves"]} >= {("1-1", "L"), ("1-5", "L")}
    pts = json.loads(cli("solve", "--script", SEED_GAME, "--move", "10", "--by", "points", "-f", "json").stdout)
    assert pts["by"] == "points" and all(m["value"] >= 0 for m in pts["moves"])


@pytest.mark.parametrize("args,says", [
    (["--against", "random"], "randomness cannot be solved against; allowed: greedy"),
    (["--against", "bogus"], "unknown policy 'bogus'"),
    (["--limit", "0"], "--limit 0; allowed: an integer from 1 to"),
    (["--move", "40"], "move"),
])
def test_simdom_solve_refuses_bad_input_in_one_line(cli, args, says):
    r = cli("solve", "--script", SEED_GAME, *(["--move", "10"] if "--move" not in args else []), *args)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_search_stopped_at_its_limit_says_so(cli):
    r = cli("solve", "-r", "threes", "-n", "4", "--deal", "0", "--limit", "50")
    assert r.returncode == 2 and "not solved within 50 positions" in r.stderr, r.stderr

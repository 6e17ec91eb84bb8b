"""Property tests of the layout (docs/rules.md section 3) on random deals and random moves via DealState.

At every step the engine is compared with the referee's independent layout model (tests/reference.py):
the legal moves (in order), the open ends, the counted ends after every placement, the points and
bonus of every placement; and the rules of section 3 are asserted directly: an empty arm is never
counted, a lone double lead is one counted end, arms accept tiles only while open.
"""
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reference import Layout, check, legal_moves, score_move
from simdom.engine.codes import End
from simdom.engine.state import DealState
from simdom.rules import PRESETS, preset, preset_params
from simdom.tiles import tile_index, tile_name

rules_st = st.builds(
    dict,
    name=st.sampled_from(PRESETS),
    players=st.sampled_from([2, 3, 4]),
    spinner=st.sampled_from([None, "first_double", "none"]),
    arms_open=st.sampled_from(["immediately", "after_both_sides"]),
    double_counts=st.sampled_from([None, "face", "both"]),
    max_pip=st.sampled_from([6, 6, 6, 9]),
)


def make_rules(o):
    """The preset with the drawn overrides; arms_open only where there is a spinner, and at most two counted
    ends required on a line (other combinations are meaningless: rules.py refuses them)."""
    over = {}
    if o["spinner"]:
        over["spinner"] = o["spinner"]
    base = preset_params(o["name"])
    if (o["spinner"] or base["spinner"]) == "first_double":
        over["arms_open"] = o["arms_open"]
    elif base["min_ends"] > 2:
        over["min_ends"] = 2
    if o["double_counts"]:
        over["double_counts"] = o["double_counts"]
    if o["max_pip"] == 9:
        over.update(max_pip=9, hand_size=7)
    return preset(o["name"], players=o["players"], **over)


def T(t, mp):
    a, b = (int(x) for x in tile_name(t, mp).split("-"))
    return (a, b)


def step_through(rules, seed, choices):
    """Play a dealt deal with moves chosen by ``choices``, checking the engine against the model."""
    mp = rules.max_pip
    rd = rules.to_dict()
    ds = DealState.dealt(rules, seed, 0)
    lay = Layout(rd)
    hands = [{T(t, mp) for t in ds.hand(s)} for s in range(rules.players)]
    forced = None
    if rules.lead.startswith("tile:"):
        lt = tuple(int(x) for x in rules.lead[5:].split("-"))
        forced = lt if lt in hands[ds.first] else None
    fd_done = False
    seen = 0
    i = 0
    while True:
        moves = ds.advance()
        for a in ds.actions[seen:]:                       # the forced draws and passes
            if a["act"] == "draw":
                hands[a["seat"]].add(tuple(int(x) for x in a["tile"].split("-")))
        seen = len(ds.actions)
        if not moves:
            break
        s = ds.turn
        assert {T(t, mp) for t in ds.hand(s)} == hands[s]
        want = legal_moves(lay, sorted(hands[s]), forced if not lay.line else None)
        got = [(T(t, mp), e.label) for t, e in moves]
        assert got == want
        # arms accept tiles only when open
        if not lay.arms_open():
            assert all(e not in ("U", "D") for _, e in got)
        ends = ds.ends()
        assert ends == {e: lay.value(e) for e in lay.open_ends()}
        t, e = got[choices[i % len(choices)] % len(got)] if choices else got[0]
        i += 1
        pts, bonus, k, ssum = ds.play(tile_index(t[0], t[1], mp), End.parse(e))
        assert (pts, bonus, k, ssum) == score_move(lay, t, e, rd, fd_done)
        lay.place(t, e)
        hands[s].discard(t)
        fd_done = fd_done or t[0] == t[1]
        seen = len(ds.actions)
        c = lay.counted()
        assert ds.counted() == (k, ssum) == (len(c), sum(c))
        # an empty arm is never counted
        used = ds.arms_used()
        assert used == (bool(lay.arms["U"]), bool(lay.arms["D"]))
        line_ends = 1 if lay.lone_double() else 2
        assert k == line_ends + sum(used)
        # a lone double lead is one counted end worth v or 2v
        if e == "lead" and t[0] == t[1]:
            v = t[0]
            assert (k, ssum) == (1, 2 * v if rules.double_counts == "both" else v)
    rec = ds.record()
    assert rec["end"] in ("domino", "blocked")
    assert check(rec) == []
    return rec


@settings(max_examples=120, deadline=None)
@given(o=rules_st, seed=st.integers(0, 2**31), choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_s3_engine_layout_matches_the_model(o, seed, choices):
    step_through(make_rules(o), seed, choices)


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), arms=st.sampled_from(["immediately", "after_both_sides"]),
       seed=st.integers(0, 2**31), choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_s3_spinner_layouts_with_both_arms_modes(players, arms, seed, choices):
    """The four-way layouts, where the arms matter: Threes and All Fives with either arms mode and
    the lead forced to be a double sometimes (lead = tile:A-A) so that spinner leads are common."""
    for name, lead in (("threes", "tile:3-3"), ("all-fives", "any")):
        step_through(preset(name, players=players, arms_open=arms, lead=lead), seed, choices)


@settings(max_examples=60, deadline=None)
@given(v=st.integers(0, 6), counts=st.sampled_from(["face", "both"]), spinner=st.sampled_from(["first_double", "none"]))
def test_s3_lone_double_lead_is_one_counted_end(v, counts, spinner):
    rules = preset("all-fives", players=2, double_counts=counts, spinner=spinner, lead=f"tile:{v}-{v}")
    ds = DealState.dealt(rules, v, 0)
    moves = ds.advance()
    assume((tile_index(v, v, 6), End.LEAD) in moves)  # else nobody holds it: the lot, another case
    ds.play(tile_index(v, v, 6), End.LEAD)
    assert ds.counted() == (1, 2 * v if counts == "both" else v)
    assert ds.arms_used() == (False, False)

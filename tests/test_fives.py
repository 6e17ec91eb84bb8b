"""The Fives family and the rule parameters, on hand-built deals: docs/rules.md sections 2-7 and 10.

Each deal is given explicitly (hands, boneyard top first, the first seat), stepped with DealState,
and its record is also checked by the independent referee (tests/reference.py). Points and end
bonuses are worked out by hand in the comments.
"""
import numpy as np
import pytest

from reference import check
from simdom.engine.api import batch_of, output_blocks, simulate_deals
from simdom.engine.state import trace
from simdom.engine.codes import DealEnd, End
from simdom.engine.state import DealState
from simdom.deal.replay import replay_record
from simdom.rules import preset
from simdom.tiles import n_tiles, parse_tile, tile_name


def deal(rules, hands, first=0, top=()):
    """A DealState with the given hands (strings), first seat, and boneyard: ``top`` first, then the
    rest of the set in index order."""
    mp = rules.max_pip
    hs = [[parse_tile(x, mp) for x in h.split()] for h in hands]
    head = [parse_tile(x, mp) for x in top]
    used = {t for h in hs for t in h} | set(head)
    rest = [t for t in range(n_tiles(mp)) if t not in used]
    return DealState(rules, hs, head + rest, first)


def play(st, *moves):
    """Play "TILE END" moves; return their (points, bonus)."""
    out = []
    for m in moves:
        t, e = m.split()
        pts, bonus, _, _ = st.play(parse_tile(t, st.rules.max_pip), End.parse(e))
        out.append((pts, bonus))
    return out


def finish(st):
    """Run the forced passes to the end; return the record, checked by the referee."""
    assert st.advance() == [], "the deal should be over"
    rec = st.record()
    assert check(rec) == []
    return rec


def moves_of(st):
    return {(tile_name(t, st.rules.max_pip), ("L", "R", "U", "D", "lead")[e]) for t, e in st.advance()}


# ---- section 10: the Fives examples from the seed -------------------------------------------------
def test_s10_five_five_lead_then_zero_five_then_zero_zero():
    st = deal(preset("fives", players=2), ["5-5 0-0 1-2 1-3 1-4 1-6 2-3", "0-5 2-4 2-6 3-4 3-6 4-6 1-1"], first=0)
    assert moves_of(st) == {("5-5", "lead")}           # lead = tile:5-5: the holder must lead it
    assert play(st, "5-5 lead") == [(10, 0)]             # one counted end, both halves: 10
    assert st.counted() == (1, 10)
    assert play(st, "0-5 L") == [(10, 0)]                # the spinner still at R counts 10; L shows 0
    assert st.counted() == (2, 10)
    assert play(st, "0-0 L") == [(10, 0)]                # the inline double on the 0 counts 0 + 0
    assert st.counted() == (2, 10)
    assert st.totals() == [20, 10]


def test_s10_blocked_deal_bonus_26_to_25_to_5():
    # Fives, 4 players, 2 tiles each, nobody draws; 5-5 is in the boneyard, so the lead falls back to any.
    # Seat 0 leads 6-6 (a lone double: 12, no score); no one holds a 6: four passes, blocked.
    # Pips left: seat 0 1-2 = 3 (the winner), opponents 0-0 0-5 = 5, 1-4 3-3 = 11, 0-4 4-5 = 13.
    # opponents_minus_own: 5 + 11 + 13 - 3 = 26, rounded to 25, divided by 5: 5.
    st = deal(preset("fives", players=4, hand_size=2, draw="none"),
              ["6-6 1-2", "0-0 0-5", "1-4 3-3", "0-4 4-5"], first=0)
    assert play(st, "6-6 lead") == [(0, 0)]
    rec = finish(st)
    assert rec["end"] == "blocked"
    assert [a["act"] for a in rec["actions"]] == ["play", "pass", "pass", "pass", "pass"]
    assert rec["end_bonus"] == [5, 0, 0, 0] and rec["totals"] == [5, 0, 0, 0]


# ---- section 7: end bonuses, by hand ---------------------------------------------------------------
# Domino deal: 2 players, 2 tiles each, no drawing. Seat 0 leads 1-2 (ends 1, 2: S = 3), seat 1 holds
# no 1 or 2 and passes, seat 0 plays 2-3 on R (ends 1, 3: S = 4) and dominoes. Only fives-and-threes
# scores a placement (the lead: 3 / 3 = 1). Seat 1 is left with 4-6 + 6-6 = 22 pips.
DOMINO = (["1-2 2-3", "4-6 6-6"], ["1-2 lead", "2-3 R"])


@pytest.mark.parametrize("preset_name,overrides,bonus,placements", [
    ("all-fives", {"out_bonus": "none"}, 0, 0),
    ("all-fives", {}, 20, 0),                                   # opponents_pips 22 -> 20 (round to 5)
    ("all-fives", {"bonus_round_to": 1}, 22, 0),                # no rounding
    ("all-fives", {"bonus_round_to": 4}, 24, 0),                # 22 is halfway 20..24: up to 24
    ("all-fives", {"bonus_round_to": 10}, 20, 0),               # 22 -> 20
    ("fives", {}, 4, 0),                                        # 22 -> 20, / 5 -> 4
    ("fives", {"bonus_divisor": 3}, 6, 0),                      # 22 -> 20, / 3 -> 6 (down)
    ("muggins", {}, 20, 0),
    ("all-fives", {"out_bonus": "fixed:3", "bonus_divisor": 5}, 3, 0),  # fixed: not rounded, not divided
    ("fives-and-threes", {}, 1, 1),                             # fixed:1; the lead 1-2 (S = 3) earns 3/3 = 1
    ("fives-and-threes", {"out_bonus": "opponents_pips"}, 22, 1),
])
def test_s7_out_bonus_after_a_domino(preset_name, overrides, bonus, placements):
    hands, moves = DOMINO
    st = deal(preset(preset_name, players=2, hand_size=2, draw="none", **overrides), hands, first=0)
    pts = play(st, *moves)
    assert sum(p for p, _ in pts) == placements
    rec = finish(st)
    assert rec["end"] == "domino"
    assert [a["act"] for a in rec["actions"]] == ["play", "pass", "play"]
    assert rec["end_bonus"] == [bonus, 0]
    assert rec["totals"] == [bonus + placements, 0]


# Blocked deal: 3 players, 2 tiles each, no drawing. Seat 0 leads 0-1 (S = 1); nobody holds a 0 or
# a 1: three passes. Pips left: seat 0 3-3 = 6 (the winner), seat 1 4-4 + 2-6 = 16, seat 2 2-2 + 4-6 = 14.
# Opponents: 30. Opponents minus own: 24.
BLOCK = ["0-1 3-3", "4-4 2-6", "2-2 4-6"]


@pytest.mark.parametrize("preset_name,overrides,bonus", [
    ("all-fives", {"block_bonus": "none"}, 0),
    ("all-fives", {}, 30),                                          # opponents_pips 30
    ("all-fives", {"bonus_divisor": 4}, 7),                         # 30 / 4 -> 7 (down)
    ("all-fives", {"block_bonus": "opponents_minus_own"}, 25),      # 24 -> 25
    ("fives", {}, 5),                                               # 24 -> 25, / 5 -> 5
    ("fives", {"bonus_round_to": 1}, 4),                            # 24 / 5 -> 4
    ("fives", {"bonus_round_to": 16, "bonus_divisor": 1}, 32),      # 24 is halfway 16..32: up
    ("fives", {"bonus_round_to": 10, "bonus_divisor": 1}, 20),      # 24 -> 20
    ("muggins", {}, 30),
    ("fives-and-threes", {}, 0),                                    # block_bonus none
])
def test_s7_block_bonus_after_a_block(preset_name, overrides, bonus):
    st = deal(preset(preset_name, players=3, hand_size=2, draw="none", **overrides), BLOCK, first=0)
    assert play(st, "0-1 lead") == [(0, 0)]
    rec = finish(st)
    assert rec["end"] == "blocked"
    assert [a["act"] for a in rec["actions"]] == ["play", "pass", "pass", "pass"]
    assert rec["end_bonus"] == [bonus, 0, 0]
    assert rec["totals"] == [bonus, 0, 0]


@pytest.mark.parametrize("mode", ["opponents_pips", "opponents_minus_own"])
def test_s7_block_tie_for_fewest_pips_has_no_hand_winner(mode):
    # Seat 0 keeps 4-5 (9), seat 1 keeps 2-2 2-3 (9): tied for fewest; seat 2 keeps 4-4 2-6 (16).
    st = deal(preset("all-fives", players=3, hand_size=2, draw="none", block_bonus=mode),
              ["0-1 4-5", "2-2 2-3", "4-4 2-6"], first=0)
    play(st, "0-1 lead")
    rec = finish(st)
    assert rec["end"] == "blocked" and rec["end_bonus"] == [0, 0, 0] and rec["totals"] == [0, 0, 0]


def test_s7_block_tie_not_for_fewest_still_has_a_winner():
    # Seat 0 keeps 2-3 (5, fewest); seats 1 and 2 both keep 12 pips: opponents 24 -> 25.
    st = deal(preset("all-fives", players=3, hand_size=2, draw="none"), ["0-1 2-3", "2-2 2-6", "2-4 3-3"], first=0)
    play(st, "0-1 lead")
    assert finish(st)["end_bonus"] == [25, 0, 0]


def test_s7_domino_ends_the_deal_at_once():
    """After the domino nobody acts, even seats that could still play."""
    st = deal(preset("muggins", players=3, hand_size=1, draw="none"), ["1-2", "2-3", "2-4"], first=0)
    play(st, "1-2 lead")
    assert st.ended == DealEnd.DOMINO and st.advance() == []
    assert len(st.record()["actions"]) == 1


def test_s7_blocked_needs_n_consecutive_passes():
    # 2 players. Seat 0 leads 0-1; seat 1 (no 0, 1) passes; seat 0 plays 1-3; seat 1 plays 3-4;
    # seat 0 (2-2, 6-6) passes; seat 1 (5-5) passes: blocked after two consecutive passes, not three.
    st = deal(preset("muggins", players=2, hand_size=3, draw="none"), ["0-1 1-3 2-2", "3-4 5-5 6-6"], first=0)
    play(st, "0-1 lead", "1-3 R", "3-4 R")
    rec = finish(st)
    assert [a["act"] for a in rec["actions"]] == ["play", "pass", "play", "play", "pass", "pass"]
    assert rec["end"] == "blocked"
    assert rec["end_bonus"] == [20, 0]            # seat 0 keeps 2-2 (4); seat 1 22 -> 20


def test_s3_double_counts_face_and_both():
    # Lead 3-6 then 6-6 on R: ends 3 and the inline double 6-6.
    for counts, s in (("face", 9), ("both", 15)):
        st = deal(preset("muggins", players=2, double_counts=counts), ["3-6 1-1 1-2 1-3 1-4 1-5 1-6",
                                                                        "6-6 2-2 2-3 2-4 2-5 2-6 3-3"])
        play(st, "3-6 lead", "6-6 R")
        assert st.counted() == (2, s)


# ---- sections 3-4 in the Fives family: muggins, fives-and-threes --------------------------------
def test_s4_fives_and_threes_quotient_15_earns_8():
    # Lead 3-6: S = 9 -> 9 / 3 = 3. Then 6-6 on R: 3 + 12 = 15 -> 15/5 + 15/3 = 8.
    st = deal(preset("fives-and-threes", players=2), ["3-6 1-1 1-2 1-3 1-4 1-5 0-1",
                                                      "6-6 2-2 2-3 2-4 2-5 2-6 3-3"])
    assert play(st, "3-6 lead", "6-6 R") == [(3, 0), (8, 0)]
    assert st.counted() == (2, 15)


def test_s3_muggins_lone_double_lead_is_one_end_and_later_doubles_stay_inline():
    # No spinner: a 5-5 lead is one counted end worth 10; 0-5 on R leaves 10 + 0 = 10;
    # a later double never opens arms (the layout stays a line).
    st = deal(preset("muggins", players=2), ["5-5 0-0 1-2 1-3 1-4 1-6 2-3", "0-5 2-4 2-6 3-4 3-6 4-6 1-1"])
    assert play(st, "5-5 lead", "0-5 R", "0-0 R") == [(10, 0), (10, 0), (10, 0)]
    assert set(st.ends()) == {"L", "R"} and st.arms_used() == (False, False)


def test_s4_first_double_bonus_for_a_non_spinner_double():
    # Muggins with a bonus schedule: the first double earns the bonus although it is no spinner;
    # the second double earns none. Move 2 -> the pair [2, 7].
    st = deal(preset("muggins", players=2, first_double_bonus=[[1, 9], [2, 7], [None, 1]]),
              ["1-2 2-3 3-4 4-5 0-1 0-2 0-3", "2-2 1-1 4-6 3-6 5-6 1-6 0-6"])
    # 1-2 lead: S = 3. 2-2 on R: 1 + 4 = 5 -> 5 points and the bonus of move 2 (7). 2-3 on R: 1 + 3 = 4.
    # 1-1 on L: 2 + 3 = 5 -> 5 points, no bonus (not the first double).
    assert play(st, "1-2 lead", "2-2 R", "2-3 R", "1-1 L") == [(0, 0), (5, 7), (0, 0), (5, 0)]


def test_s4_first_double_bonus_beyond_the_schedule_is_zero():
    # The schedule [[1, 9]] covers move 1 only: a first double at move 2 earns nothing.
    st = deal(preset("threes", players=2, first_double_bonus=[[1, 9]]),
              ["1-2 2-3 3-4 4-5 0-1 0-2", "2-2 1-1 4-6 3-6 5-6 1-6"])
    assert play(st, "1-2 lead", "2-2 R") == [(0, 0), (0, 0)]


def test_s4_min_ends_and_zero_sum_never_score():
    # Threes needs 3 counted ends: a 6-point sum with two ends is nothing (seed move 3); with
    # min_ends = 2 it scores; S = 0 never scores.
    for me, want in ((3, 0), (2, 6)):
        st = deal(preset("threes", players=2, min_ends=me), ["0-3 0-0 1-2 1-4 1-5 2-4",
                                                                              "3-3 2-2 2-5 4-4 4-5 5-5"])
        # the inline double 3-3 on R: 0 + 3 = 3 -> 6 points only with 2 ends (bonus 2: move 2)
        assert play(st, "0-3 lead", "3-3 R")[1] == (want, 2)
    st = deal(preset("all-fives", players=2), ["0-0 0-1 1-2 1-3 1-4 1-5 1-6", "0-2 2-2 2-3 2-4 2-5 2-6 3-3"])
    assert play(st, "0-0 lead") == [(0, 0)]                       # S = 0: no points
    assert st.counted() == (1, 0)


# ---- section 3: arms open -----------------------------------------------------------------------
HANDS_ARMS = ["4-4 0-1 0-2 0-3 1-1 1-2 1-3", "4-6 2-4 3-4 5-6 2-2 2-3 3-3"]


def test_s3_arms_open_immediately_offers_arm_moves_at_once():
    st = deal(preset("all-fives", players=2, arms_open="immediately"), HANDS_ARMS)
    play(st, "4-4 lead")
    assert moves_of(st) == {(t, e) for t in ("2-4", "3-4", "4-6") for e in "LRUD"}
    assert play(st, "4-6 U") == [(0, 0)]     # lone spinner (8) + U 6 = 14
    assert st.counted() == (2, 14)


def test_s3_arms_open_after_both_sides_refuses_the_arm_move():
    st = deal(preset("all-fives", players=2), HANDS_ARMS)
    play(st, "4-4 lead")
    assert moves_of(st) == {(t, e) for t in ("2-4", "3-4", "4-6") for e in "LR"}
    with pytest.raises(ValueError, match="not a legal move"):
        st.play(parse_tile("4-6", 6), End.parse("U"))
    play(st, "4-6 L")                          # one main side covered: arms still closed
    assert set(st.ends()) == {"L", "R"}


def test_s3_arms_open_after_both_sides_opens_once_both_sides_are_covered():
    # Lead 4-4 (spinner), 4-6 on L, 2-4 on R: both main sides covered -> U and D accept tiles.
    st = deal(preset("all-fives", players=2), ["4-4 2-4 0-1 0-2 1-1 1-2 1-3", "4-6 3-4 5-6 2-2 2-3 3-3 0-3"])
    play(st, "4-4 lead", "4-6 L")
    assert all(e in "LR" for _, e in moves_of(st))
    play(st, "2-4 R")
    assert set(st.ends()) == {"L", "R", "U", "D"}
    assert ("3-4", "U") in moves_of(st) and ("3-4", "D") in moves_of(st)
    # ends 6, 2 and the empty arms (not counted): 3-4 on U leaves 6 + 2 + 3 = 11
    assert st.score_of(parse_tile("3-4", 6), End.parse("U")) == (0, 0)
    assert play(st, "3-4 U") == [(0, 0)] and st.counted() == (3, 11)


def test_s3_spinner_on_a_line_end_opens_after_its_outer_side_is_covered():
    # Lead 3-4; 4-4 on R becomes the spinner (first double) at the line end R, inner side covered.
    # after_both_sides: the arms open once a tile goes on its outer side (R).
    st = deal(preset("all-fives", players=2), ["3-4 4-6 0-1 0-2 1-1 1-2 1-3", "4-4 2-4 5-6 2-2 2-3 3-3 0-3"])
    play(st, "3-4 lead")
    assert play(st, "4-4 R") == [(0, 0)]        # 3 + 8 = 11
    assert st.counted() == (2, 11)
    assert set(st.ends()) == {"L", "R"}
    play(st, "4-6 R")                             # outer side covered
    assert set(st.ends()) == {"L", "R", "U", "D"} and st.ends()["U"] == 4
    assert ("2-4", "U") in moves_of(st)


def test_s3_spinner_on_a_line_end_immediately():
    st = deal(preset("threes", players=2), ["3-4 4-6 0-1 0-2 1-1 1-2", "4-4 2-4 5-6 2-2 2-3 3-3"])
    play(st, "3-4 lead", "4-4 R")
    assert set(st.ends()) == {"L", "R", "U", "D"}
    assert ("4-6", "U") in moves_of(st) and ("4-6", "R") in moves_of(st)


# ---- section 5: drawing, the reserve, draw = none -------------------------------------------------
def test_s5_boneyard_reserve_stops_the_draw():
    # Threes, 2 players, 2 tiles each: 24 in the boneyard, 22 reserved -> only 2 may be drawn.
    # Seat 0 leads 0-0; seat 1 (no 0) draws 1-1, 2-2 (no 0 either), then must pass with 0-1 next.
    st = deal(preset("threes", players=2, hand_size=2, boneyard_reserve=22), ["0-0 0-3", "4-5 5-6"],
              first=0, top=["1-1", "2-2", "0-1"])
    play(st, "0-0 lead")
    assert moves_of(st) == {("0-3", "L"), ("0-3", "R"), ("0-3", "U"), ("0-3", "D")}
    acts = st.actions
    assert acts[1:] == [{"seat": 1, "act": "draw", "tile": "1-1"}, {"seat": 1, "act": "draw", "tile": "2-2"},
                        {"seat": 1, "act": "pass"}]
    play(st, "0-3 L")
    rec = finish(st)
    assert rec["end"] == "domino"


def test_s5_draw_until_playable_stops_at_the_first_playable_tile():
    st = deal(preset("threes", players=2, hand_size=2), ["0-0 0-3", "4-5 5-6"], first=0,
              top=["1-1", "0-2", "0-1"])
    play(st, "0-0 lead")
    assert moves_of(st) == {("0-2", e) for e in "LRUD"}   # the drawn 0-2: the policy still chooses its end
    assert st.actions[1:] == [{"seat": 1, "act": "draw", "tile": "1-1"}, {"seat": 1, "act": "draw", "tile": "0-2"}]


def test_s5_draw_none_passes_at_once():
    st = deal(preset("threes", players=2, hand_size=2, draw="none"), ["0-0 0-3", "4-5 5-6"], first=0)
    play(st, "0-0 lead")
    moves_of(st)
    assert st.actions[1:] == [{"seat": 1, "act": "pass"}]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s5_fives_and_threes_never_draws(players):
    r = preset("fives-and-threes", players=players)
    for d in range(30):
        rec = trace(r, "random", 5, d)
        assert not any(a["act"] == "draw" for a in rec["actions"])
        assert check(rec) == []


# ---- section 6: who leads ---------------------------------------------------------------------------
def test_s6_lead_tile_holder_leads_it_else_the_lot():
    r = preset("fives", players=2)        # 14 tiles dealt: 5-5 is in the boneyard half the time
    held, lot_seats = 0, set()
    for d in range(80):
        rec = trace(r, "greedy", 9, d)
        assert check(rec, "greedy") == []
        holder = [s for s, h in enumerate(rec["hands"]) if "5-5" in h]
        first_play = rec["actions"][0]
        if holder:
            held += 1
            assert rec["first"] == holder[0] and first_play["tile"] == "5-5" and first_play["end"] == "lead"
        else:
            lot_seats.add(rec["first"])
    assert held > 10 and lot_seats == {0, 1}


def test_s6_lead_tile_override_with_fallback():
    r = preset("threes", players=3, lead="tile:0-0")     # 18 of 28 dealt
    fallback = 0
    for d in range(40):
        rec = trace(r, "random", 4, d)
        assert check(rec) == []
        fallback += not any("0-0" in h for h in rec["hands"])
    assert fallback > 0


def test_s6_the_holder_of_the_lead_tile_must_lead_even_when_first_is_another_seat():
    """docs/rules.md 6: 'the seat holding A-B must lead that tile'. A DealState given first = 0 while
    seat 1 holds 5-5 must not let seat 0 lead anything else (raise, or let the holder lead)."""
    r = preset("fives", players=2)
    hands = ["0-1 0-2 0-3 0-4 0-5 0-6 1-1", "5-5 1-2 1-3 1-4 1-5 1-6 2-2"]
    try:
        st = deal(r, hands, first=0)
    except ValueError:
        return
    moves = moves_of(st)
    assert moves == {("5-5", "lead")} and st.turn == 1, (
        f"seat {st.turn} may lead {sorted(moves)[:4]}... although seat 1 holds 5-5")


# ---- sections 1 and 11: bigger sets run and replay clean --------------------------------------------
@pytest.mark.parametrize("max_pip,hand", [(9, {2: 12, 3: 10, 4: 9}), (12, {2: 20, 3: 15, 4: 12})])
@pytest.mark.parametrize("name", ["threes", "fives", "all-fives", "muggins", "fives-and-threes"])
def test_s1_double_nine_and_twelve_deals_replay_clean(name, max_pip, hand):
    lead = {"lead": "tile:9-9"} if name == "fives" else {}
    for players in (2, 4):
        r = preset(name, players=players, max_pip=max_pip, hand_size=hand, **lead)
        for d in range(4):
            rec = trace(r, "greedy", 2, d)
            assert all(len(h) == hand[players] for h in rec["hands"])
            assert check(rec, "greedy") == [], (players, d)
            replay_record(rec)


# ---- section 7: ranking, ties share the win -----------------------------------------------------------
def test_s7_ties_on_top_total_share_the_win():
    r = preset("threes", players=3)
    b = simulate_deals(r, "greedy", 1, 0, 1)
    pts = np.array([[6, 6, 0], [12, 0, 0], [0, 0, 0], [3, 9, 9]], dtype=np.int32)
    seat, deal = output_blocks(4, 3)
    fake = batch_of(r, b.policies, 1, 0, seat, deal)
    fake.seats["points"][:] = pts
    np.testing.assert_allclose(fake.win(), [[.5, .5, 0], [1, 0, 0], [1 / 3, 1 / 3, 1 / 3], [0, .5, .5]])


def test_s7_win_on_a_real_batch():
    b = simulate_deals(preset("threes", players=4), "random", 3, 0, 2000)
    w, pts = b.win(), b.column("points")
    np.testing.assert_allclose(w.sum(axis=1), 1.0)
    top = pts == pts.max(axis=1, keepdims=True)
    assert (top.sum(axis=1) > 1).any(), "some deals should tie"
    np.testing.assert_allclose(w, top / top.sum(axis=1, keepdims=True))

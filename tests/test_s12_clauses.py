"""docs/rules.md section 12, clause by clause, on scripted deals: exact hands, a match position (the sides'
scores before the deal) and the moves, stepped through the engine (MatchDeal, MatchState: the
kernel's own credit, end and next-lead functions). Each expected number is worked out in the test
from the clause. The match loop itself (run_matches) is checked over many matches in test_matches.py."""
import pytest

from simdom.engine.codes import DealEnd, End
from simdom.engine.matches import MatchDeal, MatchState
from simdom.rules import preset
from simdom.tiles import n_tiles, parse_tile, tile_name


def deal(rules, hands, first=0, lead=None, boneyard=None):
    """A deal of ``rules`` with the given hands; the boneyard is the rest of the set in index order."""
    mp = rules.max_pip
    hs = [[parse_tile(t, mp) for t in h] for h in hands]
    used = {t for h in hs for t in h}
    bone = [parse_tile(t, mp) for t in boneyard] if boneyard is not None else \
        [t for t in range(n_tiles(mp)) if t not in used]
    return MatchDeal(rules, hs, bone, first, lead)


def step(ms, st, move):
    tile, end = move.split()
    return ms.play(st, parse_tile(tile, st.rules.max_pip), End.parse(end))


# Fives, 2 players (docs/rules.md 10): 5-5 leads (10), 0-5 on L (10: the spinner still counts 10), 0-0 on
# L (10: an inline double counts both halves, 0), 3-5 on R (0 + 3 = 3: nothing), 0-2 on L (2 + 3 = 5).
FIVES_HANDS = [["5-5", "0-0", "0-2", "1-1", "1-2", "1-3", "1-4"],
               ["0-5", "3-5", "2-2", "2-3", "2-4", "3-3", "3-4"]]
FIVES_MOVES = ["5-5 lead", "0-5 L", "0-0 L", "3-5 R", "0-2 L"]
FIVES_POINTS = [10, 10, 10, 0, 5]


def test_s12_exact_overshoot_credits_nothing_while_next_placement_fits():
    """exact, T = 30, side 0 at 15: the lead's 10 fits (25); 0-0's 10 would pass 30, so none of it is
    credited though the placement stands; 0-2's 5 then fits and makes exactly 30: the match is won
    and the deal stops there."""
    rules = preset("fives", players=2, target=30, match_end="exact")
    ms = MatchState(rules, scores=[15, 0])
    st = deal(rules, FIVES_HANDS)
    ms.begin_deal()
    seen = []
    for move, want in zip(FIVES_MOVES, FIVES_POINTS):
        pts, bonus, _, _, won = step(ms, st, move)
        assert pts + bonus == want, move          # the deal's points are the deal rules'
        seen.append((list(ms.scores), won))
    assert seen == [([25, 0], False), ([25, 10], False), ([25, 10], False), ([25, 10], False), ([30, 10], True)]
    assert st.ended == DealEnd.TARGET and ms.winner == 0 and ms.over
    rec = st.record()
    assert rec["end"] == "target" and rec["end_bonus"] == [0, 0]
    assert rec["totals"] == [25, 10]              # the deal's points: 10 + 10 + 5 and 10 + 0
    assert ms.match_object(0) == {"id": 0, "hand": 0, "sides": [[0], [1]], "before": [15, 0],
                                  "credited": [15, 10], "after": [30, 10], "over": True, "winner": 0}


def test_s12_exact_an_end_bonus_that_would_pass_the_target_is_not_credited():
    """exact: the end bonus is one credit, all or nothing. All Fives, hand size 2: seat 0 goes out
    and earns 10 (seat 1's 6-6, rounded to 5); at 15 of T = 20 that would pass the target."""
    rules = preset("all-fives", players=2, hand_size=2, target=20, match_end="exact")
    ms = MatchState(rules, scores=[5, 0])
    st = deal(rules, [["5-5", "1-5"], ["0-5", "6-6"]])
    ms.begin_deal()
    for move in ["5-5 lead", "0-5 L", "1-5 R"]:
        step(ms, st, move)
    assert ms.end_deal(st)
    rec = st.record()
    assert rec["end"] == "domino" and rec["end_bonus"] == [10, 0] and rec["totals"] == [20, 10]
    assert ms.scores == [15, 10] and ms.credited == [10, 10] and ms.winner is None and not ms.over


def test_s12_immediate_placement_win_stops_the_deal():
    """immediate, T = 30, side 0 at 15: 0-0 on L takes it to 35 >= 30: the match is won at once, the
    deal stops (no further action, no end bonus, end "target") and everything is credited."""
    rules = preset("fives", players=2, target=30, match_end="immediate")
    ms = MatchState(rules, scores=[15, 0])
    st = deal(rules, FIVES_HANDS)
    ms.begin_deal()
    wins = [step(ms, st, m)[4] for m in FIVES_MOVES[:3]]
    assert wins == [False, False, True]
    assert st.ended == DealEnd.TARGET and st.advance() == []     # nobody acts after it
    with pytest.raises(ValueError, match="not a legal move"):
        step(ms, st, FIVES_MOVES[3])
    assert ms.end_deal(st)                                  # nothing more to credit
    rec = st.record()
    assert [a["tile"] for a in rec["actions"]] == ["5-5", "0-5", "0-0"]
    assert rec["end"] == "target" and rec["end_bonus"] == [0, 0] and rec["totals"] == [20, 10]
    assert ms.scores == [35, 10] and ms.winner == 0


def test_s12_immediate_placement_win_that_empties_the_hand_earns_no_end_bonus():
    """A placement that wins the match and also empties the hand: the deal stops at the placement
    (end "target"), with no end bonus (section 7 would have given seat 0 seat 1's 15 pips)."""
    rules = preset("all-fives", players=2, hand_size=2, draw="none", target=20, match_end="immediate")
    ms = MatchState(rules, scores=[5, 0])
    st = deal(rules, [["5-5", "0-5"], ["1-2", "6-6"]])
    ms.begin_deal()
    assert step(ms, st, "5-5 lead")[4] is False          # 10: 15
    pts, _, _, _, won = step(ms, st, "0-5 L")            # seat 1 passed; L 0 + the spinner's 10: 25
    assert (pts, won) == (10, True) and st.hand(0) == []
    assert ms.end_deal(st)
    rec = st.record()
    assert [a["act"] for a in rec["actions"]] == ["play", "pass", "play"]
    assert rec["end"] == "target" and rec["end_bonus"] == [0, 0] and rec["totals"] == [20, 0]
    assert ms.scores == [25, 0] and ms.winner == 0 and st.hand_winner is None


def test_s12_match_won_by_the_end_bonus():
    """immediate, T = 20: seat 0 scores 10 with the lead, goes out with 1-5 (nothing), and the end
    bonus (seat 1's 6-6 = 12, rounded to 10) takes it to 20: the deal ends as in section 7."""
    rules = preset("all-fives", players=2, hand_size=2, target=20, match_end="immediate")
    ms = MatchState(rules)
    st = deal(rules, [["5-5", "1-5"], ["0-5", "6-6"]])
    ms.begin_deal()
    assert [step(ms, st, m)[4] for m in ["5-5 lead", "0-5 L", "1-5 R"]] == [False, False, False]
    assert ms.scores == [10, 10] and ms.winner is None
    assert ms.end_deal(st)
    rec = st.record()
    assert rec["end"] == "domino" and rec["end_bonus"] == [10, 0] and rec["totals"] == [20, 10]
    assert ms.match_object(0)["winner"] == 0 and ms.scores == [20, 10]


@pytest.mark.parametrize("teams,bonus", [("partners", [20, 0, 0, 0]), ("none", [30, 0, 0, 0])])
def test_s12_partners_end_bonus_domino(teams, bonus):
    """Hand size 1: seat 0 goes out with its lead. opponents_pips with partners is the other side's two
    hands (seats 1 and 3: 12 + 8 = 20); without teams, every opponent's (12 + 10 + 8 = 30)."""
    rules = preset("all-fives", players=4, hand_size=1, target=500, teams=teams)
    ms = MatchState(rules)
    st = deal(rules, [["0-1"], ["6-6"], ["5-5"], ["4-4"]])
    ms.begin_deal()
    step(ms, st, "0-1 lead")
    assert ms.end_deal(st)
    assert st.record()["end_bonus"] == bonus
    assert ms.credited == ([20, 0] if teams == "partners" else [30, 0, 0, 0])


BLOCK_HANDS = [["0-0", "6-6"], ["3-3", "4-4"], ["1-1", "1-2"], ["5-5", "5-6"]]


@pytest.mark.parametrize("block_bonus,points", [("opponents_pips", 35), ("opponents_minus_own", 20)])
def test_s12_partners_end_bonus_blocked(block_bonus, points):
    """draw none: 0-0 leads and nobody can follow: blocked. Sides' pips: 0+2 = 12 + 5 = 17, 1+3 =
    14 + 21 = 35: side 0 wins; its seat with fewer pips is seat 2 (5 < 12), which gets the bonus:
    opponents_pips 35, opponents_minus_own 35 - 17 = 18 -> 20 (rounded to 5)."""
    rules = preset("all-fives", players=4, hand_size=2, draw="none", block_bonus=block_bonus, target=500,
                   teams="partners")
    ms = MatchState(rules)
    st = deal(rules, BLOCK_HANDS)
    ms.begin_deal()
    step(ms, st, "0-0 lead")
    assert ms.end_deal(st)
    rec = st.record()
    assert rec["end"] == "blocked" and [a["act"] for a in rec["actions"]] == ["play"] + ["pass"] * 4
    assert rec["end_bonus"] == [0, 0, points, 0]
    assert ms.credited == [points, 0] and st.hand_winner == 2


def test_s12_partners_blocked_tie_on_the_winning_side_goes_to_the_lower_seat_and_a_side_tie_to_nobody():
    rules = preset("all-fives", players=4, hand_size=2, draw="none", target=500, teams="partners")
    # seats 0 and 2 both hold 6 pips after the lead: the bonus is written on seat 0
    st = deal(rules, [["0-0", "2-4"], ["3-3", "4-4"], ["1-1", "2-2"], ["5-5", "5-6"]])
    ms = MatchState(rules)
    ms.begin_deal()
    step(ms, st, "0-0 lead")
    ms.end_deal(st)
    assert st.record()["end_bonus"] == [35, 0, 0, 0]
    # sides tied on pips (12 + 6 = 18 against 9 + 9 = 18): no winner, no bonus
    st = deal(rules, [["0-0", "6-6"], ["1-2", "2-4"], ["1-1", "2-2"], ["1-3", "1-4"]])
    ms = MatchState(rules)
    ms.begin_deal()
    step(ms, st, "0-0 lead")
    ms.end_deal(st)
    assert st.record()["end_bonus"] == [0, 0, 0, 0] and st.hand_winner is None and ms.credited == [0, 0]


def test_s12_deal_end_credits_after_the_deal_and_a_tie_for_highest_plays_on():
    """deal_end, T = 20: nothing is credited during the deal; after it, both sides reach 20: a tie for
    the highest score, so the match goes on (the next deal decides)."""
    rules = preset("all-fives", players=2, hand_size=2, target=20)
    ms = MatchState(rules)
    st = deal(rules, [["5-5", "1-5"], ["0-5", "6-6"]])
    ms.begin_deal()
    for m in ["5-5 lead", "0-5 L"]:
        step(ms, st, m)
        assert ms.scores == [0, 0]
    step(ms, st, "1-5 R")
    assert ms.end_deal(st)
    assert ms.scores == [20, 10] and ms.winner == 0             # 10 + end bonus 10 against 10
    ms = MatchState(rules, scores=[0, 10])
    st = deal(rules, [["5-5", "1-5"], ["0-5", "6-6"]])
    ms.begin_deal()
    for m in ["5-5 lead", "0-5 L", "1-5 R"]:
        step(ms, st, m)
    ms.end_deal(st)
    assert ms.scores == [20, 20] and ms.winner is None and not ms.over


@pytest.mark.parametrize("next_lead", ["rules", "hand_winner", "rotate"])
def test_s12_next_lead_after_a_domino_and_after_a_block(next_lead):
    """rules: the rules' lead (None); hand_winner: the seat that dominoed, after a block the rules'
    lead; rotate: the seat after this deal's leader."""
    rules = preset("all-fives", players=4, hand_size=1, draw="none", target=500, next_lead=next_lead)
    ms = MatchState(rules)
    st = deal(rules, [["6-6"], ["0-1"], ["2-2"], ["3-3"]], first=1)
    ms.begin_deal()
    step(ms, st, "0-1 lead")                       # seat 1 goes out
    ms.end_deal(st)
    want = {"rules": None, "hand_winner": 1, "rotate": 2}[next_lead]
    assert ms.next_leader(st) == want
    rules2 = preset("all-fives", players=4, hand_size=2, draw="none", target=500, next_lead=next_lead)
    ms = MatchState(rules2)
    st = deal(rules2, BLOCK_HANDS, first=0)
    ms.begin_deal()
    step(ms, st, "0-0 lead")
    ms.end_deal(st)
    assert st.ended == DealEnd.BLOCKED
    assert ms.next_leader(st) == {"rules": None, "hand_winner": None, "rotate": 1}[next_lead]


def test_s12_a_chosen_leader_leads_any_tile_even_under_lead_tile():
    """Fives leads with 5-5; a seat chosen by next_lead leads any tile, even when another seat holds 5-5
    (and a deal with the rules' lead refuses a first seat that does not hold it)."""
    rules = preset("fives", players=2, target=100, next_lead="hand_winner")
    st = deal(rules, list(reversed(FIVES_HANDS)), first=0, lead=0)     # seat 1 holds 5-5
    assert [tile_name(t, 6) for t, _ in st.advance()] == sorted(FIVES_HANDS[1], key=lambda x: parse_tile(x, 6))
    with pytest.raises(ValueError, match="5-5"):
        deal(rules, list(reversed(FIVES_HANDS)), first=0)


def test_s12_match_state_refuses_bad_positions_and_single_deal_rules():
    with pytest.raises(ValueError, match="target"):
        MatchState(preset("fives", players=2))
    with pytest.raises(ValueError, match="one per side"):
        MatchState(preset("fives", players=4, target=100, teams="partners"), scores=[1, 2, 3, 4])

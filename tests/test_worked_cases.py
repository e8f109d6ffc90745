"""Every worked case of docs/RULES.md section 6 (trump hearts throughout), set up as arrangements."""

import pytest

from sixtysix_env import CLOSE, EXCHANGE, GO_OUT, PASS, Deal, Decision, Termination, get_rules, parse_card, parse_cards
from sixtysix_env.cards import mask_of, mask_points

from .conftest import arrange


def card_set(text: str) -> set[int]:
    return set(parse_cards(text))


# ---------------------------------------------------------------- tricks, phase 1
@pytest.mark.parametrize(
    ("lead", "follow", "winner", "points"),
    [
        ("TS", "AS", "follower", 21),
        ("AS", "9H", "follower", 11),
        ("9S", "AC", "leader", 11),
        ("JH", "QH", "follower", 5),
    ],
)
def test_phase_one_tricks(lead, follow, winner, points):
    # player 1 (non-dealer) leads; fillers are diamonds that play no part
    deal = arrange(
        f"{follow} 9D JD QD KD TD", f"{lead} AD 9C JC QC KC", trump="KH" if "KH" not in lead + follow else "AH"
    )
    deal.apply(parse_card(lead))
    assert deal.decision == Decision.FOLLOW
    assert deal.legal_mask() & mask_of(range(24)) == deal.hands[0], "phase 1: any card may be played"
    deal.apply(parse_card(follow))
    w = 0 if winner == "follower" else 1
    assert deal.tricks[w] == 1 and deal.points[w] == points and deal.points[1 - w] == 0
    assert deal.current_player == w


# ---------------------------------------------------------------- phase 2 obligations
def test_phase_two_must_win_with_a_higher_card_of_the_suit():
    deal = arrange("AS 9S TH AC 9D JD", "KS QD KD TD AD 9C", trump="AH")
    deal.apply(CLOSE)
    deal.apply(parse_card("KS"))
    assert set(deal.legal_actions()) == {parse_card("AS")}


def test_phase_two_follow_suit_lower_when_unable_to_win():
    deal = arrange("QS 9S TH 9D JD QD", "KS TD KD AD 9C JC", trump="AH")
    deal.apply(CLOSE)
    deal.apply(parse_card("KS"))
    assert set(deal.legal_actions()) == card_set("QS 9S")


def test_phase_two_void_in_suit_must_trump():
    deal = arrange("9H TH AC 9D JD QD", "KS TD KD AD 9C JC", trump="AH")
    deal.apply(CLOSE)
    assert deal.decision == Decision.CLOSING_EXCHANGE  # player 0 holds the trump nine
    deal.apply(PASS)
    deal.apply(parse_card("KS"))
    assert set(deal.legal_actions()) == card_set("9H TH")


def test_phase_two_void_in_suit_and_trumps_plays_anything():
    deal = arrange("AC TD 9D JD QD KD", "KS AD 9C JC QC KC", trump="AH")
    deal.apply(CLOSE)
    deal.apply(parse_card("KS"))
    assert set(deal.legal_actions()) == card_set("AC TD 9D JD QD KD")


def test_phase_two_trump_lead_must_be_overtrumped():
    deal = arrange("KH 9H AS 9D JD QD", "QH KD AD 9C JC QC", trump="AH")
    deal.apply(CLOSE)
    deal.apply(PASS)  # player 0 keeps the nine
    deal.apply(parse_card("QH"))
    assert set(deal.legal_actions()) == {parse_card("KH")}


def test_presets_without_must_win_only_follow_suit():
    deal = arrange("AS 9S TH AC 9D JD", "KS QD KD TD AD 9C", trump="AH", rules="russian")
    deal.apply(CLOSE)
    deal.apply(parse_card("KS"))
    assert set(deal.legal_actions()) == card_set("AS 9S")


# ---------------------------------------------------------------- scoring (positions found by random play)
SCORING = {
    "out_loser_40_in_3_tricks": (
        "standard; dealer=0; hands=AD QD TH TC QH KS | 9C TD TS JH JD KD; "
        "stock=QS AH AS JS 9D QC KH AC 9S KC JC 9H; played=9C TC P M1 QS AH P AS QH P QD JH P TS AC P TD TH P KC QC"
    ),
    "out_loser_32": (
        "standard; dealer=0; hands=KS TC QD 9H JC QH | 9C AC TH QS AS 9D; stock=TS JS JD TD 9S KH KD JH AD QC KC AH; "
        "played=AS KS P AC QH P JS TD P 9H TS P KD QS P TC JH P QC JC TH AH JD 9D"
    ),
    "out_loser_no_trick_but_declared": (
        "standard; dealer=0; hands=QS JH KH KD QD 9D | KC QC TC 9C TS KS; stock=AC JC AD JD TD JS 9S QH AH TH AS 9H; "
        "played=M0 QC KH P M3 KD TS P AC TC P AD JC"
    ),
    "closer_70_opponent_20": (
        "standard; dealer=0; hands=9C AD JS AH QS KD | 9D TH QH AS QC KS; stock=QD AC KC TC 9S JH TS JD JC KH TD 9H; "
        "played=QC QS P QD AD P JS TC C KD 9D KC TH QH AH 9C KS AC AS"
    ),
    "closer_fails_opponent_had_trick": (
        "standard; dealer=0; hands=AD TH KS JH AS QH | AH 9D KH QD JD KD; stock=9C AC JS TS JC 9S TC KC TD QC QS 9H; "
        "played=AH AD P JD QH C KS KH QD TH JH 9C AC KD AS 9D"
    ),
    "closer_fails_opponent_had_no_trick": (
        "standard; dealer=0; hands=QH JC AS TD AH KC | TS AD 9H JD KS 9C; stock=KH QS AC JS KD TC 9D QD JH QC 9S TH; "
        "played=KS QH C X JC 9C AH TH AS TS TD AD JD KC"
    ),
    "played_out_65_65": (
        "standard; dealer=0; hands=QH AH AD KH AS AC | 9C 9H QS KC 9S QC; stock=TD JC JD JS KD 9D TC TH TS QD KS JH; "
        "played=KC AC P QH JC P AH QC P KD JS P TC 9H P 9C KH P TD 9D JD TH JH AD 9S AS KS TS QS QD"
    ),
}


def test_went_out_loser_with_40_in_3_tricks_scores_1():
    d = Deal.from_notation(SCORING["out_loser_40_in_3_tricks"])
    assert d.outcome is not None and d.outcome.termination == Termination.WENT_OUT
    assert d.points[0] >= 66 and (d.points[1], d.tricks[1]) == (40, 3)
    assert (d.outcome.winner, d.outcome.game_points) == (0, 1)


def test_went_out_loser_under_33_scores_2():
    d = Deal.from_notation(SCORING["out_loser_32"])
    assert d.points[1] == 32 and d.tricks[1] > 0
    assert (d.outcome.winner, d.outcome.game_points) == (0, 2)


def test_went_out_loser_without_trick_scores_3_even_with_a_declared_marriage():
    d = Deal.from_notation(SCORING["out_loser_no_trick_but_declared"])
    assert d.tricks[1] == 0 and d.marriages[1] and d.pending[1] == 20 and d.points[1] == 0
    assert (d.outcome.winner, d.outcome.game_points) == (0, 3)


def test_closer_goes_out_with_70_opponent_20_scores_2():
    d = Deal.from_notation(SCORING["closer_70_opponent_20"])
    assert d.closed_by == 0 and d.points == [70, 20]
    assert (d.outcome.winner, d.outcome.game_points, d.outcome.termination) == (0, 2, Termination.WENT_OUT)


def test_closer_fails_opponent_scores_2_or_3():
    d = Deal.from_notation(SCORING["closer_fails_opponent_had_trick"])
    assert d.closed_by == 0 and d.closed_opp_tricks > 0
    assert (d.outcome.winner, d.outcome.game_points, d.outcome.termination) == (1, 2, Termination.CLOSER_FAILED)
    d = Deal.from_notation(SCORING["closer_fails_opponent_had_no_trick"])
    assert d.closed_by == 0 and d.closed_opp_tricks == 0
    assert (d.outcome.winner, d.outcome.game_points, d.outcome.termination) == (1, 3, Termination.CLOSER_FAILED)


def test_played_out_65_65_is_a_draw():
    d = Deal.from_notation(SCORING["played_out_65_65"])
    assert d.points == [65, 65] and d.closed_by < 0 and not d.stock
    assert (d.outcome.winner, d.outcome.game_points, d.outcome.termination) == (-1, 0, Termination.DRAWN)
    assert d.returns() == (0, 0)


# ---------------------------------------------------------------- marriages and closing before drawing
def test_marriage_points_count_only_after_a_won_trick():
    # B = player 1 (non-dealer) declares 40 in trumps on the first lead and loses the trick.
    deal = arrange("AH 9C 9S JS QS KS", "KH QH JC AD TD KD", trump="TH")
    deal.apply_all("M2 QH AH")
    assert deal.tricks[1] == 0 and deal.points[1] == 0 and deal.pending[1] == 40
    assert deal.known[1] == mask_of(parse_cards("KH")), "the partner card stays public while held"
    deal.apply_all("P 9C JC")  # A leads the club nine, B wins with the jack: 2 points
    assert deal.points[1] == 42 and deal.pending[1] == 0


def test_close_before_drawing_after_the_third_trick():
    # Player 1 leads three aces and wins; player 0 holds the trump nine and no trick.
    # Explicit claiming, and nobody claims, so the deal is played to its last trick.
    deal = arrange("9H 9C 9S 9D JC JS", "AC AS AD TC TS TD", trump="AH", rules=get_rules().replace(claiming="explicit"))
    deal.apply_all("AC 9C P AS 9S P AD 9D")
    assert deal.decision == Decision.DRAW and len(deal.stock) == 8
    assert set(deal.legal_actions()) == {CLOSE, PASS, GO_OUT}
    deal.apply(CLOSE)
    assert deal.hands[0].bit_count() == deal.hands[1].bit_count() == 3 + 2 and len(deal.stock) == 8
    assert deal.decision == Decision.CLOSING_EXCHANGE and deal.current_player == 0
    assert set(deal.legal_actions()) == {EXCHANGE, PASS}
    deal.apply(EXCHANGE)
    assert deal.hands[0] >> parse_card("AH") & 1 and deal.stock[0] == parse_card("9H")
    assert deal.current_player == 1 and deal.decision == Decision.LEAD
    while deal.outcome is None:  # play out the 5 remaining tricks: no last-trick bonus after closing
        deal.apply(min(deal.legal_actions()))  # a card, or PASS rather than GO_OUT
    assert deal.trick_count == 8 and not (deal.hands[0] | deal.hands[1])
    assert sum(deal.points) == mask_points(deal.won_cards[0] | deal.won_cards[1])
    assert (deal.outcome.winner, deal.outcome.game_points) == (0, 3), "the opponent had no trick at closing"
    assert deal.outcome.termination == Termination.CLOSER_FAILED

"""The Russian four-player game (docs/RULES.md 5.3) by fixed arrangements: one worked case per part,
won and lost, and one test per rules field that fails when the engine ignores the field.

Hands are in the order dealt (the first 3 cards are the first packet); the dealer is 0, so
player 1 names trump, is asked first in every round and leads the normal game. Teams: 0 and 2
against 1 and 3.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sixtysix_env.envs import sixtysix_four_v0
from sixtysix_env.table import FOUR_PRESETS, FourDeal, TableDecision, TableMatch, TableTermination, TableView
from sixtysix_env.table.actions import (
    ASK_NINE,
    ASK_TRUMPS,
    BID,
    MARRIAGE_NO_LEAD,
    PASS,
    REDEAL,
    THREE_NINES,
    parse_table_action,
    table_action_str,
)
from sixtysix_env.table.deal import TableIllegalActionError
from sixtysix_env.table.four import has_beatable_card, pair_lacks_trumps
from sixtysix_env.table.observers import encode_table_vector, table_layout

R = FOUR_PRESETS["russian"]
FIVE, SIX, FUR, SUIT = (BID + k for k in range(4))


def deal(hands, rules=R, **kw) -> FourDeal:
    return FourDeal.from_arrangement(hands, 0, rules, **kw)


def legal(d) -> set[int]:
    return set(d.legal_actions())


def card(text: str) -> int:
    return parse_table_action(text)


def pass_round(d, n: int = 4) -> None:
    for _ in range(n):
        assert PASS in legal(d)
        d.apply(PASS)


# ---------------------------------------------------------------------- 1. the cut
PLAIN = ("AC TC KC AS TS KS", "QC JC 9C QS JS 9S", "AH TH KH AD TD KD", "QH JH 9H QD JD 9D")


def test_three_nines_on_the_cut_score_a_point_for_the_dealing_team_and_no_card_is_played():
    for dealer in range(4):
        d = FourDeal.from_arrangement(PLAIN, dealer, R, cuts="9C 9S 9H")
        assert d.outcome.termination == TableTermination.CUT and d.current_player == -1
        team = dealer % 2
        assert d.outcome.winner == team and d.outcome.scored[team] == 1 and d.outcome.scored[1 - team] == 0
    two = deal(PLAIN, cuts="9C 9S")  # two nines: cut again, and the deal is played
    assert two.outcome is None and two.decision == TableDecision.TRUMP and two.cuts == (0, 6)


def test_the_cut_is_a_chance_event_the_bottom_card_is_never_a_nine():
    rng = random.Random(5)
    decided = 0
    for k in range(4000):
        d = FourDeal.new(R, rng, dealer=k % 4)
        if d.outcome is not None:
            decided += 1
            assert len(d.cuts) == 3 and all(c % 6 == 0 for c in d.cuts)
        else:
            assert d.dealt[d.dealer][5] % 6 != 0, "the deal is dealt as the last cut lies"
    assert 4 <= decided <= 45  # 4000 / 216 = 18.5 expected


def test_a_match_scores_the_cut_and_passes_the_deal_on():
    for seed in range(400):
        m = TableMatch(FourDeal, R, random.Random(seed), first_dealer=0)
        if m.cut_deals:
            break
    else:
        raise AssertionError("no cut decided a deal in 400 matches")
    decided = len(m.cut_deals)
    assert sum(m.scores) == decided and m.scores[0] == sum(1 for k in range(decided) if k % 2 == 0)
    assert m.deal.outcome is None and m.deal.dealer == decided % 4


# ---------------------------------------------------------------------- 2. trump
def test_trump_named_from_the_first_packet_or_the_last_card_turned():
    d = deal(PLAIN)
    assert d.current == 1 and TableView.of(d, 1).hand.bit_count() == 3
    d.apply(card("=H"))
    assert d.trump == 2 and d.trump_card == -1 and d.decision == TableDecision.REDEAL
    d = deal(PLAIN).apply_all("=?")
    assert d.trump_card == card("9S") and d.trump == 1 and d.known[1] == 1 << card("9S")


# ---------------------------------------------------------------------- 3. redeals
def test_redeal_a_hand_under_13_points():
    hands = ("AC TC KC AS TS KS", "9C JC QC 9S JS QS", "9H JH QH KH TH AH", "9D JD QD KD TD AD")
    d = deal(hands).apply_all("=D")  # player 1: 10 card points
    assert legal(d) == {PASS, REDEAL, ASK_TRUMPS}
    d.apply(PASS)
    assert legal(d) == {PASS, ASK_TRUMPS}  # player 2: 30 points, no trump: he may only ask
    d = deal(hands).apply_all("=D R")
    assert d.outcome.termination == TableTermination.REDEAL and d.outcome.payoffs == (0, 0, 0, 0)
    assert d.outcome.scored == (0, 0)


def test_redeal_four_nines():
    hands = ("JC QC KC TC JS QS", "9C 9S 9H 9D AC AS", "KS TS JH QH KH TH", "AH JD QD KD TD AD")
    d = deal(hands).apply_all("=D")
    assert REDEAL in legal(d)  # 22 card points, but four nines
    three = ("JC QC KC TC JS QS", "9C 9S 9H JD AC AS", "KS TS JH QH KH TH", "AH 9D QD KD TD AD")
    assert legal(deal(three).apply_all("=D")) == {PASS, ASK_TRUMPS}  # three nines are no reason


SPLIT = ("QH KH TH 9C 9S 9D", "9H AC TC KC QC JC", "AH AD TD KD QD JD", "JH AS TS KS QS JS")


def test_redeal_trump_nine_and_jack_split_between_partners_after_the_question():
    d = deal(SPLIT).apply_all("=H")
    assert legal(d) == {PASS, ASK_TRUMPS}  # 30 points, one trump: he may only ask
    d.apply(ASK_TRUMPS)
    assert d.pair_answer == [-1, 1] and legal(d) == {PASS, REDEAL}
    # the answer reaches both partners and nobody else
    assert TableView.of(d, 3).pair_answer == 1 and TableView.of(d, 1).pair_answer == 1
    assert TableView.of(d, 0).pair_answer == -1 and TableView.of(d, 2).pair_answer == -1
    assert TableView.of(d, 0).trumps_asked == (False, True)
    d.apply_all("P P")  # players 1, 2 play on; player 3 may still demand it
    assert d.current == 3 and REDEAL in legal(d) and ASK_TRUMPS not in legal(d)
    d.apply(REDEAL)
    assert d.outcome.termination == TableTermination.REDEAL


def test_redeal_pair_with_one_trump_and_not_with_three():
    one = ("QH KH TH 9C 9S 9D", "9H AC TC KC QC JC", "AH JH AD TD KD QD", "JD AS TS KS QS JS")
    d = deal(one).apply_all("=H AT")
    assert d.pair_answer[1] == 1 and REDEAL in legal(d)
    three = ("KH 9D TH 9C 9S KD", "9H AC TC KC QC JC", "AH AD TD JS QD JD", "JH QH AS TS KS QS")
    d = deal(three).apply_all("=H AT")
    assert d.pair_answer[1] == 0 and legal(d) == {PASS}  # 9H with the partner's JH QH
    assert pair_lacks_trumps(0, 0, 0) and pair_lacks_trumps(1 << card("9H"), 1 << card("JH"), 2)
    assert not pair_lacks_trumps((1 << card("9H")) | (1 << card("JH")), 0, 2)  # both in one hand


def test_a_redeal_is_dealt_by_the_same_dealer():
    for seed in range(200):
        m = TableMatch(FourDeal, R, random.Random(seed), first_dealer=2)
        d = m.deal
        d.apply(card("=C"))
        while d.decision == TableDecision.REDEAL and REDEAL not in legal(d):
            d.apply(PASS)
        if d.decision == TableDecision.REDEAL:
            m.apply(REDEAL)
            assert m.scores == [0, 0] and m.next_deal().dealer == 2
            return
    raise AssertionError("no redeal offered in 200 deals")


# ---------------------------------------------------------------------- 4. three nines
NINES3 = ("9D JD QD KD TD AD", "9C 9S 9H AC AS AH", "TC KC QC TS KS QS", "JC JS TH KH QH JH")


def nines_declared(hands=NINES3, rules=R, **kw) -> FourDeal:
    d = deal(hands, rules, **kw).apply_all("=D")
    pass_round(d)  # nobody demands a redeal
    assert THREE_NINES in legal(d) and d.current == 1
    d.apply(THREE_NINES)
    return d


def test_three_nines_declarer_wins_when_no_committed_card_has_the_suit_of_the_nine_left():
    d = nines_declared()
    assert d.known[1] == sum(1 << card(c) for c in ("9C", "9S", "9H"))
    assert d.decision == TableDecision.COMMIT and d.current == 2  # clockwise from the declarer
    assert legal(d) == {card(c) for c in NINES3[2].split()}  # clubs and spades: all of his cards
    d.apply(card("TC"))
    # player 0 holds only diamonds: he commits nothing, and the declarer leaves a nine
    assert d.decision == TableDecision.LEAVE_NINE and d.current == 1
    assert legal(d) == {card("9C"), card("9S"), card("9H")}
    assert TableView.of(d, 1).committed[2] == -2 and TableView.of(d, 2).committed[2] == card("TC")
    d.apply(card("9S"))
    assert d.deal_scored == [0, 3]
    assert TableView.of(d, 1).committed[2] == -2, "a committed card that did not match stays hidden"
    assert d.decision == TableDecision.BID and d.current == 1 and THREE_NINES not in legal(d)
    pass_round(d)
    assert d.decision == TableDecision.LEAD and d.current == 1  # the normal game
    while d.outcome is None:
        d.apply(min(legal(d)))
    out = d.outcome
    assert out.scored[1] == 3 + (out.game_points if out.winner == 1 else 0)
    assert out.payoffs[1] == out.scored[1] - out.scored[0]


def test_three_nines_opponents_win_when_a_committed_card_has_the_suit_of_the_nine_left():
    d = nines_declared()
    d.apply(card("TC"))
    d.apply(card("9C"))
    assert d.deal_scored == [3, 0]
    assert d.known[2] >> card("TC") & 1, "the matching committed card is shown"
    assert TableView.of(d, 1).committed[2] == card("TC")


def test_four_nines_the_declarer_holds_one_back():
    hands = ("JC QC KC TC JS QS", "9C 9S 9H 9D AC AS", "KS TS JH QH KH TH", "AH JD QD KD TD AD")
    d = deal(hands).apply_all("=D P P P P N")
    assert d.decision == TableDecision.HOLD_NINE and legal(d) == {card(c) for c in ("9C", "9S", "9H", "9D")}
    d.apply(card("9S"))
    assert d.nines_shown == sum(1 << card(c) for c in ("9C", "9H", "9D")) and d.current == 2
    assert legal(d) == {card(c) for c in ("JH", "QH", "KH", "TH")}  # hearts only: clubs, diamonds he lacks


def test_three_nines_ending_the_match_ends_the_deal():
    d = nines_declared(scores=(0, 5))
    d.apply_all("TC 9S")
    assert d.outcome.termination == TableTermination.NINES and d.outcome.scored == (0, 3)
    m = TableMatch(FourDeal, R, random.Random(0), first_deal=nines_declared(scores=(0, 5)), scores=(0, 5))
    for a in ("TC", "9S"):
        m.apply(card(a))
    assert m.is_over and m.scores == [0, 8] and m.winners == [1, 3]


def test_partner_asked_for_a_third_nine_only_with_the_toggle():
    hands = ("9D JD QD KD TD AD", "9C 9S AH AC AS KH", "TC KC QC TS KS QS", "JC JS 9H TH QH JH")
    d = deal(hands).apply_all("=D P P P P")
    assert ASK_NINE not in legal(d) and THREE_NINES not in legal(d)
    d = deal(hands, R.replace(nines_partner_ask=True)).apply_all("=D P P P P")
    assert ASK_NINE in legal(d)
    d.apply(ASK_NINE)
    assert d.nines_by == 1 and d.nines_shown == sum(1 << card(c) for c in ("9C", "9S", "9H"))
    assert d.known[3] >> card("9H") & 1 and d.decision == TableDecision.COMMIT
    alone = ("9D JD QD KD TD AD", "9C 9S AH AC AS KH", "TC KC QC TS 9H QS", "JC JS KS TH QH JH")
    d = deal(alone, R.replace(nines_partner_ask=True)).apply_all("=D P P P P AN")
    assert d.nines_by == -1 and d.current == 1 and ASK_NINE not in legal(d)  # the partner has none


# ---------------------------------------------------------------------- 5. contracts
ALL_CLUBS = ("AD TD KD QD JD 9D", "AC TC KC QC JC 9C", "AS TS KS QS JS 9S", "AH TH KH QH JH 9H")
SPADE_NINE = ("AD TD KD QD JD 9D", "AC TC KC QC JC 9S", "AS TS KS QS JS 9C", "AH TH KH QH JH 9H")
COVERED = ("AD TD KD QD JD 9D", "AC TC KC QC JC KS", "QS JS 9S 9C JH 9H", "AS TS AH TH KH QH")
UNCOVERED = ("AD TD KD QD JD 9D", "AC TC KC QC JC KS", "AS QS JS 9S 9C JH", "TS 9H AH TH KH QH")


def bidding(hands, rules=R, **kw) -> FourDeal:
    d = deal(hands, rules, **kw).apply_all("=H")
    pass_round(d)
    assert d.decision == TableDecision.BID and d.current == 1
    return d


def contract(hands, bid: int, rules=R, **kw) -> FourDeal:
    d = bidding(hands, rules, **kw)
    d.apply(bid)
    pass_round(d, 3)
    return d


def play_out(d, cards: str) -> FourDeal:
    for c in cards.split():
        d.apply(card(c))
    return d


def test_five_fur_coat_and_suit_need_a_card_the_opponents_could_beat_six_does_not():
    assert legal(bidding(ALL_CLUBS)) == {PASS, SIX}
    assert legal(bidding(SPADE_NINE)) == {PASS, FIVE, SIX, FUR, SUIT}
    assert not has_beatable_card(sum(1 << card(c) for c in ALL_CLUBS[1].split()))
    assert has_beatable_card(1 << card("KS"))


def test_six_won_partner_out_no_trumps_declarer_leads():
    d = contract(ALL_CLUBS, SIX)
    assert d.contract == 2 and d.sitting_out == 3 and d.hands[3] == 0
    assert d.out_cards[3] == sum(1 << card(c) for c in ALL_CLUBS[3].split())
    assert d.decision == TableDecision.LEAD and d.current == 1 and legal(d) == set(map(card, ALL_CLUBS[1].split()))
    d.apply(card("AC"))
    assert d.current == 2 and legal(d) == set(map(card, ALL_CLUBS[2].split())), "void: any card, no duty to trump"
    d.apply(card("AS"))
    assert d.current == 0, "the partner sits out"
    d.apply(card("AD"))
    assert d.leader == 1 and d.trick_count == 1
    for c in ("TC", "KC", "QC", "JC", "9C"):
        d.apply(card(c))
        d.apply(min(legal(d)))
        d.apply(min(legal(d)))
    assert d.outcome.termination == TableTermination.CONTRACT_WON
    assert d.outcome.scored == (0, 6) and d.outcome.payoffs == (-6, 6, -6, 6) and d.outcome.contract == 2


def test_trumps_have_no_rank_in_a_contract():
    d = contract(UNCOVERED, SIX)  # trump hearts; player 0 holds diamonds only, player 2 AS
    play_out(d, "AC 9C AD")
    assert d.tricks_won[1] == 1
    d = contract(SPADE_NINE, SIX)
    play_out(d, "9S AS AD")  # the spade nine led: the ace of spades wins
    assert d.outcome.termination == TableTermination.CONTRACT_LOST and d.outcome.scored == (6, 0)
    assert d.trick_count == 1, "a contract ends at the first trick the opponents win"


def test_five_discards_then_five_tricks_won_and_lost():
    d = contract(SPADE_NINE, FIVE)
    assert d.decision == TableDecision.DISCARD and d.current == 1
    play_out(d, "9S")
    assert d.current == 2 and d.out_cards[1] == 1 << card("9S")
    play_out(d, "9C")
    assert d.current == 0
    play_out(d, "9D")
    assert d.decision == TableDecision.LEAD and d.current == 1 and d.hands[1].bit_count() == 5
    assert TableView.of(d, 2).out_mine == 1 << card("9C") and TableView.of(d, 2).unseen >> card("9S") & 1
    for c in ("AC", "TC", "KC", "QC", "JC"):
        d.apply(card(c))
        d.apply(min(legal(d)))
        d.apply(min(legal(d)))
    assert d.outcome.termination == TableTermination.CONTRACT_WON and d.outcome.scored == (0, 5)
    lost = play_out(contract(SPADE_NINE, FIVE), "JC 9C 9D 9S AS")  # he kept the spade nine
    assert lost.current == 0
    play_out(lost, "AD")
    assert lost.outcome.termination == TableTermination.CONTRACT_LOST and lost.outcome.scored == (5, 0)


def test_fur_coat_and_suit_won_win_the_match_at_stakes_two_and_three():
    for bid, stake in ((FUR, 2), (SUIT, 3)):
        d = contract(COVERED, bid, scores=(4, 5))
        for c in ("KS", "AC", "TC", "KC", "QC", "JC"):  # the partner holds AS and TS
            d.apply(card(c))
            d.apply(min(legal(d)))
            d.apply(min(legal(d)))
        out = d.outcome
        assert out.termination == TableTermination.CONTRACT_WON and out.stake == stake
        assert out.scored == (0, 3), "the points left to the target of 8"
        m = TableMatch(FourDeal, R, random.Random(0), first_deal=contract(COVERED, bid, scores=(4, 5)), scores=(4, 5))
        while m.deal.outcome is None:
            m.apply(min(legal(m.deal)) if m.deal.current != 1 else m.deal.legal_actions()[-1])
        assert m.is_over and m.stake == stake and m.scores == [4, 8] and m.carry == (0, 0)


def test_fur_coat_and_suit_lost_give_the_opponents_six():
    for bid in (FUR, SUIT):
        d = play_out(contract(UNCOVERED, bid), "KS AS AD")
        assert d.outcome.termination == TableTermination.CONTRACT_LOST
        assert d.outcome.scored == (6, 0) and d.outcome.stake == 1


def test_a_higher_contract_of_the_other_pair_overrides_a_lower_one():
    d = bidding(COVERED)
    d.apply(FIVE)
    assert d.current == 2 and FIVE not in legal(d) and SIX in legal(d)
    d.apply(SIX)
    assert legal(d) == {PASS}  # player 3: only fur coat or suit are higher, and he has no beatable card
    pass_round(d, 2)
    assert d.contract == 2 and d.bidder == 2 and d.sitting_out == 0 and d.current == 2
    assert d.decision == TableDecision.LEAD


def test_a_seated_out_partner_sees_the_play_and_nobody_sees_his_cards():
    d = contract(COVERED, SIX)
    play_out(d, "AC 9C")
    v = TableView.of(d, 3)
    assert v.out_mine == d.out_cards[3] and v.hand == 0 and v.trick == (card("AC"), card("9C"))
    vec = encode_table_vector(v)
    L = table_layout(4)
    assert vec[L["trick_partner"].start + card("AC")] == 1 and vec[L["trick_right"].start + card("9C")] == 1
    assert vec[L["sitting_out_me"].start] == 1 and vec[L["out_size_me"].start] == 1
    for p in (0, 1, 2):
        assert TableView.of(d, p).unseen & d.out_cards[3] == d.out_cards[3]


# ---------------------------------------------------------------------- 6-7. the normal game
MARRY = ("QC 9S JS 9D JD QD", "AC KH QH KS QS TH", "TC AS TS KD TD AD", "KC 9C JC 9H JH AH")


def after_first_trick(rules=R) -> FourDeal:
    d = deal(MARRY, rules).apply_all("=H")
    pass_round(d)  # redeals
    pass_round(d)  # contracts
    d.apply(card("AC"))
    d.apply(PASS)  # the partner shows no marriage
    play_out(d, "TC KC QC")
    assert d.points == [0, 28] and d.current == 1
    return d


def test_marriage_without_leading_with_66_wins_as_going_out():
    d = after_first_trick()
    assert {MARRIAGE_NO_LEAD + 2, MARRIAGE_NO_LEAD + 1} <= legal(d)
    d.apply(MARRIAGE_NO_LEAD + 2)  # 28 + 40 trumps
    assert d.outcome.termination == TableTermination.WENT_OUT and d.outcome.scored == (0, 3)


def test_marriage_without_leading_short_of_66_gives_the_opponents_one():
    d = after_first_trick()
    d.apply(MARRIAGE_NO_LEAD + 1)  # 28 + 20
    assert d.outcome.termination == TableTermination.FALSE_MARRIAGE and d.outcome.scored == (1, 0)


def test_normal_game_follow_suit_else_trump_and_trumps_win():
    d = deal(MARRY).apply_all("=H")
    pass_round(d)
    pass_round(d)
    play_out(d, "KS")
    d.apply(PASS)
    assert legal(d) == {card("AS"), card("TS")}  # player 2 follows suit
    play_out(d, "AS")
    assert legal(d) == {card("9H"), card("JH"), card("AH")}, "void in spades: trump"
    play_out(d, "9H")
    assert legal(d) == {card("9S"), card("JS")}
    play_out(d, "9S")
    assert d.last_winner == 3 and d.points == [0, 15], "the trump nine takes the trick"


# ---------------------------------------------------------------------- each rules field, off and on
def test_field_cut_nines_and_cut_points():
    assert deal(PLAIN, R.replace(cut_points=2), cuts="9C 9S 9H").outcome.scored == (2, 0)
    assert deal(PLAIN, R.replace(cut_nines=0), cuts="9C 9S 9H").outcome is None
    assert deal(PLAIN, R.replace(cut_nines=2), cuts="9C 9S").outcome.termination == TableTermination.CUT
    rng = random.Random(1)
    nine_at_bottom = any(
        FourDeal.new(R.replace(cut_nines=0), rng).dealt[0][5] % 6 == 0 for _ in range(200)
    )  # without the cut the bottom card is a nine one time in six
    assert nine_at_bottom


def test_field_redeals_and_redeal_under():
    hands = ("AC TC KC AS TS KS", "9C JC QC 9S JS QS", "9H JH QH KH TH AH", "9D JD QD KD TD AD")
    assert deal(hands, R.replace(redeals=False)).apply_all("=D").decision == TableDecision.BID
    assert REDEAL not in legal(deal(hands, R.replace(redeal_under=10)).apply_all("=D"))  # 10 points
    assert REDEAL in legal(deal(hands, R.replace(redeal_under=11)).apply_all("=D"))


def test_field_three_nines_and_nines_points():
    d = deal(NINES3, R.replace(three_nines=False)).apply_all("=D P P P P")
    assert THREE_NINES not in legal(d)
    d = nines_declared(rules=R.replace(nines_points=4))
    d.apply_all("TC 9S")
    assert d.deal_scored == [0, 4]


def test_field_contracts():
    d = deal(SPADE_NINE, R.replace(contracts=False)).apply_all("=H")
    pass_round(d)
    assert d.decision == TableDecision.BID and legal(d) == {PASS}  # three nines could still be declared
    d = deal(SPADE_NINE, R.replace(contracts=False, three_nines=False)).apply_all("=H")
    pass_round(d)
    assert d.decision == TableDecision.LEAD


def test_field_contract_ends_early():
    d = contract(SPADE_NINE, SIX, R.replace(contract_ends_early=False))
    play_out(d, "9S AS AD")
    assert d.outcome is None and d.current == 2  # played on: the opponent who won leads
    while d.outcome is None:
        d.apply(min(legal(d)))
    assert d.trick_count == 6 and d.outcome.termination == TableTermination.CONTRACT_LOST
    assert d.outcome.scored == (6, 0)


def test_field_stakes():
    d = contract(COVERED, FUR, R.replace(fur_coat_stake=5))
    while d.outcome is None:
        d.apply(d.legal_actions()[-1] if d.current == 1 else min(legal(d)))
    assert d.outcome.stake == 5 and d.outcome.termination == TableTermination.CONTRACT_WON
    d = contract(COVERED, SUIT, R.replace(suit_stake=7))
    while d.outcome is None:
        d.apply(d.legal_actions()[-1] if d.current == 1 else min(legal(d)))
    assert d.outcome.stake == 7


def test_field_marriage_without_leading_and_false_marriage_points():
    d = after_first_trick(R.replace(marriage_without_leading=False))
    assert not {MARRIAGE_NO_LEAD + s for s in range(4)} & legal(d)
    d = after_first_trick(R.replace(false_marriage_points=2))
    d.apply(MARRIAGE_NO_LEAD + 1)
    assert d.outcome.scored == (2, 0)


def test_field_under_33_points():
    rng = random.Random(3)
    rules = R.replace(contracts=False, three_nines=False, redeals=False)
    for seed in range(2000):
        d = FourDeal.new(rules, random.Random(seed))
        while d.outcome is None:
            d.apply(rng.choice(d.legal_actions()))
        out = d.outcome
        loser = 1 - out.winner
        if out.termination == TableTermination.WENT_OUT and d.side_tricks[loser] and d.points[loser] < 33:
            assert out.game_points == 2
            literal = FourDeal.from_notation(d.to_notation(), rules.replace(under_33_points=1))
            assert literal.outcome.game_points == 1 and literal.outcome.termination == TableTermination.WENT_OUT
            return
    raise AssertionError("no deal won against a team under 33 with a trick")


def test_field_carry_over():
    def finished(carry: str, hands, bid: int) -> TableMatch:
        rules = R.replace(carry_over=carry)
        m = TableMatch(FourDeal, rules, random.Random(0), first_deal=contract(hands, bid, rules, scores=(0, 5)))
        m.scores = [0, 5]
        while m.deal.outcome is None:
            m.apply(m.deal.legal_actions()[-1] if m.deal.current == 1 else min(legal(m.deal)))
        return m

    assert finished("contracts", ALL_CLUBS, SIX).carry == (0, 3)  # 5 + 6 = 11: 3 beyond 8
    assert finished("none", ALL_CLUBS, SIX).carry == (0, 0)
    assert finished("all", ALL_CLUBS, SIX).next_match().scores == [0, 3]


def test_win_loss_match_reward_is_the_stake():
    env = sixtysix_four_v0.raw_env(rules="russian", episode="match", reward="win_loss")
    env.reset(seed=0, options={"deal": {"hands": list(COVERED), "dealer": 0}})
    script = ["=H", "P", "P", "P", "P", "BS", "P", "P", "P", "KS"]
    for a in script:
        env.step(card(a))
    while not any(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        legal_ids = np.flatnonzero(mask)
        env.step(int(legal_ids[-1] if env.agent_selection == "player_1" else legal_ids[0]))
    assert env.rewards == {"player_0": -3.0, "player_1": 3.0, "player_2": -3.0, "player_3": 3.0}


def test_every_new_action_has_a_text_form_and_illegal_ones_name_the_legal():
    for a in range(37, 49):
        assert parse_table_action(table_action_str(a)) == a
    d = bidding(ALL_CLUBS)
    with pytest.raises(TableIllegalActionError, match=r"legal actions are 30 \(P\), 41 \(B6\)"):
        d.apply(FIVE)
    assert legal(d) == {PASS, SIX}


def test_position_text_round_trips_every_russian_decision():
    rng = random.Random(11)
    for seed in range(150):
        d = FourDeal.new(R.replace(nines_partner_ask=True), random.Random(seed), dealer=seed % 4)
        while d.outcome is None:
            d.apply(rng.choice(d.legal_actions()))
        again = FourDeal.from_notation(d.to_notation(), R.replace(nines_partner_ask=True))
        assert again.outcome == d.outcome and again.history == d.history and again.cuts == d.cuts
        assert again.out_cards == d.out_cards and again.committed == d.committed


def test_card_decisions_are_named_in_labels_and_renders():
    from sixtysix_env.table.actions import table_action_label

    assert table_action_label(card("9S"), TableDecision.DISCARD) == "discard 9♠"
    assert table_action_label(card("9S"), TableDecision.LEAVE_NINE) == "leave 9♠"
    assert table_action_label(card("9S"), TableDecision.FOLLOW) == "play 9♠" == table_action_label(card("9S"))
    env = sixtysix_four_v0.raw_env(rules="russian", render_mode="ansi")
    env.reset(seed=0, options={"deal": {"hands": list(SPADE_NINE), "dealer": 0}})
    for a in ["=H", "P", "P", "P", "P", "B5", "P", "P", "P", "9S"]:
        env.step(card(a))
    text = env.render()
    assert "contract: five by player_1, player_3 sits out" in text and "player_1: discard 9♠" in text

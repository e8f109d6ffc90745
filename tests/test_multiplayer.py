"""Three- and four-player games: rules by arrangement, properties over random deals, AEC checks."""

from __future__ import annotations

import random

import numpy as np
import pettingzoo
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test

from sixtysix_env.cards import NUM_CARDS, mask_points, parse_card, parse_cards
from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0
from sixtysix_env.registration import register_envs
from sixtysix_env.table import (
    CHOOSE_TRUMP,
    FOUR_PRESETS,
    MAX_TABLE_ACTIONS,
    NUM_TABLE_ACTIONS,
    THREE_PRESETS,
    TRUMP_BY_CARD,
    FourDeal,
    FourRules,
    TableDecision,
    TableMatch,
    TableTermination,
    TableView,
    ThreeDeal,
    ThreeRules,
    follow_cards,
    stake_payment,
    trick_winner,
)
from sixtysix_env.table.actions import GO_OUT, MARRIAGE, PASS, parse_table_action, table_action_str
from sixtysix_env.table.deal import TableIllegalActionError
from sixtysix_env.table.observers import (
    TABLE_ENCODERS,
    encode_table_vector,
    table_layout,
    table_observation_space,
    table_vector_size,
)
from sixtysix_env.table.rewards import win_loss_rewards

THREE_RULES = list(THREE_PRESETS.values())
RUSSIAN = FOUR_PRESETS["russian"]
FOUR_RULES = [
    *FOUR_PRESETS.values(),
    FOUR_PRESETS["pagat"].replace(claiming="explicit"),
    RUSSIAN.replace(contracts=False),  # the normal game, which random bidding seldom reaches
    RUSSIAN.replace(nines_partner_ask=True, claiming="explicit", contract_ends_early=False, cut_nines=1),
]
GAMES = [(ThreeDeal, r) for r in THREE_RULES] + [(FourDeal, r) for r in FOUR_RULES]
# every combination the dataclasses accept
ANY_RULES = st.one_of(
    st.builds(
        lambda *a: (ThreeDeal, ThreeRules("random", *a)),
        st.sampled_from(["choose", "dealer_last"]),
        st.booleans(),
        st.sampled_from([0, 10, 20]),
        st.integers(1, 9),
        st.integers(0, 20),
    ),
    st.builds(
        lambda *a: (FourDeal, FourRules("random", *a)),
        st.sampled_from(["dealer_bottom", "choose"]),
        st.booleans(),
        st.booleans(),
        st.sampled_from([0, 10, 20]),
        st.sampled_from(["auto", "explicit"]),
        st.integers(1, 11),
    ),
    st.builds(  # the Russian game's fields in any combination
        lambda trump, claiming, cut, *flags: (
            FourDeal,
            RUSSIAN.replace(
                name="random",
                trump=trump,
                claiming=claiming,
                cut_nines=cut,
                **dict(
                    zip(
                        (
                            "redeals",
                            "three_nines",
                            "nines_partner_ask",
                            "contracts",
                            "contract_ends_early",
                            "marriage_without_leading",
                            "must_beat",
                        ),
                        flags,
                        strict=True,
                    )
                ),
            ),
        ),
        st.sampled_from(["dealer_bottom", "choose"]),
        st.sampled_from(["auto", "explicit"]),
        st.integers(0, 3),
        *[st.booleans()] * 7,
    ),
)


def _cards(text: str) -> set[int]:
    return set(parse_cards(text))


def _legal(deal) -> set[int]:
    return set(deal.legal_actions())


def _lowest(deal, until) -> None:
    """Play the lowest legal action (passing on partner marriages) until ``until(deal)``."""
    while deal.outcome is None and not until(deal):
        legal = deal.legal_actions()
        deal.apply(PASS if PASS in legal else legal[0])


# A three-player arrangement, hands in the order dealt; dealer 0, so player 1 names trump and leads.
THREE = (
    "9H JH QH 9D JD QD KD TD",  # player 0 (dealer)
    "AC TC KC QC JC 9C AS TS",  # player 1: every club and the top spades
    "KS QS JS 9S AH TH KH AD",  # player 2
)


# ---------------------------------------------------------------------- shared trick rules
def test_trick_winner_and_follow_rules():
    trump = 2  # hearts
    assert trick_winner(parse_cards("KS AS 9H"), trump) == 2
    assert trick_winner(parse_cards("KS 9C AS"), trump) == 2
    hand = sum(1 << c for c in parse_cards("AS 9S TH 9C"))
    # follow and beat the best card of the suit led
    assert follow_cards(hand, parse_cards("KS"), trump, True) == 1 << parse_card("AS")
    assert follow_cards(hand, parse_cards("KS"), trump, False) == sum(1 << c for c in parse_cards("AS 9S"))
    # a trump is already in the trick: following suit is enough (cannot beat a trump in suit)
    assert follow_cards(hand, parse_cards("KS JH"), trump, True) == sum(1 << c for c in parse_cards("AS 9S"))
    # void: trump, over-trumping if able; a player who cannot over-trump still trumps
    void = sum(1 << c for c in parse_cards("TH 9H 9C"))
    assert follow_cards(void, parse_cards("KD JH"), trump, True) == 1 << parse_card("TH")
    assert follow_cards(void, parse_cards("KD AH"), trump, True) == sum(1 << c for c in parse_cards("TH 9H"))
    assert follow_cards(void, parse_cards("KD JH"), trump, False) == sum(1 << c for c in parse_cards("TH 9H"))
    assert follow_cards(1 << parse_card("9C"), parse_cards("KD JH"), trump, True) == 1 << parse_card("9C")


def test_action_text_round_trips():
    for a in [*range(28), PASS, GO_OUT, *range(CHOOSE_TRUMP, TRUMP_BY_CARD + 1)]:
        assert parse_table_action(table_action_str(a)) == a
    with pytest.raises(ValueError, match="name trump"):
        parse_table_action("X")


# ---------------------------------------------------------------------- three players, by arrangement
def test_three_trump_choice_sees_only_the_first_packet_and_names_a_suit():
    d = ThreeDeal.from_arrangement(THREE, dealer=0)
    assert d.decision == TableDecision.TRUMP and d.current == 1
    assert _legal(d) == set(range(CHOOSE_TRUMP, TRUMP_BY_CARD + 1))
    assert d.information_state(1).hand == sum(1 << c for c in parse_cards("AC TC KC"))
    assert d.information_state(0).hand == sum(1 << c for c in parse_cards("9H JH QH"))
    d.apply(parse_table_action("=C"))
    assert d.trump == 0 and d.trump_card == -1 and d.current == 1 and d.decision == TableDecision.LEAD
    assert d.information_state(1).hand.bit_count() == 8


def test_three_pass_turns_the_first_card_of_the_second_packet():
    d = ThreeDeal.from_arrangement(THREE, dealer=0).apply_all("=?")
    assert d.trump_card == parse_card("QC") and d.trump == 0
    view = d.information_state(0)  # everyone sees that player 1 holds it
    assert view.known[1] == 1 << parse_card("QC")
    left = table_layout(3)["known_left"].slice
    assert encode_table_vector(view)[left][parse_card("QC")] == 1.0


def test_three_dealer_last_card_sets_trump_without_a_choice():
    rules = ThreeRules(trump="dealer_last")
    d = ThreeDeal.from_arrangement(THREE, dealer=0, rules=rules)
    assert d.decision == TableDecision.LEAD and d.trump_card == parse_card("TD") and d.trump == 3
    assert d.known[0] == 1 << parse_card("TD")
    base = ThreeDeal.from_arrangement(THREE, dealer=0)
    assert base.decision == TableDecision.TRUMP and base.trump == -1


def test_three_must_beat_or_only_follow():
    # dealer 1: player 2 names trump and leads the jack of hearts; player 0 holds 9H QH AH
    hands = ("9H QH AH 9D JD QD KD TD", "AC TC KC QC JC 9C AS TS", "KS QS JS 9S JH TH KH AD")
    for rules, expected in ((ThreeRules(), "QH AH"), (ThreeRules(must_beat=False), "9H QH AH")):
        d = ThreeDeal.from_arrangement(hands, 1, rules).apply_all("=C JH")
        assert d.current == 0 and _legal(d) == _cards(expected)
        d.apply_all("AH")  # player 1: no hearts, so he must trump (clubs)
        assert _legal(d) == _cards("AC TC KC QC JC 9C")


def test_three_one_player_takes_every_trick_and_both_others_pay_three():
    d = ThreeDeal.from_arrangement(THREE, dealer=0).apply_all("=C")
    _lowest(d, lambda _: False)
    assert d.tricks_won == [0, 8, 0] and d.points == [0, 130, 0]
    assert d.outcome.winner == 1 and d.outcome.payoffs == (-3, 6, -3)
    assert d.outcome.termination == TableTermination.PLAYED_OUT


def test_three_last_trick_bonus():
    for bonus in (10, 0):
        d = ThreeDeal.from_arrangement(THREE, 0, ThreeRules(last_trick_bonus=bonus)).apply_all("=C")
        _lowest(d, lambda _: False)
        assert sum(d.points) == 120 + bonus


def test_three_marriage_counts_once_the_declarer_has_a_trick():
    d = ThreeDeal.from_arrangement(THREE, 1).apply_all("=H")  # dealer 1: player 2 names hearts, leads
    assert d.current == 2 and MARRIAGE + 1 in _legal(d) and MARRIAGE + 2 not in _legal(d)
    d.apply_all("M1")
    assert _legal(d) == _cards("KS QS") and d.pending[2] == 20 and d.points[2] == 0
    d.apply_all("KS 9H AS")  # player 0 has no spades and must trump; player 1 follows
    assert d.last_winner == 0 and d.points[0] == 4 + 0 + 11 and d.pending[2] == 20
    _lowest(d, lambda x: x.tricks_won[2] > 0)
    assert d.pending[2] == 0 and d.points[2] == 20 + mask_points(d.won_cards[2])


def test_three_settlement_formula_and_drawn_deal():
    assert [stake_payment(p, t) for p, t in ((33, 1), (32, 1), (0, 1), (0, 0))] == [1, 2, 2, 3]
    d = ThreeDeal.from_arrangement(THREE, dealer=0).apply_all("=C")
    tie = d.clone()
    tie.points = [50, 50, 30]
    tie._score_played_out()
    assert tie.outcome.winner == -1 and tie.outcome.payoffs == (0, 0, 0)
    assert tie.outcome.termination == TableTermination.DRAWN


@pytest.mark.parametrize(("deals", "target", "expected"), [(2, 0, 2), (0, 6, 1), (6, 0, 6)])
def test_three_match_by_deals_or_by_target(deals, target, expected):
    rules = ThreeRules(match_deals=deals, match_target=target)
    match = TableMatch(ThreeDeal, rules, random.Random(1), first_deal=ThreeDeal.from_arrangement(THREE, 0, rules))
    match.apply(parse_table_action("=C"))  # player 1 will win 6 stakes in this first deal
    rng = random.Random(2)
    while True:
        deal = match.deal
        while deal.outcome is None:
            legal = deal.legal_actions()
            match.apply(PASS if PASS in legal else rng.choice(legal))
        if match.is_over:
            break
        assert match.next_dealer() == (deal.dealer + 1) % 3
        match.next_deal()
    assert len(match.results) == expected and sum(match.scores) == 0
    assert match.winners and all(match.scores[w] == max(match.scores) for w in match.winners)


def test_three_rules_reject_impossible_settings():
    with pytest.raises(ValueError, match="match_deals > 0 or match_target > 0"):
        ThreeRules(match_deals=0, match_target=0)
    with pytest.raises(ValueError, match="choose, dealer_last"):
        ThreeRules(trump="named")
    with pytest.raises(ValueError, match="True or False"):
        ThreeRules(must_beat=1)
    with pytest.raises(ValueError, match="0 or more"):
        ThreeRules(last_trick_bonus=-1)
    with pytest.raises(ValueError, match="deals 8"):
        ThreeDeal.from_arrangement(("9H JH", *THREE[1:]))
    with pytest.raises(ValueError, match="duplicate"):
        ThreeDeal.from_arrangement((THREE[1], THREE[1], THREE[2]))


# ---------------------------------------------------------------------- four players, by arrangement
# Dealer 3: player 0 leads; the dealer's last card (9H) sets trump.
FOUR = (
    "KC QC AS TS 9C JC",  # player 0 (team 0): the clubs marriage
    "AC TC KS QS JS 9S",  # player 1 (team 1): the spades marriage
    "KD QD AD TD 9D JD",  # player 2 (team 0): the diamonds marriage, partner of 0
    "AH TH KH QH JH 9H",  # player 3 (team 1, dealer): all the hearts, 9H turned
)


def test_four_dealer_bottom_card_sets_trump_and_is_public():
    d = FourDeal.from_arrangement(FOUR, dealer=3)
    assert d.decision == TableDecision.LEAD and d.current == 0
    assert d.trump == 2 and d.trump_card == parse_card("9H") and d.known[3] == 1 << parse_card("9H")
    right = table_layout(4)["known_right"].slice
    assert encode_table_vector(d.information_state(0))[right][parse_card("9H")] == 1.0


def test_four_trump_choose_by_the_player_left_of_the_dealer():
    rules = FourRules(trump="choose")
    d = FourDeal.from_arrangement(FOUR, 3, rules)
    assert d.decision == TableDecision.TRUMP and d.current == 0
    assert d.information_state(0).hand == sum(1 << c for c in parse_cards("KC QC AS"))
    passed = d.clone().apply_all("=?")
    assert passed.trump_card == parse_card("JC") and passed.known[0] == 1 << parse_card("JC")
    named = d.clone().apply_all("=D")
    assert named.trump == 3 and named.trump_card == -1 and named.decision == TableDecision.LEAD


def test_four_partner_declares_after_the_lead_and_team_points_count_with_a_trick():
    d = FourDeal.from_arrangement(FOUR, dealer=3)
    assert MARRIAGE + 0 in _legal(d)
    d.apply_all("M0")  # 20 for team 0, pending: no trick yet
    assert d.pending[0] == 20 and d.points[0] == 0 and _legal(d) == _cards("KC QC")
    d.apply_all("KC")
    assert d.decision == TableDecision.PARTNER_MARRIAGE and d.current == 2
    assert _legal(d) == {PASS, MARRIAGE + 3}
    d.apply_all("M3")  # the partner shows K+Q of diamonds: 20 more, still pending
    assert d.pending[0] == 40 and d.known[2] & _mask("KD QD") == _mask("KD QD")
    assert d.decision == TableDecision.FOLLOW and d.current == 1
    d.apply_all("AC")  # player 1 wins with the ace; player 2 has no clubs and no trumps
    assert _legal(d) == _cards("AD TD 9D JD KD QD")
    d.apply_all("9D 9H")  # player 3 trumps with the 9 of hearts
    assert d.last_winner == 3 and d.pending[0] == 40 and d.points[1] == 4 + 11 + 0 + 0


def _mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


def test_four_partner_marriages_off_skips_the_partner():
    d = FourDeal.from_arrangement(FOUR, 3, FourRules(partner_marriages=False)).apply_all("AS")
    assert d.decision == TableDecision.FOLLOW and d.current == 1
    d = FourDeal.from_arrangement(FOUR, 3).apply_all("AS")
    assert d.decision == TableDecision.PARTNER_MARRIAGE and d.current == 2


def test_four_must_beat_or_only_follow():
    hands = ("KC QC AS TS TC JC", "AC 9C KS QS JS 9S", *FOUR[2:])
    for rules, expected in ((FourRules(), "AC"), (FourRules(must_beat=False), "AC 9C")):
        d = FourDeal.from_arrangement(hands, 3, rules).apply_all("JC P")
        assert d.current == 1 and _legal(d) == _cards(expected)


def test_four_first_team_to_66_goes_out_automatically_or_by_claim():
    # team 1 holds every heart (trump) and the spades marriage; player 1 leads after winning
    hands = ("KC QC 9S TS 9C JC", "AC TC KS QS JS AS", "KD QD AD TD 9D JD", "AH TH KH QH JH 9H")
    auto = FourDeal.from_arrangement(hands, 3)
    _lowest(auto, lambda _: False)
    assert auto.outcome.termination == TableTermination.WENT_OUT and auto.outcome.winner == 1
    assert auto.points[1] >= 66 and auto.outcome.payoffs[1] == auto.outcome.payoffs[3] > 0
    assert auto.outcome.payoffs[0] == auto.outcome.payoffs[2] == -auto.outcome.payoffs[1]
    explicit = FourDeal.from_arrangement(hands, 3, FourRules(claiming="explicit"))
    _lowest(explicit, lambda d: d.points[1] >= 66)
    assert explicit.outcome is None and GO_OUT in _legal(explicit)
    explicit.apply(GO_OUT)
    assert explicit.outcome.winner == 1 and explicit.outcome.termination == TableTermination.WENT_OUT
    wrong = FourDeal.from_arrangement(hands, 3, FourRules(claiming="explicit")).apply_all("9C P AC 9D AH")
    assert wrong.current == 3 and GO_OUT in _legal(wrong) and wrong.points[1] < 66
    wrong.apply(GO_OUT)
    assert wrong.outcome.winner == 0 and wrong.outcome.game_points == 2
    assert wrong.outcome.termination == TableTermination.FALSE_CLAIM


def test_four_played_out_goes_to_the_last_trick_and_the_bonus_counts():
    rules = FourRules(claiming="explicit")  # nobody claims: the deal is played out
    for bonus in (10, 0):
        d = FourDeal.from_arrangement(FOUR, 3, rules.replace(last_trick_bonus=bonus))
        while d.outcome is None:
            legal = d.legal_actions()
            d.apply(PASS if PASS in legal else min(a for a in legal if a != GO_OUT))
        assert d.trick_count == 6 and sum(d.points) >= 120 + bonus
        assert d.outcome.termination == TableTermination.PLAYED_OUT and d.outcome.game_points == 1
        assert d.outcome.winner == d.last_winner % 2


def test_four_match_to_the_target():
    for target in (1, 7):
        match = TableMatch(FourDeal, FourRules(match_target=target), random.Random(target))
        rng = random.Random(0)
        while not match.is_over:
            deal = match.deal if match.deal.outcome is None else match.next_deal()
            while deal.outcome is None:
                match.apply(rng.choice(deal.legal_actions()))
        assert max(match.scores) >= target and len(match.winners) == 2
        assert (len(match.results) == 1) is (target == 1)


def test_four_partner_decision_depends_only_on_public_facts():
    # Whether the leader's partner is asked about a marriage must not reveal his hand: it may
    # depend only on what every player knows, so no resample of hidden cards may change it.
    rng = random.Random(7)
    for seed in range(80):
        d = _random_position(FourDeal, FOUR_RULES[seed % 2], seed)
        if d.outcome is not None:
            continue
        asked = {d._partner_decides(q) for q in range(4)}
        for observer in range(4):
            for _ in range(3):
                other = d.resample_hidden(observer, rng)
                assert {other._partner_decides(q) for q in range(4)} == asked


def test_four_rules_reject_impossible_settings():
    with pytest.raises(ValueError, match="dealer_bottom, choose"):
        FourRules(trump="left")
    with pytest.raises(ValueError, match="auto, explicit"):
        FourRules(claiming="never")
    with pytest.raises(ValueError, match="at least 1"):
        FourRules(match_target=0)
    with pytest.raises(ValueError, match="4 hands"):
        FourDeal.from_arrangement(FOUR[:3])


# ---------------------------------------------------------------------- properties over random deals
def _random_position(game, rules, seed: int):
    rng = random.Random(seed)
    d = game.new(rules, rng, dealer=seed % game.n_players)
    for _ in range(rng.randrange(35)):
        if d.outcome is not None:
            break
        d.apply(rng.choice(d.legal_actions()))
    return d


def _snapshot(d) -> tuple:
    return (tuple(d.hands), tuple(d.trick), d.current, d.decision, tuple(d.points), tuple(d.history), d.outcome)


@given(case=st.one_of(st.sampled_from(GAMES), ANY_RULES), seed=st.integers(0, 2**32 - 1))
def test_random_deals_keep_every_invariant(case, seed):
    game, rules = case
    rng = random.Random(seed)
    d = game.new(rules, rng, dealer=seed % game.n_players)
    steps = 0
    while d.outcome is None:
        places = [*d.hands, *d.won_cards, *d.out_cards, sum(1 << c for c in d.trick)]
        union = 0
        for m in places:
            assert union & m == 0, "a card is in two places"
            union |= m
        assert union == (1 << NUM_CARDS) - 1, "a card went missing"
        legal = d.legal_actions()
        assert legal and all(0 <= a < NUM_TABLE_ACTIONS for a in legal)
        before = _snapshot(d)
        bad = [a for a in range(NUM_TABLE_ACTIONS) if a not in legal]
        with pytest.raises(TableIllegalActionError):
            d.apply(rng.choice(bad))
        assert _snapshot(d) == before
        for a in legal:
            d.clone().apply(a)
        d.apply(rng.choice(legal))
        steps += 1
        assert steps <= MAX_TABLE_ACTIONS
    out = d.outcome
    assert sum(out.payoffs) == 0
    if game is FourDeal:
        assert out.payoffs[0] == out.payoffs[2] and out.payoffs[1] == out.payoffs[3]
        assert out.termination != TableTermination.PLAYED_OUT or out.winner == d.last_winner % 2
    elif out.winner >= 0:
        w = out.winner
        assert d.points[w] == max(d.points) and d.points[w] >= 33
        assert out.payoffs[w] == sum(stake_payment(d.points[p], d.tricks_won[p]) for p in range(3) if p != w)


@given(case=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_no_observation_changes_when_hidden_cards_are_permuted(case, seed):
    game, rules = case
    d = _random_position(game, rules, seed)
    rng = random.Random(seed + 1)
    for p in range(game.n_players):
        views = {name: enc(TableView.of(d, p)) for name, enc in TABLE_ENCODERS.items()}
        for _ in range(3):
            other = d.resample_hidden(p, rng)
            assert other.hands[p] & d.visible_hand(p) == d.visible_hand(p)
            for name, enc in TABLE_ENCODERS.items():
                got = enc(TableView.of(other, p))
                if isinstance(got, dict):
                    assert all(np.array_equal(got[k], views[name][k]) for k in got), f"{name} leaks"
                else:
                    assert np.array_equal(got, views[name]), f"{name} leaks"


@given(case=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_views_sample_deals_consistent_with_them(case, seed):
    game, rules = case
    d = _random_position(game, rules, seed)
    rng = random.Random(seed + 2)
    for p in range(game.n_players):
        view = TableView.of(d, p)
        sampled = view.sample(rng)
        assert np.array_equal(encode_table_vector(TableView.of(sampled, p)), encode_table_vector(view))
        if d.current_player == p:
            assert sampled.legal_mask() == d.legal_mask()
        while sampled.outcome is None:  # and it plays on to the end
            sampled.apply(rng.choice(sampled.legal_actions()))
        assert sum(sampled.outcome.payoffs) == 0


def test_the_leak_test_has_power_the_partner_hand_moves():
    moved = 0
    for seed in range(20):
        d = FourDeal.new("pagat", random.Random(seed))
        other = d.resample_hidden(0, random.Random(seed))
        moved += other.hands[2] != d.hands[2]
        assert other.hands[0] == d.hands[0]
    assert moved >= 15


def test_observation_spaces_contain_the_observations():
    for game, rules in GAMES:
        for seed in range(30):
            d = _random_position(game, rules, seed)
            for name, enc in TABLE_ENCODERS.items():
                space = table_observation_space(name, game.n_players)
                for p in range(game.n_players):
                    assert space.contains(enc(TableView.of(d, p)))
    assert table_vector_size(3) == 318 and table_vector_size(4) == 512


def test_win_loss_is_zero_sum():
    assert win_loss_rewards(3, [1]) == (-0.5, 1.0, -0.5)
    assert win_loss_rewards(4, [0, 2]) == (1.0, -1.0, 1.0, -1.0)
    assert sum(win_loss_rewards(3, [0, 2])) == 0


# ---------------------------------------------------------------------- AEC environments
ENVS = [
    (sixtysix_three_v0, {}),
    (sixtysix_three_v0, {"rules": "marriage", "episode": "match", "observation": "dict"}),
    (sixtysix_three_v0, {"reward": "shaped", "observation": "history"}),
    (sixtysix_four_v0, {}),
    (sixtysix_four_v0, {"rules": "russian", "episode": "match", "reward": "win_loss"}),
    (sixtysix_four_v0, {"rules": FourRules(claiming="explicit"), "observation": "history"}),
    (sixtysix_four_v0, {"rules": "russian", "observation": "dict"}),
    (sixtysix_four_v0, {"rules": RUSSIAN.replace(nines_partner_ask=True, claiming="explicit"), "episode": "match"}),
]


@pytest.mark.parametrize(("module", "kwargs"), ENVS)
def test_pettingzoo_api_seed_and_render_tests(module, kwargs):
    api_test(module.env(**kwargs), num_cycles=300)
    seed_test(lambda: module.env(**kwargs), num_cycles=300)
    render_test(lambda render_mode=None: module.env(render_mode=render_mode, **kwargs))


@pytest.mark.parametrize(("module", "kwargs"), ENVS)
def test_rewards_are_zero_sum_and_partners_share(module, kwargs):
    env = module.env(**kwargs)
    for seed in range(5):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward  # what each agent collects, step by step
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].dtype == np.int8
            for other in env.possible_agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert abs(sum(totals.values())) < 1e-9
        if module is sixtysix_four_v0:
            assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]


def test_observation_shows_only_my_hand_never_the_partner():
    env = sixtysix_four_v0.raw_env()
    env.reset(seed=0, options={"deal": {"hands": FOUR, "dealer": 3}})
    hand = table_layout(4)["hand"].slice
    for p, agent in enumerate(env.possible_agents):
        shown = np.flatnonzero(env.observe(agent)["observation"][hand])
        assert set(shown) == set(parse_cards(FOUR[p]))
    partner = table_layout(4)["known_partner"].slice
    assert not env.observe("player_0")["observation"][partner].any()


def test_reset_from_an_arrangement_and_illegal_actions():
    env = sixtysix_three_v0.raw_env()
    env.reset(seed=0, options={"deal": {"hands": THREE, "dealer": 0}})
    assert env.agent_selection == "player_1"
    mask = env.observe("player_1")["action_mask"]
    assert list(np.flatnonzero(mask)) == list(range(CHOOSE_TRUMP, TRUMP_BY_CARD + 1))
    with pytest.raises(ValueError, match="legal actions are"):
        env.step(0)
    wrapped = sixtysix_three_v0.env()
    wrapped.reset(seed=0, options={"deal": {"hands": THREE, "dealer": 0}})
    wrapped.step(0)  # TerminateIllegalWrapper: the offender loses, the episode ends
    assert wrapped.terminations["player_1"] and wrapped.rewards["player_1"] == -6.0


def test_registered_in_pettingzoo_registry():
    register_envs()
    register_envs()  # idempotent
    three = pettingzoo.make("aec", "sixtysix/sixtysix_three_v0", rules="marriage")
    three.reset(seed=1)
    assert three.unwrapped.rules.name == "marriage" and three.num_agents == 3
    four = pettingzoo.make("aec", "sixtysix/sixtysix_four_v0")
    four.reset(seed=1)
    assert four.num_agents == 4 and four.metadata["name"] == "sixtysix_four_v0"

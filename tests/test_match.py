"""The match loop: targets, who deals next, drawn deals."""

import itertools
import random

import pytest

from sixtysix_env import Deal, Match, get_rules, parse_action

from .test_worked_cases import SCORING


def _play_match(rules, seed):
    rng = random.Random(seed)
    match = Match(rules, rng)
    dealers = [match.deal.dealer]
    while True:
        while match.deal.outcome is None:
            match.apply(rng.choice(match.deal.legal_actions()))
        if match.is_over:
            return match, dealers
        expected = match.next_dealer()
        match.next_deal()
        assert match.deal.dealer == expected
        assert match.deal.scores == tuple(match.scores), "the deal knows the match score"
        dealers.append(match.deal.dealer)


@pytest.mark.parametrize("seed", range(4))
def test_standard_match_to_seven_winner_deals_next(seed):
    match, dealers = _play_match("standard", seed)
    assert max(match.scores) >= 7 > min(match.scores)
    for out, next_dealer in zip(match.results[:-1], dealers[1:], strict=True):
        if out.winner >= 0:
            assert next_dealer == out.winner


def test_schnapsen_dealers_alternate_and_santase_plays_to_eleven():
    match, dealers = _play_match("schnapsen", 1)
    assert all(a != b for a, b in itertools.pairwise(dealers))
    match, _ = _play_match("santase", 1)
    assert max(match.scores) >= 11


def _drawn_match(rules):
    text = SCORING["played_out_65_65"]
    head, _, played = text.rpartition("played=")
    *moves, last = played.split()
    deal = Deal.from_notation(head + "played=" + " ".join(moves), rules=rules)
    match = Match(rules, random.Random(0), first_deal=deal)
    match.apply(parse_action(last))
    assert match.deal.outcome.winner == -1
    return match


def test_drawn_deal_same_dealer_by_default():
    match = _drawn_match(get_rules("standard"))
    assert match.next_dealer() == 0 and match.scores == [0, 0]


def test_drawn_deal_new_dealer_in_russian_rules():
    match = _drawn_match(get_rules("standard").replace(drawn_deal="new_dealer"))
    assert match.next_dealer() == 1


def test_drawn_deal_carry_gives_the_next_winner_a_point():
    match = _drawn_match(get_rules("standard").replace(drawn_deal="carry"))
    assert match.carry == 1
    deal = match.next_deal()
    rng = random.Random(3)
    while deal.outcome is None:
        match.apply(rng.choice(deal.legal_actions()))
    out = deal.outcome
    if out.winner >= 0:
        assert match.scores[out.winner] == out.game_points + 1 and match.carry == 0
    else:
        assert match.carry == 2


def test_match_needs_an_rng_and_refuses_a_deal_after_the_end():
    with pytest.raises(ValueError, match="rng"):
        Match("standard")
    match, _ = _play_match("standard", 2)
    with pytest.raises(ValueError, match="the match is over"):
        match.next_deal()

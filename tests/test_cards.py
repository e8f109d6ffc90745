import pytest

from sixtysix_env.cards import (
    CARD_POINTS,
    Rank,
    Suit,
    card,
    card_str,
    card_symbol,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
)


def test_ids_follow_suit_and_rank_order():
    assert card(Suit.CLUBS, Rank.NINE) == 0
    assert card(Suit.HEARTS, Rank.QUEEN) == 14
    assert card(Suit.DIAMONDS, Rank.ACE) == 23
    assert sum(CARD_POINTS) == 120


@pytest.mark.parametrize("text", ["QH", "qh", "Q♥", "Q♡", " QH "])
def test_parse_queen_of_hearts_in_every_spelling(text):
    assert parse_card(text) == 14


@pytest.mark.parametrize("text", ["TH", "10H", "10♥", "th"])
def test_parse_ten(text):
    assert parse_card(text) == card(Suit.HEARTS, Rank.TEN)


def test_string_forms_round_trip_for_every_card():
    for c in range(24):
        assert parse_card(card_str(c)) == c
        assert parse_card(card_symbol(c)) == c
    assert card_str(16) == "TH" and card_symbol(16) == "10♥"


@pytest.mark.parametrize("bad", ["", "X", "1H", "QX", "QHH", "11S", None, 24, -1, 3.0])
def test_bad_cards_raise_value_error_saying_what_is_allowed(bad):
    with pytest.raises(ValueError) as e:
        parse_card(bad)
    assert "card" in str(e.value)


def test_masks_round_trip():
    ids = parse_cards("9C QH AD")
    assert list(cards_of(mask_of(ids))) == sorted(ids)
    assert parse_cards("9C, QH AD") == ids

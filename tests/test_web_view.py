"""What the page is sent: a seat's view never depends on cards the seat cannot see, tricks and
texts are read from the public history, and the buttons carry the right words."""

from __future__ import annotations

import random

import pytest

from sixtysix_env import CLOSE, EXCHANGE, MARRIAGE, PASS, Deal
from sixtysix_env.cards import mask_of, parse_card, parse_cards
from sixtysix_env.rules import PRESETS
from sixtysix_env.web.view import action_text, button_label, move_text, seat_view, sorted_hand, trick_list

from .conftest import arrange

NAMES = ["You", "bot"]


@pytest.mark.parametrize("rules", list(PRESETS))
def test_the_view_does_not_change_when_hidden_cards_are_dealt_differently(rules):
    rng = random.Random(3)
    for _ in range(30):
        deal = Deal.new(rules, rng, dealer=rng.randrange(2))
        while not deal.is_over:
            view = seat_view(deal.information_state(0), NAMES, you=0)
            other = deal.resample_hidden(0, rng)
            assert seat_view(other.information_state(0), NAMES, you=0) == view
            deal.apply(rng.choice(deal.legal_actions()))


def test_a_hand_is_sorted_trumps_first_then_alternating_colours_high_to_low():
    hand = mask_of(parse_cards("9C AH QS TD KC JH"))
    assert sorted_hand(hand, trump=0) == parse_cards("KC 9C AH JH QS TD")


def test_tricks_are_read_from_the_history_with_winner_and_points():
    deal = arrange("AH KS 9C JD QD TC", "TH 9S AC JS QS KD", trump="9H", dealer=1)
    deal.apply_all("AH TH P KS")  # you lead A♥, the bot plays 10♥: yours; you draw and lead K♠
    done, current = trick_list(deal.history, deal.trump)
    assert [t["winner"] for t in done] == [0] and done[0]["points"] == 21
    assert [c["card"] for c in done[0]["cards"]] == [parse_card("AH"), parse_card("TH")]
    assert current == [{"player": 0, "card": parse_card("KS")}]
    deal.apply(parse_card("AS") if deal.hands[1] >> parse_card("AS") & 1 else parse_card("9S"))
    done, current = trick_list(deal.history, deal.trump)
    assert len(done) == 2 and current == [] and done[1]["winner"] == deal.leader


def test_texts_name_the_move_and_the_trick():
    deal = arrange("AH KS 9C JD QD TC", "TH 9S AC JS QS KD", trump="9H", dealer=1)
    before = deal.information_state(0)
    assert action_text(before, parse_card("AH"), NAMES, you=0) == "You lead A♥"
    deal.apply(parse_card("AH"))
    before = deal.information_state(0)
    deal.apply(parse_card("TH"))
    text = move_text(before, parse_card("TH"), deal.information_state(0), NAMES, you=0)
    assert text == "bot plays 10♥; you take the trick (+21)"


def test_button_labels_say_what_the_move_does():
    deal = arrange("9H KS QS JD QD TC", "TH 9S AC JS AS KD", trump="AH", dealer=1)
    info = deal.information_state(0)
    assert button_label(info, MARRIAGE + 1) == "Declare ♠ marriage (20)"
    assert button_label(info, CLOSE) == "Close the stock"
    assert button_label(info, EXCHANGE) == "Exchange 9♥ for A♥"
    deal.apply_all("QD AC")  # the bot takes the trick: it chooses to draw or close
    bot = deal.information_state(1)
    assert button_label(bot, PASS) == "Draw" and button_label(bot, CLOSE) == "Close before drawing"
    with pytest.raises(ValueError, match="is a card"):
        button_label(info, 3)


def test_only_the_person_on_turn_gets_legal_moves_and_the_replay_view_shows_both_hands():
    deal = arrange("AH KS 9C JD QD TC", "TH 9S AC JS QS KD", trump="9H", dealer=1)
    mine = seat_view(deal.information_state(0), NAMES, you=0)
    assert {a["action"] for a in mine["legal"]} == set(deal.legal_actions())
    assert all(a["kind"] == ("card" if a["action"] < 24 else "button") for a in mine["legal"])
    assert seat_view(deal.information_state(1), NAMES, you=1)["legal"] == []
    replay = seat_view(deal.information_state(0), NAMES, you=None, other_hand=deal.hands[1])
    assert replay["legal"] == [] and sorted(replay["players"][1]["hand"]) == sorted(
        parse_card(c) for c in ["TH", "9S", "AC", "JS", "QS", "KD"]
    )


def test_the_result_sentence_for_each_way_a_deal_ends():
    rng = random.Random(0)
    seen = {}
    for rules in ("standard", "schnapsen"):
        for _ in range(400):
            deal = Deal.new(rules, rng, dealer=rng.randrange(2))
            while not deal.is_over:
                deal.apply(rng.choice(deal.legal_actions()))
            view = seat_view(deal.information_state(0), NAMES, you=0)
            key = (rules, deal.outcome.termination.name)
            seen.setdefault(key, view["outcome"]["text"])
    texts = "\n".join(seen.values())
    assert any(t.startswith(("You went out", "bot went out")) for t in seen.values()), texts
    assert any("closed the stock but did not make 66" in t for t in seen.values()), texts
    assert any("took the last trick" in t for t in seen.values()), texts
    for text in seen.values():
        assert (text.endswith(".") and "game point" in text) or text.startswith("Drawn deal")

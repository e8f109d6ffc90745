"""What the page is sent: a seat's view never depends on cards the seat cannot see, tricks and
texts are read from the public history, and the buttons carry the right words."""

from __future__ import annotations

import random

import pytest

from sixtysix_env import CLOSE, EXCHANGE, MARRIAGE, PASS, Deal
from sixtysix_env.cards import mask_of, parse_card, parse_cards
from sixtysix_env.rules import PRESETS
from sixtysix_env.table import FOUR_PRESETS, THREE_PRESETS, FourDeal, ThreeDeal
from sixtysix_env.web.table import table_view
from sixtysix_env.web.view import log_line, result_line, seat_view, sorted_hand, trick_list

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


@pytest.mark.parametrize(
    ("game", "rules"),
    [(ThreeDeal, n) for n in THREE_PRESETS] + [(FourDeal, n) for n in FOUR_PRESETS],
)
def test_the_table_view_does_not_change_when_hidden_cards_are_dealt_differently(game, rules):
    rng = random.Random(4)
    names = ["You", "a", "b", "c"][: game.n_players]
    for _ in range(15):
        deal = game.new(rules, rng, dealer=rng.randrange(game.n_players))
        while not deal.is_over:
            view = table_view(deal.information_state(0), names, you=0)
            other = deal.resample_hidden(0, rng)
            assert table_view(other.information_state(0), names, you=0) == view
            deal.apply(rng.choice(deal.legal_actions()))


def _schema(state):
    """The keys of a screen's state, with those of its lists' entries and nested objects."""
    out = set(state)
    for key in ("trump", "outcome", "stock"):
        out |= {f"{key}.{k}" for k in state[key] or {}}
    for key in ("players", "sides", "legal"):
        out |= {f"{key}[].{k}" for entry in state[key] for k in entry}
    return out


def test_every_game_sends_the_page_one_schema():
    """The page draws two, three and four players from the same keys, the finished deal too."""
    schemas = []
    for game, rules, view in [
        (Deal, "standard", seat_view),
        (ThreeDeal, "pagat", table_view),
        (FourDeal, "pagat", table_view),
    ]:
        rng = random.Random(5)
        names = ["You", "a", "b", "c"][: game.n_players]
        seen: set[str] = set()
        for _ in range(20):
            deal = game.new(rules, rng)
            while True:
                seen |= _schema(
                    view(deal.information_state(deal.current_player if not deal.is_over else 0), names, you=0)
                )
                if deal.is_over:
                    break
                deal.apply(rng.choice(deal.legal_actions()))
        schemas.append(seen - {k for k in seen if k.startswith("stock.")})
    assert schemas[0] == schemas[1] == schemas[2]
    assert {"outcome.payoffs", "outcome.text", "legal[].action", "players[].hand"} <= schemas[0]


def test_a_hand_is_sorted_trumps_first_then_alternating_colours_high_to_low():
    hand = mask_of(parse_cards("9C AH QS TD KC JH"))
    assert sorted_hand(hand, trump=0) == parse_cards("KC 9C AH JH QS TD")


def test_tricks_are_read_from_the_history_with_winner_and_points():
    deal = arrange("AH KS 9C JD QD TC", "TH 9S AC JS QS KD", trump="9H", dealer=1)
    deal.apply_all("AH TH P KS")  # you lead A♥, the bot plays 10♥: yours; you draw and lead K♠
    done, current = trick_list(deal.information_state(0))
    assert [t["winner"] for t in done] == [0] and done[0]["points"] == 21
    assert [c["card"] for c in done[0]["cards"]] == [parse_card("AH"), parse_card("TH")]
    assert current == [{"player": 0, "card": parse_card("KS")}]
    deal.apply(parse_card("AS") if deal.hands[1] >> parse_card("AS") & 1 else parse_card("9S"))
    done, current = trick_list(deal.information_state(0))
    assert len(done) == 2 and current == [] and done[1]["winner"] == deal.leader


def test_log_lines_name_the_move_and_the_trick():
    deal = arrange("AH KS 9C JD QD TC", "TH 9S AC JS QS KD", trump="9H", dealer=1)
    before = deal.clone()
    deal.apply(parse_card("AH"))
    assert log_line(before, deal, parse_card("AH"), ["you", "bot"]) == "You: lead A♥"
    before = deal.clone()
    deal.apply(parse_card("TH"))
    line = log_line(before, deal, parse_card("TH"), ["you", "bot"])
    assert line == "bot: play 10♥ — trick to you (+21)"
    before = deal.clone()
    deal.apply(PASS)  # you draw
    assert log_line(before, deal, PASS, ["you", "bot"]) == "Both draw, 10 left in the stock"
    before = deal.clone()
    deal.apply(CLOSE)
    assert log_line(before, deal, CLOSE, ["you", "bot"]) == "You: close the stock"


def test_buttons_say_what_the_move_does():
    deal = arrange("9H KS QS JD QD TC", "TH 9S AC JS AS KD", trump="AH", dealer=1)
    labels = {a["action"]: a["label"] for a in seat_view(deal.information_state(0), NAMES, you=0)["legal"]}
    assert labels[MARRIAGE + 1] == "Declare the marriage K♠ Q♠ (20)"
    assert labels[CLOSE] == "Close the stock"
    assert EXCHANGE not in labels  # the nine is exchanged only after a won trick
    deal.apply_all("QD KD")  # the bot takes the trick with K♦: it chooses to draw or close
    bot = {a["action"]: a["label"] for a in seat_view(deal.information_state(1), NAMES, you=1)["legal"]}
    assert bot[PASS].startswith("Draw") and bot[CLOSE] == "Close the stock"


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
            seen.setdefault((rules, deal.outcome.termination.name), result_line(deal, ["you", "bot"]))
    texts = "\n".join(seen.values())
    assert len(seen) >= 5, texts
    for text in seen.values():
        assert text.startswith(("You won", "bot won", "Drawn deal")) and text.endswith("."), text
        assert "game point" in text or "nobody scores" in text, text

"""Encoders: layout, spaces, and no leak of hidden cards (hypothesis)."""

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sixtysix_env import PRESETS, Deal, InfoState, parse_cards
from sixtysix_env.actions import CLOSE
from sixtysix_env.cards import SUIT_MASK, cards_of, mask_of
from sixtysix_env.infostate import closing_exchange_evidence
from sixtysix_env.observers import (
    ENCODERS,
    VECTOR_LAYOUT,
    VECTOR_SIZE,
    decode_vector,
    encode_history,
    encode_vector,
    observation_space,
)

from .conftest import arrange

RULES = [*PRESETS.values(), PRESETS["standard"].replace(claiming="explicit")]


def _random_position(rules, seed: int) -> Deal:
    rng = random.Random(seed)
    deal = Deal.new(rules, rng, dealer=seed & 1)
    stop = rng.randrange(40)
    for _ in range(stop):
        if deal.outcome is not None:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def _equal(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1), player=st.integers(0, 1))
def test_no_encoder_changes_when_hidden_cards_are_permuted(rules, seed, player):
    deal = _random_position(rules, seed)
    rng = random.Random(seed + 1)
    views = {name: enc(InfoState.of(deal, player)) for name, enc in ENCODERS.items()}
    for _ in range(3):
        other = deal.resample_hidden(player, rng)
        # the public facts really are kept: same points, same known cards, same own hand
        assert other.hands[player] == deal.hands[player] and other.known == deal.known
        for name, enc in ENCODERS.items():
            assert _equal(enc(InfoState.of(other, player)), views[name]), f"{name} leaks hidden cards"


def test_the_leak_test_has_power_resampling_moves_hidden_cards():
    moved = 0
    for seed in range(50):
        deal = _random_position(PRESETS["standard"], seed)
        if deal.outcome is None:
            moved += deal.resample_hidden(0, random.Random(seed)).hands[1] != deal.hands[1]
    assert moved > 10


@given(seed=st.integers(0, 2**32 - 1), player=st.integers(0, 1))
def test_sampled_deals_are_consistent_with_the_view(seed, player):
    deal = _random_position(PRESETS["standard"], seed)
    info = InfoState.of(deal, player)
    sampled = info.sample(random.Random(seed))
    assert np.array_equal(encode_vector(InfoState.of(sampled, player)), encode_vector(info))
    if deal.current_player == player:
        assert sampled.legal_mask() == deal.legal_mask()
    assert sampled.hands[1 - player].bit_count() == deal.hands[1 - player].bit_count()
    assert len(sampled.stock) == len(deal.stock) and sampled.stock[:1] == deal.stock[:1]


def test_layout_covers_the_vector_exactly():
    pos = 0
    for part in VECTOR_LAYOUT.values():
        assert part.start == pos
        pos += part.size
    assert pos == VECTOR_SIZE == observation_space("vector").shape[0]


def test_vector_parts_from_a_marriage_and_closing():
    deal = arrange("9H AC JS KS QS TD", "AS KH JC JD QC QD", trump="AH", dealer=1)  # player 0 leads
    deal.apply_all("M1 QS AS P")  # 20 pending; player 1 wins the trick; draws
    info = InfoState.of(deal, 0)
    parts = decode_vector(encode_vector(info))
    hand = set(np.flatnonzero(parts["hand"]).tolist())
    assert hand == {c for c in range(24) if deal.hands[0] >> c & 1} and len(hand) == 6
    assert hand >= set(parse_cards("9H AC JS KS TD")), "the five cards kept plus the one drawn"
    assert set(np.flatnonzero(parts["won_by_opponent"])) == set(parse_cards("QS AS"))
    assert parts["my_pending"][0] == np.float32(20 / 66) and parts["my_points"][0] == 0
    assert parts["opponent_points"][0] == np.float32(14 / 66)
    assert list(np.flatnonzero(parts["my_marriages"])) == [1]
    assert np.flatnonzero(parts["trump_suit"]).tolist() == [2]
    assert parts["trump_card"][parse_cards("AH")[0]] == 1 and parts["stock_bottom"][parse_cards("AH")[0]] == 1
    assert parts["known_opponent"].sum() == 0 and parts["opponent_won_trick"][0] == 1
    known_mine = InfoState.of(deal, 1).known_opponent
    assert known_mine == mask_of(parse_cards("KS")), "the marriage partner is public"


def test_history_lists_public_actions_in_order():
    deal = arrange("9H AC JS KS QS TD", "AS KH JC JD QC QD", trump="AH", dealer=1)
    deal.apply_all("M1 QS AS")
    ev = encode_history(InfoState.of(deal, 1))["events"]
    assert ev[:3, :2].tolist() == [[0, 1], [0, 1], [1, 0]], "player 1 sees: opponent, opponent, me"
    assert [int(np.flatnonzero(row[2:])[0]) for row in ev[:3]] == [25, *parse_cards("QS AS")]
    assert not ev[3:].any()


def test_spaces_contain_the_observations():
    deal = _random_position(PRESETS["schnapsen"], 3)
    for name, enc in ENCODERS.items():
        assert observation_space(name).contains(enc(InfoState.of(deal, 0)))


def _closed_position(rules, seed: int) -> Deal | None:
    """A random deal played at random until a few tricks after somebody closed; None if it ended."""
    rng = random.Random(seed)
    deal = Deal.new(rules, rng, dealer=seed & 1)
    extra = rng.randrange(1, 9)
    while deal.outcome is None and (deal.closed_by < 0 or extra):
        legal = deal.legal_actions()
        if deal.closed_by < 0 and CLOSE in legal and rng.random() < 0.4:
            deal.apply(CLOSE)
            continue
        if deal.closed_by >= 0:
            extra -= 1
        deal.apply(rng.choice(legal))
    return deal if deal.outcome is None and deal.stock else None


def _played_since_closing(history, player: int) -> int:
    """Bitmask of the cards ``player`` has played since the close."""
    closed_at = next(i for i, h in enumerate(history) if h & 31 == CLOSE)
    return sum(1 << (h & 31) for h in history[closed_at:] if h >> 5 == player and h & 31 < 24)


def _play_allows(rules, history, player: int, trump: int, hand: int) -> bool:
    """Whether ``player``, holding ``hand`` now (plus what he played since), could have made each of
    his follows after closing: the engine's follow rule replayed on that hand."""
    cards = [h for h in history if h & 31 < 24]
    closed_at = next(i for i, h in enumerate(history) if h & 31 == CLOSE)
    held = hand | _played_since_closing(history, player)
    played_before = sum(1 for h in history[:closed_at] if h & 31 < 24)
    for i in range(played_before, len(cards) - 1, 2):
        lead, follow = cards[i] & 31, cards[i + 1]
        if follow >> 5 == player:
            same = held & SUIT_MASK[lead // 6]
            if same:
                higher = same & ~((2 << lead) - 1)
                allowed = higher or same if rules.must_win_trick else same
            else:
                allowed = held & SUIT_MASK[trump] or held
            if not allowed >> (follow & 31) & 1:
                return False
        for c in (cards[i], cards[i + 1]):
            if c >> 5 == player:
                held &= ~(1 << (c & 31))
    return True


@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1), player=st.integers(0, 1))
def test_samples_after_closing_give_the_opponent_only_hands_his_play_allows(rules, seed, player):
    """Sound: the true hand is never ruled out, and every sampled hand could have played the
    opponent's follows since closing. Exact: each ruled-out card, added to a hand, breaks one."""
    deal = _closed_position(rules, seed)
    if deal is None:
        return
    info, o = InfoState.of(deal, player), 1 - player
    ruled_out = info.opponent_cannot_hold()
    assert not ruled_out & deal.hands[o] and not ruled_out & ~info.unseen
    assert _play_allows(rules, info.history, o, info.trump, deal.hands[o])
    must_now = info.opponent_must_hold()
    assert must_now & ~deal.hands[o] == 0
    rng = random.Random(seed)
    for sampled in (info.sample(rng), deal.resample_hidden(player, rng)):
        assert not ruled_out & sampled.hands[o] and must_now & ~sampled.hands[o] == 0
        assert sampled.hands[o].bit_count() == deal.hands[o].bit_count()
        assert _play_allows(rules, info.history, o, info.trump, sampled.hands[o])
    cannot, must = closing_exchange_evidence(
        info.history, o, info.exchange_card, rules.exchange_at_closing, info.decision
    )
    # Closing's offer tells what he held then: his hand now plus what he has played since (he may
    # have played the exchange card he kept, so it need not be in his hand now).
    held_at_closing = deal.hands[o] | _played_since_closing(info.history, o)
    assert not cannot & held_at_closing and must & ~held_at_closing == 0
    for c in cards_of(ruled_out & ~cannot):
        assert not _play_allows(rules, info.history, o, info.trump, deal.known[o] | 1 << c)


def test_a_failed_follow_after_closing_rules_out_the_suit_and_the_trumps():
    # standard, player 0 leads and closes; player 1 cannot follow spades and does not trump
    deal = arrange("AS TS KS AH TH KH", "9C JC QC KC TC AC", trump="9D", dealer=1)
    deal.apply_all("C AS 9C")
    info = InfoState.of(deal, 0)
    assert info.opponent_cannot_hold() == info.unseen & (SUIT_MASK[1] | SUIT_MASK[3])  # spades, diamonds
    counts: dict[int, int] = {}
    rng = random.Random(0)
    for _ in range(5600):
        hand = info.sample(rng).hands[1]
        counts[hand] = counts.get(hand, 0) + 1
    left = mask_of(parse_cards("JC QC KC TC AC 9H JH QH"))  # the unseen clubs and hearts
    assert all(hand & ~left == 0 for hand in counts)
    assert len(counts) == 56 and 60 < min(counts.values()) <= max(counts.values()) < 145  # 5 of 8, each ~100
    before = arrange("AS TS KS AH TH KH", "9C JC QC KC TC AC", trump="9D", dealer=1)
    assert InfoState.of(before, 0).opponent_cannot_hold() == 0  # no rule while the stock is open

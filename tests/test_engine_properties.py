"""Invariants over random playouts of every preset (hypothesis chooses the deals and the moves)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix_env import PRESETS, Deal, IllegalActionError, Termination, get_rules
from sixtysix_env.cards import CARD_POINTS, mask_points
from sixtysix_env.engine import MAX_DEAL_ACTIONS

RULES = [*PRESETS.values(), *(r.replace(claiming="explicit") for r in PRESETS.values())]
rules_st = st.sampled_from(RULES)
seeds = st.integers(0, 2**32 - 1)


def _snapshot(d: Deal) -> tuple:
    return (
        tuple(d.hands),
        tuple(d.stock),
        d.current,
        d.decision,
        tuple(d.points),
        tuple(d.pending),
        tuple(d.tricks),
        tuple(d.won_cards),
        tuple(d.known),
        d.lead_card,
        d.closed_by,
        tuple(d.history),
        d.outcome,
    )


def _check_conservation(d: Deal) -> None:
    places = [*d.hands, sum(1 << c for c in d.stock), d.won_cards[0], d.won_cards[1]]
    if d.lead_card >= 0:
        places.append(1 << d.lead_card)
    union = 0
    for m in places:
        assert union & m == 0, "a card is in two places"
        union |= m
    assert union == d.rules.deck_mask, "a card went missing"
    assert len(d.stock) == 0 or d.stock[0] in (d.trump_card, d.exchange_card)


@given(rules=rules_st, seed=seeds)
def test_random_playouts_keep_every_invariant(rules, seed):
    rng = random.Random(seed)
    deal = Deal.new(rules, rng, dealer=seed & 1)
    steps = 0
    while deal.outcome is None:
        _check_conservation(deal)
        legal = deal.legal_actions()
        assert legal, "a running deal always offers an action"
        counted_cards = [mask_points(w) for w in deal.won_cards]
        for p in (0, 1):
            assert deal.points[p] >= counted_cards[p]
        before = _snapshot(deal)
        bad = rng.choice([a for a in range(32) if a not in legal] or [99])
        with pytest.raises(IllegalActionError) as e:
            deal.apply(bad)
        assert str(legal[0]) in str(e.value), "the error names the legal actions"
        assert _snapshot(deal) == before, "an illegal action must not change the deal"
        for a in legal:  # the mask is exactly the set of actions apply accepts
            deal.clone().apply(a)
        deal.apply(rng.choice(legal))
        steps += 1
        assert steps <= MAX_DEAL_ACTIONS
    _check_conservation(deal)
    out = deal.outcome
    if out.winner >= 0:
        assert 1 <= out.game_points <= deal.rules.max_game_points
    assert sum(deal.returns()) == 0


@given(seed=seeds)
def test_played_out_unclosed_deals_total_130_card_points(seed):
    """Explicit claiming where nobody claims (or closes or declares): every deal is played to the end."""
    rng = random.Random(seed)
    rules = get_rules().replace(claiming="explicit")
    deal = Deal.new(rules, rng)
    while deal.outcome is None:
        legal = [a for a in deal.legal_actions() if not 24 <= a <= 27 and a not in (29, 31)]
        deal.apply(rng.choice(legal))
    assert deal.trick_count == 12 and deal.closed_by < 0
    assert sum(CARD_POINTS) == 120 and deal.won_cards[0] | deal.won_cards[1] == (1 << 24) - 1
    assert sum(deal.points) == 120 + 10
    assert deal.outcome.termination in (Termination.PLAYED_OUT, Termination.DRAWN)


@given(seed=seeds)
def test_auto_claiming_played_out_ends_with_66_or_a_65_65_draw(seed):
    rng = random.Random(seed)
    deal = Deal.new("standard", rng)
    while deal.outcome is None:
        deal.apply(rng.choice([a for a in deal.legal_actions() if a != 29]))
    out = deal.outcome
    if out.termination == Termination.DRAWN:
        assert deal.points == [65, 65]
    else:
        assert out.termination == Termination.WENT_OUT and deal.points[out.winner] >= 66


@given(rules=rules_st, seed=seeds, cut=st.integers(0, 30))
def test_clones_are_independent(rules, seed, cut):
    rng = random.Random(seed)
    deal = Deal.new(rules, rng)
    for _ in range(cut):
        if deal.outcome is not None:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    before = _snapshot(deal)
    copy = deal.clone()
    while copy.outcome is None:
        copy.apply(rng.choice(copy.legal_actions()))
    assert _snapshot(deal) == before


@given(rules=rules_st, seed=seeds)
def test_same_seed_same_deal_and_run(rules, seed):
    def run():
        rng = random.Random(seed)
        d = Deal.new(rules, rng)
        while d.outcome is None:
            d.apply(rng.choice(d.legal_actions()))
        return d.to_notation(), d.outcome

    assert run() == run()


@given(rules=rules_st, seed=seeds)
def test_notation_round_trips(rules, seed):
    rng = random.Random(seed)
    d = Deal.new(rules, rng)
    while d.outcome is None and rng.random() < 0.95:
        d.apply(rng.choice(d.legal_actions()))
    again = Deal.from_notation(d.to_notation(), rules=rules)
    assert _snapshot(again) == _snapshot(d)


@pytest.mark.parametrize(
    ("hands", "stock", "fragment"),
    [
        (["9S AC AS QD TC"], "KS QH", "2 hands"),
        (["9S AC AS QD TC", "9C 9D JC JD QC QS"], "KS QH 9H KH JH AH JS AD KD TH TS KC TD", "hand 0 has 5"),
        (["9S AC AS QD TC TD", "9C 9D JC JD QC QS"], "KS QH 9H KH JH AH JS AD KD TH TS", "stock has 11"),
        (["9S AC AS QD TC TD", "9C 9D JC JD QC 9S"], "KS QH 9H KH JH AH JS AD KD TH TS KC", "duplicate card 9S"),
        (["9S AC AS QD TC TD", "9C 9D JC JD QC ZZ"], "KS QH 9H KH JH AH JS AD KD TH TS KC", "unknown card 'ZZ'"),
    ],
)
def test_bad_arrangements_say_what_is_wrong(hands, stock, fragment):
    with pytest.raises(ValueError, match=fragment):
        Deal.from_arrangement(hands, stock, 0)


def test_schnapsen_arrangement_rejects_nines():
    with pytest.raises(ValueError, match="not in the 20-card deck"):
        Deal.from_arrangement(["9S AC AS QD TC", "JC JD QC QS KC"], "KS QH KH JH AH JS AD KD TH TS", 0, "schnapsen")

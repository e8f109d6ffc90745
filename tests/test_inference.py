"""Deals sampled with their past (agents.inference) and what closing reveals about the nine."""

from __future__ import annotations

import importlib.util
import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtysix_env import PRESETS, Deal, InfoState
from sixtysix_env.agents.heuristic import heuristic_deal_action
from sixtysix_env.agents.inference import PastSampler, mismatches, sample_past
from sixtysix_env.agents.pimc import PIMCAgent
from sixtysix_env.cards import parse_cards

from .conftest import arrange

RULES = list(PRESETS.values())


def _view(info: InfoState) -> dict:
    state = info.__getstate__()
    state.pop("_deal_class")
    return state


def _play(rules, seed: int, stop: float) -> Deal:
    """A deal played by the heuristic and at random, stopped at a random decision."""
    rng = random.Random(seed)
    deal = Deal.new(rules, rng, dealer=seed & 1)
    while deal.outcome is None and rng.random() > stop:
        legal = deal.legal_actions()
        deal.apply(heuristic_deal_action(deal) if rng.random() < 0.6 else rng.choice(legal))
    return deal


@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1), stop=st.floats(0.02, 0.3))
def test_a_sampled_past_replays_to_the_players_present(rules, seed, stop):
    """Every card played when its player held it, every draw from the stock's top, the same
    public history: the replay ends in exactly the view the sample was drawn from."""
    deal = _play(rules, seed, stop)
    if deal.outcome is not None:
        return
    rng = random.Random(seed)
    for player in (0, 1):
        info = InfoState.of(deal, player)
        sampler = PastSampler(info, rng)
        for _ in range(3):
            sampled = sampler.sample(rng)
            assert sampled is not None
            mismatches(sampled, info.history, info.opponent, heuristic_deal_action)
            assert _view(InfoState.of(sampled, player)) == _view(info)
        assert _view(InfoState.of(sample_past(info, rng), player)) == _view(info)


@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1))
def test_the_true_past_of_a_heuristic_opponent_has_no_mismatch(rules, seed):
    rng = random.Random(seed)
    deal = Deal.new(rules, rng, dealer=seed & 1)
    while deal.outcome is None:
        legal = deal.legal_actions()
        deal.apply(heuristic_deal_action(deal) if deal.current == 1 else rng.choice(legal))
    replay = Deal.from_arrangement(deal.arrangement[:2], deal.arrangement[2], deal.dealer, rules)
    assert mismatches(replay, tuple(deal.history), 1, heuristic_deal_action) == 0
    assert replay.outcome == deal.outcome  # replayed to the end: the same result


def test_random_choices_are_told_from_the_model():
    """Over a few deals, a player choosing at random departs from the heuristic's choice often."""
    rng = random.Random(3)
    total = 0
    for _ in range(10):
        deal = Deal.new("standard", rng)
        while deal.outcome is None:
            deal.apply(rng.choice(deal.legal_actions()))
        replay = Deal.from_arrangement(deal.arrangement[:2], deal.arrangement[2], deal.dealer, "standard")
        total += mismatches(replay, tuple(deal.history), 0, heuristic_deal_action)
    assert total >= 10


def _draw_position() -> Deal:
    deal = arrange("9C JC QC 9H JH QH", "AS KS TS 9D JD QD", trump="AD", dealer=0)
    deal.apply_all("AS 9C P KS JC P")
    return deal


def test_the_sampled_past_is_uniform() -> None:
    """Player 1 led AS, then KS after his first draw: KS was one of the six cards he could hold
    by then (five dealt, one drawn), so it was that draw in one past of six; AS, led before any
    draw, was always dealt to him."""
    deal = _draw_position()
    info = InfoState.of(deal, 0)
    rng = random.Random(0)
    sampler = PastSampler(info, rng)
    n = 6000
    first_draw_ks = 0
    for _ in range(n):
        sampled = sampler.sample(rng)
        assert sampled is not None
        hands1, stock = sampled.arrangement[1], sampled.arrangement[2]
        assert parse_cards("AS")[0] in hands1
        first_draw_ks += stock[0] == parse_cards("KS")[0]  # he won the trick: he drew the top card
    assert 0.14 < first_draw_ks / n < 0.195  # 1/6


def test_no_exchange_offered_at_my_closing_means_the_opponent_lacks_the_nine() -> None:
    nine = parse_cards("9D")[0]
    deal = arrange("AS TS KS AH TH KH", "9C JC QC KC TC AC", trump="KD", dealer=1)
    deal.apply_all("C")
    info = InfoState.of(deal, 0)
    assert info.opponent_cannot_hold() >> nine & 1 and not info.opponent_must_hold()
    rng = random.Random(0)
    for _ in range(200):
        assert not info.sample(rng).hands[1] >> nine & 1
        assert not deal.resample_hidden(0, rng).hands[1] >> nine & 1


def test_an_exchange_declined_at_my_closing_means_the_opponent_keeps_the_nine() -> None:
    nine = parse_cards("9D")[0]
    deal = arrange("AS TS KS AH TH KH", "9D JC QC KC TC AC", trump="KD", dealer=1)
    deal.apply_all("C")
    assert InfoState.of(deal, 0).opponent_must_hold() == 1 << nine  # offered, not answered yet
    deal.apply_all("P")
    info = InfoState.of(deal, 0)
    assert info.opponent_must_hold() == 1 << nine and not info.opponent_cannot_hold() >> nine & 1
    rng = random.Random(0)
    for _ in range(200):
        assert info.sample(rng).hands[1] >> nine & 1
        assert deal.resample_hidden(0, rng).hands[1] >> nine & 1


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="needs the fast extra")
def test_pimc_with_a_model_plays_legally_and_reproducibly() -> None:
    agent = PIMCAgent(samples=30, solver="fast", model="heuristic", miss=0.3)
    for seed in range(4):
        deal = Deal.new("standard", random.Random(seed), dealer=seed & 1)
        while deal.outcome is None:
            info = InfoState.of(deal, deal.current)
            if deal.current == 0:
                action = agent.act(info, random.Random(seed))
                assert action == agent.act(info, random.Random(seed))
            else:
                action = heuristic_deal_action(deal)
            assert action in deal.legal_actions()
            deal.apply(action)


def test_pimc_refuses_an_unknown_model() -> None:
    with pytest.raises(ValueError, match="model"):
        PIMCAgent(model="oracle")
    with pytest.raises(ValueError, match="miss"):
        PIMCAgent(model="heuristic", miss=1.5)


def test_when_no_past_fits_pimc_falls_back_to_plain_samples_within_its_time(monkeypatch) -> None:
    """The guard's plain samples are drawn as they are valued, so a time budget still stops them
    (a list of the million samples a time budget allows took seconds)."""
    monkeypatch.setattr(PastSampler, "sample", lambda self, rng: None)
    deal = Deal.new("standard", random.Random(5))
    deal.apply(heuristic_deal_action(deal))  # the stock open, cards unseen, a choice to make
    info = InfoState.of(deal, deal.current)
    assert info.unseen and len(info.legal_actions()) > 1
    agent = PIMCAgent(time_ms=20, model="heuristic")
    start = time.perf_counter()
    assert agent.act(info, random.Random(0)) in deal.legal_actions()
    assert time.perf_counter() - start < 2.0

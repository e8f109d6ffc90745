"""Deal and TableDeal share one API (``deal_types.DealLike``): same names for the same things."""

import random

import pytest

from sixtysix_env.deal_types import DealLike, OutcomeLike
from sixtysix_env.engine import Deal
from sixtysix_env.rules import PRESETS
from sixtysix_env.table import FOUR_PRESETS, THREE_PRESETS, FourDeal, ThreeDeal

GAMES = [
    *((Deal, name) for name in PRESETS),
    *((ThreeDeal, name) for name in THREE_PRESETS),
    *((FourDeal, name) for name in FOUR_PRESETS),
]


def _play_out(deal: DealLike, rng: random.Random) -> list[DealLike]:
    """Every position of one deal, driven through the protocol only."""
    seen = [deal.clone()]
    while not deal.is_over:
        actions = deal.legal_actions()
        assert actions == [a for a in range(64) if deal.legal_mask() >> a & 1]
        assert len(deal.legal_labels()) == len(actions)
        assert all(deal.is_legal(a) for a in actions)
        assert deal.current_player == deal.current
        deal.apply(rng.choice(actions))
        seen.append(deal.clone())
    return seen


@pytest.mark.parametrize(("cls", "rules"), GAMES)
def test_each_deal_class_satisfies_the_protocol(cls, rules):
    deal = cls.new(rules, random.Random(1))
    assert isinstance(deal, DealLike)
    assert deal.n_players == len(deal.hands)
    assert len(deal.points) == deal.n_sides == len(deal.scores)
    assert {deal.side_of(p) for p in range(deal.n_players)} == set(range(deal.n_sides))


@pytest.mark.parametrize(("cls", "rules"), GAMES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_deal_played_through_the_protocol_scores_and_reads_back(cls, rules, seed):
    rng = random.Random(seed)
    deal = cls.new(rules, rng, dealer=seed % cls.n_players)
    positions = _play_out(deal, rng)
    assert deal.current_player == -1 and deal.legal_actions() == []
    assert isinstance(deal.outcome, OutcomeLike)
    assert deal.returns() == tuple(deal.outcome.payoffs)
    assert sum(deal.returns()) == 0
    assert len(deal.trick) <= deal.n_players
    again = type(deal).from_notation(deal.to_notation())
    assert again.history == deal.history and again.hands == deal.hands and again.outcome == deal.outcome
    start = positions[0]
    assert start.history == [] and start.outcome is None  # clones are independent of the deal played on


def test_the_two_player_trick_is_the_card_led():
    deal = Deal.new("standard", random.Random(3))
    assert deal.trick == []
    lead = next(a for a in deal.legal_actions() if a < 24)
    deal.apply(lead)
    assert deal.trick == [lead] and deal.tricks_won == deal.tricks == [0, 0]


SHARED = [
    "current_player",
    "is_over",
    "legal_mask",
    "legal_actions",
    "is_legal",
    "legal_labels",
    "apply",
    "apply_all",
    "clone",
    "information_state",
    "resample_hidden",
    "outcome",
    "returns",
    "to_notation",
    "from_notation",
    "from_arrangement",
    "history",
    "rules",
    "dealer",
    "trump",
    "hands",
    "points",
    "scores",
    "n_players",
    "n_sides",
    "side_of",
    "trick",
    "tricks_won",
    "counted_points",
    "describe",
]


@pytest.mark.parametrize("name", SHARED)
@pytest.mark.parametrize("cls", [Deal, ThreeDeal, FourDeal])
def test_every_deal_class_has_the_shared_names(cls, name):
    assert hasattr(cls, name)


def test_an_object_lacking_a_member_is_not_a_deal():
    class Almost:
        pass

    deal = Deal.new("standard", random.Random(0))
    for name in ("current_player", "legal_mask", "apply", "clone", "returns", "to_notation"):
        setattr(Almost, name, getattr(Deal, name))
    assert isinstance(deal, DealLike)
    assert not isinstance(Almost(), DealLike)

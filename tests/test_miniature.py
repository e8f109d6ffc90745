"""The miniature preset and its exact solution (sixtysix_env.exploitability.exact and .cfr).

The best response is checked three ways: against brute force over every pure strategy (Kuhn
poker), against OpenSpiel's ``exploitability`` (Kuhn and Leduc poker, uniform and CFR+ policies),
and on single miniature deals, where an information set holds one history, against the
independent full-information response to the heuristic (``agents.response``).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from sixtysix_env import Deal
from sixtysix_env.agents import HeuristicAgent, make_agent
from sixtysix_env.agents.response import response_value
from sixtysix_env.cards import Rank, cards_of, parse_card
from sixtysix_env.exploitability.cfr import cfr_plus, policy_to_pyspiel, tree_from_pyspiel
from sixtysix_env.exploitability.exact import (
    agent_policy,
    all_deals,
    best_response,
    build_tree,
    expected_value,
    exploitability,
    uniform_policy,
)
from sixtysix_env.rules import PRESETS, STUDY_PRESETS, Rules, get_rules

MINI = get_rules("miniature")


def _some_deals(trump: str = "AS", down: str | None = "QC") -> list[tuple[tuple[int, ...], ...]]:
    """The deals with a given face-up card and face-down card (20: the hands vary), or with only the
    face-up card given (140: nobody knows the other's hand)."""
    t = parse_card(trump)
    return [d for d in all_deals(MINI) if d[2][1] == t and (down is None or d[2][0] == parse_card(down))]


# ---------------------------------------------------------------------- the preset
def test_the_miniature_is_standard_on_eight_cards():
    assert MINI.deck_size == 8 and MINI.hand_size == 3 and MINI.stock_size == 2
    assert set(MINI.differences()) == {"deck_size", "exchange_rank"}
    assert MINI.exchange_rank == Rank.QUEEN
    assert [c % 6 for c in cards_of(MINI.deck_mask)] == [2, 3, 4, 5] * 2  # Q K 10 A of two suits
    assert "miniature" in STUDY_PRESETS and "miniature" not in PRESETS
    derived = MINI.replace(must_win_trick=False)
    assert derived.name == "miniature(must_win_trick=False)" and get_rules(derived.notation()) == derived
    assert len(all_deals(MINI)) == 8 * 7 * 6 * 5 * 4 * 3 * 2 // 36  # hands are sets, the stock is ordered


def test_the_other_deck_sizes_keep_their_decks():
    assert get_rules("standard").deck_mask == (1 << 24) - 1 and get_rules("standard").hand_size == 6
    assert get_rules("schnapsen").deck_mask.bit_count() == 20 and get_rules("schnapsen").hand_size == 5


def test_bad_miniature_rules_say_what_is_allowed():
    with pytest.raises(ValueError, match="choose 24 or 20"):
        Rules(deck_size=12)
    with pytest.raises(ValueError, match=r"use Rank\.QUEEN"):
        Rules(deck_size=8)  # the nine of the standard exchange is not in the deck


def test_a_miniature_deal_plays_to_the_end():
    rng = random.Random(3)
    for _ in range(30):
        deal = Deal.new("miniature", rng)
        while deal.outcome is None:
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.outcome.game_points in (0, 1, 2, 3)


# ---------------------------------------------------------------------- best response
def test_best_response_equals_brute_force_over_pure_strategies_on_kuhn():
    import pyspiel

    game = pyspiel.load_game("kuhn_poker")
    tree = tree_from_pyspiel(game)
    rng = np.random.default_rng(0)
    sigma = rng.random(tree.n_sa)  # a random mixed policy for the opponent
    sigma /= np.bincount(tree.sa_infoset, sigma)[tree.sa_infoset]
    for player in (0, 1):
        mine = np.flatnonzero(tree.infoset_player == player)
        best = -np.inf
        for choice in itertools.product(range(2), repeat=len(mine)):
            pure = sigma.copy()
            for i, c in zip(mine, choice, strict=True):
                first = tree.infoset_first_sa[i]
                pure[first : first + 2] = [1.0 - c, float(c)]
            v = expected_value(tree, pure, pure)
            best = max(best, v if player == 0 else -v)
        assert best_response(tree, sigma, player).value == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_exploitability_equals_openspiel(name):
    import pyspiel
    from open_spiel.python.algorithms import exploitability as os_exploitability

    game = pyspiel.load_game(name)
    tree = tree_from_pyspiel(game)
    for sigma in (uniform_policy(tree), cfr_plus(tree, 30).policy):
        ours = exploitability(tree, sigma)[0]
        assert ours == pytest.approx(os_exploitability.exploitability(game, policy_to_pyspiel(tree, sigma, game)))


def test_cfr_plus_matches_openspiel_on_kuhn():
    import pyspiel
    from open_spiel.python.algorithms import cfr
    from open_spiel.python.algorithms import exploitability as os_exploitability

    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.CFRPlusSolver(game)
    for _ in range(50):
        solver.evaluate_and_update_policy()
    tree = tree_from_pyspiel(game)
    ours = exploitability(tree, cfr_plus(tree, 50).policy)[0]
    assert ours == pytest.approx(os_exploitability.exploitability(game, solver.average_policy()), abs=1e-9)


@pytest.mark.parametrize("index", [0, 7, 13])
def test_on_one_deal_the_best_response_is_the_full_information_response(index):
    deal = _some_deals()[index]
    tree = build_tree(MINI, deals=[deal])
    sigma = agent_policy(tree, HeuristicAgent()).sigma
    for player in (0, 1):
        start = Deal.from_arrangement([list(deal[0]), list(deal[1])], list(deal[2]), 0, MINI)
        assert best_response(tree, sigma, player).value == response_value(start, player)


def test_hidden_cards_make_the_best_response_no_better_than_seeing_them():
    deals = _some_deals(down=None)
    tree = build_tree(MINI, deals=deals)
    sigma = agent_policy(tree, HeuristicAgent()).sigma
    for player in (0, 1):
        br = best_response(tree, sigma, player)
        seeing = np.mean(
            [response_value(Deal.from_arrangement([list(a), list(b)], list(s), 0, MINI), player) for a, b, s in deals]
        )
        own = expected_value(tree, sigma, sigma) * (1 if player == 0 else -1)
        assert own <= br.value <= seeing + 1e-12
        assert br.value < seeing  # on these deals, not knowing the opponent's hand costs the responder
        # the responder's policy is a policy: playing it gets exactly its value
        played = expected_value(tree, br.policy, sigma) if player == 0 else -expected_value(tree, sigma, br.policy)
        assert played == pytest.approx(br.value, abs=1e-12)


def test_the_random_agent_asked_is_uniform_and_sampling_agents_mix():
    tree = build_tree(MINI, deals=_some_deals()[:4])
    uniform = agent_policy(
        tree, make_agent("random"), exact=lambda info: {a: 1 / len(info.legal_actions()) for a in info.legal_actions()}
    )
    asked = np.isin(tree.sa_infoset, np.flatnonzero(tree.infoset_n_actions > 1))
    assert np.allclose(uniform.sigma[asked], uniform_policy(tree)[asked])
    once = agent_policy(tree, make_agent("random"), queries=1, seed=1).sigma
    assert set(np.unique(once)) <= {0.0, 1.0}  # one question: a pure policy
    many = agent_policy(tree, make_agent("random"), queries=6, seed=1).sigma
    assert ((many > 0) & (many < 1)).any()


# ---------------------------------------------------------------------- CFR+
def test_cfr_plus_exploitability_falls_on_the_miniature():
    tree = build_tree(MINI, deals=_some_deals(down=None))
    result = cfr_plus(tree, 40, (1, 5, 20, 40))
    values = [e for _, e, _ in result.curve]
    assert [t for t, _, _ in result.curve] == [1, 5, 20, 40]
    assert all(b < a for a, b in itertools.pairwise(values)), values
    assert values[-1] < 0.05 * values[0]
    assert values[-1] == pytest.approx(exploitability(tree, result.policy)[0])

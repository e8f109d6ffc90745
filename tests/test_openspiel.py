"""The OpenSpiel game python_sixtysix passes OpenSpiel's checks; its ISMCTS bot plays as our agent."""

import random

import numpy as np
import pyspiel
import pytest

from sixtysix_env.engine import Deal
from sixtysix_env.infostate import InfoState
from sixtysix_env.integrations.openspiel import GAME_NAME, INFO_STATE_SIZE, ISMCTSAgent
from sixtysix_env.observers import VECTOR_SIZE, encode_vector


@pytest.mark.parametrize("rules", ["standard", "schnapsen"])
def test_random_simulation_test_with_serialization(rules):
    game = pyspiel.load_game(GAME_NAME, {"rules": rules})
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def _play_to_first_decision(game, seed):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def test_chance_nodes_deal_the_engines_deal_and_tensors_are_the_envs():
    game = pyspiel.load_game(GAME_NAME, {"rules": "schnapsen"})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state = _play_to_first_decision(game, 0)
    assert len(state.history()) == 1 + 20 and isinstance(state.deal, Deal)
    p = state.current_player()
    assert state.legal_actions() == state.deal.legal_actions()
    assert np.array_equal(state.observation_tensor(p), encode_vector(InfoState.of(state.deal, p)))
    assert len(state.information_state_tensor(p)) == INFO_STATE_SIZE > VECTOR_SIZE
    assert game.max_utility() == 3.0 and game.min_utility() == -3.0


def test_bad_rules_parameter_names_the_presets():
    with pytest.raises(ValueError, match=r"rules=.poker. is not a preset: choose one of"):
        pyspiel.load_game(GAME_NAME, {"rules": "poker"})


def test_resampled_states_keep_the_players_information_state():
    game = pyspiel.load_game(GAME_NAME)
    state = _play_to_first_decision(game, 3)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(p, sampler) for _ in range(5)]
    assert all(w.information_state_string(p) == state.information_state_string(p) for w in worlds)
    assert len({str(w) for w in worlds}) > 1  # the hidden cards differ
    assert str(state) == state.deal.to_notation()  # the original is untouched


def test_ismcts_agent_plays_legal_actions_reproducibly():
    agent = ISMCTSAgent(simulations=10)
    deal = Deal.new("standard", random.Random(0), dealer=0)
    info = InfoState.of(deal, deal.current_player)
    first = agent.act(info, random.Random(5))
    assert first in info.legal_actions() and agent.act(info, random.Random(5)) == first

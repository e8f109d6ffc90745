"""The PettingZoo AEC environment: official checks, options, rewards, illegal moves, seeding."""

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from sixtysix_env import parse_cards, sixtysix_v0
from sixtysix_env.envs.gym_env import SixtySixEnv
from sixtysix_env.envs.sixtysix_v0 import STATE_SIZE
from sixtysix_env.observers import VECTOR_LAYOUT

ARRANGEMENT = {
    "hands": [["9S", "AC", "AS", "QD", "10C", "TD"], ["9C", "9D", "JC", "JD", "QC", "Q♠"]],
    "stock": "KS QH 9H KH JH AH JS AD KD TH TS KC",
    "dealer": 0,
}


def _play(env, seed=0, pick=lambda legal, rng: rng.choice(legal)):
    """Drive an AEC env with random legal actions; returns the actions and the final rewards."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    actions, finals = [], {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            finals[agent] = reward
            env.step(None)
            continue
        a = int(pick(np.flatnonzero(obs["action_mask"]), rng))
        actions.append(a)
        env.step(a)
    return actions, finals


@pytest.mark.parametrize("episode", ["deal", "match"])
@pytest.mark.parametrize("observation", ["vector", "dict", "history"])
def test_pettingzoo_api_and_seed_tests(episode, observation):
    api_test(sixtysix_v0.env(episode=episode, observation=observation), num_cycles=400)
    seed_test(lambda: sixtysix_v0.env(episode=episode, observation=observation), num_cycles=400)


@pytest.mark.parametrize("episode", ["deal", "match"])
def test_pettingzoo_render_test(episode):
    render_test(lambda render_mode=None: sixtysix_v0.env(episode=episode, render_mode=render_mode))


@pytest.mark.parametrize("claiming", ["auto", "explicit"])
@pytest.mark.parametrize("reward", ["game_points", "win_loss", "shaped"])
def test_api_with_every_reward_and_claiming(reward, claiming):
    api_test(sixtysix_v0.env(reward=reward, claiming=claiming), num_cycles=200)


def test_metadata_agents_and_cached_spaces():
    env = sixtysix_v0.env()
    env.reset(seed=1)
    assert env.metadata["name"] == "sixtysix_v0"
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_1") is env.action_space("player_1")
    assert env.action_space("player_0").n == 32
    assert env.observation_space("player_0")["action_mask"].dtype == np.int8


def test_registered_in_pettingzoo_registry():
    env = pettingzoo.make("aec", "sixtysix/sixtysix_v0", rules="russian")
    env.reset(seed=3)
    assert env.unwrapped.rules.name == "russian"


def test_reset_from_an_arrangement_and_state_is_full_information():
    env = sixtysix_v0.raw_env()
    env.reset(seed=0, options={"deal": ARRANGEMENT})
    assert env.agent_selection == "player_1"  # the non-dealer leads
    obs = env.observe("player_1")
    hand = VECTOR_LAYOUT["hand"].slice
    assert set(np.flatnonzero(obs["observation"][hand])) == set(parse_cards("9C 9D JC JD QC QS"))
    assert obs["action_mask"].sum() == 7 and not env.observe("player_0")["action_mask"].any()
    state = env.state()
    assert state.shape == (STATE_SIZE,) and env.state_space.contains(state)
    opp_hand = state[len(obs["observation"]) : len(obs["observation"]) + 24]
    assert set(np.flatnonzero(opp_hand)) == set(parse_cards("9C 9D JC JD QC QS"))
    assert state[len(obs["observation"]) + 24 :].sum() == 12  # every stock slot


def test_same_seed_same_deals_observations_and_results():
    runs = [_play(sixtysix_v0.env(episode="match"), seed=7) for _ in range(2)]
    assert runs[0] == runs[1]
    assert _play(sixtysix_v0.env(episode="match"), seed=8) != runs[0]


@pytest.mark.parametrize("seed", range(5))
def test_deal_rewards_are_zero_sum_game_points(seed):
    env = sixtysix_v0.env()
    _, finals = _play(env, seed)
    out = env.unwrapped.deal.outcome
    assert finals["player_0"] == -finals["player_1"]
    if out.winner >= 0:
        assert finals[f"player_{out.winner}"] == out.game_points
    else:
        assert finals == {"player_0": 0.0, "player_1": 0.0}


def test_match_episode_ends_at_seven_with_the_winner_dealing_next():
    env = sixtysix_v0.env(episode="match")
    _, finals = _play(env, seed=11)
    match = env.unwrapped.match
    assert max(match.scores) >= 7 and match.is_over
    assert sum(out.game_points for out in match.results if out.winner == match.winner) == match.scores[match.winner]
    winner = f"player_{match.winner}"
    assert finals[winner] > 0 and finals[winner] == -finals[f"player_{1 - match.winner}"]


def test_win_loss_match_rewards_only_the_match():
    env = sixtysix_v0.env(episode="match", reward="win_loss")
    _, finals = _play(env, seed=5)
    assert sorted(finals.values()) == [-1.0, 1.0]


def test_shaped_rewards_add_small_trick_terms():
    env = sixtysix_v0.raw_env(reward="shaped", shaping_scale=0.01)
    env.reset(seed=0, options={"deal": ARRANGEMENT})
    env.step(parse_cards("JD")[0])
    env.step(parse_cards("AS")[0])  # a spade does not beat the diamond led: player 1 wins 2 + 11
    assert env.rewards == {"player_0": pytest.approx(-0.13), "player_1": pytest.approx(0.13)}


def test_raw_env_illegal_action_names_legal_ones_and_changes_nothing():
    env = sixtysix_v0.raw_env()
    env.reset(seed=0, options={"deal": ARRANGEMENT})
    before = env.observe("player_1")
    with pytest.raises(ValueError, match=r"illegal action 28 .*legal actions are 0 \(9C\)"):
        env.step(28)
    after = env.observe("player_1")
    assert np.array_equal(before["observation"], after["observation"]) and env.agent_selection == "player_1"


def test_wrapped_env_ends_the_episode_on_an_illegal_action():
    env = sixtysix_v0.env()
    env.reset(seed=0, options={"deal": ARRANGEMENT})
    env.step(28)  # no trick won yet: the exchange is illegal
    assert all(env.terminations.values())
    assert env.rewards["player_1"] == -3.0


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"rules": "bridge"}, "unknown rules"),
        ({"observation": "pixels"}, "'vector', 'dict', 'history'"),
        ({"reward": "money"}, "game_points, win_loss, shaped"),
        ({"episode": "season"}, "'deal', 'match'"),
        ({"claiming": "maybe"}, "'auto', 'explicit'"),
        ({"render_mode": "video"}, "'ansi', 'human', 'rgb_array'"),
    ],
)
def test_bad_options_are_rejected_naming_the_choices(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        sixtysix_v0.raw_env(**kwargs)


@pytest.mark.parametrize("make", [sixtysix_v0.raw_env, lambda: SixtySixEnv(opponent="random")], ids=["aec", "gym"])
def test_bad_arrangement_in_reset_options(make):
    env = make()
    with pytest.raises(ValueError, match="duplicate card"):
        env.reset(options={"deal": {**ARRANGEMENT, "stock": "KS QH 9H KH JH AH JS AD KD TH TS 9S"}})
    with pytest.raises(ValueError, match="unknown keys"):
        env.reset(options={"deal": {**ARRANGEMENT, "trump": "KC"}})


def test_ansi_render_shows_suit_symbols():
    env = sixtysix_v0.env(render_mode="ansi")
    env.reset(seed=0, options={"deal": ARRANGEMENT})
    text = env.render()
    assert "trump K♣" in text and "player_1 to lead" in text and "10♣" in text


def test_human_render_prints_every_step(capsys):
    env = sixtysix_v0.env(render_mode="human")
    env.reset(seed=0, options={"deal": ARRANGEMENT})
    env.step(parse_cards("JD")[0])
    out = capsys.readouterr().out
    assert "player_1: play J♦" in out and "on the table: J♦" in out

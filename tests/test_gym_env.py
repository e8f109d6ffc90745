"""The single-agent Gymnasium environment SixtySix-v0."""

import random

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sixtysix_env import InfoState
from sixtysix_env.envs.gym_env import SixtySixEnv


def first_legal(info: InfoState, rng: random.Random) -> int:
    return info.legal_actions()[0]


def _episode(env, seed, pick=None):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    trace = [obs.copy() if isinstance(obs, np.ndarray) else obs]
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
        action = int(rng.choice(legal)) if pick is None else pick(legal)
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
        trace.append(obs)
    return total, steps, info, trace


@pytest.mark.parametrize("observation", ["vector", "dict", "history"])
@pytest.mark.parametrize("episode", ["deal", "match"])
def test_gymnasium_env_checker(observation, episode):
    env = gym.make("SixtySix-v0", opponent=first_legal, observation=observation, episode=episode)
    check_env(env.unwrapped, skip_render_check=True)


def test_stable_baselines3_env_checker():
    sb3_check = pytest.importorskip("stable_baselines3.common.env_checker").check_env
    sb3_check(SixtySixEnv(opponent=first_legal), warn=True)


def test_make_uses_registered_defaults_and_agent_names():
    env = gym.make("SixtySix-v0", opponent="random", rules="santase")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["action_mask"].dtype == np.int8
    assert env.unwrapped.rules.name == "santase" and env.unwrapped.opponent_name == "random"


@pytest.mark.parametrize("seed", range(6))
def test_deal_rewards_match_the_outcome_for_the_learner(seed):
    env = SixtySixEnv(opponent=first_legal)
    total, _, info, _ = _episode(env, seed)
    winner, points = info["winner"], info["game_points"]
    expected = 0 if winner < 0 else (points if winner == env.seat else -points)
    assert total == expected


def test_match_episode_and_win_loss():
    env = SixtySixEnv(opponent="random", episode="match", reward="win_loss")
    total, steps, info, _ = _episode(env, 3)
    assert total in (-1.0, 1.0) and max(info["scores"]) >= 7 and steps > 10


def test_seat_option_and_random_seats():
    seats = set()
    env = SixtySixEnv(opponent=first_legal)
    for s in range(12):
        env.reset(seed=s)
        seats.add(env.seat)
        assert env.deal.current_player == env.seat, "reset returns at the learner's decision"
    assert seats == {0, 1}
    fixed = SixtySixEnv(opponent=first_legal, seat=1)
    fixed.reset(seed=0)
    assert fixed.seat == 1


def test_same_seed_same_episode():
    a = _episode(SixtySixEnv(opponent="random", episode="match"), 5)
    b = _episode(SixtySixEnv(opponent="random", episode="match"), 5)
    assert a[0] == b[0] and a[1] == b[1] and all(np.array_equal(x, y) for x, y in zip(a[3], b[3], strict=True))


def test_illegal_action_terminates_with_penalty_or_raises():
    env = SixtySixEnv(opponent=first_legal)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.deal.to_notation()
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-3.0, True, False, True)
    assert env.deal.to_notation() == before and np.array_equal(obs, obs2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    strict = SixtySixEnv(opponent=first_legal, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="legal actions are"):
        strict.step(illegal)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"opponent": 42}, "agent name"),
        ({"seat": 2}, "'random', 0, 1"),
        ({"observation": "image"}, "'vector', 'dict', 'history'"),
        ({"illegal_action": "ignore"}, "'terminate', 'raise'"),
        ({"episode": "tournament"}, "'deal', 'match'"),
    ],
)
def test_bad_options(kwargs, fragment):
    kwargs = {"opponent": first_legal, **kwargs}
    with pytest.raises(ValueError, match=fragment):
        SixtySixEnv(**kwargs)


def test_reset_from_arrangement_and_ansi_render():
    env = SixtySixEnv(opponent=first_legal, seat=1, render_mode="ansi")
    deal = {"hands": ["9S AC AS QD TC TD", "9C 9D JC JD QC QS"], "stock": "KS QH 9H KH JH AH JS AD KD TH TS KC"}
    obs, info = env.reset(seed=0, options={"deal": deal})
    assert env.observation_space.contains(obs)
    assert info["action_mask"].sum() == 7  # the non-dealer (seat 1) leads: six cards or close
    assert "trump K♣" in env.render()


def test_maskable_ppo_trains_saves_loads_and_predicts_legal_actions(tmp_path):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = SixtySixEnv(opponent="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=128)
    path = tmp_path / "ppo.zip"
    model.save(path)
    loaded = sb3_contrib.MaskablePPO.load(path, device="cpu")
    obs, info = env.reset(seed=1)
    for _ in range(20):
        action, _ = loaded.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert info["action_mask"][int(action)] == 1
        obs, _, done, _, info = env.step(int(action))
        if done:
            obs, info = env.reset()


def test_action_masks_work_on_the_env_gym_make_returns():
    """The docs' ``env.action_masks()`` on ``gym.make("SixtySix-v0")``: Gymnasium 1.x wrappers
    forward no attributes, so the registered env must come back unwrapped; through a wrapper the
    user adds, ``get_wrapper_attr`` (what MaskablePPO calls) finds it."""
    env = gym.make("SixtySix-v0", opponent="heuristic")
    _, info = env.reset(seed=3)
    masks = env.action_masks()
    assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))
    with pytest.raises(RuntimeError, match="reset"):  # the env enforces the call order itself
        gym.make("SixtySix-v0").step(0)
    for wrapped in (
        gym.make("SixtySix-v0", disable_env_checker=False),
        gym.wrappers.RecordEpisodeStatistics(gym.make("SixtySix-v0")),
    ):
        _, info = wrapped.reset(seed=3)
        assert np.array_equal(wrapped.get_wrapper_attr("action_masks")(), info["action_mask"].astype(bool))


def test_maskable_ppo_finds_the_masks_of_the_gym_make_env():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = gym.make("SixtySix-v0", opponent="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    vec = model.get_env()
    assert is_masking_supported(vec)
    model.learn(total_timesteps=64)
    obs = vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (1, 32) and masks.dtype == bool and masks.any()
    action, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[0, int(action[0])]


# ---------------------------------------------------------------- the opponent as an agent spec
def test_make_takes_an_agent_spec_as_the_opponent_and_plays_an_episode():
    env = gym.make("SixtySix-v0", opponent="pimc:samples=4")
    assert env.unwrapped.opponent_name == "pimc:samples=4"
    assert env.unwrapped._opponent.__self__.samples == 4  # the option reached the agent
    total, steps, info, _ = _episode(env, 2)
    assert steps > 0 and info["winner"] in (-1, 0, 1) and total in (-3, -2, -1, 0, 1, 2, 3)


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        (
            "nosuchbot",
            r"opponent='nosuchbot' is not allowed: unknown agent 'nosuchbot'.*choose one of random, heuristic",
        ),
        ("pimc:bogus=1", r"opponent='pimc:bogus=1' is not allowed: bad options for agent 'pimc'.*bogus"),
        ("pimc:samples", r"opponent='pimc:samples' is not allowed: bad agent option 'samples'.*name:key=value"),
        ("", r"opponent='' is not allowed: agent spec must be a non-empty string"),
    ],
)
def test_a_bad_opponent_spec_is_a_clear_value_error(spec, fragment):
    with pytest.raises(ValueError, match=fragment):
        gym.make("SixtySix-v0", opponent=spec)


def test_an_agent_object_or_a_callable_is_still_an_opponent():
    from sixtysix_env.agents import make_agent

    agent = make_agent("heuristic")
    env = SixtySixEnv(opponent=agent)
    assert env.opponent_name == agent.name and env._opponent == agent.act
    env = SixtySixEnv(opponent=first_legal)
    assert env.opponent_name == "first_legal" and env._opponent is first_legal
    _episode(env, 0)


# ---------------------------------------------------------------- the AEC env's episodes and options
def test_the_same_seed_deals_the_same_deal_as_the_aec_env():
    """One episode loop: the Gym env draws its deals from its seed exactly as the AEC env does."""
    from sixtysix_env import sixtysix_v0

    arrangement = {"hands": ["9S AC AS QD TC TD", "9C 9D JC JD QC QS"], "stock": "KS QH 9H KH JH AH JS AD KD TH TS KC"}
    for seed in range(6):
        for options in (None, {"deal": arrangement}):
            aec = sixtysix_v0.raw_env(episode="match")
            aec.reset(seed=seed, options=options)
            first = int(aec.agent_selection[-1])  # the learner's seat there: no opponent turn before it
            env = SixtySixEnv(opponent=first_legal, seat=first, episode="match")
            env.reset(seed=seed, options=options)
            assert env.deal.to_notation() == aec.deal.to_notation()
            assert env.np_random.bit_generator.state == aec.np_random.bit_generator.state


BAD_RESETS = [
    ({"seed": -1}, "seed"),
    ({"seed": 1.5}, "seed"),
    ({"options": [1]}, "options"),
    ({"options": {"deal": {"hands": []}}}, "deal"),
    ({"options": {"deal": {"hands": [], "stock": [], "extra": 1}}}, "unknown keys"),
    ({"options": {"carry_over": "yes"}}, "carry_over"),
    ({"options": {"carry_over": 1}}, "carry_over"),
    ({"options": {"carry_over": True}}, "needs a finished match"),
    ({"options": {"carry_over": True, "deal": {"hands": [], "stock": []}}}, "both 'deal' and 'carry_over'"),
]


@pytest.mark.parametrize(("kwargs", "fragment"), BAD_RESETS)
def test_a_bad_reset_is_refused_as_the_aec_env_refuses_it(kwargs, fragment):
    """The AEC env's reset checks run on the Gym env: the same error, the same message, and the
    env left as it was."""
    from sixtysix_env import sixtysix_v0

    seen = []
    for env in (sixtysix_v0.raw_env(episode="match"), SixtySixEnv(opponent="random", episode="match")):
        env.reset(seed=7)
        before = (env.deal.to_notation(), str(env.np_random.bit_generator.state))
        with pytest.raises((ValueError, TypeError), match=fragment) as error:
            env.reset(**kwargs)
        seen.append((type(error.value), str(error.value)))
        assert (env.deal.to_notation(), str(env.np_random.bit_generator.state)) == before
    assert seen[0] == seen[1]


def test_carry_over_carries_each_finished_match_into_the_next():
    env = gym.make("SixtySix-v0", opponent="heuristic", episode="match")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for seed in range(1, 6):
        done = False
        while not done:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        match = env.unwrapped.match
        assert match.is_over and max(info["scores"]) >= 7
        dealer = match.next_dealer()
        obs, info = env.reset(seed=seed, options={"carry_over": True})
        carried = env.unwrapped.match
        assert carried is not match and carried.scores == [0, 0] and list(info["scores"]) == [0, 0]
        assert carried.results == [] and carried.deal.dealer == dealer  # the rules' next dealer deals
        assert env.unwrapped.deal.current_player == env.unwrapped.seat  # at the learner's decision
        assert env.observation_space.contains(obs)
    with pytest.raises(ValueError, match="needs a finished match"):  # the carried match still runs
        env.reset(options={"carry_over": True})

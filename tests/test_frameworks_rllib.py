"""RLlib's SingleAgentEnvRunner on the batched engine by configuration alone (the vector entry
point, ``autoreset_mode="NextStep"``): every decision in an episode, each terminal observation
the finished deal's. Runs in ``.venvs/rllib`` (``ci/frameworks.sh rllib``); skipped elsewhere."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("numba")

import gymnasium as gym
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

from sixtysix_env.fast.vector_env import SixtySixVectorEnv

from .vector_episodes import Episode, collect

N = 6


def config(**env_config) -> PPOConfig:
    """What a user writes: the module-prefixed id (resolves in any process), the vector entry point."""
    return (
        PPOConfig()
        .environment("sixtysix_env:SixtySix-v0", env_config={"autoreset_mode": "NextStep", **env_config})
        .env_runners(num_envs_per_env_runner=N, gym_env_vectorize_mode=gym.VectorizeMode.VECTOR_ENTRY_POINT)
    )


def test_env_runner_records_every_decision_and_the_finished_deals_last_observation():
    runner = SingleAgentEnvRunner(config=config(opponent="heuristic", seed=7))
    env = runner.env.unwrapped
    assert isinstance(env, SixtySixVectorEnv) and env.autoreset_mode is gym.vector.AutoresetMode.NEXT_STEP
    seeds, rows, ends = [], [[] for _ in range(N)], []
    reset, step = env.reset, env.step
    resetting = np.zeros(N, dtype=bool)

    def logged_reset(**kwargs):
        seeds.append(kwargs.get("seed"))
        resetting[:] = False
        return reset(**kwargs)

    def logged_step(actions):
        out = step(actions)
        for i in np.flatnonzero(~resetting):  # the decisions (a reset step ignores its action)
            rows[i].append(int(np.asarray(actions)[i]))
        resetting[:] = out[2] | out[3]
        ends.append(int(resetting.sum()))
        return out

    env.reset, env.step = logged_reset, logged_step
    episodes = runner.sample(num_timesteps=120 * N, random_actions=True)
    assert seeds
    assert sum(len(e) for e in episodes) == sum(map(len, rows))  # no decision lost
    finished = [e for e in episodes if e.is_done]
    assert len(finished) == sum(ends) > 20
    # the same decisions through a SAME_STEP env (final_obs): the episodes RLlib recorded are those
    replay = SixtySixVectorEnv(N, opponent="heuristic", seed=7)  # RLlib's resets may be unseeded: same start
    want, _ = collect(replay, 200, seeds=seeds, actions=[list(r) for r in rows])
    expected = Counter(e.key() for row in want for e in row)
    for e in finished:
        mine = Episode(list(e.get_observations()), list(map(int, e.get_actions())), list(map(float, e.get_rewards())))
        assert len(mine.observations) == len(mine.actions) + 1
        assert expected[mine.key()] > 0, "an episode RLlib recorded is not one the env played"
        expected[mine.key()] -= 1

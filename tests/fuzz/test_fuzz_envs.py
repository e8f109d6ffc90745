"""Fuzz the environments: the AEC envs for two, three and four players and ``SixtySix-v0``.

Each example takes an env some way into an episode, throws one bad value at one entry point
(``reset`` seed or options, ``step``, ``observe``), and requires a documented exception that
names the value with the env unchanged and still playable, or a call that works.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sixtysix_env import Deal, sixtysix_v0
from sixtysix_env.checks import as_index
from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0
from sixtysix_env.envs.gym_env import SixtySixEnv

from .values import Rejected, attempt, junk, junk_scalar, near_actions

MODULES = {2: sixtysix_v0, 3: sixtysix_three_v0, 4: sixtysix_four_v0}


def aec_snapshot(env) -> tuple:
    deal = env.deal
    agent = env.agent_selection
    return (
        deal.to_notation() if deal is not None else None,
        agent,
        list(env.agents),
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        env.np_random.bit_generator.state,
        env.observe(agent)["observation"].tobytes() if env.observation_name == "vector" else None,
    )


def legal_action(env) -> int | None:
    agent = env.agent_selection
    if not env.agents or env.terminations[agent] or env.truncations[agent]:
        return None
    return int(np.flatnonzero(env.observe(agent)["action_mask"])[0])


def play(env, steps: int) -> None:
    for _ in range(steps):
        if not env.agents:
            return
        env.step(legal_action(env))


@st.composite
def aec_envs(draw: st.DrawFn):
    players = draw(st.sampled_from([2, 3, 4]))
    env = MODULES[players].raw_env(episode=draw(st.sampled_from(["deal", "match"])))
    env.reset(seed=draw(st.integers(0, 2**32)))
    play(env, draw(st.integers(0, 30)))
    return env


def still_usable(env) -> None:
    if not env.agents:
        env.reset()
    a = legal_action(env)
    if a is not None:
        env.step(a)
    env.last()


@given(aec_envs(), near_actions)
def test_aec_step(env, action):
    agent = env.agent_selection
    over = not env.agents
    dead = over or env.terminations[agent] or env.truncations[agent]
    mask = env.observe(agent)["action_mask"]
    result = attempt(lambda: env.step(action), lambda: aec_snapshot(env), action, names=not dead or over)
    a = as_index(action)
    legal = not dead and a is not None and 0 <= a < len(mask) and mask[a] == 1
    assert isinstance(result, Rejected) != (legal or (dead and not over and action is None)), (action, result)
    still_usable(env)


@given(aec_envs(), junk)
def test_aec_observe(env, agent):
    result = attempt(lambda: env.observe(agent), lambda: aec_snapshot(env), agent)
    assert isinstance(result, Rejected) != (isinstance(agent, str) and agent in env.possible_agents)
    still_usable(env)


@given(aec_envs(), junk, st.sampled_from(["seed", "options", "deal", "hands", "stock", "dealer"]))
def test_aec_reset(env, value, where):
    n = len(env.possible_agents)
    arrangement = _arrangement(env, n)
    kwargs: dict = {"seed": 3, "options": None}
    if where in ("seed", "options"):
        kwargs[where] = value
    elif where == "deal":
        kwargs["options"] = {"deal": value}
    else:
        kwargs["options"] = {"deal": {**arrangement, where: value}}
    result = attempt(lambda: env.reset(**kwargs), lambda: aec_snapshot(env), value, names=where in ("seed", "dealer"))
    if not isinstance(result, Rejected):
        assert env.deal is not value  # a given deal is copied
    still_usable(env)


def _arrangement(env, n: int) -> dict:
    if n == 2:
        h0, h1, stock, dealer = Deal.new(env.rules, random.Random(1)).arrangement
        return {"hands": [list(h0), list(h1)], "stock": list(stock), "dealer": dealer}
    d = env.deal.new(env.rules, random.Random(1))
    return {"hands": [list(h) for h in d.dealt], "dealer": d.dealer}


@given(aec_envs(), st.integers(0, 20))
def test_aec_copies_mid_episode_play_on_alone(env, steps):
    for make_copy in (copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))):
        twin = make_copy(env)
        before = aec_snapshot(env)
        assert aec_snapshot(twin) == before
        play(twin, steps)
        assert aec_snapshot(env) == before
        play(env, steps)
        assert aec_snapshot(env) == aec_snapshot(twin)


# ---------------------------------------------------------------- SixtySix-v0
def gym_snapshot(env) -> tuple:
    return (
        env.deal.to_notation(),
        env.seat,
        env._done,
        env.np_random.bit_generator.state,
        env._rng.getstate(),
        env.action_masks().tobytes(),
    )


@st.composite
def gym_envs(draw: st.DrawFn):
    env = SixtySixEnv(
        opponent=draw(st.sampled_from(["random", "heuristic"])),
        illegal_action=draw(st.sampled_from(["raise", "terminate"])),
        episode=draw(st.sampled_from(["deal", "match"])),
    )
    _, info = env.reset(seed=draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 12))):
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if done:
            env.reset()
            info = {"action_mask": env.action_masks().astype(np.int8)}
    return env


def gym_usable(env) -> None:
    if env._done:
        env.reset()
    env.step(int(np.flatnonzero(env.action_masks())[0]))


@given(gym_envs(), near_actions)
def test_gym_step(env, action):
    a = as_index(action)
    legal = a is not None and env.deal.is_legal(a)
    result = attempt(lambda: env.step(action), lambda: gym_snapshot(env), action)
    if env.illegal_action == "raise" or legal:
        assert isinstance(result, Rejected) != legal, (action, result)
    else:  # terminate: the episode ends with the illegal reward, the deal as it was
        _, reward, terminated, _, info = result
        assert terminated and info["illegal_action"] and reward == env.illegal_reward
    gym_usable(env)


@given(gym_envs(), junk, st.sampled_from(["seed", "options", "deal", "hands", "stock", "dealer"]))
def test_gym_reset(env, value, where):
    h0, h1, stock, dealer = Deal.new(env.rules, random.Random(1)).arrangement
    arrangement = {"hands": [list(h0), list(h1)], "stock": list(stock), "dealer": dealer}
    kwargs: dict = {"seed": 3, "options": None}
    if where in ("seed", "options"):
        kwargs[where] = value
    elif where == "deal":
        kwargs["options"] = {"deal": value}
    else:
        kwargs["options"] = {"deal": {**arrangement, where: value}}
    attempt(lambda: env.reset(**kwargs), lambda: gym_snapshot(env), value, names=where in ("seed", "dealer"))
    gym_usable(env)


@given(junk_scalar, st.sampled_from(["seat", "illegal_reward", "shaping_scale", "opponent", "rules", "claiming"]))
def test_gym_and_aec_constructors(value, option):
    for make in (SixtySixEnv, sixtysix_v0.env, sixtysix_three_v0.env):
        if (make is not SixtySixEnv and option in ("seat", "opponent")) or (
            make is sixtysix_three_v0.env and option == "claiming"
        ):
            continue
        result = attempt(lambda make=make: make(**{option: value}), lambda: None, value, names=option != "opponent")
        if not isinstance(result, Rejected):
            env = result
            env.reset(seed=0)


@given(st.sampled_from([2, 3, 4]), st.sampled_from(["fused", "pettingzoo"]), st.integers(0, 2**32), near_actions)
def test_wrapped_aec_step(players, wrapper, seed, action):
    """``env()``: PettingZoo's classic wrapping. An action outside Discrete(n) fails the
    AssertOutOfBoundsWrapper's assertion (PettingZoo's documented behaviour) with nothing
    changed; an illegal one inside it ends the episode with ``illegal_reward`` for the offender."""
    if (wrapper == "pettingzoo" or players > 2) and isinstance(action, bool | np.bool_):
        return  # PettingZoo's own stack takes a bool as an in-bounds action and fails on mask[False]
    kwargs = {"wrapper": wrapper} if players == 2 else {}
    env = MODULES[players].env(**kwargs)
    env.reset(seed=seed)
    raw = env.unwrapped
    obs, *_ = env.last()
    agent = env.agent_selection
    before = aec_snapshot(raw)
    a = as_index(action)
    n = len(obs["action_mask"])
    try:
        env.step(action)
    except AssertionError:
        assert aec_snapshot(raw) == before
        if wrapper == "fused" and players == 2:  # ours; PettingZoo's Discrete also refuses numpy uint64
            assert not (a is not None and 0 <= a < n)
        env.step(legal_action(raw))
        return
    if a is not None and 0 <= a < n and obs["action_mask"][a]:
        assert raw.deal.to_notation() != before[0]
    else:
        assert env.terminations[agent] and env.rewards[agent] < 0 and raw.deal.to_notation() == before[0]

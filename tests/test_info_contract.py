"""One info and mask contract for every env: the same keys at every step, masks where frameworks read them."""

import gymnasium as gym
import numpy as np
import pytest

import sixtysix_env  # noqa: F401  (registers the ids)
from sixtysix_env import sixtysix_v0
from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0
from sixtysix_env.envs.gym_env import SixtySixEnv
from sixtysix_env.envs.infos import INFO_KEYS
from sixtysix_env.envs.vector import SixtySixVectorEnv

SAME_STEP = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}


def _numeric(info):
    for key, value in info.items():
        assert value is not None, key
        assert np.asarray(value).dtype.kind in "biu", (key, value)


@pytest.mark.parametrize("module", [sixtysix_v0, sixtysix_three_v0, sixtysix_four_v0])
@pytest.mark.parametrize("episode", ["deal", "match"])
def test_aec_infos_have_every_key_at_every_step(module, episode):
    env = module.env(episode=episode)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    seen_end = False
    for agent in env.agent_iter(2000):
        obs, _, term, trunc, info = env.last()
        for a in env.agents:
            assert tuple(env.infos[a]) == INFO_KEYS
            _numeric(env.infos[a])
        assert info["seat"] == env.possible_agents.index(agent)
        if term or trunc:
            seen_end = True
            assert info["winner"] == env.unwrapped.match.results[-1].winner
            assert info["game_points"] == env.unwrapped.match.results[-1].game_points
            assert list(info["scores"]) == list(env.unwrapped.match.scores)
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen_end


def test_aec_illegal_action_is_marked_in_the_offenders_info():
    env = sixtysix_v0.env()
    env.reset(seed=0)
    obs, *_ = env.last()
    offender = env.agent_selection
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.infos[offender]["illegal_action"] and env.rewards[offender] == -3.0
    assert tuple(env.infos[offender]) == INFO_KEYS


@pytest.mark.parametrize("module", [sixtysix_v0, sixtysix_three_v0, sixtysix_four_v0])
def test_aec_observation_key_names_the_observation(module):
    env = module.env(observation_key="observations")
    env.reset(seed=1)
    obs, *_ = env.last()
    assert set(obs) == {"observations", "action_mask"}
    assert env.observation_space(env.agent_selection).contains(obs)
    with pytest.raises(ValueError, match="observation_key and mask_key are both 'action_mask'"):
        module.env(observation_key="action_mask")


def _legal(mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("episode", ["deal", "match"])
def test_gym_infos_have_every_key_and_the_end_mask_allows_everything(episode):
    env = SixtySixEnv(opponent="random", episode=episode)
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=2)
    keys = ("action_mask", *INFO_KEYS)
    done = False
    while not done:
        assert tuple(info) == keys
        _numeric(info)
        assert info["action_mask"].any()
        _, _, done, _, info = env.step(_legal(info["action_mask"], rng))
    assert tuple(info) == keys and info["action_mask"].all() and env.action_masks().all()
    assert info["winner"] == env.match.results[-1].winner and not info["illegal_action"]


def test_gym_mask_in_observation_with_named_keys():
    env = SixtySixEnv(opponent="random", mask_in_observation=True, observation_key="obs", mask_key="mask")
    obs, info = env.reset(seed=0)
    assert set(obs) == {"obs", "mask"} and env.observation_space.contains(obs)
    assert np.array_equal(obs["mask"], info["action_mask"])
    obs, reward, done, _, info = env.step(int(np.flatnonzero(obs["mask"] == 0)[0]))
    assert (reward, done, info["illegal_action"]) == (-3.0, True, True) and obs["mask"].all()
    with pytest.raises(ValueError, match="mask_key=''"):
        SixtySixEnv(mask_in_observation=True, mask_key="")
    with pytest.raises(ValueError, match="mask_in_observation='yes'"):
        SixtySixEnv(mask_in_observation="yes")


def _both_vector_modes(n, **kwargs):
    fast = gym.make_vec("SixtySix-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    sync = gym.make_vec("SixtySix-v0", num_envs=n, vectorization_mode="sync", vector_kwargs=SAME_STEP, **kwargs)
    assert isinstance(fast, SixtySixVectorEnv)
    return fast, sync


def _layout(infos):
    return {k: (np.asarray(v).dtype.kind, np.asarray(v).shape) for k, v in infos.items()}


def test_both_make_vec_modes_keep_one_contract():
    """Same-step resets, the same info keys, dtypes and shapes, masks never all zero, and an
    illegal action ending the deal with -3 in both modes."""
    layouts = []
    for env in _both_vector_modes(3, opponent="heuristic"):
        rng = np.random.default_rng(0)
        obs, infos = env.reset(seed=5)
        steps, ends = [_layout(infos)], []
        for t in range(80):
            masks = infos["action_mask"]
            assert masks.any(axis=1).all()
            actions = np.array([_legal(m, rng) for m in masks])
            if t == 4:
                actions[1] = int(np.flatnonzero(masks[1] == 0)[0])
            obs, rewards, term, trunc, infos = env.step(actions)
            assert not trunc.any() and env.observation_space.contains(obs)
            steps.append(_layout({k: v for k, v in infos.items() if "final_" not in k}))
            if t == 4:
                assert term[1] and rewards[1] == -3.0 and infos["final_info"]["illegal_action"][1]
                assert infos["final_info"]["winner"][1] == -1
            if term.any():
                final = infos["final_info"]
                ends.append(_layout(final))
                assert infos["_final_obs"].tolist() == term.tolist()
                for i in np.flatnonzero(term & ~final["illegal_action"]):
                    won = final["winner"][i] == final["seat"][i]
                    assert rewards[i] == (
                        final["game_points"][i] * (1 if won else -1) if final["winner"][i] >= 0 else 0
                    )
                    assert final["scores"][i].sum() == (final["game_points"][i] if final["winner"][i] >= 0 else 0)
        assert ends
        layouts.append((steps[0], ends[0]))
        assert all(s == steps[0] for s in steps[1:])
        assert all(
            {k: kind for k, (kind, _) in e.items()} == {k: kind for k, (kind, _) in ends[0].items()} for e in ends
        )
    (fast_step, fast_end), (sync_step, sync_end) = layouts
    assert fast_step == sync_step
    assert {k: v[0] for k, v in fast_end.items()} == {k: v[0] for k, v in sync_end.items()}
    assert set(fast_end) == {f"{p}{k}" for k in ("action_mask", *INFO_KEYS) for p in ("", "_")}


def test_sync_default_next_step_mode_never_shows_an_all_zero_mask():
    env = gym.make_vec("SixtySix-v0", num_envs=2, vectorization_mode="sync", opponent="random")
    rng = np.random.default_rng(2)
    _, infos = env.reset(seed=0)
    ended = 0
    for _ in range(60):
        assert infos["action_mask"].any(axis=1).all()
        _, _, term, _, infos = env.step(np.array([_legal(m, rng) for m in infos["action_mask"]]))
        ended += int(term.sum())
    assert ended > 0


def test_vector_mask_in_observation_and_raise_mode():
    env = SixtySixVectorEnv(2, mask_in_observation=True, observation_key="observations", seed=0)
    obs, infos = env.reset(seed=0)
    assert set(obs) == {"observations", "action_mask"} and env.observation_space.contains(obs)
    assert np.array_equal(obs["action_mask"], infos["action_mask"])
    strict = SixtySixVectorEnv(2, illegal_action="raise", seed=0)
    _, infos = strict.reset(seed=0)
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in infos["action_mask"]])
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(bad)
    with pytest.raises(ValueError, match="illegal_action='ignore'"):
        SixtySixVectorEnv(2, illegal_action="ignore")


def test_warmup_command_and_cache_location(capsys):
    from sixtysix_env.fast import cache, warmup

    assert warmup.main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("numba kernels ") and str(cache.cache_dir()) in out
    assert cache.is_cached() is True

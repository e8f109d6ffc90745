"""The fused ClassicWrapper behaves exactly like PettingZoo's three classic wrappers."""

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from sixtysix_env import sixtysix_v0
from sixtysix_env.envs.wrappers import ClassicWrapper


def _obs_equal(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_obs_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


def _call(env, name, *args):
    """Result, exception type and warning messages of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = getattr(env, name)(*args), None
        except Exception as e:  # the exception type is what we compare
            result, error = None, type(e)
    return result, error, [str(w.message) for w in caught]


def _public(env):
    u = env.unwrapped
    return (
        list(env.agents),
        env.agent_selection,
        dict(env.rewards),
        dict(u._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
    )


@pytest.mark.parametrize("seed", range(30))
def test_same_behaviour_as_the_pettingzoo_stack(seed):
    rng = random.Random(seed)
    kwargs = {"episode": rng.choice(["deal", "match"]), "claiming": rng.choice(["auto", "explicit"])}
    fused = sixtysix_v0.env(wrapper="fused", **kwargs)
    stack = sixtysix_v0.env(wrapper="pettingzoo", **kwargs)
    assert isinstance(fused, ClassicWrapper)
    # calls before reset fail the same way
    for name, args in (("step", (0,)), ("observe", ("player_0",))):
        a, b = _call(fused, name, *args), _call(stack, name, *args)
        assert a[1:] == b[1:]
    for env in (fused, stack):
        env.reset(seed=seed)
    for _ in range(400):
        assert _public(fused) == _public(stack)
        la, ea, wa = _call(fused, "last")
        lb, eb, wb = _call(stack, "last")
        assert (ea, wa) == (eb, wb)
        if ea is None:
            assert _obs_equal(la[0], lb[0]) and la[1:4] == lb[1:4]
            # infos agree but for the fused wrapper's mark on an illegal action
            assert _obs_equal({**la[4], "illegal_action": False}, {**lb[4], "illegal_action": False})
            mask = la[0]["action_mask"]
            legal = np.flatnonzero(mask).tolist()
            dead = la[2] or la[3]
        else:
            legal, dead = [], True
        roll = rng.random()
        if dead:
            action = None if roll < 0.9 else 3
        elif roll < 0.8:
            action = rng.choice(legal)
        elif roll < 0.9:
            action = rng.choice([a for a in range(32) if a not in legal])  # illegal: ends the episode
        elif roll < 0.95:
            action = rng.choice([32, -1, None, np.int64(legal[0]), 2.0])  # out of bounds / odd types
        else:
            action = np.int8(legal[0])
        ra, rb = _call(fused, "step", action), _call(stack, "step", action)
        assert ra[1:] == rb[1:], f"step({action!r}) differs"
        if ra[1] is not None:  # both refused the action: retry legally next round
            continue
        if not fused.agents and rng.random() < 0.3:
            assert _call(fused, "step", None)[1:] == _call(stack, "step", None)[1:]
            for env in (fused, stack):
                env.reset(seed=seed + 1)


def test_fused_wrapper_passes_the_api_test():
    api_test(sixtysix_v0.env(wrapper="fused"), num_cycles=300)
    api_test(sixtysix_v0.env(wrapper="pettingzoo"), num_cycles=300)


def test_unknown_wrapper_is_rejected():
    with pytest.raises(ValueError, match="'fused', 'pettingzoo'"):
        sixtysix_v0.env(wrapper="none")


def test_attributes_before_reset_raise_like_order_enforcing():
    env = sixtysix_v0.env()
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection

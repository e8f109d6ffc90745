"""Fuzz the batched engine: ``BatchedDeals`` (construction, reset with dealers and decks, step
actions per row), the Gymnasium vector env, and copies of both mid-episode."""

from __future__ import annotations

import copy
import pickle

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sixtysix_env.engine import IllegalActionError
from sixtysix_env.envs.vector import SixtySixVectorEnv
from sixtysix_env.fast import BatchedDeals

from .values import Rejected, attempt, junk, junk_scalar

N = 3
_BATCHES = {}


def batch(opponent: str | None, seed: int) -> BatchedDeals:
    """A fresh batch some way into play (built from a cached one: compiling is the slow part)."""
    key = opponent
    if key not in _BATCHES:
        _BATCHES[key] = BatchedDeals(N, "standard", seed=0, opponent=opponent)
    deals = copy.deepcopy(_BATCHES[key])
    deals.reset(seed=seed)
    for _ in range(seed % 7):
        deals.step(deals.sample_actions())
    return deals


def snapshot(deals: BatchedDeals) -> tuple:
    return (deals.state.copy(), deals.decks.copy(), deals.history.copy(), deals.rng_state.copy())


def usable(deals: BatchedDeals) -> None:
    obs, _, rewards, _ = deals.step_observe(deals.sample_actions())
    assert obs.shape == (N, 235) and np.isfinite(rewards).all()


row_actions = st.one_of(st.integers(-6, 35), st.sampled_from([-(2**63), 2**31, 2**63 - 1]))
dtypes = st.sampled_from([np.int64, np.int32, np.int8, np.uint64, np.uint8, np.float64, object])


@given(
    st.sampled_from([None, "random", "heuristic"]),
    st.integers(0, 1000),
    st.lists(row_actions, min_size=N, max_size=N),
    dtypes,
)
def test_step_rows(opponent, seed, rows, dtype):
    deals = batch(opponent, seed)
    masks = deals.legal_mask_bits()
    try:
        actions = np.array(rows, dtype=dtype)
    except OverflowError:
        return  # numpy refuses to build the array: nothing reaches the batch
    result = attempt(lambda: deals.step(actions), lambda: snapshot(deals), names=False)
    ok = actions.dtype.kind in "iu" and all(
        a == -1 or (0 <= a < 32 and int(m) >> a & 1) for a, m in zip(rows, masks, strict=True)
    )
    ok = ok and all(int(x) == r for x, r in zip(actions, rows, strict=True))  # no wrap in the cast
    assert isinstance(result, Rejected) != ok, (rows, dtype, result)
    if isinstance(result, Rejected) and actions.dtype.kind in "iu":
        assert isinstance(result.error, IllegalActionError) or "shape" in str(result.error)
        bad = next(
            i
            for i, (a, m) in enumerate(zip(rows, masks, strict=True))
            if not (a == -1 or (0 <= a < 32 and int(m) >> a & 1))
        )
        assert f"env {bad}" in str(result.error)
    usable(deals)


@given(st.integers(0, 1000), junk, st.sampled_from(["dealers", "decks", "arrangements", "seed", "dealer_row", "card"]))
def test_reset(seed, value, where):
    deals = batch(None, seed)
    kwargs: dict = {}
    if where == "dealers":
        kwargs = {"decks": deals.decks.copy(), "dealers": value}
    elif where == "decks":
        kwargs = {"decks": value, "dealers": [0] * N}
    elif where == "arrangements":
        kwargs = {"arrangements": value}
    elif where == "seed":
        kwargs = {"seed": value}
    else:
        arrangements = [deals.arrangement(i) for i in range(N)]
        h0, h1, stock, dealer = arrangements[1]
        arrangements[1] = (h0, h1, stock, value) if where == "dealer_row" else ((value, *h0[1:]), h1, stock, dealer)
        kwargs = {"arrangements": arrangements}
    attempt(lambda: deals.reset(**kwargs), lambda: snapshot(deals), names=False)
    usable(deals)


@given(
    junk_scalar,
    st.sampled_from(
        [
            "num_envs",
            "dealer",
            "opponent",
            "opponent_seat",
            "reward",
            "shaping_scale",
            "autoreset",
            "parallel",
            "final_observation_seat",
            "rules",
        ]
    ),
)
def test_constructor(value, option):
    kwargs = {"num_envs": 2, option: value}
    if isinstance(value, int | np.integer) and option == "num_envs" and value > 64:
        return  # a large batch is fine, just not quick to allocate here
    result = attempt(lambda: BatchedDeals(**kwargs), lambda: None, value, names=option not in ("rules",))
    if not isinstance(result, Rejected):
        result.step(result.sample_actions())


@given(st.integers(0, 1000), st.lists(row_actions, min_size=N, max_size=N), st.sampled_from(["raise", "terminate"]))
def test_vector_env_step(seed, rows, illegal_action):
    env = _vector_env(illegal_action)
    env.reset(seed=seed)
    masks = env.action_masks()
    actions = np.array(rows, dtype=np.int64)
    result = attempt(lambda: env.step(actions), lambda: snapshot(env.deals), names=False)
    legal = [0 <= a < 32 and bool(masks[i, a]) for i, a in enumerate(rows)]
    if illegal_action == "raise":
        assert isinstance(result, Rejected) != all(legal)
    else:  # an illegal row ends that row's deal with the penalty, flagged; the legal rows play on
        assert not isinstance(result, Rejected)
        _, reward, terminated, _, infos = result
        bad = ~np.array(legal)
        assert (terminated[bad]).all() and (reward[bad] == env.illegal_reward).all()
        if bad.any():
            assert (infos["final_info"]["illegal_action"][bad]).all()
    env.step(env.action_masks().argmax(axis=1))


_VEC = {}


def _vector_env(illegal_action: str = "raise") -> SixtySixVectorEnv:
    if illegal_action not in _VEC:
        _VEC[illegal_action] = SixtySixVectorEnv(N, seed=0, illegal_action=illegal_action)
        _VEC[illegal_action].reset(seed=0)
    return copy.deepcopy(_VEC[illegal_action])


@given(
    junk_scalar,
    st.sampled_from(["opponent", "seat", "reward", "claiming", "observation", "episode", "render_mode", "seed"]),
)
def test_vector_env_constructor(value, option):
    result = attempt(lambda: SixtySixVectorEnv(N, **{option: value}), lambda: None, value, names=option != "seed")
    if not isinstance(result, Rejected):
        result.reset()
        result.step(result.action_masks().argmax(axis=1))


@given(st.sampled_from([None, "heuristic"]), st.integers(0, 1000), st.integers(1, 6))
def test_copies_mid_episode_step_like_the_original(opponent, seed, steps):
    deals = batch(opponent, seed)
    for twin in (copy.deepcopy(deals), pickle.loads(pickle.dumps(deals))):
        original = copy.deepcopy(deals)
        for _ in range(steps):
            a = original.sample_actions()
            assert np.array_equal(a, twin.sample_actions())
            obs, _, rewards, done = (x.copy() for x in original.step_observe(a))
            obs2, _, rewards2, done2 = twin.step_observe(a)
            assert np.array_equal(obs, obs2) and np.array_equal(rewards, rewards2) and np.array_equal(done, done2)
        assert np.array_equal(original.state, twin.state)


@given(junk, st.sampled_from(["seed", "options"]))
def test_vector_env_reset(value, where):
    env = _vector_env()
    result = attempt(lambda: env.reset(**{where: value}), lambda: snapshot(env.deals), value, names=False)
    if isinstance(result, Rejected):
        assert repr(value) in str(result.error) or where == "options"
    env.step(env.action_masks().argmax(axis=1))

"""The JAX engine (``sixtysix_env.jax``): lockstep with the numba and reference engines, the
heuristic, the leak check, illegal actions, determinism, and Pgx-style loops.

The full lockstep run (100,000 deals per preset) is ``benchmarks/verify_jax.py``; here a few
dozen deals per preset. Jit compilation dominates the time, so the compiled functions are made
once per rule set (module-level cache) and shared by the tests.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from functools import cache

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")
pytest.importorskip("numba")

import jax.numpy as jnp  # noqa: E402
from pgx.experimental import auto_reset  # noqa: E402

from sixtysix_env.actions import NUM_ACTIONS  # noqa: E402
from sixtysix_env.jax import SixtySix, State, encode_observation, make_params  # noqa: E402
from sixtysix_env.jax.engine import deck_cards  # noqa: E402
from sixtysix_env.observers import VECTOR_SIZE  # noqa: E402
from sixtysix_env.rules import PRESETS  # noqa: E402

from ..scripts import load_script  # noqa: E402

verify = load_script("benchmarks/verify_jax.py")
N = 48
"""Deals per batch in every test: one array shape, so each compiled function serves them all."""


@cache
def jitted(preset: str):  # type: ignore[no-untyped-def]
    """verify_jax's compiled functions of one preset, made once for the whole module."""
    return verify._Jitted(PRESETS[preset])


@cache
def jitted_init():  # type: ignore[no-untyped-def]
    """``jit(vmap(env.init))`` of the standard preset (random deals from keys)."""
    return jax.jit(jax.vmap(jitted("standard").env.init))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_lockstep_with_numba_and_reference_engines(preset: str) -> None:
    counts = verify.lockstep(preset, N, seed=7, batch=N, reference=24, jitted=jitted(preset))
    assert counts.deals == N and counts.reference_deals == 24
    assert counts.steps > N * 10 and counts.reference_steps > 24 * 10  # whole deals were compared
    assert counts.heuristic_steps == counts.steps
    assert sum(counts.outcomes.values()) == N  # every deal ended, its outcome compared


def test_the_lockstep_check_sees_a_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    """A JAX engine that forgets the last-trick bonus is caught (the check can fail)."""
    j = jitted("standard")
    broken = copy.copy(j)  # the compiled functions are reused: the break is applied outside them

    def wrong_step(state, actions):  # type: ignore[no-untyped-def]
        out = j.step(state, actions)
        g = out._game
        return out.replace(_game=g.replace(points=g.points + (g.trick_count == 3)[:, None]))  # a point too many

    broken.step = wrong_step
    with pytest.raises(verify.LockstepError, match="standard: deal"):
        verify.lockstep("standard", N, seed=1, batch=N, reference=4, jitted=broken)


def test_policy_actions_are_legal_and_cover_the_mask() -> None:
    rng = np.random.default_rng(0)
    masks = np.array([0b1011, 1 << 31 | 1 << 3, 0, 1 << 29 | 1 << 30], dtype=np.uint32)
    seen: set[tuple[int, int]] = set()
    for _ in range(200):
        a = verify.policy_actions(masks, np.zeros((4, 2), np.int64), np.zeros(4, np.int64), rng)
        assert a[2] == -1
        for i in (0, 1, 3):
            assert (int(masks[i]) >> int(a[i])) & 1
            seen.add((i, int(a[i])))
    assert {(0, 0), (0, 1), (0, 3), (1, 3), (1, 31), (3, 29), (3, 30)} <= seen


# ---------------------------------------------------------------------- the leak check
def _mid_deal_states(steps: int, n: int = N) -> State:
    """``n`` deals after ``steps`` random legal actions (with the stock still open in most)."""
    assert n == N
    state = jitted_init()(jax.random.split(jax.random.PRNGKey(3), n))
    step = jitted("standard").step
    rng = np.random.default_rng(5)
    for _ in range(steps):
        masks = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        state = step(state, jnp.asarray(actions, jnp.int32))
    return state


@pytest.mark.parametrize("steps", [3, 9])
def test_an_observation_hides_the_opponents_unknown_cards_and_the_stock(steps: int) -> None:
    """Permuting the cards hidden from a player (opponent's unknown cards, the face-down stock)
    leaves that player's observation unchanged; the observation itself equals the reference
    encoder's (leak-tested in tests/test_observers.py) in the lockstep tests above."""
    states = _mid_deal_states(steps)
    rng = np.random.default_rng(11)
    observe = jax.jit(encode_observation)
    checked = 0
    for i in range(N):
        g = jax.tree.map(lambda x, i=i: x[i], states._game)
        if int(g.termination) >= 0 or int(g.stock_len) < 2:
            continue
        for me in (0, 1):
            opp = 1 - me
            hand = [int(x) for x in np.asarray(g.hand)]
            known = int(np.asarray(g.known)[opp])
            stock = np.asarray(g.stock).copy()
            n = int(g.stock_len)
            unknown = [c for c in range(24) if (hand[opp] & ~known) >> c & 1]
            places = unknown + [int(c) for c in stock[1:n]]
            shuffled = list(rng.permutation(places))
            new_opp = (hand[opp] & known) | sum(1 << int(c) for c in shuffled[: len(unknown)])
            stock[1:n] = shuffled[len(unknown) :]
            hand[opp] = new_opp
            other = g.replace(hand=jnp.asarray(hand, jnp.int32), stock=jnp.asarray(stock, jnp.int32))
            if other.hand[opp] == g.hand[opp] and np.array_equal(other.stock, g.stock):
                continue
            a, b = np.asarray(observe(g, me)), np.asarray(observe(other, me))
            assert np.array_equal(a.view(np.uint32), b.view(np.uint32)), (i, me)
            checked += 1
            # and the opponent, who sees his own hand, does see the change
            if other.hand[opp] != g.hand[opp]:
                assert not np.array_equal(np.asarray(observe(g, opp)), np.asarray(observe(other, opp)))
    assert checked >= 8


# ---------------------------------------------------------------------- the Pgx contract
def test_illegal_action_ends_the_deal_with_minus_one_for_the_mover() -> None:
    j = jitted("standard")
    state = _mid_deal_states(2)
    masks = np.asarray(state.legal_action_mask)
    running = ~np.asarray(state.terminated)
    movers = np.asarray(state.current_player)
    illegal = np.array([np.flatnonzero(~m)[0] if r else 0 for m, r in zip(masks, running, strict=True)])
    after = j.step(state, jnp.asarray(illegal, jnp.int32))
    rewards = np.asarray(after.rewards)
    assert running.sum() > N // 2 and np.asarray(after.terminated).all()
    idx = np.flatnonzero(running)
    np.testing.assert_array_equal(rewards[idx, movers[idx]], -1.0)
    np.testing.assert_array_equal(rewards[idx, 1 - movers[idx]], 1.0)
    assert np.asarray(after.legal_action_mask).all()  # pgx: all True once terminated
    again = j.step(after, jnp.zeros(N, jnp.int32))
    assert not np.asarray(again.rewards).any()  # a finished episode pays nothing more


def test_step_is_pgx_env_step_field_for_field() -> None:
    """``SixtySix.step`` replaces ``pgx.Env.step`` (its three ``lax.cond`` over the state); every
    field must stay what Pgx's own step makes, for legal and illegal actions, finished deals
    stepped again and truncated ones, under ``jit(vmap)``."""
    import pgx.core as core

    env = jitted("standard").env
    ours = jax.jit(jax.vmap(env.step))
    pgxs = jax.jit(jax.vmap(lambda s, a: core.Env.step(env, s, a)))
    state = jitted_init()(jax.random.split(jax.random.PRNGKey(5), N))
    state = state.replace(truncated=jnp.arange(N) == 3)
    rng = np.random.default_rng(5)
    kinds = {"illegal": 0, "over": 0}
    for _ in range(60):
        masks = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        wild = rng.random(N) < 0.05  # any action, often an illegal one
        actions[wild] = rng.integers(0, NUM_ACTIONS, wild.sum())
        kinds["illegal"] += int((~masks[np.arange(N), actions]).sum())
        kinds["over"] += int(np.asarray(state.terminated | state.truncated).sum())
        a = jnp.asarray(actions, jnp.int32)
        mine, theirs = ours(state, a), pgxs(state, a)
        for (path, x), y in zip(jax.tree_util.tree_leaves_with_path(mine), jax.tree.leaves(theirs), strict=True):
            np.testing.assert_array_equal(x, y, err_msg=jax.tree_util.keystr(path))
        state = mine
    assert kinds["illegal"] >= 10 and kinds["over"] >= 10 * N, kinds


def test_same_key_same_deal_and_keys_differ() -> None:
    init = jitted_init()
    keys = jax.random.split(jax.random.PRNGKey(42), N)
    a, b = init(keys), init(keys)
    c = init(jax.random.split(jax.random.PRNGKey(43), N))
    leaves = jax.tree.leaves
    assert all(np.array_equal(x, y) for x, y in zip(leaves(a), leaves(b), strict=True))
    hands = np.asarray(a._game.hand)
    assert len({tuple(h) for h in hands}) == N  # every deal its own
    assert not np.array_equal(hands, np.asarray(c._game.hand))
    assert set(np.asarray(a._game.dealer).tolist()) == {0, 1}  # a random dealer


@pytest.mark.parametrize("preset", ["standard", "schnapsen"])
def test_random_deal_is_the_deal_of_jax_random_permutation(preset: str) -> None:
    """``random_deal`` places the cards by counting (no sort): the same deal, key for key, as
    ``start_deal`` of ``jax.random.permutation`` (one stable sort by uint32 keys), so it is as
    uniform; ties of the 32-bit keys are forced in half the rows to check the stable order."""
    from sixtysix_env.jax.engine import random_deal, shuffle_ranks, start_deal

    params = make_params(preset)
    cards = jnp.asarray(deck_cards(params))

    def by_sort(key: jax.Array):  # type: ignore[no-untyped-def]
        k_deck, k_dealer = jax.random.split(key)
        deck = jax.random.permutation(k_deck, cards)
        return start_deal(deck, jax.random.randint(k_dealer, (), 0, 2, dtype=jnp.int32), params)

    keys = jax.random.split(jax.random.PRNGKey(17), 4096)
    a = jax.jit(jax.vmap(by_sort))(keys)
    b = jax.jit(jax.vmap(lambda k: random_deal(k, params)))(keys)
    for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True):
        np.testing.assert_array_equal(x, y)
    # equal sort keys: the stable order (item index) decides, as lax.sort_key_val(is_stable=True)
    u = np.array([[5, 3, 5, 3, 1, 5], [7, 7, 7, 7, 7, 7]], np.uint32)
    rows = iter(u)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(jax.random, "bits", lambda key, shape, dtype: jnp.asarray(next(rows)))
        got = [np.asarray(shuffle_ranks(jax.random.PRNGKey(i), 6)) for i in range(2)]
    ranks = [np.argsort(np.argsort(row, kind="stable"), kind="stable") for row in u]
    np.testing.assert_array_equal(got, ranks)


def test_pgx_properties() -> None:
    env = SixtySix("schnapsen")
    assert (env.num_players, env.num_actions, env.observation_shape) == (2, NUM_ACTIONS, (VECTOR_SIZE,))
    assert env.id == "sixtysix" and env.version
    assert env.params == make_params("schnapsen")
    with pytest.raises(ValueError):
        SixtySix("no-such-preset")
    state = env.init(jax.random.PRNGKey(0))
    assert state.observation.dtype == jnp.float32 and state.legal_action_mask.dtype == jnp.bool_
    assert state.rewards.shape == (2,) and state.rewards.dtype == jnp.float32
    assert len(deck_cards(env.params)) == 20
    np.testing.assert_array_equal(
        env.observe(state, 1 - int(state.current_player)),
        encode_observation(state._game, 1 - int(state.current_player)),
    )


def test_auto_reset_loop_under_jit_vmap() -> None:
    """Code written for Pgx: ``jit(vmap(auto_reset(env.step, env.init)))`` with random legal actions."""
    env = jitted("standard").env
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    n = N
    key = jax.random.PRNGKey(0)
    state = jitted_init()(jax.random.split(key, n))
    rng = np.random.default_rng(0)
    ended = 0
    total = np.zeros(2)
    for t in range(300):
        masks = np.asarray(state.legal_action_mask)
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        state = step(state, jnp.asarray(actions, jnp.int32), jax.random.split(jax.random.PRNGKey(t + 1), n))
        rewards = np.asarray(state.rewards)
        np.testing.assert_array_equal(rewards.sum(axis=1), 0.0)  # zero-sum
        done = np.asarray(state.terminated)
        assert (rewards[~done] == 0).all()  # rewards only at the step that ends a deal
        assert set(np.abs(rewards[done, 0]).tolist()) <= {0.0, 1.0, 2.0, 3.0, 6.0}
        ended += int(done.sum())
        total += rewards.sum(axis=0)
    assert ended > 300  # about one deal per 20 decisions: some 700 here
    assert np.isfinite(total).all()


def test_compact_auto_reset_deals_new_deals_into_finished_envs_and_observes_them() -> None:
    """``compact_auto_reset``: a finished env reports its deal's end and holds a fresh deal (or is
    left over, over, for a step when more end than ``resets``); every row's observation and mask
    are those of the deal it holds; rewards come only with an end; a left-over row is dealt later."""
    from sixtysix_env.jax import compact_auto_reset
    from sixtysix_env.jax.env import mask_to_bool

    env = jitted("standard").env
    step = jax.jit(compact_auto_reset(env, N, resets=2))  # few new deals a step: some rows wait
    observe = jax.jit(jax.vmap(env.observe))
    state = jitted_init()(jax.random.split(jax.random.PRNGKey(8), N))
    rng = np.random.default_rng(8)
    fresh = left_over = 0
    for t in range(200):
        masks = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        before = np.asarray(state.game.termination) == -1
        state = step(state, jnp.asarray(actions, jnp.int32), jax.random.PRNGKey(100 + t))
        done, running = np.asarray(state.terminated), np.asarray(state.game.termination) == -1
        rewards = np.asarray(state.rewards)
        np.testing.assert_array_equal(rewards.sum(axis=1), 0.0)
        assert not rewards[~(done & before)].any()  # only an end pays; a left-over row reads terminated, 0
        new = done & running
        assert (np.asarray(state.game.trick_count)[new] == 0).all() and (np.asarray(state._step_count)[new] == 0).all()
        fresh += int(new.sum())
        left_over += int((~running).sum())
        np.testing.assert_array_equal(state.observation, observe(state))
        masks = np.asarray(jax.vmap(mask_to_bool)(state.game.mask))
        np.testing.assert_array_equal(np.asarray(state.legal_action_mask)[running], masks[running])
    assert fresh > 200 and left_over > 0, (fresh, left_over)


def test_step_vs_heuristic_leaves_the_learner_to_act() -> None:
    """Against the heuristic in seat 1: after every ``step_vs_heuristic`` a running deal waits
    for seat 0, and finished deals pay their game points (zero-sum)."""
    env = jitted("standard").env
    n = N
    seat = jnp.ones(n, jnp.int32)
    state = jitted_init()(jax.random.split(jax.random.PRNGKey(9), n))
    mine = np.asarray(state.current_player) == 0  # the deals where seat 0 leads (the others: not the learner's)
    step = jax.jit(jax.vmap(env.step_vs_heuristic))
    rng = np.random.default_rng(2)
    results = np.zeros((n, 2))
    for _ in range(30):
        running = ~np.asarray(state.terminated)
        assert (np.asarray(state.current_player)[running & mine] == 0).all()
        results += np.asarray(state.rewards)
        if not (running & mine).any():
            break
        masks = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        state = step(state, jnp.asarray(actions, jnp.int32), seat)
    results = results[mine]
    assert len(results) > 10
    assert np.asarray(state.terminated)[mine].all()
    np.testing.assert_array_equal(results.sum(axis=1), 0.0)
    assert (results[:, 1] > 0).sum() > len(results) // 2  # the heuristic beats random play


def test_importing_the_package_does_not_import_jax() -> None:
    code = "import sys, sixtysix_env, sixtysix_env.envs; print('jax' in sys.modules, 'pgx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]

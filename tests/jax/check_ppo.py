"""``examples/jax_ppo.py``: the per-seat advantages, a few jitted updates, and the weights it saves
playing as ``ppo:path=`` (a tiny network and batch, so it runs in well under a minute)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax
import jax.numpy as jnp

from sixtysix_env import Deal
from sixtysix_env.agents.mlp import MLPPolicy
from sixtysix_env.agents.spec import parse_agent_spec
from sixtysix_env.arena import play_deal

from ..scripts import load_script

ppo = load_script("examples/jax_ppo.py")


def _traj(players, rewards, done, values):
    t, n = len(players), 1
    zeros = jnp.zeros((t, n))
    return ppo.Transition(
        obs=zeros,
        mask=zeros,
        action=zeros,
        logp=zeros,
        value=jnp.asarray(values, jnp.float32).reshape(t, n),
        player=jnp.asarray(players, jnp.int32).reshape(t, n),
        learner=jnp.ones((t, n), bool),
        rewards=jnp.asarray(rewards, jnp.float32).reshape(t, n, 2),
        done=jnp.asarray(done, bool).reshape(t, n),
    )


def test_each_seat_chains_to_its_own_next_decision_and_earns_its_own_reward() -> None:
    # one deal: seats 0, 1, 0, 1, 1 act; seat 1's last action ends it, +2 to seat 0, -2 to seat 1
    traj = _traj(
        players=[0, 1, 0, 1, 1],
        rewards=[[0, 0]] * 4 + [[2, -2]],
        done=[0, 0, 0, 0, 1],
        values=[0.5, 0.1, 0.7, -0.3, -1.0],
    )
    adv, ret = ppo.per_seat_gae(traj, jnp.zeros((1, 2)), gamma=1.0, lam=0.5)
    adv = np.asarray(adv)[:, 0]
    # seat 0: t=2 is its last decision (reward +2, no next value); t=0 chains to t=2, not to t=1
    a2 = 2 - 0.7
    a0 = (0.7 - 0.5) + 0.5 * a2
    # seat 1: t=4 ends the deal (-2); t=3 -> t=4; t=1 -> t=3
    a4 = -2 - (-1.0)
    a3 = (-1.0 - -0.3) + 0.5 * a4
    a1 = (-0.3 - 0.1) + 0.5 * a3
    np.testing.assert_allclose(adv, [a0, a1, a2, a3, a4], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(ret)[:, 0], adv + np.array([0.5, 0.1, 0.7, -0.3, -1.0]), rtol=1e-6)


def test_a_deals_end_cuts_both_chains_and_the_rollouts_end_bootstraps_per_seat() -> None:
    # deal 1: seat 0 then seat 1 (ends it: -3 to seat 0); deal 2: seat 1, then the rollout stops
    traj = _traj(
        players=[0, 1, 1],
        rewards=[[0, 0], [-3, 3], [0, 0]],
        done=[0, 1, 0],
        values=[0.2, 0.4, 0.6],
    )
    last = jnp.asarray([[5.0, 7.0]])  # each seat's value where the rollout stopped
    adv = np.asarray(ppo.per_seat_gae(traj, last, gamma=1.0, lam=1.0)[0])[:, 0]
    np.testing.assert_allclose(adv, [-3 - 0.2, 3 - 0.4, 7.0 - 0.6], rtol=1e-6)


def test_a_few_updates_learn_finitely_and_the_saved_weights_play_as_the_ppo_agent(tmp_path) -> None:
    tiny = ["--num-envs", "8", "--num-steps", "8", "--epochs", "2", "--minibatches", "2", "--hidden", "16"]
    args = ppo.parse_args([*tiny, "--league", "0.5", "--lr", "1e-3", "--reset", "compact"])
    env = ppo.make_env("sixtysix", "standard")
    init, update = ppo.make_train(env, args)
    runner = init(jax.random.PRNGKey(0))
    before = jax.tree_util.tree_map(np.asarray, runner.params)
    step = jax.jit(update)
    for _ in range(3):
        runner, metrics = step(runner)
        assert np.isfinite(float(metrics["loss"])) and np.isfinite(float(metrics["v_loss"]))
    assert 0 < int(metrics["learner_decisions"]) < 64  # the league seats' decisions are not the learner's
    assert any(not np.array_equal(before[k], np.asarray(v)) for k, v in runner.params.items())

    path = ppo.to_mlp(runner.params, "standard", "test").save(tmp_path / "jax_ppo.npz")
    agent = parse_agent_spec(f"ppo:path={path}").make()
    obs = np.asarray(runner.env_state.observation, dtype=np.float32)
    exported = MLPPolicy.load(path).batch_logits(obs)
    np.testing.assert_allclose(exported, np.asarray(ppo.forward(runner.params, jnp.asarray(obs))[0]), atol=1e-5)
    deal = play_deal(
        Deal.new("standard", random.Random(3)),
        (agent, parse_agent_spec("heuristic").make()),
        (random.Random(0), random.Random(1)),
    )
    assert deal.outcome is not None  # play_deal raises on an illegal action


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(SystemExit):
        ppo.parse_args(["--league", "1.5"])
    with pytest.raises(SystemExit):
        ppo.parse_args(["--save-npz", "weights.pt"])

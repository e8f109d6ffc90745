"""Tianshou's Collector on the batched engine (``integrations.tianshou``): every decision one
transition, the terminal ``obs_next`` the finished deal's. Runs in ``.venvs/tianshou``
(``ci/frameworks.sh tianshou``); skipped where Tianshou is not installed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tianshou")
pytest.importorskip("numba")

from tianshou.algorithm.algorithm_base import Policy
from tianshou.data import Batch, Collector, VectorReplayBuffer

from sixtysix_env.envs.vector import SixtySixVectorEnv
from sixtysix_env.integrations.tianshou import SixtySixTianshouEnv

from .vector_episodes import Episode, assert_same_episodes, collect, lowest_legal


class LowestLegal(Policy):
    """The tests' deterministic policy of the observation alone, as a Tianshou policy."""

    def forward(self, batch, state=None, **kwargs):
        return Batch(act=lowest_legal(np.asarray(batch.obs.obs), np.asarray(batch.obs.mask)))


def _episodes(buffer, num_envs):
    """Each env's finished episodes from its sub-buffer, in order."""
    out = []
    for i in range(num_envs):
        sub = buffer.buffers[i]
        eps, ep = [], None
        for t in range(len(sub)):
            b = sub[t]
            if ep is None:
                ep = Episode([np.asarray(b.obs.obs).copy()])
            ep.actions.append(int(b.act))
            ep.rewards.append(float(b.rew))
            ep.observations.append(np.asarray(b.obs_next.obs).copy())
            if b.done:
                eps.append(ep)
                ep = None
        out.append(eps)
    return out


@pytest.mark.parametrize("opponent", ["heuristic", "ppo"])
def test_collector_records_every_decision_and_the_finished_deals_last_observation(opponent):
    n = 6
    envs = SixtySixTianshouEnv(n, opponent=opponent, seed=3)
    steps = []
    step = envs.venv._step

    def counted(actions, idle):
        # Tianshou resets every finished env before it steps it again: no step is lost to a reset
        assert not (envs.venv._autoreset_rows & ~idle).any()
        steps.append(int((~idle).sum()))
        return step(actions, idle)

    envs.venv._step = counted
    policy = LowestLegal(action_space=envs.action_space, observation_space=envs.observation_space)
    buffer = VectorReplayBuffer(10_000, n)
    collector = Collector(policy, envs, buffer)
    collector.reset(gym_reset_kwargs={"seed": 3})
    stats = collector.collect(n_step=150 * n)
    assert stats.n_collected_steps == sum(steps) == len(buffer)
    got = _episodes(buffer, n)
    want, _ = collect(SixtySixVectorEnv(n, opponent=opponent, seed=3), 150, seed=3)
    assert_same_episodes(want, got)


def test_step_of_some_envs_leaves_the_others_and_bad_ids_are_explained():
    envs = SixtySixTianshouEnv(4, opponent="random", seed=0, infos=True)
    obs, _ = envs.reset(seed=0)
    before = envs.venv.deals.state.copy()
    acts = np.array([int(np.flatnonzero(obs[i]["mask"])[0]) for i in (1, 3)])
    obs2, rew, term, _, info = envs.step(acts, np.array([1, 3]))
    assert len(obs2) == 2 and rew.shape == term.shape == (2,) and info[1]["seat"] in (0, 1)
    after = envs.venv.deals.state
    assert np.array_equal(after[[0, 2]], before[[0, 2]]) and not np.array_equal(after[1], before[1])
    with pytest.raises(ValueError, match=r"env_id must be env indices in 0..3"):
        envs.step(acts, np.array([1, 7]))
    with pytest.raises(ValueError, match=r"action must have shape \(2,\)"):
        envs.step(acts[:1], np.array([1, 3]))


def test_infos_are_empty_unless_asked_for_and_a_bad_flag_is_refused():
    envs = SixtySixTianshouEnv(3, opponent="random", seed=0)
    _, infos = envs.reset(seed=0)
    assert infos.dtype == object and [dict(i) for i in infos] == [{}, {}, {}]
    _, full = SixtySixTianshouEnv(3, opponent="random", seed=0, infos=True).reset(seed=0)
    assert set(full[0]) >= {"seat", "winner", "game_points", "action_mask"}
    with pytest.raises(ValueError, match="infos must be True or False"):
        SixtySixTianshouEnv(3, infos="yes")


def test_the_example_saves_a_q_network_the_arena_plays_and_reports_progress(tmp_path):
    """``examples/tianshou_dqn.py`` prints progress lines between epochs (Tianshou itself prints
    nothing there) and saves its Q network as a ``.npz`` the ``ppo`` agent loads: the same
    Q values as logits, so the agent's greedy action is the DQN's; a short arena run plays it."""
    import subprocess
    import sys

    import torch

    from sixtysix_env.agents.mlp import MLPPolicy
    from sixtysix_env.arena import run_arena

    from .scripts import ROOT, load_script

    path = tmp_path / "tianshou.npz"
    small = ["--epochs", "1", "--epoch-steps", "600", "--envs", "2", "--batch", "64", "--eval-deals", "0"]
    small += ["--print-every", "0.01", "--save-npz", str(path)]
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "tianshou_dqn.py"), *small],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert lines[0].startswith("epoch 1 env steps") and any("deal return" in line for line in lines), lines
    assert lines[-1].startswith(f"saved {path}") and f"ppo:path={path},heuristic" in lines[-1]
    result = run_arena([f"ppo:path={path}", "heuristic"], deals=2, seed=0, progress=False)
    assert result.pairs[0].deals >= 4
    example = load_script("examples/tianshou_dqn.py")
    _, _, net = example.make_collector(example.parse_args(["--envs", "2", "--hidden", "32"]))
    mlp = MLPPolicy.load(example.to_mlp(net, "test").save(tmp_path / "fresh.npz"))
    obs = np.random.default_rng(0).random((8, 235), dtype=np.float32)
    with torch.no_grad():
        q, _ = net(obs)
    assert np.allclose(mlp.batch_logits(obs), q.numpy(), atol=1e-5)
    assert mlp.predict_value(obs[0]) == 0.0

"""TorchRL's GymWrapper and Collector on the batched engine (``make_vec(..., "vector_entry_point")``):
every decision one frame, the terminal ``("next", "observation")`` the finished deal's. Runs in
``.venvs/torchrl`` (``ci/frameworks.sh torchrl``); skipped where TorchRL is not installed."""

from __future__ import annotations

import pytest

pytest.importorskip("torchrl")
pytest.importorskip("numba")

import gymnasium as gym
import torch
from tensordict.nn import TensorDictModule
from torchrl.collectors import Collector
from torchrl.envs import GymWrapper

import sixtysix_env  # noqa: F401  (registers SixtySix-v0)
from sixtysix_env.envs.vector import SixtySixVectorEnv

from .vector_episodes import Episode, assert_same_episodes, collect, lowest_legal


class LowestLegal(torch.nn.Module):
    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.as_tensor(lowest_legal(obs.numpy(), mask.numpy()))


def _episodes(batch, num_envs):
    out = []
    for i in range(num_envs):
        eps, ep = [], None
        row = batch[i]
        for t in range(row.shape[0]):
            if ep is None:
                ep = Episode([row["observation"][t].numpy().copy()])
            ep.actions.append(int(row["action"][t]))
            ep.rewards.append(float(row["next", "reward"][t]))
            ep.observations.append(row["next", "observation"][t].numpy().copy())
            if bool(row["next", "done"][t]):
                eps.append(ep)
                ep = None
        out.append(eps)
    return out


def test_gym_wrapper_reads_the_mode_and_collects_every_decision():
    n, steps = 6, 150
    # the mask comes in through the infos ("action_mask"): TorchRL 0.14 cannot read a Dict final_obs
    vec = gym.make_vec("SixtySix-v0", n, vectorization_mode="vector_entry_point", opponent="heuristic")
    assert vec.autoreset_mode is gym.vector.AutoresetMode.SAME_STEP  # TorchRL reads the attribute
    resets = []
    reset = vec.reset
    vec.reset = lambda **kwargs: resets.append(kwargs.get("seed")) or reset(**kwargs)
    env = GymWrapper(vec, categorical_action_encoding=True)
    env.set_seed(3)
    policy = TensorDictModule(LowestLegal(), in_keys=["observation", "action_mask"], out_keys=["action"])
    collector = Collector(env, policy, frames_per_batch=n * steps, total_frames=n * steps)
    batch = next(iter(collector))
    collector.shutdown()
    assert batch.shape == (n, steps)
    got = _episodes(batch, n)
    # the same deals through the env itself, reset as TorchRL reset it (once with seed=3)
    assert resets.count(3) == 1
    want, _ = collect(SixtySixVectorEnv(n, opponent="heuristic", seed=3), steps, seeds=resets)
    assert_same_episodes(want, got)


def test_gym_wrapper_refuses_the_next_step_mode_it_cannot_read():
    vec = SixtySixVectorEnv(2, autoreset_mode="NextStep")
    with pytest.raises(RuntimeError, match="SAME_STEP"):
        GymWrapper(vec, categorical_action_encoding=True)


def test_the_example_saves_weights_the_arena_plays_as_its_network_did(tmp_path):
    """``examples/torchrl_ppo.py`` writes what it trained as a ``.npz`` the ``ppo`` agent loads
    (the same logits and value as the torch networks; a short arena run plays it), and its output
    is its own progress lines, without TorchRL's INFO lines or warnings."""
    import subprocess
    import sys

    import numpy as np

    from sixtysix_env.agents.mlp import MLPPolicy
    from sixtysix_env.arena import run_arena

    from .scripts import ROOT, load_script

    path = tmp_path / "torchrl.npz"
    small = ["--frames", "256", "--frames-per-batch", "256", "--minibatch", "128", "--envs", "2", "--eval-deals", "0"]
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "torchrl_ppo.py"), *small, "--save-npz", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = (run.stdout + run.stderr).splitlines()
    assert [line.split()[0] for line in lines] == ["batch", "trained", "saved"], lines
    assert f"ppo:path={path},heuristic" in lines[-1]
    result = run_arena([f"ppo:path={path}", "heuristic"], deals=2, seed=0, progress=False)
    assert result.pairs[0].deals >= 4
    example = load_script("examples/torchrl_ppo.py")
    args = example.parse_args(["--envs", "2"])
    _, critic, net = example.make_networks(example.make_env(args), args)
    value_net = critic.module
    mlp = MLPPolicy.load(example.to_mlp(net, value_net, "test").save(tmp_path / "fresh.npz"))
    obs = np.random.default_rng(0).random((8, 235), dtype=np.float32)
    with torch.no_grad():
        assert np.allclose(mlp.batch_logits(obs), net(torch.as_tensor(obs)).numpy(), atol=1e-5)
        assert np.isclose(mlp.predict_value(obs[0]), value_net(torch.as_tensor(obs[0])).item(), atol=1e-5)


def test_selfplay_collects_every_decision_of_both_seats_and_credits_each_seat():
    """``--selfplay``: the Collector's frames are the ``SelfPlayVectorEnv``'s steps one for one
    (replayed on a fresh env with the same seed and actions), and ``seat_gae`` writes per-seat GAE."""
    import numpy as np

    from sixtysix_env.envs.selfplay import SelfPlayVectorEnv, seat_advantages

    from .scripts import load_script

    example = load_script("examples/torchrl_ppo.py")
    n, steps = 8, 40
    args = example.parse_args(["--selfplay", "--envs", str(n), "--seed", "4", "--league", "0.5,0.5,0"])
    env = example.make_selfplay_env(args)
    policy = TensorDictModule(LowestLegal(), in_keys=["observation", "action_mask"], out_keys=["action"])
    collector = Collector(env, policy, frames_per_batch=n * steps, total_frames=n * steps)
    batch = next(iter(collector))
    collector.shutdown()
    assert batch.shape == (n, steps) and batch["next", "reward"].shape == (n, steps, 2)
    ref = SelfPlayVectorEnv(n, seed=4, league={"self": 0.5, "heuristic": 0.5})
    obs, infos = ref.reset(seed=4)
    for t in range(steps):
        assert np.array_equal(batch["observation"][:, t].numpy(), obs)
        assert np.array_equal(batch["current_player"][:, t].numpy(), infos["current_player"])
        obs, rewards, terminated, _, infos = ref.step(batch["action"][:, t].numpy())
        assert np.array_equal(batch["next", "reward"][:, t].numpy(), rewards)
        assert np.array_equal(batch["next", "terminated"][:, t, 0].numpy(), terminated)
    assert batch["current_player"][: n // 2].unique().tolist() == [0, 1]  # both seats' decisions collected
    _, critic, _ = example.make_networks(env, args)
    example.seat_gae(batch, critic, env)
    with torch.no_grad():
        values = critic.module(batch["observation"]).squeeze(-1).numpy()
    last = np.zeros((n, 2), dtype=np.float32)
    seat = ref.current_player
    with torch.no_grad():
        for s in (0, 1):
            rows = seat == s
            last[rows, s] = critic.module(torch.as_tensor(ref.observe(s)[rows])).squeeze(-1).numpy()
            last[~rows, s] = critic.module(torch.as_tensor(ref.observe(s)[~rows])).squeeze(-1).numpy()
    adv, _ = seat_advantages(
        batch["current_player"].numpy().T, batch["next", "reward"].numpy().transpose(1, 0, 2),
        batch["next", "terminated"][..., 0].numpy().T, values.T, last,
    )  # fmt: skip
    assert np.allclose(batch["advantage"][..., 0].numpy(), adv.T, atol=1e-5)

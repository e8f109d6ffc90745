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

from sixtysix_env.envs.vector import SixtySixVectorEnv

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


def _example():
    from .scripts import load_script

    return load_script("examples/rllib_ppo.py")


def test_the_saved_weights_give_the_rl_modules_logits_and_value():
    """``examples/rllib_ppo.py``'s export: the numpy weights compute the learner module's
    policy logits and value (encoder, then each head) on any observation."""
    import torch
    from ray.rllib.core.columns import Columns

    example = _example()
    cfg = example.build_config(example.parse_args(["--envs-per-runner", "2", "--hidden", "16"]))
    runner = SingleAgentEnvRunner(config=cfg)
    try:
        module = cfg.get_rl_module_spec(spaces=runner.get_spaces(), inference_only=False).build()
    finally:
        runner.stop()
    weights = {k: v.detach().numpy() for k, v in module.state_dict().items()}
    mlp = example.to_mlp(weights, "test")
    obs = np.random.default_rng(0).random((8, 235), dtype=np.float32)

    def batch():  # the module pops the mask out of the batch it is given: a fresh one per call
        return {Columns.OBS: {"observations": torch.as_tensor(obs), "action_mask": torch.ones((8, 32))}}

    with torch.no_grad():
        out = module.forward_inference(batch())
        value = module.compute_values(batch())
    assert np.allclose(mlp.batch_logits(obs), out[Columns.ACTION_DIST_INPUTS].numpy(), atol=1e-5)
    assert np.isclose(mlp.predict_value(obs[0]), float(value[0]), atol=1e-5)


@pytest.mark.parametrize("self_play", [False, True])
def test_the_example_prints_its_own_lines_and_saves_what_the_arena_plays(tmp_path, self_play):
    """A short run: no env-check warnings ("Illegal move made"), no INFO or deprecation lines, a
    return that means something with --self-play (each seat's), and weights the arena plays."""
    import subprocess
    import sys

    from sixtysix_env.arena import run_arena

    from .scripts import ROOT

    path = tmp_path / "rllib.npz"
    args = ["--iterations", "2", "--batch", "200", "--minibatch", "100", "--envs-per-runner", "2", "--hidden", "16"]
    args += ["--eval-deals", "0", "--save-npz", str(path)] + (["--self-play"] if self_play else [])
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "rllib_ppo.py"), *args], capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stderr[-3000:]
    text = run.stdout + run.stderr
    assert "Illegal move" not in text and "Deprecat" not in text and " INFO " not in text, text[-3000:]
    lines = [line for line in run.stdout.splitlines() if line.startswith("iteration")]
    assert len(lines) == 2
    if self_play:
        assert all("seat returns player_0" in line and "player_1" in line for line in lines), lines
    assert "return +0.00" not in run.stdout
    assert f"saved {path}" in run.stdout and "0 env runners" in run.stdout
    result = run_arena([f"ppo:path={path}", "heuristic"], deals=2, seed=0, progress=False)
    assert result.pairs[0].deals >= 4


def test_an_env_runner_that_cannot_start_stops_the_run_with_a_message(tmp_path, monkeypatch):
    """A node without the package: its runner's ``import sixtysix_env`` fails (here a stub package
    put first on the runners' path; Ray puts the driver's folder before it, so the driver runs
    from one without the package). The run stops at once, saying so, instead of training on
    with fewer runners than it reports."""
    import ray

    stub = tmp_path / "stub" / "sixtysix_env"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'sixtysix_env'\")\n")
    example = _example()
    args = example.parse_args(["--env-runners", "1", "--envs-per-runner", "2", "--hidden", "16"])
    monkeypatch.chdir(tmp_path)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": str(stub.parent)}},
    )
    try:
        with pytest.raises(SystemExit, match=r"env runner could not start.*\n.*sixtysix-env installed") as e:
            example.build_algo(example.build_config(args), args.env_runners)
        assert "sixtysix_env" in str(e.value)
    finally:
        ray.shutdown()

"""Sampling throughput of each RL framework: its own collector on the batched engine against the
same collector on single ``SixtySix-v0`` envs (the per-env path a user would otherwise take).

Each framework samples with the example's own policy network (``examples/*.py``, built by the
example's functions: 256x256 MLP, one torch thread) against the heuristic, and nothing is trained:

- RLlib: ``SingleAgentEnvRunner.sample(num_timesteps=S)`` on ``vector_entry_point``, against the
  same runner on RLlib's default sync vectorization of single envs (the example's ``--single``);
- TorchRL: one ``Collector`` batch of S frames over ``GymWrapper(make_vec(..., "vector_entry_point"))``,
  against a ``SerialEnv`` of ``GymEnv`` (``--single``);
- Tianshou: ``Collector.collect(n_step=S)`` over ``SixtySixTianshouEnv``, against a
  ``DummyVectorEnv`` of single envs (``--single``);
- SB3: one ``MaskablePPO.collect_rollouts`` of S steps on ``SixtySixSB3VecEnv``, against a
  ``DummyVecEnv`` of single envs.

The frameworks need different pins, so each runs in its own venv (``ci/frameworks.sh NAME`` builds
``.venvs/NAME``; SB3 is in the main ``.venv``); a framework that is not installed is skipped with
a line saying so. One process, ``--repeats`` timed calls per path after one warm-up call, the
paths of a framework interleaved; the figure is the median, and the ratio is batched over per-env
in the same run::

    .venvs/rllib/bin/python benchmarks/bench_frameworks.py --framework rllib
    .venvs/torchrl/bin/python benchmarks/bench_frameworks.py --framework torchrl
    .venvs/tianshou/bin/python benchmarks/bench_frameworks.py --framework tianshou
    .venv/bin/python benchmarks/bench_frameworks.py --framework sb3
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch starts its pool, as the examples do

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORKS = {"rllib": "ray", "torchrl": "torchrl", "tianshou": "tianshou", "sb3": "sb3_contrib"}
"""Each framework and the module that must import for it (its distribution's name, ``_`` as ``-``)."""

Sampler = Callable[[], int]
"""One timed call: samples, returns the env steps it took."""


def load_example(name: str) -> ModuleType:
    """An example script as a module (they are scripts, not a package)."""
    path = ROOT / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def rllib_sampler(single: bool, envs: int, steps: int, seed: int) -> Sampler:
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    ex = load_example("rllib_ppo")
    args = ex.parse_args(["--envs-per-runner", str(envs), "--seed", str(seed), *(["--single"] if single else [])])
    runner = SingleAgentEnvRunner(config=ex.build_config(args))

    def sample() -> int:
        return sum(len(e) for e in runner.sample(num_timesteps=steps, explore=True))

    return sample


def torchrl_sampler(single: bool, envs: int, steps: int, seed: int) -> Sampler:
    from torchrl.collectors import Collector

    ex = load_example("torchrl_ppo")
    args = ex.parse_args(["--envs", str(envs), "--seed", str(seed), *(["--single"] if single else [])])
    env = ex.make_env(args)
    actor, _, _ = ex.make_networks(env, args)
    frames = max(envs, steps // envs * envs)
    collector = Collector(env, actor, frames_per_batch=frames, total_frames=-1, auto_register_policy_transforms=False)
    batches = iter(collector)

    def sample() -> int:
        return int(next(batches).numel())

    return sample


def tianshou_sampler(single: bool, envs: int, steps: int, seed: int) -> Sampler:
    ex = load_example("tianshou_dqn")
    args = ex.parse_args(["--envs", str(envs), "--seed", str(seed), *(["--single"] if single else [])])
    collector, _, _ = ex.make_collector(args)
    collector.reset()

    def sample() -> int:
        return int(collector.collect(n_step=steps).n_collected_steps)

    return sample


def sb3_sampler(single: bool, envs: int, steps: int, seed: int) -> Sampler:
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from sixtysix_env.envs.sb3 import SixtySixSB3VecEnv

    if single:
        env = DummyVecEnv([lambda: gym.make("SixtySix-v0", opponent="heuristic")] * envs)
        env.seed(seed)
    else:
        env = SixtySixSB3VecEnv(num_envs=envs, seed=seed, opponent="heuristic")
    arch = [256, 256]
    n_steps = max(1, steps // envs)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=min(512, n_steps * envs),
        gamma=1.0,
        policy_kwargs={"net_arch": {"pi": arch, "vf": arch}, "activation_fn": torch.nn.Tanh},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    _, callback = model._setup_learn(10**12, None)
    callback.on_training_start(locals(), globals())

    def sample() -> int:
        model.collect_rollouts(model.env, callback, model.rollout_buffer, n_rollout_steps=n_steps)
        return n_steps * envs

    return sample


SAMPLERS: dict[str, Callable[[bool, int, int, int], Sampler]] = {
    "rllib": rllib_sampler,
    "torchrl": torchrl_sampler,
    "tianshou": tianshou_sampler,
    "sb3": sb3_sampler,
}


def measure(name: str, envs: int, batched_steps: int, single_steps: int, repeats: int, seed: int) -> list[list[str]]:
    """The framework's two rows: path, envs, median steps/s (min-max), ratio."""
    import torch

    torch.set_num_threads(1)
    paths = {"batched engine": (False, batched_steps), "single envs": (True, single_steps)}
    samplers = {path: SAMPLERS[name](single, envs, steps, seed) for path, (single, steps) in paths.items()}
    for sample in samplers.values():
        sample()  # warm-up: first batch, compile caches, torch
    rates: dict[str, list[float]] = {path: [] for path in paths}
    for _ in range(repeats):
        for path, sample in samplers.items():
            t = time.perf_counter()
            n = sample()
            rates[path].append(n / (time.perf_counter() - t))
    version = importlib.metadata.version(FRAMEWORKS[name].replace("_", "-"))
    median = {path: statistics.median(r) for path, r in rates.items()}
    return [
        [
            f"{name} {version}",
            path,
            str(envs),
            f"{median[path]:,.0f}",
            f"{min(rates[path]):,.0f}-{max(rates[path]):,.0f}",
            f"{median[path] / median['single envs']:.1f}x",
        ]
        for path in paths
    ]


def main(argv: list[str] | None = None) -> None:
    from sixtysix_env.checks import cli_int
    from sixtysix_env.cli_options import add_seed

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--framework",
        action="append",
        choices=sorted(FRAMEWORKS),
        help="measure this framework (repeatable; default: every one installed here)",
    )
    p.add_argument("--envs", type=cli_int, default=128, help="envs (deals) sampled together on both paths")
    p.add_argument("--steps", type=cli_int, default=32768, help="env steps of one timed call, batched path")
    p.add_argument("--single-steps", type=cli_int, default=4096, help="env steps of one timed call, per-env path")
    p.add_argument("--repeats", type=cli_int, default=5, help="timed calls per path")
    add_seed(p, help="seed of the envs on both paths")
    args = p.parse_args(argv)
    for name in ("envs", "steps", "single_steps", "repeats"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    names = args.framework or sorted(FRAMEWORKS)
    rows = []
    for name in names:
        if importlib.util.find_spec(FRAMEWORKS[name]) is None:
            print(f"{name}: not installed in this Python ({sys.prefix}): skipped (ci/frameworks.sh {name} builds it)")
            continue
        print(f"{name}: sampling ...", flush=True)
        rows += measure(name, args.envs, args.steps, args.single_steps, args.repeats, args.seed)
    header = ["framework", "path", "envs", "env steps/s (median)", "min-max", "vs single envs"]
    print(f"\nsampling only, against the heuristic, one torch thread, median of {args.repeats} calls, {time.ctime()}")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()

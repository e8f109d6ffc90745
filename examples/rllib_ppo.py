"""RLlib: PPO on the batched engine (the learner against the heuristic), on one machine or a Ray cluster.

    python examples/rllib_ppo.py --minutes 28 --curve results/rllib_ppo   # the README's run, in the driver
    python examples/rllib_ppo.py --env-runners 2                 # two sampling processes
    python examples/rllib_ppo.py --address auto --env-runners 8  # on the cluster `ray start` made (docs/ray.md)
    python examples/rllib_ppo.py --self-play                     # the two-player AEC env, one shared policy

Every env runner builds the batched engine itself: ``gymnasium.make_vec("sixtysix_env:SixtySix-v0",
num_envs=N, vectorization_mode="vector_entry_point", autoreset_mode="NextStep",
mask_in_observation=True, observation_key="observations")``. Two settings matter:

- ``"sixtysix_env:SixtySix-v0"``: Gymnasium imports the package before looking the id up, so a
  remote runner process, which never imports it otherwise, finds the env (plain ``"SixtySix-v0"``
  failed there with ``NameNotFound``);
- ``autoreset_mode="NextStep"``: RLlib's episodes assume Gymnasium's default next-step autoreset.
  With the vector env's same-step default RLlib still trains, on wrong data: the first decision
  of every deal was never trained on and every terminal observation was the next deal's first.

The observation is the Dict ``{"observations", "action_mask"}`` that RLlib's
``ActionMaskingTorchRLModule`` reads. ``--self-play`` trains on the AEC env instead
(``PettingZooEnv``, both seats mapped to one shared policy); ``--single`` on single
``SixtySix-v0`` envs in RLlib's default (sync) vectorization, the slow path the batched engine replaces.

Threads: RLlib's and torch's defaults start one compute thread per core in every process; on a
busy 2-core machine that is 10-20x slower than one thread each, so this script sets
``OMP_NUM_THREADS=1`` and ``torch.set_num_threads(1)`` everywhere (``--threads`` changes it).

Each iteration prints its env steps; at the end, the sampling-and-training throughput over the
iterations after the first (which includes starting the runners). Every ``--eval-every`` seconds
the greedy policy plays 500 duplicate deals against ``heuristic``, and at the end 2,000
(``sixtysix_env.integrations.curve``; ``--curve PREFIX`` writes PREFIX.csv, .json and .png).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import time
from typing import Any

from sixtysix_env.checks import cli_float, cli_int
from sixtysix_env.distributed import ADDRESS_HELP, cli_ray_address
from sixtysix_env.integrations.curve import LearningCurve, add_curve_arguments

GYM_ID = "sixtysix_env:SixtySix-v0"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument(
        "--iterations", type=cli_int, default=None, help="PPO iterations (default 60; no limit with --minutes)"
    )
    p.add_argument("--minutes", type=cli_float, default=None, help="stop training after this much wall time")
    p.add_argument("--batch", type=cli_int, default=8192, help="env steps per iteration")
    p.add_argument("--minibatch", type=cli_int, default=2048, help="env steps per gradient step")
    p.add_argument("--env-runners", type=cli_int, default=0, help="sampling processes (0: sample in the driver)")
    p.add_argument("--envs-per-runner", type=cli_int, default=128, help="deals each runner plays at once")
    p.add_argument("--address", type=cli_ray_address, default="local", help=f"Ray cluster: {ADDRESS_HELP}")
    p.add_argument("--self-play", action="store_true", help="the AEC env, both seats one shared policy")
    p.add_argument(
        "--single",
        action="store_true",
        help="single SixtySix-v0 envs in RLlib's own sync vector env instead of the batched engine (slow; debugging)",
    )
    p.add_argument("--hidden", type=cli_int, default=256)
    p.add_argument("--lr", type=cli_float, default=3e-4)
    p.add_argument("--threads", type=cli_int, default=1, help="torch threads per process")
    p.add_argument("--seed", type=cli_int, default=0)
    add_curve_arguments(p)
    args = p.parse_args(argv)
    if args.iterations is None:
        args.iterations = 60 if args.minutes is None else 10**9
    for name in ("iterations", "batch", "minibatch", "envs_per_runner", "hidden", "threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.env_runners < 0 or args.eval_deals < 0:
        p.error("--env-runners and --eval-deals must be 0 or more")
    if (args.minutes is not None and args.minutes <= 0) or not args.lr > 0:
        p.error("--minutes and --lr must be positive")
    return args


def build_config(args: argparse.Namespace) -> Any:
    """The ``PPOConfig`` of the run (RLlib imported here: ``--help`` works without it)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"head_fcnet_hiddens": [args.hidden, args.hidden], "vf_share_layers": True},
    )
    config = PPOConfig()
    if args.self_play:
        from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
        from ray.tune.registry import register_env

        from sixtysix_env import sixtysix_v0

        register_env("sixtysix", lambda _: PettingZooEnv(sixtysix_v0.env(observation_key="observations")))
        config = (
            config.environment("sixtysix")
            .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **k: "shared")
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        )
    elif args.single:  # RLlib's default vectorization: a Gymnasium SyncVectorEnv of single envs
        env_config = {"mask_in_observation": True, "observation_key": "observations", "opponent": "heuristic"}
        config = config.environment(GYM_ID, env_config=env_config).rl_module(rl_module_spec=module)
    else:
        env_config = {
            "autoreset_mode": "NextStep",
            "mask_in_observation": True,
            "observation_key": "observations",
            "opponent": "heuristic",
            "seed": args.seed,
        }
        config = (
            config.environment(GYM_ID, env_config=env_config)
            .env_runners(gym_env_vectorize_mode="vector_entry_point")
            .rl_module(rl_module_spec=module)
        )
    return (
        config.env_runners(
            num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner, sample_timeout_s=600
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(args.minibatch, args.batch),
            num_epochs=4,
            lr=args.lr,
            gamma=1.0,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # before torch and Ray start their pools
    import numpy as np
    import ray
    import torch
    from ray.rllib.core.columns import Columns

    torch.set_num_threads(args.threads)
    env_kw = {"runtime_env": {"env_vars": {"OMP_NUM_THREADS": str(args.threads)}}}
    if args.address == "local":
        cpus = max(2, args.env_runners + 1)  # a one-machine cluster, on the loopback address
        ray.init(num_cpus=cpus, _node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False, **env_kw)
    else:
        ray.init(address=args.address, log_to_driver=False, **env_kw)
    curve = LearningCurve.from_args(args, "RLlib PPO")
    config = build_config(args)
    algo = config.build_algo()
    policy = algo.get_module("shared" if args.self_play else None)

    def greedy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        batch = {Columns.OBS: {"observations": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks).float()}}
        with torch.no_grad():
            logits = policy.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return logits.argmax(-1).numpy()

    start = time.time()
    marks: list[tuple[float, float, float]] = []  # (wall time, env steps, sampling s) after each iteration
    i = steps = 0
    for i in range(1, args.iterations + 1):
        result = algo.train()
        runners = result.get("env_runners", {})
        steps = runners.get("num_env_steps_sampled_lifetime", 0)
        marks.append((time.time(), steps, result.get("timers", {}).get("env_runner_sampling_timer", math.nan)))
        length = runners.get("episode_len_mean", float("nan"))
        ret = runners.get("episode_return_mean", float("nan"))
        print(
            f"iteration {i} env steps {steps} deal length {length:.1f} return {ret:+.2f} ({time.time() - start:.0f} s)",
            flush=True,
        )
        if args.eval_deals >= 2:
            curve.maybe(greedy, steps)
        if args.minutes is not None and curve.elapsed() > 60 * args.minutes:
            break
    print(f"trained {i} iterations, {steps} env steps in {time.time() - start:.0f} s")
    if len(marks) > 1:
        rates = [(s1 - s0) / (t1 - t0) for (t0, s0, _), (t1, s1, _) in itertools.pairwise(marks)]
        sampling = [(s1 - s0) / x for (_, s0, _), (_, s1, x) in itertools.pairwise(marks)]
        print(
            f"throughput: {statistics.median(rates):.0f} env steps/s sampling and training, "
            f"{statistics.median(sampling):.0f} sampling alone (medians of iterations 2-{len(marks)}), "
            f"{args.env_runners} env runners x {args.envs_per_runner} envs"
        )
    if args.eval_deals >= 2:
        print("rllib_ppo", curve.final(greedy, steps, options=vars(args)))
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()

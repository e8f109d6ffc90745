"""RLlib: multi-agent self-play PPO on the two-player AEC env, with RLlib's action-masking RLModule.

    python examples/rllib_ppo.py --iterations 60

No glue: ``sixtysix_v0.env(observation_key="observations")`` gives the Dict observation
``{"observations", "action_mask"}`` that RLlib's ``ActionMaskingTorchRLModule`` reads, and
``PettingZooEnv`` turns the AEC env into RLlib's ``MultiAgentEnv``. Both seats map to one shared
policy, so it learns by playing itself (new API stack, local Ray cluster).

Threads: RLlib's and torch's defaults start one compute thread per core in every process; on a
busy 2-core machine that is 10-20x slower than one thread each, so this script sets
``OMP_NUM_THREADS=1`` and ``torch.set_num_threads(1)`` everywhere (``--threads`` changes it).

At the end the shared policy plays duplicate deals against ``heuristic``
(``sixtysix_env.integrations.evaluate``).
"""

from __future__ import annotations

import argparse
import os
import time


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument("--iterations", type=int, default=60, help="PPO training iterations")
    p.add_argument("--minutes", type=float, default=None, help="stop training after this much wall time")
    p.add_argument("--batch", type=int, default=8000, help="env steps (both seats) per iteration")
    p.add_argument("--env-runners", type=int, default=0, help="sampling processes (0: sample in the driver)")
    p.add_argument("--envs-per-runner", type=int, default=8)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--threads", type=int, default=1, help="torch threads per process")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-deals", type=int, default=2000, help="duplicate deals against heuristic at the end")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # before torch and Ray start their pools
    import numpy as np
    import ray
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    from sixtysix_env import sixtysix_v0
    from sixtysix_env.integrations.evaluate import duplicate_eval

    torch.set_num_threads(args.threads)
    ray.init(
        num_cpus=max(2, args.env_runners + 1),
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"OMP_NUM_THREADS": str(args.threads)}},
    )
    register_env("sixtysix", lambda _: PettingZooEnv(sixtysix_v0.env(observation_key="observations")))
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"head_fcnet_hiddens": [args.hidden, args.hidden], "vf_share_layers": True},
    )
    config = (
        PPOConfig()
        .environment("sixtysix")
        .env_runners(
            num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner, sample_timeout_s=600
        )
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **k: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(1000, args.batch // 2),
            num_epochs=4,
            lr=args.lr,
            gamma=1.0,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    start = time.time()
    for i in range(1, args.iterations + 1):
        result = algo.train()
        runners = result.get("env_runners", {})
        steps = runners.get("num_env_steps_sampled_lifetime", 0)
        length = runners.get("episode_len_mean", float("nan"))
        print(
            f"iteration {i}/{args.iterations} env steps {steps} deal length {length:.1f} ({time.time() - start:.0f} s)",
            flush=True,
        )
        if args.minutes is not None and time.time() - start > 60 * args.minutes:
            break
    print(f"trained {i} iterations, {steps} env steps in {time.time() - start:.0f} s")
    policy = algo.get_module("shared")

    def greedy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        batch = {Columns.OBS: {"observations": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks).float()}}
        with torch.no_grad():
            logits = policy.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return logits.argmax(-1).numpy()

    if args.eval_deals >= 2:
        print("rllib_ppo", duplicate_eval(greedy, deals=args.eval_deals, seed=12345))
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()

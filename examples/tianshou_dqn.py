"""Tianshou: masked DQN on the batched engine against the built-in heuristic.

    python examples/tianshou_dqn.py --epochs 10

No glue: ``SixtySixTianshouEnv(N, opponent="heuristic")`` (``sixtysix_env.integrations.tianshou``)
is an envpool-style vector env of N deals stepped by the numba kernels, which Tianshou's
``Collector`` takes as it is; its Dict observation ``{"obs", "mask"}`` is what Tianshou's
``DiscreteQLearningPolicy`` reads (``batch.obs.obs`` for the network, ``batch.obs.mask`` for the
legal actions). ``--single`` trains on ``DummyVectorEnv`` of single ``SixtySix-v0`` envs instead
(slow; for debugging). Training uses Tianshou's own ``OffPolicyTrainerParams``/``run_training``.

At the end the greedy policy plays duplicate deals against ``heuristic``
(``sixtysix_env.integrations.evaluate``).
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
import torch

import sixtysix_env  # noqa: F401  (registers SixtySix-v0)
from sixtysix_env.integrations.evaluate import duplicate_eval


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--epoch-steps", type=int, default=50_000, help="env steps per epoch")
    p.add_argument("--envs", type=int, default=64, help="deals collecting together")
    p.add_argument("--single", action="store_true", help="DummyVectorEnv of single envs (debugging)")
    p.add_argument("--buffer", type=int, default=100_000)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--eps", type=float, default=0.1, help="epsilon-greedy exploration while collecting")
    p.add_argument("--threads", type=int, default=1, help="torch threads (1 is fastest on a busy 2-core machine)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-deals", type=int, default=2000, help="duplicate deals against heuristic at the end")
    return p.parse_args(argv)


def make_env() -> gym.Env:
    return gym.make(
        "SixtySix-v0", opponent="heuristic", mask_in_observation=True, observation_key="obs", mask_key="mask"
    )


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's epsilon-greedy draws from numpy's global RNG
    env = make_env()
    if args.single:
        train_envs = DummyVectorEnv([make_env for _ in range(args.envs)])
    else:
        from sixtysix_env.integrations.tianshou import SixtySixTianshouEnv

        train_envs = SixtySixTianshouEnv(args.envs, opponent="heuristic")
    train_envs.seed(args.seed)
    obs_size = env.observation_space["obs"].shape[0]
    net = Net(state_shape=obs_size, action_shape=env.action_space.n, hidden_sizes=[args.hidden, args.hidden])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=env.action_space, observation_space=env.observation_space, eps_training=args.eps
    )
    algorithm = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=args.lr),
        gamma=1.0,
        n_step_return_horizon=3,
        target_update_freq=500,
    )
    buffer = VectorReplayBuffer(args.buffer, args.envs)
    collector = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    collector.reset()
    collector.collect(n_step=args.batch * args.envs)
    start = time.time()

    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=args.epochs,
            epoch_num_steps=args.epoch_steps,
            collection_step_num_env_steps=10 * args.envs,
            update_step_num_gradient_steps_per_sample=0.1,
            batch_size=args.batch,
            test_in_training=False,
            show_progress=False,
        )
    )
    print(f"trained {result.timing.total_time:.0f} s, {collector.collect_step} env steps ({time.time() - start:.0f} s)")

    def greedy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            q, _ = net(obs)
        q = q.masked_fill(~torch.as_tensor(masks, dtype=torch.bool), -torch.inf)
        return q.argmax(-1).numpy()

    if args.eval_deals >= 2:
        print("tianshou_dqn", duplicate_eval(greedy, deals=args.eval_deals, seed=12345))


if __name__ == "__main__":
    main()

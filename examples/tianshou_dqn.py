"""Tianshou: masked DQN on the batched engine against the built-in heuristic.

    python examples/tianshou_dqn.py --minutes 28 --curve results/tianshou_dqn   # the README's run

No glue: ``SixtySixTianshouEnv(N, opponent="heuristic")`` (``sixtysix_env.integrations.tianshou``)
is an envpool-style vector env of N deals stepped by the numba kernels, which Tianshou's
``Collector`` takes as it is; its Dict observation ``{"obs", "mask"}`` is what Tianshou's
``DiscreteQLearningPolicy`` reads (``batch.obs.obs`` for the network, ``batch.obs.mask`` for the
legal actions). ``--single`` trains on ``DummyVectorEnv`` of single ``SixtySix-v0`` envs instead
(slow; for debugging). Training uses Tianshou's own ``OffPolicyTrainerParams``/``run_training``.

Every ``--eval-every`` seconds the greedy policy plays 500 duplicate deals against ``heuristic``,
and at the end 2,000 (``sixtysix_env.integrations.curve``; ``--curve PREFIX`` writes the curve as
PREFIX.csv, .json and .png; the PNG needs matplotlib, in the ``tianshou`` extra). Tianshou's
trainer has no wall-time budget and, with its progress bars off, prints nothing between epochs:
its ``training_fn`` hook, called before every collect, ends the run at ``--minutes``, takes the
checkpoints and prints a progress line every ``--print-every`` seconds (env steps, the mean
return of the deals finished since the last line). The Q network is saved as numpy weights
(``--save-npz``, default ``results/tianshou_dqn.npz``) that the arena plays as ``ppo:path=FILE``
(the greedy action, the highest legal Q value): ``python -m sixtysix_env.arena --agents
ppo:path=results/tianshou_dqn.npz,heuristic``.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch

import sixtysix_env  # noqa: F401  (registers SixtySix-v0)
from sixtysix_env.checks import cli_int
from sixtysix_env.cli_options import AtLeast, positive_float, positive_int, unit_float
from sixtysix_env.integrations.curve import LearningCurve, add_curve_arguments


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument("--epochs", type=positive_int, default=None, help="epochs (default 10; no limit with --minutes)")
    p.add_argument("--minutes", type=positive_float, default=None, help="stop at the first collect past this wall time")
    p.add_argument("--epoch-steps", type=positive_int, default=50_000, help="env steps per epoch")
    p.add_argument("--envs", type=positive_int, default=256, help="deals collecting together")
    p.add_argument("--single", action="store_true", help="DummyVectorEnv of single envs (debugging)")
    p.add_argument("--buffer", type=positive_int, default=100_000)
    p.add_argument("--batch", type=positive_int, default=512)
    p.add_argument(
        "--updates-per-step", type=positive_float, default=0.005, help="gradient steps per env step collected"
    )
    p.add_argument("--lr", type=positive_float, default=1e-3)
    p.add_argument("--hidden", type=positive_int, default=256)
    p.add_argument("--eps", type=unit_float, default=0.1, help="epsilon-greedy exploration while collecting")
    p.add_argument(
        "--threads", type=positive_int, default=1, help="torch threads (1 is fastest on a busy 2-core machine)"
    )
    p.add_argument("--seed", type=cli_int, action=AtLeast, at_least=0, default=0)
    p.add_argument("--print-every", type=positive_float, default=20.0, help="seconds between progress lines")
    p.add_argument(
        "--save-npz",
        default="results/tianshou_dqn.npz",
        help="write the Q network here as numpy weights the arena plays as ppo:path=FILE ('' saves nothing)",
    )
    add_curve_arguments(p)
    args = p.parse_args(argv)
    if args.save_npz and not args.save_npz.endswith(".npz"):
        p.error(f"--save-npz must name a .npz file, got {args.save_npz!r}")
    if args.epochs is None:
        args.epochs = 10 if args.minutes is None else 10**6
    return args


class TimeUp(Exception):
    """Raised from Tianshou's ``training_fn`` hook when ``--minutes`` have passed."""


class DealReturns:
    """Counts what the training envs pay: the rewards summed and the deals ended since the last
    ``take()``, read from their ``step`` results (Tianshou's trainer reports neither to the hook)."""

    def __init__(self) -> None:
        self.total, self.deals = 0.0, 0

    def watch(self, envs: Any) -> None:
        step = envs.step

        def counted(action: Any, env_id: Any = None) -> Any:
            out = step(action, env_id)
            self.total += float(np.sum(out[1]))
            self.deals += int(np.sum(np.logical_or(out[2], out[3])))
            return out

        envs.step = counted

    def take(self) -> tuple[float, int]:
        """The mean return per finished deal (nan when none ended) and their count; starts afresh."""
        mean = self.total / self.deals if self.deals else math.nan
        deals, self.total, self.deals = self.deals, 0.0, 0
        return mean, deals


def to_mlp(net: Any, source: str) -> Any:
    """The Q network as numpy weights (``sixtysix_env.agents.mlp``): its Q values are the policy's
    logits, so the ``ppo`` agent's greedy action is the highest legal Q value. DQN has no value
    head: the file's is the Q network's hidden layers followed by zeros (its value reads 0)."""
    from torch import nn

    from sixtysix_env.agents.mlp import linear_layers, vector_policy

    layers = linear_layers([m for m in net.modules() if isinstance(m, nn.Linear)])
    hidden = layers[-1][0].shape[1]
    zero = (np.zeros((1, hidden), dtype=np.float32), np.zeros(1, dtype=np.float32))
    return vector_policy(layers, (*layers[:-1], zero), activation="relu", rules="standard", source=source)


def make_env() -> gym.Env:
    return gym.make(
        "SixtySix-v0", opponent="heuristic", mask_in_observation=True, observation_key="obs", mask_key="mask"
    )


def make_collector(args: argparse.Namespace, returns: DealReturns | None = None) -> tuple[Any, Any, Any]:
    """The run's ``Collector`` (on ``SixtySixTianshouEnv``, or with ``--single`` on a
    ``DummyVectorEnv`` of single envs), its DQN algorithm and the Q network; ``returns`` counts
    what the training envs pay."""
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.utils.net.common import Net

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
    if returns is not None:
        returns.watch(train_envs)
    return Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True), algorithm, net


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    from tianshou.trainer import OffPolicyTrainerParams

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's epsilon-greedy draws from numpy's global RNG
    returns = DealReturns()
    collector, algorithm, net = make_collector(args, returns)

    def greedy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            q, _ = net(obs)
        q = q.masked_fill(~torch.as_tensor(masks, dtype=torch.bool), -torch.inf)
        return q.argmax(-1).numpy()

    curve = LearningCurve.from_args(args, "Tianshou DQN")

    warmup_steps = 64 * args.envs  # random-policy steps that fill the buffer first
    progress = {"steps": warmup_steps, "printed": time.time()}

    def training_fn(epoch: int, env_step: int) -> None:
        progress["steps"] = warmup_steps + env_step
        now = time.time()
        if now - progress["printed"] >= args.print_every:
            mean, deals = returns.take()
            ended = f"deal return {mean:+.3f} over {deals} deals" if deals else "no deal ended since the last line"
            print(f"epoch {epoch} env steps {progress['steps']} {ended} ({now - start:.0f} s)", flush=True)
            progress["printed"] = now
        if args.eval_deals >= 2:
            curve.maybe(greedy, progress["steps"])
        if args.minutes is not None and curve.elapsed() > 60 * args.minutes:
            raise TimeUp

    collector.reset()
    collector.collect(n_step=warmup_steps)
    returns.take()  # the warm-up that fills the buffer is not counted in the first line
    start = time.time()
    with contextlib.suppress(TimeUp):
        algorithm.run_training(
            OffPolicyTrainerParams(
                training_collector=collector,
                max_epochs=args.epochs,
                epoch_num_steps=args.epoch_steps,
                # at least one gradient step per collect (Tianshou refuses zero)
                collection_step_num_env_steps=max(10 * args.envs, math.ceil(1 / args.updates_per_step)),
                update_step_num_gradient_steps_per_sample=args.updates_per_step,
                batch_size=args.batch,
                test_in_training=False,
                show_progress=False,
                training_fn=training_fn,
            )
        )
    steps = progress["steps"]
    print(f"trained {steps} env steps in {time.time() - start:.0f} s")
    if args.save_npz:
        path = to_mlp(net, f"examples/tianshou_dqn.py, {steps} env steps, seed {args.seed}").save(args.save_npz)
        print(f"saved {path}: python -m sixtysix_env.arena --agents ppo:path={path},heuristic", flush=True)
    if args.eval_deals >= 2:
        print("tianshou_dqn", curve.final(greedy, steps, options=vars(args)))


if __name__ == "__main__":
    main()

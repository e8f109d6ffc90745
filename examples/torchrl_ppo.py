"""TorchRL: PPO with the action mask on the batched engine against the built-in heuristic.

    python examples/torchrl_ppo.py --minutes 28 --curve results/torchrl_ppo   # the README's run

No glue: ``GymWrapper(gymnasium.make_vec("SixtySix-v0", N, vectorization_mode="vector_entry_point"))``
wraps the batched vector env (N deals stepped by numba kernels; TorchRL reads its
``autoreset_mode``, same-step, and takes each finished deal's last observation from
``final_obs``). The mask comes in through the infos as the ``action_mask`` key; TorchRL's
``ActionMask`` transform applies it to the action spec, and the actor samples from
``MaskedCategorical`` (TorchRL's documented pattern). The mask is cast to bool first (the env's
is int8). ``--single`` uses ``SerialEnv`` of single ``GymEnv("SixtySix-v0")`` envs instead (slow;
for debugging). Collection, GAE and the clipped loss are TorchRL's.

Every batch prints a progress line (a few seconds apart on the batched engine). Every
``--eval-every`` seconds the greedy policy plays 500 duplicate deals against ``heuristic``, and at
the end 2,000 (``sixtysix_env.integrations.curve``; ``--curve PREFIX`` writes the curve as
PREFIX.csv, .json and .png; the PNG needs matplotlib, in the ``torchrl`` extra). The trained actor
and critic are saved as numpy weights (``--save-npz``, default ``results/torchrl_ppo.npz``) that the
arena plays as ``ppo:path=FILE``: ``python -m sixtysix_env.arena --agents
ppo:path=results/torchrl_ppo.npz,heuristic``. TorchRL's INFO log lines are silenced
(``RL_LOGGING_LEVEL=WARNING`` unless set).
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from typing import Any

import numpy as np
import torch
from torch import nn

import sixtysix_env  # noqa: F401  (registers SixtySix-v0)
from sixtysix_env.checks import cli_float, cli_int
from sixtysix_env.integrations.curve import LearningCurve, add_curve_arguments

# TorchRL logs INFO lines (spec checks, storage sizes) at import and while building the env: only
# warnings and errors are shown, unless the user sets the level himself.
os.environ.setdefault("RL_LOGGING_LEVEL", "WARNING")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument("--frames", type=cli_int, default=None, help="env steps (default 200,000; no limit with --minutes)")
    p.add_argument("--frames-per-batch", type=cli_int, default=8192)
    p.add_argument("--envs", type=cli_int, default=128, help="deals stepped together")
    p.add_argument("--single", action="store_true", help="SerialEnv of single envs (debugging)")
    p.add_argument("--minutes", type=cli_float, default=None, help="stop after the batch that passes this wall time")
    p.add_argument("--epochs", type=cli_int, default=4)
    p.add_argument("--minibatch", type=cli_int, default=2048)
    p.add_argument("--lr", type=cli_float, default=3e-4)
    p.add_argument("--hidden", type=cli_int, default=256)
    p.add_argument("--threads", type=cli_int, default=1, help="torch threads (1 is fastest on a busy 2-core machine)")
    p.add_argument("--seed", type=cli_int, default=0)
    p.add_argument(
        "--save-npz",
        default="results/torchrl_ppo.npz",
        help="write the trained networks here as numpy weights the arena plays as ppo:path=FILE ('' saves nothing)",
    )
    add_curve_arguments(p)
    args = p.parse_args(argv)
    if args.save_npz and not args.save_npz.endswith(".npz"):
        p.error(f"--save-npz must name a .npz file, got {args.save_npz!r}")
    if args.minibatch > args.frames_per_batch:
        p.error(f"--minibatch {args.minibatch} is larger than --frames-per-batch {args.frames_per_batch}")
    return args


def make_env(args: argparse.Namespace) -> Any:
    """The env the run trains on: the batched engine wrapped by ``GymWrapper``, or (``--single``)
    a ``SerialEnv`` of single ``GymEnv("SixtySix-v0")`` envs; the mask as a bool ``action_mask``."""
    import gymnasium as gym
    from torchrl.envs import ActionMask, Compose, DTypeCastTransform, GymEnv, GymWrapper, SerialEnv, TransformedEnv

    # again here: torchrl may have been imported before this module set the variable
    logging.getLogger("torchrl").setLevel(os.environ["RL_LOGGING_LEVEL"])

    def cast() -> Any:
        return DTypeCastTransform(torch.int8, torch.bool, in_keys=["action_mask"])

    def make_single() -> TransformedEnv:
        base = GymEnv("SixtySix-v0", opponent="heuristic", mask_in_observation=True, categorical_action_encoding=True)
        return TransformedEnv(base, cast())

    if args.single:
        env = TransformedEnv(SerialEnv(args.envs, make_single), ActionMask())
    else:
        vec = gym.make_vec("SixtySix-v0", args.envs, vectorization_mode="vector_entry_point", opponent="heuristic")
        # GymWrapper of a vector env is already a TransformedEnv: say that the two are merged (as
        # TorchRL does by default) instead of letting it warn about it
        env = TransformedEnv(
            GymWrapper(vec, categorical_action_encoding=True), Compose(cast(), ActionMask()), auto_unwrap=True
        )
    env.set_seed(args.seed)
    return env


def make_networks(env: Any, args: argparse.Namespace) -> tuple[Any, Any, nn.Module]:
    """The masked actor (``MaskedCategorical`` over the logits), the value network (its plain MLP
    is ``critic.module``), and the logits MLP inside the actor (for the greedy policy)."""
    from tensordict.nn import TensorDictModule
    from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator

    obs_size = env.observation_spec["observation"].shape[-1]
    n_actions = env.action_spec.space.n

    def mlp(out: int) -> nn.Module:
        h = args.hidden
        return nn.Sequential(nn.Linear(obs_size, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, out))

    net, value_net = mlp(n_actions), mlp(1)
    logits_net = TensorDictModule(net, in_keys=["observation"], out_keys=["logits"])
    actor = ProbabilisticActor(
        logits_net,
        in_keys={"logits": "logits", "mask": "action_mask"},
        out_keys=["action"],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        spec=env.action_spec,
    )
    return actor, ValueOperator(value_net, in_keys=["observation"]), net


def to_mlp(net: nn.Module, value_net: nn.Module, source: str) -> Any:
    """The actor's logits MLP and the critic as numpy weights (``sixtysix_env.agents.mlp``): the
    file the ``ppo`` agent plays (``ppo:path=FILE.npz``), reading the same 235-float observation."""
    from sixtysix_env.agents.mlp import linear_layers, vector_policy

    def linears(m: nn.Module) -> Any:
        return linear_layers([layer for layer in m if isinstance(layer, nn.Linear)])

    return vector_policy(linears(net), linears(value_net), activation="tanh", rules="standard", source=source)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    from torchrl.collectors import Collector
    from torchrl.data import LazyTensorStorage, ReplayBuffer, SamplerWithoutReplacement
    from torchrl.objectives import ClipPPOLoss
    from torchrl.objectives.value import GAE

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    env = make_env(args)
    actor, critic, net = make_networks(env, args)
    loss = ClipPPOLoss(
        actor,
        critic,
        clip_epsilon=0.2,
        entropy_coeff=0.01,
        critic_coeff=0.5,
        loss_critic_type="l2",
        normalize_advantage=True,
    )
    gae = GAE(gamma=1.0, lmbda=0.95, value_network=critic)
    opt = torch.optim.Adam(loss.parameters(), lr=args.lr)
    collector = Collector(
        env,
        actor,
        frames_per_batch=args.frames_per_batch,
        total_frames=args.frames or (200_000 if args.minutes is None else -1),
        auto_register_policy_transforms=False,
    )
    buffer = ReplayBuffer(storage=LazyTensorStorage(args.frames_per_batch), sampler=SamplerWithoutReplacement())

    def greedy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = net(torch.as_tensor(obs))
        logits = logits.masked_fill(~torch.as_tensor(masks, dtype=torch.bool), -torch.inf)
        return logits.argmax(-1).numpy()

    curve = LearningCurve.from_args(args, "TorchRL PPO")
    start = time.time()
    frames = 0
    for i, batch in enumerate(collector, 1):
        frames += batch.numel()
        with torch.no_grad():
            gae(batch)
        buffer.extend(batch.reshape(-1))
        for _ in range(args.epochs):
            for _ in range(args.frames_per_batch // args.minibatch):
                parts = loss(buffer.sample(args.minibatch))
                total = parts["loss_objective"] + parts["loss_critic"] + parts["loss_entropy"]
                opt.zero_grad()
                total.backward()
                nn.utils.clip_grad_norm_(loss.parameters(), 0.5)
                opt.step()
        ended = batch["next", "done"].squeeze(-1)
        rewards = batch["next", "reward"].squeeze(-1)[ended]
        mean = rewards.mean().item() if ended.any() else float("nan")
        print(
            f"batch {i} frames {frames} last-step reward of ended deals {mean:+.3f} ({time.time() - start:.0f} s)",
            flush=True,
        )
        if args.eval_deals >= 2:
            curve.maybe(greedy, frames)
        if args.minutes is not None and curve.elapsed() > 60 * args.minutes:
            break
    collector.shutdown()
    print(f"trained {frames} frames in {time.time() - start:.0f} s")
    if args.save_npz:
        mlp = to_mlp(net, critic.module, f"examples/torchrl_ppo.py, {frames} frames, seed {args.seed}")
        path = mlp.save(args.save_npz)
        print(f"saved {path}: python -m sixtysix_env.arena --agents ppo:path={path},heuristic", flush=True)
    if args.eval_deals >= 2:
        print("torchrl_ppo", curve.final(greedy, frames, options=vars(args)))


if __name__ == "__main__":
    main()

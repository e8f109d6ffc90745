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

``--selfplay`` trains on both seats' decisions with a league instead
(``sixtysix_env.envs.selfplay.SelfPlayVectorEnv``, wrapped as the ``EnvBase`` below): ``--league
SELF,HEURISTIC,PAST`` shares of the envs (both-seat self-play, the heuristic in one seat, a past
self from a pool of snapshots taken every ``--snapshot-every`` batches). Each frame is the
decision of the seat to act (``current_player``), its reward ``(2,)`` per seat. TorchRL's GAE
assumes an agent's consecutive frames follow each other; here a seat's next decision is two or
more frames on, so the advantages come from ``seat_advantages`` (per-seat GAE) and are written to
the batch's ``advantage`` and ``value_target``, which ``ClipPPOLoss`` then reads as given.
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
from sixtysix_env.checks import cli_int, parse_float_text
from sixtysix_env.cli_options import AtLeast, positive_float, positive_int
from sixtysix_env.integrations.curve import LearningCurve, add_curve_arguments

# TorchRL logs INFO lines (spec checks, storage sizes) at import and while building the env: only
# warnings and errors are shown, unless the user sets the level himself.
os.environ.setdefault("RL_LOGGING_LEVEL", "WARNING")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument(
        "--frames", type=positive_int, default=None, help="env steps (default 200,000; no limit with --minutes)"
    )
    p.add_argument("--frames-per-batch", type=positive_int, default=8192)
    p.add_argument("--envs", type=positive_int, default=128, help="deals stepped together")
    p.add_argument("--single", action="store_true", help="SerialEnv of single envs (debugging)")
    p.add_argument(
        "--minutes", type=positive_float, default=None, help="stop after the batch that passes this wall time"
    )
    p.add_argument("--epochs", type=positive_int, default=4)
    p.add_argument("--minibatch", type=positive_int, default=2048, help="at most --frames-per-batch")
    p.add_argument("--lr", type=positive_float, default=3e-4)
    p.add_argument("--hidden", type=positive_int, default=256)
    p.add_argument(
        "--threads", type=positive_int, default=1, help="torch threads (1 is fastest on a busy 2-core machine)"
    )
    p.add_argument("--seed", type=cli_int, action=AtLeast, at_least=0, default=0)
    p.add_argument(
        "--save-npz",
        default="results/torchrl_ppo.npz",
        help="write the trained networks here as numpy weights the arena plays as ppo:path=FILE ('' saves nothing)",
    )
    p.add_argument("--selfplay", action="store_true", help="train both seats' decisions with a league (see above)")
    p.add_argument("--league", default="0.5,0.4,0.1", help="--selfplay: shares SELF,HEURISTIC,PAST of the envs")
    p.add_argument("--snapshot-every", type=positive_int, default=50, help="--selfplay: batches between snapshots")
    add_curve_arguments(p)
    args = p.parse_args(argv)
    if args.selfplay:
        read = [parse_float_text(x.strip()) for x in args.league.split(",")]  # ASCII digits, finite
        shares = [x for x in read if x is not None]
        if len(shares) != len(read) or len(shares) != 3 or min(shares) < 0 or sum(shares) > 1 + 1e-9:
            p.error(
                f"--league takes three shares SELF,HEURISTIC,PAST (each >= 0, at most 1 in all), got {args.league!r}"
            )
        args.league = dict(zip(("self", "heuristic", "past"), shares, strict=True))
        if args.single or args.frames_per_batch % args.envs:
            p.error("--selfplay runs the batched env: no --single, and --frames-per-batch a multiple of --envs")
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


def make_selfplay_env(args: argparse.Namespace) -> Any:
    """``SelfPlayVectorEnv`` (both seats, the league of ``--league``) as a TorchRL ``EnvBase`` of
    batch size N: ``observation``, bool ``action_mask`` and ``current_player`` of the seat to act,
    ``reward`` (N, 2) per seat. The env deals again itself when a deal ends (same step), so a
    reset of some envs returns what they already show."""
    from tensordict import TensorDict
    from torchrl.data import Binary, Categorical, Composite, Unbounded
    from torchrl.envs import EnvBase

    from sixtysix_env.envs.selfplay import SelfPlayVectorEnv
    from sixtysix_env.envs.vector_opponents import SnapshotPool

    class SelfPlayTorchEnv(EnvBase):
        def __init__(self, env: SelfPlayVectorEnv) -> None:
            n = env.num_envs
            super().__init__(batch_size=torch.Size([n]))
            self.env, self._seed = env, None
            self.observation_spec = Composite(
                observation=Unbounded((n, 235), dtype=torch.float32),
                action_mask=Binary(n=32, shape=(n, 32), dtype=torch.bool),
                current_player=Categorical(2, shape=(n,), dtype=torch.int64),
                shape=(n,),
            )
            self.action_spec = Categorical(32, shape=(n,), dtype=torch.int64)
            self.reward_spec = Unbounded((n, 2), dtype=torch.float32)
            self._started = False

        def _view(self, obs: np.ndarray, infos: dict[str, Any]) -> dict[str, torch.Tensor]:
            return {
                "observation": torch.as_tensor(obs),
                "action_mask": torch.as_tensor(infos["action_mask"], dtype=torch.bool),
                "current_player": torch.as_tensor(infos["current_player"]),
            }

        def _reset(self, tensordict: Any = None, **kwargs: Any) -> Any:
            if not self._started:
                obs, infos = self.env.reset(seed=self._seed)
                self._started = True
            else:  # a finished deal was dealt again in the step that ended it
                obs, infos = self.env._observation(), self.env._infos()
            return TensorDict(self._view(obs, infos), batch_size=self.batch_size)

        def _step(self, tensordict: Any) -> Any:
            obs, rewards, terminated, truncated, infos = self.env.step(tensordict["action"].numpy())
            done = torch.as_tensor(terminated | truncated).unsqueeze(-1)
            return TensorDict(
                {
                    **self._view(obs, infos),
                    "reward": torch.as_tensor(rewards),
                    "done": done,
                    "terminated": torch.as_tensor(terminated).unsqueeze(-1),
                    "truncated": torch.as_tensor(truncated).unsqueeze(-1),
                },
                batch_size=self.batch_size,
            )

        def _set_seed(self, seed: int | None) -> None:
            self._seed, self._started = seed, False

    pool = SnapshotPool(8)
    env = SelfPlayTorchEnv(SelfPlayVectorEnv(args.envs, "standard", seed=args.seed, league=args.league, pool=pool))
    env.set_seed(args.seed)
    return env


def seat_gae(batch: Any, critic: Any, env: Any, lam: float = 0.95) -> None:
    """Per-seat GAE (``seat_advantages``) of a collected (N, T) batch, written as ``advantage``
    and ``value_target`` (N, T, 1); the seats' bootstrap values come from the env where it stopped."""
    from sixtysix_env.envs.selfplay import seat_advantages

    with torch.no_grad():
        values = critic.module(batch["observation"]).squeeze(-1).numpy()  # (N, T)
        sp = env.env
        seat = sp.current_player
        last = np.zeros((sp.num_envs, 2), dtype=np.float32)
        rows = np.arange(sp.num_envs)
        last[rows, seat] = critic.module(torch.as_tensor(sp.observe(seat))).squeeze(-1).numpy()
        last[rows, 1 - seat] = critic.module(torch.as_tensor(sp.observe(1 - seat))).squeeze(-1).numpy()
    adv, ret = seat_advantages(
        batch["current_player"].numpy().T,
        batch["next", "reward"].numpy().transpose(1, 0, 2),
        batch["next", "terminated"].squeeze(-1).numpy().T,
        values.T,
        last,
        gamma=1.0,
        lam=lam,
    )
    batch["advantage"] = torch.as_tensor(adv.T, dtype=torch.float32).unsqueeze(-1)
    batch["value_target"] = torch.as_tensor(ret.T, dtype=torch.float32).unsqueeze(-1)


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
    env = make_selfplay_env(args) if args.selfplay else make_env(args)
    actor, critic, net = make_networks(env, args)
    if args.selfplay:  # the past selves start as the start
        env.env.pool.add(to_mlp(net, critic.module, "snapshot 0"), "batch 0")
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
        if args.selfplay:
            seat_gae(batch, critic, env)
        else:
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
        if args.selfplay:  # the learner's result where the heuristic plays the other seat
            ended &= torch.as_tensor(env.env.kinds == 1).unsqueeze(-1)  # KINDS[1] == "heuristic"
            pool = env.env.pool
            if args.league["past"] > 0 and i % args.snapshot_every == 0:
                pool.add(to_mlp(net, critic.module, f"snapshot {i}"), f"batch {i}")
            rewards = batch["next", "reward"][ended].gather(-1, batch["current_player"][ended].unsqueeze(-1))
        else:
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

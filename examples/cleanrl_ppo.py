"""CleanRL-style single-file masked PPO on the batched vector env, against the built-in heuristic.

    python examples/cleanrl_ppo.py --minutes 28 --curve results/cleanrl_ppo   # the README's run

The env is ``gymnasium.make_vec("SixtySix-v0", num_envs=N, vectorization_mode="vector_entry_point",
opponent="heuristic")``: N deals stepped by numba kernels, the opponent played inside them
(``--opponent ppo:model=fast_standard`` a shipped network, ``--opponent self`` the learner's own
current policy, both batched: ``sixtysix_env.envs.vector_opponents``). The
mask comes in ``infos["action_mask"]`` at every step (never all zero); a finished deal is
replaced within the same step (the learner's next observation is already the new deal's), so
``terminated`` is the episode boundary for GAE as in CleanRL's ``ppo.py``. Illegal logits are set
to the dtype's minimum before the softmax, as in CleanRL's and RLlib's masked policies.

Every ``--eval-every`` seconds the greedy policy plays 500 duplicate deals against ``heuristic``,
and at the end 2,000 (``sixtysix_env.integrations.curve``: with ``--curve PREFIX`` the curve is
written as PREFIX.csv, .json and .png; the PNG needs matplotlib, in the ``cleanrl`` extra). The
trained network is saved as numpy weights (``--save-npz``, default ``results/cleanrl_ppo.npz``)
that the arena plays as ``ppo:path=FILE``: ``python -m sixtysix_env.arena --agents
ppo:path=results/cleanrl_ppo.npz,heuristic``; ``--save`` also writes the torch ``state_dict``.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import sixtysix_env  # noqa: F401  (registers SixtySix-v0)
from sixtysix_env.checks import cli_int
from sixtysix_env.cli_options import AtLeast, non_negative_float, positive_float, positive_int, unit_float
from sixtysix_env.integrations.curve import LearningCurve, add_curve_arguments

PRINT_EVERY_S = 25.0
"""A progress line at least this often (every 20 updates too), whatever the opponent's speed."""


def add_ppo_arguments(p: argparse.ArgumentParser) -> None:
    """PPO's settings and the network's width (``cleanrl_selfplay.py`` takes the same)."""
    p.add_argument("--lr", type=positive_float, default=3e-4)
    p.add_argument("--gamma", type=unit_float, default=1.0, help="a deal is short and only its end pays")
    p.add_argument("--gae-lambda", type=unit_float, default=0.95)
    p.add_argument("--epochs", type=positive_int, default=4)
    p.add_argument("--minibatches", type=positive_int, default=4, help="at most --num-envs x --num-steps")
    p.add_argument("--clip", type=positive_float, default=0.2)
    p.add_argument("--ent-coef", type=non_negative_float, default=0.01)
    p.add_argument("--vf-coef", type=non_negative_float, default=0.5)
    p.add_argument("--hidden", type=positive_int, default=256)


def check_ppo_arguments(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """What no option's type can see alone: a rollout of ``--num-envs`` x ``--num-steps``
    decisions splits into ``--minibatches`` minibatches of at least one decision."""
    size = args.num_envs * args.num_steps
    if args.minibatches > size:
        p.error(f"--minibatches {args.minibatches} is more than --num-envs x --num-steps ({size} decisions a rollout)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument(
        "--total-timesteps",
        type=positive_int,
        default=None,
        help="learner decisions (default 3,000,000; no limit with --minutes)",
    )
    p.add_argument(
        "--minutes", type=positive_float, default=None, help="stop after the update that passes this wall time"
    )
    p.add_argument("--num-envs", type=positive_int, default=128, help="deals stepped together")
    p.add_argument("--num-steps", type=positive_int, default=64, help="steps per env per rollout")
    add_ppo_arguments(p)
    p.add_argument(
        "--opponent",
        default="heuristic",
        help="heuristic or random (in the kernels), ppo[:model=NAME] (a shipped network, batched numpy), or self "
        "(the learner's current greedy policy: self-play, the learner drawn into either seat per deal)",
    )
    p.add_argument("--seed", type=cli_int, action=AtLeast, at_least=0, default=0)
    p.add_argument(
        "--threads", type=positive_int, default=1, help="torch threads (1 is fastest on a busy 2-core machine)"
    )
    add_curve_arguments(p)
    p.add_argument(
        "--init",
        default=None,
        help="start from these numpy weights (.npz, e.g. sixtysix_env/models/cleanrl_standard.npz) instead of "
        "random ones: continue a run (the optimizer starts afresh)",
    )
    p.add_argument("--save", default=None, help="write the trained weights here (torch.save)")
    p.add_argument(
        "--save-npz",
        default="results/cleanrl_ppo.npz",
        help="write them as numpy weights (.npz) that play as the ppo agent without torch: ppo:path=FILE.npz "
        "('' saves nothing)",
    )
    args = p.parse_args(argv)
    if args.save_npz and not args.save_npz.endswith(".npz"):
        p.error(f"--save-npz must name a .npz file, got {args.save_npz!r}")
    check_ppo_arguments(p, args)
    return args


class Agent(nn.Module):
    def __init__(self, obs_size: int, n_actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.v(self.body(obs)).squeeze(-1)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, torch.finfo(torch.float32).min)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.v(h).squeeze(-1)

    def to_mlp(self, source: str):
        """The same network as numpy weights (``sixtysix_env.agents.mlp``): the policy is body + pi,
        the value body + v, each a chain of Linear layers with tanh between."""
        from sixtysix_env.agents.mlp import linear_layers, vector_policy

        first, second = self.body[0], self.body[2]
        policy, value = linear_layers((first, second, self.pi)), linear_layers((first, second, self.v))
        return vector_policy(policy, value, activation="tanh", rules="standard", source=source)

    def load_mlp(self, path: str) -> None:
        """Take the weights of a ``.npz`` this example wrote (``--save-npz``); a file of another
        shape is refused with the shapes it has."""
        from sixtysix_env.agents.mlp import MLPPolicy

        try:
            mlp = MLPPolicy.load(path)
        except (OSError, ValueError) as e:  # missing, unreadable or not a weights file
            raise SystemExit(f"--init {path}: {e}") from None
        modules = (self.body[0], self.body[2], self.pi)
        if len(mlp.policy) != 3 or len(mlp.value) != 3 or mlp.activation != "tanh":
            raise SystemExit(f"--init {path}: not a network of this example (two tanh layers, policy and value heads)")
        want = [tuple(m.weight.shape) for m in modules]
        got = [w.shape for w, _ in mlp.policy]
        if want != got:
            raise SystemExit(f"--init {path}: its policy layers are {got}, this network's {want} (--hidden?)")
        with torch.no_grad():
            for m, (w, b) in zip((*modules, self.v), (*mlp.policy, mlp.value[-1]), strict=True):
                m.weight.copy_(torch.as_tensor(w))
                m.bias.copy_(torch.as_tensor(b))

    def greedy(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The batched policy ``duplicate_eval`` plays: the most probable legal action."""
        with torch.no_grad():
            logits = self.pi(self.body(torch.as_tensor(obs)))
            logits = logits.masked_fill(~torch.as_tensor(masks, dtype=torch.bool), torch.finfo(torch.float32).min)
        return logits.argmax(-1).numpy()


def ppo_update(agent: Agent, opt: torch.optim.Optimizer, batch: tuple[torch.Tensor, ...], args) -> None:
    """CleanRL's clipped PPO epochs over one flattened rollout (``cleanrl_selfplay.py`` too)."""
    b_obs, b_mask, b_act, b_logp, b_adv, b_ret = batch
    size = len(b_obs)
    mb = max(1, size // args.minibatches)
    for _ in range(args.epochs):
        perm = torch.randperm(size)
        for s in range(0, size, mb):
            idx = perm[s : s + mb]
            _, logp, ent, value = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
            ratio = (logp - b_logp[idx]).exp()
            a = b_adv[idx]
            a = (a - a.mean()) / (a.std() + 1e-8)
            pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
            loss = pg + args.vf_coef * ((value - b_ret[idx]) ** 2).mean() - args.ent_coef * ent.mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            opt.step()


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    current: dict[str, Agent] = {}  # self-play: the opponent callable plays the agent built below
    opponent = (lambda obs, masks: current["agent"].greedy(obs, masks)) if args.opponent == "self" else args.opponent
    envs = gym.make_vec(
        "SixtySix-v0", num_envs=args.num_envs, vectorization_mode="vector_entry_point", opponent=opponent
    )
    obs_size, n_actions = envs.single_observation_space.shape[0], envs.single_action_space.n
    agent = current["agent"] = Agent(obs_size, n_actions, args.hidden)
    if args.init:
        agent.load_mlp(args.init)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n, t_steps = args.num_envs, args.num_steps
    obs_buf = torch.zeros((t_steps, n, obs_size))
    mask_buf = torch.zeros((t_steps, n, n_actions), dtype=torch.bool)
    act_buf = torch.zeros((t_steps, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((t_steps, n)) for _ in range(4))
    curve = LearningCurve.from_args(args, "CleanRL-style PPO")
    start = printed = time.time()
    obs, infos = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs)
    next_mask = torch.as_tensor(infos["action_mask"], dtype=torch.bool)
    total = args.total_timesteps or (3_000_000 if args.minutes is None else 10**12)
    updates = max(1, total // (n * t_steps))
    returns_seen: list[float] = []
    rollout_s = 0.0  # of the training time, the env and the acting forward passes (the rest is PPO's update)
    for update in range(1, updates + 1):
        began = time.perf_counter()
        for t in range(t_steps):
            obs_buf[t], mask_buf[t] = next_obs, next_mask
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs, reward, terminated, truncated, infos = envs.step(action.numpy())
            rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
            done_buf[t] = torch.as_tensor(terminated | truncated, dtype=torch.float32)
            returns_seen.extend(reward[terminated].tolist())
            next_obs = torch.as_tensor(obs)
            next_mask = torch.as_tensor(infos["action_mask"], dtype=torch.bool)
        rollout_s += time.perf_counter() - began
        # GAE: done_buf[t] says the deal ended with the action at t (same-step autoreset)
        with torch.no_grad():
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(t_steps)):
                nv = next_value if t == t_steps - 1 else val_buf[t + 1]
                nonterminal = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * nv * nonterminal - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[t] = last
            ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, obs_size), mask_buf.reshape(-1, n_actions)
        b_act, b_logp, b_adv, b_ret = act_buf.reshape(-1), logp_buf.reshape(-1), adv.reshape(-1), ret.reshape(-1)
        size = n * t_steps
        ppo_update(agent, opt, (b_obs, b_mask, b_act, b_logp, b_adv, b_ret), args)
        if update % 20 == 0 or update == updates or time.time() - printed >= PRINT_EVERY_S:
            printed = time.time()
            recent = returns_seen[-2000:]
            mean = float(np.mean(recent)) if recent else float("nan")
            print(
                f"update {update} steps {update * size} deal return {mean:+.3f} ({time.time() - start:.0f} s)",
                flush=True,
            )
        if args.eval_deals >= 2:
            curve.maybe(agent.greedy, update * size)
        if args.minutes is not None and curve.elapsed() > 60 * args.minutes:
            break
    train_s = time.time() - start
    print(f"trained {update * size} steps in {train_s:.0f} s ({rollout_s:.3f} s of it collecting rollouts)")
    if args.save:
        torch.save(agent.state_dict(), args.save)
    if args.save_npz:
        start_from = f", continued from {args.init}" if args.init else ""
        mlp = agent.to_mlp(f"examples/cleanrl_ppo.py, {update * size} steps, seed {args.seed}{start_from}")
        path = mlp.save(args.save_npz)
        print(f"saved {path}: python -m sixtysix_env.arena --agents ppo:path={path},heuristic", flush=True)
    if args.eval_deals >= 2:
        print("cleanrl_ppo", curve.final(agent.greedy, update * size, options=vars(args)))


if __name__ == "__main__":
    main()

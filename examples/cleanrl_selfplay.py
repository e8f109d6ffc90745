"""CleanRL-style masked PPO that trains on both seats' decisions, with a league of past selves.

    python examples/cleanrl_selfplay.py --minutes 60 --curve results/selfplay --save-npz results/selfplay.npz

The env is ``sixtysix_env.envs.selfplay.SelfPlayVectorEnv``: N deals stepped by the numba kernels,
every step a decision of one of the learner's seats. A share of the envs (``--self``) is both-seat
self-play, current against current, where both seats' decisions are trained; in the others the
learner plays one seat (drawn per deal) against the heuristic (``--heuristic``, inside the
kernels) or a frozen past self (``--past``: a snapshot of the network, taken every
``--snapshot-every`` updates into a pool of ``--pool-size``, played batched in numpy). Each
seat's transition runs from its decision to its own next decision or the deal's end (per-seat
GAE: ``seat_advantages``); where a rollout stops, the seat not to act is bootstrapped from its own
view of the deal.

The network, its observation and its save/load are ``examples/cleanrl_ppo.py``'s (its ``Agent``,
imported): ``--init`` takes an ``.npz`` that example or this one wrote, ``--save-npz`` writes one
the arena plays as ``ppo:path=FILE``. Every ``--eval-every`` seconds the greedy policy plays 500
duplicate deals against ``heuristic`` and at the end 2,000 (``--curve PREFIX`` writes the curve).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# The past selves play in numpy: OpenBLAS's threads, spinning beside torch's on a busy machine, made
# a 26-row forward pass 150x slower (60 ms instead of 0.4). One thread, unless the caller says.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cleanrl_ppo import PRINT_EVERY_S, Agent, add_ppo_arguments, check_ppo_arguments, ppo_update

from sixtysix_env.checks import cli_int
from sixtysix_env.cli_options import AtLeast, positive_float, positive_int, unit_float
from sixtysix_env.envs.selfplay import KINDS, SelfPlayVectorEnv, seat_advantages
from sixtysix_env.envs.vector_opponents import SnapshotPool
from sixtysix_env.integrations.curve import LearningCurve, add_curve_arguments


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument("--total-timesteps", type=positive_int, default=None, help="learner decisions (default 3,000,000)")
    p.add_argument(
        "--minutes", type=positive_float, default=None, help="stop after the update that passes this wall time"
    )
    p.add_argument("--num-envs", type=positive_int, default=256, help="deals stepped together")
    p.add_argument("--num-steps", type=positive_int, default=32, help="steps per env per rollout")
    p.add_argument("--self", dest="self_share", type=unit_float, default=0.5, help="share of both-seat self-play envs")
    p.add_argument("--heuristic", type=unit_float, default=0.4, help="share of envs against the heuristic")
    p.add_argument("--past", type=unit_float, default=0.1, help="share of envs against a frozen past self")
    p.add_argument("--snapshot-every", type=positive_int, default=50, help="updates between snapshots into the pool")
    p.add_argument("--pool-size", type=positive_int, default=8, help="past selves kept (the newest replace the oldest)")
    add_ppo_arguments(p)
    p.add_argument("--seed", type=cli_int, action=AtLeast, at_least=0, default=0)
    p.add_argument(
        "--threads", type=positive_int, default=1, help="torch threads (1 is fastest on a busy 2-core machine)"
    )
    add_curve_arguments(p)
    p.add_argument("--init", default=None, help="start from these numpy weights (.npz) instead of random ones")
    p.add_argument(
        "--save-npz",
        default="results/cleanrl_selfplay.npz",
        help="write the trained weights as numpy (.npz; the arena plays ppo:path=FILE; '' saves nothing)",
    )
    args = p.parse_args(argv)
    if args.save_npz and not args.save_npz.endswith(".npz"):
        p.error(f"--save-npz must name a .npz file, got {args.save_npz!r}")
    shares = (args.self_share, args.heuristic, args.past)
    if min(shares) < 0 or sum(shares) > 1 + 1e-9:
        p.error(f"--self, --heuristic and --past are shares of the envs: each >= 0, at most 1 in all, got {shares}")
    check_ppo_arguments(p, args)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    pool = SnapshotPool(args.pool_size)
    league = {"self": args.self_share, "heuristic": args.heuristic, "past": args.past}
    env = SelfPlayVectorEnv(args.num_envs, "standard", seed=args.seed, league=league, pool=pool)
    n, t_steps = env.num_envs, args.num_steps
    obs_size, n_actions = 235, env.single_action_space.n
    agent = Agent(obs_size, n_actions, args.hidden)
    if args.init:
        agent.load_mlp(args.init)
    pool.add(agent.to_mlp("snapshot 0"), "update 0")  # the past selves start as the start
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    obs_buf = torch.zeros((t_steps, n, obs_size))
    mask_buf = torch.zeros((t_steps, n, n_actions), dtype=torch.bool)
    act_buf = torch.zeros((t_steps, n), dtype=torch.long)
    logp_buf, val_buf = torch.zeros((t_steps, n)), torch.zeros((t_steps, n))
    seat_buf = np.zeros((t_steps, n), dtype=np.int64)
    rew_buf = np.zeros((t_steps, n, 2), dtype=np.float32)
    done_buf = np.zeros((t_steps, n), dtype=np.bool_)
    vs_heuristic = env.kinds == KINDS.index("heuristic")
    curve = LearningCurve.from_args(args, "CleanRL-style PPO, both seats, league")
    start = printed = time.time()
    obs, infos = env.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs)
    next_mask = torch.as_tensor(infos["action_mask"], dtype=torch.bool)
    seat = infos["current_player"]
    total = args.total_timesteps or (3_000_000 if args.minutes is None else 10**12)
    size = n * t_steps
    updates = max(1, total // size)
    returns_seen: list[float] = []
    print(f"league: {env.league} envs; {size} decisions per update", flush=True)
    rollout_s = 0.0  # of the training time, the env and the acting forward passes (the rest is PPO's update)
    for update in range(1, updates + 1):
        began = time.perf_counter()
        for t in range(t_steps):
            obs_buf[t], mask_buf[t], seat_buf[t] = next_obs, next_mask, seat
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs, rewards, terminated, _, infos = env.step(action.numpy())
            rew_buf[t], done_buf[t] = rewards, terminated
            ended = terminated & vs_heuristic  # the learner's result against the heuristic
            returns_seen.extend(rewards[ended, seat[ended]].tolist())
            seat = infos["current_player"]
            next_obs = torch.as_tensor(obs)
            next_mask = torch.as_tensor(infos["action_mask"], dtype=torch.bool)
        rollout_s += time.perf_counter() - began
        with torch.no_grad():  # each seat's value where the rollout stops: the one to act, the other from his view
            last = np.zeros((n, 2), dtype=np.float32)
            rows = np.arange(n)
            last[rows, seat] = agent.value(next_obs).numpy()
            last[rows, 1 - seat] = agent.value(torch.as_tensor(env.observe(1 - seat))).numpy()
        adv, ret = seat_advantages(
            seat_buf, rew_buf, done_buf, val_buf.numpy(), last, gamma=args.gamma, lam=args.gae_lambda
        )
        batch = (
            obs_buf.reshape(-1, obs_size),
            mask_buf.reshape(-1, n_actions),
            act_buf.reshape(-1),
            logp_buf.reshape(-1),
            torch.as_tensor(adv.reshape(-1), dtype=torch.float32),
            torch.as_tensor(ret.reshape(-1), dtype=torch.float32),
        )
        ppo_update(agent, opt, batch, args)
        if args.past > 0 and update % args.snapshot_every == 0:
            pool.add(agent.to_mlp(f"snapshot {update}"), f"update {update}")
        if update % 20 == 0 or update == updates or time.time() - printed >= PRINT_EVERY_S:
            printed = time.time()
            recent = returns_seen[-2000:]
            mean = float(np.mean(recent)) if recent else float("nan")
            took = time.time() - start
            print(
                f"update {update} decisions {update * size} ({update * size / took:,.0f}/s) "
                f"deal return vs heuristic {mean:+.3f} pool {len(pool)} ({took:.0f} s)",
                flush=True,
            )
        if args.eval_deals >= 2:
            curve.maybe(agent.greedy, update * size)
        if args.minutes is not None and curve.elapsed() > 60 * args.minutes:
            break
    train_s = time.time() - start
    print(f"trained {update * size} steps in {train_s:.0f} s ({rollout_s:.3f} s of it collecting rollouts)", flush=True)
    if args.save_npz:
        start_from = f", continued from {args.init}" if args.init else ""
        source = f"examples/cleanrl_selfplay.py, {update * size} steps, seed {args.seed}{start_from}"
        path = agent.to_mlp(source).save(args.save_npz)
        print(f"saved {path}: python -m sixtysix_env.arena --agents ppo:path={path},heuristic", flush=True)
    if args.eval_deals >= 2:
        print("cleanrl_selfplay", curve.final(agent.greedy, update * size, options=vars(args)))


if __name__ == "__main__":
    main()

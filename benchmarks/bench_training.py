"""MaskablePPO training throughput: the batched VecEnv against a DummyVecEnv of ``SixtySix-v0``.

Both sides train the same ``MaskablePPO`` (the PPO baseline's settings: n_steps
128, minibatch 512, 4 epochs, tanh MLP 256x256 for policy and value, CPU, 1 torch thread by
default) against the same opponent (``--opponent``, random by default), one deal per episode:

- batched: ``SixtySixSB3VecEnv(N)`` (``BatchedDeals`` underneath, the opponent played in the batch);
- reference: ``DummyVecEnv`` of N ``gymnasium.make("SixtySix-v0", opponent=...)`` (masks
  read through each env's own ``action_masks()``).

To show where the time goes, every PPO iteration is split into the time inside the env
(``step`` and the mask reads, measured by a thin ``VecEnvWrapper``), the rest of
``collect_rollouts`` (policy forward pass, buffer), and ``train`` (the gradient epochs). A
second figure times the env alone, stepped with uniformly random legal actions in the same
loop shape, no network. The first iteration (torch warm-up) is not counted.

    python benchmarks/bench_training.py             # ~3 minutes
    python benchmarks/bench_training.py --quick     # ~1 minute
    python benchmarks/bench_training.py --fast-loop # ~2 minutes: train_ppo.py's setup against train_fast.py
    python benchmarks/bench_training.py --selfplay  # ~10 minutes: the CleanRL loops' learner decisions/s

``--fast-loop`` compares whole PPO iterations (collect + learn) of the two training scripts at
their own settings: ``baselines/train_ppo.py``'s MaskablePPO (16 ``SixtySix-v0`` envs in a
DummyVecEnv against the heuristic, n_steps 128, minibatch 512, 8 epochs, 256x256 tanh policy and
value) and ``baselines/train_fast.py``'s loop (``BatchedDeals`` self-play against its opponent
mix, its default rollout, minibatch and epochs). A sample is one learner decision in both.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper

from sixtysix_env.cli_options import add_count, add_rules, add_seed, positive_int


class TimedVecEnv(VecEnvWrapper):
    """Adds up the seconds spent inside the wrapped env: steps, resets and the mask reads."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self.seconds = 0.0

    def reset(self) -> Any:
        t = time.perf_counter()
        obs = self.venv.reset()
        self.seconds += time.perf_counter() - t
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        t = time.perf_counter()
        self.venv.step_async(actions)
        self.seconds += time.perf_counter() - t

    def step_wait(self) -> Any:
        t = time.perf_counter()
        out = self.venv.step_wait()
        self.seconds += time.perf_counter() - t
        return out

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list:
        t = time.perf_counter()
        out = self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)
        self.seconds += time.perf_counter() - t
        return out


def make_env(kind: str, n: int, rules: str, seed: int, opponent: str) -> VecEnv:
    """N envs of one kind, the learner against ``opponent``, as an SB3 VecEnv."""
    if kind == "batched":
        from sixtysix_env.envs.sb3 import SixtySixSB3VecEnv

        return SixtySixSB3VecEnv(num_envs=n, rules=rules, seed=seed, opponent=opponent)
    import gymnasium

    import sixtysix_env  # noqa: F401  (registers SixtySix-v0)

    def factory() -> Any:
        return gymnasium.make("SixtySix-v0", opponent=opponent, rules=rules)

    venv = DummyVecEnv([factory] * n)
    venv.seed(seed)
    return venv


@dataclass
class Result:
    kind: str
    num_envs: int
    samples: int
    total: float
    collect: float
    env: float
    train: float
    env_alone_rate: float

    @property
    def rate(self) -> float:
        return self.samples / self.total


def env_alone_rate(kind: str, n: int, rules: str, samples: int, seed: int, opponent: str) -> float:
    """Env steps per second with uniformly random legal actions drawn from the same mask reads
    MaskablePPO makes (``env_method("action_masks")``), and no network."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = make_env(kind, n, rules, seed, opponent)
    rng = np.random.default_rng(seed)
    env.reset()
    steps = max(1, samples // n)
    for _ in range(min(steps, 8)):  # warm-up
        masks = get_action_masks(env)
        env.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    start = time.perf_counter()
    for _ in range(steps):
        masks = get_action_masks(env)
        env.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    rate = steps * n / (time.perf_counter() - start)
    env.close()
    return rate


def ppo_run(kind: str, n: int, args: argparse.Namespace) -> Result:
    """Train ``args.iterations + 1`` PPO iterations; time all but the first."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(args.threads)
    times: dict[str, list[float]] = {"collect": [], "train": [], "env": []}

    class TimedPPO(MaskablePPO):
        """MaskablePPO that records how long each rollout and each update took."""

        def collect_rollouts(self, env: Any, *a: Any, **k: Any) -> bool:
            before = env.seconds
            t = time.perf_counter()
            ok = super().collect_rollouts(env, *a, **k)
            times["collect"].append(time.perf_counter() - t)
            times["env"].append(env.seconds - before)
            return ok

        def train(self) -> None:
            t = time.perf_counter()
            super().train()
            times["train"].append(time.perf_counter() - t)

    env = TimedVecEnv(make_env(kind, n, args.rules, args.seed, args.opponent))
    arch = [args.hidden] * args.layers
    model = TimedPPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        gamma=1.0,
        policy_kwargs={"net_arch": {"pi": arch, "vf": arch}, "activation_fn": torch.nn.Tanh},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    per_iter = n * args.n_steps
    model.learn(per_iter * (args.iterations + 1))
    env.close()
    collect, train, in_env = (sum(times[k][1:]) for k in ("collect", "train", "env"))
    samples = per_iter * (len(times["collect"]) - 1)
    alone = env_alone_rate(kind, n, args.rules, samples, args.seed, args.opponent)
    return Result(kind, n, samples, collect + train, collect, in_env, train, alone)


def per_iteration_rates(kind: str, args: argparse.Namespace) -> list[float]:
    """Samples/s of each timed PPO iteration (collect + learn) of one training script's loop."""
    if kind == "sb3":
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        stamps: list[float] = []

        class StampedPPO(MaskablePPO):
            def collect_rollouts(self, *a: Any, **k: Any) -> bool:
                stamps.append(time.perf_counter())
                return super().collect_rollouts(*a, **k)

        env = make_env("dummy", 16, args.rules, args.seed, "heuristic")
        arch = [256, 256]
        model = StampedPPO(
            "MlpPolicy", env, n_steps=128, batch_size=512, n_epochs=8, gamma=1.0, seed=args.seed, device="cpu",
            policy_kwargs={"net_arch": {"pi": arch, "vf": arch}, "activation_fn": torch.nn.Tanh}, verbose=0,
        )  # fmt: skip
        model.learn(16 * 128 * (args.iterations + 1))
        stamps.append(time.perf_counter())
        env.close()
        return [16 * 128 / (b - a) for a, b in itertools.pairwise(stamps[1:])]
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "baselines"))
    import train_fast

    opts = train_fast.check_options(train_fast.Options(rules=args.rules, seed=args.seed, steps=1, bc_deals=0))
    import torch

    torch.set_num_threads(opts.threads)
    trainer = train_fast.Trainer(opts)
    rates = []
    for i in range(args.iterations + 1):
        t = time.perf_counter()
        ro, _ = trainer.iterate(opts.lr)
        if i:  # the first one warms torch up
            rates.append(len(ro) / (time.perf_counter() - t))
    return rates


def fast_loop_comparison(args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    sb3 = per_iteration_rates("sb3", args)
    fast = per_iteration_rates("fast", args)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "baselines"))
    import train_fast

    o = train_fast.Options()
    print(
        f"Whole PPO iterations (collect + learn), {args.rules} rules, {date.today()}, {os.cpu_count()} cores, "
        f"load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} (1/5/15 min) at the end, "
        f"{time.perf_counter() - t0:.0f} s in all; medians of {args.iterations} timed iterations each."
    )
    print()
    print("| training loop | settings | samples/iteration | median samples/s | min | max |")
    print("|---|---|---:|---:|---:|---:|")
    rows = [
        ("`baselines/train_ppo.py` (MaskablePPO + DummyVecEnv × `SixtySix-v0`)",
         "16 envs × 128 steps, minibatch 512, 8 epochs, 256x256 pi and vf, vs heuristic", "2,048", sb3),
        ("`baselines/train_fast.py` (torch PPO on `BatchedDeals`)",
         f"{o.num_envs} envs × {o.n_steps} steps, minibatch {o.minibatch}, {o.epochs} epochs, {o.hidden} pi and vf, "
         f"vs {o.opponents}", f"~{o.num_envs * o.n_steps // 2:,}", fast),
    ]  # fmt: skip
    for name, settings, per, rates in rows:
        print(f"| {name} | {settings} | {per} | {np.median(rates):,.0f} | {min(rates):,.0f} | {max(rates):,.0f} |")
    print()
    print(f"train_fast.py / train_ppo.py: {np.median(fast) / np.median(sb3):.1f}x the samples per second (medians)")


SELFPLAY_ROUTES = {
    "heuristic route (cleanrl_ppo.py)": ["examples/cleanrl_ppo.py"],
    "--opponent self (cleanrl_ppo.py)": ["examples/cleanrl_ppo.py", "--opponent", "self"],
    "both seats, pure self-play (cleanrl_selfplay.py)": [
        "examples/cleanrl_selfplay.py", "--self", "1", "--heuristic", "0", "--past", "0",
    ],
    "both seats, league 50/40/10 (cleanrl_selfplay.py)": ["examples/cleanrl_selfplay.py"],
}  # fmt: skip
"""The CleanRL-style training loops ``--selfplay`` times, by what each trains on."""


TRAINED_LINE = re.compile(r"trained (\d+) steps in (\d+) s \(([\d.]+) s of it collecting rollouts\)")
"""The closing line of both CleanRL-style examples: learner decisions, training seconds, and the
seconds of them spent collecting rollouts."""


def selfplay_comparison(args: argparse.Namespace) -> None:
    """Learner decisions trained per second of each CleanRL-style loop (whole loop: env, forward
    passes, PPO epochs), and collected per second of its rollout phase alone (env and acting
    forward passes: the part the env route changes), each run as its own process for
    ``--selfplay-seconds`` at the same rollout shape, the routes interleaved ``--iterations``
    times; medians and same-run ratios."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    n, steps = args.num_envs[0], args.n_steps
    common = ["--minutes", str(args.selfplay_seconds / 60), "--eval-deals", "0", "--save-npz", ""]
    common += ["--num-envs", str(n), "--num-steps", str(steps), "--seed", str(args.seed)]
    rates: dict[str, list[float]] = {name: [] for name in SELFPLAY_ROUTES}
    collecting: dict[str, list[float]] = {name: [] for name in SELFPLAY_ROUTES}
    t0 = time.perf_counter()
    for _ in range(args.iterations):
        for name, cmd in SELFPLAY_ROUTES.items():
            out = subprocess.run(
                [sys.executable, *cmd, *common], cwd=root, capture_output=True, text=True, check=True
            ).stdout
            m = TRAINED_LINE.search(out)
            assert m, out
            rates[name].append(int(m.group(1)) / int(m.group(2)))
            collecting[name].append(int(m.group(1)) / float(m.group(3)))
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(
        f"CleanRL-style PPO loops, {n} envs x {steps} steps per update, 4 epochs x 4 minibatches, 256x256 tanh, "
        f"1 torch thread, {date.today()}, {os.cpu_count()} cores, load average {load[0]:.2f} / {load[1]:.2f} / "
        f"{load[2]:.2f} at the end, {time.perf_counter() - t0:.0f} s in all; {args.iterations} runs of "
        f"{args.selfplay_seconds:g} s each, interleaved (a run's rate: its decisions / its training seconds, "
        "as the example prints them)."
    )
    for title, measured in (
        ("Whole loop (env, acting forward passes and PPO's update)", rates),
        ("Collecting rollouts only (the env and the acting forward passes: what the env route changes)", collecting),
    ):
        print()
        print(title)
        print()
        print("| loop | median learner decisions/s | runs | vs heuristic route | vs --opponent self |")
        print("|---|---:|---|---:|---:|")
        base, old = (np.median(measured[k]) for k in list(SELFPLAY_ROUTES)[:2])
        for name, r in measured.items():
            runs = ", ".join(f"{x:,.0f}" for x in r)
            med = np.median(r)
            print(f"| {name} | {med:,.0f} | {runs} | {med / base:.2f}x | {med / old:.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rules(parser, notation=True, help="Sixty-Six preset")
    parser.add_argument(
        "--opponent", default="random", help="opponent on both sides (heuristic: once the batched env has it)"
    )
    parser.add_argument("--num-envs", type=positive_int, nargs="+", default=[16, 256], help="envs stepped together")
    parser.add_argument("--n-steps", type=positive_int, default=128, help="PPO rollout steps per env")
    add_count(parser, "--batch-size", default=512, at_least=2, help="PPO minibatch size")
    parser.add_argument("--n-epochs", type=positive_int, default=4, help="PPO epochs per rollout")
    parser.add_argument("--hidden", type=positive_int, default=256, help="units per hidden layer (policy and value)")
    parser.add_argument("--layers", type=positive_int, default=2, help="hidden layers (policy and value)")
    parser.add_argument("--iterations", type=positive_int, default=3, help="timed PPO iterations (after one warm-up)")
    parser.add_argument("--threads", type=positive_int, default=1, help="torch CPU threads")
    add_seed(parser, help="seed of envs and networks")
    parser.add_argument("--quick", action="store_true", help="16 envs, 2 timed iterations (about a minute)")
    parser.add_argument(
        "--fast-loop",
        action="store_true",
        help="compare train_ppo.py's MaskablePPO with train_fast.py's loop, each at its own settings "
        "(uses --rules, --seed, --iterations)",
    )
    parser.add_argument(
        "--selfplay",
        action="store_true",
        help="learner decisions/s of the CleanRL-style loops: the heuristic route, --opponent self, both seats "
        "(examples/cleanrl_selfplay.py); uses the first --num-envs (128 here by default), --n-steps (64), "
        "--iterations, --seed",
    )
    parser.add_argument("--selfplay-seconds", type=positive_int, default=40, help="each --selfplay run's training time")
    args = parser.parse_args()
    if args.selfplay:
        if args.num_envs == [16, 256]:
            args.num_envs = [128]
        if args.n_steps == 128:
            args.n_steps = 64
        selfplay_comparison(args)
        return
    if args.fast_loop:
        fast_loop_comparison(args)
        return
    if args.quick:
        args.num_envs, args.iterations = [16], 2

    t0 = time.perf_counter()
    results = [ppo_run(kind, n, args) for n in args.num_envs for kind in ("batched", "dummy")]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"MaskablePPO against opponent={args.opponent}, {date.today()}, {os.cpu_count()} cores, "
        f"load average {load:.1f} at the end; "
        f"n_steps {args.n_steps}, minibatch {args.batch_size}, {args.n_epochs} epochs, "
        f"MLP {args.layers}x{args.hidden} tanh, {args.threads} torch thread(s); "
        f"{args.iterations} timed iterations per row; {time.perf_counter() - t0:.0f} s in all."
    )
    print()
    print(
        "| env | N | PPO samples/s | µs/sample: total | in env | policy forward + buffer | train "
        "| env share | env alone, random legal (samples/s) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    names = {"batched": "`SixtySixSB3VecEnv`", "dummy": "`DummyVecEnv` × `SixtySix-v0`"}
    for r in results:
        us = 1e6 / r.samples
        print(
            f"| {names[r.kind]} | {r.num_envs} | {r.rate:,.0f} | {r.total * us:.1f} | {r.env * us:.1f} | "
            f"{(r.collect - r.env) * us:.1f} | {r.train * us:.1f} | {r.env / r.total:.1%} | {r.env_alone_rate:,.0f} |"
        )
    print()
    for n in args.num_envs:
        b, d = (next(r for r in results if r.kind == k and r.num_envs == n) for k in ("batched", "dummy"))
        print(
            f"N={n}: batched {b.rate / d.rate:.2f}x the DummyVecEnv's PPO samples/s; "
            f"without the env at all PPO would reach {b.samples / (b.total - b.env):,.0f} samples/s "
            f"(batched env {b.env / b.total:.1%} of the time, DummyVecEnv {d.env / d.total:.1%}); "
            f"env alone: batched {b.env_alone_rate / d.env_alone_rate:.0f}x the DummyVecEnv."
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Train the shipped ``ppo`` agent: sb3-contrib MaskablePPO on ``SixtySix-v0``.

    .venv/bin/python baselines/train_ppo.py            # the defaults reproduce the shipped model

It writes ``results/ppo_<rules>.zip`` (the SB3 model, to continue training; loading it unpickles,
so only load your own) and ``results/ppo_<rules>.npz`` (the numpy weights the ``ppo`` agent plays
from, without torch). To ship a model, copy the ``.npz`` to ``sixtysix_env/models/``.

Three phases, each seeded from ``--seed``:

1. **Warm start** (``--warm-start heuristic|pimc|none``): deals are played by the teacher (with
   a few random actions mixed in so the states are varied), and the policy network is fitted by
   behaviour cloning (cross-entropy on the masked logits), the value network by regression onto
   each player's final game points. PPO then starts from the teacher's play instead of random
   play, which is most of the way to the heuristic's strength.
2. **PPO with self-play**: several ``SixTySix-v0`` envs in one process; at every reset each env
   draws its opponent from a pool: the built-in agents (``heuristic``, ``random``) and frozen
   snapshots of the learner (one every ``--snapshot-every`` steps, the last ``--pool-size`` kept),
   with the shares given by ``--opponents``. Snapshots act through a numpy copy of the policy
   network, which is fast and independent of the learner's later updates.
3. **Evaluation**: duplicate deals (each deal played twice with seats swapped) against
   ``random`` and ``heuristic`` through the ``ppo`` agent loading the saved file, then the arena
   (``python -m sixtysix_env.arena``) when it is installed.

Metrics printed and logged (``--log-dir`` writes CSV/TensorBoard) have fixed names:
``selfplay/win_rate_vs_<opponent>``, ``selfplay/reward_vs_<opponent>`` (rolling over the last
episodes against that opponent kind), ``warm/accuracy``, ``warm/value_mse``,
``eval/win_rate_vs_<agent>``, ``eval/points_per_deal_vs_<agent>``, plus SB3's ``train/*``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import random
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sixtysix_env.agents.heuristic import HeuristicAgent  # noqa: E402
from sixtysix_env.agents.mlp import MLPPolicy  # noqa: E402
from sixtysix_env.agents.ppo import PPOAgent  # noqa: E402
from sixtysix_env.agents.ppo_export import export_policy  # noqa: E402
from sixtysix_env.agents.random_agent import RandomAgent  # noqa: E402
from sixtysix_env.agents.spec import parse_agent_spec  # noqa: E402
from sixtysix_env.checks import cli_float, cli_int, parse_float_text  # noqa: E402
from sixtysix_env.cli_options import AtLeast, non_negative_float, positive_float, positive_int, unit_float  # noqa: E402
from sixtysix_env.engine import Deal  # noqa: E402
from sixtysix_env.envs.sixtysix_v0 import mask_array  # noqa: E402
from sixtysix_env.infostate import InfoState  # noqa: E402
from sixtysix_env.observers import encode_vector  # noqa: E402
from sixtysix_env.rules import PRESETS, Rules, get_rules  # noqa: E402

Policy = Callable[[InfoState, random.Random], int]


# ---------------------------------------------------------------------------- options
def _opt(default: Any, help: str, **argparse_kwargs: Any) -> Any:
    """A field and its option: ``help``, and the option's ``type`` (or ``action``) when the plain
    number of its annotation is not enough."""
    return field(default=default, metadata={"help": help, "argparse": argparse_kwargs})


def _at_least(n: int) -> dict[str, Any]:
    """The argparse settings of a whole number of at least ``n`` (``--name must be at least n``)."""
    return {"type": cli_int, "action": AtLeast, "at_least": n}


@dataclass
class Options:
    """Every setting of a run; the defaults produce the shipped model."""

    seed: int = _opt(0, "seed of everything: deals, envs, opponent draws, network init, evaluation", **_at_least(0))
    rules: str = _opt("standard", "rules preset to train on")
    out: str = _opt(
        "", "the SB3 .zip to write, the .npz goes next to it (relative to the repo root; default results/ppo_RULES.zip)"
    )
    total_timesteps: int = _opt(3_000_000, "PPO environment steps (learner decisions; 0: no PPO)", **_at_least(0))
    n_envs: int = _opt(16, "environments stepped together (DummyVecEnv, one process)", type=positive_int)
    n_steps: int = _opt(128, "rollout steps per environment between updates", type=positive_int)
    batch_size: int = _opt(512, "PPO minibatch size (2 to --n-envs x --n-steps)", **_at_least(2))
    n_epochs: int = _opt(8, "PPO epochs per rollout", type=positive_int)
    learning_rate: float = _opt(3e-4, "PPO learning rate (linearly decayed to 10% of this)", type=positive_float)
    ent_coef: float = _opt(0.003, "entropy bonus", type=non_negative_float)
    clip_range: float = _opt(0.2, "PPO clip range", type=positive_float)
    gamma: float = _opt(1.0, "discount (a deal is about 10 decisions: no discount)", type=unit_float)
    gae_lambda: float = _opt(0.95, "GAE lambda", type=unit_float)
    vf_coef: float = _opt(0.5, "value loss weight", type=non_negative_float)
    net_arch: str = _opt("256,256", "hidden layers of the policy and of the value network")
    activation: str = _opt("tanh", "hidden activation: tanh or relu")
    reward: str = _opt("game_points", "env reward scheme: game_points, win_loss or shaped")
    opponents: str = _opt(
        "heuristic:0.6,random:0.05,self:0.35", "opponent pool shares; 'self' is a frozen snapshot of the learner"
    )
    score_share: float = _opt(
        0.5, "share of deals started from random match scores (the arena plays matches)", type=unit_float
    )
    snapshot_every: int = _opt(100_000, "steps between frozen snapshots added to the pool", type=positive_int)
    pool_size: int = _opt(6, "snapshots kept in the pool (oldest dropped)", type=positive_int)
    warm_start: str = _opt("heuristic", "behaviour cloning teacher before PPO: heuristic, pimc or none")
    warm_deals: int = _opt(0, "deals played for warm-start labels (0: 20000 heuristic, 800 pimc)", **_at_least(0))
    warm_explore: float = _opt(0.15, "share of random actions played while collecting labels", type=unit_float)
    warm_epochs: int = _opt(5, "behaviour cloning epochs", **_at_least(0))
    warm_lr: float = _opt(1e-3, "behaviour cloning learning rate", type=positive_float)
    warm_batch: int = _opt(512, "behaviour cloning minibatch size", type=positive_int)
    pimc_samples: int = _opt(8, "PIMC teacher: determinizations per decision", type=positive_int)
    eval_pairs: int = _opt(
        2000, "duplicate deal pairs per evaluation opponent (2 deals each; 0: no evaluation)", **_at_least(0)
    )
    arena: bool = _opt(True, "run python -m sixtysix_env.arena --agents ppo,heuristic,random at the end")
    arena_args: str = _opt("--deals 2000 --seed 0", "arena arguments (--out: a temp folder unless given)")
    threads: int = _opt(1, "torch CPU threads (more than 1 was 10x slower on a busy 2-core machine)", type=positive_int)
    log_dir: str = _opt("", "write SB3 CSV (and TensorBoard, when installed) logs here (empty: stdout summary only)")
    progress: bool = _opt(True, "show a tqdm progress bar")


def parse_args(argv: Sequence[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    for f in dataclasses.fields(Options):
        flag = "--" + f.name.replace("_", "-")
        text = f.metadata["help"].replace("%", "%%")  # argparse formats help strings with %
        if f.type in ("bool", bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=f.default, help=text)
        else:
            kind = {"int": cli_int, "float": cli_float, "str": str}[str(f.type)]  # numbers in ASCII digits
            settings = {"type": kind, **f.metadata["argparse"]}  # a bounded number: its own type or action
            parser.add_argument(flag, default=f.default, help=text, **settings)
    opts = Options(**vars(parser.parse_args(argv)))
    try:
        opponent_shares(opts.opponents)
    except ValueError as e:
        parser.error(str(e))
    if opts.batch_size > opts.n_envs * opts.n_steps:
        parser.error(
            f"--batch-size {opts.batch_size} is more than --n-envs x --n-steps "
            f"({opts.n_envs * opts.n_steps} steps a rollout)"
        )
    if opts.rules not in PRESETS:
        parser.error(f"--rules {opts.rules!r}: choose one of {', '.join(PRESETS)}")
    if opts.out and not opts.out.endswith(".zip"):
        parser.error(f"--out {opts.out!r} must end in .zip (the .npz is written next to it)")
    return opts


def output_path(opts: Options) -> Path:
    """The .zip to write: ``--out``, or ``results/ppo_<rules>.zip``; relative paths from the repo root."""
    out = Path(opts.out or f"results/ppo_{opts.rules}.zip")
    return out if out.is_absolute() else ROOT / out


def command_line(opts: Options) -> str:
    """The options that differ from the defaults, as a command line (printed with the results)."""
    parts = ["python baselines/train_ppo.py"]
    for f in dataclasses.fields(Options):
        v = getattr(opts, f.name)
        if v != f.default:
            flag = "--" + f.name.replace("_", "-")
            if isinstance(v, bool):
                parts.append(flag if v else "--no-" + f.name.replace("_", "-"))
            else:
                parts.append(f"{flag} {v!r}" if isinstance(v, str) else f"{flag} {v}")
    return " ".join(parts)


# ---------------------------------------------------------------------------- opponents
def builtin_agent(name: str) -> Any:
    """A built-in agent by spec (``heuristic``, ``pimc:samples=8``), read by the one parser of
    agent text (``agents.spec.parse_agent_spec``) and built by its ``make()``."""
    return parse_agent_spec(name, game="two").make()


class FrozenPolicy:
    """A numpy copy of the learner's policy network at one moment, playing greedily.

    Numpy (the ``ppo`` agent's own forward pass) keeps a snapshot's move to tens of microseconds
    and leaves it untouched by the learner's later updates."""

    def __init__(self, network: MLPPolicy, label: str) -> None:
        self.network = network
        self.name = label

    @classmethod
    def of(cls, policy: Any, label: str) -> FrozenPolicy:
        return cls(export_policy(policy), label)

    def __call__(self, info: InfoState, rng: random.Random) -> int:
        logits = self.network.logits(encode_vector(info))
        legal = mask_array(info.legal_mask).astype(bool)
        return int(np.argmax(np.where(legal, logits, -np.inf)))


def opponent_shares(spec: str) -> list[tuple[str, float]]:
    """``"heuristic:0.6,self:0.35"`` -> ``[("heuristic", 0.6), ("self", 0.35)]`` (a kind without a
    share: 1); a ValueError names a share that is not a number >= 0, or shares adding up to 0."""
    pairs = []
    for part in spec.split(","):
        kind, _, text = part.strip().partition(":")
        share = parse_float_text(text) if text else 1.0
        if share is None or share < 0:
            raise ValueError(f"--opponents {spec!r}: the share of {kind!r} must be a number >= 0, got {text!r}")
        pairs.append((kind, share))
    if sum(share for _, share in pairs) <= 0:
        raise ValueError(f"--opponents {spec!r}: the shares must add up to more than 0")
    return pairs


class OpponentPool:
    """Built-in agents and frozen snapshots, drawn with fixed shares (``kind:share,...``)."""

    def __init__(self, spec: str, pool_size: int) -> None:
        self.kinds: list[str] = []
        self.shares: list[float] = []
        self.builtin: dict[str, Policy] = {}
        for kind, share in opponent_shares(spec):
            self.kinds.append(kind)
            self.shares.append(share)
            if kind != "self":
                agent = builtin_agent(kind)
                self.builtin[kind] = agent.act
        self.snapshots: deque[FrozenPolicy] = deque(maxlen=pool_size)

    def add(self, snapshot: FrozenPolicy) -> None:
        self.snapshots.append(snapshot)

    def draw(self, rng: random.Random) -> tuple[str, Policy]:
        kind = rng.choices(self.kinds, weights=self.shares)[0]
        if kind == "self":
            if not self.snapshots:
                kind = next(k for k in self.kinds if k != "self")
            else:
                return "self", self.snapshots[rng.randrange(len(self.snapshots))]
        return kind, self.builtin[kind]


class PoolOpponent:
    """The env's opponent: a callable whose identity is redrawn from the pool at every reset."""

    def __init__(self, pool: OpponentPool, rng: random.Random) -> None:
        self.pool = pool
        self.rng = rng
        self.kind, self.policy = pool.draw(rng)
        self.__name__ = "pool"

    def redraw(self) -> None:
        self.kind, self.policy = self.pool.draw(self.rng)

    def __call__(self, info: InfoState, rng: random.Random) -> int:
        return self.policy(info, rng)


def random_scores(rules: Rules, rng: random.Random, share: float) -> tuple[int, int]:
    """Match scores a deal may start from: (0, 0), or with probability ``share`` any score below
    the target, so the policy also sees the score features the arena's matches feed it."""
    if rng.random() >= share:
        return (0, 0)
    return (rng.randrange(rules.match_target), rng.randrange(rules.match_target))


class PoolWrapper(gym.Wrapper):
    """Redraws the opponent before each reset, deals from varied match scores, and names the
    opponent kind in the final step's info."""

    def __init__(self, env: gym.Env, opponent: PoolOpponent, rules: Rules, score_share: float) -> None:
        super().__init__(env)
        self.opponent = opponent
        self.rules = rules
        self.score_share = score_share

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        self.opponent.redraw()
        if options is None or "deal" not in options:
            rng = self.opponent.rng
            scores = random_scores(self.rules, rng, self.score_share)
            deal = Deal.new(self.rules, rng, dealer=rng.randrange(2), scores=scores)
            options = {**(options or {}), "deal": deal}
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            info["opponent_kind"] = self.opponent.kind
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def make_vec_env(opts: Options, pool: OpponentPool) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    def factory(i: int) -> Callable[[], gym.Env]:
        def make() -> gym.Env:
            opponent = PoolOpponent(pool, random.Random(opts.seed * 1_000_003 + i))
            env = gym.make(
                "SixtySix-v0",
                opponent=opponent,
                seat="random",
                rules=opts.rules,
                observation="vector",
                reward=opts.reward,
                episode="deal",
                disable_env_checker=True,
            )
            return PoolWrapper(env, opponent, get_rules(opts.rules), opts.score_share)

        return make

    return VecMonitor(DummyVecEnv([factory(i) for i in range(opts.n_envs)]))


# ---------------------------------------------------------------------------- warm start
def teacher_policy(opts: Options) -> Policy:
    if opts.warm_start == "heuristic":
        return HeuristicAgent().act
    if opts.warm_start == "pimc":
        from sixtysix_env.agents.pimc import PIMCAgent

        return PIMCAgent(samples=opts.pimc_samples).act
    raise ValueError(f"--warm-start {opts.warm_start!r}: choose heuristic, pimc or none")


def collect_labels(
    opts: Options, teacher: Policy, deals: int, rng: random.Random, progress: bool = False
) -> dict[str, np.ndarray]:
    """Teacher-labelled decisions from deals the teacher plays against itself.

    With probability ``warm_explore`` the move actually played is a random legal one (the
    label stays the teacher's), so the states cover more than the teacher's own lines. The
    value target of a decision is the game points its player finally won or lost."""
    rules = get_rules(opts.rules)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    players: list[int] = []
    returns: list[float] = []
    iterator: Any = range(deals)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=f"labels ({opts.warm_start})", unit="deal", leave=False)
    for _ in iterator:
        deal = Deal.new(rules, rng, dealer=rng.randrange(2), scores=random_scores(rules, rng, opts.score_share))
        start = len(actions)
        while deal.outcome is None:
            p = deal.current_player
            info = InfoState.of(deal, p)
            label = int(teacher(info, rng))
            obs.append(encode_vector(info))
            masks.append(mask_array(info.legal_mask).astype(bool))
            actions.append(label)
            players.append(p)
            legal = info.legal_actions()
            played = legal[rng.randrange(len(legal))] if rng.random() < opts.warm_explore else label
            deal.apply(played)
        r = deal.returns()
        returns.extend(float(r[p]) for p in players[start:])
        if opts.reward == "win_loss":
            returns[start:] = [float(np.sign(x)) for x in returns[start:]]
    return {
        "obs": np.stack(obs),
        "masks": np.stack(masks),
        "actions": np.asarray(actions, dtype=np.int64),
        "returns": np.asarray(returns, dtype=np.float32),
    }


def behaviour_clone(model: Any, data: dict[str, np.ndarray], opts: Options, seed: int) -> dict[str, float]:
    """Fit the policy to the teacher's labels (masked cross-entropy) and the value net to returns."""
    import torch
    import torch.nn.functional as F

    policy = model.policy
    n = len(data["actions"])
    gen = torch.Generator().manual_seed(seed)
    perm = torch.randperm(n, generator=gen)
    n_val = max(1, n // 10)
    val_idx, train_idx = perm[:n_val], perm[n_val:]
    t = {k: torch.as_tensor(v) for k, v in data.items()}
    opt = torch.optim.Adam(policy.parameters(), lr=opts.warm_lr)
    policy.set_training_mode(True)
    for _ in range(opts.warm_epochs):
        order = train_idx[torch.randperm(len(train_idx), generator=gen)]
        for i in range(0, len(order), opts.warm_batch):
            b = order[i : i + opts.warm_batch]
            values, log_prob, _ = policy.evaluate_actions(t["obs"][b], t["actions"][b], action_masks=t["masks"][b])
            loss = -log_prob.mean() + opts.vf_coef * F.mse_loss(values.flatten(), t["returns"][b])
            opt.zero_grad()
            loss.backward()
            opt.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        obs, masks = t["obs"][val_idx], t["masks"][val_idx]
        dist = policy.get_distribution(obs, action_masks=masks.numpy())
        pred = dist.distribution.probs.argmax(dim=1)
        accuracy = float((pred == t["actions"][val_idx]).float().mean())
        value_mse = float(F.mse_loss(policy.predict_values(obs).flatten(), t["returns"][val_idx]))
        baseline_mse = float(t["returns"][val_idx].var())
    return {"warm/accuracy": accuracy, "warm/value_mse": value_mse, "warm/return_variance": baseline_mse}


# ---------------------------------------------------------------------------- PPO
def build_model(opts: Options, env: Any) -> Any:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import LinearSchedule

    arch = [int(x) for x in opts.net_arch.split(",") if x.strip()]
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[opts.activation]
    return MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=LinearSchedule(opts.learning_rate, opts.learning_rate * 0.1, 1.0),
        n_steps=opts.n_steps,
        batch_size=opts.batch_size,
        n_epochs=opts.n_epochs,
        gamma=opts.gamma,
        gae_lambda=opts.gae_lambda,
        clip_range=opts.clip_range,
        ent_coef=opts.ent_coef,
        vf_coef=opts.vf_coef,
        policy_kwargs={"net_arch": {"pi": arch, "vf": arch}, "activation_fn": activation},
        seed=opts.seed,
        device="cpu",
        verbose=0,
    )


def make_callback(opts: Options, pool: OpponentPool) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Adds snapshots to the pool, tracks results per opponent kind, drives the progress bar."""

        def __init__(self) -> None:
            super().__init__()
            self.results: dict[str, deque[tuple[float, float]]] = {}
            self.last_snapshot = 0
            self.bar: Any = None

        def _on_training_start(self) -> None:
            if opts.progress:
                from tqdm import tqdm

                self.bar = tqdm(total=opts.total_timesteps, desc="ppo", unit="step", mininterval=1.0)

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done and "opponent_kind" in info:
                    winner = info["winner"]
                    win = 1.0 if winner == info["seat"] else (0.5 if winner < 0 else 0.0)
                    q = self.results.setdefault(info["opponent_kind"], deque(maxlen=2000))
                    q.append((win, float(info["episode"]["r"])))
            if self.num_timesteps - self.last_snapshot >= opts.snapshot_every:
                self.last_snapshot = self.num_timesteps
                label = f"snapshot@{self.num_timesteps}"
                pool.add(FrozenPolicy.of(self.model.policy, label))
            if self.bar is not None:
                self.bar.update(self.training_env.num_envs)
            return True

        def metrics(self) -> dict[str, float]:
            out = {}
            for kind, q in sorted(self.results.items()):
                out[f"selfplay/win_rate_vs_{kind}"] = float(np.mean([w for w, _ in q]))
                out[f"selfplay/reward_vs_{kind}"] = float(np.mean([r for _, r in q]))
            return out

        def _on_rollout_end(self) -> None:
            m = self.metrics()
            for k, v in m.items():
                self.logger.record(k, v)
            if self.bar is not None:
                short = {k.split("_vs_")[1]: f"{v:.2f}" for k, v in m.items() if "win_rate" in k}
                self.bar.set_postfix(win=short, refresh=False)

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    return SelfPlayCallback()


# ---------------------------------------------------------------------------- evaluation
def play_deal(deal: Deal, policies: tuple[Policy, Policy], rngs: tuple[random.Random, random.Random]) -> Deal:
    while deal.outcome is None:
        p = deal.current_player
        deal.apply(int(policies[p](InfoState.of(deal, p), rngs[p])))
    return deal


def duplicate_eval(a: Policy, b: Policy, pairs: int, rules: str, seed: int) -> dict[str, float]:
    """``a`` against ``b`` on ``pairs`` deals, each played twice with the seats swapped.

    Returns a's deal win rate (draws count half), its mean game points per deal, and counts."""
    r = get_rules(rules)
    deal_rng = random.Random(seed)
    wins = losses = draws = 0
    points = 0
    for i in range(pairs):
        deal = Deal.new(r, deal_rng, dealer=i % 2)
        for seat in (0, 1):
            policies = (a, b) if seat == 0 else (b, a)
            rngs = (random.Random(seed * 7919 + 2 * i), random.Random(seed * 7919 + 2 * i + 1))
            out = play_deal(deal.clone(), policies, rngs).outcome
            assert out is not None
            if out.winner < 0:
                draws += 1
            elif out.winner == seat:
                wins += 1
                points += out.game_points
            else:
                losses += 1
                points -= out.game_points
    n = 2 * pairs
    return {
        "win_rate": (wins + 0.5 * draws) / n,
        "points_per_deal": points / n,
        "deals": n,
        "wins": wins,
        "losses": losses,
        "draws": draws,
    }


def run_arena(opts: Options, model_path: Path) -> None:
    """The full strength table (``python -m sixtysix_env.arena``), when that module is installed."""
    import shlex
    import tempfile

    if importlib.util.find_spec("sixtysix_env.arena") is None:
        print("arena: sixtysix_env.arena is not installed; skipped")
        return
    ppo = f"ppo:path={model_path}"
    extra = shlex.split(opts.arena_args)
    if "--out" not in extra:
        extra += ["--out", tempfile.mkdtemp(prefix="ppo_arena_")]
    cmd = [sys.executable, "-m", "sixtysix_env.arena", "--agents", f"{ppo},heuristic,random", *extra]
    print("arena:", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, cwd=ROOT, check=False)
    if done.returncode:
        print(f"arena: exited with {done.returncode}")


# ---------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, save, evaluate; returns the metrics (also printed as JSON)."""
    opts = parse_args(argv)
    import torch

    # Seeding: python RNGs are explicit objects derived from --seed; torch's global generator
    # (network init, PPO minibatches, action sampling) is seeded by SB3 from the same value.
    torch.manual_seed(opts.seed)
    torch.set_num_threads(opts.threads)
    label_rng = random.Random(opts.seed)
    started = time.perf_counter()
    metrics: dict[str, Any] = {"command": command_line(opts)}
    print(metrics["command"], flush=True)

    pool = OpponentPool(opts.opponents, opts.pool_size)
    env = make_vec_env(opts, pool)
    model = build_model(opts, env)

    if opts.warm_start != "none":
        teacher = teacher_policy(opts)
        deals = opts.warm_deals or (20_000 if opts.warm_start == "heuristic" else 800)
        t0 = time.perf_counter()
        data = collect_labels(opts, teacher, deals, label_rng, progress=opts.progress)
        t1 = time.perf_counter()
        metrics.update(behaviour_clone(model, data, opts, opts.seed))
        metrics["warm/labels"] = len(data["actions"])
        metrics["time/warm_labels_s"] = round(t1 - t0, 1)
        metrics["time/warm_fit_s"] = round(time.perf_counter() - t1, 1)
        print(
            f"warm start ({opts.warm_start}): {len(data['actions'])} labels from {deals} deals, "
            f"accuracy {metrics['warm/accuracy']:.3f}, value mse {metrics['warm/value_mse']:.3f} "
            f"(return variance {metrics['warm/return_variance']:.3f})",
            flush=True,
        )
    pool.add(FrozenPolicy.of(model.policy, "snapshot@0"))

    if opts.log_dir:
        from stable_baselines3.common.logger import configure

        formats = ["csv", "tensorboard"] if importlib.util.find_spec("tensorboard") else ["csv"]
        model.set_logger(configure(opts.log_dir, formats))
    callback = make_callback(opts, pool)
    t0 = time.perf_counter()
    if opts.total_timesteps > 0:
        model.learn(total_timesteps=opts.total_timesteps, callback=callback)
    ppo_s = time.perf_counter() - t0
    metrics["time/ppo_s"] = round(ppo_s, 1)
    metrics["time/steps_per_s"] = round(model.num_timesteps / max(ppo_s, 1e-9))
    metrics.update(callback.metrics())

    out = output_path(opts)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    weights = export_policy(model.policy, rules=opts.rules, source=out.name).save(out.with_suffix(".npz"))
    metrics["model_bytes"] = out.stat().st_size
    metrics["npz_bytes"] = weights.stat().st_size
    metrics["time/train_s"] = round(time.perf_counter() - started, 1)
    print(
        f"saved {out} ({out.stat().st_size / 1e6:.2f} MB, for more training) and {weights} "
        f"({weights.stat().st_size / 1e6:.2f} MB, what the ppo agent plays) after {metrics['time/train_s']:.0f} s",
        flush=True,
    )

    if opts.eval_pairs > 0:
        agent = PPOAgent(weights)
        for name, opponent in (("random", RandomAgent()), ("heuristic", HeuristicAgent())):
            res = duplicate_eval(agent.act, opponent.act, opts.eval_pairs, opts.rules, seed=10_000 + opts.seed)
            metrics[f"eval/win_rate_vs_{name}"] = res["win_rate"]
            metrics[f"eval/points_per_deal_vs_{name}"] = res["points_per_deal"]
            metrics[f"eval/deals_vs_{name}"] = res["deals"]
            print(
                f"eval vs {name}: deal win rate {res['win_rate']:.3f} "
                f"({res['wins']}-{res['losses']}-{res['draws']} over {res['deals']} duplicate deals), "
                f"{res['points_per_deal']:+.3f} game points per deal",
                flush=True,
            )
    metrics["time/total_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(metrics, indent=1), flush=True)
    if opts.arena:
        run_arena(opts, weights)
    env.close()
    return metrics


if __name__ == "__main__":
    main()

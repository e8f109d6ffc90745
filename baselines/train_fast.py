#!/usr/bin/env python
"""Fast PPO self-play on the batched engine: a league of snapshots, the heuristic and random play.

    python baselines/train_fast.py --rules standard --minutes 15      # writes results/fast_standard.npz

Where ``baselines/train_ppo.py`` steps 16 ``SixtySix-v0`` envs through stable-baselines3, this
loop drives thousands of deals at once in ``sixtysix_env.fast.BatchedDeals`` (self-play mode: it
picks every env's action) and runs PPO with action masks in plain torch. Per deal, each env draws
an opponent (``--opponents``: the batched heuristic, uniform random play, or a frozen snapshot of
the learner from a league of the last ``--league`` ones) and the learner's seat. Every step the
learner's envs get one batched forward pass, each snapshot's envs another.

The learner's reward is the deal's game points from its side (gamma 1, paid at the end). Each
env's learner decisions form one trajectory: the opponent's moves in between are part of the
environment, so GAE links a decision to the learner's next one in the same env. A rollout ends
with every env at a learner decision, whose value bootstraps the open trajectories.

``--endgame solve`` trains the network of ``ppo:endgame=search``, which hands every position
after the stock is closed or exhausted to search: a deal then ends as soon as its stock is
closed or exhausted, paid its exact perfect-information value (the numba solver of
``sixtysix_env.agents.fast.solver``; a 6-card endgame solves in well under a millisecond). The network
learns the open-stock game as if both sides played the endgame perfectly, never its own endgame
play, and deals are shorter (about 3 times the samples per second). Its evaluations stop there too.

Phases, all seeded from ``--seed``:

1. **Warm start** by behaviour cloning: the batched heuristic plays itself (with ``--bc-explore``
   random moves mixed in) on ``--bc-deals`` deals; the policy learns its actions (cross-entropy
   on masked logits), the value net the final game points. ``--teacher-labels FILE.npz`` adds
   (or, with ``--bc-deals 0``, replaces) labels from a stronger teacher.
2. **PPO** until ``--minutes`` or ``--steps`` (learner decisions) run out.
3. **Evaluation** every ``--eval-every`` seconds and at the end: duplicate deals against the
   heuristic on the batched engine (each deal twice, seats swapped, the same deals every time),
   the learner greedy. Logged to ``<out>.csv``; ``<out>.png`` plots strength against time
   (needs matplotlib, the ``plot`` extra).

The weights go to ``--out`` in the numpy format the ``ppo`` agent plays
(``sixtysix_env/agents/mlp.py``): ``PPOAgent("results/fast_standard.npz")``.
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import math
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from sixtysix_env.actions import NUM_ACTIONS  # noqa: E402
from sixtysix_env.agents.fast.solver import FastSolver  # noqa: E402
from sixtysix_env.agents.mlp import MLPPolicy, linear_layers, vector_policy  # noqa: E402
from sixtysix_env.checks import cli_float, cli_int, parse_float_text  # noqa: E402
from sixtysix_env.fast import BatchedDeals  # noqa: E402
from sixtysix_env.fast import kernels as K  # noqa: E402
from sixtysix_env.fast.state import COLUMNS  # noqa: E402
from sixtysix_env.observers import VECTOR_SIZE  # noqa: E402
from sixtysix_env.rules import Rules, get_rules, preset_names  # noqa: E402

__all__ = ["Labels", "Options", "Trainer", "evaluate", "heuristic_labels", "load_teacher_labels", "main"]

OPPONENT_KINDS = ("heuristic", "random", "snapshot")
HEURISTIC, RANDOM = -1, -2
"""Opponent codes per env; a snapshot is its index in the league (0, 1, ...)."""
ENDGAMES = ("play", "solve")
"""``--endgame``: play every deal to its end, or stop it at phase 2 with its exact value."""
MASKED = -1e9
"""The logit of an illegal action: its probability is exactly 0 in float32."""


# ---------------------------------------------------------------------------- options
@dataclass
class Options:
    """Every setting of a run (``--help`` lists them with their defaults)."""

    rules: str = "standard"
    seed: int = 0
    minutes: float = 0.0
    steps: int = 0
    out: str = ""
    num_envs: int = 1024
    n_steps: int = 32
    minibatch: int = 1024
    epochs: int = 2
    lr: float = 3e-4
    lr_final: float = 0.3
    ent_coef: float = 0.003
    clip: float = 0.2
    gae_lambda: float = 0.95
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: str = "256,256"
    opponents: str = "heuristic=0.4,snapshot=0.55,random=0.05"
    league: int = 5
    snapshot_every: int = 200_000
    score_share: float = 0.5
    bc_deals: int = 20_000
    bc_explore: float = 0.15
    bc_epochs: int = 5
    bc_lr: float = 1e-3
    bc_minibatch: int = 1024
    init: str = ""
    teacher_labels: str = ""
    eval_pairs: int = 1000
    eval_every: float = 120.0
    eval_seed: int = 2026
    threads: int = 1
    endgame: str = "play"
    plot: bool = True
    quiet: bool = False
    shares: dict[str, float] = field(default_factory=dict)
    layers: tuple[int, ...] = ()


HELP = {
    "rules": "two-player rules preset: " + ", ".join(preset_names()),
    "seed": "seed of everything: deals, seats, opponent draws, networks, minibatches",
    "minutes": "wall-clock budget for PPO (0: none; give --minutes or --steps)",
    "steps": "PPO budget in learner decisions (0: none); a run with --steps alone is reproducible",
    "out": "the .npz to write (default results/fast_RULES.npz); the CSV and PNG go next to it",
    "num_envs": "deals stepped together",
    "n_steps": "engine steps per env per rollout (about half are the learner's)",
    "minibatch": "PPO minibatch size (learner decisions)",
    "epochs": "PPO epochs per rollout",
    "lr": "Adam learning rate (PPO)",
    "lr_final": "learning rate at the end of the budget, as a fraction of --lr (linear decay)",
    "ent_coef": "entropy bonus",
    "clip": "PPO clip range",
    "gae_lambda": "GAE lambda (gamma is 1: a deal is about 10 learner decisions)",
    "vf_coef": "value loss weight",
    "max_grad_norm": "gradient norm clip",
    "hidden": "hidden layer sizes of the policy and of the value network (tanh)",
    "opponents": "opponent shares per deal, kind=share: heuristic, random, snapshot (normalised)",
    "league": "frozen snapshots of the learner kept (the last ones; the first is the warm start)",
    "snapshot_every": "learner decisions between snapshots added to the league",
    "score_share": "share of deals started from random match scores (the arena plays matches)",
    "bc_deals": "heuristic self-play deals labelled for the warm start (0: none)",
    "bc_explore": "share of random moves played (not labelled as such) while collecting labels",
    "bc_epochs": "behaviour cloning epochs",
    "bc_lr": "behaviour cloning learning rate",
    "bc_minibatch": "behaviour cloning minibatch size",
    "init": "start from these weights (.npz of this script, same --hidden) instead of random ones",
    "teacher_labels": "extra BC labels: .npz with obs (N,235) float32, mask (N,32) bool, action (N,), value (N,)",
    "eval_pairs": "duplicate deal pairs against the heuristic per evaluation (0: no evaluation)",
    "eval_every": "seconds between evaluations",
    "eval_seed": "seed of the evaluation deals (the same for every run, so curves compare)",
    "threads": "torch CPU threads (1 was 3x faster than 2 on this shared 2-core machine)",
    "endgame": "play: the deal is played to its end; solve: it ends once its stock is closed or exhausted, "
    "paid its exact perfect-information value (trains the open-stock network of ppo:endgame=search)",
    "plot": "save the training curve as a PNG next to --out (needs matplotlib)",
    "quiet": "print only the final summary",
}


def parse_shares(text: str) -> dict[str, float]:
    """``"heuristic=0.4,snapshot=0.55,random=0.05"`` -> normalised shares; a ValueError names what is wrong."""
    shares: dict[str, float] = {}
    for part in str(text).split(","):
        name, sep, value = part.strip().partition("=")
        if not sep:
            kinds = ", ".join(OPPONENT_KINDS)
            raise ValueError(f"opponent share {part!r} in {text!r}: write kind=share, kinds {kinds}")
        if name not in OPPONENT_KINDS:
            raise ValueError(f"unknown opponent {name!r} in {text!r}: choose from {', '.join(OPPONENT_KINDS)}")
        if name in shares:
            raise ValueError(f"opponent {name!r} given twice in {text!r}")
        share = parse_float_text(value)
        if share is None:
            raise ValueError(f"share {value!r} of {name!r} is not a number (write it in digits, like 0.5)")
        if not (math.isfinite(share) and share >= 0):
            raise ValueError(f"share of {name!r} must be a finite number >= 0, got {value!r}")
        shares[name] = share
    total = sum(shares.values())
    if total <= 0:
        raise ValueError(f"opponent shares {text!r} add up to 0")
    return {k: v / total for k, v in shares.items()}


def parse_args(argv: Sequence[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(
        prog="python baselines/train_fast.py",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        epilog="example: python baselines/train_fast.py --rules vu --minutes 15 --out results/fast_vu.npz",
    )
    defaults = Options()
    for name, text in HELP.items():
        flag = "--" + name.replace("_", "-")
        value = getattr(defaults, name)
        if isinstance(value, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=value, help=text)
        else:
            strict = {int: cli_int, float: cli_float}.get(type(value), type(value))  # numbers in ASCII digits
            parser.add_argument(flag, type=strict, default=value, help=text)
    args = vars(parser.parse_args(argv))
    opts = Options(**args)
    try:
        check_options(opts)
    except ValueError as e:
        parser.error(str(e))
    return opts


def check_options(opts: Options) -> Options:
    """Fill the parsed fields (shares, layers) and refuse bad values with a message naming them."""
    if opts.rules not in preset_names():
        raise ValueError(f"--rules {opts.rules!r}: choose a two-player preset, one of {', '.join(preset_names())}")
    if opts.minutes <= 0 and opts.steps <= 0:
        raise ValueError("give a budget: --minutes M (wall clock) or --steps N (learner decisions), or both")
    if opts.minutes < 0 or opts.steps < 0:
        raise ValueError(f"--minutes {opts.minutes} and --steps {opts.steps} must be >= 0")
    if opts.out and not opts.out.endswith(".npz"):
        raise ValueError(f"--out {opts.out!r} must end in .npz")
    for name in ("num_envs", "n_steps", "minibatch", "bc_minibatch", "epochs", "league", "snapshot_every", "threads"):
        if getattr(opts, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be >= 1, got {getattr(opts, name)}")
    for name in ("seed", "eval_seed", "bc_deals", "bc_epochs", "eval_pairs"):
        if getattr(opts, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} must be >= 0, got {getattr(opts, name)}")
    for name in ("score_share", "bc_explore", "lr_final", "gae_lambda"):
        if not 0 <= getattr(opts, name) <= 1:
            raise ValueError(f"--{name.replace('_', '-')} must be in [0, 1], got {getattr(opts, name)}")
    for name in ("lr", "bc_lr", "clip", "eval_every", "max_grad_norm"):
        if not getattr(opts, name) > 0:
            raise ValueError(f"--{name.replace('_', '-')} must be > 0, got {getattr(opts, name)}")
    for name in ("ent_coef", "vf_coef"):
        if getattr(opts, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} must be >= 0, got {getattr(opts, name)}")
    try:
        opts.layers = tuple(int(x) for x in opts.hidden.split(","))
    except ValueError:
        raise ValueError(f"--hidden {opts.hidden!r}: write layer sizes like 256,256") from None
    if not opts.layers or min(opts.layers) < 1:
        raise ValueError(f"--hidden {opts.hidden!r}: every layer needs at least one unit")
    opts.shares = parse_shares(opts.opponents)
    if opts.teacher_labels and not Path(opts.teacher_labels).is_file():
        raise ValueError(f"--teacher-labels {opts.teacher_labels!r}: no such file")
    if opts.init and not Path(opts.init).is_file():
        raise ValueError(f"--init {opts.init!r}: no such file")
    if opts.endgame not in ENDGAMES:
        raise ValueError(f"--endgame {opts.endgame!r}: choose one of {', '.join(ENDGAMES)}")
    if opts.bc_deals == 0 and not opts.teacher_labels and opts.bc_epochs > 0:
        opts.bc_epochs = 0  # nothing to clone: PPO from scratch
    return opts


def output_path(opts: Options) -> Path:
    out = Path(opts.out or f"results/fast_{opts.rules}.npz")
    return out if out.is_absolute() else ROOT / out


# ---------------------------------------------------------------------------- networks
def mlp(sizes: Sequence[int]) -> nn.Sequential:
    """Linear layers with tanh between them (none after the last), torch's default init."""
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.Tanh())
    return nn.Sequential(*layers)


class Nets(nn.Module):
    """Separate policy and value MLPs, the layout ``MLPPolicy`` stores."""

    def __init__(self, hidden: Sequence[int]) -> None:
        super().__init__()
        self.policy = mlp([VECTOR_SIZE, *hidden, NUM_ACTIONS])
        self.value = mlp([VECTOR_SIZE, *hidden, 1])


def load_weights(nets: Nets, path: str | Path) -> None:
    """Copy an ``MLPPolicy`` file's weights into ``nets``; a ValueError when the layers differ."""
    policy = MLPPolicy.load(path)
    for seq, layers, name in ((nets.policy, policy.policy, "policy"), (nets.value, policy.value, "value")):
        linear = [m for m in seq if isinstance(m, nn.Linear)]
        shapes = [tuple(w.shape) for w, _ in layers]
        wanted = [tuple(m.weight.shape) for m in linear]
        if shapes != wanted:
            raise ValueError(f"{path}: {name} layers {shapes} do not match --hidden (layers {wanted})")
        with torch.no_grad():
            for m, (w, b) in zip(linear, layers, strict=True):
                m.weight.copy_(torch.from_numpy(w))
                m.bias.copy_(torch.from_numpy(b))


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(~mask, MASKED)


def export(nets: Nets, rules: str, source: str) -> MLPPolicy:
    def layers(seq: nn.Sequential) -> tuple:
        return linear_layers(m for m in seq if isinstance(m, nn.Linear))

    return vector_policy(layers(nets.policy), layers(nets.value), activation="tanh", rules=rules, source=source)


def sample(logits: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """One action per row from masked logits (Gumbel-max, seeded by ``gen``)."""
    u = torch.rand(logits.shape, generator=gen).clamp_(1e-20, 1.0)
    return torch.argmax(logits - torch.log(-torch.log(u)), dim=1)


# ---------------------------------------------------------------------------- deals
def randomize_scores(deals: BatchedDeals, rows: np.ndarray, share: float, rng: np.random.Generator) -> None:
    """Give a ``share`` of the deals ``rows`` (just started) random match scores below the target,
    and rewrite their observations (the observation carries the score; the engine keeps it)."""
    if share <= 0 or rows.size == 0:
        return
    rows = rows[rng.random(rows.size) < share]
    if rows.size == 0:
        return
    target = deals.rules.match_target
    s = COLUMNS["SCORES"]
    deals.state[rows, s : s + 2] = rng.integers(0, target, size=(rows.size, 2))
    sub = deals.state[rows]
    out = np.empty((rows.size, VECTOR_SIZE), dtype=np.float32)
    K.observe_envs(sub, deals.params, np.full(rows.size, -1, dtype=np.int8), out)
    deals._obs[rows] = out  # the batch's view buffer, which step_observe returned


@dataclass
class Labels:
    """Behaviour cloning data: observations, legal masks, teacher actions, value targets (NaN: none)."""

    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.action)

    @staticmethod
    def concat(parts: Sequence[Labels]) -> Labels:
        return Labels(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("obs", "mask", "action", "value")))


def heuristic_labels(rules: Rules, deals: int, explore: float, score_share: float, seed: int) -> Labels:
    """The batched heuristic playing itself (a share ``explore`` of random moves mixed in):
    every decision labelled with the heuristic's action and the player's final game points."""
    n = min(4096, max(1, deals))
    rng = np.random.default_rng([seed, 1])
    batch = BatchedDeals(n, rules, seed=rng.integers(2**63))
    obs, masks = batch.reset()
    randomize_scores(batch, np.arange(n), score_share, rng)
    deal_id = np.zeros(n, dtype=np.int64)
    per_env = deals // n + 2
    result = np.full((n, per_env), np.nan, dtype=np.float32)  # player 0's game points per (env, deal)
    rec: dict[str, list[np.ndarray]] = {k: [] for k in ("obs", "mask", "action", "seat", "env", "deal")}
    finished = 0
    while finished < deals:
        live = deal_id < per_env - 1
        heur = batch.heuristic_actions()
        rand = batch.sample_actions()
        acts = np.where(rng.random(n) < explore, rand, heur)
        acts[~live] = -1
        rec["obs"].append(obs[live].copy())
        rec["mask"].append(masks[live].astype(bool))
        rec["action"].append(heur[live])
        rec["seat"].append(batch.current_player[live])
        rec["env"].append(np.flatnonzero(live))
        rec["deal"].append(deal_id[live])
        obs, masks, rewards, done = batch.step_observe(acts)
        ended = np.flatnonzero(done & live)
        result[ended, deal_id[ended]] = rewards[ended, 0]
        deal_id[ended] += 1
        finished += ended.size
        randomize_scores(batch, ended, score_share, rng)
    seat, env, deal = (np.concatenate(rec[k]) for k in ("seat", "env", "deal"))
    value = result[env, deal] * np.where(seat == 0, 1.0, -1.0).astype(np.float32)
    keep = ~np.isnan(value)
    return Labels(
        np.concatenate(rec["obs"])[keep],
        np.concatenate(rec["mask"])[keep],
        np.concatenate(rec["action"])[keep].astype(np.int64),
        value[keep].astype(np.float32),
    )


def load_teacher_labels(path: str | Path) -> Labels:
    """Labels from a teacher (``obs``, ``mask``, ``action``, optional ``value``), checked: every
    action legal under its mask, shapes (N, 235), (N, 32), (N,)."""
    p = Path(path)
    try:
        with np.load(p, allow_pickle=False) as f:
            data = {k: f[k] for k in f.files}
    except (OSError, ValueError) as e:
        raise ValueError(f"{p}: not a .npz of plain arrays ({e})") from None
    missing = [k for k in ("obs", "mask", "action") if k not in data]
    if missing:
        raise ValueError(f"{p} lacks {missing}: teacher labels need obs, mask, action (and optionally value)")
    obs, mask, action = data["obs"], data["mask"], data["action"]
    n = len(action)
    if obs.shape != (n, VECTOR_SIZE) or mask.shape != (n, NUM_ACTIONS) or action.shape != (n,):
        raise ValueError(
            f"{p}: shapes obs {obs.shape}, mask {mask.shape}, action {action.shape}; "
            f"expected (N, {VECTOR_SIZE}), (N, {NUM_ACTIONS}), (N,)"
        )
    if n == 0:
        raise ValueError(f"{p} holds no labels")
    if action.dtype.kind not in "iu" or action.min() < 0 or action.max() >= NUM_ACTIONS:
        raise ValueError(f"{p}: actions must be integers 0..{NUM_ACTIONS - 1}")
    mask = mask.astype(bool)
    bad = np.flatnonzero(~mask[np.arange(n), action])
    if bad.size:
        raise ValueError(f"{p}: label {bad[0]} plays action {action[bad[0]]}, illegal under its mask")
    value = data.get("value")
    if value is None:
        value = np.full(n, np.nan, dtype=np.float32)
    elif value.shape != (n,):
        raise ValueError(f"{p}: value has shape {value.shape}, expected ({n},)")
    return Labels(obs.astype(np.float32), mask, action.astype(np.int64), value.astype(np.float32))


def behaviour_clone(nets: Nets, labels: Labels, opts: Options, gen: torch.Generator) -> dict[str, float]:
    """Fit the policy to the labels' actions and the value net to their values (where given)."""
    opt = torch.optim.Adam(nets.parameters(), lr=opts.bc_lr)
    n = len(labels)
    obs, mask = torch.from_numpy(labels.obs), torch.from_numpy(labels.mask)
    action = torch.from_numpy(labels.action)
    value = torch.from_numpy(labels.value)
    has_value = ~torch.isnan(value)
    value = torch.nan_to_num(value)
    held = max(1, n // 20)  # the last 5% (shuffled once) measure agreement
    order = torch.randperm(n, generator=gen)
    train, test = order[held:], order[:held]
    batch = min(opts.bc_minibatch, max(1, len(train)))
    for _ in range(opts.bc_epochs):
        perm = train[torch.randperm(len(train), generator=gen)]
        for i in range(0, len(perm), batch):
            b = perm[i : i + batch]
            logits = masked_logits(nets.policy(obs[b]), mask[b])
            loss = nn.functional.cross_entropy(logits, action[b])
            v = nets.value(obs[b]).squeeze(1)
            w = has_value[b].float()
            loss = loss + ((v - value[b]) ** 2 * w).sum() / w.sum().clamp(min=1.0)
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        pred = masked_logits(nets.policy(obs[test]), mask[test]).argmax(1)
        v = nets.value(obs[test]).squeeze(1)
        w = has_value[test]
        mse = float(((v - value[test])[w] ** 2).mean()) if w.any() else float("nan")
    return {"labels": n, "accuracy": float((pred == action[test]).float().mean()), "value_mse": mse}


# ---------------------------------------------------------------------------- evaluation
@dataclass
class Evaluation:
    points: float
    ci95: float
    win_rate: float
    deals: int


def evaluation_deals(rules: Rules, pairs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``pairs`` random deals (deck rows and dealers), the same for every run with this seed."""
    batch = BatchedDeals(pairs, rules, seed=seed)
    return batch.decks.copy(), batch.state[:, COLUMNS["DEALER"]].astype(np.int64)


def phase_two(state: np.ndarray) -> np.ndarray:
    """Rows of the deals still running whose stock is closed or exhausted: where ``--endgame
    solve`` stops a deal (the ``ppo:endgame=search`` agent hands these positions to search)."""
    running = state[:, COLUMNS["TERMINATION"]] < 0
    return np.flatnonzero(running & ((state[:, COLUMNS["STOCK_LEN"]] == 0) | (state[:, COLUMNS["CLOSED_BY"]] >= 0)))


def exact_values(solver: FastSolver, state: np.ndarray, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Perfect-information game points of the deals ``rows`` for each row's seat in ``seats``."""
    return np.array([solver.row_value(state[i], int(seats[i])) for i in rows], dtype=np.float64)


def evaluate(
    policy: nn.Module, rules: Rules, decks: np.ndarray, dealers: np.ndarray, solver: FastSolver | None = None
) -> Evaluation:
    """Duplicate deals against the batched heuristic: deal i in env i (learner seat 0) and in env
    i + M (seat 1); the learner plays its most likely legal action. Points are the learner's.
    With a ``solver`` a deal ends at phase 2 with its exact value, as in ``--endgame solve``."""
    m = len(decks)
    batch = BatchedDeals(2 * m, rules, autoreset=False, seed=0)
    obs, masks = batch.reset(decks=np.concatenate([decks, decks]), dealers=np.concatenate([dealers, dealers]))
    seat = np.repeat(np.array([0, 1], dtype=np.int8), m)
    cut_value = np.full(2 * m, np.nan)
    while True:
        if solver is not None:
            cut = phase_two(batch.state)
            cut = cut[np.isnan(cut_value[cut])]
            cut_value[cut] = exact_values(solver, batch.state, cut, seat)
        current = batch.current_player
        active = (current >= 0) & np.isnan(cut_value)
        if not active.any():
            break
        acts = batch.heuristic_actions()
        acts[~active] = -1
        mine = np.flatnonzero(active & (current == seat))
        if mine.size:
            with torch.no_grad():
                logits = masked_logits(policy(torch.from_numpy(obs[mine])), torch.from_numpy(masks[mine].astype(bool)))
            acts[mine] = logits.argmax(1).numpy()
        obs, masks, _, _ = batch.step_observe(acts)
    winner = batch.state[:, COLUMNS["WINNER"]]
    gp = batch.state[:, COLUMNS["GAME_POINTS"]].astype(np.float64)
    pts = np.where(winner == seat, gp, np.where(winner < 0, 0.0, -gp))
    pts = np.where(np.isnan(cut_value), pts, cut_value)
    wins = np.where(pts > 0, 1.0, np.where(pts < 0, 0.0, 0.5))
    pair = (pts[:m] + pts[m:]) / 2
    ci = 1.96 * pair.std(ddof=1) / math.sqrt(m) if m > 1 else float("nan")
    return Evaluation(float(pts.mean()), float(ci), float(wins.mean()), 2 * m)


# ---------------------------------------------------------------------------- rollouts
@dataclass
class Rollout:
    """The learner's decisions of one rollout, in order, with each one's successor in its env."""

    obs: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor
    logp: torch.Tensor
    advantage: torch.Tensor
    returns: torch.Tensor
    engine_steps: int

    def __len__(self) -> int:
        return len(self.action)


class Trainer:
    """The learner, its league of snapshots, and the batch of deals it plays on."""

    def __init__(self, opts: Options) -> None:
        if not opts.shares:
            check_options(opts)
        self.opts = opts
        self.rules = get_rules(opts.rules)
        torch.manual_seed(opts.seed)
        self.gen = torch.Generator().manual_seed(opts.seed)
        self.rng = np.random.default_rng([opts.seed, 0])
        self.nets = Nets(opts.layers)
        self.solver = FastSolver(self.rules, table_bits=20) if opts.endgame == "solve" else None
        """``--endgame solve``: values the deals that reach phase 2, which then end."""
        self.optimizer = torch.optim.Adam(self.nets.parameters(), lr=opts.lr, eps=1e-5)
        self.league: list[nn.Module] = []
        self.samples = 0
        self.iterations = 0
        self._next_snapshot = 0
        n = opts.num_envs
        self.deals = BatchedDeals(n, self.rules, seed=int(self.rng.integers(2**63)))
        self.obs, self.masks = self.deals.reset()
        self.learner_seat = np.zeros(n, dtype=np.int8)
        self.opponent = np.zeros(n, dtype=np.int64)
        kinds = list(opts.shares)
        self._kinds, self._probs = kinds, np.array([opts.shares[k] for k in kinds])
        self.results: dict[str, deque[float]] = {k: deque(maxlen=5000) for k in OPPONENT_KINDS}
        """The learner's game points of the deals finished lately, per opponent kind."""
        self.draw(np.arange(n))  # before the first snapshot: its share plays the heuristic for one deal

    # ------------------------------------------------------------------ opponents
    def snapshot(self) -> None:
        """Freeze a copy of the policy into the league (the oldest leaves when it is full)."""
        frozen = copy.deepcopy(self.nets.policy).requires_grad_(False)
        self.league.append(frozen)
        if len(self.league) > self.opts.league:
            self.league.pop(0)
            self.opponent[self.opponent > 0] -= 1  # indices shift; the dropped one's envs get the new oldest

    def draw(self, rows: np.ndarray) -> None:
        """New opponent and learner seat for the deals just started in ``rows``."""
        if rows.size == 0:
            return
        picks = self.rng.choice(len(self._kinds), size=rows.size, p=self._probs)
        codes = np.empty(rows.size, dtype=np.int64)
        for i, kind in enumerate(self._kinds):
            sel = picks == i
            if kind == "heuristic":
                codes[sel] = HEURISTIC
            elif kind == "random":
                codes[sel] = RANDOM
            elif self.league:
                codes[sel] = self.rng.integers(0, len(self.league), size=int(sel.sum()))
            else:  # no snapshot yet (no warm start): the heuristic stands in
                codes[sel] = HEURISTIC
        self.opponent[rows] = codes
        self.learner_seat[rows] = self.rng.integers(0, 2, size=rows.size)
        randomize_scores(self.deals, rows, self.opts.score_share, self.rng)

    def opponent_actions(self, rows: np.ndarray, acts: np.ndarray) -> None:
        """Fill ``acts[rows]`` with each env's opponent's action (snapshots sample their policy)."""
        codes = self.opponent[rows]
        if (codes == HEURISTIC).any():
            heur = self.deals.heuristic_actions()
            sel = rows[codes == HEURISTIC]
            acts[sel] = heur[sel]
        if (codes == RANDOM).any():
            rand = self.deals.sample_actions()
            sel = rows[codes == RANDOM]
            acts[sel] = rand[sel]
        for k in np.unique(codes[codes >= 0]):
            sel = rows[codes == k]
            with torch.no_grad():
                logits = masked_logits(
                    self.league[k](torch.from_numpy(self.obs[sel])), torch.from_numpy(self.masks[sel].astype(bool))
                )
                acts[sel] = sample(logits, self.gen).numpy()

    # ------------------------------------------------------------------ collection
    def _advance(self, acts: np.ndarray, open_idx: np.ndarray, reward: np.ndarray, done: np.ndarray) -> None:
        """Step every env; pay the learner's reward to its open decision, close finished deals."""
        self.obs, self.masks, rewards, finished = self.deals.step_observe(acts)
        n = self.opts.num_envs
        r = rewards[np.arange(n), self.learner_seat]
        if self.solver is not None:
            cut = phase_two(self.deals.state)
            if cut.size:
                r[cut] = exact_values(self.solver, self.deals.state, cut, self.learner_seat)
                finished = finished.copy()
                finished[cut] = True
                self.deals.redeal(cut)  # rewrites self.obs and self.masks there (the batch's buffers)
        ended = np.flatnonzero(finished)
        has_open = open_idx >= 0
        reward_rows = np.flatnonzero(has_open & (r != 0))
        np.add.at(reward, open_idx[reward_rows], r[reward_rows])
        if ended.size:
            closing = ended[has_open[ended]]
            done[open_idx[closing]] = True
            open_idx[ended] = -1
            for e, code in zip(ended, self.opponent[ended], strict=True):
                kind = "heuristic" if code == HEURISTIC else "random" if code == RANDOM else "snapshot"
                self.results[kind].append(float(r[e]))
            self.draw(ended)

    def collect(self) -> Rollout:
        """``n_steps`` engine steps in every env, then the opponents finish their turns so every env
        ends at a learner decision (whose value bootstraps the open trajectories)."""
        opts, n = self.opts, self.opts.num_envs
        cap = n * opts.n_steps
        obs = np.empty((cap, VECTOR_SIZE), dtype=np.float32)
        mask = np.empty((cap, NUM_ACTIONS), dtype=bool)
        action = np.empty(cap, dtype=np.int64)
        logp = np.empty(cap, dtype=np.float32)
        value = np.empty(cap, dtype=np.float32)
        reward = np.zeros(cap, dtype=np.float64)
        done = np.zeros(cap, dtype=bool)
        nxt = np.full(cap, -1, dtype=np.int64)
        boot = np.zeros(cap, dtype=np.float32)
        blocks: list[tuple[int, int]] = []
        open_idx = np.full(n, -1, dtype=np.int64)
        k = 0
        steps = 0
        for _ in range(opts.n_steps):
            current = self.deals.current_player
            mine = np.flatnonzero(current == self.learner_seat)
            theirs = np.flatnonzero(current != self.learner_seat)
            acts = np.full(n, -1, dtype=np.int64)
            if mine.size:
                o, m = self.obs[mine], self.masks[mine].astype(bool)
                with torch.no_grad():
                    ot, mt = torch.from_numpy(o), torch.from_numpy(m)
                    logits = masked_logits(self.nets.policy(ot), mt)
                    a = sample(logits, self.gen)
                    lp = torch.log_softmax(logits, 1).gather(1, a[:, None]).squeeze(1)
                    v = self.nets.value(ot).squeeze(1)
                j = slice(k, k + mine.size)
                obs[j], mask[j], action[j], logp[j], value[j] = o, m, a.numpy(), lp.numpy(), v.numpy()
                prev = open_idx[mine]
                nxt[prev[prev >= 0]] = np.arange(k, k + mine.size)[prev >= 0]
                open_idx[mine] = np.arange(k, k + mine.size)
                blocks.append((k, k + mine.size))
                k += mine.size
                acts[mine] = action[j]
            self.opponent_actions(theirs, acts)
            self._advance(acts, open_idx, reward, done)
            steps += n
        while True:  # the opponents' turns, up to the learner's next decision everywhere
            current = self.deals.current_player
            theirs = np.flatnonzero(current != self.learner_seat)
            if theirs.size == 0:
                break
            acts = np.full(n, -1, dtype=np.int64)
            self.opponent_actions(theirs, acts)
            self._advance(acts, open_idx, reward, done)
        rows = np.flatnonzero(open_idx >= 0)
        with torch.no_grad():
            boot[open_idx[rows]] = self.nets.value(torch.from_numpy(self.obs[rows])).squeeze(1).numpy()
        # GAE backwards, one block (one engine step) at a time: a decision's successor is later.
        adv = np.zeros(k, dtype=np.float32)
        lam = opts.gae_lambda
        for a0, a1 in reversed(blocks):
            j = np.arange(a0, a1)
            succ = nxt[j]
            has = succ >= 0
            next_value = np.where(done[j], 0.0, np.where(has, value[np.maximum(succ, 0)], boot[j]))
            next_adv = np.where(has & ~done[j], adv[np.maximum(succ, 0)], 0.0)
            delta = reward[j] + next_value - value[j]
            adv[j] = delta + lam * next_adv
        returns = adv + value[:k]
        return Rollout(
            torch.from_numpy(obs[:k]),
            torch.from_numpy(mask[:k]),
            torch.from_numpy(action[:k]),
            torch.from_numpy(logp[:k]),
            torch.from_numpy(adv),
            torch.from_numpy(returns.astype(np.float32)),
            steps,
        )

    # ------------------------------------------------------------------ learning
    def update(self, ro: Rollout, lr: float) -> dict[str, float]:
        opts = self.opts
        for g in self.optimizer.param_groups:
            g["lr"] = lr
        n = len(ro)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0}
        count = 0
        for _ in range(opts.epochs):
            perm = torch.randperm(n, generator=self.gen)
            for i in range(0, n, opts.minibatch):
                b = perm[i : i + opts.minibatch]
                obs, mask = ro.obs[b], ro.mask[b]
                logp_all = torch.log_softmax(masked_logits(self.nets.policy(obs), mask), 1)
                logp = logp_all.gather(1, ro.action[b][:, None]).squeeze(1)
                adv = ro.advantage[b]
                if len(b) > 1:  # a last minibatch of one has no spread (its std is NaN), as in SB3
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = torch.exp(logp - ro.logp[b])
                pg = -torch.min(ratio * adv, ratio.clamp(1 - opts.clip, 1 + opts.clip) * adv).mean()
                v = self.nets.value(obs).squeeze(1)
                vf = ((v - ro.returns[b]) ** 2).mean()
                entropy = -(logp_all.exp() * logp_all).sum(1).mean()
                loss = pg + opts.vf_coef * vf - opts.ent_coef * entropy
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.nets.parameters(), opts.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    kl = ((ratio - 1) - (logp - ro.logp[b])).mean()
                for key, x in zip(stats, (pg, vf, entropy, kl), strict=True):
                    stats[key] += float(x.detach())
                count += 1
        return {k: v / max(count, 1) for k, v in stats.items()}

    def iterate(self, lr: float) -> tuple[Rollout, dict[str, float]]:
        """One PPO iteration: a rollout, then the update; snapshots when their turn has come."""
        if self.samples >= self._next_snapshot:
            self.snapshot()
            self._next_snapshot = self.samples + self.opts.snapshot_every
        ro = self.collect()
        stats = self.update(ro, lr)
        self.samples += len(ro)
        self.iterations += 1
        return ro, stats


# ---------------------------------------------------------------------------- the run
def plot_curve(
    rows: list[dict[str, float]], path: Path, title: str, ylabel: str = "points per deal vs heuristic"
) -> Path | None:
    """Points per deal against the heuristic (with 95% intervals) over training minutes."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install 'sixtysix-env[plot]'): no PNG written", file=sys.stderr)
        return None
    t = np.array([r["wall_s"] for r in rows]) / 60
    y = np.array([r["points_per_deal"] for r in rows])
    ci = np.array([r["ci95"] for r in rows])
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    ax.plot(t, y, marker="o", ms=3)
    ax.fill_between(t, y - ci, y + ci, alpha=0.25)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("training wall time (minutes, 2-core machine)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def train(opts: Options) -> dict[str, object]:
    """The whole run; returns the final evaluation and where the files went."""
    torch.set_num_threads(opts.threads)
    out = output_path(opts)
    out.parent.mkdir(parents=True, exist_ok=True)
    log_path, png_path = out.with_suffix(".csv"), out.with_suffix(".png")
    say = (lambda *a: None) if opts.quiet else (lambda *a: print(*a, flush=True))
    t0 = time.perf_counter()
    trainer = Trainer(opts)
    decks, dealers = evaluation_deals(trainer.rules, max(opts.eval_pairs, 1), opts.eval_seed)
    bc: dict[str, float] = {}
    if opts.init:
        load_weights(trainer.nets, opts.init)
    if opts.bc_epochs > 0:
        parts = []
        if opts.bc_deals > 0:
            parts.append(heuristic_labels(trainer.rules, opts.bc_deals, opts.bc_explore, opts.score_share, opts.seed))
        if opts.teacher_labels:
            parts.append(load_teacher_labels(opts.teacher_labels))
        labels = Labels.concat(parts)
        bc = behaviour_clone(trainer.nets, labels, opts, trainer.gen)
        say(f"warm start: {bc['labels']:,} labels, held-out agreement {bc['accuracy']:.3f}, value MSE "
            f"{bc['value_mse']:.3f} ({time.perf_counter() - t0:.0f} s)")  # fmt: skip
    rows: list[dict[str, float]] = []
    fields = ["wall_s", "samples", "iteration", "points_per_deal", "ci95", "win_rate"]

    def log_eval() -> None:
        if opts.eval_pairs == 0:
            return
        ev = evaluate(trainer.nets.policy, trainer.rules, decks, dealers, trainer.solver)
        row = {"wall_s": round(time.perf_counter() - t0, 1), "samples": trainer.samples,
               "iteration": trainer.iterations, "points_per_deal": round(ev.points, 4), "ci95": round(ev.ci95, 4),
               "win_rate": round(ev.win_rate, 4)}  # fmt: skip
        rows.append(row)
        with open(log_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)
        say(f"[{row['wall_s']:7.0f} s] {trainer.samples:>11,} samples  vs heuristic {ev.points:+.3f} "
            f"± {ev.ci95:.3f} points/deal, win rate {ev.win_rate:.3f}")  # fmt: skip

    log_eval()
    start = time.perf_counter()
    last_eval = start
    budget_s = opts.minutes * 60
    ppo_time = 0.0
    while True:
        elapsed = time.perf_counter() - start
        progress = max(elapsed / budget_s if budget_s else 0.0, trainer.samples / opts.steps if opts.steps else 0.0)
        if progress >= 1:
            break
        lr = opts.lr * (1 - (1 - opts.lr_final) * progress)
        t = time.perf_counter()
        _, stats = trainer.iterate(lr)
        ppo_time += time.perf_counter() - t
        if time.perf_counter() - last_eval >= opts.eval_every:
            recent = {k: np.mean(v) for k, v in trainer.results.items() if v}
            say("   " + ", ".join(f"{k} {v:+.2f}" for k, v in recent.items()) + " (training, per deal); "
                + ", ".join(f"{k} {v:.3g}" for k, v in stats.items())
                + f"; {trainer.samples / max(ppo_time, 1e-9):,.0f} samples/s")  # fmt: skip
            log_eval()
            last_eval = time.perf_counter()
    if not rows or rows[-1]["samples"] != trainer.samples:
        log_eval()
    flags = (f" --endgame {opts.endgame}" if opts.endgame != "play" else "") + (
        f" --init {Path(opts.init).name}" if opts.init else ""
    )
    source = f"baselines/train_fast.py --rules {opts.rules} --seed {opts.seed}{flags}, {trainer.samples} samples"
    export(trainer.nets, opts.rules, source).save(out)
    meta_path = out.with_suffix(".json")
    summary = {
        "out": str(out),
        "samples": trainer.samples,
        "iterations": trainer.iterations,
        "ppo_seconds": round(ppo_time, 1),
        "samples_per_second": round(trainer.samples / ppo_time, 1) if ppo_time else None,
        "wall_seconds": round(time.perf_counter() - t0, 1),
        "warm_start": bc,
        "final": rows[-1] if rows else None,
        "options": {k: v for k, v in vars(opts).items() if k not in ("shares", "layers")},
    }
    meta_path.write_text(json.dumps(summary, indent=2) + "\n")
    if opts.plot and len(rows) >= 2:
        solve = opts.endgame == "solve"
        flag = " --endgame solve" if solve else ""
        title = f"train_fast.py --rules {opts.rules}{flag}: strength against training time"
        ylabel = "points per deal vs heuristic" + (" (exact endgames)" if solve else "")
        plot_curve(rows, png_path, title, ylabel)
    print(f"wrote {out} ({trainer.samples:,} samples, {summary['wall_seconds']:.0f} s); log {log_path}")
    return summary


def main(argv: Sequence[str] | None = None) -> dict[str, object]:
    return train(parse_args(argv))


if __name__ == "__main__":
    main()

"""Duplicate-deal strength of a batched policy against a built-in opponent, on the batched engine.

Every framework example ends with the same measurement, so their numbers compare::

    from sixtysix_env.integrations.evaluate import duplicate_eval
    result = duplicate_eval(policy, deals=2000, seed=0)   # policy(obs (B, 235), masks (B, 32)) -> (B,)
    print(result)   # game points per deal vs heuristic, 95% interval, deal win rate

Each of ``deals`` random deals is played twice with the same cards and dealer, the policy in seat
0 and then in seat 1, so the luck of the cards mostly cancels; the interval is taken over the
pairs. The opponent (``"heuristic"``: ``HeuristicAgent``, or ``"random"``) runs inside numba
kernels, and the policy sees what the single-agent envs show: the 235-float vector observation
(``observers.VECTOR_LAYOUT``) and the int8 legal mask. Deals are one-deal episodes at match score
0-0 (the arena, ``python -m sixtysix_env.arena``, plays whole matches). Needs numba.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..arena import Z95, wilson_interval
from ..rules import Rules

__all__ = ["DuplicateResult", "duplicate_eval"]

BatchPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class DuplicateResult:
    """From the policy's side: game points per deal (mean, 95% interval) and deal win rate."""

    opponent: str
    deals: int
    points: float
    low: float
    high: float
    win_rate: float
    win_low: float
    win_high: float

    def __str__(self) -> str:
        return (
            f"vs {self.opponent}, {self.deals} duplicate deals: {self.points:+.3f} game points per deal "
            f"[{self.low:+.3f}, {self.high:+.3f}], deal win rate {self.win_rate:.3f} "
            f"[{self.win_low:.3f}, {self.win_high:.3f}]"
        )


def duplicate_eval(
    policy: BatchPolicy,
    deals: int = 1000,
    opponent: str = "heuristic",
    rules: str | Rules = "standard",
    seed: int = 0,
) -> DuplicateResult:
    """Play ``deals`` deals twice each (seats swapped) and score them from the policy's side."""
    from ..fast.batch import BatchedDeals
    from ..fast.state import DEALER

    if deals < 2:
        raise ValueError(f"deals={deals!r} is too few: give at least 2")
    if opponent not in ("heuristic", "random"):
        raise ValueError(f"opponent={opponent!r} is not allowed: choose one of 'heuristic', 'random'")
    batch = BatchedDeals(2 * deals, rules, autoreset=False, seed=seed)
    decks = batch.decks.copy()
    dealers = batch.state[:, DEALER].astype(np.int8)
    decks[deals:], dealers[deals:] = decks[:deals], dealers[:deals]  # the same cards, seats swapped
    obs, masks = batch.reset(decks=decks, dealers=dealers)
    policy_seat = np.repeat(np.array([0, 1], dtype=np.int8), deals)
    points = np.zeros(2 * deals)
    done = np.zeros(2 * deals, dtype=bool)
    while not done.all():
        player = batch.current_player
        ours = (player == policy_seat) & ~done
        actions = batch.heuristic_actions() if opponent == "heuristic" else batch.sample_actions()
        if ours.any():
            actions[ours] = np.asarray(policy(obs[ours].copy(), masks[ours].copy())).reshape(-1)
        actions[done] = -1
        obs, masks, _, ended = batch.step_observe(actions)
        for i in np.flatnonzero(ended):
            winner, game_points = int(batch.last_winner[i]), int(batch.last_game_points[i])
            points[i] = 0 if winner < 0 else (game_points if winner == policy_seat[i] else -game_points)
        done |= ended
    pairs = (points[:deals] + points[deals:]) / 2
    mean = float(pairs.mean())
    half = Z95 * float(pairs.std(ddof=1)) / math.sqrt(deals)
    wins = float((points > 0).sum() + 0.5 * (points == 0).sum())
    lo, hi = wilson_interval(wins, 2 * deals)
    return DuplicateResult(opponent, deals, mean, mean - half, mean + half, wins / (2 * deals), lo, hi)

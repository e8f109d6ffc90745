"""Reward schemes for the three- and four-player games; every one is zero-sum over the players.

* ``"game_points"`` (default): when a deal ends each player gets his payoff: stakes won or paid
  (three players), or the team's game points, the same for both partners (four players).
* ``"win_loss"``: the winner (or winning team) +1 per deal, or only at the end of a match in
  match episodes (times the match stake: 2 after a won fur coat, 3 after a won suit, Russian
  game); with three players the losers get -1/2 each (tied winners share the win).
* ``"shaped"``: ``game_points`` plus, after every action, ``shaping_scale`` times the change in
  (my side's counted points - the mean of the other sides'), zero-sum by construction.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rewards import DEFAULT_SHAPING_SCALE, REWARD_SCHEMES, check_reward_scheme
from .deal import TableDeal

__all__ = ["table_step_rewards", "win_loss_rewards", "check_reward_scheme", "REWARD_SCHEMES", "DEFAULT_SHAPING_SCALE"]


def win_loss_rewards(n_players: int, winners: Sequence[int]) -> tuple[float, ...]:
    """Winners share the win and losers the loss, zero-sum: a single winner of three gets +1 and
    the others -1/2; two tied winners +1/2 and the loser -1; a winning team +1 each, -1 each."""
    k = len(winners)
    if not k or k == n_players:
        return (0.0,) * n_players
    scale = max(k, n_players - k)
    win, lose = (n_players - k) / scale, -k / scale
    return tuple(win if p in winners else lose for p in range(n_players))


def _deal_winners(deal: TableDeal) -> list[int]:
    out = deal.outcome
    if out is None or out.winner < 0:
        return []
    return [p for p in range(deal.n_players) if deal.side_of(p) == out.winner]


def table_step_rewards(
    scheme: str,
    deal: TableDeal,
    points_before: Sequence[int],
    match_winners: Sequence[int] | None = None,
    shaping_scale: float = DEFAULT_SHAPING_SCALE,
) -> tuple[float, ...]:
    """Rewards per player for the action just applied to ``deal``.

    ``points_before`` are the sides' counted points before it; ``match_winners`` is None in deal
    episodes, else the players who won the match if this action ended it (empty otherwise).
    """
    n = deal.n_players
    out = deal.outcome
    rewards = [0.0] * n
    if scheme == "win_loss":
        winners = _deal_winners(deal) if match_winners is None else list(match_winners)
        if out is not None and winners:
            stake = out.stake if match_winners is not None else 1
            rewards = [stake * x for x in win_loss_rewards(n, winners)]
    elif out is not None:
        rewards = [float(x) for x in out.payoffs]
    if scheme == "shaped":
        sides = deal.n_sides
        delta = [deal.points[s] - points_before[s] for s in range(sides)]
        total = sum(delta)
        for p in range(n):
            s = deal.side_of(p)
            rewards[p] += shaping_scale * (delta[s] - (total - delta[s]) / (sides - 1))
    return tuple(r + 0.0 for r in rewards)  # + 0.0: never -0.0

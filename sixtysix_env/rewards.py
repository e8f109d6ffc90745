"""Reward schemes: how a deal (or match) turns into per-player rewards.

* ``"game_points"`` (default): when a deal ends the winner gets +game points and the loser
  -game points; a drawn deal gives 0 to both. Zero-sum.
* ``"win_loss"``: +1 / -1 for the winner / loser of each deal (``episode="deal"``) or only of the
  match (``episode="match"``); 0 for a drawn deal.
* ``"shaped"``: ``game_points`` plus, after every action, ``shaping_scale`` times the change in
  (my counted points - opponent's counted points). Counted points rise by at most 230 in a deal,
  so with the default scale 0.0025 the shaping sums to at most 0.575 in size, below the 1 game
  point of the smallest win: the terminal part dominates. Still zero-sum.
"""

from __future__ import annotations

from .engine import Deal

__all__ = ["REWARD_SCHEMES", "DEFAULT_SHAPING_SCALE", "step_rewards", "check_reward_scheme"]

REWARD_SCHEMES = ("game_points", "win_loss", "shaped")
"""The values of the ``reward`` option."""
DEFAULT_SHAPING_SCALE = 0.0025
"""Default ``shaping_scale`` of the ``shaped`` reward: its shaping sums to less than the smallest win."""


def check_reward_scheme(name: str) -> str:
    """``name`` if it is a reward scheme, else a ``ValueError`` listing them."""
    if name not in REWARD_SCHEMES:
        raise ValueError(f"unknown reward scheme {name!r}: choose one of {', '.join(REWARD_SCHEMES)}")
    return name


def step_rewards(
    scheme: str,
    deal: Deal,
    points_before: tuple[int, int],
    match_over: bool | None = None,
    shaping_scale: float = DEFAULT_SHAPING_SCALE,
) -> tuple[float, float]:
    """Rewards for players 0 and 1 for the action just applied to ``deal``.

    ``points_before`` are the counted points before the action; ``match_over`` is None in deal
    episodes, else whether this action ended the match (``win_loss`` then pays only at match end,
    to the match winner, who is the winner of the last deal).
    """
    r0 = 0.0
    out = deal.outcome
    if out is not None and out.winner >= 0:
        if scheme == "win_loss":
            if match_over is None or match_over:
                r0 = 1.0 if out.winner == 0 else -1.0
        else:
            r0 = float(out.game_points if out.winner == 0 else -out.game_points)
    if scheme == "shaped":
        p = deal.points
        r0 += shaping_scale * ((p[0] - points_before[0]) - (p[1] - points_before[1]))
    return (r0 + 0.0, 0.0 - r0)  # never -0.0 (a zero reward prints as 0.0 for both players)

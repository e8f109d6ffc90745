"""Sixty-Six for three players (no stock, settled in stakes), as a PettingZoo AEC environment.

| Import             | `from sixtysix_env.envs import sixtysix_three_v0`                      |
|--------------------|------------------------------------------------------------------------|
| Actions            | Discrete(49)                                                           |
| Parallel API       | No                                                                     |
| Manual control     | No                                                                     |
| Agents             | `agents = ['player_0', 'player_1', 'player_2']` (seated clockwise)     |
| Observation shape  | `{"observation": encoder output, "action_mask": (49,) int8}`           |
| Observation values | vector: float32, 318 values in [-1, 4] (layout below)                  |
| Registry id        | `pettingzoo.make("aec", "sixtysix/sixtysix_three_v0")`                 |

The rules (docs/RULES.md 5.1) live in `sixtysix_env.table.three`; this module only adapts them.
24 cards, 8 each, dealt in packets of 3, 2, 3 from the player left of the dealer. That player
sees his first 3 cards and names trump or lets the first card of his second packet be turned;
then he leads. Every player must follow suit and beat the best card so far if able; void, trump
and over-trump if able; else any card. The leader may declare one marriage (20, trumps 40) per
lead, leading its K or Q; it counts once he has a trick. After 8 tricks (the last worth 10) the
player with the most points takes 1 stake from each player with 33 or more, 2 from a player under
33 with a trick, 3 from a player without one. A tie for the most points: nobody pays.

| id    | action                                                                   |
|-------|--------------------------------------------------------------------------|
| 0-23  | play card id `6*suit + rank` (suits ♣ ♠ ♥ ♦, ranks 9 J Q K 10 A)         |
| 24-27 | declare the marriage in suit `id-24`; the same player then leads K or Q  |
| 28-31 | never legal in this game                                                 |
| 32-35 | name suit `id-32` trump (the player left of the dealer, first decision)  |
| 36    | do not name trump: the first card of the second packet is turned         |
| 37-48 | never legal in this game (the Russian four-player game's decisions)      |

Arguments (``sixtysix_three_v0.env(**options)``):

* ``rules``: ``"pagat"`` (default: trump chosen, must beat), ``"marriage"`` (Марьяж втроём:
  the dealer's last card is trump, follow suit else trump) or a ``ThreeRules`` object.
* ``observation``: ``"vector"`` (default), ``"dict"`` or ``"history"``.
* ``reward``: ``"game_points"`` (default: the stakes), ``"win_loss"`` or ``"shaped"``.
* ``episode``: ``"deal"`` (default) or ``"match"`` (``match_deals`` deals, 6 by default, or to
  a ``match_target`` stake balance; the deal passes to the left).
* ``render_mode``: ``"ansi"``, ``"human"`` (printed from the dealt position on) or ``"rgb_array"``
  (a spectator's picture with every hand face up; needs Pillow, the ``render`` extra).
* ``observation_key``: the observation's key next to ``"action_mask"`` (default ``"observation"``;
  ``"observations"`` for RLlib). ``infos[agent]`` has the keys ``envs.infos.INFO_KEYS`` at every step.

Rewards: each player's stake balance change when a deal ends (zero-sum over the three);
``win_loss`` gives the winner +1 and the others -1/2 (per deal, or per match in match episodes);
``shaped`` adds ``shaping_scale`` × the change in (my points - the mean of the others'). An
illegal action raises ``ValueError`` in ``raw_env``; ``env()`` ends the episode with
``illegal_reward`` (default -6, the largest loss of a deal) for the offender.

``reset(seed=s, options={"deal": {"hands": [[8 cards], [8], [8]], "dealer": 0}})`` starts from an
arrangement (each hand in the order dealt). Observations are from the observer's seat (me, left,
right) and show only his own hand plus public information.

Version history: v0, first release.

Vector observation layout:

"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from ..table.observers import layout_table
from ..table.three import ThreeDeal
from .table import TableEnv, wrap

__all__ = ["env", "raw_env"]

__doc__ = (__doc__ or "") + layout_table(3) + "\n"


def env(illegal_reward: float | None = None, **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are."""
    return wrap(raw_env(**kwargs), illegal_reward)


class raw_env(TableEnv):
    """The three-player AEC environment without PettingZoo's wrappers (``env()`` adds them)."""

    game = ThreeDeal
    largest_loss = 6
    metadata: ClassVar[dict[str, Any]] = {**TableEnv.metadata, "name": "sixtysix_three_v0"}

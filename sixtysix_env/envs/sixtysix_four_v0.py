"""Sixty-Six for four players in two fixed partnerships, as a PettingZoo AEC environment.

| Import             | `from sixtysix_env.envs import sixtysix_four_v0`                       |
|--------------------|------------------------------------------------------------------------|
| Actions            | Discrete(37)                                                           |
| Parallel API       | No                                                                     |
| Manual control     | No                                                                     |
| Agents             | `agents = ['player_0', 'player_1', 'player_2', 'player_3']` (clockwise) |
| Teams              | `player_0` + `player_2` against `player_1` + `player_3` (partners opposite) |
| Observation shape  | `{"observation": encoder output, "action_mask": (37,) int8}`           |
| Observation values | vector: float32, 387 values in [-1, 4] (layout below)                  |
| Registry id        | `pettingzoo.make("aec", "sixtysix/sixtysix_four_v0")`                  |

The rules (RULES.md 5.2, pagat's version) live in `sixtysix_env.multiplayer.four`; this module
only adapts them. 6 cards each, no stock; the dealer's bottom card sets trump and stays in his
hand. The player left of the dealer leads. Every player must follow suit and beat the best card
so far if able; void, trump and over-trump if able; else any card. When a player leads he may
declare a marriage (then lead its K or Q), and then his partner may show one: the partner gets a
decision (declare or pass, 30) whenever public facts leave a marriage possible for him, so being
asked reveals nothing. Points, tricks and marriages count per team; the first team to 66 goes out
(at once, or with action 31 under explicit claiming) and scores 1, 2 (the others under 33) or 3
(the others without a trick); a wrong claim gives the others 2. A deal played out without anyone
going out gives 1 game point to the team of the last trick.

| id    | action                                                                       |
|-------|------------------------------------------------------------------------------|
| 0-23  | play card id `6*suit + rank` (suits ♣ ♠ ♥ ♦, ranks 9 J Q K 10 A)             |
| 24-27 | declare the marriage in suit `id-24` (leader: then lead K or Q; partner: show) |
| 28-29 | never legal in this game                                                     |
| 30    | pass: the partner shows no marriage; explicit claiming: do not go out        |
| 31    | go out, claiming 66 for the team (explicit claiming)                         |
| 32-35 | name suit `id-32` trump (``trump="choose"`` rules only)                      |
| 36    | do not name trump: the chooser's last card is turned                         |

Arguments (``sixtysix_four_v0.env(**options)``):

* ``rules``: ``"pagat"`` (default), ``"russian"`` (trump named by the player left of the
  dealer, follow suit else trump) or a ``FourRules`` object (``claiming="explicit"`` etc.).
* ``observation``: ``"vector"`` (default), ``"dict"`` or ``"history"``.
* ``reward``: ``"game_points"`` (default), ``"win_loss"`` or ``"shaped"``.
* ``episode``: ``"deal"`` (default) or ``"match"`` (first team to ``match_target``, 7, game
  points; the deal passes to the left).
* ``render_mode``: ``"ansi"`` or ``"human"``.
* ``observation_key``: the observation's key next to ``"action_mask"`` (default ``"observation"``;
  ``"observations"`` for RLlib). ``infos[agent]`` has the keys ``envs.infos.INFO_KEYS`` at every step.

Rewards: both partners receive the team's reward: +game points for the winners and -game points
for the losers when a deal ends (zero-sum over the four); ``win_loss`` gives ±1; ``shaped`` adds
``shaping_scale`` × the change in the teams' point difference after every action. An illegal
action raises ``ValueError`` in ``raw_env``; ``env()`` ends the episode with ``illegal_reward``
(default -3) for the offender.

Observations are from the observer's seat (me, left, partner, right) and show only his own hand
plus public information, never the partner's hand. ``reset(seed=s, options={"deal": {"hands":
[[6 cards] × 4], "dealer": 0}})`` starts from an arrangement (each hand in the order dealt; the
dealer's last card is the bottom card).

Version history: v0, first release.

Vector observation layout:

"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from ..multiplayer.four import FourDeal
from ..multiplayer.observers import layout_table
from ._table_aec import TableEnv, wrap

__all__ = ["env", "raw_env"]

__doc__ = (__doc__ or "") + layout_table(4) + "\n"


def env(illegal_reward: float | None = None, **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are."""
    return wrap(raw_env(**kwargs), illegal_reward)


class raw_env(TableEnv):
    game = FourDeal
    largest_loss = 3
    metadata: ClassVar[dict[str, Any]] = {**TableEnv.metadata, "name": "sixtysix_four_v0"}

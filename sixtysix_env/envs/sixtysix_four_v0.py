"""Sixty-Six for four players in two fixed partnerships, as a PettingZoo AEC environment.

| Import             | `from sixtysix_env.envs import sixtysix_four_v0`                       |
|--------------------|------------------------------------------------------------------------|
| Actions            | Discrete(49)                                                           |
| Parallel API       | No                                                                     |
| Manual control     | No                                                                     |
| Agents             | `agents = ['player_0', 'player_1', 'player_2', 'player_3']` (clockwise) |
| Teams              | `player_0` + `player_2` against `player_1` + `player_3` (partners opposite) |
| Observation shape  | `{"observation": encoder output, "action_mask": (49,) int8}`           |
| Observation values | vector: float32, 512 values in [-1, 4] (layout below)                  |
| Registry id        | `pettingzoo.make("aec", "sixtysix/sixtysix_four_v0")`                  |

The rules (docs/RULES.md 5.2, pagat's version) live in `sixtysix_env.table.four`; this module
only adapts them. 6 cards each, no stock; the dealer's bottom card sets trump and stays in his
hand. The player left of the dealer leads. Every player must follow suit and beat the best card
so far if able; void, trump and over-trump if able; else any card. When a player leads he may
declare a marriage (then lead its K or Q), and then his partner may show one: the partner gets a
decision (declare or pass, 30) whenever public facts leave a marriage possible for him, so being
asked reveals nothing. Points, tricks and marriages count per team; the first team to 66 goes out
(at once, or with action 31 under explicit claiming) and scores 1, 2 (the others under 33) or 3
(the others without a trick); a wrong claim gives the others 2. A deal played out without anyone
going out gives 1 game point to the team of the last trick.

The `russian` preset is the Russian game of docs/RULES.md 5.3 (ru-old-and-marriage :104-190). Before
the deal the cut may show nines: three in a row give the dealing team 1 game point and the deal
passes on (a chance event, no decision). The player left of the dealer names trump from his
first 3 cards or turns his last card. Then every player in turn from the dealer's left plays on
(30), demands a redeal (37: under 13 card points, four nines, or after asking the partner about
trumps, 38, the pair has none, one, or just the nine and jack split) or asks; then a bidding
round: pass (30), name a contract above any named (40-43: five, six, fur coat, suit), or declare
three nines (39). Three nines: the opponents each commit a card of a shown suit (a card id,
unseen by the others), the declarer leaves one nine (a card id) and 3 game points go to the
opponents if a committed card has its suit, else to the declarer's team. A contract: the
declarer's partner lays his cards down face down and sits out (he still observes the play),
trumps have no rank, the declarer leads and must take every trick; for five the declarer and each
opponent first discard a card (a card id). Five and six win or lose 5 and 6; a won fur coat or
suit wins the match at stake 2 or 3, a lost one gives the opponents 6. Without a contract the
normal game is played for 66 (3 / 2 / 1 game points); a leader may also declare a marriage
without leading (44-47), which ends the deal: won with 66, else 1 to the opponents. The match is
to 8, and points a contract wins beyond 8 carry to the next match (``TableMatch.next_match``).

| id    | action                                                                       |
|-------|------------------------------------------------------------------------------|
| 0-23  | play card id `6*suit + rank` (♣ ♠ ♥ ♦, 9 J Q K 10 A); Russian: the card discarded, committed, held, left |
| 24-27 | declare the marriage in suit `id-24` (leader: then lead K or Q; partner: show) |
| 28-29 | never legal in this game                                                     |
| 30    | pass: no marriage (partner), do not go out (explicit claiming), play on, no contract |
| 31    | go out, claiming 66 for the team (explicit claiming)                         |
| 32-35 | name suit `id-32` trump (``trump="choose"`` rules only)                      |
| 36    | do not name trump: the chooser's last card is turned                         |
| 37    | demand a redeal (russian)                                                    |
| 38    | ask the partner about trumps (russian, at most one trump in hand)            |
| 39    | declare three nines (russian)                                                |
| 40-43 | name the contract five, six, fur coat, suit (russian)                        |
| 44-47 | declare the marriage in suit `id-44` without leading: the deal ends (russian) |
| 48    | ask the partner for a third nine (``nines_partner_ask`` rules only)          |

Arguments (``sixtysix_four_v0.env(**options)``):

* ``rules``: ``"pagat"`` (default), ``"russian"`` (docs/RULES.md 5.3, above) or a ``FourRules``
  object (``claiming="explicit"``, ``FOUR_PRESETS["russian"].replace(contracts=False)`` etc.).
* ``observation``: ``"vector"`` (default), ``"dict"`` or ``"history"``.
* ``reward``: ``"game_points"`` (default), ``"win_loss"`` or ``"shaped"``.
* ``episode``: ``"deal"`` (default) or ``"match"`` (first team to ``match_target``, 7, or 8
  in the Russian game, game points; the deal passes to the left, a redeal stays with the
  dealer). A deal the cut decides has no decision: the environment deals on (its point is in
  the score fields; in match episodes its payoff joins the rewards of the step that dealt it).
* ``render_mode``: ``"ansi"``, ``"human"`` (printed from the dealt position on) or ``"rgb_array"``
  (a spectator's picture with every hand face up; needs Pillow, the ``render`` extra).
* ``observation_key``: the observation's key next to ``"action_mask"`` (default ``"observation"``;
  ``"observations"`` for RLlib). ``infos[agent]`` has the keys ``envs.infos.INFO_KEYS`` at every step.

Rewards: both partners receive the team's reward when a deal ends: the game points their team
scored in the deal less the other team's (zero-sum over the four; a redeal gives 0);
``win_loss`` gives ±1 (in match episodes ± the match stake: 2 after a won fur coat, 3 after a
suit); ``shaped`` adds ``shaping_scale`` × the change in the teams' point difference after every
action. An illegal action raises ``ValueError`` in ``raw_env``; ``env()`` ends the episode with
``illegal_reward`` (default: minus the largest loss of a deal, 3, or 11 in the Russian game)
for the offender.

Observations are from the observer's seat (me, left, partner, right) and show only his own hand
plus public information, never the partner's hand; in the Russian game also his own cards out of
play, his own committed card (others' only once shown) and his pair's answer on trumps.
``reset(seed=s, options={"deal": {"hands": [[6 cards] × 4], "dealer": 0}})`` starts from an
arrangement (each hand in the order dealt; the dealer's last card is the bottom card).

Version history: v0, first release.

Vector observation layout:

"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from ..table.four import FourDeal
from ..table.observers import layout_table
from .table import TableEnv, wrap

__all__ = ["env", "raw_env"]

__doc__ = (__doc__ or "") + layout_table(4) + "\n"


def env(illegal_reward: float | None = None, **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are."""
    return wrap(raw_env(**kwargs), illegal_reward)


class raw_env(TableEnv):
    """The four-player AEC environment without PettingZoo's wrappers (``env()`` adds them)."""

    game = FourDeal
    metadata: ClassVar[dict[str, Any]] = {**TableEnv.metadata, "name": "sixtysix_four_v0"}

    @property
    def largest_loss(self) -> int:  # type: ignore[override]
        """The default illegal-move penalty: the most a team can lose in one deal of these rules."""
        return FourDeal.largest_loss(self.rules)

"""Sixty-Six (Sechsundsechzig, Santase, Schnapsen) for two players, as a PettingZoo AEC environment.

| Import             | `from sixtysix_env import sixtysix_v0`                                 |
|--------------------|------------------------------------------------------------------------|
| Actions            | Discrete(32)                                                           |
| Parallel API       | No                                                                     |
| Manual control     | No                                                                     |
| Agents             | `agents = ['player_0', 'player_1']`                                    |
| Observation shape  | `{"observation": encoder output, "action_mask": (32,) int8}`           |
| Observation values | vector: float32 in [0, 4] (see `VECTOR_LAYOUT`)                        |
| Registry id        | `pettingzoo.make("aec", "sixtysix/sixtysix_v0")`                       |

The rules live in `sixtysix_env.engine` (this module only adapts them); each variant is a
`Rules` preset. Two players play one deal (``episode="deal"``) or a match to the rules' target
of game points (``episode="match"``, winner deals next). Every decision is an action:

| id    | action                                                                        |
|-------|-------------------------------------------------------------------------------|
| 0-23  | play card id `6*suit + rank` (suits ♣ ♠ ♥ ♦, ranks 9 J Q K 10 A)              |
| 24-27 | declare the marriage in suit `id-24`; the same player then leads its K or Q   |
| 28    | exchange the trump nine for the trump card; the same player acts again        |
| 29    | close the stock; the same player acts again (after the opponent's nine exchange) |
| 30    | pass: draw without closing; keep the nine when the opponent closes; (explicit claiming) do not claim |
| 31    | go out, claiming 66 (explicit claiming only)                                  |

Within one lead the order is exchange → close → declare → lead, each optional.

Arguments (``sixtysix_v0.env(**options)``):

* ``rules``: preset name (``"standard"``, ``"russian"``, ``"marriage"``, ``"santase"``,
  ``"schnapsen"``, ...) or a ``Rules`` object.
* ``observation``: ``"vector"`` (default), ``"dict"`` or ``"history"`` (see ``observers``).
* ``reward``: ``"game_points"`` (default), ``"win_loss"`` or ``"shaped"``; ``shaping_scale``.
* ``episode``: ``"deal"`` (default) or ``"match"``.
* ``claiming``: ``"auto"`` or ``"explicit"`` (default: as the rules say; standard is auto).
* ``render_mode``: ``"ansi"`` (returns the text), ``"human"`` (prints it, from the dealt position
  on) or ``"rgb_array"`` (returns a spectator's picture with both hands face up, an ``(H, W, 3)``
  ``uint8`` array; needs Pillow, the ``render`` extra).
* ``observation_key``: the observation's key next to ``"action_mask"`` (default
  ``"observation"``, PettingZoo's; ``"observations"`` is what RLlib's action-masking module reads).

Infos: ``infos[agent]`` has the same keys at every step (``envs.infos.INFO_KEYS``: seat, winner,
game points, termination, match scores, illegal action), numbers only, so frameworks can batch them.

Rewards: at the end of each deal the winner gets +game points and the loser -game points
(``game_points``); ``win_loss`` gives ±1 per deal, or per match in match episodes; ``shaped`` adds
``shaping_scale`` × the change in counted-point difference after every action. An illegal action
raises ``ValueError`` (naming the legal ones) in ``raw_env``; ``env()`` instead ends the episode
with ``illegal_reward`` for the offender, as PettingZoo's TerminateIllegalWrapper does.

``reset(seed=s, options={"deal": {"hands": [[...], [...]], "stock": [...], "dealer": 0}})``
starts from a given arrangement (card strings such as ``"QH"``, ``"10H"``, ``"Q♥"``);
``reset(options={"carry_over": True})`` after a finished match starts the next one
(docs/carry-over.md). The episode is an ``envs.episode.Episode``, as in ``SixtySix-v0``.
``state()`` returns the full deal (both hands and the stock) for centralised critics.

Version history: v0, first release.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..actions import NUM_ACTIONS, action_label
from ..engine import Deal
from ..infostate import InfoState
from ..match import Match
from ..observers import ENCODERS, VECTOR_SIZE, encode_vector, observation_space
from ..render import render_deal
from ..render_image import deal_frame
from ..rewards import DEFAULT_SHAPING_SCALE, check_reward_scheme, step_rewards
from ..rules import Rules
from .base import SixtySixAEC, wrap
from .options import given_deal, rules_with_claiming

__all__ = ["env", "raw_env", "STATE_SIZE", "mask_array"]

AGENTS = ("player_0", "player_1")
STATE_SIZE = VECTOR_SIZE + 24 + 12 * 24
"""``state()``: player 0's vector view, player 1's hand (24), then the stock top first, one-hot per
slot (12 slots of 24; empty slots are zero)."""

_MASK_ZERO = np.zeros(NUM_ACTIONS, dtype=np.int8)


def mask_array(mask: int) -> np.ndarray:
    """An int action bitmask as the (32,) int8 array PettingZoo and SB3 expect."""
    raw = np.frombuffer(mask.to_bytes(4, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").view(np.int8)


def _observed_mask(mask: int) -> np.ndarray:
    return mask_array(mask) if mask else _MASK_ZERO.copy()


def env(illegal_reward: float | None = None, wrapper: str = "fused", **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are.

    ``illegal_reward`` (default: -3, the largest deal loss; -1 with ``reward="win_loss"``) is what
    an illegal action costs the offender before the episode is ended. ``wrapper="pettingzoo"``
    stacks PettingZoo's TerminateIllegalWrapper, AssertOutOfBoundsWrapper and
    OrderEnforcingWrapper; the default ``"fused"`` is one ``ClassicWrapper`` with the same
    semantics (tested side by side) that costs a few microseconds instead of about thirty."""
    return wrap(raw_env(**kwargs), illegal_reward, wrapper)


class TwoPlayerGame:
    """The two-player game's hooks for the shared episode loop (``envs/episode.py``), one copy for
    both the AEC env and the Gymnasium env."""

    rules: Rules
    episode: str
    reward_scheme: str
    shaping_scale: float

    if TYPE_CHECKING:  # each env has its own (the mixin must not shadow SixtySixAEC's)

        @property
        def match(self) -> Match | None: ...

    def _new_match(self, rng: random.Random, first_deal: Deal | None) -> Match:
        return Match(self.rules, rng, first_deal=first_deal)

    def _deal_from_options(self, spec: Any) -> Deal | None:
        return _deal_from_options(spec, self.rules)

    def _step_rewards(self, deal: Deal, before: tuple[int, ...]) -> tuple[float, float]:
        match = self.match
        assert match is not None
        match_over = match.is_over if self.episode == "match" else None
        return step_rewards(self.reward_scheme, deal, (before[0], before[1]), match_over, self.shaping_scale)


class raw_env(TwoPlayerGame, SixtySixAEC):
    """The two-player game on the shared AEC bookkeeping of :class:`~.base.SixtySixAEC`."""

    metadata: ClassVar[dict[str, Any]] = {**SixtySixAEC.metadata, "name": "sixtysix_v0"}
    num_actions: ClassVar[int] = NUM_ACTIONS
    largest_loss = 3
    mask_array = staticmethod(_observed_mask)
    match: Match | None
    deal: Deal | None

    def __init__(
        self,
        rules: str | Rules = "standard",
        observation: str = "vector",
        reward: str = "game_points",
        episode: str = "deal",
        claiming: str | None = None,
        render_mode: str | None = None,
        shaping_scale: float = DEFAULT_SHAPING_SCALE,
        observation_key: str = "observation",
    ) -> None:
        super().__init__(
            rules=rules_with_claiming(rules, claiming),
            n_players=len(AGENTS),
            encoders=ENCODERS,
            observation_space=observation_space,
            observation=observation,
            reward=reward,
            episode=episode,
            render_mode=render_mode,
            shaping_scale=shaping_scale,
            check_reward_scheme=check_reward_scheme,
            observation_key=observation_key,
        )
        self.state_space = spaces.Box(0.0, 4.0, shape=(STATE_SIZE,), dtype=np.float32)

    def _action_label(self, action: int, decision: Any) -> str:
        return action_label(action)

    def _render_text(self, deal: Deal, scores: Any) -> str:
        return render_deal(deal, AGENTS, self._last_text, match_scores=scores)

    def _render_frame(self, deal: Deal, scores: Any) -> np.ndarray:
        return deal_frame(deal, AGENTS, last=self._last_text, match_scores=scores)

    def state(self) -> np.ndarray:
        """Full information (both hands, stock order) for centralised critics; never observed."""
        deal = self.deal
        assert deal is not None, "call reset() first"
        out = np.zeros(STATE_SIZE, dtype=np.float32)
        out[:VECTOR_SIZE] = encode_vector(InfoState.of(deal, 0))
        hand1 = deal.hands[1]
        for c in range(24):
            if hand1 >> c & 1:
                out[VECTOR_SIZE + c] = 1.0
        base = VECTOR_SIZE + 24
        for slot, c in enumerate(reversed(deal.stock)):
            out[base + 24 * slot + c] = 1.0
        return out


def _deal_from_options(spec: Any, rules: Rules) -> Deal | None:
    """The first deal of ``reset(options={"deal": spec})``: None, a running ``Deal`` of the env's
    rules (copied), or an arrangement dict."""
    if spec is None:
        return None
    if isinstance(spec, Deal):
        return given_deal(spec, rules)
    if not isinstance(spec, dict) or not {"hands", "stock"} <= set(spec):
        raise ValueError(
            "options['deal'] must be {'hands': [[...], [...]], 'stock': [...], 'dealer': 0} with card strings"
        )
    unknown = set(spec) - {"hands", "stock", "dealer"}
    if unknown:
        raise ValueError(f"options['deal'] has unknown keys {sorted(unknown)}: allowed are hands, stock, dealer")
    return Deal.from_arrangement(spec["hands"], spec["stock"], spec.get("dealer", 0), rules)

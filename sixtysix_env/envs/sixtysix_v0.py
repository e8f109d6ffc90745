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
| 30    | pass: draw without closing; keep the nine at the opponent's closing; or, with |
|       | explicit claiming and all cards played, do not claim                          |
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
starts from a given arrangement (card strings such as ``"QH"``, ``"10H"``, ``"Q♥"``).
``state()`` returns the full deal (both hands and the stock) for centralised critics.

Version history: v0, first release.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..actions import NUM_ACTIONS, action_label
from ..engine import Deal
from ..infostate import InfoState
from ..match import Match
from ..observers import ENCODERS, VECTOR_SIZE, encode_vector, observation_space
from ..render import render_deal
from ..render_image import deal_frame, require_pillow
from ..rewards import DEFAULT_SHAPING_SCALE, check_reward_scheme, step_rewards
from ..rules import Rules
from .infos import check_keys, deal_info
from .options import (
    EPISODES,
    check_agent,
    check_option,
    check_real,
    check_seed,
    deal_spec,
    given_deal,
    rules_with_claiming,
)
from .wrappers import ClassicWrapper

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


def env(illegal_reward: float | None = None, wrapper: str = "fused", **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are.

    ``illegal_reward`` (default: -3, the largest deal loss; -1 with ``reward="win_loss"``) is what
    an illegal action costs the offender before the episode is ended. ``wrapper="pettingzoo"``
    stacks PettingZoo's TerminateIllegalWrapper, AssertOutOfBoundsWrapper and
    OrderEnforcingWrapper; the default ``"fused"`` is one ``ClassicWrapper`` with the same
    semantics (tested side by side) that costs a few microseconds instead of about thirty."""
    e = raw_env(**kwargs)
    if illegal_reward is None:
        illegal_reward = -1.0 if e.reward_scheme == "win_loss" else -3.0
    illegal_reward = check_real("illegal_reward", illegal_reward)
    if wrapper == "fused":
        return ClassicWrapper(e, illegal_reward=illegal_reward)
    check_option("wrapper", wrapper, ("fused", "pettingzoo"))
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv[str, Any, int]):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "sixtysix_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

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
        super().__init__()
        self.rules = rules_with_claiming(rules, claiming)
        check_keys(observation_key, "action_mask")
        self.observation_key = observation_key
        check_option("observation", observation, ENCODERS)
        check_option("episode", episode, EPISODES)
        check_option("render_mode", render_mode, [*self.metadata["render_modes"], None])
        self.observation_name = observation
        self.reward_scheme = check_reward_scheme(reward)
        self.episode = episode
        self.render_mode = render_mode
        if render_mode == "rgb_array":
            require_pillow()  # a missing extra is named now, not at the first frame
        self.shaping_scale = check_real("shaping_scale", shaping_scale)
        self._encode = ENCODERS[observation]
        self.possible_agents = list(AGENTS)
        self.agents = []
        obs_space = spaces.Dict(
            {
                observation_key: observation_space(observation),
                "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.state_space = spaces.Box(0.0, 4.0, shape=(STATE_SIZE,), dtype=np.float32)
        self.np_random, _ = seeding.np_random(None)
        self.match: Match | None = None
        self.deal: Deal | None = None
        self._last_text: str | None = None
        self._finished_deal: Deal | None = None

    # spaces are cached: the same object on every call
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Every argument is checked before anything changes: a bad reset leaves the env as it was.
        seed = check_seed(seed)
        first_deal = _deal_from_options(deal_spec(options), self.rules)
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        # One Python RNG per episode, drawn from np_random: shuffling lists with it is fast.
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.match = Match(self.rules, rng, first_deal=first_deal)
        self.deal = self.match.deal
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: deal_info(p, (0, 0)) for p, a in enumerate(AGENTS)}
        self.agent_selection = AGENTS[self.deal.current_player]
        self._last_text = None
        self._finished_deal = None
        if self.render_mode == "human":  # the dealt position, before the first action
            self.render()

    def step(self, action: int) -> None:
        if not self.agents:
            raise ValueError(f"step({action!r}) after the episode ended (every agent is done): call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match, deal = self.match, self.deal
        assert match is not None and deal is not None
        before = (deal.points[0], deal.points[1])
        match.apply(action)  # raises ValueError naming the legal actions; the deal is then unchanged
        self._cumulative_rewards[agent] = 0.0
        self._finished_deal = None
        if self.render_mode is not None:
            self._last_text = f"{agent}: {action_label(int(action))}"
        over = deal.outcome is not None
        match_over = match.is_over if self.episode == "match" else None
        r0, r1 = step_rewards(self.reward_scheme, deal, before, match_over, self.shaping_scale)
        self.rewards = {"player_0": r0, "player_1": r1}
        if over:
            self._finished_deal = deal
            self.infos = {a: deal_info(p, match.scores, deal.outcome) for p, a in enumerate(AGENTS)}
            if self.episode == "deal" or match.is_over:
                self.terminations = {a: True for a in AGENTS}
            else:
                self.deal = match.next_deal()
        self._accumulate_rewards()
        if not self.terminations[agent]:
            self.agent_selection = AGENTS[self.deal.current_player]
        if self.render_mode == "human":  # PettingZoo's convention: human mode shows every step
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        deal = self.deal
        assert deal is not None, "call reset() first"
        info = InfoState.of(deal, check_agent(agent, self.possible_agents))
        mask = mask_array(info.legal_mask) if info.legal_mask else _MASK_ZERO.copy()
        return {self.observation_key: self._encode(info), "action_mask": mask}

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

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        deal = self._finished_deal or self.deal
        if deal is None:
            return None
        scores = self.match.scores if self.match is not None and self.episode == "match" else None
        if self.render_mode == "rgb_array":
            return deal_frame(deal, AGENTS, last=self._last_text, match_scores=scores)
        text = render_deal(deal, AGENTS, self._last_text, match_scores=scores)  # the result once, if over
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


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

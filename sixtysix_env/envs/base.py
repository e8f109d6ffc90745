"""The one PettingZoo AEC bookkeeping every Sixty-Six environment shares, whatever the table size.

``sixtysix_v0`` (two players) and ``table.TableEnv`` (three and four players) subclass
:class:`SixtySixAEC`; it keeps PettingZoo's dicts (rewards, ``_cumulative_rewards``,
terminations, truncations, infos, the agent to act) in step with the episode, keeps the info
contract of :mod:`.infos` (the same keys at every step), names the observation's key
(``observation_key``), seeds the env's own ``np_random``, checks the constructor's options and
dispatches renders. The episode itself (reset options, deals, the match, rewards per seat) is
an :class:`.episode.Episode`, the one the Gymnasium env drives too. A subclass supplies only
what its game changes:

* ``_new_match(rng, first_deal)``: the match object (``Match`` or ``TableMatch``);
* ``_deal_from_options(spec)``: the first deal of ``reset(options={"deal": spec})``;
* ``_step_rewards(deal, before)``: one reward per seat for the action just applied;
* ``_on_next_deal(match, rewards)``: what a freshly dealt deal of a match changes in the step's
  rewards (a no-op by default);
* ``_action_label(action, decision)``, ``_render_text(deal, scores)``, ``_render_frame(deal, scores)``;
* ``mask_array`` (an int mask as the int8 array of ``num_actions`` entries) and ``largest_loss``.

The deal and match are typed against :class:`sixtysix_env.deal_types.DealLike`, the API that
``Deal`` and ``TableDeal`` share.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..deal_types import DealLike
from ..render_image import require_pillow
from .agentdict import AgentDict as _AgentDict
from .agentdict import EpisodeOverError
from .episode import Episode, MatchLike
from .infos import check_keys, deal_info
from .options import EPISODES, check_agent, check_option, check_real
from .wrappers import ClassicWrapper

__all__ = ["SixtySixAEC", "MatchLike", "wrap", "EpisodeOverError"]


class SixtySixAEC(AECEnv[str, Any, int]):
    """Base of every Sixty-Six AEC environment: the bookkeeping, none of the rules."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }
    num_actions: ClassVar[int]
    largest_loss: int
    """The most one deal can cost a seat: ``env()``'s default illegal-move penalty."""

    @staticmethod
    def mask_array(mask: int) -> np.ndarray:
        """An int action bitmask as the ``(num_actions,)`` int8 array PettingZoo expects (each game's)."""
        raise NotImplementedError

    def __init__(
        self,
        *,
        rules: Any,
        n_players: int,
        encoders: Mapping[str, Callable[[Any], Any]],
        observation_space: Callable[[str], spaces.Space],
        observation: str,
        reward: str,
        episode: str,
        render_mode: str | None,
        shaping_scale: float,
        check_reward_scheme: Callable[[str], str],
        observation_key: str = "observation",
    ) -> None:
        """``rules`` arrive resolved (each game has its own presets); the options are checked here,
        in this order, so every env names the first bad option the same way."""
        super().__init__()
        self.rules = rules
        check_keys(observation_key, "action_mask")
        self.observation_key = observation_key
        check_option("observation", observation, encoders)
        check_option("episode", episode, EPISODES)
        check_option("render_mode", render_mode, [*self.metadata["render_modes"], None])
        self.observation_name = observation
        self.reward_scheme = check_reward_scheme(reward)
        self.episode = episode
        self.render_mode = render_mode
        if render_mode == "rgb_array":
            require_pillow()  # a missing extra is named now, not at the first frame
        self.shaping_scale = check_real("shaping_scale", shaping_scale)
        self._encode = encoders[observation]
        self.possible_agents = [f"player_{p}" for p in range(n_players)]
        self.agents: list[str] = []
        obs_space = spaces.Dict(
            {
                observation_key: observation_space(observation),
                "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self._episode: Episode[MatchLike] = Episode(
            episode,
            new_match=self._new_match,
            deal_from_options=self._deal_from_options,
            step_rewards=self._step_rewards,
            start_rewards=self._start_rewards,
            on_next_deal=self._on_next_deal,
        )
        self._finished_deal: DealLike | None = None
        self._last_text: str | None = None

    @property
    def match(self) -> MatchLike | None:
        """The match in play (one deal's match in deal episodes); None before the first reset."""
        return self._episode.match

    @property
    def deal(self) -> Any:
        """The deal in play (a :class:`~sixtysix_env.deal_types.DealLike`; the last one once the
        episode is over); None before the first reset. Typed ``Any`` so that each game can name
        its own deal class."""
        return self._episode.deal

    # ------------------------------------------------------------------ what each game supplies
    def _new_match(self, rng: random.Random, first_deal: Any) -> MatchLike:
        raise NotImplementedError

    def _deal_from_options(self, spec: Any) -> Any:
        """The first deal of ``reset(options={"deal": spec})`` (``spec`` is not None)."""
        raise NotImplementedError

    def _step_rewards(self, deal: Any, before: tuple[int, ...]) -> Sequence[float]:
        """One reward per seat for the action just applied to ``deal`` (points were ``before``)."""
        raise NotImplementedError

    def _action_label(self, action: int, decision: Any) -> str:
        """``action`` in words, as taken at ``decision`` (the decision before it was applied)."""
        raise NotImplementedError

    def _on_next_deal(self, match: Any, rewards: list[float]) -> None:
        """Called in match episodes when the next deal has been dealt, with the step's rewards
        (one per seat) to change in place (the table game adds the deals its cut decided)."""

    def _start_rewards(self, match: Any) -> Sequence[float] | None:
        """Rewards of what the match scored before anyone acted (the table game's deals the cut
        decided at the start of a match episode): they join the first step's rewards."""
        return None

    def _render_text(self, deal: Any, scores: Any) -> str:
        raise NotImplementedError

    def _render_frame(self, deal: Any, scores: Any) -> np.ndarray:
        raise NotImplementedError

    # ------------------------------------------------------------------ PettingZoo API
    # spaces are cached: the same object on every call
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # Every argument is checked before anything changes: a bad reset leaves the env as it was.
        plan = self._episode.check_reset(seed, options)
        if plan.seed is not None:
            self.np_random, _ = seeding.np_random(plan.seed)
        match = self._episode.start(plan, self.np_random)
        agents = self.possible_agents
        self.agents = agents[:]
        self.rewards = _AgentDict((a, 0.0) for a in agents)
        self._cumulative_rewards = _AgentDict((a, 0.0) for a in agents)
        self.terminations = _AgentDict((a, False) for a in agents)
        self.truncations = _AgentDict((a, False) for a in agents)
        self.infos = _AgentDict((a, deal_info(p, match.scores)) for p, a in enumerate(agents))
        self.agent_selection = agents[match.deal.current_player]
        self._finished_deal = None
        self._last_text = None
        if self.render_mode == "human":  # the dealt position, before the first action
            self.render()

    def step(self, action: int) -> None:
        if not self.agents:
            raise ValueError(f"step({action!r}) after the episode ended (every agent is done): call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deal = self.deal
        assert deal is not None
        decision = deal.decision
        result = self._episode.step(action)  # raises ValueError naming the legal actions; nothing changed
        self._cumulative_rewards[agent] = 0.0
        self._finished_deal = result.finished
        if self.render_mode is not None:
            self._last_text = f"{agent}: {self._action_label(int(action), decision)}"
        self.rewards = _AgentDict(zip(self.possible_agents, result.rewards, strict=True))
        if result.finished is not None:
            self.infos = _AgentDict(
                (a, deal_info(p, result.scores, result.finished.outcome)) for p, a in enumerate(self.possible_agents)
            )
            if result.done:
                self.terminations = _AgentDict((a, True) for a in self.agents)
        self._accumulate_rewards()
        if not self.terminations[agent]:
            deal = self.deal
            assert deal is not None
            self.agent_selection = self.possible_agents[deal.current_player]
        if self.render_mode == "human":  # PettingZoo's convention: human mode shows every step
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        deal = self.deal
        assert deal is not None, "call reset() first"
        view = deal.information_state(check_agent(agent, self.possible_agents))
        return {self.observation_key: self._encode(view), "action_mask": self.mask_array(view.legal_mask)}

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        deal = self._finished_deal or self.deal
        if deal is None:
            return None
        scores = self.match.scores if self.match is not None and self.episode == "match" else None
        if self.render_mode == "rgb_array":
            return self._render_frame(deal, scores)
        text = self._render_text(deal, scores)  # the result once, if over
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def wrap(env: SixtySixAEC, illegal_reward: float | None, wrapper: str = "pettingzoo") -> AECEnv:
    """``env`` wrapped as PettingZoo's classic games are: an illegal action ends the episode with
    ``illegal_reward`` for the offender (default: the largest loss of one deal; -1 with
    ``reward="win_loss"``). ``wrapper="pettingzoo"`` stacks TerminateIllegalWrapper,
    AssertOutOfBoundsWrapper and OrderEnforcingWrapper; ``"fused"`` is one ``ClassicWrapper``
    with the same semantics (tested side by side)."""
    if illegal_reward is None:
        illegal_reward = -1.0 if env.reward_scheme == "win_loss" else -float(env.largest_loss)
    illegal_reward = check_real("illegal_reward", illegal_reward)
    if wrapper == "fused":
        return ClassicWrapper(env, illegal_reward=illegal_reward)
    check_option("wrapper", wrapper, ("fused", "pettingzoo"))
    out: AECEnv = wrappers.TerminateIllegalWrapper(env, illegal_reward=illegal_reward)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)

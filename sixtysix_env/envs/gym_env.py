"""Sixty-Six as a single-agent Gymnasium environment: the learner against a built-in opponent.

    env = gymnasium.make("SixtySix-v0", opponent="heuristic", rules="standard")

The learner takes one seat (``seat="random"`` draws it at every reset, or 0 / 1); the opponent's
turns are played inside ``reset`` and ``step`` with the env's own RNG, so a step returns at the
learner's next decision. Observations are the chosen encoder's output from the learner's seat
(``"vector"``, ``"dict"`` or ``"history"``, see ``sixtysix_env.observers``); the legal actions come
as ``info["action_mask"]`` (int8, shape (32,)) and from ``action_masks()`` (bool), which
sb3-contrib's ``MaskablePPO`` reads directly. ``gymnasium.make("SixtySix-v0")`` returns the env
itself (registered without Gymnasium's order and checker wrappers; the env refuses a step before
reset on its own), so ``env.action_masks()`` works on it; through a wrapper of your own,
``env.get_wrapper_attr("action_masks")()``. ``mask_in_observation=True`` makes the observation a
Dict ``{observation_key: obs, mask_key: mask}`` for frameworks that read the mask from the
observation (default keys ``"observation"`` and ``"action_mask"``; RLlib's action-masking module
reads ``"observations"``, Tianshou ``"obs"`` and ``"mask"``).

Infos have the same keys at every step: ``action_mask`` and ``envs.infos.INFO_KEYS`` (seat,
winner, game points, termination, match scores, illegal action). After the end of an episode the
mask allows every action (``envs.infos.terminal_mask``; Gymnasium's ``SyncVectorEnv`` ignores that
action when it resets), so a policy that masks logits never sees an all-zero mask.

Arguments: ``opponent`` (an agent spec as every command line takes it: a name such as
``"random"``, ``"heuristic"``, ``"pimc"``, with options such as ``"pimc:samples=40"``, or a class
of your own as ``"mybot.py:MyBot"``; an object with ``act(info, rng)``; or a callable
``f(info, rng) -> action``), ``seat``, ``rules``,
``observation``, ``reward`` (``"game_points"``, ``"win_loss"``, ``"shaped"``), ``episode``
(``"deal"`` or ``"match"``), ``claiming``, ``shaping_scale``, ``render_mode`` (``"ansi"``,
``"human"``, or ``"rgb_array"``: a spectator's picture with both hands face up, for
``gymnasium.wrappers.RecordVideo``; needs Pillow, the ``render`` extra), ``illegal_action``,
``illegal_reward``, ``mask_in_observation``, ``observation_key`` and ``mask_key``.

Episodes are those of the AEC environment, played by the same :class:`.episode.Episode`: the
same deals from the same seeds, the same rewards, and the same reset options with the same
checks: ``options={"deal": ...}`` starts from a given deal, ``options={"carry_over": True}``
carries the next match on from a finished one. Rewards are the learner's share of the zero-sum
rewards of the AEC environment, summed over the learner's action and the opponent actions that
follow it.

Illegal actions: an unmasked policy (or Gymnasium's checker sampling the action space) may pick
an illegal action. With ``illegal_action="terminate"`` (default) the episode ends at once with
``illegal_reward`` (default -3, the largest loss of a deal; -1 with ``win_loss``) and
``info["illegal_action"]`` true, the state left as it was; with ``"raise"`` a ``ValueError``
names the legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import NUM_ACTIONS, action_label
from ..checks import as_index
from ..engine import Deal, IllegalActionError
from ..infostate import InfoState
from ..match import Match
from ..observers import ENCODERS, observation_space
from ..render import describe_outcome, render_deal
from ..render_image import deal_frame, require_pillow
from ..rewards import DEFAULT_SHAPING_SCALE, check_reward_scheme
from ..rules import Rules
from .episode import Episode
from .infos import check_keys, deal_info, terminal_mask
from .options import EPISODES, check_option, check_real, rules_with_claiming
from .sixtysix_v0 import TwoPlayerGame, mask_array

__all__ = ["SixtySixEnv", "resolve_opponent"]

Policy = Callable[[InfoState, random.Random], int]


def resolve_opponent(opponent: Any) -> tuple[str, Policy]:
    """(name, policy) for an agent spec (``"heuristic"``, ``"pimc:samples=40"``,
    ``"mybot.py:MyBot"``: what every command line takes), an object with ``act``, or a plain callable."""
    if isinstance(opponent, str):
        from ..agents.spec import parse_agent_spec

        try:
            spec = parse_agent_spec(opponent)
            agent = spec.make()
        except ValueError as e:  # the spec's own message names the agents and forms allowed
            raise ValueError(f"opponent={opponent!r} is not allowed: {e}") from None
        return spec.label, agent.act
    if hasattr(opponent, "act") and callable(opponent.act):
        return str(getattr(opponent, "name", type(opponent).__name__)), opponent.act
    if callable(opponent):
        return getattr(opponent, "__name__", "callable"), opponent
    raise ValueError(
        f"opponent={opponent!r} is not allowed: give an agent name or spec (such as 'heuristic' or "
        "'pimc:samples=40'), an object with act(info, rng), or a callable f(info, rng) -> action"
    )


class SixtySixEnv(TwoPlayerGame, gym.Env[Any, int]):
    """``SixtySix-v0``: one learner against a built-in opponent, as a Gymnasium env with action masks."""

    # gym.Env declares metadata an instance variable: a ClassVar annotation here would clash with it.
    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        opponent: Any = "heuristic",
        seat: int | str = "random",
        rules: str | Rules = "standard",
        observation: str = "vector",
        reward: str = "game_points",
        episode: str = "deal",
        claiming: str | None = None,
        shaping_scale: float = DEFAULT_SHAPING_SCALE,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
        mask_in_observation: bool = False,
        observation_key: str = "observation",
        mask_key: str = "action_mask",
    ) -> None:
        self.rules = rules_with_claiming(rules, claiming)
        check_option("observation", observation, ENCODERS)
        check_option("episode", episode, EPISODES)
        check_option("seat", seat, ("random", 0, 1))
        check_option("illegal_action", illegal_action, ("terminate", "raise"))
        check_option("render_mode", render_mode, [*self.metadata["render_modes"], None])
        self.reward_scheme = check_reward_scheme(reward)
        self.episode = episode
        self.seat_option = seat
        self.shaping_scale = check_real("shaping_scale", shaping_scale)
        self.render_mode = render_mode
        if render_mode == "rgb_array":
            require_pillow()  # a missing extra is named now, not at the first frame
        self.illegal_action = illegal_action
        self.illegal_reward = (
            check_real("illegal_reward", illegal_reward)
            if illegal_reward is not None
            else (-1.0 if reward == "win_loss" else -3.0)
        )
        self.opponent_name, self._opponent = resolve_opponent(opponent)
        self._encode = ENCODERS[observation]
        check_option("mask_in_observation", mask_in_observation, (False, True))
        check_keys(observation_key, mask_key)
        self.mask_in_observation = bool(mask_in_observation)
        self.observation_key, self.mask_key = observation_key, mask_key
        self.observation_space = observation_space(observation)
        if self.mask_in_observation:
            mask_space = spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)
            self.observation_space = spaces.Dict({observation_key: self.observation_space, mask_key: mask_space})
        # A Discrete space samples numpy ints; the env takes any int (ActType int, for the policies).
        self.action_space = cast(spaces.Space[int], spaces.Discrete(NUM_ACTIONS))
        self._episode: Episode[Match] = Episode(
            episode,
            new_match=self._new_match,
            deal_from_options=self._deal_from_options,
            step_rewards=self._step_rewards,
        )
        self.seat = 0
        self._log: list[str] = []
        self._done = False

    # ------------------------------------------------------------------ the game, for the episode

    # ------------------------------------------------------------------ helpers
    @property
    def match(self) -> Match | None:
        """The match in play (one deal's match in deal episodes); None before the first reset."""
        return self._episode.match

    @property
    def _rng(self) -> random.Random:
        """The episode's RNG: it deals the match's deals and serves the opponent's moves."""
        rng = self._episode.rng
        assert rng is not None, "call reset() first"
        return rng

    @property
    def deal(self) -> Deal:
        assert self.match is not None, "call reset() first"
        return self.match.deal

    def _observe(self, ended: bool = False, illegal: bool = False) -> tuple[Any, dict[str, Any]]:
        view = InfoState.of(self.deal, self.seat)
        mask = terminal_mask(NUM_ACTIONS) if ended else mask_array(view.legal_mask)
        match = self.match
        assert match is not None
        outcome = match.results[-1] if match.results else None  # the episode's last finished deal
        info = {"action_mask": mask, **deal_info(self.seat, match.scores, outcome, illegal)}
        obs = self._encode(view)
        if self.mask_in_observation:
            obs = {self.observation_key: obs, self.mask_key: mask.copy()}
        return obs, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as a bool array (sb3-contrib's MaskablePPO reads this)."""
        deal = self.deal
        if self._done:
            return terminal_mask(NUM_ACTIONS).astype(bool)
        mask = deal.legal_mask() if deal.current_player == self.seat else 0
        return mask_array(mask).astype(bool)

    def _advance(self, action: int, player: int) -> tuple[float, bool]:
        """Apply one action; returns the learner's reward and whether the episode ended."""
        result = self._episode.step(action)
        if self.render_mode is not None:
            self._log.append(f"{'learner' if player == self.seat else 'opponent'}: {action_label(action)}")
            if result.finished is not None and not result.done:  # the rendered last deal shows its own result
                self._log.append(describe_outcome(result.finished, self._names()))
        return result.rewards[self.seat], result.done

    def _play_opponent(self) -> tuple[float, bool]:
        total = 0.0
        rng = self._rng
        while self.deal.current_player == 1 - self.seat:
            opp = 1 - self.seat
            action = int(self._opponent(InfoState.of(self.deal, opp), rng))
            r, done = self._advance(action, opp)
            total += r
            if done:
                return total, True
        return total, False

    def _names(self) -> tuple[str, str]:
        names = ["learner", "learner"]
        names[1 - self.seat] = f"opponent ({self.opponent_name})"
        return names[0], names[1]

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        # Every argument is checked before anything changes: a bad reset leaves the env as it was.
        plan = self._episode.check_reset(seed, options)
        super().reset(seed=plan.seed)
        self._episode.start(plan, self.np_random)
        self.seat = int(self.np_random.integers(2)) if self.seat_option == "random" else int(self.seat_option)
        self._log = []
        self._done = False
        _, done = self._play_opponent()
        if done:  # pragma: no cover - a deal never ends before both players acted
            raise RuntimeError("the opponent finished the episode before the learner's first decision")
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.match is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode has ended: call reset()")
        deal = self.deal
        a = as_index(action)  # an int, a numpy integer or a 0-d integer array; anything else is illegal
        if a is None or not deal.is_legal(a):
            if self.illegal_action == "raise":
                raise IllegalActionError(action, deal.legal_actions(), deal.describe())
            self._done = True
            obs, info = self._observe(ended=True, illegal=True)
            return obs, self.illegal_reward, True, False, info
        reward, done = self._advance(a, self.seat)
        if not done:
            more, done = self._play_opponent()
            reward += more
        self._done = done
        obs, info = self._observe(ended=done)
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), done, False, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None or self.match is None:
            return None
        scores = self.match.scores if self.episode == "match" else None
        if self.render_mode == "rgb_array":
            last = self._log[-1] if self._log else None
            self._log = []
            return deal_frame(self.deal, self._names(), last=last, match_scores=scores)
        text = "\n".join([*self._log, render_deal(self.deal, self._names(), match_scores=scores)])
        self._log = []
        if self.render_mode == "human":
            print(text)
            return None
        return text

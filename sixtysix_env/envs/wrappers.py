"""One wrapper with the exact semantics of PettingZoo's classic triple, at a fraction of the cost.

PettingZoo's classic games wrap their raw env in ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. Each layer forwards attribute
reads through ``__getattr__``, so ``last()`` alone costs tens of microseconds, more than a whole
step of our engine. ``ClassicWrapper`` does the same checks in one layer with direct attribute
access; ``tests/test_wrappers.py`` drives both stacks side by side and requires identical
observations, rewards, terminations, warnings and errors. One addition: an illegal action sets
the offender's ``infos[agent]["illegal_action"]`` (``envs.infos``), which PettingZoo's stack leaves.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..checks import as_index
from .agentdict import AgentDict

__all__ = ["ClassicWrapper"]

_BEFORE_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)


class ClassicWrapper(OrderEnforcingWrapper):
    """Order enforcing + out-of-bounds assertion + illegal-move termination, fused.

    It is an ``OrderEnforcingWrapper`` (so PettingZoo's ``agent_iter`` checks and ``api_test``
    treat it as one) whose hot paths read the raw env directly.
    """

    _has_reset: bool  # set by OrderEnforcingWrapper; declared for the property lambdas below

    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env)
        self._raw = env.unwrapped
        self._illegal_value = illegal_reward
        self._prev_obs: Any = None
        self._prev_info: Any = None
        self._terminated = False
        self._n = self._raw.action_space(self._raw.possible_agents[0]).n

    # --- fast attribute access (the checks of OrderEnforcingWrapper.__getattr__) ---------
    def _get(self, name: str) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    agent_selection = property(lambda self: self._get("agent_selection"))
    agents = property(lambda self: self._get("agents"))
    rewards = property(lambda self: self._get("rewards"))
    terminations = property(lambda self: self._get("terminations"))
    truncations = property(lambda self: self._get("truncations"))
    infos = property(lambda self: self._get("infos"))
    _cumulative_rewards = property(lambda self: self._raw._cumulative_rewards)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        had_reset = self._has_reset
        try:
            super().reset(seed=seed, options=options)
        except Exception:  # a rejected reset leaves the wrapper as it was, like the raw env
            self._has_reset = had_reset
            raise
        self._terminated = False
        self._prev_obs = None
        self._prev_info = None

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        raw = self._raw
        obs = raw.observe(agent)
        if agent == raw.agent_selection:
            self._prev_obs = obs
            self._prev_info = raw.infos.get(agent, {})
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self._raw
        agent = raw.agent_selection
        assert agent is not None
        obs = self.observe(agent) if observe else None
        return obs, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent], raw.infos[agent]

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
            return
        raw = self._raw
        if not raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        # AssertOutOfBoundsWrapper, except that a bool is no action (Discrete.contains takes True as 1)
        a = as_index(action)
        in_bounds = a is not None and 0 <= a < self._n
        assert (action is None and dead) or in_bounds, f"action {action!r} is not in action space"
        # TerminateIllegalWrapper
        if self._prev_obs is None:
            self.observe(agent)
        prev = self._prev_obs
        if isinstance(prev, dict):
            assert "action_mask" in prev, f"`action_mask` not found in dictionary observation: {prev}"
            mask = prev["action_mask"]
        else:
            assert self._prev_info is not None and "action_mask" in self._prev_info
            mask = self._prev_info["action_mask"]
        self._prev_obs = None
        self._prev_info = None
        if self._terminated and dead:
            raw._was_dead_step(action)
        elif not dead and not mask[a]:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = AgentDict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = float(self._illegal_value)
            if "illegal_action" in raw.infos.get(agent, {}):  # the info contract (envs.infos)
                raw.infos[agent] = {**raw.infos[agent], "illegal_action": True}
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            raw.step(action)

    def __str__(self) -> str:
        return str(self._raw)

"""``SixtySixVectorEnv``: a Gymnasium vector env of N deals, the learner against a built-in opponent.

| | |
|---|---|
| episode | one deal; the learner sits in seat ``learner`` (default 0), the dealer is random per deal |
| opponent | played inside the batch, in the numba kernels: ``"random"`` (uniform over legal actions) |
| observation | ``(N, 235)`` float32, ``observers.VECTOR_LAYOUT``, from the learner's seat |
| action | ``(N,)`` ints in 0..31 (``sixtysix_env.actions``); must be legal |
| action mask | ``infos["action_mask"]``, ``(N, 32)`` int8; also ``action_masks()`` |
| reward | the learner's (``"game_points"``, ``"win_loss"``, ``"shaped"``) for his action and the replies |
| autoreset | ``SAME_STEP``: a finished deal is replaced within ``step``; see ``final_obs``, ``final_info`` |
| truncation | never (a deal has at most 48 actions) |

A deal the opponent ends before the learner's first action (a false claim under explicit
claiming) is no episode for the learner: it is dealt again. On the step a deal ends,
``infos["final_obs"]`` holds its last observation and ``infos["final_info"]`` its winner, game
points and termination (``_final_obs`` / ``_final_info`` mark the envs concerned). Seeding ``reset(seed=...)`` makes
the deals and the opponent's choices reproducible.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import NUM_ACTIONS
from ..observers import observation_space
from ..rewards import DEFAULT_SHAPING_SCALE
from ..rules import Rules
from .batch import BatchedDeals

__all__ = ["SixtySixVectorEnv", "OPPONENTS"]

OPPONENTS = ("random",)


class SixtySixVectorEnv(VectorEnv):
    """N deals as one Gymnasium ``VectorEnv`` (see the module docstring for the table)."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 64,
        rules: str | Rules | None = "standard",
        *,
        opponent: str = "random",
        learner: int = 0,
        reward: str = "game_points",
        shaping_scale: float = DEFAULT_SHAPING_SCALE,
        parallel: bool | None = None,
        seed: int | None = None,
    ) -> None:
        if opponent not in OPPONENTS:
            raise ValueError(f"unknown opponent {opponent!r}: choose one of {', '.join(OPPONENTS)}")
        if learner not in (0, 1):
            raise ValueError(f"learner must be seat 0 or 1, got {learner!r}")
        self.learner = learner
        self.deals = BatchedDeals(
            num_envs,
            rules,
            reward=reward,
            shaping_scale=shaping_scale,
            autoreset=True,
            dealer="random",
            seed=seed,
            parallel=parallel,
            opponent=1 - learner,
            final_observation_seat=learner,
        )
        self.num_envs = num_envs
        self.single_observation_space = observation_space("vector")
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)

    @property
    def rules(self) -> Rules:
        return self.deals.rules

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """New deals for every env; ``seed`` reseeds the deals and the opponent."""
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        obs, masks = self.deals.reset(seed=seed)
        self._masks[:] = masks
        return obs.copy(), {"action_mask": masks.copy()}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        obs, masks, rewards, done = self.deals.step_observe(np.asarray(actions).reshape(self.num_envs))
        self._masks[:] = masks
        infos: dict[str, Any] = {"action_mask": masks.copy()}
        terminated = done.copy()
        if terminated.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(terminated):
                final_obs[i] = self.deals.final_observations[i].copy()
            infos["final_obs"], infos["_final_obs"] = final_obs, terminated.copy()
            infos["final_info"] = {
                "winner": self.deals.last_winner.copy(),
                "game_points": self.deals.last_game_points.copy(),
                "termination": self.deals.last_termination.copy(),
                "_winner": terminated.copy(),
                "_game_points": terminated.copy(),
                "_termination": terminated.copy(),
            }
            infos["_final_info"] = terminated.copy()
        return obs.copy(), rewards[:, self.learner].copy(), terminated, self._truncated.copy(), infos

    def action_masks(self) -> np.ndarray:
        """(N, 32) bool: the legal actions of the current observations (for MaskablePPO)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the deals are arrays in this process."""

"""``SixtySixSB3VecEnv``: the batched deals as a stable-baselines3 ``VecEnv``, with action masks.

sb3-contrib's ``MaskablePPO`` trains on it directly::

    from sb3_contrib import MaskablePPO
    from sixtysix_env.envs.sb3 import SixtySixSB3VecEnv

    env = SixtySixSB3VecEnv(num_envs=64, rules="standard", opponent="heuristic", seed=0)
    model = MaskablePPO("MlpPolicy", env, seed=0).learn(100_000)

It wraps :class:`~sixtysix_env.envs.vector.SixtySixVectorEnv` (the learner against a built-in
opponent, ``"heuristic"`` or ``"random"``, one deal per episode; same keyword arguments).
``MaskablePPO`` reads the masks through ``env_method("action_masks")``; ``action_masks()`` gives
them as one (N, 32) bool array. A finished episode's info holds ``terminal_observation``,
``winner``, ``game_points`` and ``seat`` (the learner's seat in that deal).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from ..rules import Rules
from .vector import SixtySixVectorEnv

__all__ = ["SixtySixSB3VecEnv"]


class SixtySixSB3VecEnv(VecEnv):
    """N deals for stable-baselines3 (arguments as :class:`SixtySixVectorEnv`)."""

    def __init__(
        self, num_envs: int = 64, rules: str | Rules | None = "standard", seed: int | None = None, **kwargs: Any
    ) -> None:
        self.venv = SixtySixVectorEnv(num_envs, rules, seed=seed, **kwargs)
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._seed = seed

    def reset(self) -> VecEnvObs:
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        obs, _ = self.venv.reset(seed=seed if seed is not None else self._seed)
        self._seed = None  # seed once; later resets continue the seeded streams
        self._reset_seeds()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async(actions)")
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            out[i]["terminal_observation"] = infos["final_obs"][i]
            out[i]["TimeLimit.truncated"] = False
            out[i]["winner"] = int(infos["final_info"]["winner"][i])
            out[i]["game_points"] = int(infos["final_info"]["game_points"][i])
            out[i]["seat"] = int(infos["final_info"]["seat"][i])
        return obs, rewards.astype(np.float32), dones, out

    def action_masks(self) -> np.ndarray:
        """(N, 32) bool legal actions of the current observations."""
        return self.venv.action_masks()

    def close(self) -> None:
        self.venv.close()

    # sb3's per-env attribute API: the envs are rows of one batch, so the answers are shared.
    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices) if isinstance(indices, Iterable) else [indices]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "action_masks":
            masks = self.action_masks()
            return [(lambda row=masks[i]: row) for i in self._indices(indices)]
        value = getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"cannot set {attr_name!r}: the envs of a batch share one configuration")

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any) -> list:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        method = getattr(self.venv, method_name)
        result = method(*method_args, **kwargs)
        return [result for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

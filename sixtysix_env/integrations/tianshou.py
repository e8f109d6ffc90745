"""``SixtySixTianshouEnv``: the batched engine as an envpool-style vector env for Tianshou.

Tianshou's ``Collector`` takes envpool envs as they are: ``len(env)`` envs, ``step(actions,
env_ids)`` stepping only the ready ones, and ``reset(env_id=ids)`` for the envs whose episode
ended (it resets them itself; nothing resets automatically). This class gives the vector env
(:class:`~sixtysix_env.envs.vector.SixtySixVectorEnv`, same keyword arguments) that shape::

    from tianshou.data import Collector, VectorReplayBuffer
    from sixtysix_env.integrations.tianshou import SixtySixTianshouEnv

    envs = SixtySixTianshouEnv(256, opponent="heuristic", seed=0)  # {"obs", "mask"} observations
    collector = Collector(algorithm, envs, VectorReplayBuffer(100_000, len(envs)))

Observations are Dicts ``{"obs": (235,), "mask": (32,)}`` (``observation_key`` / ``mask_key``
rename them), what Tianshou's ``DiscreteQLearningPolicy`` masks with, returned as one Tianshou
``Batch`` of arrays (no dict per env to stack). The step that ends a deal returns that
deal's last observation (``obs_next``), and the ``reset`` that follows the next deal's first, so
every decision is one transition. Infos are an object array of dicts, as Tianshou's own vector
envs give them: empty by default, because Tianshou's collector stacks non-empty info dicts row by
row (``Batch.stack_``), which took over two thirds of its collection time at 256 envs;
``infos=True`` fills them (the keys of ``envs.infos``, numbers only). Importing it needs neither Tianshou
nor torch; stepping it needs Tianshou.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from ..envs.vector import SixtySixVectorEnv
from ..rules import Rules

__all__ = ["SixtySixTianshouEnv"]


class SixtySixTianshouEnv:
    """N deals for Tianshou's collectors (arguments as :class:`SixtySixVectorEnv`)."""

    is_async = False  # Tianshou's Collector asks: every env answers each step

    def __init__(
        self,
        num_envs: int = 64,
        rules: str | Rules | None = "standard",
        *,
        observation_key: str = "obs",
        mask_key: str = "mask",
        infos: bool = False,
        **kwargs: Any,
    ) -> None:
        if not isinstance(infos, bool):
            raise ValueError(f"infos must be True or False, got {infos!r}")
        self.infos = infos
        for key in ("autoreset_mode", "mask_in_observation"):
            if key in kwargs:
                raise ValueError(f"{key} is set by SixtySixTianshouEnv (next-step resets, masks in the observation)")
        self.venv = SixtySixVectorEnv(
            num_envs,
            rules,
            autoreset_mode=AutoresetMode.NEXT_STEP,
            mask_in_observation=True,
            observation_key=observation_key,
            mask_key=mask_key,
            **kwargs,
        )
        self.env_num = self.venv.num_envs
        self.observation_space = self.venv.single_observation_space
        self.action_space = self.venv.single_action_space
        self.spec = None
        self.metadata = self.venv.metadata
        self._all = np.arange(self.env_num)

    def __len__(self) -> int:
        return self.env_num

    def _ids(self, env_id: Any) -> np.ndarray:
        if env_id is None:
            return self._all
        ids = np.asarray(env_id)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.dtype.kind not in "iu" or ids.ndim != 1 or ((ids < 0) | (ids >= self.env_num)).any():
            raise ValueError(f"env_id must be env indices in 0..{self.env_num - 1}, got {env_id!r}")
        if len(np.unique(ids)) != len(ids):
            raise ValueError(f"env_id names an env twice: {env_id!r}")
        return ids

    def reset(
        self, env_id: Any = None, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """All envs (``env_id=None``: new deals; ``seed`` reseeds them), or new deals in ``env_id``."""
        if env_id is None:
            obs, infos = self.venv.reset(seed=seed, options=options)
            return self._obs(obs), self._rows(infos)
        if seed is not None or options:
            raise ValueError("seed and options apply to a reset of all envs (env_id=None) only")
        obs, infos = self.venv.reset_envs(self._ids(env_id))
        return self._obs(obs), self._rows(infos)

    def step(
        self, action: Any, env_id: Any = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Actions for the envs ``env_id`` (default: all), the others staying as they are; the
        results for those envs only, in that order."""
        ids = self._ids(env_id)
        a = np.asarray(action)
        if a.shape != ids.shape:
            raise ValueError(f"action must have shape {ids.shape} (one per env in env_id), got shape {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers in 0..31, got dtype {a.dtype}")
        full = np.zeros(self.env_num, dtype=a.dtype)
        full[ids] = a
        idle = np.ones(self.env_num, dtype=np.bool_)
        idle[ids] = False
        obs, reward, terminated, truncated, infos = self.venv._step(full, idle)
        return self._obs(obs, ids), reward[ids], terminated[ids], truncated[ids], self._rows(infos, ids)

    def _obs(self, obs: dict[str, np.ndarray], ids: np.ndarray | None = None) -> Any:
        """The Dict observations as one Tianshou ``Batch`` of arrays (rows of it index and assign
        as the collector needs, without a dict per env to stack)."""
        from tianshou.data import Batch

        return Batch({k: v if ids is None else v[ids] for k, v in obs.items()})

    def _rows(self, batched: dict[str, np.ndarray], ids: np.ndarray | None = None) -> np.ndarray:
        """Infos as Tianshou's vector envs give them: an object array of dicts (its collector
        writes a partial reset's infos into the step's, row by row), without Gymnasium's ``_key``
        flags (every key is there for every env); empty dicts unless ``infos=True``."""
        batched = {k: v for k, v in batched.items() if not k.startswith("_")}
        if not self.infos:  # only the row count: Tianshou skips empty dicts
            out = np.empty(len(next(iter(batched.values()))) if ids is None else len(ids), dtype=object)
            out[:] = [{} for _ in range(len(out))]
            return out
        keys = list(batched)
        values = [np.asarray(batched[k]) if ids is None else np.asarray(batched[k])[ids] for k in keys]
        out = np.empty(len(values[0]), dtype=object)
        for i in range(len(out)):
            out[i] = {k: v[i] for k, v in zip(keys, values, strict=True)}
        return out

    def seed(self, seed: int | None = None) -> list[None]:
        """Seeds the next full ``reset`` (Tianshou's ``envs.seed(s)`` convention)."""
        self.venv.reset(seed=seed)
        return [None] * self.env_num

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()

    def render(self, **kwargs: Any) -> None:
        return None

    def close(self) -> None:
        self.venv.close()

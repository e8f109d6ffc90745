"""The ``ppo`` agent: the MaskablePPO policy trained by ``baselines/train_ppo.py``.

The shipped model (``sixtysix_env/models/ppo_standard.zip``, standard rules) is loaded on the
first ``act``, so importing this module (and building the agent registry) costs nothing and
needs neither torch nor stable-baselines3; those come with the ``train`` extra
(``pip install 'sixtysix-env[train]'``).

The agent sees only the ``InfoState``: it encodes it with ``encode_vector`` (the observation the
policy was trained on) and picks among the legal actions with the policy's masked
probabilities: the most likely one (``deterministic=True``, default) or a draw from the ``rng``
it is handed, so seeded play stays reproducible without touching torch's global RNG.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import numpy as np

from ..actions import NUM_ACTIONS
from ..infostate import InfoState
from ..observers import VECTOR_SIZE, encode_vector

__all__ = ["DEFAULT_MODEL", "PPOAgent", "load_model"]

DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "ppo_standard.zip"
"""The model shipped with the package (trained on the ``standard`` rules)."""

_POLICIES: dict[str, Any] = {}
"""Loaded policies by model path: inference only, so one copy per process serves every agent."""

_INSTALL_HINT = (
    "the ppo agent needs torch, stable-baselines3 and sb3-contrib: install the 'train' extra, "
    "pip install torch==2.13.0 (a CPU build) then pip install 'sixtysix-env[train]'"
)


def load_model(path: str | os.PathLike[str] | None = None) -> Any:
    """Load a MaskablePPO model for inference (CPU); a clear ImportError when sb3 is missing.

    Schedules saved with the model are replaced by constants: inference never uses them, and
    unpickling saved lambdas is what breaks across Python versions."""
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(_INSTALL_HINT) from e
    p = Path(path) if path is not None else DEFAULT_MODEL
    if not p.exists():
        raise FileNotFoundError(f"no PPO model at {p}: train one with baselines/train_ppo.py (see baselines/README.md)")
    custom = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0}
    model = MaskablePPO.load(p, device="cpu", custom_objects=custom)
    shape = getattr(model.observation_space, "shape", None)
    if shape != (VECTOR_SIZE,) or getattr(model.action_space, "n", None) != NUM_ACTIONS:
        raise ValueError(
            f"{p} was trained on observations of shape {shape} and {model.action_space}; the ppo agent "
            f"needs the vector observation ({VECTOR_SIZE},) and Discrete({NUM_ACTIONS})"
        )
    model.policy.set_training_mode(False)
    return model


class PPOAgent:
    """A trained MaskablePPO policy as an agent; ``path=None`` is the shipped model."""

    name = "ppo"

    def __init__(self, path: str | os.PathLike[str] | None = None, deterministic: bool = True) -> None:
        self.path = Path(path) if path is not None else DEFAULT_MODEL
        self.deterministic = deterministic
        self._policy: Any = None

    @property
    def policy(self) -> Any:
        """The torch policy, loaded on first use and shared by every agent of this process with the
        same path (arena workers unpickle a fresh agent per block of deals)."""
        if self._policy is None:
            key = str(self.path)
            if key not in _POLICIES:
                _POLICIES[key] = load_model(self.path).policy
            self._policy = _POLICIES[key]
        return self._policy

    def action_probabilities(self, info: InfoState) -> np.ndarray:
        """The policy's probabilities over all actions (0 for illegal ones), float64, shape (32,)."""
        import torch

        legal = info.legal_mask
        if not legal:
            raise ValueError(f"no legal action: the deal is over or it is not player {info.player}'s turn")
        mask = np.array([legal >> a & 1 for a in range(NUM_ACTIONS)], dtype=bool)
        policy = self.policy
        with torch.no_grad():
            obs = torch.as_tensor(encode_vector(info)[None, :])
            dist = policy.get_distribution(obs, action_masks=mask[None, :])
            probs = dist.distribution.probs[0].numpy().astype(np.float64)
        probs[~mask] = 0.0
        total = probs.sum()
        return probs / total if total > 0 else mask / mask.sum()

    def act(self, info: InfoState, rng: random.Random) -> int:
        probs = self.action_probabilities(info)
        if self.deterministic:
            return int(np.argmax(probs))
        x = rng.random()
        acc = 0.0
        legal = np.flatnonzero(probs)
        for a in legal:
            acc += probs[a]
            if x < acc:
                return int(a)
        return int(legal[-1])

    def __getstate__(self) -> dict[str, Any]:
        # The torch policy is reloaded lazily after unpickling (worker processes of the arena).
        return {"path": self.path, "deterministic": self.deterministic, "_policy": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        shown = "None" if self.path == DEFAULT_MODEL else repr(str(self.path))
        return f"PPOAgent(path={shown}, deterministic={self.deterministic})"

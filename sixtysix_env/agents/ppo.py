"""The ``ppo`` agent: the MaskablePPO policy trained by ``baselines/train_ppo.py``, played with numpy.

The shipped weights (``sixtysix_env/models/ppo_standard.npz``, standard rules) are plain arrays
read with ``allow_pickle=False`` (:mod:`sixtysix_env.agents.mlp`): loading them cannot run code,
and playing needs neither torch nor stable-baselines3. They are loaded on the first ``act``, so
importing this module (and building the agent registry) costs nothing.

Models for other presets ship too (``baselines/train_fast.py`` trained them): ``rules="vu"``
(``make_agent("ppo", rules="vu")``, on a command line ``ppo:rules=vu``) picks the preset's
model from ``SHIPPED_MODELS``, ``model="fast_standard"`` any shipped file by name, ``path=`` a
file of yours. With none of them the agent plays ``ppo_standard.npz``, whatever the rules.

``path=`` may also name an SB3 ``.zip`` (to play a model straight from training): that needs the
``train`` extra and unpickles the file, which can run code, so it warns
(:class:`~sixtysix_env.agents.ppo_export.UntrustedModelWarning`); the network is then copied into
numpy and plays exactly as from a ``.npz``.

The agent sees only the ``InfoState``: it encodes it with ``encode_vector`` (the observation the
policy was trained on) and picks among the legal actions with the policy's masked
probabilities: the most likely one (``deterministic=True``, default; the action SB3's
``predict(..., deterministic=True)`` gives) or a draw from the ``rng`` it is handed, so seeded
play stays reproducible.
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
from .mlp import MLPPolicy

__all__ = ["DEFAULT_MODEL", "MODELS_DIR", "SHIPPED_MODELS", "PPOAgent", "load_policy", "shipped_model"]

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS_DIR / "ppo_standard.npz"
"""The weights shipped with the package (trained on the ``standard`` rules)."""
SHIPPED_MODELS: dict[str, str] = {
    "standard": "ppo_standard",
    "vu": "fast_vu",
    "schnapsen": "fast_schnapsen",
    "santase": "fast_santase",
    "marriage": "fast_marriage",
    # the models trained on russian were not stronger there than ppo_standard (baselines/README.md)
    "russian": "ppo_standard",
}
"""The model ``rules=PRESET`` plays: the strongest shipped one measured on that preset (a file
stem in ``MODELS_DIR``), trained on it where that one is stronger."""


def shipped_model(*, rules: str | None = None, model: str | None = None) -> Path:
    """The shipped weights for a preset (``rules``) or by file name (``model``, without ``.npz``)."""
    if rules is not None and model is not None:
        raise ValueError(f"give rules= or model=, not both (got rules={rules!r}, model={model!r})")
    if rules is not None:
        if rules not in SHIPPED_MODELS:
            raise ValueError(f"no shipped ppo model for rules {rules!r}: models ship for {', '.join(SHIPPED_MODELS)}")
        model = SHIPPED_MODELS[rules]
    names = sorted(p.stem for p in MODELS_DIR.glob("*.npz"))
    if model not in names:
        raise ValueError(f"no shipped ppo model {model!r}: choose one of {', '.join(names)}")
    return MODELS_DIR / f"{model}.npz"


_POLICIES: dict[str, MLPPolicy] = {}
"""Loaded policies by path: inference only, so one copy per process serves every agent."""


def _check_path(path: str | os.PathLike[str] | None) -> Path:
    p = Path(path) if path is not None else DEFAULT_MODEL
    if p.suffix not in (".npz", ".zip"):
        raise ValueError(f"PPO model {str(p)!r} must be a .npz (numpy weights) or an SB3 .zip")
    if not p.is_file():
        raise FileNotFoundError(f"no PPO model at {p}: train one with baselines/train_ppo.py (see baselines/README.md)")
    return p


def load_policy(path: str | os.PathLike[str] | None = None) -> MLPPolicy:
    """The numpy policy of a ``.npz`` (default: the shipped one), or of an SB3 ``.zip`` (warns:
    unpickling can run code; needs the ``train`` extra)."""
    p = _check_path(path)
    if p.suffix == ".zip":
        from .ppo_export import export_policy, load_sb3_model

        policy = export_policy(load_sb3_model(p).policy, rules="unknown (an SB3 zip does not record it)", source=p.name)
    else:
        policy = MLPPolicy.load(p)
    if policy.meta["observation"] != "vector" or policy.observation_size != VECTOR_SIZE:
        raise ValueError(
            f"{p} reads {policy.meta['observation']!r} observations of size {policy.observation_size}; "
            f"the ppo agent gives the 'vector' observation of size {VECTOR_SIZE}"
        )
    if policy.meta["num_actions"] != NUM_ACTIONS:
        raise ValueError(f"{p} has {policy.meta['num_actions']} actions, the game has {NUM_ACTIONS}")
    return policy


class PPOAgent:
    """A trained policy as an agent: the weights at ``path``, the shipped model of a preset
    (``rules``) or a shipped model by name (``model``); none of them: ``ppo_standard.npz``."""

    name = "ppo"

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        deterministic: bool = True,
        rules: str | None = None,
        model: str | None = None,
    ) -> None:
        if not isinstance(deterministic, bool):
            raise ValueError(f"deterministic must be True or False, got {deterministic!r}")
        if path is not None and (rules is not None or model is not None):
            raise ValueError(f"give path= or a shipped model (rules=, model=), not both (path={str(path)!r})")
        if rules is not None or model is not None:
            path = shipped_model(rules=rules, model=model)
        self.path = _check_path(path)
        self.deterministic = deterministic
        self._policy: MLPPolicy | None = None

    @property
    def policy(self) -> MLPPolicy:
        """The numpy policy, loaded on first use and shared by every agent of this process with the
        same path (arena workers unpickle a fresh agent per block of deals)."""
        if self._policy is None:
            key = str(self.path.resolve())
            if key not in _POLICIES:
                _POLICIES[key] = load_policy(self.path)
            self._policy = _POLICIES[key]
        return self._policy

    def action_probabilities(self, info: InfoState) -> np.ndarray:
        """The policy's probabilities over all actions (0 for illegal ones), float64, shape (32,)."""
        legal = info.legal_mask
        if not legal:
            raise ValueError(f"no legal action: the deal is over or it is not player {info.player}'s turn")
        mask = np.array([legal >> a & 1 for a in range(NUM_ACTIONS)], dtype=bool)
        return self.policy.probabilities(encode_vector(info), mask)

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
        # The policy is reloaded lazily after unpickling (worker processes of the arena).
        return {"path": self.path, "deterministic": self.deterministic, "_policy": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        shown = "None" if self.path == DEFAULT_MODEL else repr(str(self.path))
        return f"PPOAgent(path={shown}, deterministic={self.deterministic})"

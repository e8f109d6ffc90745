"""The shipped policy networks, and loading one: the files the ``ppo`` agent plays and the prior
``pimc:prior=`` searches with, in one place so neither agent imports the other.

A ``.npz`` is read with ``allow_pickle=False`` (:mod:`.mlp`): loading it cannot run code. An SB3
``.zip`` unpickles, so it needs the ``train`` extra and warns. Each file is loaded once per
process and shared by every agent that plays it (inference only).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..actions import NUM_ACTIONS
from ..infostate import InfoState
from ..observers import VECTOR_SIZE, encode_vector
from .mlp import MLPPolicy

__all__ = [
    "DEFAULT_MODEL",
    "MODELS_DIR",
    "SEARCH_MODELS",
    "SHIPPED_MODELS",
    "cached_policy",
    "check_model_path",
    "legal_probabilities",
    "load_policy",
    "shipped_model",
    "shipped_model_names",
]

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
"""The folder of the shipped model weights (``sixtysix_env/models``)."""
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
"""The model ``rules=PRESET`` plays (a file stem in ``MODELS_DIR``): the one trained on that preset,
or ``ppo_standard`` where none trained there was stronger. On ``standard`` it is the first network,
kept so that ``ppo`` means what every published ``ppo`` row measured; the stronger standard
networks ship under their names (``model=ensemble_standard`` is the strongest measured)."""
SEARCH_MODELS: dict[str, str] = {"standard": "fast_standard_solve"}
"""The model ``endgame="search"`` plays for a preset (``rules=``, or standard with no option): one
trained for the open stock only (``train_fast.py --endgame solve``); other presets fall back to
``SHIPPED_MODELS``."""


def shipped_model_names() -> tuple[str, ...]:
    """The names of the shipped networks (file stems in ``MODELS_DIR``), sorted."""
    return tuple(sorted(p.stem for p in MODELS_DIR.glob("*.npz")))


def shipped_model(*, rules: str | None = None, model: str | None = None, endgame: str = "network") -> Path:
    """The shipped weights for a preset (``rules``; with ``endgame="search"`` its ``SEARCH_MODELS``
    one where there is one) or by file name (``model``, without ``.npz``)."""
    if rules is not None and model is not None:
        raise ValueError(f"give rules= or model=, not both (got rules={rules!r}, model={model!r})")
    if rules is not None:
        if rules not in SHIPPED_MODELS:
            raise ValueError(f"no shipped ppo model for rules {rules!r}: models ship for {', '.join(SHIPPED_MODELS)}")
        model = SEARCH_MODELS.get(rules, SHIPPED_MODELS[rules]) if endgame == "search" else SHIPPED_MODELS[rules]
    names = shipped_model_names()
    if model not in names:
        raise ValueError(f"no shipped ppo model {model!r}: choose one of {', '.join(names)}")
    return MODELS_DIR / f"{model}.npz"


_POLICIES: dict[str, MLPPolicy] = {}
"""Loaded policies by path: inference only, so one copy per process serves every agent."""


def check_model_path(path: str | os.PathLike[str] | None) -> Path:
    """The path of a model file (default: the shipped ``ppo_standard.npz``), refused with the reason
    when it is not a ``.npz`` or ``.zip`` file that exists."""
    p = Path(path) if path is not None else DEFAULT_MODEL
    if p.suffix not in (".npz", ".zip"):
        raise ValueError(f"PPO model {str(p)!r} must be a .npz (numpy weights) or an SB3 .zip")
    if not p.exists():
        raise FileNotFoundError(f"no PPO model at {p}: train one with baselines/train_ppo.py (see baselines/README.md)")
    if not p.is_file():  # never opened: a FIFO would block the reader
        raise ValueError(f"PPO model {p} is a folder, FIFO or device, not a model file (.npz or .zip)")
    return p


def load_policy(path: str | os.PathLike[str] | None = None) -> MLPPolicy:
    """The numpy policy of a ``.npz`` (default: the shipped one), or of an SB3 ``.zip`` (warns:
    unpickling can run code; needs the ``train`` extra)."""
    p = check_model_path(path)
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


def cached_policy(path: Path) -> MLPPolicy:
    """The policy at ``path``, loaded on first use and shared by every agent of this process that
    plays it (arena workers unpickle fresh agents per block of deals, without their weights)."""
    key = str(path.resolve())
    if key not in _POLICIES:
        _POLICIES[key] = load_policy(path)
    return _POLICIES[key]


def legal_probabilities(policy: MLPPolicy, info: InfoState) -> np.ndarray:
    """The policy's probabilities over all actions for the player of ``info`` (0 for illegal ones),
    float64, shape (32,)."""
    legal = info.legal_mask
    if not legal:
        raise ValueError(f"no legal action: the deal is over or it is not player {info.player}'s turn")
    mask = np.array([legal >> a & 1 for a in range(NUM_ACTIONS)], dtype=bool)
    return policy.probabilities(encode_vector(info), mask)

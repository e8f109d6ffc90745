"""The ``ppo`` agent: the MaskablePPO policy trained by ``baselines/train_ppo.py``, played with numpy.

The shipped weights (``sixtysix_env/models/ppo_standard.npz``, standard rules) are plain arrays
read with ``allow_pickle=False`` (:mod:`sixtysix_env.agents.mlp`): loading them cannot run code,
and playing needs neither torch nor stable-baselines3. They are loaded on the first ``act``, so
importing this module (and building the agent registry) costs nothing.

Models for other presets ship too (``baselines/train_fast.py`` trained them): ``rules="vu"``
(``make_agent("ppo", rules="vu")``, on a command line ``ppo:rules=vu``) picks the preset's
model from ``SHIPPED_MODELS``, ``model="fast_standard"`` any shipped file by name, ``path=`` a
file of yours. With none of them the agent plays ``ppo_standard.npz``, whatever the rules.

``endgame="search"`` (``ppo:endgame=search``) plays the network only while the stock is open:
once it is closed or exhausted, PIMC decides (``endgame_samples`` samples, 20 by default, with
``solver="fast"``, the numba search of the ``fast`` extra, or ``"python"``), which is exact
alpha-beta once every card is placed. Search is cheap there (a median 0.45 ms a decision) and
that is where a network loses most: on 2,000 duplicate standard deal pairs against the
heuristic, ``fast_standard`` scored +0.250 alone and +0.385 with ``endgame="search"``. With no
``model=`` or ``path=`` it plays ``SEARCH_MODELS`` (``fast_standard_solve``, trained for the
open stock only by ``train_fast.py --endgame solve``): +0.547 (README, "The learned agent").

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
from ..checks import check_choice, check_int
from ..infostate import InfoState
from ..observers import VECTOR_SIZE, encode_vector
from ..rules import Rules
from .base import MAX_BUDGET
from .mlp import MLPPolicy
from .pimc import PIMCAgent

__all__ = [
    "DEFAULT_MODEL",
    "ENDGAMES",
    "MODELS_DIR",
    "SEARCH_MODELS",
    "SHIPPED_MODELS",
    "PPOAgent",
    "load_policy",
    "shipped_model",
    "stock_is_settled",
]

ENDGAMES = ("network", "search")
"""Who plays once the stock is closed or exhausted: the network, or PIMC (``PPOAgent(endgame=)``)."""

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


def shipped_model(*, rules: str | None = None, model: str | None = None, endgame: str = "network") -> Path:
    """The shipped weights for a preset (``rules``; with ``endgame="search"`` its ``SEARCH_MODELS``
    one where there is one) or by file name (``model``, without ``.npz``)."""
    if rules is not None and model is not None:
        raise ValueError(f"give rules= or model=, not both (got rules={rules!r}, model={model!r})")
    if rules is not None:
        if rules not in SHIPPED_MODELS:
            raise ValueError(f"no shipped ppo model for rules {rules!r}: models ship for {', '.join(SHIPPED_MODELS)}")
        model = SEARCH_MODELS.get(rules, SHIPPED_MODELS[rules]) if endgame == "search" else SHIPPED_MODELS[rules]
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
    if not p.exists():
        raise FileNotFoundError(f"no PPO model at {p}: train one with baselines/train_ppo.py (see baselines/README.md)")
    if not p.is_file():  # never opened: a FIFO would block the reader
        raise ValueError(f"PPO model {p} is a folder, FIFO or device, not a model file (.npz or .zip)")
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


def stock_is_settled(info: InfoState) -> bool:
    """The stock is closed or exhausted: no more cards are drawn, only the hands are played."""
    return info.closed_by >= 0 or info.stock_size == 0


class PPOAgent:
    """A trained policy as an agent: the weights at ``path``, the shipped model of a preset
    (``rules``) or a shipped model by name (``model``); none of them: ``ppo_standard.npz``.
    ``endgame="search"`` hands the decisions after the stock is closed or exhausted to PIMC."""

    name = "ppo"

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        deterministic: bool = True,
        rules: str | None = None,
        model: str | None = None,
        endgame: str = "network",
        endgame_samples: int | None = None,
        solver: str | None = None,
    ) -> None:
        if not isinstance(deterministic, bool):
            raise ValueError(f"deterministic must be True or False, got {deterministic!r}")
        check_choice("endgame", endgame, ENDGAMES)
        if endgame == "network" and (endgame_samples is not None or solver is not None):
            raise ValueError(
                f"endgame_samples={endgame_samples!r} and solver={solver!r} set the search after the stock "
                "settles: they need endgame='search'"
            )
        samples = check_int("endgame_samples", 20 if endgame_samples is None else endgame_samples, 1, MAX_BUDGET)
        self.endgame = endgame
        # PIMCAgent checks the solver, with the same name and its choices
        self._search = (
            PIMCAgent(samples=samples, solver="fast" if solver is None else solver) if endgame == "search" else None
        )
        if path is not None and (rules is not None or model is not None):
            raise ValueError(f"give path= or a shipped model (rules=, model=), not both (path={str(path)!r})")
        if path is None and model is None and (rules is not None or endgame == "search"):
            path = shipped_model(rules=rules or "standard", endgame=endgame)
        elif model is not None:
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

    def prepare(self, rules: Rules) -> None:
        """Load the weights, and compile the endgame search (``solver="fast"``) ahead of play."""
        _ = self.policy
        if self._search is not None:
            self._search.prepare(rules)

    def act(self, info: InfoState, rng: random.Random) -> int:
        if self._search is not None and stock_is_settled(info):
            return self._search.act(info, rng)
        probs = self.action_probabilities(info)  # refuses non-finite logits
        legal = info.legal_actions()  # chosen among these only, whatever the probabilities say
        if self.deterministic:
            return max(legal, key=lambda a: probs[a])
        x = rng.random()
        acc = 0.0
        for a in legal:
            acc += probs[a]
            if x < acc:
                return int(a)
        return int(legal[-1])

    def __getstate__(self) -> dict[str, Any]:
        # The policy is reloaded lazily after unpickling (worker processes of the arena).
        return {**self.__dict__, "_policy": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        shown = "None" if self.path == DEFAULT_MODEL else repr(str(self.path))
        text = f"PPOAgent(path={shown}, deterministic={self.deterministic}"
        if self._search is not None:
            text += f", endgame='search', endgame_samples={self._search.samples}, solver={self._search.solver!r}"
        return text + ")"

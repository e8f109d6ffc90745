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
from typing import Any

import numpy as np

from ..checks import check_choice, check_int
from ..infostate import InfoState
from ..rules import Rules
from .base import MAX_BUDGET, stock_is_settled
from .mlp import MLPPolicy
from .pimc import PIMCAgent
from .policies import (
    DEFAULT_MODEL,
    MODELS_DIR,
    SEARCH_MODELS,
    SHIPPED_MODELS,
    cached_policy,
    check_model_path,
    legal_probabilities,
    load_policy,
    shipped_model,
)

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
        self.path = check_model_path(path)
        self.deterministic = deterministic
        self._policy: MLPPolicy | None = None

    @property
    def policy(self) -> MLPPolicy:
        """The numpy policy, loaded on first use and shared by every agent of this process with the
        same path (arena workers unpickle a fresh agent per block of deals)."""
        if self._policy is None:
            self._policy = cached_policy(self.path)
        return self._policy

    def action_probabilities(self, info: InfoState) -> np.ndarray:
        """The policy's probabilities over all actions (0 for illegal ones), float64, shape (32,)."""
        return legal_probabilities(self.policy, info)

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

"""The floor of every strength table: a uniformly random legal action."""

from __future__ import annotations

import random

from ..infostate import InfoState
from .base import no_legal_action

__all__ = ["RandomAgent"]


class RandomAgent:
    """Picks uniformly among ``info.legal_actions()`` with the ``rng`` it is handed."""

    name = "random"

    def act(self, info: InfoState, rng: random.Random) -> int:
        legal = info.legal_actions()
        if not legal:
            raise no_legal_action(info)
        return legal[rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomAgent()"

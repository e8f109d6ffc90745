"""The agent interface: what a player may know in, one legal action out.

Agents see only an :class:`~sixtysix_env.infostate.InfoState` (never the full deal), and take
randomness from the ``rng`` they are handed, so a seeded caller gets reproducible play.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..infostate import InfoState

__all__ = ["Agent", "only_choice"]


@runtime_checkable
class Agent(Protocol):
    """Anything with a ``name`` and ``act(info, rng) -> action id`` is an agent."""

    name: str

    def act(self, info: InfoState, rng: random.Random) -> int:
        """Return one action from ``info.legal_actions()`` (``info`` is the acting player's view)."""
        ...


def only_choice(info: InfoState, legal: list[int]) -> int | None:
    """The action when there is nothing to decide (one legal action), else None; searching agents
    skip their search then. Raises when there is no legal action at all."""
    if len(legal) > 1:
        return None
    if not legal:
        raise ValueError(f"no legal action: the deal is over or it is not player {info.player}'s turn")
    return legal[0]

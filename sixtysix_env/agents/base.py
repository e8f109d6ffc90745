"""The agent interface: what a player may know in, one legal action out.

Agents see only an :class:`~sixtysix_env.infostate.InfoState` (never the full deal), and take
randomness from the ``rng`` they are handed, so a seeded caller gets reproducible play.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..infostate import InfoState

__all__ = ["Agent", "MAX_BUDGET", "MAX_TIME_MS", "only_choice"]

MAX_BUDGET = 10_000_000
"""The largest sample or iteration budget a search agent takes per decision."""
MAX_TIME_MS = 3_600_000.0
"""The largest time budget per decision (an hour): a bound, so no budget can mean "forever"."""


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

"""The agent interface: what a player may know in, one legal action out.

Agents see only an :class:`~sixtysix_env.infostate.InfoState` (never the full deal), and take
randomness from the ``rng`` they are handed, so a seeded caller gets reproducible play.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from ..infostate import InfoState

__all__ = [
    "Agent",
    "MAX_BUDGET",
    "MAX_TIME_MS",
    "first_position_fault",
    "no_legal_action",
    "only_choice",
    "stock_is_settled",
]

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
        raise no_legal_action(info)
    return legal[0]


def no_legal_action(info: InfoState) -> ValueError:
    """The error an agent raises when asked to act where its player has nothing to do."""
    return ValueError(f"no legal action: the deal is over or it is not player {info.player}'s turn")


def first_position_fault(agent: Any, deal_class: Any, rules: Any, game: str) -> str | None:
    """Why ``agent`` cannot play a game (it raised, or chose an illegal move, on the first position
    of a ``deal_class`` deal of ``rules``), or None; ``game`` ("two", "three", "four") names it."""
    deal = deal_class.new(rules, random.Random(0))
    view = deal.information_state(deal.current_player)
    try:
        action = agent.act(view, random.Random(0))
        ok = deal.is_legal(int(action))
    except Exception as e:
        return f"on a {game}-player position it raised {type(e).__name__}: {e}"
    return None if ok else f"on a {game}-player position it chose {action!r}, which is not legal"


def stock_is_settled(info: InfoState) -> bool:
    """The stock is closed or exhausted: no more cards are drawn, only the hands are played."""
    return info.closed_by >= 0 or info.stock_size == 0

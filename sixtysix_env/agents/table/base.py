"""Agents for the three- and four-player games: a ``TableView`` in, one legal action out.

They read only the view of the acting player (``deal.information_state(p)``), so they cannot see
a hidden card, and take randomness from the ``rng`` they are handed. They are registered for the
``"three"`` and ``"four"`` games of :data:`sixtysix_env.agents.REGISTRY`, so
``parse_agent_spec("pimc:samples=8", game="four").make()`` builds one by name: ``random``,
``heuristic`` (``heuristic.py``) or ``pimc`` (``pimc.py``).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ...table.view import TableView

__all__ = ["TableAgent", "TableRandomAgent", "table_only_choice"]


@runtime_checkable
class TableAgent(Protocol):
    """Anything with a ``name`` and ``act(view, rng) -> action id`` plays the table games."""

    name: str

    def act(self, view: TableView, rng: random.Random) -> int: ...


def table_only_choice(view: TableView) -> int | None:
    """The action when there is nothing to decide, else None; raises when there is none at all."""
    legal = view.legal_actions()
    if not legal:
        raise ValueError(f"no legal action: the deal is over or it is not player {view.player}'s turn")
    return legal[0] if len(legal) == 1 else None


class TableRandomAgent:
    """Uniform over the legal actions: the floor of the strength tables."""

    name = "random"

    def act(self, view: TableView, rng: random.Random) -> int:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"no legal action: the deal is over or it is not player {view.player}'s turn")
        return legal[rng.randrange(len(legal))]

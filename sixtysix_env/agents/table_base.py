"""Agents for the three- and four-player games: a ``TableView`` in, one legal action out.

They read only the view of the acting player (``deal.information_state(p)``), so they cannot see
a hidden card, and take randomness from the ``rng`` they are handed. ``make_table_agent`` builds
one by name: ``random``, ``heuristic`` (``table_heuristic.py``) or ``pimc`` (``table_pimc.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ..multiplayer.view import TableView

__all__ = ["TableAgent", "TableRandomAgent", "TABLE_AGENTS", "make_table_agent", "table_only_choice"]


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


def _heuristic(**kwargs: Any) -> TableAgent:
    from .table_heuristic import TableHeuristicAgent

    return TableHeuristicAgent(**kwargs)


def _pimc(**kwargs: Any) -> TableAgent:
    from .table_pimc import TablePIMCAgent

    return TablePIMCAgent(**kwargs)


TABLE_AGENTS: dict[str, Callable[..., TableAgent]] = {
    "random": TableRandomAgent,
    "heuristic": _heuristic,
    "pimc": _pimc,
}


def make_table_agent(spec: str) -> TableAgent:
    """An agent from ``name`` or ``name:key=value:...`` (``pimc:samples=16``); ints and floats
    are converted. Raises ``ValueError`` naming the known agents or the bad option."""
    name, *options = spec.split(":")
    if name not in TABLE_AGENTS:
        raise ValueError(f"unknown table agent {name!r}: choose one of {', '.join(TABLE_AGENTS)}")
    kwargs: dict[str, Any] = {}
    for opt in options:
        key, sep, value = opt.partition("=")
        if not sep or not key:
            raise ValueError(f"bad agent option {opt!r} in {spec!r}: use key=value, as in pimc:samples=16")
        kwargs[key] = _number(value)
    try:
        return TABLE_AGENTS[name](**kwargs)
    except TypeError as e:
        raise ValueError(f"agent {name!r} does not take the options {kwargs}: {e}") from None


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text

"""Agents for the three- and four-player games by name: ``make_table_agent("pimc:samples=16")``.

Above the agents themselves (``base``, ``heuristic``, ``pimc``), so none of them
imports the registry that lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..spec import option_value
from .base import TableAgent, TableRandomAgent
from .heuristic import TableHeuristicAgent
from .pimc import TablePIMCAgent

__all__ = ["TABLE_AGENTS", "make_table_agent"]

TABLE_AGENTS: dict[str, Callable[..., TableAgent]] = {
    "random": TableRandomAgent,
    "heuristic": TableHeuristicAgent,
    "pimc": TablePIMCAgent,
}
"""The registry of ``make_table_agent``: name to three- and four-player agent class."""


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
        kwargs[key] = option_value(value)
    try:
        return TABLE_AGENTS[name](**kwargs)
    except TypeError as e:
        raise ValueError(f"agent {name!r} does not take the options {kwargs}: {e}") from None

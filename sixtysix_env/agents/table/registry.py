"""Deprecated: the table agents are in the one registry, :data:`sixtysix_env.agents.REGISTRY`
(``"three"`` and ``"four"``), and read by the one parser, :func:`sixtysix_env.agents.spec.parse_agent_spec`:
``parse_agent_spec("pimc:samples=16", game="four").make()``.

``make_table_agent`` and ``TABLE_AGENTS`` keep working until 0.2, with a ``DeprecationWarning``.
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import agent_factory, agent_names
from ..spec import parse_agent_spec
from .base import TableAgent

__all__ = ["make_table_agent"]  # and TABLE_AGENTS, through __getattr__

_NEW = "parse_agent_spec(text, game='three' or 'four').make() (sixtysix_env.agents.spec)"


def make_table_agent(spec: str) -> TableAgent:
    """Deprecated: ``parse_agent_spec(spec, game="three").make()``, which it calls."""
    warnings.warn(f"make_table_agent is deprecated: use {_NEW}", DeprecationWarning, stacklevel=2)
    agent: TableAgent = parse_agent_spec(spec, game="three").make()  # type: ignore[assignment]
    return agent


def __getattr__(name: str) -> Any:
    if name == "TABLE_AGENTS":  # the table games' names and classes, read from the one registry
        warnings.warn(
            "TABLE_AGENTS is deprecated: use sixtysix_env.agents.agent_names('three') or REGISTRY['three']",
            DeprecationWarning,
            stacklevel=2,
        )
        return {n: agent_factory(n, "three") for n in agent_names("three")}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

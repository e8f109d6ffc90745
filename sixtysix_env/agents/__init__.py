"""Baseline agents and a registry to build them by name.

| name        | class              | what it does                                                        |
|-------------|--------------------|---------------------------------------------------------------------|
| `random`    | `RandomAgent`      | uniform over the legal actions                                      |
| `heuristic` | `HeuristicAgent`   | deterministic ordered rule list (see `agents/heuristic.py`)         |
| `alphabeta` | `AlphaBetaAgent`   | heuristic while cards are hidden, exact alpha-beta once all known   |
| `pimc`      | `PIMCAgent`        | Perfect-Information Monte Carlo over sampled deals                  |
| `ismcts`    | `ISMCTSAgent`      | single-observer information-set MCTS                                |
| `ppo`       | `PPOAgent`         | the trained MaskablePPO policy, played with numpy (`agents/ppo.py`)  |

``make_agent("pimc", samples=40)`` builds one; ``register_agent("ppo", factory)`` adds a new
name. A factory may be a callable or a lazy ``"module:attribute"`` string, imported only when
the agent is first made (so a heavy agent costs nothing until used).

The oracle (``agents/oracle.py``), which sees every card, is deliberately not registered: it is
a measuring stick for ``benchmarks/bench_gap.py``, not a player.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from .alphabeta import AlphaBetaAgent, Solver, solve, solve_actions
from .base import Agent
from .heuristic import HeuristicAgent
from .ismcts import ISMCTSAgent
from .pimc import PIMCAgent
from .random_agent import RandomAgent

__all__ = [
    "AGENTS",
    "Agent",
    "AlphaBetaAgent",
    "HeuristicAgent",
    "ISMCTSAgent",
    "PIMCAgent",
    "RandomAgent",
    "Solver",
    "agent_names",
    "make_agent",
    "register_agent",
    "solve",
    "solve_actions",
]

Factory = Callable[..., Agent]

AGENTS: dict[str, Factory | str] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "alphabeta": AlphaBetaAgent,
    "pimc": PIMCAgent,
    "ismcts": ISMCTSAgent,
    "ppo": "sixtysix_env.agents.ppo:PPOAgent",  # lazy: its weights load only when one plays
}
"""The registry of ``make_agent``: name to agent class, or to the module path of one loaded on first use."""


def register_agent(name: str, factory: Factory | str, *, overwrite: bool = False) -> None:
    """Add an agent name: ``factory(**kwargs)`` builds one, or ``"package.module:Class"`` is
    imported on first use."""
    if not name or not isinstance(name, str):
        raise ValueError(f"agent name must be a non-empty string, got {name!r}")
    if name in AGENTS and not overwrite:
        raise ValueError(f"agent {name!r} is already registered: pass overwrite=True to replace it")
    if isinstance(factory, str) and ":" not in factory:
        raise ValueError(f"lazy factory {factory!r} must read 'package.module:attribute'")
    AGENTS[name] = factory


def agent_names() -> list[str]:
    """The registered agent names, in registry order."""
    return list(AGENTS)


def make_agent(name: str, **kwargs: Any) -> Agent:
    """A new agent by registered name; ``kwargs`` go to its constructor (its budget, say)."""
    if not isinstance(name, str) or name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}: choose one of {', '.join(AGENTS)}")
    factory = AGENTS[name]
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module), attr)
        AGENTS[name] = factory
    try:
        inspect.signature(factory).bind(**kwargs)
    except TypeError as e:
        raise ValueError(f"bad options for agent {name!r}: {e}") from None
    return factory(**kwargs)

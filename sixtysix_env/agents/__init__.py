"""Baseline agents and a registry to build them by name.

| name        | class              | what it does                                                        |
|-------------|--------------------|---------------------------------------------------------------------|
| `random`    | `RandomAgent`      | uniform over the legal actions                                      |
| `heuristic` | `HeuristicAgent`   | deterministic ordered rule list (see `agents/heuristic.py`)         |
| `alphabeta` | `AlphaBetaAgent`   | heuristic while cards are hidden, exact alpha-beta once all known   |
| `pimc`      | `PIMCAgent`        | Perfect-Information Monte Carlo over sampled deals                  |
| `ismcts`    | `ISMCTSAgent`      | single-observer information-set MCTS                                |
| `ppo`       | `PPOAgent`         | the trained MaskablePPO policy, played with numpy (`agents/ppo.py`)  |
| `br`        | `SearchBestResponse` | PIMC against a known target agent (`br:target=SPEC`, `agents/search_br.py`) |

``make_agent("pimc", samples=40)`` builds one; ``register_agent("ppo", factory)`` adds a new
name. A factory may be a callable or a lazy ``"module:attribute"`` string, imported only when
the agent is first made (so a heavy agent costs nothing until used).

The registry is one, keyed by game (``REGISTRY["two"]`` is ``AGENTS``; ``"three"`` and ``"four"``
hold the table agents ``random``, ``heuristic`` and ``pimc`` of :mod:`.table`):
``make_agent("pimc", game="four", samples=8)``, ``agent_names("three")``,
``register_agent("mybot", MyBot, game=("three", "four"))``. Text such as ``pimc:samples=8`` is
read by :func:`.spec.parse_agent_spec`, the one parser of every command line, the web and the
arena; its ``AgentSpec.make()`` builds the agent.

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
    "OWN_CLASS",
    "REGISTRY",
    "Agent",
    "AlphaBetaAgent",
    "HeuristicAgent",
    "ISMCTSAgent",
    "PIMCAgent",
    "RandomAgent",
    "Solver",
    "WrongGameError",
    "agent_factory",
    "agent_names",
    "check_options",
    "make_agent",
    "register_agent",
    "solve",
    "solve_actions",
    "unknown_agent_error",
]

Factory = Callable[..., Agent]

AGENTS: dict[str, Factory | str] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "alphabeta": AlphaBetaAgent,
    "pimc": PIMCAgent,
    "ismcts": ISMCTSAgent,
    "ppo": "sixtysix_env.agents.ppo:PPOAgent",  # lazy: its weights load only when one plays
    "br": "sixtysix_env.agents.search_br:SearchBestResponse",  # lazy: it reads target specs (agents.spec)
}
"""The two-player game's agents (``REGISTRY["two"]``): name to agent class, or to the module path
of one loaded on first use."""


def _table_agents() -> dict[str, Factory | str]:
    # lazy, so that this package imports nothing of agents/table (which imports this one)
    return {
        "random": "sixtysix_env.agents.table.base:TableRandomAgent",
        "heuristic": "sixtysix_env.agents.table.heuristic:TableHeuristicAgent",
        "pimc": "sixtysix_env.agents.table.pimc:TablePIMCAgent",
    }


REGISTRY: dict[str, dict[str, Factory | str]] = {"two": AGENTS, "three": _table_agents(), "four": _table_agents()}
"""The one registry of agents, keyed by game as ``play`` and the web name them: ``"two"`` players
(:mod:`sixtysix_env.engine`), ``"three"`` and ``"four"`` (:mod:`sixtysix_env.table`, whose agents
are :mod:`sixtysix_env.agents.table`'s). ``REGISTRY[game][name]`` is an agent class (or factory),
or ``"package.module:attribute"`` imported on first use."""

OWN_CLASS = "name your own class as file.py:Class or package.module:Class"
"""How a spec names a user's class, for error messages."""


class WrongGameError(ValueError):
    """An agent named for a game it is not registered for (``alphabeta`` at a three-player table)."""


def _game(game: object) -> str:
    if not isinstance(game, str) or game not in REGISTRY:
        raise ValueError(f"unknown game {game!r}: choose one of {', '.join(REGISTRY)}")
    return game


def _games(game: str | tuple[str, ...]) -> tuple[str, ...]:
    games = (game,) if isinstance(game, str) else tuple(game)
    if not games:
        raise ValueError("register an agent for at least one game: " + ", ".join(REGISTRY))
    return tuple(_game(g) for g in games)


def unknown_agent_error(
    name: object, game: str = "two", spec: str | None = None, *, own_class: bool = False
) -> ValueError:
    """The error for ``name`` not registered for ``game``: the names ``game`` offers, and where the
    name is registered for other games only, which (a :class:`WrongGameError`). The one wording of
    every entry point; ``spec`` is the text it came in, ``own_class`` adds how to name a class."""
    names = ", ".join(REGISTRY[_game(game)])
    other = [g for g in REGISTRY if g != game and isinstance(name, str) and name in REGISTRY[g]]
    tail = f", or {OWN_CLASS}" if own_class else ""
    where = f" in {spec!r}" if isinstance(spec, str) and spec.strip() != name else ""
    if other:
        games = " and ".join(other)
        plural = "games" if len(other) > 1 else "game"
        return WrongGameError(
            f"agent {name!r}{where} plays only the {games}-player {plural}; "
            f"for the {game}-player game choose one of {names}{tail}"
        )
    game_of = f" for the {game}-player game" if game != "two" else ""
    return ValueError(f"unknown agent {name!r}{where}{game_of}: choose one of {names}{tail}")


def register_agent(
    name: str, factory: Factory | str, *, overwrite: bool = False, game: str | tuple[str, ...] = "two"
) -> None:
    """Add an agent name for ``game`` (one game or several, default ``"two"``): ``factory(**kwargs)``
    builds one, or ``"package.module:Class"`` is imported on first use."""
    if not name or not isinstance(name, str):
        raise ValueError(f"agent name must be a non-empty string, got {name!r}")
    games = _games(game)
    for g in games:
        if name in REGISTRY[g] and not overwrite:
            raise ValueError(f"agent {name!r} is already registered: pass overwrite=True to replace it")
    if isinstance(factory, str) and ":" not in factory:
        raise ValueError(f"lazy factory {factory!r} must read 'package.module:attribute'")
    for g in games:
        REGISTRY[g][name] = factory


def agent_names(game: str = "two") -> list[str]:
    """The agent names registered for ``game``, in registry order."""
    return list(REGISTRY[_game(game)])


def agent_factory(name: str, game: str = "two") -> Factory:
    """The class (or factory) registered as ``name`` for ``game``, imported if it was lazy; a
    ValueError listing ``game``'s names when there is none."""
    agents = REGISTRY[_game(game)]
    if not isinstance(name, str) or name not in agents:
        raise unknown_agent_error(name, game)
    factory = agents[name]
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module), attr)
        agents[name] = factory
    return factory


def check_options(factory: Any, options: dict[str, Any], label: str) -> None:
    """``factory`` takes these keyword options: a ValueError naming any it does not take (and
    those it does), or the signature's complaint (a required option missing)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # no signature to read (a builtin): the call itself will say
        return
    try:
        signature.bind(**options)
    except TypeError as e:
        params = signature.parameters.values()
        takes = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        unknown = [k for k in options if k not in takes]
        if unknown and not any(p.kind is p.VAR_KEYWORD for p in params):
            raise ValueError(
                f"bad options for agent {label!r}: it does not take {', '.join(unknown)} "
                f"(it takes {', '.join(takes) or 'no options'})"
            ) from None
        raise ValueError(f"bad options for agent {label!r}: {e}") from None


def make_agent(name: str, *, game: str = "two", **kwargs: Any) -> Agent:
    """A new agent by registered name for ``game`` (default the two-player game); ``kwargs`` go to
    its constructor (its budget, say)."""
    factory = agent_factory(name, game)
    check_options(factory, kwargs, name)
    return factory(**kwargs)

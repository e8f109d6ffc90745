"""The opponents a request may name: an allow-list of agents and, per agent, of options and the
values each may take.

A request comes from a browser, so it is hostile until shown otherwise: it may not name a file, a
path or a module (``ppo:path=`` would unpickle a ``.zip``, ``file.py:Class`` would import code),
and its budgets are capped so that no move searches for long. Searching agents from a request also
get a per-decision deadline (``time_ms``). The command line's ``--opponent`` is the person's own
choice and is not limited here. The caps are documented in docs/web-security.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..agents import agent_names
from ..agents.policies import SHIPPED_MODELS, shipped_model_names
from ..agents.ppo import ENDGAMES as PPO_ENDGAMES
from ..agents.spec import AgentSpec
from ..checks import parse_float_text, parse_int_text

__all__ = [
    "MAX_ITERATIONS",
    "MAX_PRIOR_WEIGHT",
    "MAX_SAMPLES",
    "MAX_SOLVE_STOCK",
    "MAX_SPEC_CHARS",
    "MAX_TABLE_SAMPLES",
    "MOVE_MS",
    "request_agents",
    "request_opponent",
]

MOVE_MS = 2000.0
"""Longest think, in milliseconds, of one decision of a searching agent (pimc, ismcts) from a request."""
MAX_SAMPLES = 400
"""Most PIMC samples (``pimc:samples``, ``ppo:endgame_samples``) a request may ask for."""
MAX_ITERATIONS = 20_000
"""Most ISMCTS iterations (``ismcts:iterations``) a request may ask for."""
MAX_SOLVE_STOCK = 4
"""Largest ``pimc:solve_stock`` from a request (exact solves with a longer open stock take seconds)."""
MAX_PRIOR_WEIGHT = 10.0
"""Largest ``pimc:prior_weight`` from a request (at 10 the network's choice wins almost always)."""
MAX_TABLE_SAMPLES = 48
"""Most samples of the three- and four-player ``pimc`` (and ``heuristic:bid_samples``) from a request."""
MAX_SPEC_CHARS = 200
"""Longest opponent text a request may send."""


@dataclass(frozen=True)
class Ints:
    """Whole numbers in ``lo..hi``, written in ASCII digits."""

    lo: int
    hi: int

    def read(self, text: str) -> int | None:
        value = parse_int_text(text)
        return value if value is not None and self.lo <= value <= self.hi else None

    def allowed(self) -> str:
        return f"a whole number in {self.lo}..{self.hi}"


@dataclass(frozen=True)
class Numbers:
    """Finite numbers above ``lo`` and at most ``hi``."""

    lo: float
    hi: float

    def read(self, text: str) -> float | None:
        value = parse_float_text(text)
        return value if value is not None and self.lo < value <= self.hi else None

    def allowed(self) -> str:
        return f"a number above {self.lo:g} and at most {self.hi:g}"


@dataclass(frozen=True)
class Choice:
    """One of a fixed set of words."""

    words: tuple[str, ...]

    def read(self, text: str) -> Any:
        if text in ("true", "false") and self.words == ("true", "false"):
            return text == "true"
        return text if text in self.words else None

    def allowed(self) -> str:
        return "one of " + ", ".join(self.words)


_FLAG = Choice(("true", "false"))
_MS = Numbers(0.0, MOVE_MS)
_PYTHON = Choice(("python",))  # the numba solver compiles for 10-20 s on first use: the command line's choice


TWO_PLAYER: dict[str, dict[str, Any]] = {
    "random": {},
    "heuristic": {},
    "alphabeta": {},
    "pimc": {
        "samples": Ints(1, MAX_SAMPLES),
        "time_ms": _MS,
        "endgame": Choice(("playout", "solve")),
        "closing": Choice(("solve", "playout")),
        "solver": _PYTHON,
        "solve_stock": Ints(0, MAX_SOLVE_STOCK),
        "prior": Choice(shipped_model_names()),  # a shipped network by name; never a path
        "prior_weight": Numbers(0.0, MAX_PRIOR_WEIGHT),
    },
    "ismcts": {"iterations": Ints(1, MAX_ITERATIONS), "time_ms": _MS, "c": Numbers(0.0, 10.0)},
    "ppo": {
        "model": Choice(shipped_model_names()),  # a shipped model by name; never path=
        "rules": Choice(tuple(SHIPPED_MODELS)),
        "deterministic": _FLAG,
        "endgame": Choice(tuple(PPO_ENDGAMES)),
        "endgame_samples": Ints(1, MAX_SAMPLES),
        "solver": _PYTHON,
    },
}
"""Two-player agents a request may name, with the options each may set and their values."""
TABLE: dict[str, dict[str, Any]] = {
    "random": {},
    "heuristic": {"bid_samples": Ints(0, MAX_TABLE_SAMPLES)},
    "pimc": {"samples": Ints(1, MAX_TABLE_SAMPLES)},
}
"""Three- and four-player agents a request may name (the table agents), with their options."""
_DEADLINED = {"pimc": ("samples", 20), "ismcts": ("iterations", 200)}
"""Searching agents that get ``time_ms`` from a request, and their budget and its default: with
``time_ms`` alone they would search until the deadline, not for their usual budget."""


def request_agents(game: str) -> dict[str, dict[str, Any]]:
    """The allow-list for ``game`` (``"two"``, ``"three"``, ``"four"``): agent -> option -> kind,
    for the names registered for that game (:data:`~sixtysix_env.agents.REGISTRY`)."""
    registered = agent_names(game)
    return {k: v for k, v in (TWO_PLAYER if game == "two" else TABLE).items() if k in registered}


def _describe(options: dict[str, Any]) -> str:
    return "; ".join(f"{k}: {kind.allowed()}" for k, kind in options.items()) or "no options"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


def request_opponent(text: object, game: str) -> AgentSpec:
    """The opponent a request names, checked against the allow-list of ``game``; a ValueError
    saying what is wrong and what is allowed. The spec's label is the canonical text (the options
    as read); its options add the deadline of a searching agent. Its ``game`` is ``game``, so
    ``make()`` builds the agent from that game's registry, as every entry point does."""
    agents = request_agents(game)
    names = ", ".join(agents)
    if not isinstance(text, str):
        raise ValueError(f"the opponent must be a text such as 'pimc:samples=40', got {type(text).__name__}")
    if len(text) > MAX_SPEC_CHARS:
        raise ValueError(f"the opponent text has {len(text)} characters: at most {MAX_SPEC_CHARS}")
    name, *parts = text.split(":")
    if game != "two" and name not in agents and name in TWO_PLAYER:
        raise ValueError(f"{name!r} cannot play the {game}-player game: {names} play every game")
    if name not in agents:
        raise ValueError(
            f"unknown opponent {text!r}: the page may choose {names} (with plain options; files, paths and "
            "modules only from the command line's --opponent)"
        )
    allowed = agents[name]
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        kind = allowed.get(key) if sep else None
        if kind is None:
            raise ValueError(f"option {part!r} of {name!r} cannot be set from the page: allowed {_describe(allowed)}")
        if key in options:
            raise ValueError(f"option {key!r} of {name!r} is given twice")
        read = kind.read(value)
        if read is None:
            raise ValueError(f"option {key}={value!r} of {name!r} is not allowed from the page: use {kind.allowed()}")
        options[key] = read
    label = ":".join([name, *(f"{k}={_text(v)}" for k, v in options.items())])
    enforced = dict(options)
    if game == "two" and name in _DEADLINED:
        budget, default = _DEADLINED[name]
        enforced.setdefault(budget, default)
        enforced["time_ms"] = min(options.get("time_ms", MOVE_MS), MOVE_MS)
    if name == "ppo" and enforced.get("endgame") == "search":
        enforced.setdefault("solver", "python")
    return AgentSpec(label, name, tuple(enforced.items()), game=game)

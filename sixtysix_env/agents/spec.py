"""Agents named by text, as command lines take them: a registered name with options, or a user's class.

The one parser of agent text: every command line (play, arena, table arena, demo, tournament,
benchmarks, training), the web server and the environments' opponents read it here, for a game
(``"two"``, ``"three"`` or ``"four"``: :data:`~sixtysix_env.agents.REGISTRY`'s keys), and
:meth:`AgentSpec.make` is the one way an agent is built from it.

Forms (options are ``key=value`` parts after a colon, values read as int, float, bool or text):

- ``pimc``, ``pimc:samples=40:endgame=solve`` -- a name of the game's registry (:func:`make_agent`);
- ``mybot.py:MyBot``, ``bots/mybot.py:MyBot:depth=3`` -- a class (or factory) in a Python file;
- ``mypackage.bots:MyBot`` -- a class in an importable module.

An :class:`AgentSpec` holds only text, so it pickles: a worker process started with ``spawn``
rebuilds the agent from the file or module itself, without the parent's registrations.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import sys
import types
import typing
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from ..checks import parse_float_text, parse_int_text
from . import agent_factory, agent_names, check_options, make_agent, unknown_agent_error
from .base import Agent

__all__ = ["AgentSpec", "check_option_types", "load_attribute", "load_module", "option_value", "parse_agent_spec"]


@dataclass(frozen=True)
class AgentSpec:
    """An agent as given on the command line: ``label`` is the text; ``name`` a key of ``game``'s
    registry, or ``source`` (a ``.py`` path or module) and ``attribute`` for a user's class."""

    label: str
    name: str
    options: tuple[tuple[str, Any], ...] = ()
    source: str = ""
    attribute: str = ""
    game: str = "two"

    def make(self) -> Agent:
        """A new agent: the options' plain types are checked (:func:`check_option_types`), then
        that the constructor takes them, then the constructor's own checks run."""
        options = dict(self.options)
        if not self.source:
            check_option_types(agent_factory(self.name, self.game), self.options, self.label)
            return make_agent(self.name, game=self.game, **options)
        factory = load_attribute(self.source, self.attribute)
        check_options(factory, options, self.label)
        check_option_types(factory, self.options, self.label)
        agent = factory(**options)
        if not callable(getattr(agent, "act", None)):
            raise ValueError(f"{self.label!r} built {agent!r}, which has no act(info, rng) method")
        if not isinstance(getattr(agent, "name", None), str):
            with contextlib.suppress(AttributeError):
                agent.name = self.attribute
        return agent

    def for_game(self, game: str) -> AgentSpec:
        """The same agent text for ``game``: a user's class as it is, a registered name looked up
        in that game's registry (a ValueError when it has none). Its options are checked when the
        agent is made."""
        if game == self.game:
            return self
        if not self.source:
            agent_factory(self.name, game)
        return replace(self, game=game)


_SIMPLE = {int: "an int", float: "a number", str: "a text", bool: "true or false", type(None): "none"}


def check_option_types(factory: Any, options: tuple[tuple[str, Any], ...], label: str) -> None:
    """Options whose annotated type is plain (int, float, str, bool, None and their unions) must
    match it: ``samples=1e9`` is a float where an int is asked. Other annotations are not checked."""
    if factory is None or not options:
        return
    try:
        hints = typing.get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    except Exception:  # unresolvable annotations: leave the check to the factory
        return
    for key, value in options:
        hint = hints.get(key)
        if hint is None:
            continue
        union = typing.get_origin(hint) in (typing.Union, types.UnionType)
        allowed = typing.get_args(hint) if union else (hint,)
        if not all(a in _SIMPLE for a in allowed):
            continue
        if isinstance(value, bool):
            ok = bool in allowed
        elif isinstance(value, int):
            ok = int in allowed or float in allowed
        else:
            ok = type(value) in allowed
        if not ok:
            expected = " or ".join(_SIMPLE[a] for a in allowed)
            raise ValueError(
                f"option {key}={value!r} of agent {label!r} must be {expected}, got {type(value).__name__} {value!r}"
            )


def load_module(source: str) -> ModuleType:
    """A Python file (``source`` ends in ``.py``, imported once per process under a name made from
    its path) or an importable module; a ValueError saying what failed."""
    if source.endswith(".py"):
        path = Path(source).expanduser().resolve()
        if not path.is_file():
            raise ValueError(f"bot file {source!r} not found (looked for {path})")
        key = "sixtysix_user_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
        module = sys.modules.get(key)
        if module is None:
            spec = importlib.util.spec_from_file_location(key, path)
            if spec is None or spec.loader is None:
                raise ValueError(f"cannot import {source!r} as a Python file")
            module = importlib.util.module_from_spec(spec)
            sys.modules[key] = module
            try:
                spec.loader.exec_module(module)
            except BaseException as e:
                del sys.modules[key]
                raise ValueError(f"importing {source!r} failed: {type(e).__name__}: {e}") from e
        return module
    try:
        return importlib.import_module(source)
    except ImportError as e:
        raise ValueError(f"cannot import module {source!r}: {e}") from e


def load_attribute(source: str, attribute: str) -> Any:
    """``attribute`` of a Python file (``source`` ends in ``.py``) or of an importable module."""
    module = load_module(source)
    try:
        return getattr(module, attribute)
    except AttributeError:
        public = sorted(n for n in vars(module) if not n.startswith("_") and inspect.isclass(getattr(module, n)))
        raise ValueError(f"{source!r} has no {attribute!r}; its classes: {', '.join(public) or 'none'}") from None


def option_value(text: str) -> Any:
    """One agent option's text as a value: ``none``/``null``, booleans, numbers (ASCII digits only), else the text."""
    low = text.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    # ASCII digits only (checks.parse_int_text): "١٢" and "1_000" stay text, which the type check refuses
    number: int | float | None = parse_int_text(text)
    if number is None and not text.lstrip("+-").isdigit():  # a too long integer stays text, not a float
        number = parse_float_text(text)
    return text if number is None else number


def _is_source(part: str) -> bool:
    return part.endswith(".py") or "/" in part or "\\" in part or "." in part


def parse_agent_spec(spec: str, label: str | None = None, *, game: str = "two") -> AgentSpec:
    """``"pimc:samples=40"``, ``"mybot.py:MyBot"`` or ``"pkg.mod:Bot:depth=2"`` -> an AgentSpec
    for ``game`` (``"two"``, ``"three"`` or ``"four"``: a name is looked up in that game's
    registry); ``label`` names it in tables (default: the text itself).

    The agent is built once here, so a bad name, file, class or option fails before any game."""
    agent_names(game)  # an unknown game fails first
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}")
    text = spec.strip()
    parts = text.split(":")
    # a Windows drive letter ("C:\\bots\\b.py:Bot") is part of the path
    if len(parts) > 2 and len(parts[0]) == 1 and parts[1].startswith(("\\", "/")):
        parts = [parts[0] + ":" + parts[1], *parts[2:]]
    head, rest = parts[0], parts[1:]
    source = attribute = ""
    if head not in agent_names(game):
        if not _is_source(head):
            raise unknown_agent_error(head, game, spec, own_class=True)
        if not rest or "=" in rest[0] or not rest[0].isidentifier():
            raise ValueError(f"agent spec {spec!r} names a file or module: write {head}:ClassName[:key=value]")
        source, attribute, rest = head, rest[0], rest[1:]
    options = []
    for p in rest:
        key, sep, value = p.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad agent option {p!r} in {spec!r}: write name:key=value[:key=value]")
        options.append((key.strip(), option_value(value.strip())))
    if label is not None and (not isinstance(label, str) or not label.strip() or "," in label):
        raise ValueError(f"label must be a non-empty text without commas, got {label!r}")
    out = AgentSpec(label or text, attribute or head, tuple(options), source, attribute, game)
    try:
        out.make()  # fail now, in the parent, on bad options
    except TypeError as e:  # an option of the wrong kind (samples=1e9): a bad spec, as a command line sees it
        raise ValueError(f"bad options for agent {spec!r}: {e}") from None
    except OSError as e:  # a file it needs is missing or unreadable (ppo:path=...)
        raise ValueError(f"cannot build agent {spec!r}: {e}") from None
    return out

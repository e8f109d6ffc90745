"""Finding the bots of a folder, and the agent class of one bot file.

Every ``*.py`` file of the folder is a bot, except names starting with ``_`` or ``test_`` (helpers
and tests). The bot's label is the file name without ``.py``. Its agent is, in this order:

1. the module attribute ``AGENT`` (a class, or any callable returning an agent);
2. else the one class defined in the file that has an ``act`` method (a file with several such
   classes must say which with ``AGENT = MyBot``).

The agent is built with no arguments. Files are imported only in a bot's own process
(:mod:`.host`), never in the tournament's; the folder is on that process's ``sys.path`` (last),
so a bot may import helper modules beside it (name them ``_helper.py`` so they are not bots).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["agent_attribute", "bot_files"]


def bot_files(folder: str | Path) -> list[Path]:
    """The bot files of ``folder``, sorted by name; a ValueError when it is not a folder."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise ValueError(f"bot folder {str(folder)!r} is not a folder")
    return sorted(p for p in path.glob("*.py") if p.is_file() and not p.name.startswith(("_", "test_")))


def agent_attribute(module: ModuleType) -> str:
    """The name of the module's agent factory by the convention above; a ValueError saying what
    is missing otherwise."""
    agent: Any = getattr(module, "AGENT", None)
    if agent is not None:
        if not callable(agent):
            raise ValueError(f"AGENT is {agent!r}, not a class or function")
        return "AGENT"
    own = [
        name
        for name, obj in vars(module).items()
        if inspect.isclass(obj) and obj.__module__ == module.__name__ and callable(getattr(obj, "act", None))
    ]
    if not own:
        raise ValueError("no agent found: define a class with an act(info, rng) method, or set AGENT = YourClass")
    if len(own) > 1:
        raise ValueError(f"several classes with an act method ({', '.join(own)}): say which with AGENT = {own[0]}")
    return own[0]

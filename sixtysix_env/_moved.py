"""Import paths of the 0.1 layout that moved, kept working for one release with a
``DeprecationWarning`` (they go in 0.2).

Each old name resolves to the module object at its new path (not a copy), so classes, module
state and ``isinstance`` are the same whichever path imported them. Installed on ``sys.meta_path``
by ``sixtysix_env/__init__.py``; it finds nothing but the names below.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

__all__ = ["MOVED", "install"]

_OLD_TO_NEW = {
    "multiplayer": "table",
    "multiplayer.table": "table.deal",
    "multiplayer.table_types": "table.deal_types",
    "multiplayer.four": "table.four",
    "multiplayer.three": "table.three",
    "multiplayer.view": "table.view",
    "multiplayer.rules": "table.rules",
    "multiplayer.observers": "table.observers",
    "multiplayer.actions": "table.actions",
    "multiplayer.match": "table.match",
    "multiplayer.rewards": "table.rewards",
    "agents.table_base": "agents.table.base",
    "agents.table_heuristic": "agents.table.heuristic",
    "agents.table_pimc": "agents.table.pimc",
    "agents.table_registry": "agents.table.registry",
    "web.tableview": "web.table",
    "envs._table_aec": "envs.table",
    "envs.multiplayer_registry": "envs.table_registry",
    "fast.vector_env": "envs.vector",
    "fast.sb3": "envs.sb3",
    "fast.opponents": "envs.vector_opponents",
    "fast.solver": "agents.fast.solver",
    "fast.response": "agents.fast.response",
    "fast.playout": "agents.fast.playout",
    "arena.workers": "distributed.local",
}
MOVED = {f"sixtysix_env.{old}": f"sixtysix_env.{new}" for old, new in _OLD_TO_NEW.items()}
"""Old full module name -> new full module name."""
_PACKAGES = frozenset({"sixtysix_env.multiplayer"})


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module at its new path."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.new}; import it from there (the old path goes in 0.2)",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing: the module at the new path is already executed."""


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Alias(new), is_package=fullname in _PACKAGES)


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())

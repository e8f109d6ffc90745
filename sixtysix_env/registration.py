"""Registers the environments with Gymnasium's and PettingZoo's registries, without importing them.

``import sixtysix_env`` must stay cheap for engine users (``from sixtysix_env import Deal``), so
it imports neither library. When one is already imported the ids are registered at once;
otherwise a one-shot import hook registers them right after that library is first imported, so
``import sixtysix_env; import gymnasium; gymnasium.make("SixtySix-v0")`` works in either order.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from .envs.table_registry import MULTIPLAYER_IDS

__all__ = ["GYM_ID", "PETTINGZOO_IDS", "register_aec_ids", "register_envs", "register_when_imported"]

PETTINGZOO_IDS = {"sixtysix/sixtysix_v0": "sixtysix_env.envs.sixtysix_v0:env", **MULTIPLAYER_IDS}
"""Each AEC env once, in the ``sixtysix`` namespace."""

GYM_ID = "SixtySix-v0"
"""The Gymnasium id of the single-agent env."""
# The package-level name (not ``sixtysix_env.envs.gym_env``): Gymnasium's ``pprint_registry`` files
# an id without a namespace under a part of its entry point's module path.
GYM_ENTRY = "sixtysix_env:SixtySixEnv"
# ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` builds the batched engine's
# VectorEnv; the string is resolved only then, so numba stays optional (the ``fast`` extra).
GYM_VECTOR_ENTRY = "sixtysix_env.envs.vector:SixtySixVectorEnv"


def register_aec_ids(ids: dict[str, str]) -> None:
    """Register AEC ids that are not there yet; PettingZoo normalizes ``name_v0`` to ``name-v0``,
    so presence is checked through its own lookup rather than by key."""
    import pettingzoo
    from pettingzoo.env_registry.exceptions import PettingZooRegistryError

    for env_id, entry in ids.items():
        try:
            pettingzoo.spec("aec", env_id)
        except PettingZooRegistryError:  # not registered yet
            pettingzoo.register("aec", env_id, entry_point=entry)


def _register_gymnasium() -> None:
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        # Without Gymnasium's OrderEnforcing and PassiveEnvChecker wrappers, ``gymnasium.make``
        # returns the env itself, so ``env.action_masks()`` works on it (Gymnasium 1.x wrappers
        # forward no attributes); the env enforces reset-before-step itself, and
        # ``gymnasium.make(..., disable_env_checker=False)`` still adds the checker.
        gymnasium.register(
            GYM_ID,
            entry_point=GYM_ENTRY,
            vector_entry_point=GYM_VECTOR_ENTRY,
            order_enforce=False,
            disable_env_checker=True,
        )


def _register_pettingzoo() -> None:
    register_aec_ids(PETTINGZOO_IDS)


_REGISTER = {"gymnasium": _register_gymnasium, "pettingzoo": _register_pettingzoo}


def register_envs() -> None:
    """Idempotent: safe to call again (a re-import does not warn about overriding). Imports both
    libraries; ``import sixtysix_env`` calls :func:`register_when_imported` instead."""
    _register_gymnasium()
    _register_pettingzoo()


class _RegisterAfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: for a pending library it wraps the real loader so the library's ids
    are registered once the library has been executed, then forgets that library."""

    def __init__(self, pending: set[str]) -> None:
        self.pending = pending

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.pending:
            return None
        spec = None
        for finder in sys.meta_path:  # the finders that would have found it without this one
            find = getattr(finder, "find_spec", None)
            if finder is not self and find is not None:
                spec = find(fullname, path, target)
                if spec is not None:
                    break
        loader: Any = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module
        pending = self.pending

        def exec_module(module: ModuleType) -> None:
            run(module)
            # only once the library has really been executed: a probe such as
            # importlib.util.find_spec("gymnasium") (torchrl makes one) must not use up the hook
            if fullname in pending:
                pending.discard(fullname)
                if not pending and self in sys.meta_path:
                    sys.meta_path.remove(self)
                _REGISTER[fullname]()

        loader.exec_module = exec_module
        return spec


def register_when_imported() -> None:
    """Register with each library now if it is imported, else right after it is."""
    pending = set()
    for name, register in _REGISTER.items():
        if name in sys.modules:
            register()
        else:
            pending.add(name)
    if pending and not any(isinstance(f, _RegisterAfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterAfterImport(pending))

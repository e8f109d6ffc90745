"""Registers the environments with PettingZoo's and Gymnasium's registries on import."""

from __future__ import annotations

import importlib.util

__all__ = ["register_envs"]

PETTINGZOO_IDS = {
    "sixtysix/sixtysix_v0": "sixtysix_env.envs.sixtysix_v0:env",
    "sixtysix_v0": "sixtysix_env.envs.sixtysix_v0:env",
}


def register_envs() -> None:
    """Idempotent: safe to call again (a re-import does not warn about overriding)."""
    import pettingzoo

    for env_id, entry in PETTINGZOO_IDS.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=entry)
    if importlib.util.find_spec("sixtysix_env.envs.multiplayer_registry") is not None:
        from .envs.multiplayer_registry import register_multiplayer_envs

        register_multiplayer_envs()

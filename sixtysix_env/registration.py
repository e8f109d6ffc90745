"""Registers the environments with PettingZoo's and Gymnasium's registries on import."""

from __future__ import annotations

import importlib.util

__all__ = ["register_aec_ids", "register_envs"]

PETTINGZOO_IDS = {
    "sixtysix/sixtysix_v0": "sixtysix_env.envs.sixtysix_v0:env",
    "sixtysix_v0": "sixtysix_env.envs.sixtysix_v0:env",
}


GYM_ID = "SixtySix-v0"


def _vector_entry() -> dict[str, str]:
    """The batched engine's VectorEnv, when that module is present, serves ``gymnasium.make_vec``."""
    if importlib.util.find_spec("sixtysix_env.fast.vector_env") is not None:
        return {"vector_entry_point": "sixtysix_env.fast.vector_env:SixtySixVectorEnv"}
    return {}


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


def register_envs() -> None:
    """Idempotent: safe to call again (a re-import does not warn about overriding)."""
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(GYM_ID, entry_point="sixtysix_env.envs.gym_env:SixtySixEnv", **_vector_entry())

    register_aec_ids(PETTINGZOO_IDS)
    if importlib.util.find_spec("sixtysix_env.envs.multiplayer_registry") is not None:
        from .envs.multiplayer_registry import register_multiplayer_envs

        register_multiplayer_envs()

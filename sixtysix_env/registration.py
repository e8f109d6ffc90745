"""Registers the environments with PettingZoo's and Gymnasium's registries on import."""

from __future__ import annotations

import importlib.util

__all__ = ["register_envs"]

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


def register_envs() -> None:
    """Idempotent: safe to call again (a re-import does not warn about overriding)."""
    import gymnasium
    import pettingzoo

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(GYM_ID, entry_point="sixtysix_env.envs.gym_env:SixtySixEnv", **_vector_entry())

    for env_id, entry in PETTINGZOO_IDS.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=entry)
    if importlib.util.find_spec("sixtysix_env.envs.multiplayer_registry") is not None:
        from .envs.multiplayer_registry import register_multiplayer_envs

        register_multiplayer_envs()
